//! verify-claim: decide draw claims and check recorded results under the
//! rules of chess (FIDE Laws) and Russian column draughts.
//!
//! The data flow is `input` → `record` → `game` → `claims` → `report`;
//! see ARCHITECTURE.md for the map.
#![forbid(unsafe_code)]

pub mod claims;
pub mod cli;
pub mod diag;
pub mod game;
pub mod input;
pub mod laws;
pub mod record;
pub mod report;
pub mod scan;
pub mod watch;
