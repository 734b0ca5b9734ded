//! The connections whose request head has not arrived whole yet, so that
//! slow ones cannot hold the server: each has one deadline for its whole
//! head ([`super::http::HEAD_TIMEOUT`]), at most [`PER_ADDR`] may wait
//! per client address, and a new connection that finds the server full
//! closes the oldest slow one (408) instead of being refused. A client
//! that sends its head at once is never the one closed: only a head that
//! has waited [`SLOW`] is.
//!
//! Measured before (issue 40): 330 sockets that each sent a request line
//! and then a byte every 2-4 s held 320 of the 320 connections for as long
//! as they dripped, and every normal request got 503.

use std::net::{IpAddr, Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// At most this many heads wait at once per client address; past it, the
/// address's oldest slow head is closed.
pub(super) const PER_ADDR: usize = 32;
/// A head that has waited this long may be closed to make room.
pub(super) const SLOW: Duration = Duration::from_secs(1);

struct Waiting {
    id: u64,
    ip: IpAddr,
    since: Instant,
    /// A handle on the same socket, to close its reading side.
    socket: TcpStream,
    closed: Arc<AtomicBool>,
}

/// Every head being read.
#[derive(Default)]
pub(super) struct Heads {
    waiting: Mutex<Vec<Waiting>>,
    next: AtomicU64,
}

/// One connection's place among the heads; it leaves when dropped.
pub(crate) struct Slot {
    heads: Arc<Heads>,
    id: u64,
    closed: Arc<AtomicBool>,
}

impl Slot {
    /// Whether the server closed this head to make room.
    pub(crate) fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.heads.lock().retain(|w| w.id != self.id);
    }
}

impl Heads {
    fn lock(&self) -> MutexGuard<'_, Vec<Waiting>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes room for a new connection from `ip`: closes the address's
    /// oldest slow head when it has [`PER_ADDR`] waiting, and, when `full`
    /// (the server has no connection left), the oldest slow head of any
    /// address. Returns whether the new connection may be taken (not
    /// full, or room was made).
    pub(super) fn make_room(&self, ip: IpAddr, full: bool) -> bool {
        let mut w = self.lock();
        let now = Instant::now();
        let slow = |x: &Waiting| now.duration_since(x.since) >= SLOW;
        if w.iter().filter(|x| x.ip == ip).count() >= PER_ADDR {
            close_oldest(&mut w, |x| x.ip == ip && slow(x));
        }
        !full || close_oldest(&mut w, slow)
    }

    /// Takes the new connection in.
    pub(super) fn admit(self: &Arc<Self>, socket: &TcpStream, ip: IpAddr) -> Option<Slot> {
        let socket = socket.try_clone().ok()?;
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let closed = Arc::new(AtomicBool::new(false));
        self.lock().push(Waiting {
            id,
            ip,
            since: Instant::now(),
            socket,
            closed: Arc::clone(&closed),
        });
        Some(Slot {
            heads: Arc::clone(self),
            id,
            closed,
        })
    }
}

/// Closes the reading side of the oldest head that `which` accepts (its
/// thread, waiting in `read`, wakes and answers 408); whether there was one.
fn close_oldest(w: &mut Vec<Waiting>, which: impl Fn(&Waiting) -> bool) -> bool {
    let Some(i) = w
        .iter()
        .enumerate()
        .filter(|(_, x)| which(x))
        .min_by_key(|(_, x)| x.since)
        .map(|(i, _)| i)
    else {
        return false;
    };
    let x = w.swap_remove(i);
    x.closed.store(true, Ordering::SeqCst);
    let _ = x.socket.shutdown(Shutdown::Read);
    true
}
