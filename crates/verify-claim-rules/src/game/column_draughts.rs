//! Russian column draughts: the rules are the `column-draughts` crate
//! (crates/column-draughts); this module re-exports it and plays it as a
//! [`Game`](super::Game) (`game.rs`).

pub use ::column_draughts::*;

mod game;
