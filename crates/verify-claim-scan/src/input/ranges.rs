//! A plain file cut by the workers themselves: no thread copies chunks for
//! the others.
//!
//! The file is divided into segments of [`SEGMENT`] bytes. The chunk of
//! segment `k` holds the games that *start* in it: from its first game start
//! to the first game start of a later segment (segment 0 starts at the
//! file's first byte). Every worker finds a segment's first game start the
//! same way, reading only that segment and a window round it
//! ([`super::chunks::starts_game_in_window`] answers the same in any
//! window), so neighbouring chunks meet exactly: no game is read twice or
//! lost. Reads use `read_at`, so workers share one open file.
//!
//! A read that fails (an I/O error, or the file became shorter) fails its
//! segment's chunk; the game numbers after it cannot be known, so the scan
//! reports the rest of the file as one error at the place the chunk begins
//! ([`Ranges::failed_before`] lets workers skip the segments after it).

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use super::chunks::{
    Chunk, LOOK_AHEAD, LOOK_BACK, LineCounter, MAX_GAME, Skipped, first_start_in_window,
};

/// Segment size: 1 MiB, four stream chunks. Each segment is one task
/// (a few reads, a hand-off to the printer); at a quarter of this size
/// those fixed costs took 7-9% of a two-thread scan, and at four times it
/// one thread was 10% slower (the segment no longer stays in the core's
/// cache between its read and its parse; interleaved runs on the TCEC
/// bench file). Memory stays bounded by the tasks in flight: 4 × jobs + 4.
pub const SEGMENT: u64 = 4 * super::chunks::CHUNK as u64;
/// Segments are searched for their first game start in pieces this large.
const PIECE: u64 = 1 << 14;

/// Positional reads: a file, or (in tests) a file whose reads fail.
pub trait ReadAt: Send + Sync {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
}

impl ReadAt for File {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        super::open::read_exact_at(self, buf, offset)
    }
}

/// A regular file, uncompressed, of a fixed length (what was there when the
/// scan began).
pub struct Ranges {
    file: Box<dyn ReadAt>,
    len: u64,
    segment: u64,
    /// The span whose game starts are this plan's: `[base, stop)` (the
    /// whole file but for [`Ranges::span`]).
    base: u64,
    stop: u64,
    /// The first segment whose chunk could not be read (`u64::MAX`: none).
    failed: AtomicU64,
}

impl std::fmt::Debug for Ranges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ranges")
            .field("len", &self.len)
            .field("segment", &self.segment)
            .finish_non_exhaustive()
    }
}

/// The buffers a worker reads segments into, kept from one segment to the
/// next: reading again costs no allocation and no zeroing.
#[derive(Debug, Default)]
pub struct Buffers {
    window: Vec<u8>,
    /// The next chunk's bytes (give a chunk's bytes back here when done).
    pub bytes: Vec<u8>,
}

impl Ranges {
    pub fn new(file: File, len: u64) -> Ranges {
        Ranges::with_segment(file, len, SEGMENT)
    }

    /// Segments of `segment` bytes (for tests).
    pub fn with_segment(file: File, len: u64, segment: u64) -> Ranges {
        Ranges::from_source(Box::new(file), len, segment)
    }

    /// Segments of `segment` bytes read from any source (for tests that
    /// make reads fail).
    pub fn from_source(file: Box<dyn ReadAt>, len: u64, segment: u64) -> Ranges {
        Ranges {
            file,
            len,
            segment: segment.max(1),
            base: 0,
            stop: len,
            failed: AtomicU64::new(u64::MAX),
        }
    }

    /// The games that start in bytes `[start, end)` of a file of `len`
    /// bytes: the spans of one file that meet (one's `end` the next's
    /// `start`) hold each game once, the game cut by a span's end in the
    /// span where it starts.
    pub fn span(file: File, len: u64, start: u64, end: u64) -> Ranges {
        let mut r = Ranges::from_source(Box::new(file), len, SEGMENT);
        r.base = start.min(len);
        r.stop = end.clamp(r.base, len);
        r
    }

    /// Whether the chunk of a segment before `k` could not be read: then
    /// segment `k`'s games are not reported (their numbers are unknown),
    /// and a worker need not read it.
    pub fn failed_before(&self, k: u64) -> bool {
        self.failed.load(Ordering::Relaxed) < k
    }

    /// The number of segments (one for an empty span).
    pub fn segments(&self) -> u64 {
        (self.stop - self.base).div_ceil(self.segment).max(1)
    }

    /// The segments up to the file's end: those of the span, then the rest
    /// of the file's (where the span's last game may end).
    fn segments_to_end(&self) -> u64 {
        self.segments() + (self.len - self.stop).div_ceil(self.segment)
    }

    /// The bytes of segment `k` (for progress).
    pub fn segment_len(&self, k: u64) -> u64 {
        let (from, to) = self.bounds(k);
        to - from
    }

    fn bounds(&self, k: u64) -> (u64, u64) {
        let n = self.segments();
        let (origin, end, k) = if k < n {
            (self.base, self.stop, k)
        } else {
            (self.stop, self.len, k - n)
        };
        let from = origin
            .saturating_add(k.saturating_mul(self.segment))
            .min(end);
        (from, from.saturating_add(self.segment).min(end))
    }

