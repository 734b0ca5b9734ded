//! Cutting input into chunks that hold whole games.
//!
//! A chunk is cut only where a game starts by the one rule of
//! [`crate::record::boundary`] (a tag line after a blank line), the rule the
//! reader splits games by, so a game reads the same in a chunk as in the
//! whole file. Streams (compressed files, standard input, FIFOs) are cut
//! here by [`Chunker`]; plain files by the workers themselves
//! ([`super::ranges`]).
//!
//! Memory stays bounded for any input: a game (the text from one game start
//! to the next) longer than [`MAX_GAME`] is not held in memory; it is
//! skipped, counting its lines, and becomes that game's error
//! ([`Chunk::too_large`]), and the scan goes on with the next game.

use std::io::{self, Read};

use crate::record::boundary;

/// Aimed-for chunk size (small enough that the findings of the chunks in
/// flight stay small even when every game has one).
pub const CHUNK: usize = 1 << 18;
/// A game longer than this (from its start to the next game's tag line) is
/// not read: it becomes its game's error.
pub const MAX_GAME: usize = 64 << 20;

/// How far a game-start test in a window of a larger input looks back (over
/// a blank line) and ahead (over a tag name); see [`starts_game_in_window`].
pub const LOOK_BACK: usize = 4096;
pub const LOOK_AHEAD: usize = 4096;

/// Whole games. Lines are counted by whoever analyses the chunk (in
/// parallel), not here.
#[derive(Debug, Default)]
pub struct Chunk {
    pub bytes: Vec<u8>,
    /// A game after those of `bytes`, longer than [`MAX_GAME`], that was
    /// skipped.
    pub too_large: Option<Skipped>,
}

/// A game that was not read: its size and the line ends in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub bytes: u64,
    pub lines: u32,
}

/// The error of a stretch longer than [`Chunker::max_stretch`] with no
/// game start: not a record of games, not a failed read.
#[derive(Debug)]
pub struct NoGameStart {
    pub limit: u64,
}

impl std::fmt::Display for NoGameStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no game starts in {} MiB from here (a game starts at a tag line after a blank line): not a record of games (binary data?); not read further",
            self.limit >> 20
        )
    }
}

impl std::error::Error for NoGameStart {}

/// Whether a game starts at `bytes[i]`, where `bytes` is a window of a larger
/// input and `at_input_start` says whether `bytes[0]` is the input's first
/// byte. The answer depends only on the input's bytes from `LOOK_BACK`
/// before `i` to `LOOK_AHEAD` after it, so every window that holds them
/// gives the same answer; it is the rule's answer, except that a start is
/// missed (never invented) when a tag name is longer than `LOOK_AHEAD` or a
/// blank line longer than `LOOK_BACK`.
pub fn starts_game_in_window(bytes: &[u8], i: usize, at_input_start: bool) -> bool {
    let end = i.saturating_add(LOOK_AHEAD).min(bytes.len());
    if !boundary::is_game_start(&bytes[..end], i) {
        return false;
    }
    let from = i.saturating_sub(LOOK_BACK);
    if from == 0 && at_input_start {
        return true;
    }
    // The walk back over the indent and the blank line must stop inside
    // the window.
    let line = boundary::indent_start(bytes, i);
    bytes[from..line.saturating_sub(2).max(from)]
        .iter()
        .any(|b| !matches!(b, b' ' | b'\t' | 0x0b | 0x0c))
}

