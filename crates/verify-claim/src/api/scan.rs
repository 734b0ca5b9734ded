//! Scanning archives as a library: the same pipeline as `verify-claim scan`
//! (parallel, in input order, bounded memory). Its results go to a
//! [`Sink`] ([`scan_to`]) or come as an iterator of [`FindingLine`]s, the
//! objects of `--format jsonl` ([`scan`] and the shorthands).

use std::io::{self, Read};
use std::sync::mpsc;
use std::thread::JoinHandle;

use crate::claims::scan::{ScanOptions, Severity};
use crate::diag::{Diagnostic, DiagnosticKind};
use crate::record::Encoding;
use crate::report::scan::FindingLine;
use crate::scan::{Config, Panicked, Row, Sink, Source, Summary};

use super::Stop;

/// How to scan. The default: every core, the scan's default options, every
/// finding, symbolic links in directories not followed.
#[derive(Clone, Copy, Debug)]
pub struct ScanSettings {
    /// Worker threads; `None`: every core.
    pub jobs: Option<usize>,
    /// The rules and searches applied to every game.
    pub options: ScanOptions,
    /// How tag values that are not UTF-8 are read.
    pub encoding: Encoding,
    /// Findings below this are not delivered (the [`Summary`] counts them).
    pub min_severity: Severity,
    /// Follow symbolic links met in directories (loops are skipped).
    pub follow: bool,
}

impl Default for ScanSettings {
    fn default() -> ScanSettings {
        ScanSettings {
            jobs: None,
            options: ScanOptions::default(),
            encoding: Encoding::default(),
            min_severity: Severity::Info,
            follow: false,
        }
    }
}

impl ScanSettings {
    fn config(&self) -> Config {
        Config {
            jobs: self
                .jobs
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                .max(1),
            options: self.options,
            encoding: self.encoding,
            min_severity: self.min_severity,
            follow: self.follow,
        }
    }
}

/// One item of a scan: a finding, or an input that could not be read (the
/// scan goes on with the next input), or the error that ended the scan
/// (the last item: a worker's panic names the file and the game).
pub type ScanItem = Result<FindingLine, Diagnostic>;

/// Runs a scan, handing every result to `sink` in input order, on the
/// calling thread (the workers run on `settings.jobs` threads of their
/// own). An `Err` is what ended the scan early: the sink's own error (a
/// closed pipe), or a worker's panic ([`std::io::Error::get_ref`] holds a
/// message naming the file and the game).
pub fn scan_to(
    source: Source,
    settings: &ScanSettings,
    sink: &mut dyn Sink,
) -> io::Result<Summary> {
    crate::scan::run(source, &settings.config(), sink)
}

/// The error that ended a scan, as an item: a panic names its file.
fn ended(e: &io::Error) -> Diagnostic {
    match e.get_ref().and_then(|e| e.downcast_ref::<Panicked>()) {
        Some(p) => Diagnostic::new(DiagnosticKind::Panic, &p.file, None, p.what()),
        None => Diagnostic::new(DiagnosticKind::Io(e.kind()), "scan", None, e.to_string()),
    }
}

/// The findings of a scan, in input order. Dropping it early stops the
/// scan (its workers within the task they are on), as does
/// [`Findings::stopper`]'s [`Stop::stop`].
pub struct Findings {
    inner: Inner,
    stop: Stop,
}

impl Drop for Findings {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

enum Inner {
    Live {
        rx: mpsc::Receiver<ScanItem>,
        worker: Option<JoinHandle<io::Result<Summary>>>,
        summary: Option<Summary>,
    },
    Ready(std::vec::IntoIter<ScanItem>, Option<Summary>),
}

impl Iterator for Findings {
    type Item = ScanItem;

