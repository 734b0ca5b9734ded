//! Reading one run's chunk: decoding, finding its first and last game
//! starts, handing out pieces, skipping a game too large to hold.

use std::io::{self, Read};
use std::sync::atomic::Ordering;

use super::{At, Chunk, LOOK_AHEAD, LOOK_BACK, LineCounter, RunReader, Skipped};
use super::{boundary, first_start_in_window};

const LB: u64 = LOOK_BACK as u64;

impl RunReader<'_> {
    /// The chunk's next piece; `None` at its end. This run's decoding error
    /// comes after the pieces of the text decoded before it.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        if !self.started {
            if !self.find_start() {
                return self.finish();
            }
            self.find_end();
        }
        loop {
            if let Some(end) = self.end {
                if end > self.base {
                    return Ok(Some(self.emit((end - self.base) as usize)));
                }
                return self.finish();
            }
            if self.filled >= self.frames.limits.piece {
                // Only before the place the next run's first start is looked
                // for (by the window test alone, see `find_end`).
                let limit = self.run_end.map_or(self.filled, |a| {
                    ((a + LB).saturating_sub(self.base) as usize).min(self.filled)
                });
                if let Some(cut) = boundary::last_game_start(&self.data[..limit], 1) {
                    return Ok(Some(self.emit(cut)));
                }
            }
            if self.filled >= self.frames.limits.max_game {
                return Ok(Some(self.skip()));
            }
            if self.over {
                self.find_end();
                self.end = self.end.or_else(|| Some(self.text_end()));
                continue;
            }
            self.step();
            self.find_end();
        }
    }

    fn finish(&mut self) -> io::Result<Option<Chunk>> {
        self.error.take().map_or(Ok(None), Err)
    }

    /// Where the chunk ends when no later run's first start ends it: the
    /// text's end, or after a decoding error the last game start in it
    /// (the held text begins at a game start): the game from there may be
    /// cut short, and a scan decides only whole games.
    fn text_end(&self) -> u64 {
        if !self.broken {
            return self.decoded();
        }
        self.base + boundary::whole_games_end(&self.data[..self.filled]) as u64
    }

    fn decoded(&self) -> u64 {
        self.base + self.filled as u64
    }

    /// Up to where starts can be tested: a look-ahead before the decoded
    /// text's end, or its end once there is no more.
    fn testable(&self) -> u64 {
        if self.over {
            self.decoded()
        } else {
            self.decoded().saturating_sub(LOOK_AHEAD as u64)
        }
    }

    /// The first window start in `[lo, hi)` not looked at yet. The text
    /// held always begins at a game start or at least [`LOOK_BACK`] before
    /// the place tested, so every worker gets the same answer.
    fn search_window(&mut self, lo: u64, hi: u64) -> Option<u64> {
        let from = self.search.max(lo);
        let to = hi.min(self.testable());
        if from >= to {
            return None;
        }
        let found = first_start_in_window(
            &self.data[..self.filled],
            (from - self.base) as usize,
            (to - self.base) as usize,
            false,
        )
        .map(|i| self.base + i as u64);
        self.search = found.map_or(to, |s| s + 1);
        found
    }

    /// The next run's first start: the chunk's end.
    fn find_end(&mut self) {
        if let Some(a) = self.run_end {
            self.end = self.search_window(a + LB, u64::MAX);
        }
    }

    /// This run's first game start (not for run 0), dropping the text
    /// before it: false when none starts in it.
    fn find_start(&mut self) -> bool {
        loop {
            let hi = self.run_end.map_or(u64::MAX, |a| a + LB);
            if let Some(s) = self.search_window(LB, hi) {
                self.drop_before(s);
                self.started = true;
                return true;
            }
            // Once there is no more text, all of it was searched.
            if self.search >= hi || self.over {
                return false;
            }
            let keep = self.search.saturating_sub(LB).max(self.base);
            self.drop_before(keep);
            self.step();
        }
    }

    /// The text up to `n` as a piece; the rest stays.
    fn emit(&mut self, n: usize) -> Chunk {
        let bytes = self.data[..n].to_vec();
        self.drop_before(self.base + n as u64);
        Chunk {
            bytes,
            too_large: None,
        }
    }

    fn drop_before(&mut self, at: u64) {
        let n = ((at - self.base) as usize).min(self.filled);
        self.data.copy_within(n..self.filled, 0);
        self.filled -= n;
        self.base += n as u64;
    }

    /// The game at `base` is longer than a game may be: skip it, counting
    /// its lines, to the next game start (in this run's text, or the
    /// chunk's end), holding only a window of it.
    fn skip(&mut self) -> Chunk {
        let from = self.base;
        let mut counter = LineCounter::default();
        self.search = self.search.max(from + 1);
        let end = loop {
            // A start in this run's text, or the next run's first: the end.
            if let Some(s) = self.search_window(0, u64::MAX) {
                if self.run_end.is_some_and(|a| s >= a + LB) {
                    self.end = Some(s);
                }
                break s;
            }
            if self.over {
                self.end = Some(self.decoded());
                break self.decoded();
            }
            let keep = self.search.saturating_sub(LB).max(self.base);
            counter.add(&self.data[..(keep - self.base) as usize]);
            self.drop_before(keep);
            self.step();
        };
        counter.add(&self.data[..(end - self.base) as usize]);
        self.drop_before(end);
        Chunk {
            bytes: Vec::new(),
            too_large: Some(Skipped {
                bytes: end - from,
                lines: counter.lines(),
            }),
        }
    }

    /// Decodes one step more, going on to the next run at a run's end.
    /// Every worker decodes a run in the same steps from its start, so a
    /// failing run's text ends at the same place for all.
    fn step(&mut self) {
        let step = self.frames.limits.step.max(1);
        while !self.over {
            let Some(decoder) = self.decoder.as_mut() else {
                self.open_next();
                continue;
            };
            if self.data.len() < self.filled + step {
                self.data.resize(self.filled + step, 0);
            }
            match decoder.read(&mut self.data[self.filled..self.filled + step]) {
                Ok(0) => {
                    self.decoder = None;
                    if self.next == self.run + 1 {
                        self.run_end = Some(self.decoded());
                    }
                }
                Ok(n) => {
                    self.filled += n;
                    return;
                }
                Err(e) => self.fail(e),
            }
        }
    }

    fn open_next(&mut self) {
        if self.next >= self.frames.runs() {
            self.over = true;
            return;
        }
        let (at, end) = self.frames.bounds(self.next);
        let at = At {
            src: self.frames.src.as_ref(),
            at,
            end,
        };
        self.next += 1;
        match zstd::stream::read::Decoder::new(at) {
            Ok(d) => self.decoder = Some(d),
            Err(e) => self.fail(e),
        }
    }

    /// The text ends here. The error is this reader's to give when its own
    /// run failed; a later run's worker gives its own.
    fn fail(&mut self, e: io::Error) {
        self.over = true;
        self.broken = true;
        self.decoder = None;
        if self.next == self.run + 1 {
            self.frames.failed.fetch_min(self.run, Ordering::Relaxed);
            self.error = Some(e);
        }
    }
}

/// Reads the decoded text of a whole file the way a sequential scan does
/// (tests compare with it).
#[cfg(test)]
pub(super) fn sequential(bytes: &[u8]) -> (Vec<u8>, Option<String>) {
    let mut out = Vec::new();
    let mut d = match zstd::stream::read::Decoder::new(bytes) {
        Ok(d) => d,
        Err(e) => return (out, Some(e.to_string())),
    };
    let mut buf = vec![0; 1 << 16];
    loop {
        match d.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => return (out, Some(e.to_string())),
        }
    }
}
