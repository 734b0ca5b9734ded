//! One section's entries of the scan page: the game headings (findings
//! under their game) and each finding with its message and, where it
//! helps, a compact diagram.

use std::fmt::Write;
use std::hash::{Hash, Hasher};

use maud::{PreEscaped, Render, html};

use super::super::page::Text;
use super::super::svg::{self, Marks};
use crate::claims::scan::{Kind, Severity};
use crate::scan::Row;

/// The page's own style (the shared one is `page::CSS`).
pub(super) const CSS: &str = r#"
main.scan { display: flex; flex-direction: column; }
main.scan > .summary { order: -1; }
main.scan > section > h2 { font-size: 14pt; }
section.game { break-inside: auto; margin-top: .4em; }
section.game h3 { font-size: 10.5pt; margin: .6em 0 .2em; }
.nw { white-space: nowrap; }
.finding { display: flex; gap: 3mm; align-items: flex-start; padding: 1mm 0; border-bottom: 1px solid #e3e3e3; break-inside: avoid; page-break-inside: avoid; font-size: 9.5pt; }
.finding p { margin: 0; }
.finding figure.compact, .finding figure.compact svg.board { width: 24mm; }
.finding .same { width: 24mm; flex: none; font-size: 7.5pt; color: #666; text-align: center; }
.sev { font: bold 7.5pt sans-serif; text-transform: uppercase; padding: 0 .4em; border-radius: 3px; color: #fff; }
.sev.error { background: #b42318; } .sev.warning { background: #b26b00; } .sev.info { background: #3b6ea5; }
table.counts { border-collapse: collapse; margin: .3em 0; } table.counts td, table.counts th { padding: .05em .7em; border-bottom: 1px solid #ddd; text-align: left; }
table.counts td.n { text-align: right; font-variant-numeric: tabular-nums; }
ul.games { font-size: 8.5pt; padding-left: 1.2em; margin: .3em 0; }
ul.games code { font-size: 8pt; }
details { margin: .3em 0; } details > summary { cursor: pointer; }
@media print { details:not([open]) > summary::after { content: " (not printed: collapsed)"; color: #666; font-size: 8pt; } }
.failed { color: #b42318; }
"#;

/// A section's text and the game it is writing.
#[derive(Default)]
pub(super) struct Entry {
    pub text: String,
    current: Option<(String, usize)>,
    /// The ply last drawn in that game (findings at one ply share it).
    drawn_ply: Option<usize>,
}

/// "White – Black", or nothing when neither is named ("?" names no one).
pub(super) fn players(white: &str, black: &str) -> String {
    let unnamed = |n: &str| n.is_empty() || n == "?";
    if unnamed(white) && unnamed(black) {
        String::new()
    } else {
        format!("{white} – {black}")
    }
}

/// The anchor of a game's heading in the section of `sev`.
pub(super) fn anchor(sev: Severity, file: &str, game: usize) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (file, game).hash(&mut h);
    let prefix = match sev {
        Severity::Error => 'e',
        Severity::Warning => 'w',
        Severity::Info => 'n',
    };
    format!("{prefix}-{:016x}", h.finish())
}

/// A game end the Laws make by themselves: the record agrees with it
/// unless a result-mismatch says otherwise (drawn there), so its position
/// is not drawn unless asked.
pub(super) fn automatic_end(k: Kind) -> bool {
    matches!(
        k,
        Kind::Checkmate
            | Kind::Stalemate
            | Kind::NoMoves
            | Kind::InsufficientMaterial
            | Kind::FivefoldRepetition
            | Kind::SeventyFiveMove
            | Kind::DeadPosition
    )
}

/// The game's name with its result, the result never broken across lines
/// (markup).
fn game_name(r: &Row<'_>) -> String {
    let p = r.placed;
    // The tags' "?" (unknown) says nothing a reader needs.
    let players = players(&p.white, &p.black);
    html! {
        (Text(r.file)) ", game " (r.game)
        @if !players.is_empty() { ": " (Text(&players)) }
        @if !p.result.is_empty() { ", recorded " span.nw { (Text(&p.result)) } }
    }
    .into_string()
}

/// A sentence ends with a full stop.
fn sentence(t: &str) -> String {
    let t = t.trim_end();
    if t.ends_with(['.', '!', '?']) {
        t.to_owned()
    } else {
        format!("{t}.")
    }
}

/// Whether `word` is a decided result as the output writes it (`1-0`,
/// `0-1`, `1/2-1/2`: their names, not the aliases a record may use).
fn is_decided_result(word: &str) -> bool {
    use crate::laws::GameResult;
    use verify_claim_rules::names::Named;
    GameResult::NAMES
        .iter()
        .any(|n| n.name == word && n.value != GameResult::Unfinished)
}

/// The results in a text ("1/2-1/2", "1-0", "0-1"), each kept on one line.
fn nowrap_results(t: &str) -> String {
    let mut out = String::with_capacity(t.len() + 32);
    for (i, word) in t.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let core = word.trim_end_matches([',', '.', ':', ';', ')']);
        if is_decided_result(core) {
            let _ = write!(
                out,
                "<span class=\"nw\">{core}</span>{}",
                &word[core.len()..]
            );
        } else {
            out.push_str(word);
        }
    }
    out
}

impl Entry {
    /// Opens the heading of `r`'s game when it is not the one being written.
    pub(super) fn game(&mut self, r: &Row<'_>, sev: Severity, s: &mut String) {
        let key = (r.file.to_owned(), r.game);
        if self.current.as_ref() == Some(&key) {
            return;
        }
        self.close(s);
        // Opened here, closed by `close`; the anchor is hex digits, the
        // name markup of `game_name`'s template.
        let _ = writeln!(
            s,
            "<section class=\"game\" id=\"{}\"><h3>{}</h3>",
            anchor(sev, r.file, r.game),
            game_name(r)
        );
        self.current = Some(key);
        self.drawn_ply = None;
    }

    pub(super) fn close(&mut self, s: &mut String) {
        if self.current.take().is_some() {
            s.push_str("</section>\n");
        }
    }

    /// One finding; `draw`: with its diagram; `named`: the line names its
    /// game (entries not under a game heading).
    pub(super) fn finding(&mut self, r: &Row<'_>, draw: bool, named: bool, s: &mut String) {
        let f = &r.placed.finding;
        s.push_str("<div class=\"finding\">");
        // A parse error at ply 0 has no position of its own to show.
        let draw = draw && !(f.kind == Kind::ParseError && f.ply == 0);
        match &r.placed.board {
            Some(_) if draw && !named && self.drawn_ply == Some(f.ply) => {
                s.push_str("<div class=\"same\">the same position</div>");
            }
            Some(b) if draw => {
                let title = format!("{}, ply {}", f.kind.name(), f.ply);
                s.push_str("<figure class=\"compact\">");
                s.push_str(&svg::board(b, &Marks::default(), &title, true));
                s.push_str("</figure>");
                self.drawn_ply = Some(f.ply);
            }
            _ => {}
        }
        let sev = f.kind.severity();
        // The result, unless the message already says it.
        let result = f
            .recorded
            .as_deref()
            .filter(|rec| !f.message.contains(rec))
            .map(|rec| (rec, f.expected.as_deref()));
        // The message escaped, then its results kept on their lines.
        let message = nowrap_results(&Text(sentence(&f.message)).to_string());
        html! {
            div {
                p {
                    span class={ "sev " (sev.name()) } { (sev.name()) } " " b { (f.kind.name()) }
                    " · ply " (f.ply) " · line " (r.placed.place.line)
                    @if named { " · " (PreEscaped(game_name(r))) }
                }
                p {
                    (PreEscaped(message))
                    @if let Some(m) = &f.mv { " Move to write: " b { (Text(m)) } "." }
                    @if let Some((rec, exp)) = result {
                        " Recorded " span.nw { (Text(rec)) }
                        @if let Some(exp) = exp { ", the Laws give " span.nw { (Text(exp)) } }
                        "."
                    }
                }
            }
        }
        .render_to(s);
        s.push_str("</div>\n");
    }
}