    fn next(&mut self) -> Option<ScanItem> {
        match &mut self.inner {
            Inner::Ready(items, _) => items.next(),
            Inner::Live {
                rx,
                worker,
                summary,
            } => match rx.recv() {
                Ok(item) => Some(item),
                Err(_) => match worker.take().map(|w| w.join()) {
                    Some(Ok(Ok(s))) => {
                        *summary = Some(s);
                        None
                    }
                    // Stopped by the caller: the end, not an error.
                    Some(Ok(Err(_))) if self.stop.is_stopped() => None,
                    Some(Ok(Err(e))) => Some(Err(ended(&e))),
                    Some(Err(_)) => Some(Err(Diagnostic::new(
                        DiagnosticKind::Panic,
                        "scan",
                        None,
                        "the scan failed",
                    ))),
                    None => None,
                },
            },
        }
    }
}

impl Findings {
    /// A handle that stops the scan from another thread (the items after
    /// it are what was found before, then the end): a consumer that is not
    /// the iterating thread, or an interrupt.
    pub fn stopper(&self) -> Stop {
        self.stop.clone()
    }

    /// Totals (games, plies, lines, findings by kind), once every item was
    /// taken; `None` before that, and after a scan that ended in an error.
    pub fn summary(&self) -> Option<&Summary> {
        match &self.inner {
            Inner::Live { summary, .. } => summary.as_ref(),
            Inner::Ready(_, summary) => summary.as_ref(),
        }
    }
}

/// Each finding as an item: down a bounded channel (a slow reader holds the
/// scan back instead of letting findings pile up; a dropped reader ends
/// it), or into a vector. Skipped paths are not items.
enum Items {
    /// The channel, and the iterator's [`Stop`] (set when it is dropped).
    Channel(mpsc::SyncSender<ScanItem>, Stop),
    Vec(Vec<ScanItem>),
}

impl Items {
    fn send(&mut self, item: ScanItem) -> io::Result<()> {
        match self {
            Items::Channel(tx, _) => tx
                .send(item)
                .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe)),
            Items::Vec(v) => {
                v.push(item);
                Ok(())
            }
        }
    }
}

impl Sink for Items {
    fn finding(&mut self, row: &Row<'_>) -> io::Result<()> {
        self.send(Ok(FindingLine::new(row)))
    }

    fn input_error(&mut self, d: &Diagnostic) -> io::Result<()> {
        self.send(Err(d.clone()))
    }

    /// A dropped iterator receives nothing more: without this a scan with
    /// no finding to send would run to the end of its input unread.
    fn abandoned(&self) -> bool {
        matches!(self, Items::Channel(_, stop) if stop.is_stopped())
    }
}

/// Scans `source` on a thread of its own; its findings as they come.
pub fn scan(source: Source, settings: &ScanSettings) -> Findings {
    let config = settings.config();
    let (tx, rx) = mpsc::sync_channel(1024);
    let stop = Stop::default();
    let sink_stop = stop.clone();
    let worker = std::thread::spawn(move || {
        let mut sink = Items::Channel(tx, sink_stop);
        crate::scan::run(source, &config, &mut sink)
    });
    Findings {
        inner: Inner::Live {
            rx,
            worker: Some(worker),
            summary: None,
        },
        stop,
    }
}

/// Scans files and directories (recursively; `.pgn`, `.pdn`, compressed
/// `.zst`, `.gz`, `.bz2`; `-` for standard input) on a thread pool.
pub fn scan_paths<P: AsRef<std::path::Path>>(paths: &[P], settings: &ScanSettings) -> Findings {
    let paths = paths.iter().map(|p| p.as_ref().to_path_buf()).collect();
    scan(Source::Paths(paths), settings)
}

/// Scans one stream (named `name` in the findings): cut into chunks on
/// one thread, analysed on `settings.jobs`; a read error is its last item.
pub fn scan_reader(
    name: &str,
    reader: impl Read + Send + 'static,
    settings: &ScanSettings,
) -> Findings {
    let source = Source::Reader {
        name: name.to_owned(),
        reader: Box::new(reader),
    };
    scan(source, settings)
}

/// Scans the games that start in bytes `[start, end)` of a plain file (one
/// task of a distributed scan): game and line numbers count from the
/// range's first game; the [`Summary`]'s `games` and `lines` are how far
/// the next range's move on.
pub fn scan_range(path: &str, start: u64, end: u64, settings: &ScanSettings) -> Findings {
    let source = Source::Range {
        path: path.to_owned(),
        start,
        end,
    };
    scan(source, settings)
}

