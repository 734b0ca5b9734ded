//! `scan --format html`: an organiser's report for an archive. The
//! summary comes first (the inputs, the edition, the time of the run; the
//! counts by severity and kind, each linked to its section; the games with
//! errors or warnings, each linked), then the errors, then the warnings
//! (each under its game), then the notices, collapsed by kind.
//!
//! Memory stays bounded whatever the archive's size: the errors are written
//! as they arrive; the warnings and notices, which print after them, are
//! spooled in memory up to [`SPOOL_CAP`] bytes in all (past it they are
//! counted, not listed, and the page says so); the summary, known only at
//! the end, is written last and shown first (CSS `order`), its list of
//! games capped at [`GAMES_LISTED`].

use std::collections::BTreeMap;
use std::io::{self, Write};

use maud::{Render, html};

mod entry;
mod summary;

use super::page::{Text, page_start};
use super::scan::Printer;
use crate::claims::scan::{Kind, RulesChoice, Severity};
use crate::diag::Diagnostic;
use crate::scan::{Needs, Row};
use entry::Entry;

/// Bytes of warnings and notices held for the page, at most.
pub const SPOOL_CAP: usize = 16 << 20;
/// Games the summary links to, at most.
pub const GAMES_LISTED: usize = 2000;

/// What the page's header says about the run.
#[derive(Clone, Debug)]
pub struct Head {
    /// The inputs as named on the command line.
    pub inputs: Vec<String>,
    pub rules: RulesChoice,
    /// Findings below this are counted, not listed.
    pub min: Severity,
    /// The time of the run (RFC 3339).
    pub time: String,
    /// Draw the position of a game end the record agrees with.
    pub all_diagrams: bool,
}

impl Default for Head {
    fn default() -> Head {
        Head {
            inputs: Vec::new(),
            rules: RulesChoice::Auto,
            min: Severity::Info,
            time: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            all_diagrams: false,
        }
    }
}

/// A game with listed findings, for the summary.
struct GameLine {
    file: String,
    game: usize,
    players: String,
    errors: usize,
    warnings: usize,
    anchor: String,
}

/// The HTML scan printer.
#[derive(Default)]
pub struct Html {
    head: Head,
    started: bool,
    /// The errors section: the game being written.
    errors: Entry,
    /// Warnings, grouped by game; notices by kind.
    warnings: Entry,
    notices: BTreeMap<Kind, Entry>,
    spooled: usize,
    /// The spool's cap ([`SPOOL_CAP`]; smaller in tests).
    cap: usize,
    /// Findings by kind: (listed, found).
    by_kind: BTreeMap<Kind, (usize, usize)>,
    /// Findings not listed for the spool's cap, by kind.
    over_cap: BTreeMap<Kind, usize>,
    games: Vec<GameLine>,
    games_over: usize,
    failed: usize,
    totals: Option<(usize, usize)>,
}

impl Html {
    pub fn new(head: Head) -> Html {
        Html {
            head,
            cap: SPOOL_CAP,
            ..Html::default()
        }
    }

    fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if !self.started {
            self.started = true;
            let mut s = String::new();
            page_start("verify-claim scan", entry::CSS, &mut s);
            s.push_str(
                "<main class=\"scan\">\n<section class=\"sev-errors\"><h2 id=\"errors\">Errors</h2>\n",
            );
            out.write_all(s.as_bytes())?;
        }
        Ok(())
    }

    /// The summary's line for the game of `r`, its anchor in `section`.
    fn note_game(&mut self, r: &Row<'_>, sev: Severity) {
        let p = r.placed;
        let same = self
            .games
            .last()
            .is_some_and(|g| g.file == r.file && g.game == r.game);
        if !same {
            if self.games.len() >= GAMES_LISTED {
                self.games_over += 1;
                return;
            }
            self.games.push(GameLine {
                file: r.file.to_owned(),
                game: r.game,
                players: entry::players(&p.white, &p.black),
                errors: 0,
                warnings: 0,
                anchor: entry::anchor(sev, r.file, r.game),
            });
        }
        if let Some(g) = self
            .games
            .last_mut()
            .filter(|g| g.file == r.file && g.game == r.game)
        {
            match sev {
                Severity::Error if g.errors == 0 => {
                    // The errors come first on the page: link to them.
                    g.anchor = entry::anchor(sev, r.file, r.game);
                    g.errors += 1;
                }
                Severity::Error => g.errors += 1,
                _ => g.warnings += 1,
            }
        }
    }
}

