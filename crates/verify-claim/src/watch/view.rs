//! Printing events: JSON lines (one object per event, flushed at once), a
//! plain log, and the live view for a terminal (one line per board,
//! redrawn in place, the newest alert highlighted, a bell on a new alert).

use std::collections::VecDeque;
use std::io::{self, Write};
use std::time::{Duration, Instant, SystemTime};

use super::events::Event;
use super::schema::{EventJson, to_json};
use super::{Summary, Watched};
use crate::output::escape;

/// Where events go.
pub trait Sink {
    /// One event, said at `time`.
    fn event(&mut self, e: &Event, time: SystemTime) -> io::Result<()>;
    /// Called after every poll; `changed` when events came.
    fn refresh(&mut self, files: &[Watched], changed: bool) -> io::Result<()>;
    /// The watch ends: the totals.
    fn finish(&mut self, summary: &Summary) -> io::Result<()>;
}

/// RFC 3339 in UTC, with milliseconds.
pub(crate) fn timestamp(t: SystemTime) -> String {
    humantime::format_rfc3339_millis(t).to_string()
}

/// The JSON object of an event ([`EventJson`]: the first fields are the
/// contract; the others appear when they apply).
pub(crate) fn json(e: &Event, time: SystemTime) -> serde_json::Value {
    serde_json::to_value(EventJson::of(e, time)).unwrap_or_default()
}

/// One line of text per event.
pub(crate) fn line(e: &Event, time: SystemTime) -> String {
    line_in(e, time, &e.file)
}

/// The last part of a path.
fn base_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
}

fn line_in(e: &Event, time: SystemTime, file: &str) -> String {
    let stamp = timestamp(time);
    let clock = stamp.get(11..23).unwrap_or(&stamp);
    let place = e
        .place
        .map(|p| format!(":{}:{}", p.line, p.col))
        .unwrap_or_default();
    let board = if e.game.index == 0 {
        String::new()
    } else {
        format!(" board {} ({})", e.game.label(), e.game.players())
    };
    format!(
        "{clock} {file}{place}{board} ply {}: {}: {}",
        e.ply,
        e.kind.name(),
        e.message
    )
}

/// One line per event, flushed after each: JSON lines, or a plain log
/// (the text format when stdout is not a terminal).
pub struct Lines<W: Write> {
    out: W,
    format: fn(&Event, SystemTime) -> String,
}

impl<W: Write> Lines<W> {
    /// One JSON object per event.
    pub fn jsonl(out: W) -> Lines<W> {
        Lines {
            out,
            format: |e, time| to_json(&EventJson::of(e, time)),
        }
    }

    /// One readable line per event, its control characters shown
    /// escaped (`\x1b`), as every text output does: a tag or a move token
    /// cannot drive the terminal.
    pub fn log(out: W) -> Lines<W> {
        Lines {
            out,
            format: |e, time| escape::field(&line(e, time)).into_owned(),
        }
    }
}

impl<W: Write> Sink for Lines<W> {
    fn event(&mut self, e: &Event, time: SystemTime) -> io::Result<()> {
        writeln!(self.out, "{}", (self.format)(e, time))?;
        self.out.flush()
    }
    fn refresh(&mut self, _: &[Watched], _: bool) -> io::Result<()> {
        Ok(())
    }
    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        self.out.flush()?;
        crate::output::to_stderr(summary.line());
        Ok(())
    }
}

/// The recent events the live view lists under the boards.
const RECENT: usize = 6;

/// The live view on a terminal.
pub struct Live<W: Write> {
    out: W,
    quiet: bool,
    /// Lines drawn last time (to go back up over them).
    drawn: usize,
    recent: VecDeque<(String, bool)>,
    alerts: usize,
    bell: bool,
    last_draw: Option<Instant>,
    /// The terminal's columns and rows, when known (the binary asks the
    /// terminal: the library compiles no terminal crate).
    size: fn() -> Option<(usize, usize)>,
}

impl<W: Write> Live<W> {
    /// The live view on `out`: a bell on a new alert unless `quiet`,
    /// wrapped to the terminal's size as `size` gives it.
    pub fn new(out: W, quiet: bool, size: fn() -> Option<(usize, usize)>) -> Live<W> {
        Live {
            out,
            quiet,
            size,
            drawn: 0,
            recent: VecDeque::with_capacity(RECENT + 1),
            alerts: 0,
            bell: false,
            last_draw: None,
        }
    }

