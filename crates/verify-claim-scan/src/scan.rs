//! The scan pipeline: inputs → chunks → findings → printer, in parallel and
//! in a fixed order.
//!
//! A producer thread walks the inputs and hands out tasks in input order:
//! for a plain file, the numbers of its segments, each of which a worker
//! reads and cuts at game starts itself ([`crate::input::ranges`]); for a
//! stream (compressed, standard input, a FIFO), chunks it reads and cuts
//! ([`crate::input::chunks`]). Workers analyse them; the calling thread puts
//! the results back in input order and prints them, so the output is the
//! same byte for byte whatever `--jobs` is. A task is handed out only while
//! fewer than a fixed number are handed out and not printed
//! ([`handoff`]): memory stays bounded by (tasks in flight × chunk size)
//! however large the archive.
//!
//! When the output fails (a closed pipe, a full disk) every thread stops at
//! once: the workers between two games, the producer before its next task;
//! the calling thread returns the error without waiting for them.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::claims::scan::{Kind, ScanOptions, Severity};
use crate::diag::{Diagnostic, DiagnosticKind, Place};
use crate::input::walk::{self, Item};
use crate::output::writing;
use crate::record::Encoding;

mod chunk;
mod games;
mod handoff;
mod sink;
mod threads;

use chunk::error_at;
pub use chunk::{Analysed, Analysis, DEBUG_PANIC, analyse_chunk};
pub use games::Draft;
pub use games::GameLine;
use handoff::{Handoff, Live};
pub use sink::{ChunkHook, Needs, Placed, Row, Sink};
use threads::{Producer, Task, Worker};

/// What a scan reads. Each kind is one or more inputs; game and line
/// numbers run on within an input.
pub enum Source {
    /// Files and directories (searched for `.pgn` and `.pdn` files, plain
    /// or compressed); `-` for standard input. A name that is not UTF-8 is
    /// read as it is and printed with its bytes escaped (`\xHH`).
    Paths(Vec<std::path::PathBuf>),
    /// One file, read as [`Source::Paths`] reads it (decompressed, or cut
    /// into segments when plain), but not walked, and with no error when it
    /// holds no game (a distributed engine's task over a whole file).
    File(String),
    /// One stream (text in memory, a pipe, a decompressor), named `name`.
    Reader {
        /// The `file` of its findings.
        name: String,
        /// The records.
        reader: Box<dyn Read + Send>,
    },
    /// The games that *start* in bytes `[start, end)` of a plain file (a
    /// distributed engine's task): ranges of one file that meet hold each
    /// game once. Game and line numbers count from the range's first game
    /// start; [`Summary::games`] and [`Summary::lines`] say how far to move
    /// the next range's on.
    Range {
        /// The file (not compressed).
        path: String,
        /// First byte.
        start: u64,
        /// One past the last byte.
        end: u64,
    },
    /// The games that *start* in frame runs `[first, end)` of a multi-frame
    /// `.zst` file (a distributed engine's task; [`InputFile::runs`] lists
    /// a file's runs): the frame-run counterpart of [`Source::Range`], with
    /// the same numbering. A file that is not cut into runs is read whole
    /// by the task with `first == 0`, and by no other.
    ///
    /// [`InputFile::runs`]: crate::InputFile::runs
    Frames {
        /// The `.zst` file.
        path: String,
        /// The first run.
        first: u64,
        /// One past the last run.
        end: u64,
    },
}

/// What a task produced.
enum Work {
    Chunk {
        /// Which input (its index in the walk): game numbers and lines run
        /// on within one input.
        input: usize,
        file: Arc<str>,
        games: usize,
        plies: usize,
        /// Bytes of the chunk's text.
        text_bytes: u64,
        /// Line ends in the chunk; the findings' lines count from 1 within it.
        lines: u32,
        findings: Vec<Placed>,
        /// Each game's row ([`Needs::games`]), numbered as the findings.
        rows: Vec<Draft>,
        /// What the sink's chunk hook made of the chunk.
        text: Option<Vec<u8>>,
    },
    /// An input that could not be read, or stopped being readable.
    Failed {
        file: Arc<str>,
        kind: DiagnosticKind,
        message: String,
    },
    /// A plain file's segment that could not be read, or a stream that
    /// stopped (its last game cut short): the game numbers after it cannot
    /// be known, so the rest of the file becomes one error where the text
    /// not read begins, and no later game of it is reported.
    Unread {
        input: usize,
        file: Arc<str>,
        message: String,
    },
    /// A path a walk left out, and why.
    Skipped { file: Arc<str>, message: String },
    /// A run of a zstd file's frames whose decoding failed: its work, then
    /// the error where its text stops, as a stream's ([`Work::Unread`]: the
    /// game cut short there is not decided); the file's later work is
    /// dropped, as a stream stops at its error.
    Stopped {
        chunk: Box<Work>,
        input: usize,
        file: Arc<str>,
        message: String,
    },
    /// A worker panicked on game `game` of the task's chunk (0: before its
    /// first game, while the chunk was read): the scan ends with an error
    /// naming it (the chunk's first game for 0).
    Panicked {
        input: usize,
        file: Arc<str>,
        game: usize,
        message: String,
    },
}

