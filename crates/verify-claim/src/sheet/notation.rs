//! The piece letters of Appendix C.3's national notations, and reading a
//! written chess move in one of them into its parts (no position needed).

use shakmaty::{File, Rank, Role, Square};

/// One notation of the table: its code and its letters for K, Q, R, B, N
/// (several where a letter has forms: figurines white and black).
pub(super) struct Notation {
    pub code: &'static str,
    pub letters: [&'static [&'static str]; 5],
}

const ROLES: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];

/// One row of the table (a macro: a const table of slices).
macro_rules! row {
    ($code:expr, $k:expr, $q:expr, $r:expr, $b:expr, $n:expr) => {
        Notation {
            code: $code,
            letters: [&[$k], &[$q], &[$r], &[$b], &[$n]],
        }
    };
}

/// The table of issue 41, in its order (the first of two notations with the
/// same letters, de and sv, es and it, is the one a sheet is said to be in).
pub(super) const TABLE: &[Notation] = &[
    row!("en", "K", "Q", "R", "B", "N"),
    row!("ru", "Кр", "Ф", "Л", "С", "К"),
    row!("de", "K", "D", "T", "L", "S"),
    row!("fr", "R", "D", "T", "F", "C"),
    row!("es", "R", "D", "T", "A", "C"),
    row!("it", "R", "D", "T", "A", "C"),
    row!("nl", "K", "D", "T", "L", "P"),
    row!("pl", "K", "H", "W", "G", "S"),
    row!("cs", "K", "D", "V", "S", "J"),
    row!("hu", "K", "V", "B", "F", "H"),
    row!("sv", "K", "D", "T", "L", "S"),
    Notation {
        code: "figurine",
        letters: [
            &["♔", "♚"],
            &["♕", "♛"],
            &["♖", "♜"],
            &["♗", "♝"],
            &["♘", "♞"],
        ],
    },
];

/// The notation of `code`.
#[cfg(test)]
pub(super) fn by_code(code: &str) -> Option<usize> {
    TABLE.iter().position(|n| n.code == code)
}

/// A chess move as written, in parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Written {
    /// `O-O` (false) or `O-O-O` (true).
    Castle { long: bool },
    Move {
        /// The piece letter's role; `None`: no letter (a pawn).
        role: Option<Role>,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        /// Written as a capture (`x`, `:`).
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
}

/// The role of the piece letter at the head of `text` in notation `n`, and
/// the rest; `None` when no letter of `n` begins it.
fn head<'a>(n: &Notation, text: &'a str) -> Option<(Role, &'a str)> {
    let mut best: Option<(Role, &str)> = None;
    for (role, forms) in ROLES.iter().zip(n.letters) {
        for f in forms {
            if let Some(rest) = text.strip_prefix(f)
                && best.is_none_or(|(_, r)| rest.len() < r.len())
            {
                best = Some((*role, rest));
            }
        }
    }
    best
}

/// Reads `text` (marks already removed) as a move in notation `n`.
pub(super) fn read(n: &Notation, text: &str) -> Result<Written, String> {
    let castle: String = text
        .chars()
        .map(|c| match c {
            '0' | 'О' | 'o' => 'O',
            '–' | '—' => '-',
            c => c,
        })
        .collect();
    match castle.as_str() {
        "O-O" | "OO" => return Ok(Written::Castle { long: false }),
        "O-O-O" | "OOO" => return Ok(Written::Castle { long: true }),
        _ => {}
    }
    let (role, rest) = match head(n, text) {
        Some((r, rest)) => (Some(r), rest),
        None => (None, text),
    };
    let rest = rest.strip_suffix("e.p.").unwrap_or(rest).trim_end();
    squares(n, role, rest).ok_or_else(|| {
        format!(
            "'{text}' is not a move in {} notation",
            if n.code == "figurine" {
                "figurine"
            } else {
                n.code
            }
        )
    })
}

/// The squares part: `[file][rank][x:-]file rank[promotion]`.
fn squares(n: &Notation, role: Option<Role>, rest: &str) -> Option<Written> {
    let chars: Vec<char> = rest
        .chars()
        .map(|c| match c {
            ':' | 'х' | '×' => 'x',
            '–' | '—' => '-',
            c => c,
        })
        .collect();
    // The destination: the last file letter followed by a rank digit.
    let at = (0..chars.len().saturating_sub(1))
        .rev()
        .find(|&i| is_file(chars[i]) && is_rank(chars[i + 1]))?;
    let to = square(chars[at], chars[at + 1])?;
    let (mut from_file, mut from_rank, mut capture) = (None, None, false);
    for &c in &chars[..at] {
        match c {
            'x' if !capture => capture = true,
            '-' => {}
            // A mark written before the disambiguation (`Rxed1`) is
            // still read: handwriting puts it anywhere.
            c if is_file(c) && from_file.is_none() && from_rank.is_none() => {
                from_file = File::from_char(c)
            }
            c if is_rank(c) && from_rank.is_none() => from_rank = Rank::from_char(c),
            _ => return None,
        }
    }
    let promo: String = chars[at + 2..]
        .iter()
        .filter(|c| !matches!(c, '=' | '/' | '(' | ')'))
        .collect();
    let promotion = if promo.is_empty() {
        None
    } else {
        match head(n, &promo) {
            Some((r, "")) if r != Role::King => Some(r),
            _ => return None,
        }
    };
    Some(Written::Move {
        role,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
    })
}

