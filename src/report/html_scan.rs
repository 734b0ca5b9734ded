//! `scan --format html`: one page for an archive. The counts per kind come
//! first on the page, then one section per game with findings (players,
//! result, each finding with its message and a compact diagram).
//!
//! The page is written as the findings arrive (memory stays bounded
//! whatever the archive's size); the counts, known only at the end, are
//! written last and shown first (CSS `order`).

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::page::{esc, page_start};
use super::scan::Printer;
use super::svg::{self, Marks};
use crate::claims::scan::{Kind, Severity};
use crate::diag::Diagnostic;
use crate::scan::{Needs, Row};

const SCAN_CSS: &str = r#"
main.scan { display: flex; flex-direction: column; }
main.scan > .summary { order: -1; }
section.game { break-inside: auto; margin-top: .6em; content-visibility: auto; contain-intrinsic-size: auto 40mm; }
section.game h2 { font-size: 11.5pt; margin: .8em 0 .3em; }
.finding { display: flex; gap: 4mm; align-items: flex-start; padding: 1.5mm 0; border-bottom: 1px solid #e3e3e3; break-inside: avoid; page-break-inside: avoid; }
.finding p { margin: 0; }
.finding .same { width: 30mm; flex: none; font-size: 8pt; color: #666; text-align: center; }
.sev { font: bold 8pt sans-serif; text-transform: uppercase; padding: 0 .4em; border-radius: 3px; color: #fff; }
.sev.error { background: #b42318; } .sev.warning { background: #b26b00; } .sev.info { background: #3b6ea5; }
table.counts { border-collapse: collapse; } table.counts td, table.counts th { padding: .1em .8em; border-bottom: 1px solid #ddd; text-align: left; }
table.counts td.n { text-align: right; font-variant-numeric: tabular-nums; }
.failed { color: #b42318; }
"#;

/// The HTML scan printer.
#[derive(Default)]
pub struct Html {
    started: bool,
    /// The game being written: (file, game number).
    current: Option<(String, usize)>,
    /// The ply last drawn in that game (findings at the same ply share it).
    drawn_ply: Option<usize>,
    by_kind: BTreeMap<Kind, usize>,
    failed: Vec<(String, String)>,
    totals: Option<(usize, usize)>,
}

impl Html {
    pub fn new() -> Html {
        Html::default()
    }

    fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if !self.started {
            self.started = true;
            let mut s = String::new();
            page_start("verify-claim scan", SCAN_CSS, &mut s);
            s.push_str("<main class=\"scan\"><div class=\"games\">\n");
            out.write_all(s.as_bytes())?;
        }
        Ok(())
    }

    fn close_game(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.current.take().is_some() {
            out.write_all(b"</section>\n")?;
        }
        Ok(())
    }
}

fn severity_class(s: Severity) -> &'static str {
    s.name()
}

impl Printer for Html {
    fn finding(&mut self, r: &Row<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
        let key = (r.file.to_owned(), r.game);
        if self.current.as_ref() != Some(&key) {
            self.close_game(out)?;
            let p = r.placed;
            let players = if p.white.is_empty() && p.black.is_empty() {
                String::new()
            } else {
                format!(": {} – {}", esc(&p.white), esc(&p.black))
            };
            let result = if p.result.is_empty() {
                String::new()
            } else {
                format!(", recorded {}", esc(&p.result))
            };
            writeln!(
                out,
                "<section class=\"game\"><h2>{}, game {}{players}{result}</h2>",
                esc(r.file),
                r.game
            )?;
            self.current = Some(key);
            self.drawn_ply = None;
        }
        let f = &r.placed.finding;
        *self.by_kind.entry(f.kind).or_default() += 1;
        let mut s = String::with_capacity(2048);
        s.push_str("<div class=\"finding\">");
        match &r.placed.board {
            Some(_) if self.drawn_ply == Some(f.ply) => {
                s.push_str("<div class=\"same\">the same position</div>");
            }
            Some(b) => {
                let title = format!("{}, ply {}", f.kind.name(), f.ply);
                s.push_str("<figure class=\"compact\">");
                s.push_str(&svg::board(b, &Marks::default(), &title, true));
                s.push_str("</figure>");
                self.drawn_ply = Some(f.ply);
            }
            None => s.push_str("<div class=\"same\">no position</div>"),
        }
        let sev = f.kind.severity();
        s.push_str(&format!(
            "<div><p><span class=\"sev {}\">{}</span> <b>{}</b> · ply {} · line {}</p><p>{}</p>",
            severity_class(sev),
            sev.name(),
            f.kind.name(),
            f.ply,
            r.placed.place.line,
            esc(&f.message)
        ));
        if let Some(m) = &f.mv {
            s.push_str(&format!("<p>Move to write: <b>{}</b></p>", esc(m)));
        }
        match (&f.recorded, &f.expected) {
            (Some(rec), Some(exp)) => s.push_str(&format!(
                "<p>Recorded {}, the Laws give {}.</p>",
                esc(rec),
                esc(exp)
            )),
            (Some(rec), None) => s.push_str(&format!("<p>Recorded {}.</p>", esc(rec))),
            _ => {}
        }
        s.push_str("</div></div>\n");
        out.write_all(s.as_bytes())
    }

    fn needs(&self) -> Needs {
        Needs {
            boards: true,
            chunk: None,
        }
    }

    fn input_error(&mut self, d: &Diagnostic, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
        self.close_game(out)?;
        let file = match d.place {
            Some(p) => format!("{}:{}:{}", d.file, p.line, p.col),
            None => d.file.clone(),
        };
        writeln!(
            out,
            "<p class=\"failed\"><b>{}</b>: {}</p>",
            esc(&file),
            esc(&d.message)
        )?;
        self.failed.push((file, d.message.clone()));
        Ok(())
    }

    fn totals(&mut self, summary: &crate::scan::Summary) {
        self.totals = Some((summary.games, summary.plies));
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.start(out)?;
        self.close_game(out)?;
        let mut s = String::from("</div>\n<section class=\"summary\"><h1>Scan report</h1>");
        if let Some((games, plies)) = self.totals {
            s.push_str(&format!("<p>{games} game(s), {plies} plies scanned.</p>"));
        }
        let total: usize = self.by_kind.values().sum();
        if total == 0 {
            s.push_str("<p>No findings.</p>");
        } else {
            s.push_str(
                "<table class=\"counts\"><tr><th>kind</th><th>severity</th><th>findings</th></tr>",
            );
            for (k, n) in &self.by_kind {
                s.push_str(&format!(
                    "<tr><td>{}</td><td>{}</td><td class=\"n\">{n}</td></tr>",
                    k.name(),
                    k.severity().name()
                ));
            }
            s.push_str(&format!(
                "<tr><th>all</th><th></th><td class=\"n\"><b>{total}</b></td></tr></table>"
            ));
        }
        if !self.failed.is_empty() {
            s.push_str(&format!(
                "<p class=\"failed\">{} input(s) could not be read (listed where they occur).</p>",
                self.failed.len()
            ));
        }
        s.push_str("</section></main>\n</body></html>\n");
        out.write_all(s.as_bytes())
    }
}