impl Work {
    /// An input the OS would not give: `cannot read: ` and its error.
    fn cannot_read(file: Arc<str>, kind: std::io::ErrorKind, e: impl std::fmt::Display) -> Work {
        Work::Failed {
            file,
            kind: DiagnosticKind::Io(kind),
            message: format!("cannot read: {e}"),
        }
    }
}

/// A worker's panic, as the scan's error: the file and the game.
#[derive(Debug)]
pub struct Panicked {
    /// The input.
    pub file: String,
    /// The game's number in the input (the first game of the chunk being
    /// read when the panic came while it was read).
    pub game: usize,
    /// What the panic said.
    pub message: String,
}

impl Panicked {
    /// What happened, without the file: "game N: internal error, ...".
    pub fn what(&self) -> String {
        format!(
            "game {}: internal error, the scan stopped: {} (please report it)",
            self.game, self.message
        )
    }
}

impl std::fmt::Display for Panicked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.what())
    }
}

impl std::error::Error for Panicked {}

/// Totals for the summary and the exit status.
#[derive(Debug, Default)]
pub struct Summary {
    /// Games read (a game that could not be parsed counts).
    pub games: usize,
    /// Plies replayed.
    pub plies: usize,
    /// Bytes read from the inputs (compressed bytes for a compressed one).
    pub bytes: u64,
    /// Bytes of text scanned (decompressed): the games' text as read.
    pub text_bytes: u64,
    /// Line ends in the games read (for a [`Source::Range`]: how far the
    /// next range's lines move on).
    pub lines: u64,
    /// Findings by kind, every severity.
    pub by_kind: BTreeMap<Kind, usize>,
    /// The most severe finding.
    pub worst: Option<Severity>,
    /// Inputs that could not be read (or held no game).
    pub failed_inputs: usize,
    /// Wall time.
    pub seconds: f64,
}

/// Scan configuration.
pub struct Config {
    /// Worker threads (at least one).
    pub jobs: usize,
    pub options: ScanOptions,
    pub encoding: Encoding,
    /// Findings below this are not handed to the sink (they still count
    /// for the summary and the exit status).
    pub min_severity: Severity,
    /// Follow symbolic links met in directories.
    pub follow: bool,
}

/// The most worker threads a scan starts (`Config::jobs` is clamped to it).
pub const MAX_JOBS: usize = 256;

/// An input for the producer, in order.
pub(crate) enum Input {
    Walked(Item),
    Reader(Arc<str>, Box<dyn Read + Send>),
    Range { path: String, start: u64, end: u64 },
    Frames { path: String, first: u64, end: u64 },
}

/// The inputs of a source and their size in bytes (0: unknown).
fn inputs(source: Source, follow: bool) -> (Vec<Input>, u64) {
    match source {
        Source::Paths(paths) => {
            let items = walk::expand_with(&paths, follow);
            let total = items
                .iter()
                .map(|i| match i {
                    Item::File(p) if p.as_os_str() != "-" => {
                        std::fs::metadata(p).map_or(0, |m| m.len())
                    }
                    _ => 0,
                })
                .sum();
            (items.into_iter().map(Input::Walked).collect(), total)
        }
        Source::File(path) => {
            let total = std::fs::metadata(&path).map_or(0, |m| m.len());
            (vec![Input::Walked(Item::File(path.into()))], total)
        }
        Source::Reader { name, reader } => (vec![Input::Reader(name.into(), reader)], 0),
        Source::Range { path, start, end } => (
            vec![Input::Range { path, start, end }],
            end.saturating_sub(start),
        ),
        Source::Frames { path, first, end } => (vec![Input::Frames { path, first, end }], 0),
    }
}

