//! The scan of verify-claim: the inputs (files, folders, streams, byte
//! ranges; gzip, bzip2 and zstd, multi-frame `.zst` by runs of frames),
//! cut into chunks of whole games, analysed by worker threads and put back
//! in input order for a [`scan::Sink`]. Claim mode's input (the stretch
//! that holds the chosen game) is here too ([`input::select`]).
//!
//! The rules (what a game's findings are) are `verify-claim-rules`'; the
//! printers (`verify-claim-report`) are sinks above this crate, and the
//! public API is the `verify-claim` facade's. This crate's items are their
//! door, not a stable interface.
#![forbid(unsafe_code)]
// Every `pub` item reachable from the root, every reachable type nameable
// (the printers, the facade and the binary are to follow: issue 42).
#![warn(unreachable_pub, unnameable_types)]

pub mod input;
pub mod output;
pub mod scan;

// The rules core, under the names its modules had in one crate.
use verify_claim_rules::{claims, diag, game, laws, record};