fn is_file(c: char) -> bool {
    ('a'..='h').contains(&c)
}
fn is_rank(c: char) -> bool {
    ('1'..='8').contains(&c)
}
fn square(f: char, r: char) -> Option<Square> {
    Some(Square::from_coords(
        File::from_char(f)?,
        Rank::from_char(r)?,
    ))
}

/// Descriptive notation (`P-K4`, `N-KB3`, `PxP`, `Kt-B3`): a move written
/// by the files' pieces, not by squares.
pub(super) fn is_descriptive(text: &str) -> bool {
    let t = text
        .trim_end_matches(['+', '!', '?', 'h', 'c', 'k'])
        .trim_end_matches("ch");
    let pieces = ["Kt", "K", "Q", "R", "B", "N", "P", "S"];
    let Some(rest) = pieces.iter().find_map(|p| t.strip_prefix(p)) else {
        return false;
    };
    let rest = rest.trim_start_matches(|c| c == '(' || c == ')' || "QKRBNt1234567".contains(c));
    let Some(tail) = rest.strip_prefix('-').or_else(|| rest.strip_prefix('x')) else {
        return false;
    };
    !tail.is_empty()
        && tail.chars().all(|c| "QKRBNPt12345678()/".contains(c))
        && !tail.chars().any(is_file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(code: &str, t: &str) -> Written {
        read(&TABLE[by_code(code).unwrap()], t).unwrap()
    }

    #[test]
    fn letters() {
        assert_eq!(TABLE[1].letters[0], &["Кр"]);
        assert_eq!(TABLE[1].letters[1], &["Ф"]);
        assert_eq!(TABLE[1].letters[2], &["Л"]);
        assert_eq!(TABLE[1].letters[3], &["С"]);
        assert_eq!(TABLE[1].letters[4], &["К"]);
        let kr = w("ru", "Крe2");
        assert!(matches!(
            kr,
            Written::Move {
                role: Some(Role::King),
                ..
            }
        ));
        let k = w("ru", "Кf3");
        assert!(matches!(
            k,
            Written::Move {
                role: Some(Role::Knight),
                ..
            }
        ));
    }

    #[test]
    fn forms() {
        let m = w("en", "Ng1-f3");
        assert_eq!(
            m,
            Written::Move {
                role: Some(Role::Knight),
                from_file: Some(File::G),
                from_rank: Some(Rank::First),
                capture: false,
                to: Square::F3,
                promotion: None
            }
        );
        assert!(matches!(
            w("en", "e4:d5"),
            Written::Move {
                capture: true,
                from_rank: Some(Rank::Fourth),
                ..
            }
        ));
        for p in ["e8Q", "e8=Q", "e8/Q", "e8(Q)"] {
            assert!(
                matches!(
                    w("en", p),
                    Written::Move {
                        promotion: Some(Role::Queen),
                        ..
                    }
                ),
                "{p}"
            );
        }
        assert!(matches!(
            w("de", "e8D"),
            Written::Move {
                promotion: Some(Role::Queen),
                ..
            }
        ));
        assert_eq!(w("ru", "О-О-О"), Written::Castle { long: true });
        assert_eq!(w("en", "0-0"), Written::Castle { long: false });
        assert!(read(&TABLE[0], "Xf3").is_err());
        assert!(read(&TABLE[0], "Nf9").is_err());
        assert!(matches!(
            w("figurine", "♞c6"),
            Written::Move {
                role: Some(Role::Knight),
                ..
            }
        ));
    }

    #[test]
    fn descriptive() {
        for d in ["P-K4", "N-KB3", "PxP", "Kt-B3", "Q-R5ch", "B(1)-K2"] {
            assert!(is_descriptive(d), "{d}");
        }
        for a in ["e4", "Nf3", "Ke2", "O-O", "Bxe5", "Pe2-e4"] {
            assert!(!is_descriptive(a), "{a}");
        }
    }
}
