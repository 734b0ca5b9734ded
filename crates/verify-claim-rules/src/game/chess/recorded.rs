//! Moves as a record writes them: SAN (with `0-0` castling and Russian
//! piece letters), moves by their squares (`g1-f3`), and the UCI form a
//! record must not use, refused with what it means. The common shapes are
//! read by [`super::san::quick_move`]; this is the long way, and every
//! error's explanation.

use shakmaty::{
    Chess, Move, Position, Role, Square,
    san::{San, SanError, SanPlus},
};

use super::explain::{ambiguous_but_for_the_mark, explain_ambiguous, explain_illegal};
use super::san;
use crate::game::MoveError;

/// Replaces zeros in castling (`0-0`, an old and common form) with letters.
pub(super) fn castling_with_letters(text: &str) -> Option<String> {
    if !text.starts_with("0-0") {
        return None;
    }
    let (body, suffix) = match text.find(['+', '#']) {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    };
    match body {
        "0-0" => Some(format!("O-O{suffix}")),
        "0-0-0" => Some(format!("O-O-O{suffix}")),
        _ => None,
    }
}

pub(super) fn san_to_move(pos: &Chess, san: San, text: &str) -> Result<Move, MoveError> {
    match san {
        San::Null => Err(MoveError::Syntax(format!(
            "'{text}' is a null move, which the Laws do not know; the game cannot be replayed past it"
        ))),
        San::Put { .. } => Err(MoveError::Syntax(format!(
            "'{text}' is a piece drop (crazyhouse), not a chess move"
        ))),
        _ => match san::resolve(pos, san) {
            Ok(m) => Ok(m),
            // A wrong capture mark on a move that would be ambiguous
            // without it: the ambiguity is the first thing to say.
            Err(SanError::IllegalSan) => Err(match ambiguous_but_for_the_mark(pos, san, text) {
                Some(why) => MoveError::Ambiguous(why),
                None => MoveError::Illegal(explain_illegal(pos, san, text)),
            }),
            Err(SanError::AmbiguousSan) => {
                Err(MoveError::Ambiguous(explain_ambiguous(pos, san, text)))
            }
        },
    }
}

/// Replaces Russian piece letters (Кр, Ф, Л, С, К) and capture signs (`:`,
/// Cyrillic `х`) with the English SAN ones.
pub(super) fn latin_notation(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            'К' if chars.peek() == Some(&'р') => {
                chars.next();
                out.push('K');
            }
            'К' => out.push('N'),
            'Ф' => out.push('Q'),
            'Л' => out.push('R'),
            'С' => out.push('B'),
            'х' | 'Х' | ':' => out.push('x'),
            'О' => out.push('O'), // Cyrillic O in castling
            _ => out.push(c),
        }
    }
    out
}

/// `g1-f3`, `Ng1-f3`, `e7-e8=Q`, `g1f3`, `e7e8q`: a move by its squares.
pub(super) fn parse_long(pos: &Chess, text: &str) -> Option<Result<Move, MoveError>> {
    let b = text.trim_end_matches(['+', '#']).as_bytes();
    let (role, rest) = match b.first()? {
        b'K' => (Some(Role::King), &b[1..]),
        b'Q' => (Some(Role::Queen), &b[1..]),
        b'R' => (Some(Role::Rook), &b[1..]),
        b'B' => (Some(Role::Bishop), &b[1..]),
        b'N' => (Some(Role::Knight), &b[1..]),
        _ => (None, b),
    };
    let square = |s: &[u8]| -> Option<Square> {
        if s.len() >= 2 {
            Square::from_ascii(&s[..2]).ok()
        } else {
            None
        }
    };
    let from = square(rest)?;
    let mut rest = &rest[2..];
    if let Some((&c, r)) = rest.split_first()
        && (c == b'-' || c == b'x')
    {
        rest = r;
    }
    let to = square(rest)?;
    rest = &rest[2..];
    if let Some((&b'=', r)) = rest.split_first() {
        rest = r;
    }
    let promotion = match rest {
        [] => None,
        [c] => Some(Role::from_char(char::from(*c).to_ascii_lowercase())?),
        _ => return None,
    };
    let found = pos.legal_moves().into_iter().find(|m| {
        let (mf, mt) = match *m {
            Move::Castle { king, rook } => {
                // Written king-to-destination (e1-g1) or king-takes-rook (e1-h1).
                let dest = Square::from_coords(
                    if rook.file() > king.file() {
                        shakmaty::File::G
                    } else {
                        shakmaty::File::C
                    },
                    king.rank(),
                );
                if from == king && (to == dest || to == rook) {
                    return role.is_none_or(|r| r == Role::King) && promotion.is_none();
                }
                (king, dest)
            }
            _ => (m.from().unwrap_or(m.to()), m.to()),
        };
        mf == from && mt == to && m.promotion() == promotion && role.is_none_or(|r| r == m.role())
    });
    Some(found.ok_or_else(|| {
        MoveError::Illegal(format!(
            "'{text}' is illegal: no legal move goes from {from} to {to} here"
        ))
    }))
}

/// A recorded move written in UCI's coordinates (`g1f3`, `e7e8q`): not the
/// Laws' algebraic notation (Appendix C), which a record must use, so it is
/// refused, saying what it is and how the record writes it (the SAN parser
/// would read `g1f3` as a pawn move from the g-file and blame the pawns).
pub(super) fn uci_move(pos: &Chess, text: &str) -> Option<MoveError> {
    let b = text.as_bytes();
    let uci = (b.len() == 4 || b.len() == 5)
        && Square::from_ascii(&b[..2]).is_ok()
        && Square::from_ascii(&b[2..4]).is_ok()
        && b.get(4).is_none_or(|c| b"qrbnk".contains(c));
    if !uci {
        return None;
    }
    let what = format!(
        "'{text}' is a UCI move (from square and to square), not the algebraic notation a record uses (FIDE Laws, Appendix C)"
    );
    Some(match parse_long(pos, text) {
        Some(Ok(m)) => MoveError::Syntax(format!(
            "{what}: here it is {}",
            SanPlus::from_move(pos.clone(), m)
        )),
        _ => MoveError::Syntax(format!(
            "{what}, and no legal move goes from {} to {} here",
            &text[..2],
            &text[2..4]
        )),
    })
}

/// [`Game::parse_recorded`] for the tokens [`san::quick_parse`] does not
/// read, and for the errors.
#[cold]
#[inline(never)]
pub(super) fn parse_recorded_slowly(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let owned;
    let text_for_san = match castling_with_letters(text) {
        Some(t) => {
            owned = t;
            owned.as_str()
        }
        None => text,
    };
    let san = SanPlus::from_ascii(text_for_san.as_bytes())
        .map_err(|_| {
            MoveError::Syntax(format!(
                "'{text}' is not a move (nor a move number, NAG, comment or result)"
            ))
        })
        .and_then(|san| san_to_move(pos, san.san, text));
    // SAN reads `e2e4` as a pawn move from e2; what it refuses in that shape
    // is a UCI move.
    san.map_err(|e| uci_move(pos, text).unwrap_or(e))
}
