//! `verify-claim watch`: follow live files while the games are played and
//! say, once, when the Laws ended a game, when a claim becomes available,
//! when a move is illegal, when a result is entered, when moves are taken
//! back.
//!
//! A thin layer over the claim engine and the scan: [`follow`] reads files
//! safely, [`events`] turns the engine's answers per board into events
//! emitted once, [`view`] prints them (a live view on a terminal, JSON lines
//! elsewhere). This module is the polling loop and the per-file state.

pub mod events;
pub mod follow;
pub mod schema;
pub mod view;

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

/// At most this many files are followed (a folder of round files grows by
/// one a round).
pub const MAX_FILES: usize = 1000;
/// At most this many boards per file.
pub const MAX_BOARDS: usize = 2000;

/// What to watch and how.
pub struct Config {
    pub paths: Vec<String>,
    pub interval: Duration,
    pub options: ScanOptions,
    pub encoding: Encoding,
}

/// Totals for the summary printed on exit.
#[derive(Debug, Default)]
pub struct Summary {
    pub files: usize,
    pub boards: usize,
    pub by_kind: BTreeMap<EventKind, usize>,
    pub seconds: f64,
}

impl Summary {
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
pub struct Watched {
    pub file: Arc<str>,
    follow: Follow,
    pub boards: Vec<Board>,
    /// Board keys (identity and occurrence) to indices into `boards`.
    index: std::collections::HashMap<String, usize>,
    /// Indices into `boards` of the games in the last read, in order.
    pub shown: Vec<usize>,
    last_error: Option<String>,
}

impl Watched {
    pub fn new(path: PathBuf) -> Watched {
        Watched {
            file: Arc::from(path.display().to_string()),
            follow: Follow::new(path),
            boards: Vec::new(),
            index: std::collections::HashMap::new(),
            shown: Vec::new(),
            last_error: None,
        }
    }

