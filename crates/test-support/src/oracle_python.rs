//! Where the oracle's python-chess is: one definition for the places that
//! ask: the library's `build.rs` (which decides `cfg(no_oracle)`, and
//! includes this file by `#[path]`: a build script should not depend on a
//! test crate) and the tests, through this crate.

use std::process::{Command, Stdio};

/// A Python interpreter with python-chess 1.11 or later, for the oracle:
/// `$ORACLE_PYTHON`, else `python3` if it imports `chess`.
pub fn find_oracle_python() -> Option<String> {
    let candidates: Vec<String> = std::env::var("ORACLE_PYTHON")
        .into_iter()
        .chain(["python3".to_owned()])
        .collect();
    candidates.into_iter().find(|py| {
        Command::new(py)
            .args([
                "-c",
                "import chess, chess.pgn; assert chess.__version__ >= '1.11'",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}
