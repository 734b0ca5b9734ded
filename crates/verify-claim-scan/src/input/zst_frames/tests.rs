//! Runs of frames meet exactly, cut only at game starts, and read as a
//! sequential decoder reads: whole, truncated, corrupt, with pzstd's layout
//! and with frames simply concatenated.

use std::io::{self, Write};

use super::read::sequential;
use super::*;

/// Bytes in memory, read positionally.
struct Mem(Vec<u8>);

impl ReadAt for Mem {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let from = usize::try_from(offset).map_err(io::Error::other)?;
        let src = from
            .checked_add(buf.len())
            .and_then(|to| self.0.get(from..to))
            .ok_or_else(|| io::Error::from(io::ErrorKind::UnexpectedEof))?;
        buf.copy_from_slice(src);
        Ok(())
    }
}

/// Games of many sizes; comments hold blank lines and `[` so that a start
/// needs the whole rule; some lines end in CRLF.
fn games(n: usize) -> Vec<u8> {
    let mut text = Vec::new();
    for i in 0..n {
        let eol = if i % 5 == 0 { "\r\n" } else { "\n" };
        let moves = "1. e4 e5 2. Nf3 Nc6 ".repeat(i * 37 % 41);
        let spaces = " ".repeat(i % 7);
        text.extend_from_slice(
            format!(
                "[Event \"{i}\"]{eol}[Site \"x\"]{eol}{eol}{moves}{{a{eol}{eol}[%clk 1]}} *{spaces}{eol}{spaces}{eol}"
            )
            .as_bytes(),
        );
    }
    text
}

/// How a test file's frames are written.
#[derive(Clone, Copy)]
struct Layout {
    /// pzstd's skippable frame with the size before each frame.
    sizes: bool,
    /// Every other frame with its content size and checksum.
    headers: bool,
}

fn frame(piece: &[u8], with_headers: bool) -> Vec<u8> {
    if with_headers {
        // The bulk API writes the content size; the checksum is asked for.
        let mut c = zstd::bulk::Compressor::new(1).unwrap();
        c.include_checksum(true).unwrap();
        return c.compress(piece).unwrap();
    }
    let mut e = zstd::stream::Encoder::new(Vec::new(), 1).unwrap();
    e.include_checksum(false).unwrap();
    e.write_all(piece).unwrap();
    e.finish().unwrap()
}

/// `text` cut at `cuts` (anywhere: through games, tags, line ends), each
/// piece one frame; an empty frame in the middle too.
fn compress(text: &[u8], cuts: &[usize], layout: Layout) -> Vec<u8> {
    let mut out = Vec::new();
    let mut from = 0;
    let mut bounds: Vec<usize> = cuts.iter().copied().filter(|&c| c <= text.len()).collect();
    bounds.push(text.len());
    for (i, &to) in bounds.iter().enumerate() {
        let f = frame(&text[from..to.max(from)], layout.headers && i % 2 == 0);
        if layout.sizes {
            out.extend_from_slice(&SKIPPABLE.to_le_bytes());
            out.extend_from_slice(&4u32.to_le_bytes());
            out.extend_from_slice(&(f.len() as u32).to_le_bytes());
        }
        out.extend_from_slice(&f);
        from = to.max(from);
    }
    out
}

fn small(run_compressed: u64) -> Limits {
    Limits {
        run_compressed,
        run_decoded: u64::MAX,
        piece: 3000,
        max_game: 1 << 20,
        step: 1000,
    }
}

/// What the runs give, as the scan's printer takes it: each run's pieces
/// in order, stopping after the first error.
struct Read {
    text: Vec<u8>,
    /// Where each piece starts in `text`.
    starts: Vec<usize>,
    error: Option<String>,
    skipped: u64,
}

fn read_all(frames: &Frames) -> Read {
    let mut r = Read {
        text: Vec::new(),
        starts: Vec::new(),
        error: None,
        skipped: 0,
    };
    for k in 0..frames.runs() {
        let mut reader = frames.reader(k);
        loop {
            match reader.next_chunk() {
                Ok(Some(c)) => {
                    if let Some(s) = c.too_large {
                        r.skipped += s.bytes;
                    }
                    r.starts.push(r.text.len());
                    r.text.extend_from_slice(&c.bytes);
                }
                Ok(None) => break,
                Err(e) => {
                    r.error = Some(e.to_string());
                    return r;
                }
            }
        }
    }
    r
}

