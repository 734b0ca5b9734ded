//! What the pipeline delivers, and to whom: the [`Sink`] it drives (in
//! input order, on the calling thread) and the placed findings it hands
//! over. Printers implement it (`crate::report::scan`), as do the library's
//! iterator and the Python binding; the pipeline knows none of them.

use std::io;
use std::sync::Arc;

use super::GameLine;
use crate::claims::scan::{Finding, Kind};
use crate::diag::{Diagnostic, Place};
use crate::record::Encoding;

/// A finding placed in its file, as a worker found it. Its fields are the
/// printers' (`verify-claim-report`), hidden: a library user reads a
/// [`Row`] by its methods.
#[derive(Clone, Debug)]
pub struct Placed {
    /// 1-based game index within the chunk (the pipeline adds the games of
    /// earlier chunks of the same input when it hands it to the sink).
    #[doc(hidden)]
    pub game: usize,
    #[doc(hidden)]
    pub place: Place,
    #[doc(hidden)]
    pub white: String,
    #[doc(hidden)]
    pub black: String,
    #[doc(hidden)]
    pub finding: Finding,
    /// The recorded result (`Result` tag, else the result token).
    #[doc(hidden)]
    pub result: String,
    /// The position of the finding, when the sink asks for boards.
    #[doc(hidden)]
    pub board: Option<Box<crate::game::board::Board>>,
    /// The error of a game too large to hold: no chunk holds its text.
    #[doc(hidden)]
    pub unread: bool,
}

/// A finding with its input and its game number in that input: what a
/// [`Sink`] receives.
pub struct Row<'a> {
    #[doc(hidden)]
    pub file: &'a str,
    #[doc(hidden)]
    pub game: usize,
    #[doc(hidden)]
    pub placed: &'a Placed,
}

impl Row<'_> {
    /// The input as named (`<stdin>` for `-`).
    pub fn file(&self) -> &str {
        self.file
    }

    /// 1-based game number in the input.
    pub fn game(&self) -> usize {
        self.game
    }

    /// Line and column of the move (or error) in the input.
    pub fn place(&self) -> Place {
        self.placed.place
    }

    /// What was found.
    pub fn kind(&self) -> Kind {
        self.placed.finding.kind
    }

    /// Plies played when the finding holds.
    pub fn ply(&self) -> usize {
        self.placed.finding.ply
    }

    /// One sentence for people, with the article.
    pub fn message(&self) -> &str {
        &self.placed.finding.message
    }

    /// Whether this is the error of a game too large to hold, which no
    /// chunk holds (so `--format pgn` cannot write it back).
    pub fn not_read(&self) -> bool {
        self.placed.unread
    }
}

/// What a sink needs of each game besides its findings; the workers provide
/// it, in parallel.
#[derive(Clone, Default)]
pub struct Needs {
    /// Each finding's board (the HTML page's diagrams).
    pub boards: bool,
    /// Called by a worker on each chunk it analysed; what it returns goes
    /// to [`Sink::chunk_text`] in input order (the PGN written back).
    pub chunk: Option<Arc<dyn ChunkHook>>,
    /// Each game's row of the per-game table, to [`Sink::game`].
    pub games: bool,
}

/// A sink's per-chunk work, done on the workers (Send + Sync: one for all).
pub trait ChunkHook: Send + Sync {
    /// `bytes`: whole games read as `encoding`; `findings`: theirs, games
    /// numbered from 1 within the chunk, every severity.
    fn chunk(&self, bytes: &[u8], encoding: Encoding, findings: &[Placed]) -> Vec<u8>;
}

/// Where a scan's results go, in input order. Every method but
/// [`Sink::finding`] has a default that does nothing: warnings and errors
/// reach the sink, never the process's stderr (the CLI's sink prints them).
pub trait Sink {
    /// What the workers must provide with the findings (asked once).
    fn needs(&self) -> Needs {
        Needs::default()
    }
    /// One finding at or above the scan's minimum severity.
    fn finding(&mut self, row: &Row<'_>) -> io::Result<()>;
    /// An input that could not be read, or held no game, with its place
    /// when it has one.
    fn input_error(&mut self, d: &Diagnostic) -> io::Result<()> {
        let _ = d;
        Ok(())
    }
    /// A path a walk left out, and why.
    fn input_warning(&mut self, file: &str, message: &str) -> io::Result<()> {
        let _ = (file, message);
        Ok(())
    }
    /// One game's row of the per-game table ([`Needs::games`]), every
    /// game of the input in order, after the game's findings.
    fn game(&mut self, game: &GameLine) -> io::Result<()> {
        let _ = game;
        Ok(())
    }
    /// What [`Needs::chunk`]'s hook made of a chunk.
    fn chunk_text(&mut self, text: &[u8]) -> io::Result<()> {
        let _ = text;
        Ok(())
    }
    /// Whether whoever takes the results is gone (the library's iterator
    /// was dropped, or told to stop): the scan then stops as after an
    /// output error (a closed pipe), within the task its workers are on.
    /// Asked after each task.
    fn abandoned(&self) -> bool {
        false
    }

    /// Bytes read so far of `total` (0: unknown), after each task.
    fn progress(&mut self, done: u64, total: u64) {
        let _ = (done, total);
    }
    /// The scan's totals (games, plies, findings by kind, every severity),
    /// told just before [`Sink::finish`].
    fn totals(&mut self, summary: &crate::scan::Summary) {
        let _ = summary;
    }
    /// The scan is over (not called when it failed).
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A sink behind a `&mut` or a `Box` is a sink, as `io::Write` is (the
/// printers come boxed, and a caller can lend its own sink).
macro_rules! forward_sink {
    ($($by:ty),*) => {$(
        impl<S: Sink + ?Sized> Sink for $by {
            fn needs(&self) -> Needs {
                (**self).needs()
            }
            fn finding(&mut self, row: &Row<'_>) -> io::Result<()> {
                (**self).finding(row)
            }
            fn input_error(&mut self, d: &Diagnostic) -> io::Result<()> {
                (**self).input_error(d)
            }
            fn input_warning(&mut self, file: &str, message: &str) -> io::Result<()> {
                (**self).input_warning(file, message)
            }
            fn chunk_text(&mut self, text: &[u8]) -> io::Result<()> {
                (**self).chunk_text(text)
            }
            fn abandoned(&self) -> bool {
                (**self).abandoned()
            }

            fn game(&mut self, game: &GameLine) -> io::Result<()> {
                (**self).game(game)
            }
            fn progress(&mut self, done: u64, total: u64) {
                (**self).progress(done, total)
            }
            fn totals(&mut self, summary: &crate::scan::Summary) {
                (**self).totals(summary)
            }
            fn finish(&mut self) -> io::Result<()> {
                (**self).finish()
            }
        }
    )*};
}
forward_sink!(&mut S, Box<S>);
