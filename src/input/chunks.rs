//! Cutting a stream into chunks that hold whole games.
//!
//! A chunk ends at a *safe boundary*: a line whose last token is a game
//! termination marker (`1-0`, `0-1`, `1/2-1/2`, `*` and the PDN forms),
//! then one or more blank lines, then a line that starts a tag (`[Name "`).
//! Inside a comment that sequence is next to impossible; where a stream has
//! no such boundary the chunk simply grows (up to [`MAX_CHUNK`]).

use std::io::{self, Read};

/// Aimed-for chunk size.
pub const CHUNK: usize = 1 << 20;
/// A chunk (one game, in the worst case) larger than this is an error.
pub const MAX_CHUNK: usize = 256 << 20;

/// Whole games. Lines are counted by whoever analyses the chunk (in
/// parallel), not here: the chunker runs on one thread for all.
#[derive(Debug)]
pub struct Chunk {
    pub bytes: Vec<u8>,
}

/// Reads chunks from a stream.
pub struct Chunker<R: Read> {
    inner: R,
    size: usize,
    carry: Vec<u8>,
    eof: bool,
}

impl<R: Read> Chunker<R> {
    pub fn new(inner: R) -> Chunker<R> {
        Chunker::with_size(inner, CHUNK)
    }

    /// Chunks of about `size` bytes (for tests; scans use [`CHUNK`]).
    pub fn with_size(inner: R, size: usize) -> Chunker<R> {
        Chunker {
            inner,
            size: size.max(1),
            carry: Vec::new(),
            eof: false,
        }
    }

    /// Reads until `buf` holds `target` bytes or the stream ends.
    fn fill(&mut self, buf: &mut Vec<u8>, target: usize) -> io::Result<()> {
        while !self.eof && buf.len() < target {
            // read_to_end zeroes the new capacity before reading into it
            // (the memset in profiles); reusing buffers would avoid that.
            buf.reserve(target - buf.len());
            let want = (target - buf.len()) as u64;
            let n = (&mut self.inner).take(want).read_to_end(buf)?;
            if n == 0 {
                self.eof = true;
            }
        }
        Ok(())
    }

    /// The next chunk, `None` at the end.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let mut buf = std::mem::take(&mut self.carry);
        let mut target = self.size;
        let mut search_from = 0;
        loop {
            self.fill(&mut buf, target)?;
            if self.eof {
                return Ok((!buf.is_empty()).then(|| self.emit(buf, None)));
            }
            if let Some(cut) = last_boundary(&buf, search_from) {
                return Ok(Some(self.emit(buf, Some(cut))));
            }
            if buf.len() > MAX_CHUNK {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "no game boundary in {} MiB: a game this large is not read",
                        MAX_CHUNK >> 20
                    ),
                ));
            }
            // No boundary yet: read more and search the new part too.
            search_from = buf.len().saturating_sub(64);
            target = buf.len() + self.size;
        }
    }

    fn emit(&mut self, mut buf: Vec<u8>, cut: Option<usize>) -> Chunk {
        if let Some(cut) = cut {
            self.carry = buf.split_off(cut);
        }
        Chunk { bytes: buf }
    }
}

const RESULTS: [&[u8]; 7] = [b"1-0", b"0-1", b"1/2-1/2", b"*", b"2-0", b"0-2", b"1-1"];

/// The offset of the last safe boundary in `buf` at or after `from` (the
/// start of the tag line that begins the next game).
pub fn last_boundary(buf: &[u8], from: usize) -> Option<usize> {
    let mut end = buf.len();
    // Candidates: "\n[" found backwards.
    while let Some(i) = memchr::memrchr(b'[', &buf[..end]) {
        end = i;
        if i < from.max(1) {
            return None;
        }
        if buf[i - 1] != b'\n' || !starts_tag(&buf[i..]) {
            continue;
        }
        // Walk back over blank lines; at least one is required.
        let mut j = i - 1; // the '\n' ending the previous line
        let mut blank_lines = 0;
        loop {
            let line_start = memchr::memrchr(b'\n', &buf[..j]).map_or(0, |k| k + 1);
            let line = &buf[line_start..j];
            if line.iter().all(|b| b.is_ascii_whitespace()) {
                if line_start == 0 {
                    break;
                }
                blank_lines += 1;
                j = line_start - 1;
                continue;
            }
            let last_token = line
                .split(|b| b.is_ascii_whitespace())
                .rfind(|t| !t.is_empty())
                .unwrap_or(b"");
            if blank_lines > 0 && RESULTS.contains(&last_token) {
                return Some(i);
            }
            break;
        }
    }
    None
}

/// `[Name "` at the start of `s`.
fn starts_tag(s: &[u8]) -> bool {
    let mut i = 1;
    while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_need_a_result_a_blank_line_and_a_tag() {
        let s = b"[A \"1\"]\n\n1. e4 1-0\n\n[A \"2\"]\n\n1. d4 *\n";
        let cut = last_boundary(s, 0).unwrap();
        assert!(s[cut..].starts_with(b"[A \"2\"]"));
        // A comment line that looks like a tag, with no result before it.
        let s = b"1. e4 {a\n\n[%clk 0:01] b} e5 *\n";
        assert_eq!(last_boundary(s, 0), None);
        let s = b"1. e4 {a 1-0\n\n[Event \"x\"] b} e5 *\n";
        // Next to impossible in real files, and documented.
        assert!(last_boundary(s, 0).is_some());
    }

    #[test]
    fn chunks_hold_whole_games_and_count_lines() {
        let mut text = Vec::new();
        for i in 0..5000 {
            text.extend_from_slice(
                format!("[Event \"{i}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 {{comment}} *\n\n")
                    .as_bytes(),
            );
        }
        let mut c = Chunker::with_size(&text[..], 4096);
        let mut total = 0;
        let mut chunks = 0;
        while let Some(ch) = c.next_chunk().unwrap() {
            assert!(ch.bytes.starts_with(b"[Event \""));
            total += ch.bytes.len();
            chunks += 1;
        }
        assert_eq!(total, text.len());
        assert!(chunks > 50, "{chunks}");
    }
}
