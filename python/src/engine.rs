//! Every call into the `verify-claim` crate, in one place: the rest of the
//! binding sees only strings (the crate's own JSON, as its printers write it)
//! and [`Error`].

use std::io::{self, Read};
use std::sync::mpsc::SyncSender;

use verify_claim::claims::scan::RulesChoice;
use verify_claim::input::chunks::{Chunk, Chunker};
use verify_claim::input::ranges::Ranges;
use verify_claim::report::scan::Row;
pub use verify_claim::{
    ClaimKind, ClaimOptions, DeadSearch, Diagnostic, Edition, FindingLine, PositionOptions,
    ScanOptions, ScanSettings, Search,
};

/// A problem with the input (file, place, message) or with the call itself.
#[derive(Debug)]
pub enum Error {
    Input {
        file: String,
        line: Option<u32>,
        column: Option<u32>,
        message: String,
    },
    /// A bad argument value (the binding raises `ValueError`).
    Usage(String),
}

impl From<Diagnostic> for Error {
    fn from(d: Diagnostic) -> Error {
        Error::Input {
            file: d.file,
            line: d.place.map(|p| p.line),
            column: d.place.map(|p| p.col),
            message: d.message,
        }
    }
}

fn input_error(file: &str, message: String) -> Error {
    Error::Input {
        file: file.to_owned(),
        line: None,
        column: None,
        message,
    }
}

const RULES: [&str; 5] = ["auto", "fide-2009", "fide-2014", "fide-2018", "fide-2023"];
const CLAIMS: [&str; 5] = [
    "any",
    "threefold",
    "fifty",
    "repetition",
    "unchanged-material",
];

fn one_of(what: &str, value: &str, allowed: &[&str]) -> Result<(), Error> {
    if allowed.contains(&value) {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "{what}={value:?}: expected one of {}",
            allowed.join(", ")
        )))
    }
}

fn search_of(value: &str) -> Result<Search, Error> {
    match value {
        "quick" => Ok(Search::Quick),
        "full" => Ok(Search::Full),
        _ => Err(Error::Usage(format!(
            "search={value:?}: expected \"quick\" or \"full\""
        ))),
    }
}

/// What `decide` is asked.
pub struct Claim<'a> {
    pub written: Option<&'a str>,
    pub ply: Option<usize>,
    pub after: Option<&'a str>,
    pub game: Option<usize>,
    pub claim: &'a str,
    pub rules: &'a str,
}

/// Where the record comes from.
pub enum Record<'a> {
    Path(&'a str),
    /// Text or bytes held in memory, shown as `name`.
    Bytes {
        name: &'a str,
        bytes: &'a [u8],
    },
}

fn edition_of(rules: &str) -> Result<Option<Edition>, Error> {
    one_of("rules", rules, &RULES)?;
    Ok(Edition::from_name(rules))
}

/// `verify-claim claim --format json`: the JSON object, as the CLI prints it.
pub fn decide(record: Record<'_>, c: &Claim<'_>) -> Result<String, Error> {
    one_of("claim", c.claim, &CLAIMS)?;
    let opts = ClaimOptions {
        written_move: c.written.map(str::to_owned),
        after: c.after.map(str::to_owned),
        ply: c.ply,
        game: c.game,
        claim: match c.claim {
            "threefold" | "repetition" => ClaimKind::Repetition,
            "fifty" | "unchanged-material" => ClaimKind::Count,
            _ => ClaimKind::Any,
        },
        rules: edition_of(c.rules)?,
        dead_search: DeadSearch(Search::Full),
        ..ClaimOptions::default()
    };
    let report = match record {
        Record::Path(p) => {
            let mut bytes = Vec::new();
            open_whole(p)?
                .read_to_end(&mut bytes)
                .map_err(|e| input_error(p, format!("cannot read: {e}")))?;
            verify_claim::decide(p, &bytes, &opts)?
        }
        Record::Bytes { name, bytes } => verify_claim::decide(name, bytes, &opts)?,
    };
    Ok(report.to_json().to_string())
}

/// `verify-claim check-position --format json`.
pub fn check_position(fen: &str, search: &str) -> Result<String, Error> {
    let opts = PositionOptions {
        search: search_of(search)?,
        ..PositionOptions::default()
    };
    Ok(verify_claim::check_position(fen, &opts)?
        .to_json()
        .to_string())
}

/// Scan options from the binding's arguments.
pub fn scan_options(rules: &str, dead_search: &str) -> Result<ScanOptions, Error> {
    Ok(ScanOptions {
        rules: edition_of(rules)?.map_or(RulesChoice::Auto, RulesChoice::Fixed),
        dead_search: search_of(dead_search)?,
        ..ScanOptions::default()
    })
}

/// What a scan sends to the consumer: JSON lines (whole lines, `\n`-ended,
/// as `--format jsonl` prints them), then one `Done`.
pub enum Msg {
    Lines(Vec<u8>),
    Done(Result<Totals, Vec<Error>>),
}

