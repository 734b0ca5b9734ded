//! Where one game ends and the next begins, and what a line end is.
//!
//! One rule, used by the reader and by the scan's chunker alike, so that a
//! game is the same whether a file is read whole or in chunks: **a game
//! starts at a tag line (`[Name "`) at the start of a line (spaces and
//! tabs may come before its `[`), after a blank line** (or at the start of
//! the input). No game, comment or variation is
//! read across such a place, with or without a termination marker before
//! it. Line ends are LF, CRLF or a lone CR (old Mac files), all alike.

/// Whether `b` ends a line (LF or CR; CRLF is one line end, see
/// [`line_ends`]).
#[inline]
pub fn is_eol(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// Whether byte `i` of `bytes` starts a line.
#[inline]
pub fn at_line_start(bytes: &[u8], i: usize) -> bool {
    i == 0 || bytes.get(i - 1).is_some_and(|&b| is_eol(b))
}

/// The number of line ends in `bytes`: LF, CR and CRLF each count once.
pub fn line_ends(bytes: &[u8]) -> usize {
    // bytecount counts by SIMD popcounts, whatever the density of line
    // ends (memchr's count goes from match to match).
    let lf = bytecount::count(bytes, b'\n');
    // Most files have no CR: finding none is cheaper than counting them.
    if memchr::memchr(b'\r', bytes).is_none() {
        return lf;
    }
    let cr = bytecount::count(bytes, b'\r');
    let crlf = memchr::memmem::find_iter(bytes, b"\r\n").count();
    lf + cr - crlf
}

/// `[Name "` at the start of `s`: a tag line's beginning.
pub fn starts_tag(s: &[u8]) -> bool {
    let mut i = 1;
    if s.first() != Some(&b'[') {
        return false;
    }
    while i < s.len() && (s[i].is_ascii_alphanumeric() || matches!(s[i], b'_' | b'+' | b'-')) {
        i += 1;
    }
    if i == 1 {
        return false;
    }
    while i < s.len() && (s[i] == b' ' || s[i] == b'\t') {
        i += 1;
    }
    i < s.len() && s[i] == b'"'
}

/// Whether the line that ends just before byte `i` (a line start) is blank,
/// or `i` is the start of the input. A blank line holds only spaces and tabs.
fn blank_line_before(bytes: &[u8], i: usize) -> bool {
    if i == 0 {
        return true;
    }
    // Step over the line end before `i` (CRLF is one).
    let mut j = i - 1;
    if bytes[j] == b'\n' && j > 0 && bytes[j - 1] == b'\r' {
        j -= 1;
    }
    // `j` is the line end; the line before it runs back to the previous one.
    let mut k = j;
    while k > 0 && matches!(bytes[k - 1], b' ' | b'\t' | 0x0b | 0x0c) {
        k -= 1;
    }
    k == 0 || is_eol(bytes[k - 1])
}

/// Whether a game starts at byte `i`: a tag line at a line start (after
/// spaces and tabs, if any), after a blank line or at the start of the input.
pub fn is_game_start(bytes: &[u8], i: usize) -> bool {
    if i >= bytes.len() || bytes[i] != b'[' {
        return false;
    }
    // The blank line first: a tag inside a tag section (the common case)
    // fails there at once, without its name being read.
    let line = indent_start(bytes, i);
    at_line_start(bytes, line) && blank_line_before(bytes, line) && starts_tag(&bytes[i..])
}

/// Byte `i` comes right after the LF of a line with text on it (not blank),
/// so no game starts there ([`is_game_start`] is false): a quick test for
/// a tag line inside a tag section.
#[inline]
pub fn follows_text_line(bytes: &[u8], i: usize) -> bool {
    i >= 2
        && bytes.get(i - 1) == Some(&b'\n')
        && !matches!(bytes[i - 2], b'\n' | b'\r' | b' ' | b'\t' | 0x0b | 0x0c)
}

/// A UTF-8 byte order mark. Where files that begin with one are joined
/// (`cat a.pgn b.pgn`), it stands before a game's first tag mid-input.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where the spaces and tabs just before byte `i` begin, and a byte order
/// mark before them (it starts a line as an indent would).
pub fn indent_start(bytes: &[u8], i: usize) -> usize {
    let mut s = i;
    while s > 0 && matches!(bytes[s - 1], b' ' | b'\t') {
        s -= 1;
    }
    if bytes[..s].ends_with(BOM) {
        s -= BOM.len();
    }
    s
}

/// The first game start in `bytes[from..to]`, if any.
pub fn next_game_start(bytes: &[u8], from: usize, to: usize) -> Option<usize> {
    let to = to.min(bytes.len());
    let mut at = from;
    while at < to {
        let i = at + memchr::memchr(b'[', &bytes[at..to])?;
        if is_game_start(bytes, i) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// The last game start in `bytes` at or after `from` (for a chunker: the
/// place to cut so that a chunk holds whole games).
pub fn last_game_start(bytes: &[u8], from: usize) -> Option<usize> {
    let mut end = bytes.len();
    while let Some(i) = memchr::memrchr(b'[', &bytes[..end]) {
        if i < from {
            return None;
        }
        if i > 0 && is_game_start(bytes, i) {
            return Some(i);
        }
        end = i;
    }
    None
}

/// Where the games of `bytes` that certainly ended end, when the text was
/// cut (a read error): before its last game start, since the last game may
/// be cut short (0: there is only one).
pub fn whole_games_end(bytes: &[u8]) -> usize {
    last_game_start(bytes, 1).unwrap_or(0)
}

/// Where the comment opening at `open` (its `{`) ends, just past its `}`,
/// if it closes before any game starts; `None` when it is left open.
pub fn comment_end(bytes: &[u8], open: usize) -> Option<usize> {
    let close = open + memchr::memchr(b'}', bytes.get(open..)?)?;
    game_start_within(bytes, open, close)
        .is_none()
        .then_some(close + 1)
}

/// Whether a line-ending byte in `bytes[from..to]` begins a game start: a
/// quick test for text that must not run into the next game (a comment).
pub fn game_start_within(bytes: &[u8], from: usize, to: usize) -> Option<usize> {
    let to = to.min(bytes.len());
    let mut at = from;
    while at < to {
        let e = at + memchr::memchr2(b'\n', b'\r', &bytes[at..to])?;
        let mut next = e + 1;
        if bytes[next..to].starts_with(BOM) {
            next += BOM.len();
        }
        while next < to && matches!(bytes[next], b' ' | b'\t') {
            next += 1;
        }
        if next < to && bytes[next] == b'[' && is_game_start(bytes, next) {
            return Some(next);
        }
        at = e + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_of_every_kind() {
        assert_eq!(line_ends(b"a\nb\r\nc\rd"), 3);
        assert_eq!(line_ends(b"\r\r\n\n"), 3);
        assert_eq!(line_ends(b""), 0);
    }

    #[test]
    fn game_starts_need_a_blank_line_and_a_tag() {
        for (text, want) in [
            (&b"1. e4\n\n[Event \"b\"]"[..], Some(7)),
            (b"1. e4\r\n\r\n[Event \"b\"]", Some(9)),
            (b"1. e4\r\r[Event \"b\"]", Some(7)),
            (b"1. e4\n \t\n[Event \"b\"]", Some(9)),
            (b"1. e4\n[Event \"b\"]", None),
            (b"1. e4\n\n[%clk 0:01]", None),
            (b"1. e4\n\n x[Event \"b\"]", None),
            (b"1. e4\n\n \t[Event \"b\"]", Some(9)),
            (b"1. e4\n \t[Event \"b\"]", None),
        ] {
            assert_eq!(next_game_start(text, 1, text.len()), want, "{text:?}");
            assert_eq!(last_game_start(text, 1), want, "{text:?}");
        }
        assert!(is_game_start(b"[A \"1\"]", 0));
        // The quick test never rules out a game start that is one.
        for text in [
            &b"[A \"1\"]\n[B \"2\"]"[..],
            b"x\n\n[B \"2\"]",
            b"x\r\n\r\n[B \"2\"]",
            b"x\n \n[B \"2\"]",
            b"\n[B \"2\"]",
            b"x\n\t[B \"2\"]",
        ] {
            for i in 0..text.len() {
                assert!(
                    !(follows_text_line(text, i) && is_game_start(text, i)),
                    "{text:?} {i}"
                );
            }
        }
        assert!(follows_text_line(b"[A \"1\"]\n[B \"2\"]", 8));
        assert_eq!(game_start_within(b"{a\n\n[B \"x\"] }", 0, 13), Some(4));
        assert_eq!(game_start_within(b"{a\n[B \"x\"] }", 0, 12), None);
    }
}
