//! A written box against a legal move: the cost of reading what is written
//! as that move, by the kind of slip it takes (docs/scoresheets.md gives
//! the table and why). One trait, [`SheetGame`], so the search is written
//! once over both games.

use shakmaty::{CastlingSide, Move, Role, Square};

use super::notation::{self, Written};
use crate::game::Game;
use crate::game::chess::ChessGame;
use crate::game::column_draughts::{self as cd, ColumnDraughts};

/// The costs of the slips, in tenths of "one ordinary slip" rounded to
/// whole units (docs/scoresheets.md: why each is where it is).
pub(super) mod cost {
    /// A box that says nothing (empty, 8.4) or a move read exactly.
    pub(crate) const EXACT: u32 = 0;
    /// A promotion written without its piece, read as a queen.
    pub(crate) const PROMOTION_UNWRITTEN: u32 = 1;
    /// A pawn capture written as a push (`d5` for `exd5`).
    pub(crate) const CAPTURE_UNWRITTEN: u32 = 1;
    /// A capture mark on a move that takes nothing.
    pub(crate) const CAPTURE_MARK: u32 = 2;
    /// A move written without the disambiguation it needed (`Nd2` where two
    /// knights can go): each legal reading costs this.
    pub(crate) const AMBIGUOUS: u32 = 2;
    /// An under-promotion written without its piece.
    pub(crate) const PROMOTION_UNWRITTEN_MINOR: u32 = 3;
    /// A wrong disambiguation or start square (`Nbd2` for `Nfd2`).
    pub(crate) const FROM_WRONG: u32 = 4;
    /// A wrong promotion piece.
    pub(crate) const PROMOTION_WRONG: u32 = 4;
    /// The destination's file or rank off by one (`Nf4` for `Nf3`).
    pub(crate) const SQUARE_NEAR: u32 = 4;
    /// A wrong piece letter (`Bf3` for `Nf3`).
    pub(crate) const PIECE: u32 = 5;
    /// Castling on the other side.
    pub(crate) const CASTLING_SIDE: u32 = 5;
    /// The destination's file or rank wrong by more than one.
    pub(crate) const SQUARE_FAR: u32 = 7;
    /// A move not written at all on one sheet (its row shifted).
    pub(crate) const MISSING: u32 = 8;
    /// A box that holds no move of the game (a move written twice).
    pub(crate) const EXTRA: u32 = 8;
    /// Above this one box is not read as the move (two slips in one box
    /// at most).
    pub(crate) const MAX_BOX: u32 = 12;
}

/// A game whose sheets can be read.
pub(super) trait SheetGame: Game {
    type Written: Clone + PartialEq + std::fmt::Debug;
    /// The codes of the notations its sheets are written in.
    fn codes() -> Vec<&'static str>;
    /// Reads a box (marks removed) in notation `n` (an index of `codes`).
    fn read(n: usize, text: &str) -> Result<Self::Written, String>;
    /// The cost of reading `w` as the legal move `m` (without the cost of
    /// a missing disambiguation, which the search adds); `None`: too far.
    fn cost(pos: &Self::Position, m: &Self::Move, w: &Self::Written) -> Option<u32>;
    /// Why `text` cannot be evidence at all (descriptive notation), if so.
    fn not_evidence(_text: &str) -> Option<String> {
        None
    }
}

/// The costs of reading `w` as each of `legal`: the raw costs, then, where
/// several moves read exactly, each at [`cost::AMBIGUOUS`].
pub(super) fn costs<G: SheetGame>(
    pos: &G::Position,
    legal: &[G::Move],
    w: &G::Written,
) -> Vec<Option<u32>> {
    let mut out: Vec<Option<u32>> = legal.iter().map(|m| G::cost(pos, m, w)).collect();
    if out.iter().filter(|c| **c == Some(cost::EXACT)).count() > 1 {
        for c in out.iter_mut().filter(|c| **c == Some(cost::EXACT)) {
            *c = Some(cost::AMBIGUOUS);
        }
    }
    out
}

impl SheetGame for ChessGame {
    type Written = Written;

    fn codes() -> Vec<&'static str> {
        notation::TABLE.iter().map(|n| n.code).collect()
    }

    fn read(n: usize, text: &str) -> Result<Written, String> {
        let table = notation::TABLE.get(n).ok_or("no such notation")?;
        notation::read(table, text)
    }

    fn cost(pos: &shakmaty::Chess, m: &Move, w: &Written) -> Option<u32> {
        chess_cost(pos, m, w)
    }

    fn not_evidence(text: &str) -> Option<String> {
        notation::is_descriptive(text).then(|| {
            format!(
                "'{text}' is descriptive notation: Appendix C recognises only algebraic notation, and a scoresheet in another cannot be used as evidence (C.1)"
            )
        })
    }
}

/// Where the king lands when castling on `side` (the square written).
fn castle_target(m: &Move) -> Option<(CastlingSide, Square)> {
    let Move::Castle { king, rook } = *m else {
        return None;
    };
    let side = if rook.file() > king.file() {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    };
    Some((side, Square::from_coords(side.king_to_file(), king.rank())))
}

