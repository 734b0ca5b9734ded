//! The printers of verify-claim: a claim's report (text, JSON, annotated
//! PGN, the HTML appeal report), a checked position, and the scan's
//! findings as sinks (text, JSON lines, CSV, GitHub annotations, annotated
//! PGN, the HTML page, the per-game table).
//!
//! Above the rules (`verify-claim-rules`) and the scan
//! (`verify-claim-scan`: a printer is a `Sink`); the public API is the
//! `verify-claim` facade's. This crate's items are its door, not a stable
//! interface.
#![forbid(unsafe_code)]
#![warn(unreachable_pub, unnameable_types)]

pub mod report;

// The layers below, under the names their modules had in one crate.
use verify_claim_rules::{claims, diag, game, laws, record, words};
use verify_claim_scan::{input, output, scan};
