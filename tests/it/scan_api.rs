//! The library's streaming scan (the crate root's API only): byte ranges
//! that meet, readers that fail, sinks that get every warning, and a
//! worker's panic that ends the scan with an error naming the file and the
//! game (never a hang), through `scan_paths` and the CLI.

use crate::common;

use std::io::{self, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use verify_claim::{
    DEBUG_PANIC, Diagnostic, Row, ScanSettings, Sink, Source, input_files, scan_bytes, scan_frames,
    scan_paths, scan_range, scan_reader, scan_to,
};

/// Game `i` has one finding (checkmate) and the Event `i`.
fn games(n: usize) -> String {
    (0..n)
        .map(|i| format!("[Event \"{i}\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"))
        .collect()
}

fn settings(jobs: usize) -> ScanSettings {
    ScanSettings {
        jobs: Some(jobs),
        ..ScanSettings::default()
    }
}

/// (game, line, kind) of every finding.
fn seen(items: impl Iterator<Item = verify_claim::ScanItem>) -> Vec<(usize, u32, String)> {
    items
        .map(|i| {
            let f = i.expect("a finding");
            (f.game, f.line, f.kind.name().to_owned())
        })
        .collect()
}

/// The findings of the pieces `[cuts[i], cuts[i + 1])` scanned by `scan`,
/// renumbered by each piece's totals as a distributed engine does; and
/// the games counted.
fn in_pieces(
    cuts: &[u64],
    scan: impl Fn(u64, u64) -> verify_claim::Findings,
) -> (Vec<(usize, u32, String)>, usize) {
    let (mut games, mut lines, mut joined) = (0, 0, Vec::new());
    for w in cuts.windows(2) {
        let mut f = scan(w[0], w[1]);
        for (g, l, k) in seen(f.by_ref()) {
            joined.push((g + games, l + lines as u32, k));
        }
        let s = f.summary().expect("the piece's summary");
        games += s.games;
        lines += s.lines;
    }
    (joined, games)
}

#[test]
fn byte_ranges_that_meet_hold_each_game_once_numbered_by_their_totals() {
    // About 2.4 MB: ranges of several of the scan's 1 MiB segments.
    const N: usize = 60_000;
    let text = games(N);
    let path = common::temp_file("ranges.pgn", text.as_bytes());
    let whole = seen(scan_paths(&[&path], &settings(2)));
    assert_eq!(whole.len(), N);
    let len = text.len() as u64;
    for cuts in [
        vec![0, len],
        vec![0, 1, 7, len / 3, len / 2 + 5, len - 1, len],
    ] {
        let (joined, games) = in_pieces(&cuts, |a, b| scan_range(&path, a, b, &settings(2)));
        assert_eq!(joined, whole, "{cuts:?}");
        assert_eq!(games, N);
    }
}

#[test]
fn frame_runs_that_meet_hold_each_game_once_numbered_by_their_totals() {
    // Five zstd frames of about 4.4 MB decoded each (their headers give
    // their sizes: one run each), cut anywhere in a game.
    const N: usize = 500_000;
    let text = games(N);
    let cut = text.len() / 5 + 17;
    let mut zst = Vec::new();
    for piece in text.as_bytes().chunks(cut) {
        zst.extend(zstd::bulk::compress(piece, 1).expect("compress"));
    }
    let path = common::temp_file("frames.pgn.zst", &zst);
    let whole = seen(scan_paths(&[&path], &settings(2)));
    assert_eq!(whole.len(), N);
    let listed = input_files(&[&path], false);
    let runs = listed[0].as_ref().expect("listed").runs.len() as u64;
    assert_eq!(runs, 5, "{listed:?}");
    for cuts in [vec![0, runs], vec![0, 1, 3, 4, runs], vec![0, 2, 2, runs]] {
        let (joined, games) = in_pieces(&cuts, |a, b| scan_frames(&path, a, b, &settings(2)));
        assert_eq!(joined, whole, "{cuts:?}");
        assert_eq!(games, N);
    }
    // A file not cut into runs is read whole by the task of run 0 only.
    let small = common::temp_file(
        "one.pgn.zst",
        &zstd::bulk::compress(games(3).as_bytes(), 1).expect("compress"),
    );
    assert!(
        input_files(&[&small], false)[0]
            .as_ref()
            .expect("listed")
            .runs
            .is_empty()
    );
    assert_eq!(seen(scan_frames(&small, 0, 1, &settings(1))).len(), 3);
    assert_eq!(seen(scan_frames(&small, 1, 2, &settings(1))).len(), 0);
}

/// Reads `good`, then fails.
struct Failing(io::Cursor<Vec<u8>>);

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.read(buf)? {
            0 => Err(io::Error::new(io::ErrorKind::InvalidData, "bad block")),
            n => Ok(n),
        }
    }
}