/// The first `i` in `from..to` where [`starts_game_in_window`] holds.
pub fn first_start_in_window(
    bytes: &[u8],
    from: usize,
    to: usize,
    at_input_start: bool,
) -> Option<usize> {
    let to = to.min(bytes.len());
    let mut at = from;
    while at < to {
        let i = at + memchr::memchr(b'[', &bytes[at..to])?;
        if starts_game_in_window(bytes, i, at_input_start) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// Counts line ends across pieces of an input: a CRLF split between two
/// pieces counts once.
#[derive(Debug, Default)]
pub struct LineCounter {
    lines: u64,
    cr_at_end: bool,
}

impl LineCounter {
    pub fn add(&mut self, piece: &[u8]) {
        if piece.is_empty() {
            return;
        }
        self.lines += boundary::line_ends(piece) as u64;
        if self.cr_at_end && piece[0] == b'\n' {
            self.lines -= 1;
        }
        self.cr_at_end = piece.last() == Some(&b'\r');
    }

    pub fn lines(&self) -> u32 {
        u32::try_from(self.lines).unwrap_or(u32::MAX)
    }
}

/// Reads chunks from a stream.
pub struct Chunker<R: Read> {
    inner: R,
    size: usize,
    /// A game longer than this is skipped ([`MAX_GAME`] unless told).
    max_game: usize,
    /// A stretch with no game start longer than this ends the reading
    /// with an error (claim mode); `None`: skipped however long (the scan).
    max_stretch: Option<u64>,
    carry: Vec<u8>,
    eof: bool,
    /// A read error, given after the bytes read before it.
    failed: Option<io::Error>,
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
            max_game: MAX_GAME,
            max_stretch: None,
            carry: Vec::new(),
            eof: false,
            failed: None,
        }
    }

    /// Skips games longer than `max_game` bytes instead of [`MAX_GAME`]
    /// (claim mode's bound).
    pub fn max_game(mut self, max_game: usize) -> Chunker<R> {
        self.max_game = max_game.max(1);
        self
    }

    /// Gives up, with an `InvalidData` error, when `max_stretch` bytes
    /// have gone by with no game start (claim mode: `/dev/urandom` or any
    /// endless input that is no record ends, placed, within seconds, where
    /// it must otherwise be read to its end to count its games).
    pub fn max_stretch(mut self, max_stretch: u64) -> Chunker<R> {
        self.max_stretch = Some(max_stretch);
        self
    }

    /// Reads until `buf` holds `target` bytes or the stream ends or fails
    /// (the bytes read before a failure are kept).
    fn fill(&mut self, buf: &mut Vec<u8>, target: usize) {
        while !self.eof && buf.len() < target {
            buf.reserve(target - buf.len());
            let want = (target - buf.len()) as u64;
            match (&mut self.inner).take(want).read_to_end(buf) {
                Ok(0) => self.eof = true,
                Ok(_) => {}
                Err(e) => {
                    self.failed = Some(e);
                    self.eof = true;
                }
            }
        }
    }

    /// Whether reading failed: the chunk just given was the last one read,
    /// and its last game may be cut short; the next call gives the error.
    pub fn failed(&self) -> bool {
        self.failed.is_some()
    }

    /// The next chunk, `None` at the end. A read error comes after a chunk
    /// of what was read before it (a truncated compressed file: its complete
    /// games are scanned, then the error).
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let mut buf = std::mem::take(&mut self.carry);
        let mut target = self.size;
        let mut search_from = 1;
        loop {
            self.fill(&mut buf, target);
            if self.eof {
                if buf.is_empty() {
                    return self.failed.take().map_or(Ok(None), Err);
                }
                return Ok(Some(Chunk {
                    bytes: buf,
                    too_large: None,
                }));
            }
            // `buf` starts at a game start (or the input's start), so the
            // rule is applied with all the context it needs.
            if let Some(cut) = boundary::last_game_start(&buf, search_from) {
                self.carry = buf.split_off(cut);
                return Ok(Some(Chunk {
                    bytes: buf,
                    too_large: None,
                }));
            }
            if buf.len() >= self.max_game {
                // No game start after the first: that game is too large.
                return self.skip_game(buf).map(Some);
            }
            // A tag name cut off at the end was no start yet: look again.
            search_from = buf.len().saturating_sub(LOOK_AHEAD).max(1);
            target = buf.len() + self.size;
        }
    }

    /// [`Chunker::next_chunk`] for a scan, which decides only whole games:
    /// after a read error the chunk read last keeps its games before the
    /// last one, which may be cut short where the text ends (the caller
    /// reports it, and nothing after it, as not read). `Ok(None)` and the
    /// error come as from `next_chunk`.
    pub fn next_whole_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let mut chunk = self.next_chunk()?;
        if self.failed()
            && let Some(c) = chunk.as_mut()
        {
            c.bytes.truncate(boundary::whole_games_end(&c.bytes));
        }
        Ok(chunk)
    }

    /// Skips the game at the start of `buf` up to the next game start,
    /// holding only a window of the stream.
    fn skip_game(&mut self, mut buf: Vec<u8>) -> io::Result<Chunk> {
        let mut counter = LineCounter::default();
        let mut skipped = 0u64;
        loop {
            let keep = buf.len().saturating_sub(LOOK_BACK + LOOK_AHEAD);
            counter.add(&buf[..keep]);
            skipped += keep as u64;
            buf.drain(..keep);
            let searched = buf.len().saturating_sub(LOOK_AHEAD);
            let target = buf.len() + self.size;
            self.fill(&mut buf, target);
            let to = if self.eof {
                buf.len()
            } else {
                buf.len() - LOOK_AHEAD.min(buf.len())
            };
            let from = searched.max(LOOK_BACK.min(buf.len())).max(1);
            // `buf` no longer starts the input (the game was over MAX_GAME).
            let found = first_start_in_window(&buf, from, to, false);
            if let Some(max) = self.max_stretch
                && found.is_none()
                && skipped + buf.len() as u64 > max
            {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    NoGameStart { limit: max },
                ));
            }
            if found.is_some() || self.eof {
                let end = found.unwrap_or(buf.len());
                counter.add(&buf[..end]);
                skipped += end as u64;
                self.carry = buf.split_off(end);
                return Ok(Chunk {
                    bytes: Vec::new(),
                    too_large: Some(Skipped {
                        bytes: skipped,
                        lines: counter.lines(),
                    }),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_hold_whole_games() {
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

    #[test]
    fn games_without_results_are_cut_too() {
        let game = b"[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4#\n\n";
        let text: Vec<u8> = game
            .iter()
            .copied()
            .cycle()
            .take(game.len() * 1000)
            .collect();
        let mut c = Chunker::with_size(&text[..], 1000);
        let mut n = 0;
        while let Some(ch) = c.next_chunk().unwrap() {
            assert!(ch.bytes.len() < 1100, "{}", ch.bytes.len());
            n += 1;
        }
        assert!(n > 20);
    }

    #[test]
    fn window_tests_never_invent_a_start() {
        // Far from the window's start, a blank line longer than the look-back
        // is not decided: no start.
        let mut text = b"x\n".to_vec();
        text.extend(std::iter::repeat_n(b' ', LOOK_BACK + 10));
        text.extend_from_slice(b"\n[Event \"a\"]");
        let i = text.len() - 11;
        assert!(!starts_game_in_window(&text, i, false));
        assert!(boundary::is_game_start(&text, i));
        // Mid-input windows give the rule's answer otherwise.
        let text = b"1. e4 *\n\n[Event \"b\"]";
        assert!(starts_game_in_window(text, 9, true));
        assert!(!starts_game_in_window(b"1. e4\n[Event \"b\"]", 6, true));
        // An indent as long as the look-back is not decided either.
        let mut text = b"x\n\n".to_vec();
        text.extend(std::iter::repeat_n(b' ', LOOK_BACK + 10));
        text.extend_from_slice(b"[Event \"a\"]");
        let i = text.len() - 11;
        assert!(boundary::is_game_start(&text, i));
        assert!(!starts_game_in_window(&text[3..], i - 3, false));
    }

    /// Bytes with no game start, endless; counts what was read.
    struct Endless<'a>(&'a mut u64);

    impl Read for Endless<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            // Stop a run that would never end without the bound.
            if *self.0 > 1 << 30 {
                return Ok(0);
            }
            for (i, b) in buf.iter_mut().enumerate() {
                *b = b"[x\n\n\0\xff"[i % 6];
            }
            *self.0 += buf.len() as u64;
            Ok(buf.len())
        }
    }

    #[test]
    fn a_stretch_with_no_game_start_ends_the_reading_when_bounded() {
        let mut read = 0;
        let mut c = Chunker::with_size(Endless(&mut read), 1 << 16)
            .max_game(1 << 20)
            .max_stretch(4 << 20);
        let e = c.next_chunk().expect_err("the stretch is refused");
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().starts_with("no game starts in 4 MiB"), "{e}");
        drop(c);
        assert!(read < 5 << 20, "{read}");
    }

    #[test]
    fn line_counter_joins_crlf_across_pieces() {
        let mut c = LineCounter::default();
        c.add(b"a\r");
        c.add(b"\nb\r");
        c.add(b"c\n");
        assert_eq!(c.lines(), 3);
    }
}
