//! The scan pipeline: inputs → chunks → findings → printer, in parallel and
//! in a fixed order.
//!
//! A producer thread walks the inputs and hands out tasks in input order:
//! for a plain file, the numbers of its segments, each of which a worker
//! reads and cuts at game starts itself ([`crate::input::ranges`]); for a
//! stream (compressed, standard input, a FIFO), chunks it reads and cuts
//! ([`crate::input::chunks`]). Workers analyse them; the calling thread puts
//! the results back in input order and prints them, so the output is the
//! same byte for byte whatever `--jobs` is. A task is handed out only when a
//! token is free, and a token comes back only when its task has been
//! printed: memory stays bounded by (tokens × chunk size) however large the
//! archive.
//!
//! When the output fails (a closed pipe, a full disk) every thread stops at
//! once: the workers between two games, the producer before its next task;
//! the calling thread returns the error without waiting for them.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

use crate::claims::scan::{Finding, Kind, ScanOptions, Severity, scan_record};
use crate::diag::{Diagnostic, LineCursor, Place};
use crate::input::chunks::{Chunk, Chunker, MAX_GAME};
use crate::input::walk::{self, Item};
use crate::output::writing;
use crate::record::{Encoding, GameRecord, Reader};
use crate::report::scan::{Printer, Row};

mod threads;

use threads::{Msg, Producer, Task, Worker};

/// A finding placed in its file.
#[derive(Clone, Debug)]
pub struct Placed {
    /// 1-based game index within the chunk (the printer adds the games of
    /// earlier chunks of the same file).
    pub game: usize,
    pub place: Place,
    pub white: String,
    pub black: String,
    pub finding: Finding,
    /// The recorded result (scan pages) and the position of the finding,
    /// when [`Config::boards`] asks for it.
    pub result: String,
    pub board: Option<Box<crate::game::board::Board>>,
}

/// What one task produced.
enum Work {
    Chunk {
        /// Which input (its index in the walk): game numbers and lines run
        /// on within one input.
        input: usize,
        file: Arc<str>,
        games: usize,
        plies: usize,
        /// Line ends in the chunk; the findings' lines count from 1 within it.
        lines: u32,
        findings: Vec<Placed>,
        /// The chunk written back annotated (`--format pgn`).
        text: Option<Vec<u8>>,
    },
    /// An input that could not be read, or stopped being readable.
    Failed { file: Arc<str>, message: String },
    /// A plain file's segment that could not be read: the game numbers
    /// after it cannot be known, so the rest of the file becomes one error
    /// where the segment's text begins, and no later game of it is reported.
    Unread {
        input: usize,
        file: Arc<str>,
        message: String,
    },
    /// A path a walk left out, and why.
    Skipped { file: Arc<str>, message: String },
    /// A run of a zstd file's frames whose decoding failed: its work, then
    /// the error as a stream's ([`Work::Failed`]); the file's later work is
    /// dropped, as a stream stops at its error.
    Stopped {
        chunk: Box<Work>,
        input: usize,
        file: Arc<str>,
        message: String,
    },
}

/// Totals for the summary and the exit status.
#[derive(Debug, Default)]
pub struct Summary {
    pub games: usize,
    pub plies: usize,
    pub bytes: u64,
    pub by_kind: BTreeMap<Kind, usize>,
    pub worst: Option<Severity>,
    pub failed_inputs: usize,
    pub seconds: f64,
}

/// Finds the findings of one chunk: (games, plies, lines, findings). Lines
/// in findings count from 1 at the chunk's start; the caller adds the lines
/// of the chunks before (counted here, in parallel, not by the chunker).
pub fn analyse_chunk(
    chunk: &Chunk,
    encoding: Encoding,
    opts: &ScanOptions,
) -> (usize, usize, u32, Vec<Placed>) {
    analyse_chunk_until(chunk, encoding, opts, &AtomicBool::new(false), false)
}

