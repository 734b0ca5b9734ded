//! Following a live file without a clock: the model `verify-claim watch`
//! prints.

use std::path::PathBuf;
use std::time::SystemTime;

use crate::claims::scan::ScanOptions;
use crate::record::Encoding;
use crate::watch::{Watched, view};

/// One live file, followed as `verify-claim watch` follows it but with no
/// timing: hand it each state of the file in turn (the whole text as it is
/// now) and get the events that state causes, each the JSON object
/// `watch --format jsonl` prints.
///
/// ```
/// use std::time::SystemTime;
/// use verify_claim::{Encoding, LiveFile, ScanOptions};
///
/// let mut live = LiveFile::new("board.pgn");
/// let opts = ScanOptions::default();
/// let ended = |events: &[serde_json::Value]| events.iter().any(|e| e["kind"] == "game-ended");
/// let t = SystemTime::UNIX_EPOCH;
/// assert!(!ended(&live.update(b"1. f3 e5 *\n", &opts, Encoding::Utf8, t)));
/// let events = live.update(b"1. f3 e5 2. g4 Qh4# *\n", &opts, Encoding::Utf8, t);
/// assert!(ended(&events), "{events:?}");
/// assert_eq!(events[0]["file"], "board.pgn");
/// ```
pub struct LiveFile(Watched);

impl LiveFile {
    /// A file not read yet, named `path` in the events.
    pub fn new(path: impl Into<PathBuf>) -> LiveFile {
        LiveFile(Watched::new(path.into()))
    }

    /// The events the file's new state `bytes` causes, in file order, each
    /// stamped with `time`.
    pub fn update(
        &mut self,
        bytes: &[u8],
        options: &ScanOptions,
        encoding: Encoding,
        time: SystemTime,
    ) -> Vec<serde_json::Value> {
        self.0
            .apply(bytes, options, encoding)
            .iter()
            .map(|e| view::json(e, time))
            .collect()
    }
}