/// The sequential decoder's text as a scan reads it: after an error, its
/// last game (which may be cut short) is not read.
fn whole_games((mut text, error): (Vec<u8>, Option<String>)) -> (Vec<u8>, Option<String>) {
    if error.is_some() {
        text.truncate(boundary::whole_games_end(&text));
    }
    (text, error)
}

fn frames(bytes: &[u8], limits: Limits) -> Option<Frames> {
    Frames::from_source(Box::new(Mem(bytes.to_vec())), bytes.len() as u64, limits)
}

/// Every piece starts where the whole text has a game start (or at 0).
fn check_cuts(whole: &[u8], read: &Read) {
    for &s in &read.starts {
        assert!(
            s == 0 || s == whole.len() || boundary::is_game_start(whole, s),
            "a piece starts at {s}, no game start"
        );
    }
}

fn cuts(len: usize, every: usize) -> Vec<usize> {
    (1..len / every).map(|i| i * every + i * 7 % 13).collect()
}

#[test]
fn runs_meet_exactly_in_both_layouts() {
    let text = games(600);
    for every in [700, 5000, 40_000] {
        for layout in [
            Layout {
                sizes: true,
                headers: false,
            },
            Layout {
                sizes: false,
                headers: true,
            },
            Layout {
                sizes: false,
                headers: false,
            },
        ] {
            let bytes = compress(&text, &cuts(text.len(), every), layout);
            let (units, stop) = walk(&Mem(bytes.clone()), bytes.len() as u64);
            assert_eq!(stop, bytes.len() as u64);
            assert_eq!(units.len(), text.len() / every, "{every}");
            for run in [1, 3000, 20_000] {
                let Some(f) = frames(&bytes, small(run)) else {
                    assert!(run > bytes.len() as u64 / 2, "{run} {}", bytes.len());
                    continue;
                };
                let read = read_all(&f);
                assert_eq!(read.error, None);
                assert!(read.text == text, "every {every}, run {run}");
                check_cuts(&text, &read);
            }
        }
    }
}

#[test]
fn pzstd_sizes_and_block_walks_agree() {
    let text = games(300);
    let bytes = compress(
        &text,
        &cuts(text.len(), 3000),
        Layout {
            sizes: true,
            headers: true,
        },
    );
    let (by_sizes, _) = walk(&Mem(bytes.clone()), bytes.len() as u64);
    // Sizes that lie (here: one byte short) are not taken: blocks are walked.
    let mut lying = bytes.clone();
    lying[8] = lying[8].wrapping_sub(1);
    let (by_blocks, _) = walk(&Mem(lying), bytes.len() as u64);
    assert_eq!(by_sizes, by_blocks);
    assert!(by_sizes.iter().step_by(2).all(|u| u.content.is_some()));
}

#[test]
fn a_truncated_file_reads_as_the_sequential_decoder_reads_it() {
    let text = games(200);
    let bytes = compress(
        &text,
        &cuts(text.len(), 4000),
        Layout {
            sizes: true,
            headers: true,
        },
    );
    let mut seen_errors = 0;
    for cut in (1..bytes.len())
        .step_by(37)
        .chain([bytes.len() - 1, bytes.len() - 4])
    {
        let cut_bytes = &bytes[..cut];
        let (want, want_error) = whole_games(sequential(cut_bytes));
        let Some(f) = frames(cut_bytes, small(1)) else {
            continue;
        };
        let read = read_all(&f);
        assert!(read.text == want, "cut at {cut}");
        assert_eq!(read.error, want_error, "cut at {cut}");
        check_cuts(&want, &read);
        seen_errors += usize::from(read.error.is_some());
    }
    assert!(seen_errors > 10, "{seen_errors} {}", bytes.len());
}

#[test]
fn garbage_after_the_frames_is_the_decoders_error() {
    let text = games(100);
    let mut bytes = compress(
        &text,
        &cuts(text.len(), 3000),
        Layout {
            sizes: false,
            headers: false,
        },
    );
    bytes.extend_from_slice(b"not a frame at all");
    let (want, want_error) = whole_games(sequential(&bytes));
    assert!(want_error.is_some());
    let read = read_all(&frames(&bytes, small(1)).unwrap());
    assert!(read.text == want);
    assert_eq!(read.error, want_error);
}

