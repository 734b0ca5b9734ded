//! `verify-claim watch`: follow live files while the games are played and
//! say, once, when the Laws ended a game, when a claim becomes available,
//! when a move is illegal, when a result is entered, when moves are taken
//! back.
//!
//! A thin layer over the claim engine and the scan: [`follow`] reads files
//! safely, [`events`] turns the engine's answers per board into events
//! emitted once, [`view`] prints them (a live view on a terminal, JSON lines
//! elsewhere). This module is the polling loop and the per-file state.

pub(crate) mod discover;
pub(crate) mod events;
pub(crate) mod follow;
pub(crate) mod livechess;
pub(crate) mod look;
pub(crate) mod queue;
pub(crate) mod schema;
pub(crate) mod serve;
pub(crate) mod view;
pub(crate) mod warn;
pub(crate) mod words;

use std::collections::BTreeMap;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::claims::scan::ScanOptions;
use crate::diag::{Place, place_of};
use crate::record::{Encoding, Reader};
use events::{Board, Context, Event, EventKind, GameId};
use follow::{Follow, Poll};

/// At most this many files are followed at once (a folder of round files
/// grows by one a round). A file deleted from a folder gives its place up.
pub(crate) const MAX_FILES: usize = 1000;
/// At most this many boards per file.
pub(crate) const MAX_BOARDS: usize = 2000;

/// What to watch and how.
pub struct Config {
    /// Files (they may appear later) and folders (every .pgn and .pdn below).
    pub paths: Vec<String>,
    /// How often to look at the files.
    pub interval: Duration,
    /// The rules and searches each game is checked with.
    pub options: ScanOptions,
    /// The tags' encoding.
    pub encoding: Encoding,
    /// `--low-time`: a clock under this many seconds is said.
    pub low_time: Option<f64>,
}

/// Totals for the summary printed on exit.
#[derive(Debug, Default)]
pub struct Summary {
    /// Files followed.
    pub files: usize,
    /// Boards (games) followed.
    pub boards: usize,
    /// Events said, by kind.
    pub by_kind: BTreeMap<EventKind, usize>,
    /// How long the watch ran.
    pub seconds: f64,
}

impl Summary {
    /// The summary as one line for stderr.
    pub fn line(&self) -> String {
        let kinds: Vec<String> = self
            .by_kind
            .iter()
            .map(|(k, n)| format!("{} {n}", k.name()))
            .collect();
        format!(
            "watched {} file(s), {} board(s) for {:.0} s; events: {}",
            self.files,
            self.boards,
            self.seconds,
            if kinds.is_empty() {
                "none".to_owned()
            } else {
                kinds.join(", ")
            }
        )
    }
}

/// One followed file and its boards, in file order.
#[allow(missing_docs)] // public for the binary's views (`watching`)
pub struct Watched {
    pub file: Arc<str>,
    follow: Follow,
    pub boards: Vec<Board>,
    /// Board keys (identity and occurrence) to indices into `boards`.
    index: std::collections::HashMap<String, usize>,
    /// Indices into `boards` of the games in the last read, in order.
    pub shown: Vec<usize>,
    last_error: Option<String>,
    /// Set on Ctrl-C: a long first read stops between games.
    pub stop: Option<Arc<AtomicBool>>,
    /// [`MAX_BOARDS`] was reached and said.
    full: bool,
    /// `--low-time`, in seconds.
    pub low_time: Option<f64>,
    /// Board keys a sibling file follows already (a LiveChess export).
    taken: std::collections::HashSet<String>,
    /// The tournament the file belongs to, for the rows and cards
    /// ([`livechess::tournament_of`]).
    pub tournament: Option<String>,
}

impl Watched {
    /// The file followed.
    pub fn path(&self) -> &std::path::Path {
        &self.follow.path
    }