/// Runs the scan, handing its results to `sink` in input order, on the
/// calling thread; workers and the producer run on their own threads.
pub fn run(source: Source, config: &Config, sink: &mut dyn Sink) -> io::Result<Summary> {
    let started = Instant::now();
    let named: Option<Vec<std::path::PathBuf>> = match &source {
        Source::Paths(p) => Some(p.clone()),
        _ => None,
    };
    let (items, total_bytes) = inputs(source, config.follow);
    let consumed = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));

    let jobs = config.jobs.clamp(1, MAX_JOBS);
    // The printer wakes for half the tasks in flight at a time: on the
    // TCEC bench file, 4 × jobs + 4 in flight and a batch of half made
    // `scan --jobs 1` 5% faster and `--jobs 2` 8% than 2 × jobs + 2 and a
    // wake-up per task (docs/performance.md).
    let in_flight = 4 * jobs as u64 + 4;
    let handoff = Handoff::new(in_flight, in_flight / 2, jobs + 1);
    // Bounded like the hand-off: at most `in_flight` tasks are handed out
    // and not printed, so the producer never waits on this channel; every
    // worker holds a receiver (multi-consumer) and ends when the producer
    // is gone and the queue is empty.
    let (task_tx, task_rx) = crossbeam_channel::bounded::<(u64, Task)>(in_flight as usize);
    let needs = sink.needs();
    let panic_on: Option<Arc<str>> = std::env::var(DEBUG_PANIC).ok().map(Into::into);
    // Detached threads: on an output failure the calling thread returns at
    // once, whatever they are blocked on (a read of standard input).
    for _ in 0..jobs {
        let worker = Worker {
            tasks: task_rx.clone(),
            handoff: Live(Arc::clone(&handoff)),
            encoding: config.encoding,
            options: config.options,
            stop: Arc::clone(&stop),
            consumed: Arc::clone(&consumed),
            needs: needs.clone(),
            panic_on: panic_on.clone(),
            buffers: Default::default(),
        };
        std::thread::Builder::new()
            .name("scan worker".into())
            .spawn(move || worker.run())?;
    }
    let producer = Producer {
        tasks: task_tx,
        handoff: Live(Arc::clone(&handoff)),
        consumed: Arc::clone(&consumed),
        stop: Arc::clone(&stop),
        seq: 0,
    };
    std::thread::Builder::new()
        .name("scan producer".into())
        .spawn(move || producer.run(items))?;

    let mut order = Order::new(config.min_severity);
    let result = order.print_all(&handoff, sink, || {
        (consumed.load(Ordering::Relaxed), total_bytes)
    });
    if result.is_err() {
        stop.store(true, Ordering::Relaxed);
        handoff.stop();
    }
    result?;
    let mut summary = order.summary;
    if let Some(paths) = named
        && summary.games == 0
        && summary.failed_inputs == 0
    {
        summary.failed_inputs += 1;
        for d in nothing_scanned(&paths) {
            sink.input_error(&d).map_err(writing)?;
        }
    }
    sink.totals(&summary);
    sink.finish().map_err(writing)?;
    summary.bytes = consumed.load(Ordering::Relaxed);
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// No game in any input: each file named is an error at its start (it held
/// no game: 1:1, the place a game would begin); directories and streams
/// are named together, since no one place in them is wrong.
fn nothing_scanned(paths: &[std::path::PathBuf]) -> Vec<Diagnostic> {
    use std::path::PathBuf;
    let is_file = |p: &PathBuf| p.as_os_str() != "-" && p.is_file();
    let (files, others): (Vec<&PathBuf>, Vec<&PathBuf>) = paths.iter().partition(|p| is_file(p));
    let name = |p: &PathBuf| crate::input::walk::display_name(p);
    let start = Some(Place { line: 1, col: 1 });
    let mut out: Vec<Diagnostic> = files
        .iter()
        .map(|f| Diagnostic::new(DiagnosticKind::NoGame, &name(f), start, "no game in the file: nothing scanned (a game begins with its tags or its first move)"))
        .collect();
    if !others.is_empty() {
        let names: Vec<String> = others.iter().map(|p| name(p)).collect();
        out.push(Diagnostic::new(
            DiagnosticKind::NoGame,
            &names.join(", "),
            None,
            "nothing scanned: no game in any input (directories are searched for \
             .pgn and .pdn files, plain or compressed)",
        ));
    }
    out
}

mod order;
use order::Order;

/// The findings of records held in memory, in order, with their games
/// numbered in one run: [`run`] over a reader, on one worker (tests and
/// benchmarks).
#[cfg(test)]
pub(crate) fn scan_bytes(bytes: &[u8], options: &ScanOptions) -> Vec<(usize, Placed)> {
    struct Collect(Vec<(usize, Placed)>);
    impl Sink for Collect {
        fn finding(&mut self, row: &Row<'_>) -> io::Result<()> {
            self.0.push((row.game, row.placed.clone()));
            Ok(())
        }
    }
    let config = Config {
        jobs: 1,
        options: *options,
        encoding: Encoding::Utf8,
        min_severity: Severity::Info,
        follow: false,
    };
    let source = Source::Reader {
        name: "bytes".into(),
        reader: Box::new(io::Cursor::new(bytes.to_vec())),
    };
    let mut sink = Collect(Vec::new());
    let _ = run(source, &config, &mut sink);
    sink.0
}

#[cfg(test)]
mod tests;
