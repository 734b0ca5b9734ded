//! Records: the text of a game (PGN for chess, PDN for draughts) read into
//! tags and move tokens, each with its byte offset in the input.
//!
//! The reader knows the *syntax* of a record (tags, comments, variations,
//! move numbers, NAGs, results) but not the rules of any game: a move token
//! is handed on as text, and the game's own notation parser (in
//! [`crate::game`]) decides whether it is a move. A token that is neither a
//! move nor any other element is therefore always an error, never skipped.
//!
//! [`boundary`] is the one rule for where a game begins, shared with the
//! scan's chunker.

pub mod boundary;
pub mod clock;
pub mod pgn;

pub use pgn::{Encoding, GameRecord, MoveToken, Reader};
