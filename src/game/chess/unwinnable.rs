//! Can a side still checkmate? Miguel Ambrona's Chess Unwinnability
//! Analyzer ("A Practical Algorithm for Chess Unwinnability", FUN 2022), as
//! the crate `chasolver`, behind this one boundary: positions cross it as
//! FEN (chasolver works on the `chess` crate's `Board`), and helpmate lines
//! come back as SAN.
//!
//! Used for dead positions (no sequence of legal moves leads to checkmate
//! for either side: 9.6 in 2009, 9.7 in 2014, 5.2.2 from 2018), for flag
//! falls (6.9) and, from 2023, resignations (5.1.2).
//!
//! ```
//! use shakmaty::{Chess, CastlingMode, Color, fen::Fen};
//! use verify_claim::game::chess::unwinnable::{Search, Win, can_mate};
//! // A pawn wall with kings only: dead.
//! let pos: Chess = Fen::from_ascii(b"8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
//!     .unwrap().into_position(CastlingMode::Standard).unwrap();
//! assert_eq!(can_mate(&pos, Color::White, Search::Full), Win::No);
//! ```

use std::str::FromStr;

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, Position, fen::Fen, san::SanPlus, uci::UciMove,
};

pub use crate::game::{DeadCheck, Search, Win};

/// The position for chasolver: standard FEN (the `chess` crate reads no
/// Chess960 castling). `None` when it cannot be expressed exactly.
fn to_board(pos: &Chess) -> Option<chess::Board> {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    chess::Board::from_str(&fen).ok()
}

/// Replays chasolver's moves on our position and writes them in SAN; `None`
/// if any does not fit (then the helpmate is not trusted).
fn helpmate_san(pos: &Chess, moves: &[chess::ChessMove]) -> Option<Vec<String>> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let uci = UciMove::from_str(&m.to_string()).ok()?;
        let mv = uci.to_move(&p).ok()?;
        out.push(SanPlus::from_move_and_play_unchecked(&mut p, mv).to_string());
    }
    p.is_checkmate().then_some(out)
}

/// Whether `side` can still checkmate from `pos`.
pub fn can_mate(pos: &Chess, side: Color, search: Search) -> Win {
    if pos.is_checkmate() {
        // The side that delivered it has; the other cannot move any more.
        return if pos.turn() != side {
            Win::Yes {
                helpmate: Vec::new(),
            }
        } else {
            Win::No
        };
    }
    if pos.is_stalemate() {
        return Win::No;
    }
    let Some(board) = to_board(pos) else {
        return Win::Undetermined;
    };
    let color = match side {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    };
    match search {
        Search::Quick => {
            if chasolver::is_unwinnable_fast(&board, color) {
                Win::No
            } else {
                Win::Undetermined
            }
        }
        Search::Full => match chasolver::winnability(&board, color) {
            Some(chasolver::Winnability::Unwinnable) => Win::No,
            Some(chasolver::Winnability::Winnable { helpmate }) => {
                match helpmate_san(pos, &helpmate) {
                    Some(san) => Win::Yes { helpmate: san },
                    None => Win::Undetermined,
                }
            }
            None => Win::Undetermined,
        },
    }
}

/// Proved dead: neither side can mate. One conversion, and it stops at the
/// first side not proved unable to mate (the usual case, and cheap).
pub fn is_dead(pos: &Chess, search: Search) -> bool {
    if pos.legal_moves().is_empty() {
        return false; // checkmate or stalemate: the game ends as that
    }
    let Some(board) = to_board(pos) else {
        return false;
    };
    let proved = |color: chess::Color| match search {
        Search::Quick => chasolver::is_unwinnable_fast(&board, color),
        Search::Full => matches!(
            chasolver::winnability(&board, color),
            Some(chasolver::Winnability::Unwinnable)
        ),
    };
    proved(chess::Color::White) && proved(chess::Color::Black)
}

/// Reads a FEN for `check-position` (Chess960 castling accepted). A
/// position with more material than a game can reach (a study, a test
/// vector) is analysed all the same; game records stay strict.
pub fn position_from_fen(fen: &str) -> Result<Chess, String> {
    let f =
        Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| format!("bad FEN \"{fen}\": {e}"))?;
    match f.into_position(CastlingMode::Chess960) {
        Ok(p) => Ok(p),
        Err(e) => e
            .ignore_too_much_material()
            .map_err(|e| format!("bad FEN \"{fen}\": {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, chess::ChessGame};

    fn dead_check(pos: &Chess, search: Search) -> DeadCheck {
        ChessGame::dead_check(pos, search)
    }

    fn pos(fen: &str) -> Chess {
        position_from_fen(fen).unwrap()
    }

    fn check(fen: &str) -> (Option<bool>, Option<bool>, Option<bool>) {
        let d = dead_check(&pos(fen), Search::Full);
        (d.dead(), d.white.as_bool(), d.black.as_bool())
    }

    #[test]
    fn classic_cases() {
        // Pawn wall, kings only: dead.
        assert_eq!(
            check("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"),
            (Some(true), Some(false), Some(false))
        );
        // K+B v K+B, bishops on the same colour: dead.
        assert_eq!(check("8/8/3k4/8/2b5/8/3KB3/8 w - - 0 1").0, Some(true));
        // Bishops on opposite colours: a helpmate exists.
        assert_eq!(
            check("8/8/3k4/8/3b4/8/3KB3/8 w - - 0 1"),
            (Some(false), Some(true), Some(true))
        );
        // K+N v K+N: not dead.
        assert_eq!(
            check("8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1"),
            (Some(false), Some(true), Some(true))
        );
        // K+N+N v K: not dead (White can mate with cooperation).
        assert_eq!(
            check("8/8/3k4/8/8/8/3KNN2/8 w - - 0 1"),
            (Some(false), Some(true), Some(false))
        );
        // K v K: dead.
        assert_eq!(check("8/8/3k4/8/8/8/3K4/8 w - - 0 1").0, Some(true));
    }

    #[test]
    fn a_fortress_only_one_side_can_ever_mate() {
        // From the D3-Chess vectors ("-B"): only Black can ever mate.
        // (A wall with a free rook behind it is no fortress: the rook can be
        // given up to open it, which the search finds.)
        let d = dead_check(&pos("8/8/8/7p/5K1k/7P/8/8 b - - 0 1"), Search::Full);
        assert_eq!(d.white, Win::No);
        assert!(matches!(d.black, Win::Yes { .. }), "{d:?}");
        assert_eq!(d.dead(), Some(false));
    }

    #[test]
    fn helpmates_are_san_and_end_in_mate() {
        let p = pos("8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1");
        let Win::Yes { helpmate } = can_mate(&p, Color::White, Search::Full) else {
            panic!()
        };
        assert!(!helpmate.is_empty());
        assert!(helpmate.last().unwrap().ends_with('#'), "{helpmate:?}");
    }

    #[test]
    fn quick_search_never_says_yes() {
        let p = pos("8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1");
        assert_eq!(can_mate(&p, Color::White, Search::Quick), Win::Undetermined);
        let p = pos("8/8/3k4/8/8/8/3K4/8 w - - 0 1");
        assert_eq!(can_mate(&p, Color::White, Search::Quick), Win::No);
    }
}
