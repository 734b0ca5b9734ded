//! The words of the rules as types: the draw rules a claim rests on, the
//! rulebooks, and the results of a game. Each has one name table
//! (`column_draughts::named!`), which the JSON, the options and the text
//! all use: nothing compares them as strings.

use std::fmt;

use super::Edition;

column_draughts::named! {
    /// A rule a draw claim can rest on (a ground's `rule` in the JSON).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Rule {
        /// The same position three times (9.2; column draughts 1.13.2).
        ThreefoldRepetition = "threefold-repetition",
        /// Fifty moves by each player without a pawn move or a capture (9.3).
        FiftyMove = "fifty-move",
        /// Column draughts: fifteen moves by each player without a change of
        /// material (1.13.1).
        UnchangedMaterial = "unchanged-material",
    }
}

impl Rule {
    /// Whether the rule counts moves (fifty moves, unchanged material)
    /// rather than positions.
    pub fn is_count(self) -> bool {
        self != Rule::ThreefoldRepetition
    }
}

/// The rulebook a game is decided under: a FIDE edition of the Laws of
/// Chess, or the St Petersburg rules of column draughts. Its name
/// (`fide-2023`, `spb-column-draughts`) is a claim's `rules` in the JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Laws {
    /// The Laws of Chess of a FIDE edition (its names are [`Edition`]'s).
    Fide(Edition),
    /// Russian column draughts, St Petersburg rules (1.11–1.13).
    SpbColumnDraughts,
}

impl Laws {
    /// The name in the output (`fide-2023`, `spb-column-draughts`).
    pub const fn name(self) -> &'static str {
        match self {
            Laws::Fide(e) => e.name(),
            Laws::SpbColumnDraughts => "spb-column-draughts",
        }
    }

    /// The FIDE edition, for chess.
    pub fn edition(self) -> Option<Edition> {
        match self {
            Laws::Fide(e) => Some(e),
            Laws::SpbColumnDraughts => None,
        }
    }
}

impl fmt::Display for Laws {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Laws {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

column_draughts::named! {
    /// The result of a game, as PGN writes it. The aliases are the other
    /// ways records write the same result (draughts' `2-0`, `1-1`, a `½`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum GameResult {
        /// White won.
        WhiteWins = "1-0" | "2-0",
        /// Black won.
        BlackWins = "0-1" | "0-2",
        /// A draw.
        Draw = "1/2-1/2" | "1-1" | "½-½",
        /// Unknown, or the game goes on.
        Unfinished = "*",
    }
}

impl GameResult {
    /// A recorded result read (spaces around it allowed; the aliases
    /// too); `None` for anything that is not a result.
    pub fn read(text: &str) -> Option<GameResult> {
        column_draughts::names::Named::from_name(text.trim())
    }

    /// The result of a win by `side`.
    pub fn win_for(side: crate::game::Side) -> GameResult {
        match side {
            crate::game::Side::White => GameResult::WhiteWins,
            crate::game::Side::Black => GameResult::BlackWins,
        }
    }

    /// The winner of a decided game.
    pub fn winner(self) -> Option<crate::game::Side> {
        match self {
            GameResult::WhiteWins => Some(crate::game::Side::White),
            GameResult::BlackWins => Some(crate::game::Side::Black),
            GameResult::Draw | GameResult::Unfinished => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_by_any_of_their_names() {
        assert_eq!(GameResult::read(" 2-0 "), Some(GameResult::WhiteWins));
        assert_eq!(GameResult::read("½-½"), Some(GameResult::Draw));
        assert_eq!(GameResult::read("*"), Some(GameResult::Unfinished));
        assert_eq!(GameResult::read("1-0-1"), None);
        assert_eq!(GameResult::Draw.name(), "1/2-1/2");
    }

    #[test]
    fn rulebook_names() {
        assert_eq!(Laws::Fide(Edition::Fide2018).to_string(), "fide-2018");
        assert_eq!(Laws::SpbColumnDraughts.name(), "spb-column-draughts");
        assert_eq!(
            serde_json::to_string(&Rule::FiftyMove).ok().as_deref(),
            Some("\"fifty-move\"")
        );
    }
}
