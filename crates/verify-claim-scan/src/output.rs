//! Writing the output, and what a failed write means.
//!
//! Standard output closed by its reader (`verify-claim scan ... | head -1`)
//! ends the run at once, quietly, with status 0 ([`CLOSED_PIPE_STATUS`]), as
//! ripgrep does: the reader had what it wanted, and a CI step under
//! `pipefail` does not fail. Any other write error (a full disk,
//! `>/dev/full`, a standard output that was closed before the run, `>&-`)
//! is said on stderr and is status 2. Standard error that cannot be written
//! is never a panic: a message that cannot be said is dropped. Everything
//! said on stderr has its control characters shown escaped ([`escape`]).

pub use verify_claim_rules::escape;

use std::fmt::Display;
use std::io::{self, Write};

/// The exit status when standard output was closed by its reader: 0, the
/// reader stopped reading because it had what it wanted.
pub const CLOSED_PIPE_STATUS: i32 = 0;

/// Writes one line to standard error, its control characters escaped; if
/// that fails there is nowhere left to say so, and the line is dropped.
pub fn to_stderr(line: impl Display) {
    let line = line.to_string();
    let _ = writeln!(io::stderr().lock(), "{}", escape::text(&line));
}

/// An output error as the run reports it: same kind, saying what failed.
pub fn writing(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return e;
    }
    io::Error::new(e.kind(), format!("cannot write the output: {e}"))
}

/// The exit status for a failed write, after saying why on stderr (nothing
/// for a closed pipe).
pub fn failure_status(e: &io::Error) -> i32 {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CLOSED_PIPE_STATUS
    } else {
        to_stderr(format_args!("verify-claim: error: {e}"));
        2
    }
}

/// Writes `bytes` to standard output and flushes it; on failure, the exit
/// status to end with.
pub fn write_stdout(bytes: &[u8]) -> Result<(), i32> {
    // Nothing to write: standard output is not even locked (the watch's
    // output thread may hold it, blocked on a reader that never reads).
    if bytes.is_empty() {
        return Ok(());
    }
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| failure_status(&writing(e)))
}

/// Whether standard output can be written, as an error to report if not.
///
/// A standard output closed before the run (`verify-claim ... >&-`) is
/// given `/dev/null` opened read-only by the binary's start-up code
/// (`src/closed_stdout.c`: the Rust runtime would give it one opened
/// read-write, which cannot be told from Python's `subprocess.DEVNULL`).
/// Every write to it fails; this says so before the run starts, so that
/// `watch` does not wait for its first event to fail (Linux, from
/// `/proc/self/fdinfo`; elsewhere the first write fails).
pub fn stdout_is_open() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let info = std::fs::read_to_string("/proc/self/fdinfo/1").unwrap_or_default();
        let read_only = info
            .lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
            .is_some_and(|flags| flags & 3 == 0);
        if read_only {
            return Err(writing(io::Error::other(
                "standard output is closed (or open only for reading)",
            )));
        }
    }
    Ok(())
}
