//! The scan pipeline: inputs → chunks → findings → printer, in parallel and
//! in a fixed order.
//!
//! A producer thread walks the inputs, decompresses them and cuts them into
//! chunks of whole games. Each chunk is analysed on the rayon pool. The
//! calling thread receives the results, puts them back in input order and
//! prints them, so the output is the same byte for byte whatever `--jobs`
//! is. A chunk may only be produced when a token is free, and a token comes
//! back only when its chunk has been printed: memory stays bounded by
//! (tokens × chunk size) however large the archive.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use crate::claims::scan::{Finding, Kind, ScanOptions, Severity, scan_record};
use crate::diag::{Place, place_of};
use crate::input::chunks::{Chunk, Chunker};
use crate::input::open::open_counted;
use crate::input::walk::{self, Item};
use crate::record::{Encoding, Reader};
use crate::report::scan::{Printer, Row};

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

/// What one chunk (or one input failure) produced.
enum Work {
    Chunk {
        file: Arc<str>,
        games: usize,
        plies: usize,
        /// Lines in the chunk; the findings' lines count from 1 within it.
        lines: u32,
        findings: Vec<Placed>,
    },
    /// An input that could not be read, or stopped being readable.
    Failed { file: Arc<str>, message: String },
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
    analyse_chunk_with(chunk, encoding, opts, false)
}

/// [`analyse_chunk`], with each finding's board when `boards` (the HTML
/// page: only games with findings are replayed a second time).
pub fn analyse_chunk_with(
    chunk: &Chunk,
    encoding: Encoding,
    opts: &ScanOptions,
    boards: bool,
) -> (usize, usize, u32, Vec<Placed>) {
    let mut reader = Reader::new(&chunk.bytes, encoding);
    let mut cursor = LineCursor::new(&chunk.bytes, 1);
    let lines = memchr::memchr_iter(b'\n', &chunk.bytes).count() as u32;
    let mut games = 0;
    let mut plies = 0;
    let mut out = Vec::new();
    while let Some(rec) = reader.next_game() {
        games += 1;
        match rec {
            Err(e) => out.push(Placed {
                game: games,
                place: cursor.place(e.offset),
                white: String::new(),
                black: String::new(),
                result: String::new(),
                board: None,
                finding: Finding {
                    kind: Kind::ParseError,
                    ply: 0,
                    offset: e.offset,
                    side: None,
                    mv: None,
                    message: e.message,
                    recorded: None,
                    expected: None,
                },
            }),
            Ok(rec) => {
                plies += rec.moves.len();
                let findings = scan_record(&rec, opts);
                if findings.is_empty() {
                    continue;
                }
                let white = rec.tag("White").unwrap_or("?").to_owned();
                let black = rec.tag("Black").unwrap_or("?").to_owned();
                let result = rec
                    .tag("Result")
                    .or(rec.result.map(|r| r.text))
                    .unwrap_or("")
                    .to_owned();
                let mut drawn = if boards {
                    let plies: Vec<usize> = findings.iter().map(|f| f.ply).collect();
                    crate::game::board::record_boards(
                        &rec,
                        opts.game_type,
                        opts.column_rules,
                        &plies,
                    )
                } else {
                    Vec::new()
                }
                .into_iter();
                // Findings come sorted by ply; their offsets are not always
                // increasing (a result finding points at the end), so the
                // cursor handles going back.
                for f in findings {
                    out.push(Placed {
                        game: games,
                        place: cursor.place(f.offset),
                        white: white.clone(),
                        black: black.clone(),
                        result: result.clone(),
                        board: drawn.next().flatten().map(Box::new),
                        finding: f,
                    });
                }
            }
        }
    }
    (games, plies, lines, out)
}

/// Turns byte offsets into places, counting lines forward from the last
/// offset asked for.
struct LineCursor<'a> {
    bytes: &'a [u8],
    base: Place,
    at: usize,
    line: u32,
    line_start: usize,
}

impl<'a> LineCursor<'a> {
    fn new(bytes: &'a [u8], first_line: u32) -> LineCursor<'a> {
        LineCursor {
            bytes,
            base: Place {
                line: first_line,
                col: 1,
            },
            at: 0,
            line: first_line,
            line_start: 0,
        }
    }

    fn place(&mut self, offset: usize) -> Place {
        let offset = offset.min(self.bytes.len());
        if offset < self.at {
            return place_of(self.bytes, offset, self.base);
        }
        for i in memchr::memchr_iter(b'\n', &self.bytes[self.at..offset]) {
            self.line += 1;
            self.line_start = self.at + i + 1;
        }
        self.at = offset;
        let col = place_of(
            &self.bytes[self.line_start..],
            offset - self.line_start,
            Place { line: 0, col: 1 },
        )
        .col;
        Place {
            line: self.line,
            col,
        }
    }
}

/// Scan configuration.
pub struct Config {
    pub paths: Vec<String>,
    pub jobs: usize,
    pub options: ScanOptions,
    pub encoding: Encoding,
    pub progress: bool,
    /// Each finding's board, for the HTML page.
    pub boards: bool,
}

/// Runs the scan, printing with `printer` to `out`.
pub fn run(config: Config, printer: &mut dyn Printer, out: &mut dyn Write) -> io::Result<Summary> {
    let started = Instant::now();
    let items = walk::expand(&config.paths);
    let total_bytes: u64 = items
        .iter()
        .map(|i| match i {
            Item::File(p) if p != "-" => std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
            _ => 0,
        })
        .sum();
    let consumed = Arc::new(AtomicU64::new(0));
    let bar = config.progress.then(|| progress_bar(total_bytes));

    let jobs = config.jobs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(io::Error::other)?;
    let in_flight = 4 * jobs + 2;
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        let _ = token_tx.send(());
    }
    let (result_tx, result_rx) = mpsc::channel::<(u64, Work)>();
    let (done_tx, done_rx) = mpsc::channel::<u64>();
    let options = config.options;
    let encoding = config.encoding;
    let boards = config.boards;
    let producer_consumed = Arc::clone(&consumed);

