//! Every call into the `verify-claim` crate, in one place: the rest of the
//! binding sees only strings (the crate's own JSON, as its printers write it)
//! and [`Error`].

use std::io;
use std::sync::mpsc::SyncSender;

pub use verify_claim::{
    ClaimKind, ClaimOptions, DeadSearch, Diagnostic, Edition, FindingLine, Findings,
    PositionOptions, RulesChoice, ScanOptions, ScanSettings, Search,
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
    /// The scan itself failed (a worker's panic): `RuntimeError`.
    Failed(String),
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
        Record::Path(p) => verify_claim::decide_file(p, &opts)?,
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

    /// Every item of `findings` to the consumer, then the totals, or the
    /// inputs that could not be read, or what ended the scan.
    fn drain(mut self, mut findings: Findings) {
        let mut last = None;
        for item in findings.by_ref() {
            match item {
                Ok(f) => {
                    if self.line(&f).is_err() {
                        return;
                    }
                }
                Err(d) => {
                    self.errors.extend(last.take().map(Error::from));
                    last = Some(d);
                }
            }
        }
        let done = match findings.summary() {
            Some(s) => {
                self.errors.extend(last.map(Error::from));
                let totals = Totals {
                    games: s.games as u64,
                    lines: s.lines,
                };
                if self.errors.is_empty() {
                    Ok(totals)
                } else {
                    Err(std::mem::take(&mut self.errors))
                }
            }
            // The scan ended early: its last item says why.
            None => Err(vec![Error::Failed(
                last.map_or_else(|| "the scan stopped".to_owned(), |d| d.to_string()),
            )]),
        };
        if self.flush().is_ok() {
            let _ = self.tx.send(Msg::Done(done));
        }
    }
}

fn line_into(buf: &mut Vec<u8>, f: &FindingLine) -> io::Result<()> {
    serde_json::to_writer(&mut *buf, f).map_err(io::Error::other)?;
    buf.push(b'\n');
    Ok(())
}

fn settings(jobs: usize, options: ScanOptions) -> ScanSettings {
    ScanSettings {
        jobs: Some(jobs),
        options,
        ..ScanSettings::default()
    }
}

/// `verify-claim scan --format jsonl` over paths (files, directories,
/// compressed files), on `jobs` threads; blocks until done.
pub fn scan_paths(paths: Vec<String>, jobs: usize, opts: ScanOptions, tx: SyncSender<Msg>) {
    Sink::new(tx).drain(verify_claim::scan_paths(&paths, &settings(jobs, opts)));
}

/// The same over records in memory, named `name`.
pub fn scan_bytes(name: &str, data: Vec<u8>, jobs: usize, opts: ScanOptions, tx: SyncSender<Msg>) {
    let findings = verify_claim::scan_reader(name, io::Cursor::new(data), &settings(jobs, opts));
    Sink::new(tx).drain(findings);
}

/// One Spark task over a whole file (decompressed), on one core.
pub fn scan_file(path: String, opts: ScanOptions, tx: SyncSender<Msg>) {
    let source = verify_claim::Source::File(path);
    Sink::new(tx).drain(verify_claim::scan(source, &settings(1, opts)));
}

/// One Spark task over the games that start in bytes `[start, end)` of a
/// plain file; game and line numbers count from the range's first game.
pub fn scan_range(path: &str, (start, end): (u64, u64), opts: ScanOptions, tx: SyncSender<Msg>) {
    let findings = verify_claim::scan_range(path, start, end, &settings(1, opts));
    Sink::new(tx).drain(findings);
}

/// Many small records (one game each, as tables store them): the JSON
/// lines of each.
pub fn scan_texts(
    texts: &[Vec<u8>],
    name: &str,
    opts: &ScanOptions,
) -> Result<Vec<Vec<u8>>, Error> {
    let settings = settings(1, *opts);
    let mut out = Vec::with_capacity(texts.len());
    for t in texts {
        let mut lines = Vec::new();
        let mut findings = verify_claim::scan_bytes(name, t, &settings);
        for item in findings.by_ref() {
            line_into(&mut lines, &item?).map_err(|e| input_error(name, e.to_string()))?;
        }
        out.push(lines);
    }
    Ok(out)
}

/// The files a scan of `paths` covers, in the CLI's order, with their
/// sizes and whether byte ranges of them can be scanned; unreadable paths
/// are errors.
pub fn expand(paths: &[String]) -> Result<Vec<(String, u64, bool)>, Error> {
    verify_claim::input_files(paths, false)
        .into_iter()
        .map(|f| f.map(|f| (f.path, f.len, f.plain)).map_err(Error::from))
        .collect()
}