    /// The keys of the boards this file follows.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.index.keys()
    }

    /// A file to follow, not read yet.
    pub fn new(path: PathBuf) -> Watched {
        Watched {
            file: Arc::from(path.display().to_string()),
            follow: Follow::new(path),
            boards: Vec::new(),
            index: std::collections::HashMap::new(),
            shown: Vec::new(),
            last_error: None,
            stop: None,
            full: false,
            low_time: None,
            taken: std::collections::HashSet::new(),
            tournament: None,
        }
    }

    /// Follows every game of a read; returns the events, in file order.
    pub fn apply(&mut self, bytes: &[u8], options: &ScanOptions, encoding: Encoding) -> Vec<Event> {
        let mut out = Vec::new();
        self.apply_with(bytes, options, encoding, &mut |e| out.push(e));
        out
    }

    /// Follows every game of a read, handing each board's events to `emit`
    /// as soon as they are known (a large first read shows as it goes).
    pub fn apply_with(
        &mut self,
        bytes: &[u8],
        options: &ScanOptions,
        encoding: Encoding,
        emit: &mut dyn FnMut(Event),
    ) {
        let file = Arc::clone(&self.file);
        let cx = Context {
            file: &file,
            bytes,
            options,
            low_time: self.low_time,
        };
        let mut reader = Reader::new(bytes, encoding);
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut shown = Vec::new();
        let mut index = 0;
        while let Some(game) = reader.next_game() {
            if self.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst)) {
                break;
            }
            index += 1;
            let record = match game {
                Ok(r) => r,
                Err(e) => {
                    if let Some(ev) = self.error(bytes, e.offset, e.message) {
                        emit(ev);
                    }
                    continue;
                }
            };
            let id = GameId::of(&record, index);
            let n = seen.entry(id.key()).or_default();
            *n += 1;
            let key = format!("{}\u{0}{n}", id.key());
            if self.taken.contains(&key) && !self.index.contains_key(&key) {
                continue;
            }
            let at = match self.index.get(&key) {
                Some(&i) => i,
                None if self.boards.len() < MAX_BOARDS => {
                    self.boards.push(Board::new(id));
                    self.index.insert(key, self.boards.len() - 1);
                    self.boards.len() - 1
                }
                None => {
                    if !self.full {
                        self.full = true;
                        emit(Event::new(
                            &file,
                            &GameId::of(&record, index),
                            0,
                            EventKind::LimitReached,
                            format!(
                                "game {index} is past the {MAX_BOARDS} boards a file may have: it and the games after it are not followed"
                            ),
                        ));
                    }
                    continue;
                }
            };
            self.boards[at].id.index = index;
            for ev in self.boards[at].update(&record, &cx) {
                emit(ev);
            }
            shown.push(at);
        }
        if index > 0 {
            self.shown = shown;
        }
    }

    /// A file-level problem, said once per message.
    fn error(&mut self, bytes: &[u8], offset: usize, message: String) -> Option<Event> {
        if self.last_error.as_deref() == Some(message.as_str()) {
            return None;
        }
        self.last_error = Some(message.clone());
        let mut e = Event::new(
            &self.file,
            &GameId::none(),
            0,
            EventKind::RecordError,
            message,
        );
        e.place = Some(place_of(bytes, offset, Place { line: 1, col: 1 }));
        Some(e)
    }
}

/// Every followed file.
pub(crate) struct Watcher {
    config: Config,
    stop: Arc<AtomicBool>,
    pub files: Vec<Watched>,
    discover: discover::Discover,
    /// The file limit or the folder limit was reached and said.
    said_files: bool,
    said_dirs: bool,
}

impl Watcher {
    pub(crate) fn new(config: Config, stop: Arc<AtomicBool>) -> Watcher {
        Watcher {
            config,
            stop,
            files: Vec::new(),
            discover: discover::Discover::default(),
            said_files: false,
            said_dirs: false,
        }
    }

    /// Takes the files listed now: new ones while there is room (a file no
    /// longer listed keeps its state until its place is needed).
    fn take_new(&mut self, targets: &[PathBuf], emit: &mut dyn FnMut(Event)) {
        let listed: std::collections::HashSet<&PathBuf> = targets.iter().collect();
        let known: std::collections::HashSet<PathBuf> =
            self.files.iter().map(|w| w.follow.path.clone()).collect();
        let mut added = false;
        for path in targets.iter().filter(|p| !known.contains(*p)) {
            if self.files.len() >= MAX_FILES {
                self.files.retain(|w| listed.contains(&w.follow.path));
            }
            if self.files.len() >= MAX_FILES {
                if !self.said_files {
                    self.said_files = true;
                    emit(limit(
                        path,
                        format!(
                            "{MAX_FILES} files are followed already: this one and any other new one are not"
                        ),
                    ));
                }
                continue;
            }
            let mut w = Watched::new(path.clone());
            w.tournament = livechess::tournament_of(path, &self.config.paths);
            w.stop = Some(Arc::clone(&self.stop));
            w.low_time = self.config.low_time;
            self.files.push(w);
            added = true;
        }
        if added {
            self.files.sort_by(|a, b| a.follow.path.cmp(&b.follow.path));
        }
        for (dir, why) in std::mem::take(&mut self.discover.failed) {
            let file: Arc<str> = Arc::from(dir.display().to_string());
            emit(Event::new(
                &file,
                &GameId::none(),
                0,
                EventKind::RecordError,
                format!("this folder cannot be listed: {why}: the files below it are not followed"),
            ));
        }
        if let Some(dir) = &self.discover.dirs_left_out
            && !self.said_dirs
        {
            self.said_dirs = true;
            emit(limit(
                dir,
                format!(
                    "{} folders are looked at already: this one and any other new one are not",
                    discover::MAX_DIRS
                ),
            ));
        }
    }