    std::thread::scope(|scope| -> io::Result<Summary> {
        let pool = &pool;
        scope.spawn(move || {
            let mut seq = 0u64;
            for item in items {
                let (file, path) = match item {
                    Item::Unreadable(p, e) => {
                        let _ = result_tx.send((
                            seq,
                            Work::Failed {
                                file: p.into(),
                                message: format!("cannot read: {e}"),
                            },
                        ));
                        seq += 1;
                        continue;
                    }
                    Item::File(p) => (
                        Arc::<str>::from(if p == "-" { "<stdin>" } else { p.as_str() }),
                        p,
                    ),
                };
                let reader = match open_counted(&path, Arc::clone(&producer_consumed)) {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = result_tx.send((
                            seq,
                            Work::Failed {
                                file,
                                message: format!("cannot read: {e}"),
                            },
                        ));
                        seq += 1;
                        continue;
                    }
                };
                let mut chunker = Chunker::new(reader);
                loop {
                    if token_rx.recv().is_err() {
                        return;
                    }
                    match chunker.next_chunk() {
                        Ok(Some(chunk)) => {
                            let tx = result_tx.clone();
                            let file = Arc::clone(&file);
                            let s = seq;
                            pool.spawn(move || {
                                let (games, plies, lines, findings) =
                                    analyse_chunk_with(&chunk, encoding, &options, boards);
                                let _ = tx.send((
                                    s,
                                    Work::Chunk {
                                        file,
                                        games,
                                        plies,
                                        lines,
                                        findings,
                                    },
                                ));
                            });
                            seq += 1;
                        }
                        Ok(None) => {
                            // The token was not used.
                            let _ = result_tx.send((
                                seq,
                                Work::Chunk {
                                    file: Arc::clone(&file),
                                    games: 0,
                                    plies: 0,
                                    lines: 0,
                                    findings: Vec::new(),
                                },
                            ));
                            seq += 1;
                            break;
                        }
                        Err(e) => {
                            let message = match e.kind() {
                                io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => {
                                    format!("stopped reading: {e} (truncated or corrupt?)")
                                }
                                _ => format!("stopped reading: {e}"),
                            };
                            let _ = result_tx.send((
                                seq,
                                Work::Failed {
                                    file: Arc::clone(&file),
                                    message,
                                },
                            ));
                            seq += 1;
                            break;
                        }
                    }
                }
            }
            let _ = done_tx.send(seq);
        });

        // The printer: results in sequence order.
        let mut summary = Summary::default();
        let mut pending: BTreeMap<u64, Work> = BTreeMap::new();
        let mut next = 0u64;
        let mut total: Option<u64> = None;
        let mut current_file: Option<Arc<str>> = None;
        let mut games_before = 0usize;
        let mut lines_before = 0u32;
        loop {
            if total.is_none()
                && let Ok(t) = done_rx.try_recv()
            {
                total = Some(t);
            }
            if total == Some(next) {
                break;
            }
            while let Some(work) = pending.remove(&next) {
                match work {
                    Work::Failed { file, message } => {
                        summary.failed_inputs += 1;
                        printer.input_error(&file, &message, out)?;
                    }
                    Work::Chunk {
                        file,
                        games,
                        plies,
                        lines,
                        mut findings,
                    } => {
                        if current_file.as_deref() != Some(&*file) {
                            current_file = Some(Arc::clone(&file));
                            games_before = 0;
                            lines_before = 0;
                        }
                        for p in &mut findings {
                            p.place.line += lines_before;
                        }
                        for p in &findings {
                            let sev = p.finding.kind.severity();
                            summary.worst = summary.worst.max(Some(sev));
                            *summary.by_kind.entry(p.finding.kind).or_default() += 1;
                            printer.finding(
                                &Row {
                                    file: &file,
                                    game: games_before + p.game,
                                    placed: p,
                                },
                                out,
                            )?;
                        }
                        games_before += games;
                        lines_before += lines;
                        summary.games += games;
                        summary.plies += plies;
                    }
                }
                let _ = token_tx.try_send(());
                next += 1;
                if let Some(b) = &bar {
                    b.set_position(consumed.load(Ordering::Relaxed));
                }
            }
            if total == Some(next) {
                break;
            }
            match result_rx.recv_timeout(std::time::Duration::from_millis(100)) {
                Ok((seq, work)) => {
                    pending.insert(seq, work);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    if let Ok(t) = done_rx.try_recv() {
                        total = Some(t);
                    }
                    if total.is_none() {
                        break;
                    }
                }
            }
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        printer.totals(summary.games, summary.plies);
        printer.finish(out)?;
        summary.bytes = consumed.load(Ordering::Relaxed);
        summary.seconds = started.elapsed().as_secs_f64();
        Ok(summary)
    })
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
