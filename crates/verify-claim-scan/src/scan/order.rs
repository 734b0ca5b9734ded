//! The calling thread's part: the work put back in sequence order, games
//! and lines numbered (the one place they are), and handed to the sink.

use super::handoff::{Handoff, Taken};
use super::{Draft, Panicked, Placed, Row, Sink, Summary, Work, error_at};
use crate::claims::scan::Severity;
use crate::diag::{Diagnostic, Place};
use crate::output::writing;
use std::io;
use std::sync::Arc;

/// Puts the work back in sequence order and hands it to the sink.
#[derive(Default)]
pub(super) struct Order {
    pub(super) summary: Summary,
    input: Option<usize>,
    games_before: usize,
    lines_before: u32,
    /// Findings below this are counted, not handed over.
    min_severity: Option<Severity>,
    /// An input with an unread segment: nothing after it is reported.
    unread: Option<usize>,
}

impl Order {
    pub(super) fn new(min_severity: Severity) -> Order {
        Order {
            min_severity: Some(min_severity),
            ..Order::default()
        }
    }

    /// Until every task is handed over. Each task's work arrives (a
    /// worker's panic is work too), and when every thread is gone without
    /// it, the hand-off says so: this never waits for ever.
    pub(super) fn print_all(
        &mut self,
        handoff: &Handoff,
        sink: &mut dyn Sink,
        progress: impl Fn() -> (u64, u64),
    ) -> io::Result<()> {
        let mut ready = Vec::new();
        loop {
            match handoff.take(&mut ready) {
                Ok(()) => {}
                Err(Taken::Finished) => return Ok(()),
                Err(Taken::Abandoned) => {
                    return Err(io::Error::other("the scan stopped: a thread failed"));
                }
            }
            for work in ready.drain(..) {
                if let Work::Panicked {
                    input,
                    file,
                    game,
                    message,
                } = work
                {
                    self.start_input(input);
                    let game = self.games_before + game.max(1);
                    let file = file.to_string();
                    return Err(io::Error::other(Panicked {
                        file,
                        game,
                        message,
                    }));
                }
                self.print(work, sink).map_err(writing)?;
                let (done, total) = progress();
                sink.progress(done, total);
                if sink.abandoned() {
                    return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                }
            }
        }
    }

    pub(super) fn print(&mut self, work: Work, sink: &mut dyn Sink) -> io::Result<()> {
        match work {
            Work::Failed {
                file,
                kind,
                message,
            } => {
                self.summary.failed_inputs += 1;
                sink.input_error(&Diagnostic::new(kind, &file, None, message))
            }
            Work::Skipped { file, message } => sink.input_warning(&file, &message),
            Work::Stopped {
                chunk,
                input,
                file,
                message,
            } => {
                self.print(*chunk, sink)?;
                self.print(
                    Work::Unread {
                        input,
                        file,
                        message,
                    },
                    sink,
                )
            }
            Work::Unread {
                input,
                file,
                message,
            } => {
                self.start_input(input);
                if self.unread == Some(input) {
                    return Ok(());
                }
                self.unread = Some(input);
                self.summary.failed_inputs += 1;
                let message = format!(
                    "{message}: this game and the rest of the file are not read (the \
                     numbers of the games after it cannot be known)"
                );
                // The first game not read, where the text not read begins
                // (the previous chunk ended at a game start, at a line start).
                let start = Place { line: 1, col: 1 };
                let row = Draft::unreadable(1, 1, start, message.clone(), None);
                let unread = error_at(1, start, 0, message);
                let base = (self.games_before, self.lines_before);
                self.findings(&file, 0, vec![unread], sink)?;
                hand_rows(&file, base, vec![row], sink)
            }
            Work::Chunk {
                input,
                file,
                games,
                plies,
                text_bytes,
                lines,
                findings,
                rows,
                text,
            } => {
                self.start_input(input);
                if self.unread == Some(input) {
                    return Ok(());
                }
                let base = (self.games_before, self.lines_before);
                self.findings(&file, lines, findings, sink)?;
                hand_rows(&file, base, rows, sink)?;
                if let Some(t) = text {
                    sink.chunk_text(&t)?;
                }
                self.games_before += games;
                self.summary.games += games;
                self.summary.plies += plies;
                self.summary.text_bytes += text_bytes;
                self.summary.lines += u64::from(lines);
                Ok(())
            }
            // Handled by `print_all`, which ends the scan.
            Work::Panicked { .. } => Ok(()),
        }
    }

    /// Game numbers and lines run on within one input.
    fn start_input(&mut self, input: usize) {
        if self.input != Some(input) {
            self.input = Some(input);
            self.games_before = 0;
            self.lines_before = 0;
        }
    }

    /// Counts and hands over a chunk's findings (game numbers and lines
    /// within the chunk), then moves on by its `lines`.
    fn findings(
        &mut self,
        file: &str,
        lines: u32,
        mut findings: Vec<Placed>,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        for p in &mut findings {
            p.place.line += self.lines_before;
        }
        for p in &findings {
            let sev = p.finding.kind.severity();
            self.summary.worst = self.summary.worst.max(Some(sev));
            *self.summary.by_kind.entry(p.finding.kind).or_default() += 1;
            if self.min_severity.is_some_and(|m| sev < m) {
                continue;
            }
            let row = Row {
                file,
                game: self.games_before + p.game,
                placed: p,
            };
            sink.finding(&row)?;
        }
        self.lines_before += lines;
        Ok(())
    }
}

/// Hands over a chunk's game rows, after its findings, numbered in the
/// input: `base`, the games and lines before the chunk.
fn hand_rows(
    file: &Arc<str>,
    base: (usize, u32),
    rows: Vec<Draft>,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    // One name for the chunk's rows (a row per game: no copy each).
    for mut r in rows {
        r.moved(base.0, base.1);
        sink.game(&r.placed(file))?;
    }
    Ok(())
}
