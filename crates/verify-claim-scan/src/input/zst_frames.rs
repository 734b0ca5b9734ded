//! A multi-frame zstd file cut into runs of frames that workers decode
//! themselves, as a plain file is cut into segments ([`super::ranges`]).
//!
//! zstd frames are independent: each can be decoded from its first byte.
//! Two layouts have many of them: pzstd's (and so the lichess database's),
//! where each frame follows a skippable frame (magic `0x184D2A50`, four
//! bytes: the frame's compressed size), and frames simply concatenated
//! (`cat a.zst b.zst`, or any tool that writes a frame per piece). The
//! frames are found by walking their headers ([`walk`]), never by
//! decompressing: a skippable frame is stepped over by its size, a zstd
//! frame by pzstd's size when the bytes at its end are a frame's magic,
//! else block header by block header to its last block (RFC 8878, 3.1.1;
//! at most [`BLOCK_BUDGET`] block headers a file).
//! Consecutive frames make a run of about [`Limits::run_compressed`]
//! compressed bytes; whatever the walk cannot read (a truncated last frame,
//! trailing garbage, a bad header) goes into the last run, whose decoder
//! meets it as a sequential read would.
//!
//! The chunk of run `k` holds the games that *start* in its decoded text,
//! as for segments: from its first game start to the first game start of a
//! later run (run 0 starts at the file's first byte). Worker `k` decodes its
//! run, and then the following runs only as far as that start. A start of
//! run `k > 0` is looked for only from [`LOOK_BACK`] bytes after the run's
//! first decoded byte, so that the test ([`starts_game_in_window`]) has all
//! its context in the run's own text: worker `k - 1`, reading on, and
//! worker `k` find the same start. Neighbouring chunks meet exactly; the
//! text of a chunk is given in pieces of about [`Limits::piece`] bytes cut
//! at game starts, so memory stays bounded however large a run decodes
//! (a header's content size is never trusted: it only helps size runs).
//!
//! A decoding error belongs to the run whose frames fail: that run's worker
//! gives its text up to the error, then the error (the sequential read's
//! message), and the scan drops the file's later runs, as a stream stops
//! at its error. Each run is decoded in the same steps by whichever worker
//! decodes it, so all agree on where the text ends.
//!
//! [`starts_game_in_window`]: super::chunks::starts_game_in_window

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::sync::atomic::{AtomicU64, Ordering};

use super::chunks::{Chunk, LOOK_AHEAD, LOOK_BACK, LineCounter, Skipped, first_start_in_window};
use super::open::Compression;
use super::ranges::ReadAt;
use crate::record::boundary;

#[cfg(test)]
mod tests;

const ZSTD_MAGIC: u32 = 0xFD2F_B528;
/// Skippable frames: `0x184D2A50` to `0x184D2A5F`.
const SKIPPABLE: u32 = 0x184D_2A50;
/// No block is larger (RFC 8878, 3.1.1.2.3: `Block_Maximum_Size`).
const BLOCK_MAX: u64 = 128 << 10;
/// Block headers read at most in a file's walk (each a small read): a
/// large frame without pzstd's size (one `zstd -T0` frame of many GB) is
/// not walked to its end before the scan starts; the walk stops there and
/// the rest of the file is the last run's.
const BLOCK_BUDGET: u32 = 1 << 12;

/// How files are cut and read (tests make them small).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// A run ends after the frame that makes it at least this many
    /// compressed bytes...
    pub run_compressed: u64,
    /// ...or at least this many decoded bytes, by the frames' headers
    /// (only those that give a content size).
    pub run_decoded: u64,
    /// Decoded text is handed out in pieces of about this size.
    pub piece: usize,
    /// A game longer than this is skipped (see [`super::chunks::MAX_GAME`]).
    pub max_game: usize,
    /// Each read from a decoder asks for this many bytes.
    pub step: usize,
}

impl Default for Limits {
    /// One pzstd frame (about 8 MiB decoded at `-3`, 32 MiB at `-19`) is
    /// one run; small frames are taken together, so that a task is worth
    /// its fixed costs.
    fn default() -> Limits {
        Limits {
            run_compressed: 512 << 10,
            run_decoded: 4 << 20,
            piece: super::ranges::SEGMENT as usize,
            max_game: super::chunks::MAX_GAME,
            step: 128 << 10,
        }
    }
}

/// A zstd file cut into runs of frames.
pub struct Frames {
    src: Box<dyn ReadAt>,
    len: u64,
    /// Where each run starts; the last runs to the end of the file.
    starts: Vec<u64>,
    limits: Limits,
    /// The first run whose decoding failed (`u64::MAX`: none).
    failed: AtomicU64,
}

