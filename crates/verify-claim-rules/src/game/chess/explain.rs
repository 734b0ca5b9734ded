//! Why a move is refused, said exactly: the piece that cannot reach the
//! square, the square the king cannot enter, the capture mark that does not
//! fit, the pinned piece.

use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Position, Role, Square, attacks};

use super::{role_name, side};

pub(super) fn explain_ambiguous(pos: &Chess, san: San, text: &str) -> String {
    let moves = pos.legal_moves();
    let options: Vec<String> = moves
        .iter()
        .filter(|m| san.matches(**m))
        .map(|m| {
            let from = m.from().map(|s| s.to_string()).unwrap_or_default();
            format!("{} (from {from})", San::disambiguate(*m, &moves))
        })
        .collect();
    format!("'{text}' is ambiguous: it fits {}", options.join(" and "))
}

/// A move refused for its capture mark (a mark on an empty square, none
/// on a piece) that fits two or more legal moves once the mark is set
/// right: it is ambiguous first, its mark is wrong besides.
pub(super) fn ambiguous_but_for_the_mark(pos: &Chess, san: San, text: &str) -> Option<String> {
    let why = capture_mark_mismatch(pos, san, text)?;
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return None;
    };
    let marked_right = San::Normal {
        role,
        file,
        rank,
        capture: !capture,
        to,
        promotion,
    };
    if super::san::resolve(pos, marked_right) != Err(shakmaty::san::SanError::AmbiguousSan) {
        return None;
    }
    let mark = why
        .strip_prefix(&format!("'{text}' is illegal: "))
        .unwrap_or(&why)
        .to_owned();
    Some(format!(
        "{}; besides, {mark}",
        explain_ambiguous(pos, marked_right, text)
    ))
}

pub(super) fn explain_illegal(pos: &Chess, san: San, text: &str) -> String {
    let us = pos.turn();
    let who = side(us).title();
    match san {
        San::Castle(cs) => {
            let wing = match cs {
                CastlingSide::KingSide => "kingside",
                CastlingSide::QueenSide => "queenside",
            };
            if !pos.castles().has(us, cs) {
                format!("'{text}' is illegal: {who} no longer has the right to castle {wing}")
            } else if pos.is_check() {
                format!("'{text}' is illegal: {who}'s king is in check")
            } else {
                format!(
                    "'{text}' is illegal: castling {wing} is blocked (a square between king and rook is occupied, or the king would pass through or land on an attacked square)"
                )
            }
        }
        San::Normal { role, to, .. } => {
            let ours = pos.board().by_piece(role.of(us));
            if ours.is_empty() {
                return format!("'{text}' is illegal: {who} has no {}", role_name(role));
            }
            // A square holding one's own piece is closed to every move.
            if let Some(piece) = pos.board().piece_at(to).filter(|p| p.color == us) {
                return format!(
                    "'{text}' is illegal: {to} holds {who}'s own {}",
                    role_name(piece.role)
                );
            }
            // Pieces that could reach the square on an empty-ish board (pseudo-legal).
            let occupied = pos.board().occupied();
            let own = pos.us();
            let mut reach: Vec<Square> = Vec::new();
            for from in ours {
                let hits = if role == Role::Pawn {
                    // A pawn goes straight without a capture mark, and
                    // diagonally with one (the mark's slips are said below).
                    if san_capture(san) {
                        attacks::pawn_attacks(us, from).contains(to)
                    } else {
                        pawn_pushes(us, from, occupied).contains(to)
                    }
                } else {
                    attacks::attacks(from, role.of(us), occupied).contains(to) && !own.contains(to)
                };
                if hits && san.matches_from(from) {
                    reach.push(from);
                }
            }
            let squares: Vec<String> = ours.into_iter().map(|s| s.to_string()).collect();
            if let Some(why) = capture_mark_mismatch(pos, san, text)
                && !reach.is_empty()
            {
                return why;
            }
            if reach.is_empty()
                && let Some(why) = pawn_across_without_mark(pos, san, text)
            {
                return why;
            }
            if reach.is_empty() {
                format!(
                    "'{text}' is illegal: no {who} {} can move to {to} ({} on {})",
                    role_name(role),
                    if squares.len() == 1 {
                        role_name(role).to_owned()
                    } else {
                        format!("{}s", role_name(role))
                    },
                    squares.join(", ")
                )
            } else if role == Role::King {
                format!(
                    "'{text}' is illegal: the king on {} cannot go to {to}: that square is attacked",
                    reach[0]
                )
            } else if role == Role::Pawn
                && (san_promotion(san).is_some()
                    != matches!(to.rank(), shakmaty::Rank::First | shakmaty::Rank::Eighth))
            {
                format!(
                    "'{text}' is illegal: a pawn must promote when it reaches the last rank (write e.g. {to}=Q), and only there"
                )
            } else {
                let froms: Vec<String> = reach.iter().map(|s| s.to_string()).collect();
                format!(
                    "'{text}' is illegal: the {} on {} would leave {who}'s king in check",
                    role_name(role),
                    froms.join(" / ")
                )
            }
        }
        _ => format!("'{text}' is not a legal move"),
    }
}