    fn frame(&self, files: &[Watched], width: usize, height: usize) -> Vec<String> {
        let boards: usize = files.iter().map(|w| w.shown.len()).sum();
        let now = timestamp(SystemTime::now());
        let title = format!(
            "verify-claim watch · {} file(s) · {boards} board(s) · {} alert(s) · {} UTC · Ctrl-C to stop",
            files.len(),
            self.alerts,
            now.get(11..19).unwrap_or(&now)
        );
        // The tournament column only when some file has one.
        let tournaments = files.iter().any(|w| w.tournament.is_some());
        let column = |t: &str| {
            if tournaments {
                format!("{:<14} ", clip(t, 14))
            } else {
                String::new()
            }
        };
        let mut lines = wrap(&title, width);
        lines.extend(wrap(
            &format!(
                "  {}{:<12} {:<5} {:<22} {:>4} {:<11} {}",
                column("TOURNAMENT"),
                "FILE",
                "BOARD",
                "PLAYERS",
                "PLY",
                "LAST MOVE",
                "STATE"
            ),
            width,
        ));
        // The board of the newest alert is highlighted.
        let newest = files
            .iter()
            .flat_map(|w| w.boards.iter())
            .filter_map(|b| b.alert_at)
            .max();
        // Lines for the boards: what the title, the recent events (most
        // take two lines when wrapped) and the footer leave.
        let room = height.saturating_sub(lines.len() + 2 * RECENT + 3).max(1);
        let (mut used, mut left_out) = (0, 0);
        for w in files {
            let name = escape::field(&base_name(&w.file)).into_owned();
            let tournament = column(&escape::field(w.tournament.as_deref().unwrap_or("-")));
            for &i in &w.shown {
                let b = &w.boards[i];
                let newest = newest.is_some() && b.alert_at == newest;
                let text = format!(
                    "{} {tournament}{:<12} {:<5} {:<22} {:>4} {:<11} {}",
                    if newest { '>' } else { ' ' },
                    clip(&name, 12),
                    clip(&escape::field(&b.id.label()), 5),
                    clip(&escape::field(&b.id.players()), 22),
                    b.plies,
                    clip(b.last_move.as_deref().unwrap_or("-"), 11),
                    escape::field(&b.state())
                );
                // Every line wrapped at the width, not cut; the board's
                // lines after its first are indented.
                let parts = wrap(&text, width.saturating_sub(4));
                if used + parts.len() > room {
                    left_out += 1;
                    continue;
                }
                used += parts.len();
                for (k, part) in parts.into_iter().enumerate() {
                    let part = if k == 0 { part } else { format!("    {part}") };
                    lines.push(if newest {
                        format!("\x1b[7m{part}\x1b[0m")
                    } else if b.alert_at.is_some() {
                        format!("\x1b[1m{part}\x1b[0m")
                    } else {
                        part
                    });
                }
            }
        }
        if left_out > 0 {
            lines.push(format!("  … and {left_out} more board(s)"));
        }
        lines.push(String::new());
        lines.push("Recent events:".to_owned());
        for (i, (text, alert)) in self.recent.iter().enumerate() {
            let newest = *alert && i + 1 == self.recent.len();
            for (k, part) in wrap(text, width.saturating_sub(4)).into_iter().enumerate() {
                let indent = if k == 0 { "  " } else { "    " };
                lines.push(if newest {
                    format!("{indent}\x1b[1;31m{part}\x1b[0m")
                } else {
                    format!("{indent}{part}")
                });
            }
        }
        lines
    }
}

/// The text in lines of at most `n` characters, broken at spaces (a word
/// longer than a line is cut into pieces). Runs of spaces inside a line
/// (a row's columns) and at its start (its margin) are kept.
pub(crate) fn wrap(s: &str, n: usize) -> Vec<String> {
    let n = n.max(10);
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    // Spaces to put before the next word.
    let mut gap = 0;
    for (i, word) in s.split(' ').enumerate() {
        gap += usize::from(i > 0);
        let mut word: Vec<char> = word.chars().collect();
        while !word.is_empty() {
            // A continued line starts with its word.
            let g = if len == 0 && !out.is_empty() { 0 } else { gap };
            if len + g + word.len() <= n {
                line.extend(std::iter::repeat_n(' ', g));
                len += g + word.len();
                line.extend(word.drain(..));
                gap = 0;
            } else if len > 0 {
                out.push(std::mem::take(&mut line));
                len = 0;
            } else {
                let g = g.min(n / 2);
                line.extend(std::iter::repeat_n(' ', g));
                line.extend(word.drain(..(n - g).min(word.len())));
                out.push(std::mem::take(&mut line));
                gap = 0;
            }
        }
    }
    if !line.is_empty() || out.is_empty() {
        out.push(line);
    }
    out
}

