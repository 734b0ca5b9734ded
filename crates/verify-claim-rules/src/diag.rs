//! Errors about the input, always with a place: file, line and column.
//!
//! Every problem the tool finds in a record becomes a [`Diagnostic`]; the
//! CLI prints it as `file:line:col: error: message` and exits with status 2.
//! Its [`DiagnosticKind`] says what kind of problem it is, for a program to
//! act on (the Python package picks its exception by it); the message is
//! for people.

use std::fmt;
use std::io;

/// A place in an input: 1-based line and column (columns count characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Place {
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1, in characters.
    pub col: u32,
}

/// What kind of problem a [`Diagnostic`] is: what a program matches on,
/// where the message is for people (and may be reworded).
///
/// The facade's `decide_file` gives `Io(NotFound)` for a missing file,
/// `decide` gives `IllegalMove` for `1. e4 e5 2. Ke3` (the facade's tests
/// hold both); a diagnostic is made with its kind:
///
/// ```
/// use verify_claim_rules::diag::{Diagnostic, DiagnosticKind, Place};
///
/// let at = Some(Place { line: 1, col: 13 });
/// let e = Diagnostic::new(DiagnosticKind::IllegalMove, "a.pgn", at, "illegal move Ke3");
/// assert_eq!(e.kind, DiagnosticKind::IllegalMove);
/// assert_eq!(e.to_string(), "a.pgn:1:13: error: illegal move Ke3");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagnosticKind {
    /// The input could not be read: opened, read or decompressed (a
    /// missing file is `Io(NotFound)`, an unreadable one
    /// `Io(PermissionDenied)`, a truncated `.gz` `Io(UnexpectedEof)`, ...),
    /// with the [`io::ErrorKind`] of the error; also an output the CLI
    /// could not write.
    Io(io::ErrorKind),
    /// The text is not a record the tool reads: a tag, a token, a move
    /// number, a comment, a FEN (a `FEN` tag or `--fen`), a tag naming a
    /// game the tool does not decide, a scoresheet's rows or notation.
    Syntax,
    /// A recorded move that is not legal (or is ambiguous) in its
    /// position; a scoresheet that no legal game explains.
    IllegalMove,
    /// An option that does not fit the input, or a bad option value
    /// (`--game 3` of a file of 2 games, several games and no `--game`,
    /// `--after` naming no move of the game, `--ply` past its end, an
    /// unknown `--notation`); the CLI's usage errors.
    Option,
    /// Over a bound the tool sets to keep memory bounded: a game too long
    /// for claim mode, a game over the MiB a game may hold, megabytes with
    /// no game start (not a record of games).
    Limit,
    /// An input with no game in it (empty, or only comments).
    NoGame,
    /// An internal error: a panic in a scan's worker (a bug; please
    /// report it). The message names the file and the game.
    Panic,
}

impl DiagnosticKind {
    /// The kind's name (`io`, `syntax`, `illegal-move`, `option`, `limit`,
    /// `no-game`, `panic`): Python's `InputError.kind`.
    pub const fn name(self) -> &'static str {
        match self {
            DiagnosticKind::Io(_) => "io",
            DiagnosticKind::Syntax => "syntax",
            DiagnosticKind::IllegalMove => "illegal-move",
            DiagnosticKind::Option => "option",
            DiagnosticKind::Limit => "limit",
            DiagnosticKind::NoGame => "no-game",
            DiagnosticKind::Panic => "panic",
        }
    }
}

/// One problem in one input, with its place when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What kind of problem (for a program; the message is for people).
    pub kind: DiagnosticKind,
    /// The input's name as printed.
    pub file: String,
    /// Where in the input, when the problem has a place.
    pub place: Option<Place>,
    /// What is wrong.
    pub message: String,
}

