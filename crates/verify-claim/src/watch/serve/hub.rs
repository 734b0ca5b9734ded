//! What the server shares with the watch: a bounded ring of past events
//! (the JSON lines `--format jsonl` prints, each with its id), the boards
//! as the page draws them, and a condition variable that wakes the event
//! streams. The watch only ever takes the lock for a push: a slow or
//! vanished client waits on its own socket, never on the watch.
//!
//! Events and boards are kept twice: as the JSON text the streams send
//! (written once, not once per client) and as their records, from which
//! `/state` is written (each board with its events, each event with its
//! id), with no JSON read back.

// /state's fields, documented in docs/watch.md; public for the binary's
// server (`watching`).
#![allow(missing_docs)]

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use serde::Serialize;

use super::super::look::Look;
use super::super::schema::{EventJson, to_json};

/// Past events kept for clients that reconnect (`Last-Event-ID`). A
/// client further behind is told how many it missed (`event: lost`) and
/// resumes at the oldest kept.
pub(super) const RING: usize = 10_000;
/// Events kept per board for the page's first view.
pub(super) const PER_BOARD: usize = 20;
/// Boards whose events are kept for the first view.
pub(super) const BOARDS: usize = 5_000;

/// A board as the page draws it (`event: board` of `/events?boards=1`,
/// and each of `/state`'s boards, its events after these fields).
#[derive(Clone, Debug, Serialize)]
pub struct BoardJson {
    /// The page's id of the board: its file and label.
    pub id: String,
    pub file: String,
    pub tournament: Option<String>,
    /// The board's label.
    pub board: String,
    pub round: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
    pub plies: usize,
    /// The state in words, as the terminal's live view shows it.
    pub state: String,
    pub look: Look,
}

/// `GET /state`.
#[derive(Serialize)]
struct Snapshot<'a> {
    run: &'a str,
    last_event_id: u64,
    oldest_event_id: u64,
    boards: Vec<BoardWithEvents<'a>>,
    other_events: Vec<WithId<'a>>,
}

/// A board of `/state`: its fields, then its recent events.
#[derive(Serialize)]
struct BoardWithEvents<'a> {
    #[serde(flatten)]
    board: &'a BoardJson,
    events: Vec<WithId<'a>>,
}

/// An event of `/state`: its fields, then its stream id.
#[derive(Serialize)]
struct WithId<'a> {
    #[serde(flatten)]
    event: &'a EventJson,
    id: u64,
}

/// A board kept: its version, its JSON, its record.
type KeptBoard = (u64, Arc<str>, Arc<BoardJson>);

#[derive(Default)]
struct State {
    ring: VecDeque<(u64, Arc<str>)>,
    /// The id the next event gets (ids start at 1).
    next: u64,
    /// Board id to the board.
    boards: BTreeMap<String, KeptBoard>,
    versions: u64,
    /// Board id to its recent events (id, record).
    recent: BTreeMap<String, VecDeque<(u64, Arc<EventJson>)>>,
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
    pub fn push(&self, board: &str, event: EventJson) -> u64 {
        let json: Arc<str> = Arc::from(to_json(&event));
        let event = Arc::new(event);
        let mut s = self.lock();
        let id = s.next;
        s.next += 1;
        s.ring.push_back((id, json));
        while s.ring.len() > RING {
            s.ring.pop_front();
        }
        if s.recent.len() < BOARDS || s.recent.contains_key(board) {
            let r = s.recent.entry(board.to_owned()).or_default();
            r.push_back((id, event));
            while r.len() > PER_BOARD {
                r.pop_front();
            }
        }
        drop(s);
        self.wake.notify_all();
        id
    }

    /// Sets what the page draws of a board.
    pub fn board(&self, board: BoardJson) {
        let json: Arc<str> = Arc::from(to_json(&board));
        let mut s = self.lock();
        s.versions += 1;
        let v = s.versions;
        let id = board.id.clone();
        s.boards.insert(id, (v, json, Arc::new(board)));
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
                .filter(|(v, _, _)| *v > seen)
                .map(|(_, j, _)| Arc::clone(j))
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
        let boards = s
            .boards
            .iter()
            .map(|(id, (_, _, board))| BoardWithEvents {
                board,
                events: s.recent.get(id).map(with_ids).unwrap_or_default(),
            })
            .collect();
        // In the order they happened, whatever their boards' names.
        let mut other_events: Vec<WithId<'_>> = s
            .recent
            .iter()
            .filter(|(id, _)| !s.boards.contains_key(*id))
            .flat_map(|(_, r)| with_ids(r))
            .collect();
        other_events.sort_by_key(|e| e.id);
        to_json(&Snapshot {
            run: &self.run,
            last_event_id: s.next - 1,
            oldest_event_id: s.ring.front().map_or(s.next, |(id, _)| *id),
            boards,
            other_events,
        })
    }
}

