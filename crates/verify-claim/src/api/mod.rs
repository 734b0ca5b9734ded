//! The library's front door: the three questions verify-claim answers, as
//! functions. Everything else in the crate is the engine behind them.

mod claim;
mod live;
mod position;
mod scan;

pub use claim::{ClaimOptions, DeadSearch, decide, decide_file, decide_file_pgn, decide_path};
pub use live::LiveFile;
pub use position::{PositionCheck, PositionOptions, check_position};
pub use scan::{
    Findings, InputFile, ScanItem, ScanSettings, input_files, scan, scan_bytes, scan_frames,
    scan_paths, scan_range, scan_reader, scan_to,
};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A caller's way to stop work running on other threads: a scan's
/// ([`Findings::stopper`]) or a claim's reading ([`decide_path`]). Clones
/// share one flag; once stopped, it stays so.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// Stops the work: a scan within the task its workers are on (between
    /// two games), a claim's reading at its next read.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Stop::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.0
    }
}