/// Scans the games that start in frame runs `[first, end)` of a
/// multi-frame `.zst` file (one task of a distributed scan; the runs are
/// [`InputFile::runs`]), numbered as [`scan_range`] numbers them.
pub fn scan_frames(path: &str, first: u64, end: u64, settings: &ScanSettings) -> Findings {
    let source = Source::Frames {
        path: path.to_owned(),
        first,
        end,
    };
    scan(source, settings)
}

/// Scans records held in memory (named `name` in the findings): the whole
/// scan, then its items; [`Findings::summary`] is ready at once.
pub fn scan_bytes(name: &str, bytes: &[u8], settings: &ScanSettings) -> Findings {
    let source = Source::Reader {
        name: name.to_owned(),
        reader: Box::new(io::Cursor::new(bytes.to_vec())),
    };
    let mut items = Items::Vec(Vec::new());
    let result = crate::scan::run(source, &settings.config(), &mut items);
    let mut items = match items {
        Items::Vec(v) => v,
        Items::Channel(..) => Vec::new(),
    };
    let summary = match result {
        Ok(s) => Some(s),
        Err(e) => {
            items.push(Err(ended(&e)));
            None
        }
    };
    Findings {
        inner: Inner::Ready(items.into_iter(), summary),
        stop: Stop::default(),
    }
}

/// A file a scan of some paths covers (see [`input_files`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputFile {
    /// As the scan names it.
    pub path: String,
    /// Its size in bytes (compressed, for a compressed file).
    pub len: u64,
    /// A regular, uncompressed file: [`scan_range`] can read parts of it.
    pub plain: bool,
    /// A multi-frame `.zst` file's runs of frames, as the scan cuts it: the
    /// compressed bytes of each ([`scan_frames`] reads runs of it). Empty
    /// for any other file (one decoder reads it).
    pub runs: Vec<u64>,
}

/// The files a scan of `paths` covers, in the scan's order (as
/// [`scan_paths`] walks them: directories searched for `.pgn` and `.pdn`,
/// plain or compressed): each file, or the error of a path that cannot
/// be read. Paths the walk leaves out are not listed (the scan warns).
pub fn input_files<P: AsRef<std::path::Path>>(
    paths: &[P],
    follow: bool,
) -> Vec<Result<InputFile, Diagnostic>> {
    use crate::input::walk::{Item, expand_with};
    let fail = |p: &str, kind: io::ErrorKind, e: &dyn std::fmt::Display| {
        let message = format!("cannot read: {e}");
        Diagnostic::new(DiagnosticKind::Io(kind), p, None, message)
    };
    let name = crate::input::walk::display_name;
    expand_with(paths, follow)
        .into_iter()
        .filter_map(|item| match item {
            Item::File(p) => Some(input_file(&p).map_err(|e| fail(&name(&p), e.kind(), &e))),
            Item::Unreadable(p, kind, e) => Some(Err(fail(&p, kind, &e))),
            Item::Skipped(..) => None,
        })
        .collect()
}

/// A file's listing; a name that is not UTF-8 is given escaped (`\xHH`),
/// as the scan prints it.
fn input_file(path: &std::path::Path) -> io::Result<InputFile> {
    use crate::input::open::Compression;
    let meta = std::fs::metadata(path)?;
    let mut head = [0u8; 4];
    let n = std::fs::File::open(path)?.read(&mut head)?;
    let compressed = Compression::from_path(path)
        .unwrap_or_else(|| Compression::from_magic(&head[..n]))
        != Compression::None;
    let runs = crate::input::zst_frames::cut(path)
        .map(|f| (0..f.runs()).map(|k| f.run_len(k)).collect())
        .unwrap_or_default();
    Ok(InputFile {
        path: crate::input::walk::display_name(path),
        len: meta.len(),
        plain: meta.is_file() && !compressed,
        runs,
    })
}
