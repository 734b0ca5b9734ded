//! A finding's output line made on a worker: the ordering thread only
//! writes its bytes, with the two numbers that only it knows (the game's
//! number in the input and the line's) put in their places.

use std::io::{self, Write};

use super::sink::Row;

/// What goes in a hole of a [`Formatted`] line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hole {
    /// The game's 1-based number in the input.
    Game,
    /// The finding's line in the input.
    Line,
}

/// Bytes with holes for the game and line numbers, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Formatted {
    bytes: Vec<u8>,
    /// Each hole: where it is in `bytes`, and what fills it.
    holes: Vec<(usize, Hole)>,
}

impl Formatted {
    /// A hole here, after the bytes written so far.
    pub fn hole(&mut self, hole: Hole) {
        self.holes.push((self.bytes.len(), hole));
    }

    /// Writes the line with `row`'s game and line numbers in its holes.
    pub fn write_filled(&self, row: &Row<'_>, out: &mut dyn Write) -> io::Result<()> {
        let mut at = 0;
        for &(end, hole) in &self.holes {
            out.write_all(self.bytes.get(at..end).unwrap_or_default())?;
            match hole {
                Hole::Game => write!(out, "{}", row.game())?,
                Hole::Line => write!(out, "{}", row.place().line)?,
            }
            at = end;
        }
        out.write_all(self.bytes.get(at..).unwrap_or_default())
    }
}

impl Write for Formatted {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A sink's per-finding formatting, done on the workers (Send + Sync: one
/// for all). `row`'s game and line are not yet known (their holes are);
/// `None`: the sink formats this one itself, in order.
pub trait LineHook: Send + Sync {
    /// The line of the finding `row`, or `None`.
    fn line(&self, row: &Row<'_>) -> Option<Formatted>;
}
