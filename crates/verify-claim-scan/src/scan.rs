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

use crate::claims::scan::{Finding, Kind, ScanOptions, Severity, scan_record_outcome};
use crate::diag::{Diagnostic, DiagnosticKind, LineCursor, Place};
use crate::input::chunks::{Chunk, MAX_GAME};
use crate::input::walk::{self, Item};
use crate::output::writing;
use crate::record::{Encoding, GameRecord, Reader};

mod games;
mod handoff;
mod sink;
mod threads;

pub use games::Draft;
use games::Drafts;
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

/// How a worker analyses its chunks.
pub struct Analysis<'a> {
    pub encoding: Encoding,
    pub options: &'a ScanOptions,
    /// Set when the scan stops: give up between two games.
    pub stop: &'a AtomicBool,
    /// Each finding's board ([`Needs::boards`]: only games with findings
    /// are replayed a second time).
    pub boards: bool,
    /// Each game's row ([`Needs::games`]).
    pub games: bool,
    /// The test-only panic (see [`DEBUG_PANIC`]).
    pub panic_on: Option<&'a str>,
}

/// A hidden debug switch for the tests of a worker's panic: a game whose
/// `Event` tag is this variable's value panics. No input alone does it.
pub const DEBUG_PANIC: &str = "VERIFY_CLAIM_DEBUG_PANIC";

/// What a worker made of one chunk.
pub struct Analysed {
    pub games: usize,
    pub plies: usize,
    /// Line ends in the chunk.
    pub lines: u32,
    pub findings: Vec<Placed>,
    /// Each game's row, when [`Analysis::games`].
    pub rows: Vec<Draft>,
}

/// Finds the findings of one chunk. Lines in findings count from 1 at the
/// chunk's start; the caller adds the lines of the chunks before (counted
/// here, in parallel, not by the chunker). `game` follows the game being
/// analysed (for a panic's message).
pub fn analyse_chunk(chunk: &Chunk, how: &Analysis<'_>, game: &mut usize) -> Analysed {
    let mut cursor = LineCursor::new(&chunk.bytes, 1);
    let mut reader = Reader::knowing_cr(&chunk.bytes, how.encoding, cursor.has_cr());
    let mut games = 0;
    let mut plies = 0;
    let mut out = Vec::new();
    let mut rows = Drafts::default();
    // Games before this chunk in the same task (a run of frames has several).
    let before = *game;
    loop {
        // Before the read: a panic while the next game is parsed names it.
        *game = before + games + 1;
        let Some(rec) = reader.next_game() else {
            break;
        };
        if how.stop.load(Ordering::Relaxed) {
            break;
        }
        games += 1;
        match rec {
            Err(e) => {
                let line = how.games.then(|| cursor.place(reader.last_game().0).line);
                let at = cursor.place(e.offset);
                if let Some(line) = line {
                    let read = reader.last_game().1;
                    rows.push(Draft::unreadable(
                        games,
                        line,
                        at,
                        e.message.clone(),
                        Some(read),
                    ));
                }
                out.push(error_at(games, at, e.offset, e.message));
            }
            Ok(rec) => {
                if let Some(event) = how.panic_on
                    && rec.tag("Event") == Some(event)
                {
                    panic!("{DEBUG_PANIC} is set and this game's Event is {event:?}");
                }
                let (findings, outcome) = scan_record_outcome(&rec, how.options);
                // Plies as replayed: a game that fails stops at its error.
                plies += findings
                    .iter()
                    .find(|f| matches!(f.kind, Kind::ParseError | Kind::IllegalMove))
                    .map_or(rec.moves.len(), |f| f.ply);
                if how.games {
                    let bytes = &chunk.bytes;
                    rows.record(&rec, bytes, games, &findings, &outcome, &mut cursor);
                }
                if !findings.is_empty() {
                    let drawn = boards_of(&rec, &findings, how);
                    place_findings(&rec, games, findings, drawn, &mut cursor, &mut out);
                }
                reader.recycle(rec);
            }
        }
    }
    if let Some(skipped) = chunk.too_large {
        games += 1;
        let at = chunk.bytes.len();
        let (finding, row) = too_large(skipped, games, at, &mut cursor, how.games);
        out.push(finding);
        if let Some(row) = row {
            rows.push(row);
        }
    }
    // Counted on from the last place given, not over the chunk again.
    let mut lines = cursor.line_ends();
    if let Some(skipped) = chunk.too_large {
        lines += skipped.lines;
    }
    Analysed {
        games,
        plies,
        lines,
        findings: out,
        rows: rows.finish(),
    }
}

/// The boards of a game's findings, when the sink draws them
/// ([`Analysis::boards`]): the game replayed a second time, to their plies.
fn boards_of(
    rec: &GameRecord<'_>,
    findings: &[Finding],
    how: &Analysis<'_>,
) -> Vec<Option<crate::game::board::Board>> {
    if !how.boards {
        return Vec::new();
    }
    let plies: Vec<usize> = findings.iter().map(|f| f.ply).collect();
    crate::claims::replay::record_boards(
        rec,
        how.options.game_type,
        how.options.column_rules,
        &plies,
    )
}

/// The error of a game too large to hold, the chunk's last (its game
/// `games`, at the chunk's end `at`), and its row when rows are made.
fn too_large(
    skipped: crate::input::chunks::Skipped,
    games: usize,
    at: usize,
    cursor: &mut LineCursor<'_>,
    rows: bool,
) -> (Placed, Option<Draft>) {
    let message = format!(
        "{NOT_READ}: {} MiB with no game start after it (a tag line after a \
         blank line), over the {} MiB a game may take",
        skipped.bytes >> 20,
        MAX_GAME >> 20
    );
    let place = cursor.place(at);
    let row = rows.then(|| Draft::unreadable(games, place.line, place, message.clone(), None));
    let mut unread = error_at(games, place, at, message);
    unread.unread = true;
    (unread, row)
}

/// A game's findings placed in the chunk, each with its board if drawn.
fn place_findings(
    rec: &GameRecord<'_>,
    game: usize,
    findings: Vec<Finding>,
    drawn: Vec<Option<crate::game::board::Board>>,
    cursor: &mut LineCursor<'_>,
    out: &mut Vec<Placed>,
) {
    let white = rec.tag("White").unwrap_or("?");
    let black = rec.tag("Black").unwrap_or("?");
    let result = rec
        .tag("Result")
        .or(rec.result.map(|r| r.text))
        .unwrap_or("");
    let mut drawn = drawn.into_iter();
    // Findings come sorted by ply; their offsets are not always increasing
    // (a result finding points at the end), so the cursor handles going back.
    for f in findings {
        out.push(Placed {
            game,
            place: cursor.place(f.offset),
            white: white.to_owned(),
            black: black.to_owned(),
            result: result.to_owned(),
            board: drawn.next().flatten().map(Box::new),
            finding: f,
            unread: false,
        });
    }
}

/// A game's parse error.
fn error_at(game: usize, place: Place, offset: usize, message: String) -> Placed {
    Placed {
        game,
        place,
        white: String::new(),
        black: String::new(),
        result: String::new(),
        board: None,
        unread: false,
        finding: Finding {
            kind: Kind::ParseError,
            ply: 0,
            offset,
            side: None,
            mv: None,
            message,
            recorded: None,
            expected: None,
        },
    }
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

/// How the message of a game too large to hold begins (the `--format pgn`
/// printer says such a game is not written back).
pub const NOT_READ: &str = "this game is not read";

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