impl std::fmt::Debug for Frames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frames")
            .field("len", &self.len)
            .field("runs", &self.starts.len())
            .finish_non_exhaustive()
    }
}

/// The scan's question to an input: can it be cut into runs of frames? A
/// regular file named `.zst` or `.zstd` with at least two runs; anything
/// else (and any error, which the stream path then reports) is `None`.
pub fn cut(path: &std::path::Path) -> Option<Frames> {
    if path.as_os_str() == "-" || Compression::from_path(path) != Some(Compression::Zstd) {
        return None;
    }
    // Asked before opening: opening a FIFO would take its writer's bytes.
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let file = File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    Frames::from_source(Box::new(file), meta.len(), Limits::default())
}

impl Frames {
    /// `None` when the file makes fewer than two runs (one decoder reads it).
    pub fn from_source(src: Box<dyn ReadAt>, len: u64, limits: Limits) -> Option<Frames> {
        let (units, _) = walk(src.as_ref(), len);
        let starts = runs(&units, len, &limits);
        (starts.len() >= 2).then(|| Frames {
            src,
            len,
            starts,
            limits,
            failed: AtomicU64::new(u64::MAX),
        })
    }

    pub fn runs(&self) -> u64 {
        self.starts.len() as u64
    }

    /// Run `k`'s compressed bytes (for progress).
    pub fn run_len(&self, k: u64) -> u64 {
        let (from, to) = self.bounds(k);
        to - from
    }

    fn bounds(&self, k: u64) -> (u64, u64) {
        let at = |k: u64| {
            usize::try_from(k)
                .ok()
                .and_then(|k| self.starts.get(k).copied())
        };
        let from = at(k).unwrap_or(self.len);
        (from, at(k + 1).unwrap_or(self.len).max(from))
    }

    /// Whether a run before `k` failed: then run `k` is not reported (the
    /// file stopped there), and a worker need not decode it.
    pub fn failed_before(&self, k: u64) -> bool {
        self.failed.load(Ordering::Relaxed) < k
    }

    /// The chunks of run `k`, in pieces.
    pub fn reader(&self, k: u64) -> RunReader<'_> {
        RunReader {
            frames: self,
            run: k,
            next: k,
            decoder: None,
            over: false,
            error: None,
            broken: false,
            data: Vec::new(),
            filled: 0,
            base: 0,
            run_end: None,
            started: k == 0,
            search: 0,
            end: None,
        }
    }
}

/// One zstd frame with the skippable frames before it: `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub start: u64,
    pub end: u64,
    /// The decoded size its header gives, if it gives one.
    pub content: Option<u64>,
}

/// The frames of a file, and where the walk stopped (the file's length when
/// it read all; else a truncated or unknown frame begins there).
pub fn walk(src: &dyn ReadAt, len: u64) -> (Vec<Unit>, u64) {
    let mut units = Vec::new();
    let (mut at, mut start) = (0, 0);
    let mut hint = None;
    let mut budget = BLOCK_BUDGET;
    while at < len {
        let Some(magic) = read_u32(src, at, len) else {
            break;
        };
        if magic & 0xFFFF_FFF0 == SKIPPABLE {
            let Some(size) = read_u32(src, at + 4, len) else {
                break;
            };
            let end = at + 8 + u64::from(size);
            if end > len {
                break;
            }
            // pzstd's: the next frame's compressed size.
            hint = if magic == SKIPPABLE && size == 4 {
                read_u32(src, at + 8, len).map(u64::from)
            } else {
                None
            };
            at = end;
            continue;
        }
        if magic != ZSTD_MAGIC {
            break;
        }
        let Some((end, content)) = frame_end(src, at, len, hint.take(), &mut budget) else {
            break;
        };
        units.push(Unit {
            start,
            end,
            content,
        });
        (at, start) = (end, end);
    }
    (units, if at >= len { len } else { start })
}