    /// One poll of every file; the new events, in file order.
    pub(crate) fn poll(&mut self, now: Instant, emit: &mut dyn FnMut(Event)) {
        let targets = self.discover.targets(&self.config.paths);
        self.take_new(&targets, emit);
        // A file no longer listed (deleted from a folder, or a named path
        // that became a folder) keeps its state but is not looked at.
        let listed: std::collections::HashSet<&PathBuf> = targets.iter().collect();
        for i in 0..self.files.len() {
            if self.stop.load(Ordering::SeqCst) {
                break;
            }
            let Some(w) = self.files.get_mut(i) else {
                break;
            };
            if !listed.contains(&w.follow.path) {
                continue;
            }
            let poll = w.follow.poll(now, self.config.encoding);
            let taken = match &poll {
                Poll::Ready(_) => livechess::taken_by_siblings(&self.files, i),
                _ => std::collections::HashSet::new(),
            };
            let Some(w) = self.files.get_mut(i) else {
                break;
            };
            match poll {
                Poll::Nothing | Poll::Missing => {}
                Poll::Ready(bytes) => {
                    w.last_error = None;
                    w.taken = taken;
                    w.apply_with(&bytes, &self.config.options, self.config.encoding, emit);
                }
                Poll::Broken(bytes, offset, message) => {
                    if let Some(ev) = w.error(&bytes, offset, message) {
                        emit(ev);
                    }
                }
                Poll::Failed(message) => {
                    emit(Event::new(
                        &w.file,
                        &GameId::none(),
                        0,
                        EventKind::RecordError,
                        message,
                    ));
                }
            }
        }
    }

    pub(crate) fn interval(&self) -> Duration {
        self.config.interval
    }
}

/// A limit reached, about a whole file or folder.
fn limit(path: &std::path::Path, message: String) -> Event {
    let file: Arc<str> = Arc::from(path.display().to_string());
    Event::new(&file, &GameId::none(), 0, EventKind::LimitReached, message)
}

/// Runs until `stop` is set (Ctrl-C), printing with `sink`.
pub fn run(
    config: Config,
    sink: &mut dyn view::Sink,
    stop: &Arc<AtomicBool>,
) -> io::Result<Summary> {
    let started = Instant::now();
    let mut watcher = Watcher::new(config, Arc::clone(stop));
    let mut summary = Summary::default();
    let step = Duration::from_millis(10);
    while !stop.load(Ordering::SeqCst) {
        let tick = Instant::now();
        let mut failed = None;
        let mut any = false;
        watcher.poll(tick, &mut |e| {
            any = true;
            *summary.by_kind.entry(e.kind).or_default() += 1;
            if e.kind == EventKind::LimitReached {
                crate::output::to_stderr(format!("verify-claim watch: {}: {}", e.file, e.message));
            }
            if failed.is_none()
                && let Err(err) = sink.event(&e, std::time::SystemTime::now())
            {
                failed = Some(err);
            }
        });
        if let Some(err) = failed {
            return Err(err);
        }
        sink.refresh(&watcher.files, any)?;
        let next = tick + watcher.interval();
        while !stop.load(Ordering::SeqCst) {
            let now = Instant::now();
            if now >= next {
                break;
            }
            std::thread::sleep(step.min(next - now));
        }
    }
    summary.files = watcher.files.len();
    summary.boards = watcher.files.iter().map(|w| w.boards.len()).sum();
    summary.seconds = started.elapsed().as_secs_f64();
    sink.finish(&summary)?;
    Ok(summary)
}

#[cfg(test)]
mod tests;
