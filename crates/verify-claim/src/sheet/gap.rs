//! A gap both sheets share (8.4: both players may stop recording in a time
//! scramble): from the position on the board (8.5.1) and, when a clock
//! counted them, the moves made, what the gap can still prove. Never the
//! moves themselves: only what every way of filling the gap has in common.

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, Role};

/// What a gap between the sheets' end and the board can prove.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Gap {
    /// The position on the board (FEN, as given).
    pub board: String,
    /// Plies the gap must hold: known with `--moves`; `None` otherwise.
    pub plies: Option<usize>,
    /// Whether the gap holds an even or odd number of plies (the sides to
    /// move say so).
    pub parity: &'static str,
    /// A capture or a pawn move must have happened in the gap (the
    /// material or the pawns differ), or none can have (they are the
    /// same).
    pub capture_or_pawn_move: bool,
    /// The plies without a capture or pawn move at the board, when known.
    pub count: Option<usize>,
    /// Whether a fifty-move claim (9.3) at the board can be decided, and
    /// how.
    pub fifty_move: String,
    /// Times the board's position stood in the reading before the gap.
    pub occurrences_before: usize,
    /// Whether a threefold claim at the board is decided whatever the gap
    /// held.
    pub threefold: String,
}

/// The gap from the end of `moves` (SAN from `start`, a FEN or the
/// standard start) to `board`; `clock_moves`: the moves White made, as a
/// clock counted them. Errors are about `--board` and `--moves`.
pub(super) fn analyse(
    start: Option<&str>,
    moves: &[String],
    board: &str,
    clock_moves: Option<u32>,
) -> Result<Gap, String> {
    let parse = |fen: &str| -> Result<Chess, String> {
        let f =
            Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| format!("--board {fen}: {e}"))?;
        f.into_position(CastlingMode::Standard)
            .map_err(|e| format!("--board {fen}: {e}"))
    };
    let mut pos = match start {
        Some(f) => parse(f)?,
        None => Chess::default(),
    };
    let mut history = vec![pos.clone()];
    let mut clock = pos.halfmoves() as usize;
    for m in moves {
        let mv = San::from_ascii(m.trim_end_matches(['+', '#']).as_bytes())
            .ok()
            .and_then(|s| s.to_move(&pos).ok())
            .ok_or_else(|| format!("the reading's move {m} does not replay"))?;
        clock = if mv.is_zeroing() { 0 } else { clock + 1 };
        pos.play_unchecked(mv);
        history.push(pos.clone());
    }
    let at_board = parse(board)?;
    let plies = match clock_moves {
        Some(n) => {
            let total = (2 * n as usize)
                .checked_sub(usize::from(at_board.turn() == Color::Black))
                .ok_or_else(|| {
                    format!("--moves {n}: Black to move needs at least one move made")
                })?;
            let done = moves.len() + usize::from(history[0].turn() == Color::Black);
            Some(total.checked_sub(done).ok_or_else(|| {
                format!("--moves {n}: the sheets already record more moves than that")
            })?)
        }
        None => None,
    };
    let odd = at_board.turn() != pos.turn();
    if plies.is_some_and(|p| (p % 2 == 1) != odd) {
        return Err("--moves: the count disagrees with the side to move on the board".into());
    }
    let changed = material_or_pawns_differ(&pos, &at_board);
    let count = match (changed, plies) {
        (false, Some(p)) => Some(clock + p),
        _ => None,
    };
    let fifty_move = fifty_words(changed, plies, clock, count);
    let board_key = key(&at_board);
    let occurrences_before = history.iter().filter(|p| key(p) == board_key).count();
    let threefold = if occurrences_before >= 2 {
        format!(
            "decided whatever the gap held: the board's position stood {occurrences_before} times before it, and stands now (9.2.2)"
        )
    } else if changed && occurrences_before == 0 {
        "decided: a capture or pawn move in the gap means no position before it can stand again, and the gap's own positions cannot be known; the claim is not proved".to_owned()
    } else {
        format!(
            "cannot be known: the position stood {occurrences_before} time(s) before the gap, and what the gap held is not recorded"
        )
    };
    Ok(Gap {
        board: board.trim().to_owned(),
        plies,
        parity: if odd { "odd" } else { "even" },
        capture_or_pawn_move: changed,
        count,
        fifty_move,
        occurrences_before,
        threefold,
    })
}

/// The position as 9.2.2 compares it: the pieces, the side to move, the
/// castling rights, the en passant square a legal capture can use.
fn key(p: &Chess) -> String {
    Fen::from_position(p, EnPassantMode::Legal)
        .to_string()
        .split(' ')
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether the material or the pawns' squares differ: then a capture or a
/// pawn move happened between the two positions (neither can be undone);
/// when both are the same, neither can have happened.
fn material_or_pawns_differ(a: &Chess, b: &Chess) -> bool {
    let (ba, bb) = (a.board(), b.board());
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    let counts_differ = [Color::White, Color::Black].iter().any(|&c| {
        roles.iter().any(|&r| {
            (ba.by_color(c) & ba.by_role(r)).count() != (bb.by_color(c) & bb.by_role(r)).count()
        })
    });
    let pawns = |bd: &shakmaty::Board, c: Color| bd.by_color(c) & bd.pawns();
    counts_differ
        || [Color::White, Color::Black]
            .iter()
            .any(|&c| pawns(ba, c) != pawns(bb, c))
}

fn fifty_words(changed: bool, plies: Option<usize>, clock: usize, count: Option<usize>) -> String {
    match (changed, plies, count) {
        (false, _, Some(c)) => format!(
            "decidable: no capture or pawn move in the gap, so {c} plies without one at the board ({}100 needed, 9.3)",
            if c >= 100 { "" } else { "not yet " }
        ),
        (false, None, _) => format!(
            "cannot be known without the number of moves made (--moves): no capture or pawn move in the gap; {clock} plies before it"
        ),
        (true, Some(p), _) if p < 100 => format!(
            "decided: a capture or pawn move in the gap of {p} plies leaves fewer than 100 since; the claim is not valid"
        ),
        _ => {
            "cannot be known: a capture or pawn move happened in the gap, and when is not recorded"
                .to_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn what_a_gap_proves() {
        // After 1.Nf3 Nf6 2.Ng1 Ng8 the start position has stood twice; on
        // the board it stands again, the gap unrecorded: threefold decided.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let g = analyse(None, &s(&["Nf3", "Nf6", "Ng1", "Ng8"]), start, Some(4)).unwrap();
        assert_eq!(g.plies, Some(4));
        assert_eq!(g.parity, "even");
        assert!(!g.capture_or_pawn_move);
        assert_eq!(g.count, Some(8));
        assert_eq!(g.occurrences_before, 2);
        assert!(
            g.threefold.starts_with("decided whatever"),
            "{}",
            g.threefold
        );
        // A pawn moved in the gap: the fifty-move count cannot be known.
        let board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let g = analyse(None, &s(&["Nf3", "Nf6", "Ng1", "Ng8"]), board, None).unwrap();
        assert!(g.capture_or_pawn_move);
        assert_eq!(g.parity, "odd");
        assert!(
            g.fifty_move.starts_with("cannot be known"),
            "{}",
            g.fifty_move
        );
        let e = analyse(None, &s(&["Nf3", "Nf6"]), start, Some(0)).unwrap_err();
        assert!(e.contains("--moves"), "{e}");
    }
}