/// The first `n` characters.
fn clip(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

impl<W: Write> Sink for Live<W> {
    fn event(&mut self, e: &Event, time: SystemTime) -> io::Result<()> {
        let alert = e.is_alert();
        if alert {
            self.alerts += 1;
            self.bell = true;
        }
        let text = line_in(e, time, &base_name(&e.file));
        self.recent
            .push_back((escape::field(&text).into_owned(), alert));
        while self.recent.len() > RECENT {
            self.recent.pop_front();
        }
        Ok(())
    }

    fn refresh(&mut self, files: &[Watched], changed: bool) -> io::Result<()> {
        let due = self
            .last_draw
            .is_none_or(|t| t.elapsed() >= Duration::from_secs(1));
        if !changed && !due {
            return Ok(());
        }
        let (width, height) = (self.size)().unwrap_or((100, 40));
        let lines = self.frame(files, width.max(20), height.max(10));
        let mut s = String::new();
        if self.drawn > 0 {
            s.push_str(&format!("\x1b[{}A\r", self.drawn));
        } else {
            s.push_str("\x1b[?25l");
        }
        s.push_str("\x1b[J");
        for l in &lines {
            s.push_str(l);
            s.push('\n');
        }
        if self.bell && !self.quiet {
            s.push('\x07');
        }
        self.bell = false;
        self.drawn = lines.len();
        self.last_draw = Some(Instant::now());
        self.out.write_all(s.as_bytes())?;
        self.out.flush()
    }

    fn finish(&mut self, summary: &Summary) -> io::Result<()> {
        self.out.write_all(b"\x1b[?25h")?;
        self.out.flush()?;
        crate::output::to_stderr(summary.line());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Place;
    use crate::game::Side;
    use crate::watch::schema::{EventKind, GameId};

    /// The bytes of the JSON lines: field names, their order (the contract
    /// first, the fields that apply after), nulls, escapes and numbers.
    #[test]
    fn an_event_json_line_byte_for_byte() {
        let t = SystemTime::UNIX_EPOCH + Duration::from_millis(1_765_000_000_123);
        let game = GameId {
            index: 2,
            round: Some("5".into()),
            board: Some("3".into()),
            white: Some("Å \"x\"".into()),
            black: None,
        };
        let mut e = Event::new(
            &"live/r5.pgn".into(),
            &game,
            41,
            EventKind::ResultEntered,
            "tab\there \u{1}".into(),
        );
        e.side = Some(Side::Black);
        e.mv = Some("21...Qg2#".into());
        e.article = Some("5.1.1");
        e.place = Some(Place { line: 7, col: 12 });
        e.reason = Some("checkmate");
        e.result = Some("0-1".into());
        e.agrees = Some(false);
        let line = |e: &Event| {
            let mut out = Vec::new();
            Lines::jsonl(&mut out).event(e, t).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            line(&e),
            concat!(
                r#"{"time":"2025-12-06T05:46:40.123Z","file":"live/r5.pgn","board":"5.3","#,
                r#""game":{"index":2,"round":"5","board":"3","white":"Å \"x\"","black":null},"#,
                r#""ply":41,"kind":"result-entered","side":"black","move":"21...Qg2#","#,
                r#""article":"5.1.1","message":"tab\there \u0001","line":7,"col":12,"#,
                r#""reason":"checkmate","result":"0-1","agrees":false}"#,
                "\n"
            )
        );
        assert_eq!(json(&e, t).to_string() + "\n", line(&e));
        let file = Event::new(
            &"live".into(),
            &GameId::none(),
            0,
            EventKind::RecordError,
            "cannot list".into(),
        );
        assert_eq!(
            line(&file),
            concat!(
                r#"{"time":"2025-12-06T05:46:40.123Z","file":"live","board":null,"#,
                r#""game":{"index":0,"round":null,"board":null,"white":null,"black":null},"#,
                r#""ply":0,"kind":"record-error","side":null,"move":null,"article":null,"#,
                r#""message":"cannot list"}"#,
                "\n"
            )
        );
    }

    #[test]
    fn event_text_is_wrapped_not_cut() {
        let text = "board 1.1 ply 4: game-ended: the game ended at ply 4 by checkmate (5.1.1)";
        let lines = wrap(text, 30);
        assert!(lines.iter().all(|l| l.chars().count() <= 30), "{lines:?}");
        assert_eq!(lines.join(" "), text);
        assert_eq!(
            wrap(&"x".repeat(25), 10),
            ["x".repeat(10), "x".repeat(10), "x".repeat(5)]
        );
        // A row keeps its margin and its columns; what does not fit goes
        // on the next line.
        assert_eq!(
            wrap("  a.pgn   1.1  A - B   ENDED checkmate 5.1.1", 24),
            ["  a.pgn   1.1  A - B", "ENDED checkmate 5.1.1"]
        );
    }
}