/// The end of the zstd frame at `at` and its content size: by pzstd's
/// `hint` when a frame (or the file's end) follows it there, else by its
/// blocks, while `budget` lasts. `None` when the frame is cut short, its
/// header is bad, or the budget is spent.
fn frame_end(
    src: &dyn ReadAt,
    at: u64,
    len: u64,
    hint: Option<u64>,
    budget: &mut u32,
) -> Option<(u64, Option<u64>)> {
    let head = read(src, at, 18.min(len - at))?;
    let descriptor = *head.get(4)?;
    if descriptor & 0x08 != 0 {
        return None; // the reserved bit
    }
    let single = descriptor & 0x20 != 0;
    let checksum = descriptor & 0x04 != 0;
    let dictionary = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let window = usize::from(!single);
    let fcs = match (descriptor >> 6, single) {
        (0, false) => 0,
        (0, true) => 1,
        (1, _) => 2,
        (2, _) => 4,
        _ => 8,
    };
    let header = 5 + window + dictionary + fcs;
    let field = head.get(header - fcs..header)?;
    let content = (fcs > 0).then(|| {
        let v = field
            .iter()
            .rev()
            .fold(0u64, |v, &b| (v << 8) | u64::from(b));
        if fcs == 2 { v + 256 } else { v }
    });
    if let Some(size) = hint {
        let end = at.saturating_add(size);
        if end == len || read_u32(src, end, len).is_some_and(is_frame_magic) {
            return Some((end, content));
        }
    }
    let mut p = at + header as u64;
    loop {
        *budget = budget.checked_sub(1)?;
        let b = read(src, p, 3)?;
        let v = u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16;
        let (last, kind, size) = (v & 1 != 0, (v >> 1) & 3, u64::from(v >> 3));
        if kind == 3 || size > BLOCK_MAX {
            return None;
        }
        p += 3 + if kind == 1 { 1 } else { size };
        if last {
            p += if checksum { 4 } else { 0 };
            return (p <= len).then_some((p, content));
        }
        if p >= len {
            return None;
        }
    }
}

fn is_frame_magic(magic: u32) -> bool {
    magic == ZSTD_MAGIC || magic & 0xFFFF_FFF0 == SKIPPABLE
}

/// `n` bytes at `at`; `None` past the end or on an error (the walk stops
/// there, and the last run's decoder meets the error as a sequential read
/// would).
fn read(src: &dyn ReadAt, at: u64, n: u64) -> Option<Vec<u8>> {
    at.checked_add(n)?;
    let mut buf = vec![0; usize::try_from(n).ok()?];
    src.read_exact_at(&mut buf, at).ok()?;
    Some(buf)
}

fn read_u32(src: &dyn ReadAt, at: u64, len: u64) -> Option<u32> {
    if at.checked_add(4)? > len {
        return None;
    }
    let b = read(src, at, 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Where runs start: consecutive units until a run is large enough; the
/// last run takes what the walk could not read.
fn runs(units: &[Unit], len: u64, limits: &Limits) -> Vec<u64> {
    let mut starts = vec![0];
    let (mut compressed, mut decoded) = (0, 0);
    for u in units {
        compressed += u.end - u.start;
        decoded += u.content.unwrap_or(0);
        if compressed >= limits.run_compressed || decoded >= limits.run_decoded {
            starts.push(u.end);
            (compressed, decoded) = (0, 0);
        }
    }
    if starts.len() > 1 && starts.last() == Some(&len) {
        starts.pop();
    }
    if len == 0 {
        starts.clear();
    }
    starts
}

/// A run's compressed bytes, read positionally.
struct At<'a> {
    src: &'a dyn ReadAt,
    at: u64,
    end: u64,
}

impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (buf.len() as u64).min(self.end - self.at) as usize;
        if n == 0 {
            return Ok(0);
        }
        self.src
            .read_exact_at(&mut buf[..n], self.at)
            .map_err(|e| {
                if e.kind() == io::ErrorKind::UnexpectedEof {
                    io::Error::new(e.kind(), "the file became shorter while it was read")
                } else {
                    e
                }
            })?;
        self.at += n as u64;
        Ok(n)
    }
}

type Decoder<'a> = zstd::stream::read::Decoder<'static, BufReader<At<'a>>>;

/// The chunks of one run, in pieces cut at game starts (see the module
/// documentation). Offsets are in the decoded text from the run's start.
pub struct RunReader<'a> {
    frames: &'a Frames,
    run: u64,
    /// The next run to decode.
    next: u64,
    decoder: Option<Decoder<'a>>,
    /// No more text (the file's end, or an error).
    over: bool,
    /// This run's own decoding error, given after its text.
    error: Option<io::Error>,
    /// The text ended at a decoding error (this run's or a later one's):
    /// its last game may be cut short.
    broken: bool,
    /// Decoded text from `base`: `data[..filled]` (all of `data` is
    /// initialised, so reads need not clear it).
    data: Vec<u8>,
    filled: usize,
    base: u64,
    /// Where the next run's text begins, once this run is decoded.
    run_end: Option<u64>,
    /// Whether the chunk's first game start is found.
    started: bool,
    /// The next place a game start is looked for.
    search: u64,
    /// Where the chunk ends, once known.
    end: Option<u64>,
}

mod read;
