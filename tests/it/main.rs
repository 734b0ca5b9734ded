//! The integration tests that need nothing a machine may lack: one target
//! (one link of the binary and the library) with a module per area, as
//! ripgrep and uv keep theirs. The tests that need ../shared, python-chess
//! or Chromium are in `tests/needs` (their harness shows what is missing).

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod claim_report;
mod claims;
mod dead_cli;
mod dead_more;
mod docs_links;
mod draughts_claims;
mod output;
#[cfg(unix)]
mod paths;
mod reader_hostile;
mod reader_input;
mod scan_api;
mod sheet_cli;
mod snapshots;
mod zst_frames;
