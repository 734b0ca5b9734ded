//! The words both games share (the engine re-exports them): the sides, a
//! refused move, how hard to search and what a search found. They live in
//! this crate, the lowest, so that it depends on no other of the project.

use std::fmt;

crate::named! {
    /// The two sides. White moves first in both games.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Side {
        /// The side that moves first.
        White = "white",
        /// The side that moves second.
        Black = "black",
    }
}

impl Side {
    /// The opponent.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    /// The name in a sentence (`White`).
    pub fn title(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
}

/// Why a written or recorded move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    Syntax(String),
    /// A move in the notation, but not legal here; the string says why.
    Illegal(String),
    /// Several legal moves fit; the string lists them.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) | MoveError::Illegal(s) | MoveError::Ambiguous(s) => {
                f.write_str(s)
            }
        }
    }
}

crate::named! {
    /// How hard to look for a checkmate (`--dead-search`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Search {
        /// A fast test that can prove a side cannot mate, never that it can.
        Quick = "quick" ("A fast test that can prove a position dead, never that it is not"),
        /// The full search (bounded by the solver's node limit): a helpmate, a
        /// proof that none exists, or undetermined.
        Full = "full" ("The full unwinnability search (helpmate or proof)"),
    }
}

/// Whether a side can still checkmate by some sequence of legal moves.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase", tag = "verdict")]
pub enum Win {
    /// Yes: a helpmate, in the game's notation from the position.
    Yes { helpmate: Vec<String> },
    /// No sequence of legal moves lets this side checkmate.
    No,
    /// The search could not decide (never a guess).
    Undetermined,
}

impl Win {
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Win::Yes { .. } => Some(true),
            Win::No => Some(false),
            Win::Undetermined => None,
        }
    }
}