impl Diagnostic {
    /// A problem of `kind` in `file`, at `place` if it has one.
    pub fn new(
        kind: DiagnosticKind,
        file: &str,
        place: Option<Place>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            kind,
            file: file.to_owned(),
            place,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Shown escaped: a file name or a quoted token cannot drive the terminal.
        let file = crate::escape::field(&self.file);
        let message = crate::escape::text(&self.message);
        match self.place {
            Some(p) => write!(f, "{file}:{}:{}: error: {message}", p.line, p.col),
            None => write!(f, "{file}: error: {message}"),
        }
    }
}

impl std::error::Error for Diagnostic {}

/// Computes the place of byte `offset` in `bytes`, whose first byte is at
/// `base` (the place of `bytes[0]` in the whole input).
///
/// Lines end with LF, CRLF or a lone CR (old Mac files). Columns count UTF-8
/// characters (continuation bytes are not counted), so a column points at
/// the character a user sees in an editor; a byte order mark that begins a
/// line (a file's, or one of concatenated files) is not one: editors and
/// compilers do not show or count it.
pub fn place_of(bytes: &[u8], offset: usize, base: Place) -> Place {
    let offset = offset.min(bytes.len());
    let before = &bytes[..offset];
    let lines = crate::record::boundary::line_ends(before) as u32;
    let line_start = memchr::memrchr2(b'\n', b'\r', before).map(|i| i + 1);
    let col_bytes = &before[line_start.unwrap_or(0)..];
    let at_line_start = lines > 0 || base.col == 1;
    let chars = chars(col_bytes) - u32::from(at_line_start && starts_with_bom(col_bytes));
    if lines == 0 {
        Place {
            line: base.line,
            col: base.col + chars,
        }
    } else {
        Place {
            line: base.line + lines,
            col: 1 + chars,
        }
    }
}

/// Whether `line` (from a line's start) holds a whole byte order mark
/// first: one character that no column counts.
fn starts_with_bom(line: &[u8]) -> bool {
    line.starts_with(crate::record::boundary::BOM)
}

/// Turns byte offsets into places, counting lines forward from the last
/// offset asked for (cheap for offsets asked in increasing order; an
/// earlier offset is counted from the start). Line ends as in [`place_of`].
pub struct LineCursor<'a> {
    bytes: &'a [u8],
    base: Place,
    at: usize,
    line: u32,
    line_start: usize,
    /// Characters from `line_start` to `at`: a long line is counted once,
    /// not again from its start for each offset on it.
    col: u32,
    /// Whether `bytes` holds a CR at all (looked for once): without one,
    /// a line end is an LF and counting LFs is enough.
    cr: bool,
}

impl<'a> LineCursor<'a> {
    /// A cursor over `bytes`, whose first byte is at line `first_line`,
    /// column 1.
    pub fn new(bytes: &'a [u8], first_line: u32) -> LineCursor<'a> {
        LineCursor {
            bytes,
            base: Place {
                line: first_line,
                col: 1,
            },
            at: 0,
            line: first_line,
            line_start: 0,
            col: 0,
            cr: memchr::memchr(b'\r', bytes).is_some(),
        }
    }

    /// Whether the bytes hold a CR anywhere (else LF alone ends a line).
    pub fn has_cr(&self) -> bool {
        self.cr
    }

    /// The place of byte `offset`.
    pub fn place(&mut self, offset: usize) -> Place {
        let offset = offset.min(self.bytes.len());
        if offset < self.at {
            return place_of(self.bytes, offset, self.base);
        }
        let mut from = self.at;
        // The LF of a CRLF whose CR was counted already.
        if from > 0 && from < offset && self.bytes[from - 1] == b'\r' && self.bytes[from] == b'\n' {
            from += 1;
            self.line_start = from;
            self.col = 0;
        }
        let seg = &self.bytes[from..offset];
        self.line += if self.cr {
            crate::record::boundary::line_ends(seg)
        } else {
            bytecount::count(seg, b'\n')
        } as u32;
        match memchr::memrchr2(b'\n', b'\r', seg) {
            Some(i) => {
                self.line_start = from + i + 1;
                self.col = chars(&self.bytes[self.line_start..offset]);
            }
            None => self.col += chars(seg),
        }
        self.at = offset;
        let bom = starts_with_bom(&self.bytes[self.line_start..offset]);
        Place {
            line: self.line,
            col: 1 + self.col - u32::from(bom),
        }
    }
}

impl LineCursor<'_> {
    /// The line ends in all of `bytes` (what the next stretch's first line
    /// follows from), counted on from the last place asked for.
    pub fn line_ends(&mut self) -> u32 {
        self.place(self.bytes.len()).line - self.base.line
    }
}

