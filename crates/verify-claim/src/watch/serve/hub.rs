//! What the server shares with the watch: a bounded ring of past events
//! (the JSON lines `--format jsonl` prints, each with its id), the boards
//! as the page draws them, and a condition variable that wakes the event
//! streams. The watch only ever takes the lock for a push: a slow or
//! vanished client waits on its own socket, never on the watch.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Past events kept for clients that reconnect (`Last-Event-ID`). A
/// client further behind is told how many it missed (`event: lost`) and
/// resumes at the oldest kept.
pub const RING: usize = 10_000;
/// Events kept per board for the page's first view.
pub const PER_BOARD: usize = 20;
/// Boards whose events are kept for the first view.
pub const BOARDS: usize = 5_000;

#[derive(Default)]
struct State {
    ring: VecDeque<(u64, Arc<str>)>,
    /// The id the next event gets (ids start at 1).
    next: u64,
    /// Board id to (version, JSON of the board).
    boards: BTreeMap<String, (u64, Arc<str>)>,
    versions: u64,
    /// Board id to its recent events (id, JSON).
    recent: HashMap<String, VecDeque<(u64, Arc<str>)>>,
    closed: bool,
}

/// The shared state.
pub struct Hub {
    state: Mutex<State>,
    wake: Condvar,
    /// This run of the watch, in every event id (`RUN-N`): a client that
    /// resumes with an id of another run is told to start again.
    pub run: String,
}

/// What a stream sends next.
pub struct Batch {
    /// Events missed beyond the ring: how many.
    pub lost: u64,
    pub events: Vec<(u64, Arc<str>)>,
    pub boards: Vec<Arc<str>>,
    /// The boards' version these are of.
    pub versions: u64,
    pub closed: bool,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub::new(String::from("0"))
    }
}

impl Hub {
    /// A hub whose event ids are `RUN-N`.
    pub fn new(run: String) -> Hub {
        Hub {
            state: Mutex::new(State {
                next: 1,
                ..State::default()
            }),
            wake: Condvar::new(),
            run,
        }
    }

