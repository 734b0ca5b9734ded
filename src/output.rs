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

pub mod escape;

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
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| failure_status(&writing(e)))
}

/// Whether standard output was open when the run began, as an error to
/// report if not.
///
/// The standard library gives a process started with descriptor 1 closed
/// (`verify-claim ... >&-`) a `/dev/null` opened read-write in its place, so
/// everything written would vanish and the run end as if it had been
/// written. A shell's `>/dev/null` opens it write-only; so descriptor 1 on
/// `/dev/null` read-write is taken for a closed standard output (Linux,
/// from `/proc/self/fdinfo`; `1<>/dev/null` looks the same and is refused
/// too). Elsewhere nothing is detected.
pub fn stdout_is_open() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let null = std::fs::read_link("/proc/self/fd/1")
            .is_ok_and(|p| p == std::path::Path::new("/dev/null"));
        let read_write = || {
            let info = std::fs::read_to_string("/proc/self/fdinfo/1").unwrap_or_default();
            info.lines()
                .find_map(|l| l.strip_prefix("flags:"))
                .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
                .is_some_and(|flags| flags & 3 == 2)
        };
        if null && read_write() {
            return Err(writing(io::Error::other("standard output is closed")));
        }
    }
    Ok(())
}
