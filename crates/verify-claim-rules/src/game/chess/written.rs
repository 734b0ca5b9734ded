//! Moves written on a scoresheet for a claim: the forms arbiters meet,
//! the slips they forgive (a capture mark on an empty square), and the
//! move meant when a piece letter is in lower case.

use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Role};

use super::recorded::{castling_with_letters, latin_notation, parse_long, san_to_move};
use crate::game::MoveError;

/// The written forms (SAN, squares, Russian letters), exactly as written.
pub(super) fn parse_written_strict(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let trimmed = text.trim().trim_end_matches(['!', '?']);
    let latin = latin_notation(trimmed);
    let latin = castling_with_letters(&latin).unwrap_or(latin);
    // SAN first; "g1f3" also parses as (pawn) SAN, so a SAN that is not
    // legal still gets a try as a move by its squares.
    let mut san_error = None;
    if let Ok(san) = SanPlus::from_ascii(latin.as_bytes()) {
        match san_to_move(pos, san.san, text) {
            Ok(m) => return Ok(m),
            Err(e) => san_error = Some(e),
        }
    }
    // "e8Q": promotion without '='.
    let b = latin.as_bytes();
    if b.len() >= 3 && b"QRBN".contains(&b[b.len() - 1]) && b[b.len() - 2].is_ascii_digit() {
        let with_eq = format!(
            "{}={}",
            &latin[..latin.len() - 1],
            &latin[latin.len() - 1..]
        );
        if let Ok(san) = SanPlus::from_ascii(with_eq.as_bytes()) {
            return san_to_move(pos, san.san, text);
        }
    }
    match (parse_long(pos, &latin), san_error) {
        (Some(Ok(m)), _) => return Ok(m),
        (_, Some(e)) => return Err(e),
        (Some(Err(e)), None) => return Err(e),
        (None, None) => {}
    }
    if let Ok(uci) = latin.parse::<UciMove>()
        && let Ok(m) = uci.to_move(pos)
    {
        return Ok(m);
    }
    Err(MoveError::Syntax(format!(
        "'{text}' is not a move: write it in SAN (Nf3, exd5, O-O, e8=Q) or by its squares (g1-f3)"
    )))
}

/// A piece move written with a capture mark onto an empty square, read as
/// the same move without it (a common scoresheet slip).
pub(super) fn capture_slip(pos: &Chess, text: &str) -> Option<(Move, String)> {
    let latin = latin_notation(text.trim().trim_end_matches(['!', '?']));
    let San::Normal {
        role,
        file,
        rank,
        capture: true,
        to,
        promotion,
    } = SanPlus::from_ascii(latin.as_bytes()).ok()?.san
    else {
        return None;
    };
    if role == Role::Pawn || shakmaty::Position::board(pos).occupied().contains(to) {
        return None;
    }
    let m = San::Normal {
        role,
        file,
        rank,
        capture: false,
        to,
        promotion,
    }
    .to_move(pos)
    .ok()?;
    let read = SanPlus::from_move(pos.clone(), m).to_string();
    Some((
        m,
        format!(
            "the written move {} marks a capture, but {to} is empty: read as {read}, the same move without the mark (a scoresheet slip)",
            text.trim()
        ),
    ))
}

/// `nf3` → `Nf3`, `o-o` → `O-O`: the move meant when a piece letter was
/// written in lower case.
pub(super) fn capitalised(text: &str) -> Option<String> {
    let t = text.trim();
    if t.starts_with("o-o") {
        return Some(t.replace('o', "O"));
    }
    let mut chars = t.chars();
    let first = chars.next()?;
    matches!(first, 'n' | 'b' | 'r' | 'q' | 'k')
        .then(|| format!("{}{}", first.to_ascii_uppercase(), chars.as_str()))
}

pub(super) fn with_hint(e: MoveError, hint: &str) -> MoveError {
    let add = |s: String| format!("{s}; did you mean {hint}?");
    match e {
        MoveError::Syntax(s) => MoveError::Syntax(add(s)),
        MoveError::Illegal(s) => MoveError::Illegal(add(s)),
        MoveError::Ambiguous(s) => MoveError::Ambiguous(add(s)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::ChessGame;
    use crate::game::{Game, MoveError};
    use shakmaty::{CastlingMode, Chess, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn hints_and_slips() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let e = ChessGame::parse_written(&p, "o-o").unwrap_err();
        assert!(e.to_string().contains("did you mean O-O?"), "{e}");
        let e = ChessGame::parse_written(&p, "rb1").unwrap_err();
        assert!(e.to_string().contains("did you mean Rb1?"), "{e}");
        // A capture mark on an empty square: refused as written, with the
        // true reason, and read as the plain move by `written_slip`.
        let e = ChessGame::parse_written(&p, "Rxb1").unwrap_err();
        assert!(
            matches!(&e, MoveError::Illegal(s) if s.contains("marks a capture (x), but b1 is empty")),
            "{e}"
        );
        let (m, note) = ChessGame::written_slip(&p, "Rxb1").unwrap();
        assert_eq!(ChessGame::notation(&p, &m), "Rb1");
        assert!(note.contains("scoresheet slip"));
        // No capture mark where there is something to take.
        let p = pos("4k3/8/8/8/8/8/8/r3K2R w K - 0 1");
        let e = ChessGame::parse_written(&p, "Ra8").unwrap_err();
        assert!(
            e.to_string().contains("no White rook can move to a8"),
            "{e}"
        );
        let p = pos("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1");
        let e = ChessGame::parse_written(&p, "Ra2").unwrap_err();
        assert!(e.to_string().contains("no capture mark"), "{e}");
        assert!(ChessGame::written_slip(&p, "Ra2").is_none());
        // A king's move to an attacked square is still refused as such.
        let p = pos("4k3/8/8/8/8/8/8/3RK3 b - - 0 1");
        let e = ChessGame::parse_written(&p, "Kd8").unwrap_err();
        assert!(e.to_string().contains("that square is attacked"), "{e}");
    }
}