impl Printer for Html {
    fn needs(&self) -> Needs {
        Needs {
            boards: true,
            ..Needs::default()
        }
    }

    fn finding(&mut self, r: &Row<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
        let f = &r.placed.finding;
        let sev = f.kind.severity();
        let counts = self.by_kind.entry(f.kind).or_default();
        counts.1 += 1;
        if sev < self.head.min {
            return Ok(());
        }
        let draw = self.head.all_diagrams || !entry::automatic_end(f.kind);
        match sev {
            Severity::Error => {
                counts.0 += 1;
                self.note_game(r, sev);
                let mut s = String::with_capacity(2048);
                self.errors.game(r, sev, &mut s);
                self.errors.finding(r, draw, false, &mut s);
                out.write_all(s.as_bytes())
            }
            _ if self.spooled >= self.cap => {
                *self.over_cap.entry(f.kind).or_default() += 1;
                Ok(())
            }
            Severity::Warning => {
                counts.0 += 1;
                self.note_game(r, sev);
                let before = self.warnings.text.len();
                let mut s = std::mem::take(&mut self.warnings.text);
                self.warnings.game(r, sev, &mut s);
                self.warnings.finding(r, draw, false, &mut s);
                self.spooled += s.len() - before;
                self.warnings.text = s;
                Ok(())
            }
            Severity::Info => {
                counts.0 += 1;
                let e = self.notices.entry(f.kind).or_default();
                let before = e.text.len();
                let mut s = std::mem::take(&mut e.text);
                e.finding(r, draw, true, &mut s);
                self.spooled += s.len() - before;
                e.text = s;
                Ok(())
            }
        }
    }

    fn input_error(&mut self, d: &Diagnostic, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
        let mut s = String::new();
        self.errors.close(&mut s);
        let file = match d.place {
            Some(p) => format!("{}:{}:{}", d.file, p.line, p.col),
            None => d.file.clone(),
        };
        html! {
            p.failed id={ "input-" (self.failed) } { b { (Text(file)) } ": " (Text(&d.message)) }
        }
        .render_to(&mut s);
        s.push('\n');
        self.failed += 1;
        out.write_all(s.as_bytes())
    }

    fn totals(&mut self, summary: &crate::scan::Summary) {
        self.totals = Some((summary.games, summary.plies));
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
        let mut s = String::new();
        self.errors.close(&mut s);
        if self.listed(Severity::Error) == 0 && self.failed == 0 {
            s.push_str("<p>None.</p>");
        }
        s.push_str("</section>\n");
        out.write_all(s.as_bytes())?;
        self.write_warnings(out)?;
        self.write_notices(out)?;
        let summary = summary::summary(&self.view());
        out.write_all(summary.as_bytes())
    }
}

impl Html {
    /// Findings of `sev` listed.
    fn listed(&self, sev: Severity) -> usize {
        self.by_kind
            .iter()
            .filter(|(k, _)| k.severity() == sev)
            .map(|(_, n)| n.0)
            .sum()
    }

    fn write_warnings(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.head.min > Severity::Warning {
            return Ok(());
        }
        let mut text = std::mem::take(&mut self.warnings.text);
        self.warnings.close(&mut text);
        out.write_all(b"<section class=\"sev-warnings\"><h2 id=\"warnings\">Warnings</h2>\n")?;
        if text.is_empty() {
            text.push_str("<p>None.</p>");
        }
        out.write_all(text.as_bytes())?;
        out.write_all(b"</section>\n")
    }

