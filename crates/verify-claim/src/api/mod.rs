//! The library's front door: the three questions verify-claim answers, as
//! functions. Everything else in the crate is the engine behind them.

mod claim;
mod live;
mod position;
mod scan;

pub use claim::{ClaimOptions, DeadSearch, decide, decide_file, decide_file_pgn};
pub use live::LiveFile;
pub use position::{PositionCheck, PositionOptions, check_position};
pub use scan::{
    Findings, InputFile, ScanItem, ScanSettings, input_files, scan, scan_bytes, scan_frames,
    scan_paths, scan_range, scan_reader, scan_to,
};
