//! Every call into the `verify-claim` crate, in one place: the rest of the
//! binding sees only strings (the crate's own JSON, as its printers write it)
//! and [`Error`].

use std::io::{self, Read, Seek, SeekFrom};
use std::sync::mpsc::SyncSender;

use verify_claim::claims::scan::RulesChoice;
use verify_claim::input::chunks::{Chunk, Chunker, last_boundary};
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
            let input = verify_claim::input::read(p)?;
            verify_claim::decide(&input.name, &input.bytes, &opts)?
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
    use rayon::prelude::*;
    use verify_claim::scan::analyse_chunk;
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
                    return Ok((totals, Some(error)));
                }
            }
        }
        if batch.is_empty() {
            return Ok((totals, None));
        }
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
    }
}

/// The files a scan of `paths` covers, in the CLI's order, with their
/// sizes and whether they are compressed; unreadable paths are errors.
pub fn expand(paths: &[String]) -> Result<Vec<(String, u64, bool)>, Error> {
    use verify_claim::input::open::Compression;
    use verify_claim::input::walk::{Item, expand};
    let mut out = Vec::new();
    for item in expand(paths) {
        match item {
            Item::File(p) => {
                let meta = std::fs::metadata(&p)
                    .map_err(|e| input_error(&p, format!("cannot read: {e}")))?;
                let mut head = [0u8; 4];
                let n = std::fs::File::open(&p)
                    .and_then(|mut f| f.read(&mut head))
                    .map_err(|e| input_error(&p, format!("cannot read: {e}")))?;
                let compressed = Compression::from_name(&p)
                    .unwrap_or_else(|| Compression::from_magic(&head[..n]))
                    != Compression::None;
                out.push((p, meta.len(), compressed));
            }
            Item::Unreadable(p, e) => return Err(input_error(&p, format!("cannot read: {e}"))),
        }
    }
    Ok(out)
}

/// The first game boundary at or after `offset` in a plain file (its
/// length when there is none): where a byte range that starts or ends at
/// `offset` really starts or ends. Every caller asking about the same
/// offset gets the same answer, so ranges cut this way tile the file.
pub fn boundary_at_or_after(path: &str, offset: u64) -> Result<u64, Error> {
    let fail = |e: io::Error| input_error(path, format!("cannot read: {e}"));
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let len = file.metadata().map_err(fail)?.len();
    if offset == 0 || offset >= len {
        return Ok(offset.min(len));
    }
    // Start one line end before `offset`, so every line looked at is whole.
    let from = offset.saturating_sub(1 << 16);
    file.seek(SeekFrom::Start(from)).map_err(fail)?;
    let mut window = Vec::new();
    let mut want = (offset - from) + (1 << 20);
    loop {
        window.clear();
        file.seek(SeekFrom::Start(from)).map_err(fail)?;
        (&mut file)
            .take(want)
            .read_to_end(&mut window)
            .map_err(fail)?;
        let rel = ((offset - from) as usize).min(window.len());
        let first_line = if from == 0 {
            0
        } else {
            memchr_pos(&window[..rel]).unwrap_or(rel)
        };
        if let Some(i) = first_boundary(&window, first_line, rel) {
            return Ok(from + i as u64);
        }
        if from + (window.len() as u64) >= len {
            return Ok(len);
        }
        want *= 2;
    }
}

/// The start of the first whole line in `w`, if a line ends in it.
fn memchr_pos(w: &[u8]) -> Option<usize> {
    w.iter().position(|&b| b == b'\n').map(|i| i + 1)
}

/// The first boundary at or after `at` in `w[start..]`, by the crate's rule
/// (`last_boundary` asked about one candidate at a time).
fn first_boundary(w: &[u8], start: usize, at: usize) -> Option<usize> {
    let w = &w[start..];
    let at = at.checked_sub(start)?;
    let mut i = at;
    while let Some(k) = w.get(i..)?.iter().position(|&b| b == b'[') {
        let cand = i + k;
        let line_end = w[cand..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(w.len(), |e| cand + e);
        if last_boundary(&w[..line_end], cand) == Some(cand) {
            return Some(start + cand);
        }
        i = cand + 1;
    }
    None
}

/// A reader over `[start, end)` of a plain file, or over a whole file
/// decompressed (`end` = `None`).
pub fn open_range(path: &str, start: u64, end: Option<u64>) -> Result<Box<dyn Read + Send>, Error> {
    let fail = |e: io::Error| input_error(path, format!("cannot read: {e}"));
    match end {
        None => verify_claim::input::open::open(path).map_err(fail),
        Some(end) => {
            let mut f = std::fs::File::open(path).map_err(fail)?;
            f.seek(SeekFrom::Start(start)).map_err(fail)?;
            Ok(Box::new(io::BufReader::new(
                f.take(end.saturating_sub(start)),
            )))
        }
    }
}
