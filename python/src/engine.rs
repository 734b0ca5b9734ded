//! Every call into the `verify-claim` crate, in one place: the rest of the
//! binding sees the crate's own JSON (claims, positions, findings as
//! `--format jsonl` lines), Arrow batches of findings ([`crate::batches`]),
//! and [`Error`].

use std::io;
use std::sync::mpsc::SyncSender;

use arrow_array::RecordBatch;
pub use verify_claim::{
    ClaimOptions, Diagnostic, DiagnosticKind, FindingLine, Findings, PositionOptions, ScanSettings,
    Stop,
};

use crate::batches::{self, Batch};

/// A problem with the input (its kind, file, place, message) or with the
/// call itself.
#[derive(Debug)]
pub enum Error {
    Input {
        kind: DiagnosticKind,
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
            kind: d.kind,
            file: d.file,
            line: d.place.map(|p| p.line),
            column: d.place.map(|p| p.col),
            message: d.message,
        }
    }
}

/// Where the record comes from.
pub enum Record<'a> {
    Path(&'a std::path::Path),
    /// Text or bytes held in memory, shown as `name`.
    Bytes {
        name: &'a str,
        bytes: &'a [u8],
    },
}

/// A message of the crate that names a CLI flag (`--after 31...Kg8: ...`,
/// `--fen`), worded with the binding's keyword (`after='31...Kg8': ...`).
pub fn unflag(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        let (before, flag) = rest.split_at(at);
        out.push_str(before);
        let name_len = flag[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(flag.len() - 2);
        let name = &flag[2..2 + name_len];
        if name.is_empty() {
            out.push_str("--");
            rest = &flag[2..];
            continue;
        }
        out.push_str(&name.replace('-', "_"));
        rest = &flag[2 + name_len..];
        // `--after 31...Kg8:` and `--game 1`: the value follows a space.
        if let Some(value) = rest.strip_prefix(' ') {
            let end = value
                .find(|c: char| c.is_whitespace() || c == ':' || c == ')' || c == ',')
                .unwrap_or(value.len());
            let v = value[..end].trim_end_matches(['.', ';']);
            if !v.is_empty() {
                out.push('=');
                if v.chars().all(|c| c.is_ascii_digit()) {
                    out.push_str(v);
                } else {
                    out.push_str(&format!("{v:?}"));
                }
                rest = &value[v.len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

pub(crate) fn unflagged(d: Diagnostic) -> Error {
    match Error::from(d) {
        Error::Input {
            kind,
            file,
            line,
            column,
            message,
        } => Error::Input {
            kind,
            file: if file == "--fen" {
                "<fen>".to_owned()
            } else {
                file
            },
            line,
            column,
            message: unflag(&message),
        },
        other => other,
    }
}

/// `verify-claim claim --format json`: the JSON object, as the CLI prints it.
/// Reading a path stops once `stop` is set (Ctrl-C).
pub fn decide(record: Record<'_>, opts: &ClaimOptions, stop: &Stop) -> Result<String, Error> {
    let report = match record {
        Record::Path(p) => verify_claim::decide_path(p, opts, stop),
        Record::Bytes { name, bytes } => verify_claim::decide(name, bytes, opts),
    }
    .map_err(unflagged)?;
    Ok(report.to_json().to_string())
}

/// `verify-claim reconstruct --format json`.
pub fn reconstruct(
    sheets: &[verify_claim::Sheet],
    opts: &verify_claim::ReconstructOptions,
) -> Result<String, Error> {
    Ok(verify_claim::reconstruct(sheets, opts)
        .map_err(unflagged)?
        .to_json()
        .to_string())
}

/// `verify-claim claim --sheet ... --format json`.
pub fn decide_sheets(
    sheets: &[verify_claim::Sheet],
    read: &verify_claim::ReconstructOptions,
    opts: &ClaimOptions,
) -> Result<String, Error> {
    Ok(verify_claim::decide_sheets(sheets, read, opts)
        .map_err(unflagged)?
        .to_json()
        .to_string())
}

/// `verify-claim check-position --format json`.
pub fn check_position(fen: &str, opts: &PositionOptions) -> Result<String, Error> {
    Ok(verify_claim::check_position(fen, opts)
        .map_err(unflagged)?
        .to_json()
        .to_string())
}

/// What a scan sends to the consumer: findings (as whole `\n`-ended JSON
/// lines, as `--format jsonl` prints them, or as an Arrow batch), then one
/// `Done`.
pub enum Msg {
    Lines(Vec<u8>),
    Batch(RecordBatch),
    Done(Result<Totals, Vec<Error>>),
}

/// How findings leave the scan.
pub enum Form {
    Json,
    /// Arrow batches; `Some(task)`: with Spark's `_task` and `_n` columns.
    Arrow(Option<i64>),
}

/// Games and lines read (for a byte range: to number the next range's).
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    pub games: u64,
    pub lines: u64,
}

enum Buffer {
    Json(Vec<u8>),
    Arrow(Box<Batch>),
}

/// Batches of findings for the consumer; a consumer gone away is a broken
/// pipe, which stops the scan.
struct Sink {
    tx: SyncSender<Msg>,
    buf: Buffer,
    errors: Vec<Error>,
}

/// Bytes of JSON lines per batch.
const BATCH: usize = 1 << 15;

impl Sink {
    fn new(tx: SyncSender<Msg>, form: Form) -> Sink {
        let buf = match form {
            Form::Json => Buffer::Json(Vec::new()),
            Form::Arrow(task) => Buffer::Arrow(Box::new(Batch::new(task))),
        };
        Sink {
            tx,
            buf,
            errors: Vec::new(),
        }
    }

    /// One finding, serialised by the crate's own type or into the batch.
    fn finding(&mut self, f: &FindingLine) -> io::Result<()> {
        let full = match &mut self.buf {
            Buffer::Json(buf) => {
                line_into(buf, f)?;
                buf.len() >= BATCH
            }
            Buffer::Arrow(b) => {
                b.push(f);
                b.rows() >= batches::ROWS
            }
        };
        if full { self.flush(false) } else { Ok(()) }
    }

    /// What is buffered to the consumer; `last`: an Arrow scan with no
    /// finding still sends one (empty) batch, which carries the schema.
    fn flush(&mut self, last: bool) -> io::Result<()> {
        let msg = match &mut self.buf {
            Buffer::Json(buf) if buf.is_empty() => return Ok(()),
            Buffer::Json(buf) => Msg::Lines(std::mem::take(buf)),
            Buffer::Arrow(b) if b.rows() == 0 && !last => return Ok(()),
            Buffer::Arrow(b) => Msg::Batch(b.finish().map_err(io::Error::other)?),
        };
        self.tx
            .send(msg)
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }

    /// Every item of `findings` to the consumer, then the totals, or the
    /// inputs that could not be read, or what ended the scan.
    fn drain(mut self, mut findings: Findings) {
        let mut last = None;
        for item in findings.by_ref() {
            match item {
                Ok(f) => {
                    if self.finding(&f).is_err() {
                        return;
                    }
                }
                Err(d) => {
                    self.errors.extend(last.take().map(unflagged));
                    last = Some(d);
                }
            }
        }
        let done = match findings.summary() {
            Some(s) => {
                self.errors.extend(last.map(unflagged));
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
        if self.flush(true).is_ok() {
            let _ = self.tx.send(Msg::Done(done));
        }
    }
}

fn line_into(buf: &mut Vec<u8>, f: &FindingLine) -> io::Result<()> {
    serde_json::to_writer(&mut *buf, f).map_err(io::Error::other)?;
    buf.push(b'\n');
    Ok(())
}

/// What a scan reads.
pub enum What {
    /// Files and directories, walked (`verify-claim scan PATHS`).
    Paths(Vec<std::path::PathBuf>),
    /// Records in memory, named `name` (`verify-claim scan -`).
    Bytes { name: String, data: Vec<u8> },
    /// One Spark task: a whole file (decompressed), no error if it holds
    /// no game.
    File(String),
    /// One Spark task: the games that start in bytes `[start, end)` of a
    /// plain file, numbered from the range's first game.
    Range { path: String, start: u64, end: u64 },
    /// One Spark task: the games that start in frame runs `[first, end)`
    /// of a multi-frame `.zst`, numbered from the first run's first game.
    Frames { path: String, first: u64, end: u64 },
}

/// Starts the scan on threads of its own (the findings come as it goes;
/// [`Findings::stopper`] stops it).
pub fn start(what: What, settings: &ScanSettings) -> Findings {
    match what {
        What::Paths(paths) => verify_claim::scan_paths(&paths, settings),
        What::Bytes { name, data } => {
            verify_claim::scan_reader(&name, io::Cursor::new(data), settings)
        }
        What::File(path) => verify_claim::scan(verify_claim::Source::File(path), settings),
        What::Range { path, start, end } => verify_claim::scan_range(&path, start, end, settings),
        What::Frames { path, first, end } => verify_claim::scan_frames(&path, first, end, settings),
    }
}

/// Hands the findings to `tx` as `form`, blocking until the scan is over
/// (or the receiver is gone).
pub fn drain(findings: Findings, form: Form, tx: SyncSender<Msg>) {
    Sink::new(tx, form).drain(findings);
}

/// Many small records (one game each, as tables store them): the findings
/// of each, as one Arrow batch and the number of findings of each record.
pub fn scan_texts(
    texts: &[Option<&[u8]>],
    name: &str,
    settings: &ScanSettings,
) -> Result<(RecordBatch, Vec<i32>), Error> {
    let mut batch = Batch::new(None);
    let mut offsets = Vec::with_capacity(texts.len() + 1);
    offsets.push(0i32);
    for t in texts {
        if let Some(t) = t {
            let mut findings = verify_claim::scan_bytes(name, t, settings);
            for item in findings.by_ref() {
                batch.push(&item.map_err(unflagged)?);
            }
        }
        offsets.push(i32::try_from(batch.rows()).map_err(|_| {
            Error::Usage("scan_column: more than 2^31 findings in one batch".to_owned())
        })?);
    }
    let batch = batch.finish().map_err(|e| Error::Failed(e.to_string()))?;
    Ok((batch, offsets))
}

/// A file a scan covers: its name, size, whether byte ranges of it can be
/// scanned, and its frame runs' compressed sizes (a multi-frame `.zst`).
pub type Listed = (String, u64, bool, Vec<u64>);

/// The files a scan of `paths` covers, in the CLI's order; unreadable
/// paths are errors.
pub fn expand(paths: &[String], follow: bool) -> Result<Vec<Listed>, Error> {
    verify_claim::input_files(paths, follow)
        .into_iter()
        .map(|f| {
            f.map(|f| (f.path, f.len, f.plain, f.runs))
                .map_err(unflagged)
        })
        .collect()
}
