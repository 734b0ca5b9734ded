//! A game-agnostic description of a position, for diagrams: squares with
//! stacks of pieces, the side to move, and the rights that belong to the
//! identity of a position. Each game fills it in ([`super::Game::board`]);
//! the printers draw it without knowing which game it is.

use super::Side;

/// What a piece is, in either game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
    /// Draughts: a man.
    Man,
    /// Draughts: a king (a crowned man).
    Crowned,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub figure: Figure,
}

/// A right that makes two positions with the same pieces different.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Right {
    /// Chess: `side` may still castle with the rook on `square`.
    Castling { side: Side, square: usize },
    /// Chess: an en passant capture onto `square` is legal.
    EnPassant { square: usize },
}

impl Right {
    pub fn square(self) -> usize {
        match self {
            Right::Castling { square, .. } | Right::EnPassant { square } => square,
        }
    }
}

/// A position as a printer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub files: usize,
    pub ranks: usize,
    /// Index `rank * files + file`, a1 first; each stack top first (empty:
    /// an empty square).
    pub squares: Vec<Vec<Piece>>,
    pub to_move: Side,
    pub rights: Vec<Right>,
    /// Only the dark squares are played on (draughts).
    pub dark_only: bool,
}

impl Board {
    /// An empty board of this size.
    pub fn empty(files: usize, ranks: usize, to_move: Side, dark_only: bool) -> Board {
        Board {
            files,
            ranks,
            squares: vec![Vec::new(); files * ranks],
            to_move,
            rights: Vec::new(),
            dark_only,
        }
    }

    /// "e4" for a square index.
    pub fn square_name(&self, sq: usize) -> String {
        let file = (b'a' + (sq % self.files.max(1)) as u8) as char;
        format!("{file}{}", sq / self.files.max(1) + 1)
    }

    /// a1 is dark in both games.
    pub fn is_dark(&self, sq: usize) -> bool {
        let f = self.files.max(1);
        (sq % f + sq / f).is_multiple_of(2)
    }

    /// The squares whose stacks differ between two boards of one size (the
    /// squares a move touched).
    pub fn changed(&self, other: &Board) -> Vec<usize> {
        (0..self.squares.len())
            .filter(|&s| other.squares.get(s) != Some(&self.squares[s]))
            .collect()
    }

    /// Rights held here and not in `other`.
    pub fn rights_not_in(&self, other: &Board) -> Vec<Right> {
        self.rights
            .iter()
            .copied()
            .filter(|r| !other.rights.contains(r))
            .collect()
    }

    /// The position in words for a caption: who is to move and the rights
    /// ("White to move; castling a1 h1 a8 h8; en passant c6").
    pub fn rights_words(&self) -> String {
        let mut castling = Vec::new();
        let mut ep = Vec::new();
        for r in &self.rights {
            match *r {
                Right::Castling { square, .. } => castling.push(self.square_name(square)),
                Right::EnPassant { square } => ep.push(self.square_name(square)),
            }
        }
        let mut out = format!("{} to move", self.to_move.title());
        if !castling.is_empty() {
            out.push_str(&format!("; castling with {}", castling.join(" ")));
        }
        if !ep.is_empty() {
            out.push_str(&format!("; en passant onto {}", ep.join(" ")));
        }
        out
    }
}