/// The characters of UTF-8 text: bytes that do not continue one (counted
/// by SIMD: a finding on a long line, lichess's one-line movetext, counts
/// the line from its start).
fn chars(bytes: &[u8]) -> u32 {
    bytecount::num_chars(bytes) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_count_lines_and_characters() {
        let b = "ab\nc\u{e9}d\n".as_bytes();
        let base = Place { line: 1, col: 1 };
        assert_eq!(place_of(b, 0, base), Place { line: 1, col: 1 });
        assert_eq!(place_of(b, 3, base), Place { line: 2, col: 1 });
        // 'd' comes after a two-byte character: column 3.
        assert_eq!(place_of(b, 6, base), Place { line: 2, col: 3 });
        let base = Place { line: 10, col: 5 };
        assert_eq!(place_of(b, 1, base), Place { line: 10, col: 6 });
    }

    #[test]
    fn a_byte_order_mark_at_a_line_start_is_no_column() {
        let base = Place { line: 1, col: 1 };
        let b = b"\xEF\xBB\xBF[A \"b\"]\n\xEF\xBB\xBF[C \"d\"] \xEF\xBB\xBFx";
        assert_eq!(place_of(b, 3, base), Place { line: 1, col: 1 });
        assert_eq!(place_of(b, 4, base), Place { line: 1, col: 2 });
        assert_eq!(place_of(b, 14, base), Place { line: 2, col: 1 });
        // Inside a line it is a character like any other.
        assert_eq!(place_of(b, b.len() - 1, base), Place { line: 2, col: 10 });
        // A stretch that starts inside a line: its first bytes begin no line.
        let mid = Place { line: 4, col: 7 };
        assert_eq!(place_of(&b[..4], 3, mid), Place { line: 4, col: 8 });
    }

    #[test]
    fn the_cursor_agrees_with_place_of() {
        let text =
            b"\xEF\xBB\xBFa\r\nb\rc\n\r\nd\xc3\xa9e\r\xEF\xBB\xBFfg\xc3\xa9h\xc3\xa9ijk\r\nl";
        let base = Place { line: 1, col: 1 };
        for step in 1..7 {
            let mut cursor = LineCursor::new(text, 1);
            for offset in (0..=text.len()).step_by(step) {
                assert_eq!(
                    cursor.place(offset),
                    place_of(text, offset, base),
                    "{offset}"
                );
            }
        }
    }

    #[test]
    fn the_cursor_counts_every_line_end_once() {
        for text in [
            &b"a\r\nb\rc\n\r\nd\xc3\xa9e\r"[..],
            b"a\nb\n",
            b"\r\n\r\n\r",
            b"",
        ] {
            for step in 1..5 {
                let mut cursor = LineCursor::new(text, 1);
                for offset in (0..=text.len()).step_by(step) {
                    cursor.place(offset);
                }
                let want = crate::record::boundary::line_ends(text) as u32;
                assert_eq!(cursor.line_ends(), want, "{text:?} {step}");
            }
        }
    }

    #[test]
    fn places_with_every_line_end() {
        let base = Place { line: 1, col: 1 };
        for eol in ["\n", "\r\n", "\r"] {
            let text = format!("a{eol}{eol}bc{eol}d");
            let at = text.find('c').unwrap();
            assert_eq!(
                place_of(text.as_bytes(), at, base),
                Place { line: 3, col: 2 }
            );
            let at = text.find('d').unwrap();
            assert_eq!(
                place_of(text.as_bytes(), at, base),
                Place { line: 4, col: 1 }
            );
        }
    }
}