/// Games and lines read (for a byte range: to number the next range's).
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    pub games: u64,
    pub lines: u64,
}

/// Batches of JSON lines for the consumer; a consumer gone away is a
/// broken pipe, which stops the scan.
struct Sink {
    tx: SyncSender<Msg>,
    buf: Vec<u8>,
    errors: Vec<Error>,
}

const BATCH: usize = 1 << 15;

impl Sink {
    fn new(tx: SyncSender<Msg>) -> Sink {
        Sink {
            tx,
            buf: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// One finding, serialised by the crate's own type.
    fn line(&mut self, f: &FindingLine) -> io::Result<()> {
        line_into(&mut self.buf, f)?;
        if self.buf.len() >= BATCH {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.buf);
        self.tx
            .send(Msg::Lines(batch))
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }

    fn finish(mut self, result: io::Result<Totals>) {
        let errors = std::mem::take(&mut self.errors);
        let done = match result {
            Ok(t) if errors.is_empty() => self.flush().map(|()| Ok(t)),
            Ok(_) => self.flush().map(|()| Err(errors)),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return,
            Err(e) => Ok(Err(vec![input_error("scan", e.to_string())])),
        };
        if let Ok(done) = done {
            let _ = self.tx.send(Msg::Done(done));
        }
    }
}

fn line_into(buf: &mut Vec<u8>, f: &FindingLine) -> io::Result<()> {
    serde_json::to_writer(&mut *buf, f).map_err(io::Error::other)?;
    buf.push(b'\n');
    Ok(())
}

/// `verify-claim scan --format jsonl` over paths (files, directories,
/// compressed files), on `jobs` threads; blocks until done.
pub fn scan_paths(paths: Vec<String>, jobs: usize, opts: ScanOptions, tx: SyncSender<Msg>) {
    let settings = ScanSettings {
        jobs: Some(jobs),
        options: opts,
        ..ScanSettings::default()
    };
    let mut sink = Sink::new(tx);
    let mut findings = verify_claim::scan_paths(&paths, &settings);
    let result = (|| {
        for item in findings.by_ref() {
            match item {
                Ok(f) => sink.line(&f)?,
                Err(d) => sink.errors.push(d.into()),
            }
        }
        Ok(Totals {
            games: findings.summary().map_or(0, |s| s.games as u64),
            lines: 0,
        })
    })();
    sink.finish(result);
}

/// The same over a stream (text in memory, a byte range of a file, one
/// compressed file), named `name`: chunks analysed `jobs` at a time on a
/// pool, in order; game and line numbers count from the stream's start.
pub fn scan_stream(
    name: &str,
    reader: impl Read,
    jobs: usize,
    opts: ScanOptions,
    tx: SyncSender<Msg>,
) {
    let mut sink = Sink::new(tx);
    let pool = (jobs > 1).then(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(io::Error::other)
    });
    let result = pool.transpose().and_then(|pool| {
        let (totals, error) = stream(name, reader, pool.as_ref(), &opts, &mut |f| sink.line(f))?;
        sink.errors.extend(error);
        Ok(totals)
    });
    sink.finish(result);
}

/// Many small records (one game each, as tables store them): the JSON
/// lines of each, on the calling thread.
pub fn scan_texts(
    texts: &[Vec<u8>],
    name: &str,
    opts: &ScanOptions,
) -> Result<Vec<Vec<u8>>, Error> {
    let mut out = Vec::with_capacity(texts.len());
    for t in texts {
        let mut lines = Vec::new();
        let (_, error) = stream(name, &t[..], None, opts, &mut |f| line_into(&mut lines, f))
            .map_err(|e| input_error(name, e.to_string()))?;
        if let Some(e) = error {
            return Err(e);
        }
        out.push(lines);
    }
    Ok(out)
}

/// Scans a stream chunk by chunk (`pool`'s width at a time), handing each
/// finding to `emit` in order. A stream that stops being readable ends the
/// scan with that error.
fn stream(
    name: &str,
    reader: impl Read,
    pool: Option<&rayon::ThreadPool>,
    opts: &ScanOptions,
    emit: &mut dyn FnMut(&FindingLine) -> io::Result<()>,
) -> io::Result<(Totals, Option<Error>)> {
    let width = pool.map_or(1, |p| p.current_num_threads());
    let mut chunker = Chunker::new(reader);
    let mut totals = Totals::default();
    loop {
        let mut batch = Vec::with_capacity(width);
        while batch.len() < width {
            match chunker.next_chunk() {
                Ok(Some(c)) => batch.push(c),
                Ok(None) => break,
                Err(e) => {
                    let error = input_error(name, format!("stopped reading: {e}"));
                    let totals = emit_chunks(name, batch, pool, opts, totals, emit)?;
                    return Ok((totals, Some(error)));
                }
            }
        }
        if batch.is_empty() {
            return Ok((totals, None));
        }
        totals = emit_chunks(name, batch, pool, opts, totals, emit)?;
    }
}

/// Analyses chunks (in parallel on `pool`), emitting their findings in
/// order, numbered after the games and lines of `before`.
fn emit_chunks(
    name: &str,
    batch: Vec<Chunk>,
    pool: Option<&rayon::ThreadPool>,
    opts: &ScanOptions,
    mut totals: Totals,
    emit: &mut dyn FnMut(&FindingLine) -> io::Result<()>,
) -> io::Result<Totals> {
    use rayon::prelude::*;
    use verify_claim::scan::analyse_chunk;
    let analyse = |c: &Chunk| analyse_chunk(c, Default::default(), opts);
    let results: Vec<_> = match pool {
        Some(pool) => pool.install(|| batch.par_iter().map(analyse).collect()),
        None => batch.iter().map(analyse).collect(),
    };
    for (games, _, lines, mut findings) in results {
        for p in &mut findings {
            p.place.line += totals.lines as u32;
            emit(&FindingLine::new(&Row {
                file: name,
                game: totals.games as usize + p.game,
                placed: p,
            }))?;
        }
        totals.games += games as u64;
        totals.lines += u64::from(lines);
    }
    Ok(totals)
}

/// The files a scan of `paths` covers, in the CLI's order, with their
/// sizes and whether they are compressed; unreadable paths are errors.
pub fn expand(paths: &[String]) -> Result<Vec<(String, u64, bool)>, Error> {
    use verify_claim::input::open::Compression;
    use verify_claim::input::walk::{Item, expand};
    let mut out = Vec::new();
    for item in expand(paths) {
        match item {
            Item::File(path) => {
                // Python gets the printed name (a name that is not UTF-8
                // is escaped, `\xHH`, and cannot be opened from it yet).
                let p = verify_claim::input::walk::display_name(&path);
                let meta = std::fs::metadata(&path)
                    .map_err(|e| input_error(&p, format!("cannot read: {e}")))?;
                let mut head = [0u8; 4];
                let n = std::fs::File::open(&path)
                    .and_then(|mut f| f.read(&mut head))
                    .map_err(|e| input_error(&p, format!("cannot read: {e}")))?;
                let compressed = Compression::from_path(&path)
                    .unwrap_or_else(|| Compression::from_magic(&head[..n]))
                    != Compression::None;
                out.push((p, meta.len(), compressed));
            }
            Item::Unreadable(p, e) => return Err(input_error(&p, format!("cannot read: {e}"))),
            // Left out of the walk, as the CLI does (it only warns).
            Item::Skipped(..) => {}
        }
    }
    Ok(out)
}

/// The crate's segment size for plain files (the aimed-for chunk size).
pub const SEGMENT: u64 = verify_claim::input::ranges::SEGMENT;

/// The games that start in segments `from..to` of a plain file cut into
/// segments of `segment` bytes (the crate's [`Ranges`]: every caller cuts
/// the file the same way, so the tasks of one file meet exactly), named
/// `path`; game and line numbers count from the first of those segments.
pub fn scan_segments(
    path: &str,
    segment: u64,
    (from, to): (u64, u64),
    opts: ScanOptions,
    tx: SyncSender<Msg>,
) {
    let mut sink = Sink::new(tx);
    let result = segments(path, segment, from, to).and_then(|ranges| {
        let mut totals = Totals::default();
        for k in from..to {
            let chunk = ranges.chunk(k)?;
            let t = emit_chunks(path, vec![chunk], None, &opts, totals, &mut |f| {
                sink.line(f)
            })?;
            totals = t;
        }
        Ok(totals)
    });
    let result = match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            sink.errors
                .push(input_error(path, format!("cannot read: {e}")));
            Ok(Totals::default())
        }
        r => r,
    };
    sink.finish(result);
}

