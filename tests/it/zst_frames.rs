//! A multi-frame `.zst` scanned frame-parallel prints what the same text
//! prints uncompressed, and what one decoder reading it as a stream prints
//! (a FIFO is never cut), for any --jobs; a truncated file too.

use std::io::Write;
use std::path::Path;
use std::process::Command;

/// Games with findings (checkmates, repetitions), parse errors, and
/// comments holding blank lines, so that the cuts matter; a comment of
/// letters that hardly compress makes the file several runs long.
fn games() -> Vec<u8> {
    let mut text = String::new();
    let mut seed = 1u64;
    let mut noise = |n: usize| -> String {
        (0..n)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (seed >> 59) as u8 % 26)
            })
            .collect()
    };
    for i in 0..10_000 {
        let body = match i % 4 {
            0 => "1. f3 e5 2. g4 Qh4# 0-1".to_owned(),
            1 => "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 *".to_owned(),
            2 => format!("1. e4 {{a\n\n[%clk 0:0{}]}} e5 2. Zz9 *", i % 10),
            _ => "1. d4 d5 2. c4 e6 1/2-1/2".to_owned(),
        };
        let comment = noise(400);
        text.push_str(&format!(
            "[Event \"{i}\"]\n[White \"w{i}\"]\n\n{{{comment}}} {body}\n\n"
        ));
    }
    text.into_bytes()
}

/// pzstd's layout: each piece one frame after a skippable frame with its
/// size; pieces cut through games anywhere.
fn pzstd_layout(text: &[u8], piece: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for part in text.chunks(piece) {
        let f = zstd::bulk::compress(part, 1).unwrap();
        out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        out.extend_from_slice(&4u32.to_le_bytes());
        out.extend_from_slice(&(f.len() as u32).to_le_bytes());
        out.extend_from_slice(&f);
    }
    out
}

/// A scratch directory for one test, removed when the guard is dropped
/// (test runs leave nothing in the temporary directory).
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("verify-claim-zst-{name}-"))
        .tempdir()
        .unwrap()
}

/// stdout and stderr without the summary's timings, the file's name as `F`.
fn scan(path: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .arg("scan")
        .args(args)
        .arg(path)
        .output()
        .unwrap();
    let name = path.to_str().unwrap();
    let clean = |b: &[u8]| String::from_utf8_lossy(b).replace(name, "F");
    let stderr: Vec<String> = clean(&out.stderr)
        .lines()
        .filter(|l| !l.starts_with("scanned "))
        .map(str::to_owned)
        .collect();
    (clean(&out.stdout), stderr.join("\n"))
}

/// The scan of `bytes` read through a FIFO named `.zst`: one decoder.
fn scan_as_stream(dir: &Path, bytes: &[u8], args: &[&str]) -> (String, String) {
    let fifo = dir.join("stream.pgn.zst");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let writer = {
        let (fifo, bytes) = (fifo.clone(), bytes.to_vec());
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            let _ = f.write_all(&bytes);
        })
    };
    let out = scan(&fifo, args);
    writer.join().unwrap();
    out
}

#[test]
fn frame_runs_print_what_the_plain_file_and_the_stream_print() {
    let scratch = temp_dir("whole");
    let dir = scratch.path();
    let text = games();
    let plain = dir.join("games.pgn");
    std::fs::write(&plain, &text).unwrap();
    // Frames of 1 KiB to 40 KiB: a run is many frames or one.
    for piece in [1000, 100_000] {
        let zst = pzstd_layout(&text, piece);
        let path = dir.join("games.pgn.zst");
        std::fs::write(&path, &zst).unwrap();
        // Many frames, so the scan cuts the file into runs (the runs
        // themselves are checked by src/input/zst_frames/tests.rs).
        let frames = frame_count(&zst);
        assert!(frames >= 4, "{frames} frames");
        for format in ["jsonl", "text", "pgn"] {
            let want = scan(&plain, &["--format", format, "--jobs", "2"]);
            assert!(want.0.lines().count() > 3000, "{format}");
            for jobs in ["1", "2", "3"] {
                let got = scan(&path, &["--format", format, "--jobs", jobs]);
                assert!(got == want, "{format}, --jobs {jobs}, frames of {piece}");
            }
        }
    }
}

#[test]
fn a_truncated_multi_frame_file_ends_as_the_stream_ends() {
    let scratch = temp_dir("cut");
    let dir = scratch.path();
    let text = games();
    let zst = pzstd_layout(&text, 4000);
    let path = dir.join("cut.pgn.zst");
    for cut in [zst.len() / 3, zst.len() / 2 + 11, zst.len() - 3] {
        std::fs::write(&path, &zst[..cut]).unwrap();
        let want = scan_as_stream(dir, &zst[..cut], &["--format", "jsonl"]);
        // The game the cut falls in is the error, placed (on stdout).
        assert!(want.0.contains("stopped reading"), "{}", want.1);
        for jobs in ["1", "2"] {
            let got = scan(&path, &["--format", "jsonl", "--jobs", jobs]);
            assert!(got == want, "cut at {cut}, --jobs {jobs}: {:?}", got.1);
        }
    }
}

/// The zstd frames of `bytes`, counted by zstd itself.
fn frame_count(mut bytes: &[u8]) -> usize {
    let mut n = 0;
    while !bytes.is_empty() {
        let len = zstd::zstd_safe::find_frame_compressed_size(bytes).expect("a whole frame");
        bytes = &bytes[len..];
        n += 1;
    }
    n
}
