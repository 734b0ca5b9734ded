//! Every call into the `verify-claim` crate, in one place: the rest of the
//! binding sees only strings (the crate's own JSON, as its printers write it)
//! and [`Error`].

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::mpsc::SyncSender;

pub use verify_claim::claims::scan::ScanOptions;
use verify_claim::claims::scan::RulesChoice;
use verify_claim::diag::Diagnostic;
use verify_claim::game::Search;
use verify_claim::input::chunks::{Chunker, last_boundary};
use verify_claim::laws::Edition;
use verify_claim::record::Encoding;
use verify_claim::report::scan::{Jsonl, Printer, Row};

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

/// Runs the command line in-process and returns what it printed.
fn run_cli(args: Vec<String>) -> Result<(String, i32), Error> {
    let mut argv: Vec<std::ffi::OsString> = vec!["verify-claim".into()];
    argv.extend(args.into_iter().map(Into::into));
    let out = verify_claim::cli::run(argv)?;
    Ok((out.stdout, out.status))
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
    Bytes { name: &'a str, bytes: &'a [u8] },
}

/// `verify-claim claim --format json`: the JSON object, as the CLI prints it.
pub fn decide(record: Record<'_>, c: &Claim<'_>) -> Result<String, Error> {
    one_of("claim", c.claim, &CLAIMS)?;
    one_of("rules", c.rules, &RULES)?;
    let mut args = vec![
        "claim".to_owned(),
        "--format=json".to_owned(),
        format!("--claim={}", c.claim),
        format!("--rules={}", c.rules),
    ];
    if let Some(m) = c.written {
        args.push(format!("--move={m}"));
    }
    if let Some(p) = c.ply {
        args.push(format!("--ply={p}"));
    }
    if let Some(a) = c.after {
        args.push(format!("--after={a}"));
    }
    if let Some(g) = c.game {
        args.push(format!("--game={g}"));
    }
    match record {
        Record::Path(p) => {
            args.push("--".to_owned());
            args.push(p.to_owned());
            Ok(run_cli(args)?.0)
        }
        Record::Bytes { name, bytes } => decide_bytes(args, name, bytes),
    }
}

/// Until the crate decides from bytes directly: the bytes go through a
/// private temporary file, and its name is replaced by `name`.
fn decide_bytes(mut args: Vec<String>, name: &str, bytes: &[u8]) -> Result<String, Error> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "verify-claim-py-{}-{}.pgn",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, bytes).map_err(|e| input_error(name, format!("cannot write: {e}")))?;
    let tmp = path.to_string_lossy().into_owned();
    args.push("--".to_owned());
    args.push(tmp.clone());
    let result = run_cli(args);
    let _ = std::fs::remove_file(&path);
    match result {
        Ok((json, _)) => {
            let mut v: serde_json::Value = serde_json::from_str(&json)
                .map_err(|e| input_error(name, format!("internal: {e}")))?;
            v["file"] = serde_json::Value::from(name);
            Ok(v.to_string())
        }
        Err(Error::Input {
            file,
            line,
            column,
            message,
        }) => Err(Error::Input {
            file: if file == tmp { name.to_owned() } else { file },
            line,
            column,
            message: message.replace(&tmp, name),
        }),
        Err(e) => Err(e),
    }
}

/// `verify-claim check-position --format json`.
pub fn check_position(fen: &str, search: &str) -> Result<String, Error> {
    search_of(search)?;
    let args = vec![
        "check-position".to_owned(),
        format!("--fen={fen}"),
        "--format=json".to_owned(),
        format!("--dead-search={search}"),
    ];
    Ok(run_cli(args)?.0)
}

