//! Byte classes and the scans built on them: white space, delimiters,
//! tag names and values, movetext tokens.

use crate::record::boundary;

const SPACE: u8 = 1;

const DELIMITER: u8 = 2;

const VALUE_STOP: u8 = 4;

const NAME: u8 = 8;
/// Bytes that are no delimiter but do not start a word either.
const NOT_WORD: u8 = 16;

/// Byte classes, looked up instead of matched: a `match` in the lexer's
/// inner loops compiles to a jump table per byte.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let spaces = [b' ', b'\t', b'\r', b'\n', 0x0b, 0x0c];
    let mut i = 0;
    while i < spaces.len() {
        t[spaces[i] as usize] = SPACE | DELIMITER;
        i += 1;
    }
    let delims = [b'{', b'}', b'(', b')', b'[', b']', b';', b'$', b'"'];
    let mut i = 0;
    while i < delims.len() {
        t[delims[i] as usize] |= DELIMITER;
        i += 1;
    }
    let stops = [b'"', b'\\', b'\n', b'\r', 0];
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] |= VALUE_STOP;
        i += 1;
    }
    t[0] |= NOT_WORD;
    t[b'%' as usize] |= NOT_WORD;
    // A byte order mark's first byte: looked at in the movetext's rare
    // branch (a mark before the next game's tags), then read as a word.
    t[0xEF] |= NOT_WORD;
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'+' || b == b'-' {
            t[c] |= NAME;
        }
        c += 1;
    }
    t
};

#[inline]
pub(super) fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

#[inline]
pub(super) fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] & DELIMITER != 0
}

/// A byte that ends the plain run of a tag value: `"`, `\\`, a line end, NUL.
/// A byte that starts a word of movetext (a move, a move number, a result):
/// no delimiter, no NUL, no `%` (an escape line at a line start).
#[inline]
pub(super) fn is_word_byte(b: u8) -> bool {
    CLASS[b as usize] & (DELIMITER | NOT_WORD) == 0
}

#[inline]
pub(super) fn is_value_stop(b: u8) -> bool {
    CLASS[b as usize] & VALUE_STOP != 0
}

/// A byte of a tag name.
#[inline]
pub(super) fn is_name_byte(b: u8) -> bool {
    CLASS[b as usize] & NAME != 0
}

/// Where the line holding byte `from` ends: its LF or CR, or the end.
pub(super) fn line_end(bytes: &[u8], from: usize) -> usize {
    let from = from.min(bytes.len());
    memchr::memchr2(b'\n', b'\r', &bytes[from..]).map_or(bytes.len(), |i| from + i)
}

/// The first byte at or after `from` that is not a space or tab (or other
/// white space) on the same line.
#[inline]
pub(super) fn skip_line_spaces(bytes: &[u8], from: usize) -> usize {
    let from = from.min(bytes.len());
    bytes[from..]
        .iter()
        .position(|&c| !is_space(c) || boundary::is_eol(c))
        .map_or(bytes.len(), |i| from + i)
}

/// The end of the movetext token that starts at `offset` (a move with its
/// glyphs, `e4!?`): the first space or delimiter after it.
#[inline]
pub fn token_end(bytes: &[u8], offset: usize) -> usize {
    let from = offset.min(bytes.len());
    // Most tokens are short: the next 8 bytes tested at once, no branch per
    // byte (one mispredicted exit less a word). The first byte marked is
    // checked in the table; if it is no delimiter, the loop goes on there.
    if let Some(&w) = bytes.get(from..).and_then(|r| r.first_chunk::<8>()) {
        let marked = delimiter_candidates(u64::from_le_bytes(w));
        if marked != 0 {
            let i = from + (marked.trailing_zeros() / 8) as usize;
            if is_delimiter(bytes[i]) {
                return i;
            }
            return scan_token_end(bytes, i + 1);
        }
    }
    scan_token_end(bytes, from)
}

/// [`token_end`] byte by byte.
fn scan_token_end(bytes: &[u8], from: usize) -> usize {
    let from = from.min(bytes.len());
    bytes[from..]
        .iter()
        .position(|&c| is_delimiter(c))
        .map_or(bytes.len(), |i| from + i)
}

/// The bytes of `x` (eight bytes, the first lowest) that may be
/// delimiters, by their high bits; right for the lowest byte marked, which
/// may still be no delimiter ([`is_delimiter`] decides). Marked: every byte
/// below `*` (white space, `"`, `$`, `(`, `)`; also `!`, `#`, `%`, `&`,
/// `'` and control bytes) and every byte `c` with `c & 0x99 == 0x19` (`;`,
/// `[`, `]`, `{`, `}`; also `=`, `?`, `9`, `Y`, `_`, `y`, DEL and a few
/// control bytes). A borrow in a subtraction can mark a byte above a
/// marked one, never below it.
#[inline]
fn delimiter_candidates(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let below = x.wrapping_sub(ONES * 0x2a) & !x;
    let y = (x & (ONES * 0x99)) ^ (ONES * 0x19);
    let brackets = y.wrapping_sub(ONES) & !y;
    (below | brackets) & (ONES * 0x80)
}

/// The first byte at or after `from` that is not white space.
#[inline]
pub(super) fn skip_spaces(bytes: &[u8], from: usize) -> usize {
    let from = from.min(bytes.len());
    bytes[from..]
        .iter()
        .position(|&c| !is_space(c))
        .map_or(bytes.len(), |i| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_end_by_eight_bytes_is_token_end_byte_by_byte() {
        for c in 0..=255u8 {
            for p in 0..12 {
                for len in [p + 1, 12] {
                    let mut w = b"Nxe4=Q+abcde".to_vec();
                    w[p] = c;
                    w[(p + 5) % 12] = b'(';
                    let w = &w[..len];
                    for from in 0..len {
                        assert_eq!(token_end(w, from), scan_token_end(w, from), "{w:?} {from}");
                    }
                }
            }
        }
    }
}
