//! Chess, with shakmaty: start positions (FEN, Chess960), move notation,
//! and the identity of positions the FIDE Laws use (9.2 of the seed).
//!
//! Two positions are the same when the same pieces stand on the same
//! squares, the same side is to move, the castling *rights* are the same and
//! the same en passant captures are *legal* (a pawn pinned to its king
//! cannot take). shakmaty's `PartialEq` for `Chess` and its Zobrist hash in
//! `EnPassantMode::Legal` are exactly that identity.
//!
//! (Example: `src/tests/module_examples.rs`, `chess_written_moves_in_russian_letters`.)

use shakmaty::{Chess, Color, EnPassantMode, Move, Position, Role, Square, fen::Fen, san::SanPlus};

mod board;
mod castling960;
mod explain;
pub mod hash;
mod recorded;
pub mod san;
mod start;
pub mod unproved;
pub mod unwinnable;
mod written;
use recorded::parse_recorded_slowly;
pub use start::{Start, start_position};
use written::{capitalised, capture_slip, parse_written_strict, with_hint};

use super::{Difference, Ending, Game, GameType, MoveError, Search, Side, Win};
use crate::record::GameRecord;

/// Chess under the FIDE Laws, implemented with shakmaty.
pub struct ChessGame;

fn side(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

impl Game for ChessGame {
    type Position = Chess;
    type Move = Move;
    type Variant = ();

    const TYPE: GameType = GameType::Chess;

    fn start_position(
        record: &GameRecord<'_>,
        _: (),
    ) -> Result<(Chess, Vec<String>), (usize, String)> {
        let start = start_position(record)?;
        let mut notes = Vec::new();
        if start.chess960 {
            notes.push("Chess960 game (castling as in the Chess960 rules)".to_owned());
        }
        if start.from_fen {
            notes.push(format!(
                "the game starts from the FEN {}; positions before it are unknown and count for nothing",
                Self::fen(&start.position)
            ));
        }
        Ok((start.position, notes))
    }

    fn start_without_notes(record: &GameRecord<'_>, _: ()) -> Result<Chess, (usize, String)> {
        start_position(record).map(|start| start.position)
    }

    fn hash(pos: &Chess) -> u64 {
        hash::full(pos)
    }

    #[inline(always)]
    fn play(pos: &mut Chess, m: &Move, hash: u64) -> u64 {
        hash::play(pos, *m, hash)
    }

    fn legal_moves(pos: &Chess) -> Vec<Move> {
        pos.legal_moves().to_vec()
    }

    fn reversible_move_to(from: &Chess, to: &Chess) -> Option<Move> {
        // A reversible move is a quiet move of one piece (no pawn, no capture,
        // no castling, no promotion): exactly one square emptied and one
        // filled, by a piece of the side to move.
        let (a, b) = (from.board(), to.board());
        if from.turn() == to.turn() {
            return None;
        }
        let (occ_a, occ_b) = (a.occupied(), b.occupied());
        let left = occ_a & !occ_b;
        let arrived = occ_b & !occ_a;
        if left.count() != 1 || arrived.count() != 1 {
            return None;
        }
        let (sq_from, sq_to) = (left.first()?, arrived.first()?);
        let piece = a.piece_at(sq_from)?;
        if piece.color != from.turn()
            || piece.role == Role::Pawn
            || b.piece_at(sq_to) != Some(piece)
        {
            return None;
        }
        let m = Move::Normal {
            role: piece.role,
            from: sq_from,
            capture: None,
            to: sq_to,
            promotion: None,
        };
        if !from.is_legal(m) || from.is_irreversible(m) {
            return None;
        }
        let mut next = from.clone();
        next.play_unchecked(m);
        (next == *to).then_some(m)
    }

    fn parse_recorded(pos: &Chess, text: &str) -> Result<Move, MoveError> {
        // The common shapes, read and resolved without the general parser;
        // anything else (and every error, to explain it) goes the long way.
        match san::quick_move(pos, text.as_bytes()) {
            Some(m) => Ok(m),
            None => parse_recorded_slowly(pos, text),
        }
    }

    #[inline]
    fn parse_recorded_quick(pos: &Chess, text: &str) -> Option<Move> {
        san::quick_move(pos, text.as_bytes())
    }

    fn parse_written(pos: &Chess, text: &str) -> Result<Move, MoveError> {
        parse_written_strict(pos, text).map_err(|e| {
            match capitalised(text).and_then(|t| parse_written_strict(pos, &t).ok()) {
                Some(m) => with_hint(e, &SanPlus::from_move(pos.clone(), m).to_string()),
                None => e,
            }
        })
    }

    fn written_slip(pos: &Chess, text: &str) -> Option<(Move, String)> {
        capture_slip(pos, text)
    }

    fn notation(pos: &Chess, m: &Move) -> String {
        SanPlus::from_move(pos.clone(), *m).to_string()
    }

    fn is_irreversible(pos: &Chess, m: &Move) -> bool {
        pos.is_irreversible(*m)
    }

    fn resets_count(_pos: &Chess, m: &Move) -> bool {
        m.is_zeroing()
    }

    fn changes_material(_pos: &Chess, m: &Move) -> bool {
        m.is_capture() || m.is_promotion()
    }

    fn count_clock(pos: &Chess) -> u32 {
        pos.halfmoves()
    }

    fn can_mate(pos: &Chess, side: Side, search: Search) -> Win {
        let color = match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        };
        unwinnable::can_mate(pos, color, search)
    }

    fn shorten_helpmate(pos: &Chess, side: Side, line: Vec<String>) -> Vec<String> {
        let color = match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        };
        unwinnable::shorten_helpmate(pos, color, line)
    }

    fn is_dead(pos: &Chess, search: Search) -> bool {
        unwinnable::is_dead(pos, search)
    }

    fn is_dead_playable(pos: &Chess, search: Search) -> bool {
        unwinnable::is_dead_playable(pos, search)
    }

    fn insufficient_material(pos: &Chess) -> bool {
        pos.is_insufficient_material()
    }

    fn ending(pos: &Chess) -> Option<Ending> {
        // A quiet move found by the attack tables settles the usual case.
        if !unproved::has_quiet_move(pos) && pos.legal_moves().is_empty() {
            Some(if pos.is_check() {
                Ending::Checkmate
            } else {
                Ending::Stalemate
            })
        } else if pos.is_insufficient_material() {
            Some(Ending::InsufficientMaterial)
        } else {
            None
        }
    }

    fn side_to_move(pos: &Chess) -> Side {
        side(pos.turn())
    }

    fn move_number(pos: &Chess) -> u32 {
        pos.fullmoves().get()
    }

    fn fen(pos: &Chess) -> String {
        Fen::from_position(pos, EnPassantMode::Legal).to_string()
    }

    fn board(pos: &Chess) -> crate::game::board::Board {
        board::of(pos)
    }

    fn from_fen(fen: &str, _: ()) -> Result<Chess, String> {
        unwinnable::position_for_analysis(fen)
    }

    fn diagram(pos: &Chess) -> String {
        let mut out = String::new();
        for rank in (0..8u32).rev() {
            out.push_str(&format!("  {} ", rank + 1));
            for file in 0..8u32 {
                let sq = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
                let c = pos.board().piece_at(sq).map_or('.', |p| p.char());
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("     a b c d e f g h\n");
        out
    }

    fn difference(a: &Chess, b: &Chess) -> Option<Difference> {
        if a.board() != b.board() || a == b {
            return None;
        }
        let mut reasons = Vec::new();
        if a.turn() != b.turn() {
            reasons.push("the other side was to move".to_owned());
        }
        if a.castles().castling_rights() != b.castles().castling_rights() {
            let rights = |p: &Chess| {
                let f = Fen::from_position(p, EnPassantMode::Legal).to_string();
                f.split(' ').nth(2).unwrap_or("-").to_owned()
            };
            reasons.push(format!(
                "castling rights differ ({} then, {} here)",
                rights(b),
                rights(a)
            ));
        }
        if a.legal_ep_square() != b.legal_ep_square() {
            match (b.legal_ep_square(), a.legal_ep_square()) {
                (Some(sq), _) => {
                    reasons.push(format!("an en passant capture on {sq} was possible then"))
                }
                (None, Some(sq)) => {
                    reasons.push(format!("an en passant capture on {sq} is possible here"))
                }
                (None, None) => {}
            }
        }
        Some(Difference {
            reason: reasons.join("; "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap()
    }

    #[test]
    fn written_forms() {
        let p = Chess::default();
        for (text, want) in [
            ("Nf3", "Nf3"),
            ("Ng1-f3", "Nf3"),
            ("g1f3", "Nf3"),
            ("g1-f3", "Nf3"),
            ("Кf3", "Nf3"),
            ("e2-e4", "e4"),
            ("e4!?", "e4"),
        ] {
            let m = ChessGame::parse_written(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(ChessGame::notation(&p, &m), want, "{text}");
        }
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for (text, want) in [
            ("0-0", "O-O"),
            ("O-O-O", "O-O-O"),
            ("e1-g1", "O-O"),
            ("0-0+", "O-O"),
        ] {
            let m = ChessGame::parse_written(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(ChessGame::notation(&p, &m), want, "{text}");
        }
        let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        for text in ["e8=Q", "e8Q", "e7e8q", "e7-e8=Q", "e8Ф"] {
            let m = ChessGame::parse_written(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(ChessGame::notation(&p, &m), "e8=Q", "{text}");
        }
    }

    #[test]
    fn illegal_and_ambiguous_written_moves_say_why() {
        let p = Chess::default();
        let e = ChessGame::parse_written(&p, "Nf4").unwrap_err();
        assert!(
            matches!(e, MoveError::Illegal(ref s) if s.contains("no White knight can move to f4")),
            "{e}"
        );
        let e = ChessGame::parse_written(&p, "Qh5").unwrap_err();
        assert!(e.to_string().contains("queen"), "{e}");
        let e = ChessGame::parse_written(&p, "O-O").unwrap_err();
        assert!(e.to_string().contains("blocked"), "{e}");
        let e = ChessGame::parse_written(&p, "Zz9").unwrap_err();
        assert!(matches!(e, MoveError::Syntax(_)));
        let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        let e = ChessGame::parse_written(&p, "Nd2").unwrap_err();
        assert!(
            matches!(e, MoveError::Ambiguous(ref s) if s.contains("Nbd2") && s.contains("Nfd2")),
            "{e}"
        );
        // Pinned knight: pseudo-legal but illegal.
        let p = pos("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
        let e = ChessGame::parse_written(&p, "Nc3").unwrap_err();
        assert!(e.to_string().contains("in check"), "{e}");
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
        let e = ChessGame::parse_written(&p, "O-O").unwrap_err();
        assert!(e.to_string().contains("no longer has the right"), "{e}");
    }

    #[test]
    fn recorded_moves_are_strict() {
        let p = Chess::default();
        assert!(matches!(
            ChessGame::parse_recorded(&p, "--"),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            ChessGame::parse_recorded(&p, "Nf9"),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            ChessGame::parse_recorded(&p, "N@f3"),
            Err(MoveError::Syntax(_))
        ));
        assert!(ChessGame::parse_recorded(&p, "Nf3+").is_ok());
        // UCI coordinates are named as such, with the move in SAN.
        let e = ChessGame::parse_recorded(&p, "g1f3").unwrap_err();
        assert!(matches!(e, MoveError::Syntax(_)), "{e}");
        assert!(e.to_string().contains("'g1f3' is a UCI move"), "{e}");
        assert!(e.to_string().contains("here it is Nf3"), "{e}");
        let e = ChessGame::parse_recorded(&p, "e2e5").unwrap_err();
        assert!(
            e.to_string().contains("no legal move goes from e2 to e5"),
            "{e}"
        );
        // SAN that looks alike stays SAN (a pawn move from its square).
        assert!(ChessGame::parse_recorded(&p, "e4").is_ok());
        assert!(ChessGame::parse_recorded(&p, "e2e4").is_ok());
    }

    #[test]
    fn reversible_move_to_agrees_with_trying_every_move() {
        // Compare the bitboard shortcut with the trait's default on every
        // pair (position, position after one legal move) of a short game.
        struct Slow;
        let mut p = Chess::default();
        for san in [
            "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O", "Bc5", "Re1", "d6", "Kh1",
        ] {
            for m in p.legal_moves() {
                let mut q = p.clone();
                q.play_unchecked(m);
                let fast = ChessGame::reversible_move_to(&p, &q);
                let slow = p.legal_moves().into_iter().find(|m| {
                    let mut r = p.clone();
                    r.play_unchecked(*m);
                    !p.is_irreversible(*m) && r == q
                });
                assert_eq!(fast, slow, "{san}: {m:?}");
            }
            let m = ChessGame::parse_recorded(&p, san).unwrap();
            p.play_unchecked(m);
        }
        let _ = Slow;
    }

    #[test]
    fn incremental_hash_matches_full_hash() {
        let mut p = Chess::default();
        let mut h = ChessGame::hash(&p);
        for san in [
            "e4", "d5", "e5", "f5", "exf6", "Nc6", "Ke2", "Bg4", "Ke1", "Qd6", "Nf3", "O-O-O",
        ] {
            let m = ChessGame::parse_recorded(&p, san).unwrap();
            h = ChessGame::play(&mut p, &m, h);
            assert_eq!(h, ChessGame::hash(&p), "after {san}");
        }
    }
}