fn chess_cost(pos: &shakmaty::Chess, m: &Move, w: &Written) -> Option<u32> {
    let castle = castle_target(m);
    let (role, to, mpromo) = match (w, castle) {
        (Written::Castle { long }, Some((side, _))) => {
            let same = (side == CastlingSide::QueenSide) == *long;
            return Some(if same {
                cost::EXACT
            } else {
                cost::CASTLING_SIDE
            });
        }
        (Written::Castle { .. }, None) => return None,
        (
            Written::Move {
                role,
                to,
                promotion,
                ..
            },
            _,
        ) => (role, *to, promotion),
    };
    let Written::Move {
        from_file,
        from_rank,
        capture,
        ..
    } = w
    else {
        return None;
    };
    let (m_role, m_to) = match castle {
        Some((_, king_to)) => (Role::King, king_to),
        None => (m.role(), m.to()),
    };
    let from = m.from()?;
    let mut c = 0;
    let written_role = role.unwrap_or(Role::Pawn);
    if written_role != m_role {
        c += cost::PIECE;
    }
    if to != m_to {
        let (df, dr) = (
            (to.file() as i32 - m_to.file() as i32).abs(),
            (to.rank() as i32 - m_to.rank() as i32).abs(),
        );
        c += match (df, dr) {
            (1, 0) | (0, 1) => cost::SQUARE_NEAR,
            (_, 0) | (0, _) => cost::SQUARE_FAR,
            _ => return None,
        };
    }
    if from_file.is_some_and(|f| f != from.file()) {
        c += cost::FROM_WRONG;
    }
    if from_rank.is_some_and(|r| r != from.rank()) {
        c += cost::FROM_WRONG;
    }
    if *capture && !m.is_capture() {
        c += cost::CAPTURE_MARK;
    }
    if m_role == Role::Pawn
        && written_role == Role::Pawn
        && from.file() != m_to.file()
        && from_file.is_none()
    {
        c += cost::CAPTURE_UNWRITTEN;
    }
    c += match (m.promotion(), mpromo) {
        (Some(a), Some(b)) if a == *b => 0,
        (Some(Role::Queen), None) => cost::PROMOTION_UNWRITTEN,
        (Some(_), None) => cost::PROMOTION_UNWRITTEN_MINOR,
        (None, None) => 0,
        _ => cost::PROMOTION_WRONG,
    };
    let _ = pos;
    (c <= cost::MAX_BOX).then_some(c)
}

/// A column-draughts move as written: its squares (file, rank from 0;
/// a light square too, a slip the cost repairs) and whether `:` marks it a
/// capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct DraughtsWritten {
    pub squares: Vec<(i8, i8)>,
    pub capture: bool,
}

fn coords(t: &str) -> Option<(i8, i8)> {
    let b = t.as_bytes();
    match b {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(((f - b'a') as i8, (r - b'1') as i8)),
        _ => None,
    }
}

impl SheetGame for ColumnDraughts {
    type Written = DraughtsWritten;

    fn codes() -> Vec<&'static str> {
        vec!["draughts"]
    }

    fn read(_: usize, text: &str) -> Result<DraughtsWritten, String> {
        let t = text.trim();
        let capture = t.contains([':', 'x', '×']);
        let squares: Option<Vec<(i8, i8)>> =
            t.split([':', '-', 'x', '×', '–']).map(coords).collect();
        match squares {
            Some(s) if s.len() >= 2 && s.len() <= 16 => Ok(DraughtsWritten {
                squares: s,
                capture,
            }),
            _ => Err(format!(
                "'{text}' is not a column-draughts move (c3-d4, or c3:e5:g7 for a capture)"
            )),
        }
    }

    fn cost(_: &cd::Position, m: &cd::Move, w: &DraughtsWritten) -> Option<u32> {
        let path: Vec<(i8, i8)> = m
            .path()
            .iter()
            .map(|&s| (cd::file_of(s), cd::rank_of(s)))
            .collect();
        let mark = if w.capture == m.is_capture() {
            0
        } else {
            cost::CAPTURE_MARK
        };
        if w.squares == path {
            return Some(mark);
        }
        let (first, last) = (w.squares.first()?, w.squares.last()?);
        if m.is_capture()
            && w.squares.len() == 2
            && Some(first) == path.first()
            && Some(last) == path.last()
        {
            return Some(mark);
        }
        if w.squares.len() == path.len() {
            let wrong: Vec<_> = w
                .squares
                .iter()
                .zip(&path)
                .filter(|(a, b)| a != b)
                .collect();
            if let [(a, b)] = wrong.as_slice() {
                let near = (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1;
                return Some(
                    mark + if near {
                        cost::SQUARE_NEAR
                    } else {
                        cost::SQUARE_FAR
                    },
                );
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    fn costs_of(text: &str) -> Vec<(String, u32)> {
        let pos = Chess::default();
        let w = ChessGame::read(0, text).unwrap();
        let legal = ChessGame::legal_moves(&pos);
        let mut out: Vec<(String, u32)> = costs::<ChessGame>(&pos, &legal, &w)
            .into_iter()
            .zip(&legal)
            .filter_map(|(c, m)| Some((ChessGame::notation(&pos, m), c?)))
            .collect();
        out.sort_by_key(|x| (x.1, x.0.clone()));
        out
    }

    #[test]
    fn slips_cost_by_kind() {
        assert_eq!(costs_of("Nf3")[0], ("Nf3".into(), 0));
        assert_eq!(costs_of("Ng1-f3")[0], ("Nf3".into(), 0));
        // A wrong piece letter: the bishop cannot go to f3; the knight can.
        let b = costs_of("Bf3");
        assert_eq!(b[0], ("Nf3".into(), cost::PIECE));
        // Off by one: Nf4 is no move; Nf3 and Ne... near.
        let f4 = costs_of("Nf4");
        assert!(f4.contains(&("Nf3".into(), cost::SQUARE_NEAR)), "{f4:?}");
        assert_eq!(costs_of("e4")[0], ("e4".into(), 0));
    }
}