fn san_capture(san: San) -> bool {
    matches!(san, San::Normal { capture: true, .. })
}

/// A pawn move to another file written without a capture mark (`bc6`):
/// a pawn changes file only by capturing, so the true reason is the
/// missing mark (with a piece to take: write `bxc6`) or the empty square.
fn pawn_across_without_mark(pos: &Chess, san: San, text: &str) -> Option<String> {
    let San::Normal {
        role: Role::Pawn,
        file: Some(file),
        capture: false,
        to,
        ..
    } = san
    else {
        return None;
    };
    let us = pos.turn();
    let from = (pos.board().by_piece(Role::Pawn.of(us)) & shakmaty::Bitboard::from_file(file))
        .into_iter()
        .find(|&from| attacks::pawn_attacks(us, from).contains(to))?;
    let en_passant = pos.ep_square(EnPassantMode::Legal) == Some(to);
    Some(if pos.them().contains(to) || en_passant {
        format!(
            "'{text}' is illegal: it has no capture mark (x), but the pawn on {from} can reach {to} only by capturing (write {file}x{to})"
        )
    } else {
        format!(
            "'{text}' is illegal: a pawn changes file only by capturing, and {to} is empty (the pawn on {from} cannot go there)"
        )
    })
}

fn san_promotion(san: San) -> Option<Role> {
    match san {
        San::Normal { promotion, .. } => promotion,
        _ => None,
    }
}

/// A capture mark on an empty square, or none on an occupied one: the true
/// reason such a move is refused.
fn capture_mark_mismatch(pos: &Chess, san: San, text: &str) -> Option<String> {
    let San::Normal {
        role, capture, to, ..
    } = san
    else {
        return None;
    };
    let theirs = pos.them().contains(to);
    let en_passant = role == Role::Pawn && pos.ep_square(EnPassantMode::Legal) == Some(to);
    if capture && !theirs && !en_passant {
        Some(format!(
            "'{text}' is illegal: it marks a capture (x), but {to} is empty"
        ))
    } else if !capture && theirs && role != Role::Pawn {
        Some(format!(
            "'{text}' is illegal: it has no capture mark (x), but {to} holds a piece to capture"
        ))
    } else {
        None
    }
}

fn pawn_pushes(us: Color, from: Square, occupied: shakmaty::Bitboard) -> shakmaty::Bitboard {
    let mut bb = shakmaty::Bitboard::EMPTY;
    let step = |s: Square| s.offset(if us == Color::White { 8 } else { -8 });
    if let Some(one) = step(from)
        && !occupied.contains(one)
    {
        bb.add(one);
        let start_rank = if us == Color::White {
            shakmaty::Rank::Second
        } else {
            shakmaty::Rank::Seventh
        };
        if from.rank() == start_rank
            && let Some(two) = step(one)
            && !occupied.contains(two)
        {
            bb.add(two);
        }
    }
    bb
}