#[test]
fn a_corrupt_frame_ends_the_text_once_with_an_error() {
    let text = games(300);
    let bytes = compress(
        &text,
        &cuts(text.len(), 3000),
        Layout {
            sizes: false,
            headers: true,
        },
    );
    let (units, _) = walk(&Mem(bytes.clone()), bytes.len() as u64);
    for u in units.iter().skip(1).step_by(7) {
        let mut bad = bytes.clone();
        let mid = usize::try_from((u.start + u.end) / 2).unwrap();
        bad[mid] ^= 0x55;
        let (_, want_error) = sequential(&bad);
        let Some(f) = frames(&bad, small(1)) else {
            continue;
        };
        let read = read_all(&f);
        // A flipped byte in a raw block decodes, wrongly, without an error.
        assert_eq!(read.error.is_some(), want_error.is_some(), "at {mid}");
        if read.error.is_none() {
            assert!(read.text == sequential(&bad).0, "at {mid}");
        }
    }
}

#[test]
fn a_game_too_large_is_skipped_across_frames() {
    let mut text = games(20);
    let big_at = text.len();
    text.extend_from_slice(b"[Event \"big\"]\n\n");
    text.extend(std::iter::repeat_n(b"1. e4 e5 ".as_slice(), 3000).flatten());
    text.extend_from_slice(b"*\n\n");
    let after = text.len();
    text.extend_from_slice(&games(20));
    let bytes = compress(
        &text,
        &cuts(text.len(), 2500),
        Layout {
            sizes: true,
            headers: false,
        },
    );
    let limits = Limits {
        max_game: 10_000,
        ..small(1)
    };
    let read = read_all(&frames(&bytes, limits).unwrap());
    assert_eq!(read.error, None);
    assert_eq!(
        (read.skipped, read.text.len()),
        ((after - big_at) as u64, text.len() - (after - big_at))
    );
    let mut want = text[..big_at].to_vec();
    want.extend_from_slice(&text[after..]);
    assert!(read.text == want);
}

#[test]
fn a_single_frame_is_not_cut() {
    let text = games(50);
    let bytes = compress(
        &text,
        &[],
        Layout {
            sizes: true,
            headers: true,
        },
    );
    assert!(frames(&bytes, small(1)).is_none());
    assert!(frames(b"", small(1)).is_none());
    assert!(frames(b"plain text", small(1)).is_none());
}

#[test]
#[cfg_attr(no_pzstd, ignore = "no pzstd on the PATH (apt-get install zstd)")]
fn files_written_by_pzstd_are_cut() {
    let scratch = tempdir().expect("a temporary directory");
    let dir = scratch.path();
    let path = dir.join("games.pgn");
    // Frames of a few hundred KiB need a text larger than pzstd's step.
    let text = games(600).repeat(60);
    std::fs::write(&path, &text).unwrap();
    let made = std::process::Command::new("pzstd")
        .args(["-q", "-f", "-p", "2", "-1"])
        .arg(&path)
        .status();
    assert!(made.is_ok_and(|s| s.success()), "pzstd failed");
    let bytes = std::fs::read(dir.join("games.pgn.zst")).unwrap();
    drop(scratch);
    let (units, stop) = walk(&Mem(bytes.clone()), bytes.len() as u64);
    assert_eq!(stop, bytes.len() as u64);
    assert!(units.len() >= 2, "{}", units.len());
    let f = frames(&bytes, small(1)).unwrap();
    assert_eq!(f.runs(), units.len() as u64);
    let read = read_all(&f);
    assert_eq!(read.error, None);
    assert!(read.text == text);
    check_cuts(&text, &read);
}

/// A scratch directory, removed when the guard is dropped (test runs leave
/// nothing in the temporary directory).
fn tempdir() -> io::Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix("verify-claim-zst-")
        .tempdir()
}

#[test]
fn the_walk_reads_a_bounded_number_of_block_headers() {
    let text = games(600);
    let every = text.len() / 5000;
    let bytes = compress(
        &text,
        &cuts(text.len(), every),
        Layout {
            sizes: false,
            headers: false,
        },
    );
    let (units, stop) = walk(&Mem(bytes.clone()), bytes.len() as u64);
    // One block a frame: the walk stops when its budget is spent...
    assert_eq!(units.len(), BLOCK_BUDGET as usize);
    assert!(stop < bytes.len() as u64);
    // ...and the rest is the last run's, read all the same.
    let read = read_all(&frames(&bytes, small(20_000)).unwrap());
    assert_eq!(read.error, None);
    assert!(read.text == text);
    check_cuts(&text, &read);
}
