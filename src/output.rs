//! Writing the output, and what a failed write means.
//!
//! Standard output closed by its reader (`verify-claim scan ... | head -1`)
//! ends the run at once, quietly, with [`CLOSED_PIPE_STATUS`], the status a
//! shell reports for a writer that the closed pipe stopped; any other write
//! error (a full disk, `>/dev/full`) is said on stderr and is status 2.
//! Standard error that cannot be written is never a panic: a message that
//! cannot be said is dropped.

use std::fmt::Display;
use std::io::{self, Write};

/// The exit status when standard output was closed by its reader: 128 +
/// SIGPIPE, as for any program a closed pipe stops.
pub const CLOSED_PIPE_STATUS: i32 = 141;

/// Writes one line to standard error; if that fails there is nowhere left
/// to say so, and the line is dropped.
pub fn to_stderr(line: impl Display) {
    let _ = writeln!(io::stderr().lock(), "{line}");
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