trait MatchesFrom {
    fn matches_from(&self, from: Square) -> bool;
}

impl MatchesFrom for San {
    fn matches_from(&self, from: Square) -> bool {
        match *self {
            San::Normal { file, rank, .. } => {
                file.is_none_or(|f| f == from.file()) && rank.is_none_or(|r| r == from.rank())
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::{Game, MoveError, chess::ChessGame};
    use shakmaty::{CastlingMode, Chess, fen::Fen};

    fn refused(fen: &str, text: &str) -> String {
        let pos: Chess = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_default();
        match ChessGame::parse_written(&pos, text) {
            Err(MoveError::Illegal(m)) => m,
            other => format!("not refused as illegal: {other:?}"),
        }
    }

    /// TWIC 1599, game 5, after 39.Ng3: both rooks (f5, c8) reach the
    /// empty c5, so R:c5 and Rxc5 are ambiguous before their mark is wrong.
    #[test]
    fn ambiguity_is_said_before_a_wrong_capture_mark() {
        let fen = "2r1n1k1/6pp/1n3p2/p4r2/Pp1R1N2/1P3PN1/6PP/R5K1 b - - 8 39";
        for text in ["Rxc5", "R:c5"] {
            let pos: Chess = fen
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok())
                .unwrap_or_default();
            let m = match ChessGame::parse_written(&pos, text) {
                Err(MoveError::Ambiguous(m)) => m,
                other => format!("not refused as ambiguous: {other:?}"),
            };
            assert_eq!(
                m,
                format!(
                    "'{text}' is ambiguous: it fits Rfc5 (from f5) and Rcc5 (from c8); besides, it marks a capture (x), but c5 is empty"
                )
            );
        }
    }

    #[test]
    fn a_square_holding_ones_own_piece_is_the_reason() {
        // Black's king on g7, Black's knight on g8 (TWIC, game 3, ply 111).
        let m = refused("6n1/6k1/8/8/8/8/8/4K3 b - - 0 1", "Kg8");
        assert_eq!(m, "'Kg8' is illegal: g8 holds Black's own knight");
    }

    #[test]
    fn a_pawn_capture_written_without_the_x_says_so() {
        // Issue 40.10: White's pawn on b5, Black's knight on c6.
        let fen = "4k3/8/2n5/1P6/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            refused(fen, "bc6"),
            "'bc6' is illegal: it has no capture mark (x), but the pawn on b5 can reach c6 only by capturing (write bxc6)"
        );
        // Nothing to take there: the pawn cannot go to another file.
        let fen = "4k3/8/8/1P6/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            refused(fen, "bc6"),
            "'bc6' is illegal: a pawn changes file only by capturing, and c6 is empty (the pawn on b5 cannot go there)"
        );
        // A pawn push onto an occupied square is not a check on the king:
        // the pawn on b5 that could take on c6 is not the one written.
        let fen = "4k3/8/2n5/1PP5/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            refused(fen, "c6"),
            "'c6' is illegal: no White pawn can move to c6 (pawns on b5, c5)"
        );
        // En passant without the x.
        let fen = "4k3/8/8/1Pp5/8/8/8/4K3 w - c6 0 2";
        assert!(refused(fen, "bc6").contains("(write bxc6)"));
        // A pinned pawn's capture is still a check on its king.
        let fen = "1r2k3/8/2n5/1P6/8/8/8/1K6 w - - 0 1";
        assert_eq!(
            refused(fen, "bxc6"),
            "'bxc6' is illegal: the pawn on b5 would leave White's king in check"
        );
    }

    #[test]
    fn a_piece_that_cannot_reach_is_still_said() {
        let m = refused("6n1/6k1/8/8/8/8/8/4K3 b - - 0 1", "Kg5");
        assert_eq!(
            m,
            "'Kg5' is illegal: no Black king can move to g5 (king on g7)"
        );
    }
}
