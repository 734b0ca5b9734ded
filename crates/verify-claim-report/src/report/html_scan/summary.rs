//! The summary at the top of the scan page: what was scanned (inputs,
//! edition, time), the counts by severity and kind with what was left
//! out, and links to each section and to each game with errors or
//! warnings.

use std::fmt::Write;

use maud::{PreEscaped, Render, html};

use super::super::page::{Text, rulebook_words};
use super::View;
use crate::claims::scan::{RulesChoice, Severity};
use crate::words::count as counted;

/// "1 game", "2 games".
fn count(n: usize, one: &str) -> String {
    match one {
        "ply" => counted(n, "ply", "plies"),
        _ => counted(n, one, &format!("{one}s")),
    }
}

fn section_id(sev: Severity) -> &'static str {
    match sev {
        Severity::Error => "errors",
        Severity::Warning => "warnings",
        Severity::Info => "notices",
    }
}

fn rules_words(r: RulesChoice) -> String {
    match r {
        RulesChoice::Auto => {
            "the FIDE Laws of Chess in force on each game's Date (the latest edition without one)"
                .to_owned()
        }
        RulesChoice::Fixed(e) => format!("the {}", rulebook_words(crate::laws::Laws::Fide(e))),
    }
}

fn header(v: &View<'_>, s: &mut String) {
    let inputs = &v.head.inputs;
    html! {
        h1 { "Scan report" }
        dl.head {
            dt { "Inputs" }
            dd.wide {
                @if inputs.is_empty() { code { "(not named)" } }
                @for (i, input) in inputs.iter().enumerate() {
                    @if i > 0 { ", " }
                    code { (Text(input)) }
                }
            }
            dt { "Rules" } dd.wide { (Text(rules_words(v.head.rules))) }
            dt { "Run" } dd.wide { (Text(&v.head.time)) }
            @if let Some((games, plies)) = v.totals {
                dt { "Scanned" } dd.wide { (count(games, "game")) ", " (count(plies, "ply")) }
            }
        }
    }
    .render_to(s);
}

/// The counts: one row per kind, grouped by severity, each linked.
fn counts(v: &View<'_>, s: &mut String) {
    let found: usize = v.by_kind.values().map(|n| n.1).sum();
    let listed: usize = v.by_kind.values().map(|n| n.0).sum();
    if found == 0 {
        s.push_str("<p>No findings.</p>");
        return;
    }
    s.push_str("<table class=\"counts\"><tr><th>severity</th><th>kind</th><th>listed</th><th>found</th></tr>");
    for sev in [Severity::Error, Severity::Warning, Severity::Info] {
        for (k, (l, n)) in v.by_kind.iter().filter(|(k, _)| k.severity() == sev) {
            let link = if *l == 0 {
                k.name().to_owned()
            } else if sev == Severity::Info {
                format!("<a href=\"#k-{}\">{}</a>", k.name(), k.name())
            } else {
                format!("<a href=\"#{}\">{}</a>", section_id(sev), k.name())
            };
            let severity = if sev >= v.head.min {
                format!("<a href=\"#{}\">{}</a>", section_id(sev), sev.name())
            } else {
                sev.name().to_owned()
            };
            let _ = write!(
                s,
                "<tr><td>{severity}</td><td>{link}</td><td class=\"n\">{l}</td><td class=\"n\">{n}</td></tr>"
            );
        }
    }
    let _ = write!(
        s,
        "<tr><th colspan=\"2\">listed of all found</th><td class=\"n\"><b>{listed}</b></td><td class=\"n\"><b>{found}</b></td></tr></table>"
    );
    let mut left = Vec::new();
    if v.head.min > Severity::Info {
        left.push(format!(
            "findings below {} (--min-severity {}) are counted, not listed",
            v.head.min.name(),
            v.head.min.name()
        ));
    }
    let over: usize = v.over_cap.values().sum();
    if over > 0 {
        left.push(format!(
            "{} past the page's {} MiB limit for warnings and notices are counted, not listed (--format jsonl lists every one)",
            count(over, "finding"),
            super::SPOOL_CAP >> 20
        ));
    }
    if !left.is_empty() {
        let _ = write!(s, "<p class=\"legend\">Left out: {}.</p>", left.join("; "));
    }
}

fn games(v: &View<'_>, s: &mut String) {
    if v.games.is_empty() {
        return;
    }
    s.push_str("<h2>Games with errors or warnings</h2><ul class=\"games\">");
    // One line per file, its games in order.
    let mut file_open: Option<&str> = None;
    for (file, game, players, errors, warnings, anchor) in &v.games {
        if file_open != Some(*file) {
            if file_open.is_some() {
                s.push_str("</li>");
            }
            // The item is closed when the next file's begins.
            s.push_str("<li>");
            html! { code { (Text(file)) } ": " }.render_to(s);
            file_open = Some(*file);
        } else {
            s.push_str("; ");
        }
        let mut what = Vec::new();
        if *errors > 0 {
            what.push(count(*errors, "error"));
        }
        if *warnings > 0 {
            what.push(count(*warnings, "warning"));
        }
        html! {
            a href={ "#" (anchor) } { "game" (PreEscaped("&nbsp;")) (game) }
            @if !players.is_empty() { " " (Text(players)) }
            " (" (what.join(", ")) ")"
        }
        .render_to(s);
    }
    if file_open.is_some() {
        s.push_str("</li>");
    }
    s.push_str("</ul>");
    if v.games_over > 0 {
        let _ = write!(
            s,
            "<p class=\"legend\">… and {} more, in the sections below.</p>",
            count(v.games_over, "game")
        );
    }
}

/// The summary, shown first.
pub(super) fn summary(v: &View<'_>) -> String {
    let mut s = String::from("<section class=\"summary\">");
    header(v, &mut s);
    s.push_str("<h2>Findings</h2><p>Sections: <a href=\"#errors\">errors</a>");
    if v.head.min <= Severity::Warning {
        s.push_str(", <a href=\"#warnings\">warnings</a>");
    }
    if v.head.min <= Severity::Info {
        s.push_str(", <a href=\"#notices\">notices</a> (collapsed by kind)");
    }
    s.push_str(".</p>");
    counts(v, &mut s);
    if v.failed > 0 {
        let _ = write!(
            s,
            "<p class=\"failed\">{} could not be read (listed among the errors).</p>",
            count(v.failed, "input")
        );
    }
    games(v, &mut s);
    s.push_str("</section></main>\n</body></html>\n");
    s
}