    /// Where a client resuming after event id `given` (`RUN-N`, or `N` of
    /// this run) goes on: `Ok(N + 1)`, or `Err(())` when the id is of
    /// another run (or later than any of this one): the client must start
    /// again from the first event.
    #[allow(
        clippy::result_unit_err,
        reason = "an id not of this run has nothing to say but \"start again\""
    )]
    pub fn resume(&self, given: &str) -> Result<u64, ()> {
        let given = given.trim();
        let n = match given.rsplit_once('-') {
            Some((run, n)) if run == self.run => n.parse::<u64>().map_err(|_| ())?,
            Some(_) => return Err(()),
            None => given.parse::<u64>().map_err(|_| ())?,
        };
        if n >= self.lock().next {
            return Err(());
        }
        Ok(n.saturating_add(1))
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicked holder left whole values behind: go on with them.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds an event of board `board` (its id); returns the event's id.
    pub fn push(&self, board: &str, json: String) -> u64 {
        let json: Arc<str> = Arc::from(json);
        let mut s = self.lock();
        let id = s.next;
        s.next += 1;
        s.ring.push_back((id, Arc::clone(&json)));
        while s.ring.len() > RING {
            s.ring.pop_front();
        }
        if s.recent.len() < BOARDS || s.recent.contains_key(board) {
            let r = s.recent.entry(board.to_owned()).or_default();
            r.push_back((id, json));
            while r.len() > PER_BOARD {
                r.pop_front();
            }
        }
        drop(s);
        self.wake.notify_all();
        id
    }

    /// Sets what the page draws of a board.
    pub fn board(&self, id: &str, json: String) {
        let mut s = self.lock();
        s.versions += 1;
        let v = s.versions;
        s.boards.insert(id.to_owned(), (v, Arc::from(json)));
        drop(s);
        self.wake.notify_all();
    }

    /// The watch has ended: streams close.
    pub fn close(&self) {
        self.lock().closed = true;
        self.wake.notify_all();
    }

    /// Waits up to `timeout` for events from id `next` on (and, with
    /// `boards`, boards changed after version `seen`).
    pub fn wait(&self, next: u64, boards: Option<u64>, timeout: Duration) -> Batch {
        let ready = |s: &State| s.closed || s.next > next || boards.is_some_and(|v| s.versions > v);
        let s = self.lock();
        let (s, _) = self
            .wake
            .wait_timeout_while(s, timeout, |s| !ready(s))
            .unwrap_or_else(|e| e.into_inner());
        let oldest = s.ring.front().map_or(s.next, |(id, _)| *id);
        let events = s
            .ring
            .iter()
            .skip_while(|(id, _)| *id < next)
            .take(256)
            .cloned()
            .collect();
        let changed = boards.map_or_else(Vec::new, |seen| {
            s.boards
                .values()
                .filter(|(v, _)| *v > seen)
                .map(|(_, j)| Arc::clone(j))
                .collect()
        });
        Batch {
            lost: oldest.saturating_sub(next),
            events,
            boards: changed,
            versions: s.versions,
            closed: s.closed,
        }
    }

    /// `GET /state`: every board with its recent events, and the id of the
    /// last event (a stream from `after` that id misses nothing).
    pub fn snapshot(&self) -> String {
        let s = self.lock();
        let boards: Vec<serde_json::Value> = s
            .boards
            .iter()
            .map(|(id, (_, json))| {
                let mut v: serde_json::Value =
                    serde_json::from_str(json).unwrap_or(serde_json::Value::Null);
                let events: Vec<serde_json::Value> = s
                    .recent
                    .get(id)
                    .into_iter()
                    .flatten()
                    .map(|(n, e)| with_id(*n, e))
                    .collect();
                v["events"] = events.into();
                v
            })
            .collect();
        let files: Vec<serde_json::Value> = s
            .recent
            .iter()
            .filter(|(id, _)| !s.boards.contains_key(*id))
            .flat_map(|(_, r)| r.iter().map(|(n, e)| with_id(*n, e)))
            .collect();
        serde_json::json!({
            "run": self.run,
            "last_event_id": s.next - 1,
            "oldest_event_id": s.ring.front().map_or(s.next, |(id, _)| *id),
            "boards": boards,
            "other_events": files,
        })
        .to_string()
    }
}

/// An event's JSON with its stream id added (`/state` only).
fn with_id(id: u64, json: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap_or(serde_json::Value::Null);
    v["id"] = id.into();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_resumes_where_it_left_and_says_what_it_lost() {
        let hub = Hub::default();
        for i in 0..RING + 5 {
            hub.push("f#1", format!("{{\"n\":{i}}}"));
        }
        let b = hub.wait(RING as u64 + 3, None, Duration::ZERO);
        let ids: Vec<u64> = b.events.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, [RING as u64 + 3, RING as u64 + 4, RING as u64 + 5]);
        assert_eq!(b.lost, 0);
        let b = hub.wait(1, None, Duration::ZERO);
        assert_eq!(b.lost, 5);
        assert_eq!(b.events.first().map(|e| e.0), Some(6));
    }

    /// An id of another run, or later than any of this run, starts again.
    #[test]
    fn an_id_of_another_run_starts_again() {
        let hub = Hub::new("ab12".to_owned());
        for i in 0..13 {
            hub.push("f#1", format!("{{\"n\":{i}}}"));
        }
        assert_eq!(hub.resume("ab12-5"), Ok(6));
        assert_eq!(hub.resume("7"), Ok(8));
        assert_eq!(hub.resume("ab12-13"), Ok(14));
        assert_eq!(hub.resume("cd34-5"), Err(()));
        assert_eq!(hub.resume("1013"), Err(()));
        assert_eq!(hub.resume("ab12-x"), Err(()));
    }
}