/// [`analyse_chunk`], giving up between two games once `stop` is set; with
/// each finding's board when `boards` (the HTML page: only games with
/// findings are replayed a second time).
fn analyse_chunk_until(
    chunk: &Chunk,
    encoding: Encoding,
    opts: &ScanOptions,
    stop: &AtomicBool,
    boards: bool,
) -> (usize, usize, u32, Vec<Placed>) {
    let mut cursor = LineCursor::new(&chunk.bytes, 1);
    let mut reader = Reader::knowing_cr(&chunk.bytes, encoding, cursor.has_cr());
    let mut games = 0;
    let mut plies = 0;
    let mut out = Vec::new();
    while let Some(rec) = reader.next_game() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        games += 1;
        match rec {
            Err(e) => out.push(error_at(games, cursor.place(e.offset), e.offset, e.message)),
            Ok(rec) => {
                plies += rec.moves.len();
                let findings = scan_record(&rec, opts);
                if !findings.is_empty() {
                    let drawn = if boards {
                        let plies: Vec<usize> = findings.iter().map(|f| f.ply).collect();
                        crate::game::board::record_boards(
                            &rec,
                            opts.game_type,
                            opts.column_rules,
                            &plies,
                        )
                    } else {
                        Vec::new()
                    };
                    place_findings(&rec, games, findings, drawn, &mut cursor, &mut out);
                }
                reader.recycle(rec);
            }
        }
    }
    if let Some(skipped) = chunk.too_large {
        games += 1;
        let at = chunk.bytes.len();
        let message = format!(
            "this game is not read: {} MiB with no game start after it (a tag line after a \
             blank line), over the {} MiB a game may take",
            skipped.bytes >> 20,
            MAX_GAME >> 20
        );
        out.push(error_at(games, cursor.place(at), at, message));
    }
    // Counted on from the last place given, not over the chunk again.
    let mut lines = cursor.line_ends();
    if let Some(skipped) = chunk.too_large {
        lines += skipped.lines;
    }
    (games, plies, lines, out)
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
    pub paths: Vec<String>,
    pub jobs: usize,
    pub options: ScanOptions,
    pub encoding: Encoding,
    pub progress: bool,
    /// Findings below this are not printed (they still count for the
    /// summary and the exit status).
    pub min_severity: Severity,
    /// Write the input back annotated (`--format pgn`).
    pub annotate: bool,
    /// Follow symbolic links met in directories.
    pub follow: bool,
    /// Each finding's board, for the HTML page.
    pub boards: bool,
}

