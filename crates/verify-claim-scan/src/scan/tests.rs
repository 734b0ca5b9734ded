//! A plain file whose read fails in the middle: the games before keep their
//! findings and numbers, the rest of the file is one error at its place, and
//! no later game is reported with a wrong number.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};

use super::handoff::{Handoff, Live};
use super::threads::{Task, Worker};
use super::{Order, Row, Sink, Summary, scan_bytes};
use crate::claims::scan::{Kind, ScanOptions, Severity};
use crate::input::ranges::{Ranges, ReadAt};
use crate::record::Encoding;

/// Each game is four lines and has one finding (checkmate) on its third.
const GAMES: usize = 1000;

fn games() -> Vec<u8> {
    (0..GAMES)
        .map(|i| format!("[Event \"{i}\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"))
        .collect::<String>()
        .into_bytes()
}

/// `bytes` in a scratch file, removed when the guard is dropped (test runs
/// leave nothing in the temporary directory).
fn temp_file(name: &str, bytes: &[u8]) -> tempfile::NamedTempFile {
    let file = tempfile::Builder::new()
        .prefix(&format!("verify-claim-{name}-"))
        .tempfile()
        .unwrap();
    std::fs::write(file.path(), bytes).unwrap();
    file
}

/// A file whose reads of `bad` fail as a failing disk's do (EIO).
struct FailingDisk {
    file: File,
    bad: std::ops::Range<u64>,
}

impl ReadAt for FailingDisk {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        if offset < self.bad.end && self.bad.start < offset + buf.len() as u64 {
            return Err(io::Error::from_raw_os_error(5));
        }
        FileExt::read_exact_at(&self.file, buf, offset)
    }
}

/// What a test sees of a finding: game, line, column, kind, message.
type Seen = (usize, u32, u32, Kind, String);

#[derive(Default)]
struct Collect(Vec<Seen>);

impl Sink for Collect {
    fn finding(&mut self, r: &Row<'_>) -> io::Result<()> {
        let p = r.placed;
        self.0.push((
            r.game,
            p.place.line,
            p.place.col,
            p.finding.kind,
            p.finding.message.clone(),
        ));
        Ok(())
    }
}

/// Every segment through a worker and the printer's ordering, in order.
fn scan_segments(ranges: Ranges) -> (Vec<Seen>, Summary) {
    let ranges = Arc::new(ranges);
    let (_task_tx, task_rx) = crossbeam_channel::bounded(1);
    let mut worker = Worker {
        tasks: task_rx,
        handoff: Live(Handoff::new(1, 1, 1)),
        encoding: Encoding::Utf8,
        options: ScanOptions::default(),
        stop: Arc::new(AtomicBool::new(false)),
        consumed: Arc::new(AtomicU64::new(0)),
        needs: Default::default(),
        panic_on: None,
        buffers: Default::default(),
    };
    let mut order = Order::new(Severity::Info);
    let mut printer = Collect::default();
    for segment in 0..ranges.segments() {
        let task = Task::Range {
            input: 0,
            file: Arc::from("t.pgn"),
            ranges: Arc::clone(&ranges),
            segment,
        };
        let work = worker.guarded(task);
        order.print(work, &mut printer).unwrap();
    }
    (printer.0, order.summary)
}

/// The findings before the error are the whole file's, numbered alike; the
/// error is last, names the first game not read, at that game's first
/// line, and lies before `bad`.
fn check(found: &[Seen], summary: &Summary, bad: u64, why: &str) {
    let whole = scan_bytes(&games(), &ScanOptions::default());
    assert_eq!(whole.len(), GAMES);
    let (error, before) = found.split_last().expect("an error");
    for (got, (game, want)) in before.iter().zip(&whole) {
        assert_eq!(
            (got.0, got.1, got.2),
            (*game, want.place.line, want.place.col)
        );
        assert_eq!(got.3, want.finding.kind);
    }
    let (game, line, col, kind, message) = error;
    assert_eq!(*kind, Kind::ParseError, "{message}");
    assert!(
        message.contains(why) && message.contains("rest of the file"),
        "{message}"
    );
    assert_eq!(*game, before.len() + 1, "every game before has its finding");
    assert_eq!(
        (*line, *col),
        (4 * (*game as u32 - 1) + 1, 1),
        "the game's first line"
    );
    let game_start = games().len() / GAMES * (*game - 1);
    assert!((game_start as u64) <= bad && *game < GAMES, "{game} {bad}");
    assert_eq!(summary.failed_inputs, 1);
    assert_eq!(summary.games, *game - 1);
}

#[test]
fn a_read_error_mid_file_ends_the_file_with_one_placed_error() {
    let bytes = games();
    let path = temp_file("eio", &bytes);
    let bad = bytes.len() as u64 / 2;
    for segment in [256, 4096, 1 << 18] {
        let disk = FailingDisk {
            file: File::open(path.path()).unwrap(),
            bad: bad..bad + 1,
        };
        let ranges = Ranges::from_source(Box::new(disk), bytes.len() as u64, segment);
        let (found, summary) = scan_segments(ranges);
        check(&found, &summary, bad, "os error 5");
        // Segments after the failed one are not even read.
        if segment == 256 {
            assert!(found.len() < GAMES / 2, "{}", found.len());
        }
    }
}

#[test]
fn a_file_cut_short_while_scanned_ends_with_one_placed_error() {
    let bytes = games();
    let path = temp_file("shrunk", &bytes);
    let file = File::open(path.path()).unwrap();
    let ranges = Ranges::with_segment(file, bytes.len() as u64, 1024);
    // Cut after the plan was made (the length it was made for is longer).
    let cut = bytes.len() as u64 * 2 / 3 + 7;
    std::fs::OpenOptions::new()
        .write(true)
        .open(path.path())
        .unwrap()
        .set_len(cut)
        .unwrap();
    let (found, summary) = scan_segments(ranges);
    check(&found, &summary, cut, "became shorter");
}
