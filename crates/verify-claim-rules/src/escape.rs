//! Control characters shown, not obeyed: every text this tool writes for a
//! terminal or a log (scan text, CSV and GitHub annotations, claim text,
//! diagnostics on stderr) passes through here, so a record cannot set a
//! window title, clear the screen, colour or hide the rest of the output,
//! or ring the bell.
//!
//! The rule, as ripgrep and git show bytes they will not print:
//!
//! - a C0 control character or DEL becomes `\xHH` (ESC is `\x1b`, BEL
//!   `\x07`, CR `\x0d`);
//! - a C1 control character (U+0080..U+009F) and the Unicode controls that
//!   reorder or hide text (bidirectional embeddings, overrides and isolates,
//!   U+202A..U+202E, U+2066..U+2069; the line and paragraph separators
//!   U+2028, U+2029) become `\u{HHHH}` as Rust writes them;
//! - [`text`] keeps LF and TAB (a message may span lines); [`field`], for a
//!   value that must stay on its line (a file name, a tag value), escapes
//!   them too (`\x0a`, `\x09`).
//!
//! A backslash is left as it is: escaping is idempotent (an escaped text
//! escaped again is unchanged), and texts without control characters are
//! written byte for byte as before. JSON output keeps serde_json's own
//! escaping and is not passed through here. Hand-written: a dozen lines,
//! where a crate (`strip-ansi-escapes`) would delete the evidence instead
//! of showing it.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` must be shown escaped; `keep_lines`: LF and TAB pass.
fn hidden(c: char, keep_lines: bool) -> bool {
    match c {
        '\n' | '\t' => !keep_lines,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}' => true,
        c => c.is_control(),
    }
}

fn escape(s: &str, keep_lines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| hidden(c, keep_lines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !hidden(c, keep_lines) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    Cow::Owned(out)
}

/// A message for a terminal or a log: control characters escaped, line
/// ends (LF) and tabs kept.
pub fn text(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

/// A value that must stay on its line (a file name, a player, a move):
/// every control character escaped, LF and TAB too.
pub fn field(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// A CSV cell a spreadsheet would read as a formula (it begins with `=`,
/// `+`, `-`, `@`, TAB or CR: the OWASP rule) gets a leading `'`, which
/// spreadsheets show as text; anything else, the results `1-0`, `0-1`,
/// `1/2-1/2` and `*` among them, is unchanged.
pub fn csv_cell(s: &str) -> Cow<'_, str> {
    if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_controls_are_shown_not_obeyed() {
        let white = "A\x1b]0;OWNED\x07\x1b[2J\x1b[31mRED";
        assert_eq!(field(white), "A\\x1b]0;OWNED\\x07\\x1b[2J\\x1b[31mRED");
        assert_eq!(text("a\r\nb\tc\x7f"), "a\\x0d\nb\tc\\x7f");
        assert_eq!(field("a\nb\tc"), "a\\x0ab\\x09c");
        assert_eq!(
            field("\u{9b}31m \u{202e}gnp.exe"),
            "\\u{9b}31m \\u{202e}gnp.exe"
        );
    }

    #[test]
    fn plain_text_is_unchanged_and_escaping_is_idempotent() {
        for s in ["Nf3", "Müller, J.", "C:\\games\\a.pgn", "½–½"] {
            assert!(matches!(field(s), Cow::Borrowed(_)), "{s}");
        }
        let once = field("x\x1by").into_owned();
        assert_eq!(field(&once), once);
    }

    #[test]
    fn formulas_are_neutralised_and_results_kept() {
        assert_eq!(
            csv_cell("=HYPERLINK(\"http://evil.example/\")"),
            "'=HYPERLINK(\"http://evil.example/\")"
        );
        assert_eq!(csv_cell("@SUM(1+1)"), "'@SUM(1+1)");
        assert_eq!(csv_cell("+1"), "'+1");
        assert_eq!(csv_cell("-1"), "'-1");
        assert_eq!(csv_cell("\t=1"), "'\t=1");
        for r in ["1-0", "0-1", "1/2-1/2", "*", "", "Nf3", "c3-d4"] {
            assert_eq!(csv_cell(r), r);
        }
    }
}