    fn write_notices(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.head.min > Severity::Info {
            return Ok(());
        }
        out.write_all(
            b"<section class=\"sev-notices\"><h2 id=\"notices\">Notices</h2>\n\
              <p class=\"legend\">Collapsed by kind: open one to read it (a closed kind is not printed).</p>\n",
        )?;
        let notices = std::mem::take(&mut self.notices);
        for (kind, e) in notices {
            let (listed, _) = self.by_kind.get(&kind).copied().unwrap_or_default();
            writeln!(
                out,
                "<details id=\"k-{}\"><summary><b>{}</b>: {listed}</summary>",
                kind.name(),
                kind.name()
            )?;
            out.write_all(e.text.as_bytes())?;
            out.write_all(b"</details>\n")?;
        }
        if self.by_kind.keys().all(|k| k.severity() != Severity::Info) {
            out.write_all(b"<p>None.</p>")?;
        }
        out.write_all(b"</section>\n")
    }
}

/// What the summary reads of the printer.
pub(super) struct View<'a> {
    pub head: &'a Head,
    pub by_kind: &'a BTreeMap<Kind, (usize, usize)>,
    pub over_cap: &'a BTreeMap<Kind, usize>,
    pub games: Vec<(&'a str, usize, &'a str, usize, usize, &'a str)>,
    pub games_over: usize,
    pub failed: usize,
    pub totals: Option<(usize, usize)>,
}

impl Html {
    pub(super) fn view(&self) -> View<'_> {
        View {
            head: &self.head,
            by_kind: &self.by_kind,
            over_cap: &self.over_cap,
            games: self
                .games
                .iter()
                .map(|g| {
                    (
                        g.file.as_str(),
                        g.game,
                        g.players.as_str(),
                        g.errors,
                        g.warnings,
                        g.anchor.as_str(),
                    )
                })
                .collect(),
            games_over: self.games_over,
            failed: self.failed,
            totals: self.totals,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::scan::Finding;
    use crate::diag::Place;
    use crate::scan::Placed;

    fn placed(game: usize, kind: Kind) -> Placed {
        Placed {
            game,
            place: Place { line: 1, col: 1 },
            white: "A".into(),
            black: "B".into(),
            finding: Finding {
                kind,
                ply: 3,
                offset: 0,
                side: None,
                mv: None,
                message: "a finding".into(),
                recorded: None,
                expected: None,
            },
            result: "1-0".into(),
            board: None,
            unread: false,
        }
    }

    /// Past the cap, warnings and notices are counted, not held; errors
    /// are written whatever the cap, and come first.
    #[test]
    fn the_spool_is_capped_and_errors_stream() {
        let mut h = Html::new(Head::default());
        h.cap = 600;
        let mut out = Vec::new();
        for game in 1..=50 {
            for kind in [Kind::MovesAfterEnd, Kind::Checkmate, Kind::IllegalMove] {
                let p = placed(game, kind);
                let row = Row {
                    file: "f.pgn",
                    game,
                    placed: &p,
                };
                h.finding(&row, &mut out).unwrap();
            }
        }
        assert!(h.spooled < 600 + 1000, "held {} bytes", h.spooled);
        let over: usize = h.over_cap.values().sum();
        assert!(over > 90, "{over} counted past the cap");
        h.totals(&crate::scan::Summary {
            games: 50,
            plies: 500,
            ..Default::default()
        });
        h.finish(&mut out).unwrap();
        let page = String::from_utf8(out).unwrap();
        assert_eq!(page.matches("<b>illegal-move</b>").count(), 50);
        assert!(
            page.contains("past the page&#39;s 16 MiB limit")
                || page.contains("past the page's 16 MiB limit")
        );
        let last_error = page.rfind("sev error").unwrap();
        assert!(last_error < page.find("sev warning").unwrap());
    }
}
