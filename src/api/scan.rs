//! Scanning archives as a library: the same pipeline as `verify-claim scan`
//! (parallel, in input order, bounded memory), its findings delivered as an
//! iterator of [`FindingLine`]s, the objects of `--format jsonl`.

use std::io::{self, Write};
use std::sync::mpsc;
use std::thread::JoinHandle;

use crate::claims::scan::ScanOptions;
use crate::diag::Diagnostic;
use crate::record::Encoding;
use crate::report::scan::{FindingLine, Printer, Row};
use crate::scan::{Config, Summary};

/// How to scan. The default: every core, the scan's default options.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScanSettings {
    /// Worker threads; `None`: every core.
    pub jobs: Option<usize>,
    /// The rules and searches applied to every game.
    pub options: ScanOptions,
    /// How tag values that are not UTF-8 are read.
    pub encoding: Encoding,
}

/// One item of a scan: a finding, or an input that could not be read (the
/// scan goes on with the next input).
pub type ScanItem = Result<FindingLine, Diagnostic>;

/// The findings of a scan, in input order. Dropping it early stops the scan.
pub struct Findings {
    inner: Inner,
}

enum Inner {
    Live {
        rx: mpsc::Receiver<ScanItem>,
        worker: Option<JoinHandle<io::Result<Summary>>>,
        summary: Option<Summary>,
    },
    Ready(std::vec::IntoIter<ScanItem>),
}

impl Iterator for Findings {
    type Item = ScanItem;

    fn next(&mut self) -> Option<ScanItem> {
        match &mut self.inner {
            Inner::Ready(items) => items.next(),
            Inner::Live {
                rx,
                worker,
                summary,
            } => match rx.recv() {
                Ok(item) => Some(item),
                Err(_) => {
                    let done = worker.take().map(|w| w.join());
                    match done {
                        Some(Ok(Ok(s))) => *summary = Some(s),
                        Some(Ok(Err(e))) => {
                            return Some(Err(Diagnostic::new("scan", None, e.to_string())));
                        }
                        Some(Err(_)) => {
                            return Some(Err(Diagnostic::new("scan", None, "the scan failed")));
                        }
                        None => {}
                    }
                    None
                }
            },
        }
    }
}

impl Findings {
    /// Totals (games, plies, findings by kind), once every item was taken;
    /// `None` before that, and for a scan of bytes.
    pub fn summary(&self) -> Option<&Summary> {
        match &self.inner {
            Inner::Live { summary, .. } => summary.as_ref(),
            Inner::Ready(_) => None,
        }
    }
}

/// Sends each finding down a bounded channel: a slow reader holds the scan
/// back instead of letting findings pile up; a dropped reader ends it.
struct Channel(mpsc::SyncSender<ScanItem>);

impl Channel {
    fn send(&self, item: ScanItem) -> io::Result<()> {
        self.0
            .send(item)
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }
}

impl Printer for Channel {
    fn finding(&mut self, row: &Row<'_>, _: &mut dyn Write) -> io::Result<()> {
        self.send(Ok(FindingLine::new(row)))
    }

    fn input_error(&mut self, d: &Diagnostic, _: &mut dyn Write) -> io::Result<()> {
        self.send(Err(d.clone()))
    }
}

/// Scans files and directories (recursively; `.pgn`, `.pdn`, compressed
/// `.zst`, `.gz`, `.bz2`; `-` for standard input) on a thread pool.
pub fn scan_paths<S: AsRef<str>>(paths: &[S], settings: &ScanSettings) -> Findings {
    let config = Config {
        paths: paths.iter().map(|p| p.as_ref().to_owned()).collect(),
        jobs: settings
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        options: settings.options,
        encoding: settings.encoding,
        progress: false,
        min_severity: crate::claims::scan::Severity::Info,
        annotate: false,
        boards: false,
        follow: false,
    };
    let (tx, rx) = mpsc::sync_channel(1024);
    let worker = std::thread::spawn(move || {
        let mut printer = Channel(tx);
        crate::scan::run(config, &mut printer, &mut io::sink())
    });
    Findings {
        inner: Inner::Live {
            rx,
            worker: Some(worker),
            summary: None,
        },
    }
}

/// Scans records held in memory (named `name` in the findings), on the
/// calling thread.
pub fn scan_bytes(name: &str, bytes: &[u8], settings: &ScanSettings) -> Findings {
    let items = crate::scan::scan_bytes_as(bytes, &settings.options, settings.encoding)
        .iter()
        .map(|p| {
            Ok(FindingLine::new(&Row {
                file: name,
                game: p.game,
                placed: p,
            }))
        })
        .collect::<Vec<_>>();
    Findings {
        inner: Inner::Ready(items.into_iter()),
    }
}