fn segments(path: &str, segment: u64, from: u64, to: u64) -> io::Result<Ranges> {
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let ranges = Ranges::with_segment(file, len, segment);
    if from > to || to > ranges.segments() {
        return Err(io::Error::other(format!(
            "segments {from}..{to} of {}",
            ranges.segments()
        )));
    }
    Ok(ranges)
}

/// The chunks of a plain file cut into segments of `segment` bytes: with
/// small segments, nearly one game each (for tables of one game a row).
pub fn plain_chunks(path: &str, segment: u64) -> Result<Vec<Vec<u8>>, Error> {
    let fail = |e: io::Error| input_error(path, format!("cannot read: {e}"));
    let file = std::fs::File::open(path).map_err(fail)?;
    let len = file.metadata().map_err(fail)?.len();
    let ranges = Ranges::with_segment(file, len, segment.max(1));
    let mut out = Vec::new();
    for k in 0..ranges.segments() {
        let c = ranges.chunk(k).map_err(fail)?;
        if !c.bytes.is_empty() {
            out.push(c.bytes);
        }
    }
    Ok(out)
}

/// A reader over a whole file, decompressed.
pub fn open_whole(path: &str) -> Result<Box<dyn Read + Send>, Error> {
    verify_claim::input::open::open(path)
        .map_err(|e| input_error(path, format!("cannot read: {e}")))
}