    /// Follows every game of a read; returns the events, in file order.
    pub fn apply(&mut self, bytes: &[u8], options: &ScanOptions, encoding: Encoding) -> Vec<Event> {
        let file = Arc::clone(&self.file);
        let cx = Context {
            file: &file,
            bytes,
            options,
        };
        let mut out = Vec::new();
        let mut reader = Reader::new(bytes, encoding);
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut shown = Vec::new();
        let mut index = 0;
        while let Some(game) = reader.next_game() {
            index += 1;
            let record = match game {
                Ok(r) => r,
                Err(e) => {
                    out.extend(self.error(bytes, e.offset, e.message));
                    continue;
                }
            };
            let id = GameId::of(&record, index);
            let n = seen.entry(id.key()).or_default();
            *n += 1;
            let key = format!("{}\u{0}{n}", id.key());
            let at = match self.index.get(&key) {
                Some(&i) => i,
                None if self.boards.len() < MAX_BOARDS => {
                    self.boards.push(Board::new(id, *n));
                    self.index.insert(key, self.boards.len() - 1);
                    self.boards.len() - 1
                }
                None => continue,
            };
            self.boards[at].id.index = index;
            out.extend(self.boards[at].update(&record, &cx));
            shown.push(at);
        }
        if index > 0 {
            self.shown = shown;
        }
        out
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
pub struct Watcher {
    config: Config,
    pub files: Vec<Watched>,
}

impl Watcher {
    pub fn new(config: Config) -> Watcher {
        Watcher {
            config,
            files: Vec::new(),
        }
    }

    /// One poll of every file; the new events, in file order.
    pub fn poll(&mut self, now: Instant) -> Vec<Event> {
        let mut added = false;
        let targets = follow::targets(&self.config.paths, MAX_FILES);
        let known: std::collections::HashSet<PathBuf> =
            self.files.iter().map(|w| w.follow.path.clone()).collect();
        for path in &targets {
            if self.files.len() < MAX_FILES && !known.contains(path) {
                self.files.push(Watched::new(path.clone()));
                added = true;
            }
        }
        if added {
            self.files.sort_by(|a, b| a.follow.path.cmp(&b.follow.path));
        }
        let mut out = Vec::new();
        // A file no longer listed (deleted from a folder, or a named path
        // that became a folder) keeps its state but is not looked at.
        let listed: std::collections::HashSet<&PathBuf> = targets.iter().collect();
        for w in self
            .files
            .iter_mut()
            .filter(|w| listed.contains(&w.follow.path))
        {
            match w.follow.poll(now, self.config.encoding) {
                Poll::Nothing | Poll::Missing => {}
                Poll::Ready(bytes) => {
                    w.last_error = None;
                    out.extend(w.apply(&bytes, &self.config.options, self.config.encoding));
                }
                Poll::Broken(bytes, offset, message) => {
                    out.extend(w.error(&bytes, offset, message))
                }
                Poll::Failed(message) => {
                    out.push(Event::new(
                        &w.file,
                        &GameId::none(),
                        0,
                        EventKind::RecordError,
                        message,
                    ));
                }
            }
        }
        out
    }

    pub fn interval(&self) -> Duration {
        self.config.interval
    }
}

/// Runs until `stop` is set (Ctrl-C), printing with `sink`.
pub fn run(config: Config, sink: &mut dyn view::Sink, stop: &AtomicBool) -> io::Result<Summary> {
    let started = Instant::now();
    let mut watcher = Watcher::new(config);
    let mut summary = Summary::default();
    let step = Duration::from_millis(10);
    while !stop.load(Ordering::SeqCst) {
        let tick = Instant::now();
        let events = watcher.poll(tick);
        for e in &events {
            *summary.by_kind.entry(e.kind).or_default() += 1;
            sink.event(e, std::time::SystemTime::now())?;
        }
        sink.refresh(&watcher.files, !events.is_empty())?;
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
mod tests {
    use super::*;

    fn kinds(w: &mut Watched, text: &str) -> Vec<(&'static str, usize)> {
        w.apply(text.as_bytes(), &ScanOptions::default(), Encoding::Utf8)
            .iter()
            .map(|e| (e.kind.name(), e.ply))
            .collect()
    }

    #[test]
    fn each_event_once_and_again_only_when_new() {
        let mut w = Watched::new(PathBuf::from("live.pgn"));
        let mate = "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 2. g4 Qh4# *\n";
        assert_eq!(kinds(&mut w, mate), [("game-ended", 4)]);
        assert_eq!(kinds(&mut w, mate), []);
        // Unterminated and shorter: a write in progress, not a take-back.
        assert_eq!(
            kinds(&mut w, "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 "),
            []
        );
        let result = mate.replace(" *", " 1-0");
        assert_eq!(kinds(&mut w, &result), [("result-entered", 4)]);
        assert_eq!(kinds(&mut w, &result), []);
        // Taken back with a marker: said, and the mate again when replayed.
        assert_eq!(
            kinds(&mut w, "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 2. g4 *\n"),
            [("record-changed", 3)]
        );
        assert_eq!(kinds(&mut w, mate), [("game-ended", 4)]);
        // A new start position: everything replayed from the start.
        let fen = "[White \"A\"]\n[Black \"B\"]\n[SetUp \"1\"]\n[FEN \"7k/8/8/8/8/8/8/K7 w - - 0 1\"]\n\n*\n";
        assert_eq!(
            kinds(&mut w, fen),
            [("record-changed", 0), ("game-ended", 0)]
        );
    }

    #[test]
    fn boards_are_known_by_their_tags() {
        let mut w = Watched::new(PathBuf::from("live.pgn"));
        let a = "[Round \"1\"]\n[Board \"1\"]\n[White \"A\"]\n\n1. f3 e5 2. g4 Qh4# *\n";
        let b = "[Round \"1\"]\n[Board \"2\"]\n[White \"C\"]\n\n1. e4 *\n";
        assert_eq!(kinds(&mut w, &format!("{a}\n{b}")), [("game-ended", 4)]);
        // The same boards in the other order: nothing new.
        assert_eq!(kinds(&mut w, &format!("{b}\n{a}")), []);
        assert_eq!(w.boards.len(), 2);
    }
}