/// Runs the scan, printing with `printer` to `out`.
pub fn run(config: Config, printer: &mut dyn Printer, out: &mut dyn Write) -> io::Result<Summary> {
    let started = Instant::now();
    let items = walk::expand_with(&config.paths, config.follow);
    let total_bytes: u64 = items
        .iter()
        .map(|i| match i {
            Item::File(p) if p != "-" => std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
            _ => 0,
        })
        .sum();
    let consumed = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let bar = config.progress.then(|| progress_bar(total_bytes));

    let jobs = config.jobs.max(1);
    let in_flight = 2 * jobs + 2;
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        let _ = token_tx.send(());
    }
    let (result_tx, result_rx) = mpsc::channel::<Msg>();
    let (task_tx, task_rx) = mpsc::channel::<(u64, Task)>();
    let task_rx = Arc::new(Mutex::new(task_rx));
    // Detached threads: on an output failure the calling thread returns at
    // once, whatever they are blocked on (a read of standard input).
    for _ in 0..jobs {
        let worker = Worker {
            tasks: Arc::clone(&task_rx),
            results: result_tx.clone(),
            encoding: config.encoding,
            options: config.options,
            stop: Arc::clone(&stop),
            consumed: Arc::clone(&consumed),
            annotate: config.annotate.then_some(config.min_severity),
            boards: config.boards,
            buffers: Default::default(),
        };
        std::thread::Builder::new()
            .name("scan worker".into())
            .spawn(move || worker.run())?;
    }
    let producer = Producer {
        tasks: task_tx,
        results: result_tx,
        tokens: token_rx,
        consumed: Arc::clone(&consumed),
        stop: Arc::clone(&stop),
        seq: 0,
    };
    std::thread::Builder::new()
        .name("scan producer".into())
        .spawn(move || producer.run(items))?;

    let mut order = Order {
        min_severity: Some(config.min_severity),
        ..Order::default()
    };
    let result = order.print_all(&result_rx, &token_tx, printer, out, |_| {
        if let Some(b) = &bar {
            b.set_position(consumed.load(Ordering::Relaxed));
        }
    });
    if result.is_err() {
        stop.store(true, Ordering::Relaxed);
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    result?;
    let mut summary = order.summary;
    if summary.games == 0 && summary.failed_inputs == 0 {
        summary.failed_inputs += 1;
        for d in nothing_scanned(&config.paths) {
            printer.input_error(&d, out).map_err(writing)?;
        }
    }
    printer.totals(summary.games, summary.plies);
    printer.finish(out).map_err(writing)?;
    out.flush().map_err(writing)?;
    summary.bytes = consumed.load(Ordering::Relaxed);
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// No game in any input: each file named is an error at its start (it held
/// no game: 1:1, the place a game would begin); directories and streams
/// are named together, since no one place in them is wrong.
fn nothing_scanned(paths: &[String]) -> Vec<Diagnostic> {
    let is_file = |p: &String| p != "-" && std::path::Path::new(p).is_file();
    let (files, others): (Vec<&String>, Vec<&String>) = paths.iter().partition(|p| is_file(p));
    let start = Some(Place { line: 1, col: 1 });
    let mut out: Vec<Diagnostic> = files
        .iter()
        .map(|f| Diagnostic::new(f, start, "no game in the file: nothing scanned (a game begins with its tags or its first move)"))
        .collect();
    if !others.is_empty() {
        let names: Vec<&str> = others.iter().map(|p| p.as_str()).collect();
        out.push(Diagnostic::new(
            &names.join(", "),
            None,
            "nothing scanned: no game in any input (directories are searched for \
             .pgn and .pdn files, plain or compressed)",
        ));
    }
    out
}

/// Puts the work back in sequence order and prints it.
#[derive(Default)]
struct Order {
    summary: Summary,
    pending: BTreeMap<u64, Work>,
    next: u64,
    input: Option<usize>,
    games_before: usize,
    lines_before: u32,
    /// Findings below this are counted, not printed.
    min_severity: Option<Severity>,
    /// An input with an unread segment: nothing after it is reported.
    unread: Option<usize>,
}

impl Order {
    fn print_all(
        &mut self,
        results: &mpsc::Receiver<Msg>,
        tokens: &mpsc::SyncSender<()>,
        printer: &mut dyn Printer,
        out: &mut dyn Write,
        mut progress: impl FnMut(u64),
    ) -> io::Result<()> {
        let mut total = None;
        while total != Some(self.next) {
            match results.recv() {
                Ok(Msg::Work(seq, work)) => {
                    self.pending.insert(seq, work);
                }
                Ok(Msg::Done(n)) => total = Some(n),
                Err(_) => {
                    return Err(io::Error::other("the scan stopped: a thread failed"));
                }
            }
            while let Some(work) = self.pending.remove(&self.next) {
                self.print(work, printer, out).map_err(writing)?;
                let _ = tokens.try_send(());
                self.next += 1;
                progress(self.next);
            }
        }
        Ok(())
    }

    fn print(
        &mut self,
        work: Work,
        printer: &mut dyn Printer,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match work {
            Work::Failed { file, message } => {
                self.summary.failed_inputs += 1;
                printer.input_error(&Diagnostic::new(&file, None, message), out)
            }
            Work::Skipped { file, message } => printer.input_warning(&file, &message, out),
            Work::Stopped {
                chunk,
                input,
                file,
                message,
            } => {
                self.print(*chunk, printer, out)?;
                if self.unread == Some(input) {
                    return Ok(());
                }
                self.unread = Some(input);
                self.print(Work::Failed { file, message }, printer, out)
            }
            Work::Unread {
                input,
                file,
                message,
            } => {
                self.start_input(input);
                if self.unread == Some(input) {
                    return Ok(());
                }
                self.unread = Some(input);
                self.summary.failed_inputs += 1;
                let message = format!(
                    "{message}: this game and the rest of the file are not read (the \
                     numbers of the games after it cannot be known)"
                );
                // The first game not read, where the text not read begins
                // (the previous chunk ended at a game start, at a line start).
                let unread = error_at(1, Place { line: 1, col: 1 }, 0, message);
                self.findings(&file, 0, vec![unread], printer, out)
            }
            Work::Chunk {
                input,
                file,
                games,
                plies,
                lines,
                findings,
                text,
            } => {
                self.start_input(input);
                if self.unread == Some(input) {
                    return Ok(());
                }
                self.findings(&file, lines, findings, printer, out)?;
                if let Some(t) = text {
                    printer.chunk_text(&t, out)?;
                }
                self.games_before += games;
                self.summary.games += games;
                self.summary.plies += plies;
                Ok(())
            }
        }
    }

    /// Game numbers and lines run on within one input.
    fn start_input(&mut self, input: usize) {
        if self.input != Some(input) {
            self.input = Some(input);
            self.games_before = 0;
            self.lines_before = 0;
        }
    }

    /// Counts and prints a chunk's findings (game numbers and lines within
    /// the chunk), then moves on by its `lines`.
    fn findings(
        &mut self,
        file: &str,
        lines: u32,
        mut findings: Vec<Placed>,
        printer: &mut dyn Printer,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        for p in &mut findings {
            p.place.line += self.lines_before;
        }
        for p in &findings {
            let sev = p.finding.kind.severity();
            self.summary.worst = self.summary.worst.max(Some(sev));
            *self.summary.by_kind.entry(p.finding.kind).or_default() += 1;
            if self.min_severity.is_some_and(|m| sev < m) {
                continue;
            }
            let row = Row {
                file,
                game: self.games_before + p.game,
                placed: p,
            };
            printer.finding(&row, out)?;
        }
        self.lines_before += lines;
        Ok(())
    }
}

fn progress_bar(total: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}, {eta})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Reads a whole stream, for tests and benchmarks: the findings of every
/// game, in order, with the per-file game numbers.
pub fn scan_bytes(bytes: &[u8], options: &ScanOptions) -> Vec<Placed> {
    scan_bytes_as(bytes, options, Encoding::Utf8)
}

/// [`scan_bytes`] reading tag values as `encoding` says.
pub fn scan_bytes_as(bytes: &[u8], options: &ScanOptions, encoding: Encoding) -> Vec<Placed> {
    let mut chunker = Chunker::new(bytes);
    let mut out = Vec::new();
    let (mut before, mut lines_before) = (0, 0);
    while let Ok(Some(chunk)) = chunker.next_chunk() {
        let (games, _, lines, mut f) = analyse_chunk(&chunk, encoding, options);
        for p in &mut f {
            p.game += before;
            p.place.line += lines_before;
        }
        before += games;
        lines_before += lines;
        out.extend(f);
    }
    out
}

#[cfg(test)]
mod tests;
