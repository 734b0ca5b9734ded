//! The watch's standard output, written by a thread of its own through a
//! bounded queue, so that output nobody reads never stops the watch: the
//! files are still followed, `/state` and `/events` still change, Ctrl-C
//! still ends it. A line that finds the queue full is dropped and counted;
//! at the end the count is said on stderr.
//!
//! Measured before (issue 40): `watch DIR --format jsonl` into a pipe
//! nobody read, 60 files of events (over the pipe's 64 KiB), blocked in
//! `write`: SIGINT did nothing, `/state` froze at 0 of 61 boards.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// At most this many writes (lines, or frames of the live view) wait.
pub(crate) const QUEUE: usize = 4096;

#[derive(Default)]
struct Counts {
    /// Lines handed to the queue, and written by the thread.
    queued: AtomicU64,
    written: AtomicU64,
    /// Lines that found the queue full.
    dropped: AtomicU64,
    /// The write error that ended the thread.
    failed: Mutex<Option<io::ErrorKind>>,
}

/// A `Write` whose `flush` hands what was written since to the queue.
pub struct Queued {
    tx: Option<SyncSender<(Vec<u8>, u64)>>,
    pending: Vec<u8>,
    counts: Arc<Counts>,
}

/// Waits for the queue to be written at the end.
pub struct Drain {
    done: Receiver<()>,
    counts: Arc<Counts>,
}

/// Starts the writing thread on `out`.
pub fn start<W: Write + Send + 'static>(mut out: W) -> io::Result<(Queued, Drain)> {
    let (tx, rx) = mpsc::sync_channel::<(Vec<u8>, u64)>(QUEUE);
    let (done_tx, done) = mpsc::channel();
    let counts = Arc::new(Counts::default());
    let c = Arc::clone(&counts);
    std::thread::Builder::new()
        .name("output".to_owned())
        .spawn(move || {
            for (bytes, lines) in rx {
                if let Err(e) = out.write_all(&bytes).and_then(|()| out.flush()) {
                    *c.failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e.kind());
                    break;
                }
                c.written.fetch_add(lines, Ordering::SeqCst);
            }
            let _ = done_tx.send(());
        })?;
    let drain = Drain {
        done,
        counts: Arc::clone(&counts),
    };
    let queued = Queued {
        tx: Some(tx),
        pending: Vec::new(),
        counts,
    };
    Ok((queued, drain))
}

impl Write for Queued {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    /// Queues what was written since the last flush; drops it, counted,
    /// when the queue is full. Fails only when the writing thread failed
    /// (a closed pipe: `BrokenPipe`, which ends the watch quietly).
    fn flush(&mut self) -> io::Result<()> {
        if let Some(kind) = *self.counts.failed.lock().unwrap_or_else(|p| p.into_inner()) {
            return Err(io::Error::new(kind, "cannot write the output"));
        }
        if self.pending.is_empty() {
            return Ok(());
        }
        let bytes = std::mem::take(&mut self.pending);
        let lines = (bytecount::count(&bytes, b'\n') as u64).max(1);
        let Some(tx) = &self.tx else { return Ok(()) };
        match tx.try_send((bytes, lines)) {
            Ok(()) => {
                self.counts.queued.fetch_add(lines, Ordering::SeqCst);
            }
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.counts.dropped.fetch_add(lines, Ordering::SeqCst);
            }
        }
        Ok(())
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        let _ = self.flush();
        self.tx = None;
    }
}

impl Drain {
    /// After the `Queued` is dropped: waits up to `limit` for the queue to
    /// be written; the lines that could not be written (dropped, or still
    /// waiting for a reader).
    pub fn finish(self, limit: Duration) -> u64 {
        let _ = self.done.recv_timeout(limit);
        let c = &self.counts;
        let waiting = c
            .queued
            .load(Ordering::SeqCst)
            .saturating_sub(c.written.load(Ordering::SeqCst));
        c.dropped.load(Ordering::SeqCst) + waiting
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that blocks until told to go on: the queue fills, the
    /// lines past it are counted, and nothing waits on the writer.
    #[test]
    fn a_stalled_output_drops_and_counts_never_blocks() {
        struct Stalled(Receiver<()>);
        impl Write for Stalled {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                let _ = self.0.recv();
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let (go, wait) = mpsc::channel();
        let (mut q, drain) = start(Stalled(wait)).unwrap();
        for i in 0..QUEUE + 100 {
            writeln!(q, "line {i}").unwrap();
            q.flush().unwrap();
        }
        drop(q);
        drop(go);
        // The thread writes what waits once the writer goes on: only the
        // lines that found the queue full are lost (one may have been
        // taken by the thread before the queue filled).
        let lost = drain.finish(Duration::from_secs(30));
        assert!((99..=100).contains(&lost), "{lost}");
    }
}