/// A board's recent events as `/state` lists them.
fn with_ids(recent: &VecDeque<(u64, Arc<EventJson>)>) -> Vec<WithId<'_>> {
    recent
        .iter()
        .map(|(id, event)| WithId { event, id: *id })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::watch::look::Twice;
    use crate::watch::schema::GameId;

    /// An event of board 5.3 of `live/a.pgn` at `ply`.
    fn event(ply: usize) -> EventJson {
        EventJson {
            time: "T".into(),
            file: "live/a.pgn".into(),
            board: Some("5.3".into()),
            game: GameId {
                index: 1,
                round: Some("5".into()),
                board: Some("3".into()),
                white: Some("A".into()),
                black: None,
            },
            ply,
            kind: "claim-available",
            side: None,
            mv: None,
            article: None,
            message: "m".into(),
            line: None,
            col: None,
            reason: None,
            result: None,
            agrees: Some(true),
        }
    }

    /// The JSON of `event(ply)` with its id `id`, as `/state` lists it.
    fn listed(ply: usize, id: u64) -> String {
        format!(
            concat!(
                r#"{{"time":"T","file":"live/a.pgn","board":"5.3","#,
                r#""game":{{"index":1,"round":"5","board":"3","white":"A","black":null}},"#,
                r#""ply":{},"kind":"claim-available","side":null,"move":null,"article":null,"#,
                r#""message":"m","agrees":true,"id":{}}}"#
            ),
            ply, id
        )
    }

    #[test]
    fn a_stream_resumes_where_it_left_and_says_what_it_lost() {
        let hub = Hub::default();
        for i in 0..RING + 5 {
            hub.push("f#1", event(i));
        }
        let b = hub.wait(RING as u64 + 3, None, Duration::ZERO);
        let ids: Vec<u64> = b.events.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, [RING as u64 + 3, RING as u64 + 4, RING as u64 + 5]);
        assert_eq!(b.lost, 0);
        let b = hub.wait(1, None, Duration::ZERO);
        assert_eq!(b.lost, 5);
        assert_eq!(b.events.first().map(|e| e.0), Some(6));
    }

    /// The board as the page draws it, under the name `/state` gives it.
    const BOARD: &str = concat!(
        r#"{"id":"live/a.pgn#5.3","file":"live/a.pgn","tournament":null,"board":"5.3","#,
        r#""round":"5","white":"A \"x\"","black":null,"plies":6,"state":"playing","#,
        r#""look":{"svg":"<svg/>","last_moves":["3.Ka1","3...Kh8"],"to_move":"white","#,
        r#""count":6,"count_text":"6 plies","twice":[{"after":"3...Kh8","plies":[2,6]}],"#,
        r#""clock_white":"0:04:55","clock_black":null,"emt":null}}"#
    );

    /// `/state` byte for byte: each board with its events, each event with
    /// its id last; events of no board apart.
    #[test]
    fn the_state_byte_for_byte() {
        let hub = Hub::new("ab12".to_owned());
        hub.push("live/a.pgn#5.3", event(1));
        hub.push("live/b.pgn#", event(2));
        hub.push("live/a.pgn#5.3", event(3));
        hub.board(BoardJson {
            id: "live/a.pgn#5.3".into(),
            file: "live/a.pgn".into(),
            tournament: None,
            board: "5.3".into(),
            round: Some("5".into()),
            white: Some("A \"x\"".into()),
            black: None,
            plies: 6,
            state: "playing".into(),
            look: Look {
                svg: "<svg/>".into(),
                last_moves: vec!["3.Ka1".into(), "3...Kh8".into()],
                to_move: Some(Side::White),
                count: 6,
                count_text: "6 plies".into(),
                twice: vec![Twice {
                    after: "3...Kh8".into(),
                    plies: vec![2, 6],
                }],
                clock_white: Some("0:04:55".into()),
                clock_black: None,
                emt: None,
            },
        });
        assert_eq!(
            hub.wait(0, Some(0), Duration::ZERO).boards[0].as_ref(),
            BOARD
        );
        assert_eq!(
            hub.snapshot(),
            [
                r#"{"run":"ab12","last_event_id":3,"oldest_event_id":1,"boards":["#,
                &BOARD[..BOARD.len() - 1],
                r#","events":["#,
                &listed(1, 1),
                ",",
                &listed(3, 3),
                r#"]}],"other_events":["#,
                &listed(2, 2),
                "]}",
            ]
            .concat()
        );
    }

    /// Events of no board are listed in the order they happened, whatever
    /// their files' names (they were in a hash map's order).
    #[test]
    fn other_events_in_the_order_they_happened() {
        let hub = Hub::new("ab12".to_owned());
        for (i, file) in ["z.pgn#", "a.pgn#", "m.pgn#", "a.pgn#", "q.pgn#"]
            .into_iter()
            .enumerate()
        {
            hub.push(file, event(i));
        }
        let state: serde_json::Value =
            serde_json::from_str(&hub.snapshot()).expect("/state is JSON");
        let ids: Vec<u64> = state["other_events"]
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|e| e["id"].as_u64())
            .collect();
        assert_eq!(ids, [1, 2, 3, 4, 5]);
    }

    /// An id of another run, or later than any of this run, starts again.
    #[test]
    fn an_id_of_another_run_starts_again() {
        let hub = Hub::new("ab12".to_owned());
        for i in 0..13 {
            hub.push("f#1", event(i));
        }
        assert_eq!(hub.resume("ab12-5"), Ok(6));
        assert_eq!(hub.resume("7"), Ok(8));
        assert_eq!(hub.resume("ab12-13"), Ok(14));
        assert_eq!(hub.resume("cd34-5"), Err(()));
        assert_eq!(hub.resume("1013"), Err(()));
        assert_eq!(hub.resume("ab12-x"), Err(()));
    }
}