/// After a read error the last game read may be cut short: it is not
/// decided but is the error, a parse-error placed where its text begins.
/// A reader that fails before giving anything is an input error.
#[test]
fn a_reader_that_fails_gives_its_whole_games_then_the_error_where_it_stopped() {
    let text = games(5);
    let items: Vec<_> =
        scan_reader("r.pgn", Failing(io::Cursor::new(text.into())), &settings(2)).collect();
    let (last, before) = items.split_last().expect("items");
    let kinds: Vec<_> = before.iter().map(|i| i.as_ref().map(|f| f.game)).collect();
    assert_eq!(kinds, [Ok(1), Ok(2), Ok(3), Ok(4)], "{items:?}");
    let f = last.as_ref().expect("the error, placed");
    assert_eq!(
        (f.file.as_str(), f.game, f.line, f.column),
        ("r.pgn", 5, 17, 1)
    );
    assert_eq!(f.kind.name(), "parse-error");
    assert!(f.message.contains("bad block"), "{}", f.message);
    let items: Vec<_> =
        scan_reader("e.pgn", Failing(io::Cursor::new(Vec::new())), &settings(2)).collect();
    let e = items[0].as_ref().expect_err("an input error");
    assert!(e.message.contains("bad block"), "{e}");
}

#[test]
fn scan_bytes_honours_jobs_and_numbers_games_across_chunks() {
    let text = games(20_000);
    let one: Vec<_> = seen(scan_bytes("b.pgn", text.as_bytes(), &settings(1)));
    let two = scan_bytes("b.pgn", text.as_bytes(), &settings(2));
    assert_eq!(two.summary().map(|s| s.games), Some(20_000));
    assert_eq!(seen(two), one);
    assert_eq!(one.last().map(|f| f.0), Some(20_000));
}

#[derive(Default)]
struct Warnings(Vec<String>, Vec<Diagnostic>);

impl Sink for Warnings {
    fn finding(&mut self, _: &Row<'_>) -> io::Result<()> {
        Ok(())
    }
    fn input_error(&mut self, d: &Diagnostic) -> io::Result<()> {
        self.1.push(d.clone());
        Ok(())
    }
    fn input_warning(&mut self, file: &str, message: &str) -> io::Result<()> {
        self.0.push(format!("{file}: {message}"));
        Ok(())
    }
}

#[test]
fn input_errors_reach_the_sink() {
    let mut sink = Warnings::default();
    let source = Source::Paths(vec!["no/such/file.pgn".into()]);
    let summary = scan_to(source, &settings(1), &mut sink).expect("the scan runs");
    assert_eq!(summary.failed_inputs, 1);
    assert_eq!(sink.1.len(), 1, "{:?}", sink.1);
    assert_eq!(sink.1[0].file, "no/such/file.pgn");
}

/// A file whose game 3 panics when the debug switch names its Event.
fn panicking_file(name: &str) -> common::TempFile {
    let mut text = games(4);
    text = text.replace("[Event \"2\"]", "[Event \"debug-panic-7f3a\"]");
    common::temp_file(name, text.as_bytes())
}

/// Waits for `cmd` (at most a minute: a hang fails the test).
fn run_with_timeout(cmd: &mut Command) -> (i32, String) {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the scan hung after a worker's panic");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    (status.code().unwrap_or(-1), err)
}

