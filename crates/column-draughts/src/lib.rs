//! Russian column draughts (столбовые шашки, "bashni"), as
//! `../shared/notes/column-draughts.md` sets out the rules.
//!
//! - 32 dark squares (a1 dark), 12 men a side, White first.
//! - Every occupied square holds a [`Tower`]; its top piece decides the
//!   owner and how it moves; a king buried in a tower stays a king.
//! - Men step diagonally forward, capture forward and backward; kings fly.
//!   Capturing is compulsory, with free choice of sequence; a started
//!   sequence must be completed; a flying king must land where the capture
//!   can continue if it can; a man reaching the far rank during a capture
//!   becomes a king and goes on as a king.
//! - A capture takes the top piece of the jumped tower and puts it at the
//!   bottom of the capturing tower (each taken piece below the previous one);
//!   what is left of the jumped tower stays, owned by its new top.
//! - Jumping the same tower twice in one move: by default not (jumped towers
//!   stay in place, blocking, until the move ends); [`Rules::Rejump`] takes
//!   each piece at once and allows a tower to be jumped again, but never on
//!   the jump right after its previous one.
//!
//! Notation: `c3-d4` for a step, `c3:e5:g3` for a capture with every landing
//! square (or only its ends, `c3:g3`, when that is unambiguous).
//!
//! A crate of its own, below the engine (`verify-claim`), which plays it
//! through its `Game` trait.
//!
//! (Example: `crates/verify-claim/src/tests/module_examples.rs`,
//! `column_draughts_notation`.)

pub mod dead;
pub mod fen;
mod moves;
pub mod names;
mod notation;
mod position;
mod tower;
mod vocabulary;

pub use moves::{Move, legal_moves, perft, play};
pub use notation::parse_move;
pub use position::{Position, full_hash, play_hashed};
pub use tower::{Piece, Tower};
pub use vocabulary::{MoveError, Search, Side, Win};

named! {
    /// Which reading of the re-jump rule applies (`--column-rules`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub enum Rules {
        /// Each tower may be jumped at most once per move; jumped towers stay in
        /// place, blocking, until the move ends (as in Russian draughts).
        #[default]
        Standard = "standard" ("A tower may be jumped once per move (jumped towers stay, blocking)"),
        /// Captures take effect at once; a tower may be jumped again (not on the
        /// jump right after its previous one) while an enemy piece is on top.
        Rejump = "rejump" ("Captures take effect at once; a tower may be jumped again"),
    }
}

/// A square, 0..32: rank-major from a1 (a1 = 0, c1 = 1, ..., h8 = 31).
pub type Square = u8;

pub fn file_of(s: Square) -> i8 {
    let r = (s / 4) as i8;
    2 * (s % 4) as i8 + (r % 2)
}

pub fn rank_of(s: Square) -> i8 {
    (s / 4) as i8
}

/// The square at (file, rank), if it is a dark square on the board.
pub fn square_at(file: i8, rank: i8) -> Option<Square> {
    if !(0..8).contains(&file) || !(0..8).contains(&rank) || (file + rank) % 2 != 0 {
        return None;
    }
    Some((rank * 4 + file / 2) as Square)
}

pub fn square_name(s: Square) -> String {
    format!("{}{}", (b'a' + file_of(s) as u8) as char, rank_of(s) + 1)
}

/// Reads "c3" (a dark square); `None` otherwise.
pub fn parse_square(t: &str) -> Option<Square> {
    let b = t.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    square_at((b[0] - b'a') as i8, (b[1] - b'1') as i8)
}

const DIRECTIONS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn step(s: Square, d: (i8, i8)) -> Option<Square> {
    square_at(file_of(s) + d.0, rank_of(s) + d.1)
}

fn far_rank(side: Side) -> i8 {
    match side {
        Side::White => 7,
        Side::Black => 0,
    }
}

/// Column draughts as a [`Game`](super::Game) (`game.rs`).
pub struct ColumnDraughts;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares() {
        assert_eq!(parse_square("a1"), Some(0));
        assert_eq!(parse_square("c1"), Some(1));
        assert_eq!(parse_square("b2"), Some(4));
        assert_eq!(parse_square("h8"), Some(31));
        assert_eq!(parse_square("a2"), None);
        for s in 0..32 {
            assert_eq!(parse_square(&square_name(s)), Some(s));
        }
    }
}
