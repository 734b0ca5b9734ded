//! The rules core of verify-claim: a record's bytes to a verdict, with no
//! threads, no files and no output. The layers, each knowing only those
//! before it:
//!
//! - [`diag`]: places (line, column) in an input and the [`diag::Diagnostic`]
//!   every bad input becomes; [`escape`]: control characters shown, not
//!   obeyed; [`words`]: counts with their nouns;
//! - [`record`]: PGN/PDN syntax, games one after another from bytes;
//! - [`game`]: the rules of play (chess on shakmaty, column draughts), one
//!   `Game` trait over both;
//! - [`laws`]: the rulebooks (articles, counts and penalties by edition);
//! - [`claims`]: the claims, the game-over rules and one game's findings
//!   for the scan.
//!
//! Reading files, the parallel scan, the printers and the public API are
//! the crates above (`verify-claim-scan`, `verify-claim-report`,
//! `verify-claim`): see ARCHITECTURE.md. This crate's items are their door,
//! not a stable interface.
#![forbid(unsafe_code)]
// Every `pub` item reachable from the root, every reachable type nameable
// (the printers, the facade and the binary are to follow: issue 42).
#![warn(unreachable_pub, unnameable_types)]

pub mod claims;
pub mod diag;
pub mod escape;
pub mod game;
pub mod laws;
pub mod record;
pub mod words;

/// The name tables of the rule vocabulary's enums (`Named`): the draughts
/// crate's, where `Side` and `Search` have theirs.
pub use column_draughts::names;