#[test]
fn a_panicking_worker_ends_the_cli_with_exit_2_naming_file_and_game() {
    let path = panicking_file("panic-cli.pgn");
    for jobs in ["1", "2"] {
        let (status, err) = run_with_timeout(
            Command::new(env!("CARGO_BIN_EXE_verify-claim"))
                .args(["scan", "--jobs", jobs, "--format", "jsonl", &path])
                .env(DEBUG_PANIC, "debug-panic-7f3a"),
        );
        assert_eq!(status, 2, "{err}");
        assert!(
            err.contains(&format!("{path}: game 3: internal error")),
            "{err}"
        );
    }
}

/// Run in a child process (the switch is an environment variable): the
/// last item of `scan_paths` is the error, naming the file and the game.
#[test]
fn a_panicking_worker_ends_scan_paths_with_an_error_item() {
    if std::env::var_os(DEBUG_PANIC).is_none() {
        let (status, err) = run_with_timeout(
            Command::new(std::env::current_exe().expect("the test binary"))
                .args([
                    "--exact",
                    "scan_api::a_panicking_worker_ends_scan_paths_with_an_error_item",
                    "--nocapture",
                ])
                .env(DEBUG_PANIC, "debug-panic-7f3a"),
        );
        assert_eq!(status, 0, "{err}");
        assert!(err.contains("checked: game 3"), "{err}");
        return;
    }
    let path = panicking_file("panic-api.pgn");
    let items: Vec<_> = scan_paths(&[&path], &settings(2)).collect();
    let (last, before) = items.split_last().expect("items");
    assert!(
        before.len() <= 2 && before.iter().all(|i| i.is_ok()),
        "{items:?}"
    );
    let e = last.as_ref().expect_err("the panic last");
    assert_eq!(e.kind, verify_claim::DiagnosticKind::Panic, "{e}");
    assert_eq!(e.file, path.as_str());
    assert!(e.message.contains("game 3: internal error"), "{e}");
    eprintln!("checked: game 3");
}

#[test]
fn a_byte_range_of_a_compressed_file_is_an_error_item() {
    // zstd's magic number, whatever the name says.
    let path = common::temp_file("range.pgn", &[0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]);
    let items: Vec<_> = scan_range(&path, 0, 8, &settings(1)).collect();
    assert_eq!(items.len(), 1, "{items:?}");
    let e = items[0].as_ref().expect_err("an error");
    assert!(e.message.contains("plain"), "{e}");
}

/// Endless games with no finding; says on `dropped` when the scan lets it go.
struct Endless {
    game: &'static [u8],
    at: usize,
    dropped: std::sync::mpsc::Sender<()>,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        for b in buf.iter_mut() {
            *b = self.game[self.at % self.game.len()];
            self.at += 1;
        }
        Ok(buf.len())
    }
}

impl Drop for Endless {
    fn drop(&mut self) {
        let _ = self.dropped.send(());
    }
}

fn endless() -> (Endless, std::sync::mpsc::Receiver<()>) {
    let (tx, rx) = std::sync::mpsc::channel();
    let r = Endless {
        game: b"[Event \"x\"]\n\n1. e4 e5 *\n\n",
        at: 0,
        dropped: tx,
    };
    (r, rx)
}

/// Issue 40.12: dropping the iterator of a scan that finds nothing stops
/// the scan (it read to the end of its input, 1-3 s of CPU every 3 s);
/// `stopper()` stops it from another thread, and the iterator then ends.
#[test]
fn a_dropped_or_stopped_scan_stops_reading() {
    // A hang, not slowness: the scan stops within one task.
    let limit = Duration::from_secs(300);
    let (reader, dropped) = endless();
    let findings = scan_reader("endless", reader, &settings(2));
    drop(findings);
    assert!(
        dropped.recv_timeout(limit).is_ok(),
        "the scan still reads after its iterator was dropped"
    );
    let (reader, dropped) = endless();
    let mut findings = scan_reader("endless", reader, &settings(2));
    let stop = findings.stopper();
    let t = std::thread::spawn(move || findings.next());
    stop.stop();
    assert!(dropped.recv_timeout(limit).is_ok(), "still reading");
    // The end, not an error.
    assert!(t.join().expect("the iterating thread").is_none());
}
