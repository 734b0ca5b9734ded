//! The hand-off between the scan's threads: the work of each task, put by
//! the workers in any order, taken by the printer in sequence order; and
//! the bound on tasks in flight, which holds the producer back.
//!
//! Why not two channels (results to the printer, tokens back to the
//! producer)? A channel wakes its receiver for every message: two thread
//! wake-ups per 1 MiB segment, each a switch on a core a worker needs (on a
//! virtual machine, an idle core woken by an interrupt). Here the printer
//! is woken only when a batch of tasks can be printed (or when someone
//! waits for it), and the producer only when the printer has freed room
//! for a batch: a few wake-ups per batch instead of two per task. The
//! bound is the same kind of bound: at most `in_flight` tasks handed out
//! and not printed.

use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::Work;

pub(super) struct Handoff {
    state: Mutex<State>,
    /// The printer waits here for work it can print.
    printer: Condvar,
    /// The producer waits here for room.
    room: Condvar,
    /// Tasks handed out and not yet printed, at most.
    in_flight: u64,
    /// Tasks ready in sequence that are worth waking the printer for.
    batch: u64,
}

#[derive(Default)]
struct State {
    /// Work delivered and not yet taken, by sequence number.
    pending: BTreeMap<u64, Work>,
    /// The first sequence number the printer has not taken.
    next: u64,
    /// The number of tasks, once all are handed out.
    total: Option<u64>,
    printer_waits: bool,
    producer_waits: bool,
    /// Threads that may still deliver (see [`Live`]).
    live: usize,
    /// The printer has stopped (an output error): nobody waits for room.
    stopped: bool,
}

/// How the printer's wait ended without work.
pub(super) enum Taken {
    /// Every task's work was taken.
    Finished,
    /// Every thread is gone and some work never came.
    Abandoned,
}

impl Handoff {
    /// A hand-off for `threads` delivering threads (each holds a [`Live`]).
    pub(super) fn new(in_flight: u64, batch: u64, threads: usize) -> Arc<Handoff> {
        Arc::new(Handoff {
            state: Mutex::new(State {
                live: threads,
                ..State::default()
            }),
            printer: Condvar::new(),
            room: Condvar::new(),
            in_flight: in_flight.max(1),
            batch: batch.clamp(1, in_flight.max(1)),
        })
    }

    /// A panic elsewhere does not make the state wrong (every change is
    /// whole under the lock), so a poisoned lock is used as it is.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until task `seq` may be handed out: false when the printer has
    /// stopped.
    pub(super) fn room_for(&self, seq: u64) -> bool {
        let mut s = self.lock();
        while !s.stopped && seq >= s.next + self.in_flight {
            // The tasks in flight fill the printer's batch (`batch` is at
            // most `in_flight`): it need not be woken for this wait.
            s.producer_waits = true;
            s = self.room.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
        s.producer_waits = false;
        !s.stopped
    }

    /// The work of task `seq`.
    pub(super) fn deliver(&self, seq: u64, work: Work) {
        let mut s = self.lock();
        s.pending.insert(seq, work);
        if s.printer_waits && self.worth_waking(&s) {
            self.printer.notify_one();
        }
    }

    /// Every task is handed out: there are `total`.
    pub(super) fn done(&self, total: u64) {
        let mut s = self.lock();
        s.total = Some(total);
        if s.printer_waits {
            self.printer.notify_one();
        }
    }

    /// Whether the printer, waiting, should wake: it can print, and a batch
    /// is ready, or no batch may fill any more (the last tasks, or every
    /// thread gone). A producer waiting for room is no reason: the tasks in
    /// flight fill a batch, and the workers have the rest of them to do.
    fn worth_waking(&self, s: &State) -> bool {
        if !s.pending.contains_key(&s.next) {
            return false;
        }
        let ready = (0..self.batch)
            .take_while(|i| s.pending.contains_key(&(s.next + i)))
            .count() as u64;
        ready >= self.batch || s.total.is_some() || s.live == 0
    }

    /// The printer's part: moves the work ready in sequence into `out`
    /// (empty), waiting until there is some; `Err` when there will be none.
    pub(super) fn take(&self, out: &mut Vec<Work>) -> Result<(), Taken> {
        let mut s = self.lock();
        loop {
            let st = &mut *s;
            while let Some(work) = st.pending.remove(&st.next) {
                out.push(work);
                st.next += 1;
            }
            if !out.is_empty() {
                if s.producer_waits {
                    self.room.notify_one();
                }
                return Ok(());
            }
            if s.total == Some(s.next) {
                return Err(Taken::Finished);
            }
            if s.live == 0 {
                return Err(Taken::Abandoned);
            }
            s.printer_waits = true;
            s = self.printer.wait(s).unwrap_or_else(PoisonError::into_inner);
            s.printer_waits = false;
        }
    }

    /// The printer stops: a producer waiting for room gives up.
    pub(super) fn stop(&self) {
        let mut s = self.lock();
        s.stopped = true;
        self.room.notify_all();
    }
}

/// A delivering thread's hold on the hand-off: when the thread ends, in
/// any way (a panic outside the caught one too), the printer knows.
pub(super) struct Live(pub(super) Arc<Handoff>);

impl std::ops::Deref for Live {
    type Target = Handoff;
    fn deref(&self) -> &Handoff {
        &self.0
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let mut s = self.0.lock();
        s.live = s.live.saturating_sub(1);
        if s.printer_waits && (s.live == 0 || self.0.worth_waking(&s)) {
            self.0.printer.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work() -> Work {
        Work::Skipped {
            file: Arc::from("f"),
            message: String::new(),
        }
    }

    #[test]
    fn work_comes_out_in_sequence_order_and_the_end_is_said() {
        let h = Handoff::new(4, 2, 1);
        let producer = Live(Arc::clone(&h));
        let t = std::thread::spawn(move || {
            for seq in [1, 0, 3, 2, 4] {
                assert!(producer.room_for(seq.min(4)));
                producer.deliver(seq, work());
            }
            producer.done(5);
        });
        let mut got = 0;
        let mut out = Vec::new();
        loop {
            match h.take(&mut out) {
                Ok(()) => got += std::mem::take(&mut out).len(),
                Err(Taken::Finished) => break,
                Err(Taken::Abandoned) => panic!("abandoned"),
            }
        }
        t.join().unwrap();
        assert_eq!(got, 5);
    }

    #[test]
    fn a_thread_gone_without_its_work_ends_the_wait() {
        let h = Handoff::new(4, 4, 1);
        let producer = Live(Arc::clone(&h));
        std::thread::spawn(move || {
            producer.deliver(1, work());
            drop(producer);
        })
        .join()
        .unwrap();
        assert!(matches!(h.take(&mut Vec::new()), Err(Taken::Abandoned)));
    }

    #[test]
    fn the_producer_waits_for_room_and_a_stop_releases_it() {
        let h = Handoff::new(2, 1, 1);
        let producer = Live(Arc::clone(&h));
        let t = std::thread::spawn(move || producer.room_for(2));
        while !h.lock().producer_waits {
            std::thread::yield_now();
        }
        h.stop();
        assert!(!t.join().unwrap(), "stopped, not given room");
    }
}