    fn read(&self, from: u64, to: u64, buf: &mut Vec<u8>) -> io::Result<()> {
        let n = usize::try_from(to - from).map_err(io::Error::other)?;
        // Only bytes beyond the old length are zeroed: the read overwrites
        // all. A buffer that must grow is allocated zeroed instead, with an
        // eighth more room, so that the next chunks (each a segment give or
        // take a game) fit: for a segment's size these are pages the system
        // hands over zeroed, no pass over the megabyte before the read's own.
        if n > buf.capacity() {
            *buf = vec![0; n + n / 8];
        }
        buf.resize(n, 0);
        self.file.read_exact_at(buf, from).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                io::Error::new(e.kind(), "the file became shorter while it was read")
            } else {
                e
            }
        })
    }

    /// The first game start in segment `k` (the file's start for `k = 0`).
    fn first_start(&self, k: u64, buf: &mut Vec<u8>) -> io::Result<Option<u64>> {
        let (from, to) = self.bounds(k);
        if from == 0 && to > 0 {
            return Ok(Some(0));
        }
        let mut at = from;
        while at < to {
            let end = (at + PIECE).min(to);
            let window_from = at.saturating_sub(LOOK_BACK as u64);
            let window_to = (end + LOOK_AHEAD as u64).min(self.len);
            self.read(window_from, window_to, buf)?;
            let base = (at - window_from) as usize;
            if let Some(i) =
                first_start_in_window(buf, base, (end - window_from) as usize, window_from == 0)
            {
                return Ok(Some(window_from + i as u64));
            }
            at = end;
        }
        Ok(None)
    }

    /// The last game start in `[from, to)` of segment `k`, at least `from`
    /// (itself a start).
    fn last_start(&self, from: u64, to: u64, buf: &mut Vec<u8>) -> io::Result<u64> {
        let window_from = from.saturating_sub(LOOK_BACK as u64);
        let window_to = (to + LOOK_AHEAD as u64).min(self.len);
        self.read(window_from, window_to, buf)?;
        let (mut at, end) = (
            (from - window_from) as usize + 1,
            (to - window_from) as usize,
        );
        let mut last = from;
        while let Some(i) = first_start_in_window(buf, at, end, window_from == 0) {
            last = window_from + i as u64;
            at = i + 1;
        }
        Ok(last)
    }

    /// The chunk of segment `k`: empty when no game starts in it.
    #[cfg(test)]
    pub fn chunk(&self, k: u64) -> io::Result<Chunk> {
        self.chunk_with(k, &mut Buffers::default())
    }

    /// [`Ranges::chunk`], read into `buffers` (the chunk takes
    /// `buffers.bytes`).
    pub fn chunk_with(&self, k: u64, buffers: &mut Buffers) -> io::Result<Chunk> {
        let chunk = self.read_chunk(k, &mut buffers.window, std::mem::take(&mut buffers.bytes));
        if chunk.is_err() {
            self.failed.fetch_min(k, Ordering::Relaxed);
        }
        chunk
    }

    fn read_chunk(&self, k: u64, window: &mut Vec<u8>, mut bytes: Vec<u8>) -> io::Result<Chunk> {
        let Some(start) = self.first_start(k, window)? else {
            bytes.clear();
            return Ok(Chunk {
                bytes,
                too_large: None,
            });
        };
        let mut end = self.len;
        let mut j = k + 1;
        while j < self.segments_to_end() {
            if let Some(s) = self.first_start(j, window)? {
                end = s;
                break;
            }
            j += 1;
        }
        if end - start <= MAX_GAME as u64 {
            self.read(start, end, &mut bytes)?;
            return Ok(Chunk {
                bytes,
                too_large: None,
            });
        }
        let last = self.last_start(start, self.bounds(k).1, window)?;
        if end - last <= MAX_GAME as u64 {
            self.read(start, end, &mut bytes)?;
            return Ok(Chunk {
                bytes,
                too_large: None,
            });
        }
        self.read(start, last, &mut bytes)?;
        Ok(Chunk {
            bytes,
            too_large: Some(self.skip(last, end, window)?),
        })
    }

    /// A game too large to read: its lines, counted piece by piece.
    fn skip(&self, from: u64, to: u64, buf: &mut Vec<u8>) -> io::Result<Skipped> {
        let mut counter = LineCounter::default();
        let mut at = from;
        while at < to {
            let end = (at + SEGMENT).min(to);
            self.read(at, end, buf)?;
            counter.add(buf);
            at = end;
        }
        Ok(Skipped {
            bytes: to - from,
            lines: counter.lines(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(bytes: &[u8], segment: u64) -> Ranges {
        let path = std::env::temp_dir().join(format!(
            "verify-claim-ranges-{}-{}",
            std::process::id(),
            bytes.len()
        ));
        std::fs::write(&path, bytes).unwrap();
        let file = File::open(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        Ranges::with_segment(file, bytes.len() as u64, segment)
    }

    #[test]
    fn segments_meet_exactly_and_cut_only_at_game_starts() {
        let mut text = Vec::new();
        let mut starts = Vec::new();
        for i in 0..400 {
            starts.push(text.len() as u64);
            let spaces = " ".repeat(i % 7);
            text.extend_from_slice(
                format!("[Event \"{i}\"]\r\n\r\n1. e4 {{a\n\n[%clk 1]}} e5 {spaces}\n{spaces}\n")
                    .as_bytes(),
            );
        }
        for segment in [3, 7, 100, 4096, 1 << 20] {
            let r = ranges(&text, segment);
            let mut joined = Vec::new();
            let mut chunks = 0;
            for k in 0..r.segments() {
                let c = r.chunk(k).unwrap();
                assert!(c.too_large.is_none());
                if !c.bytes.is_empty() {
                    assert!(c.bytes.starts_with(b"[Event"), "{segment} {k}");
                    chunks += 1;
                }
                joined.extend_from_slice(&c.bytes);
            }
            assert!(joined == text, "segment {segment}");
            let mut with_a_start: Vec<u64> = starts.iter().map(|s| s / segment).collect();
            with_a_start.dedup();
            assert_eq!(chunks, with_a_start.len(), "segment {segment}");
        }
    }
}