/// Scan options from the binding's arguments.
pub fn scan_options(rules: &str, dead_search: &str) -> Result<ScanOptions, Error> {
    one_of("rules", rules, &RULES)?;
    let rules = match rules {
        "auto" => RulesChoice::Auto,
        r => RulesChoice::Fixed(
            Edition::from_name(r).ok_or_else(|| Error::Usage(format!("rules={r:?}")))?,
        ),
    };
    Ok(ScanOptions {
        rules,
        min_draw_moves: None,
        dead_search: search_of(dead_search)?,
        column_rules: Default::default(),
        game_type: None,
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

/// A `Write` that hands complete batches of lines to the consumer; a
/// consumer gone away is a broken pipe, which stops the scan.
struct Sink {
    tx: SyncSender<Msg>,
    buf: Vec<u8>,
}

const BATCH: usize = 1 << 15;

impl Write for Sink {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= BATCH && self.buf.ends_with(b"\n") {
            self.flush()?;
        }
        Ok(data.len())
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
}

/// The JSON-lines printer, keeping input errors for the caller instead of
/// printing them on stderr.
struct Collect {
    errors: Vec<Error>,
}

impl Printer for Collect {
    fn finding(&mut self, row: &Row<'_>, out: &mut dyn Write) -> io::Result<()> {
        Jsonl.finding(row, out)
    }
    fn input_error(&mut self, file: &str, message: &str, _: &mut dyn Write) -> io::Result<()> {
        self.errors.push(input_error(file, message.to_owned()));
        Ok(())
    }
}

fn finish(mut sink: Sink, result: io::Result<Totals>, errors: Vec<Error>) {
    let done = match result {
        Ok(t) if errors.is_empty() => sink.flush().map(|()| Ok(t)),
        Ok(_) => sink.flush().map(|()| Err(errors)),
        Err(e) => Ok(Err(vec![input_error("verify-claim scan", e.to_string())])),
    };
    if let Ok(done) = done {
        let _ = sink.tx.send(Msg::Done(done));
    }
}

/// `verify-claim scan --format jsonl` over paths (files, directories,
/// compressed files), on `jobs` threads; blocks until done.
pub fn scan_paths(paths: Vec<String>, jobs: usize, opts: ScanOptions, tx: SyncSender<Msg>) {
    let config = verify_claim::scan::Config {
        paths,
        jobs,
        options: opts,
        encoding: Encoding::Utf8,
        progress: false,
    };
    let mut printer = Collect { errors: Vec::new() };
    let mut sink = Sink {
        tx,
        buf: Vec::new(),
    };
    let result = verify_claim::scan::run(config, &mut printer, &mut sink).map(|s| Totals {
        games: s.games as u64,
        lines: 0,
    });
    finish(sink, result, printer.errors);
}

/// The same over a stream (text in memory, a byte range of a file, one
/// compressed file), named `name`: chunks analysed `jobs` at a time on a
/// pool, printed in order; game and line numbers count from the stream's
/// start.
pub fn scan_stream(
    name: &str,
    reader: impl Read,
    jobs: usize,
    opts: ScanOptions,
    tx: SyncSender<Msg>,
) {
    let mut printer = Collect { errors: Vec::new() };
    let mut sink = Sink {
        tx,
        buf: Vec::new(),
    };
    let pool = (jobs > 1).then(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(io::Error::other)
    });
    let result = match pool.transpose() {
        Ok(pool) => stream(name, reader, pool.as_ref(), &opts, &mut printer, &mut sink),
        Err(e) => Err(e),
    };
    finish(sink, result, printer.errors);
}

/// Many small records (one game each, as tables store them): the JSON
/// lines of each, on the calling thread.
pub fn scan_texts(texts: &[Vec<u8>], name: &str, opts: &ScanOptions) -> Result<Vec<Vec<u8>>, Error> {
    let mut out = Vec::with_capacity(texts.len());
    for t in texts {
        let mut printer = Collect { errors: Vec::new() };
        let mut lines = Vec::new();
        stream(name, &t[..], None, opts, &mut printer, &mut lines)
            .map_err(|e| input_error(name, e.to_string()))?;
        if let Some(e) = printer.errors.pop() {
            return Err(e);
        }
        out.push(lines);
    }
    Ok(out)
}

fn stream(
    name: &str,
    reader: impl Read,
    pool: Option<&rayon::ThreadPool>,
    opts: &ScanOptions,
    printer: &mut Collect,
    out: &mut dyn Write,
) -> io::Result<Totals> {
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
                    printer.input_error(name, &format!("stopped reading: {e}"), out)?;
                    return Ok(totals);
                }
            }
        }
        if batch.is_empty() {
            return Ok(totals);
        }
        let analyse = |c: &verify_claim::input::chunks::Chunk| analyse_chunk(c, Encoding::Utf8, opts);
        let results: Vec<_> = match pool {
            Some(pool) => pool.install(|| batch.par_iter().map(analyse).collect()),
            None => batch.iter().map(analyse).collect(),
        };
        for (games, _, lines, mut findings) in results {
            for p in &mut findings {
                p.place.line += totals.lines as u32;
                let row = Row {
                    file: name,
                    game: totals.games as usize + p.game,
                    placed: p,
                };
                printer.finding(&row, out)?;
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
pub fn open_range(
    path: &str,
    start: u64,
    end: Option<u64>,
) -> Result<Box<dyn Read + Send>, Error> {
    let fail = |e: io::Error| input_error(path, format!("cannot read: {e}"));
    match end {
        None => verify_claim::input::open::open(path).map_err(fail),
        Some(end) => {
            let mut f = std::fs::File::open(path).map_err(fail)?;
            f.seek(SeekFrom::Start(start)).map_err(fail)?;
            Ok(Box::new(io::BufReader::new(f.take(end.saturating_sub(start)))))
        }
    }
}
