//! The arbiter's desk: one page where the arbiter types or pastes the
//! scoresheets, clicks the claim point and gets the verdict and the
//! appeal report (`verify-claim desk`, and `/desk` on `watch --serve`).
//!
//! It is served by the live board's HTTP layer (`watch::serve`: the same
//! threads, bounds, token and Host checks); this module adds the routes:
//! the page (`/desk`, `/desk.js`, `/desk.css`), the API (`POST
//! /api/claim`, `POST /api/reconstruct`, and `POST /api/decide`, which is
//! the page's: the claim object and the report in one answer) and `GET
//! /api/game?id=ID` (a live board's record as the watch last read it).
//! [`engine`] is the one place that calls the engine.

pub(crate) mod api;
pub(crate) mod engine;
mod page;
pub(crate) mod record;

use std::collections::HashMap;
use std::sync::{Condvar, Mutex};

use crate::watch::serve::http::{Method, Request};

/// The address `verify-claim desk` serves when it names none.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8041";

/// A request body larger than this is refused (413) before it is read.
pub(crate) const MAX_BODY: usize = 4 << 20;

/// At most this many boards' records are kept for `/api/game` (the watch
/// follows at most 1,000 files of 2,000 boards; a record is at most 4,000
/// plies): past it, the oldest id is dropped.
pub(crate) const MAX_RECORDS: usize = 4096;

/// What the desk keeps between requests.
pub struct Desk {
    /// Live boards' records by the page's board id (`file#label`).
    records: Mutex<HashMap<String, String>>,
    /// Decisions running now, bounded by [`Desk::workers`].
    running: Mutex<usize>,
    freed: Condvar,
    workers: usize,
}

impl Default for Desk {
    fn default() -> Desk {
        Desk {
            records: Mutex::new(HashMap::new()),
            running: Mutex::new(0),
            freed: Condvar::new(),
            // A decision is CPU work: one per core at a time, the others
            // wait their turn on their connection's thread.
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}

impl Desk {
    /// Keeps a live board's record (PGN) for `/api/game`.
    pub fn keep(&self, id: &str, record: String) {
        let Ok(mut map) = self.records.lock() else {
            return;
        };
        if map.len() >= MAX_RECORDS && !map.contains_key(id) {
            // Bounded: any one is dropped (a board shown again comes back
            // at its next change).
            if let Some(k) = map.keys().next().cloned() {
                map.remove(&k);
            }
        }
        map.insert(id.to_owned(), record);
    }

    /// A live board's record, if the watch shows it.
    pub fn record(&self, id: &str) -> Option<String> {
        self.records.lock().ok()?.get(id).cloned()
    }

    /// Runs `work` when a worker is free (waits for one).
    pub fn run<T>(&self, work: impl FnOnce() -> T) -> T {
        {
            let mut n = self.running.lock().unwrap_or_else(|e| e.into_inner());
            while *n >= self.workers {
                n = self.freed.wait(n).unwrap_or_else(|e| e.into_inner());
            }
            *n += 1;
        }
        // Released even if the work panics (a bug, never an input: the
        // thread's unwinding must not keep the slot).
        struct Slot<'a>(&'a Desk);
        impl Drop for Slot<'_> {
            fn drop(&mut self) {
                let mut n = self.0.running.lock().unwrap_or_else(|e| e.into_inner());
                *n = n.saturating_sub(1);
                self.0.freed.notify_one();
            }
        }
        let _slot = Slot(self);
        work()
    }
}

/// The desk's routes, by path: which need the token (or a Host that names
/// this machine) and which are public (the script and the style).
pub(crate) fn route(path: &str) -> Option<bool> {
    match path {
        "/desk.js" | "/desk.css" => Some(false),
        "/desk" | "/api/claim" | "/api/reconstruct" | "/api/decide" | "/api/game" => Some(true),
        _ => None,
    }
}

/// Answers a request for one of [`route`]'s paths (access already
/// checked).
pub(crate) fn handle(rq: Request, path: &str, query: &str, desk: &Desk) {
    match (path, rq.method) {
        ("/desk", Method::Get | Method::Head) => {
            api::respond(
                rq,
                200,
                "text/html; charset=utf-8",
                page::html().into_bytes(),
            );
        }
        ("/desk.js", Method::Get | Method::Head) => {
            api::respond(rq, 200, "text/javascript; charset=utf-8", page::JS.into());
        }
        ("/desk.css", Method::Get | Method::Head) => {
            api::respond(rq, 200, "text/css; charset=utf-8", page::css().into_bytes());
        }
        ("/api/game", Method::Get | Method::Head) => api::game(rq, query, desk),
        ("/api/claim" | "/api/reconstruct" | "/api/decide", Method::Post) => {
            api::post(rq, path, desk);
        }
        _ => api::error(rq, 405, "method not allowed here"),
    }
}
