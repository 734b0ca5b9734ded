//! The parts of the claim report that make it the document an arbiter
//! signs: the record around the claim point (the claim point, the
//! occurrences and the count's start marked) and the block for the
//! arbiter's name, the time of the claim and the decision.

use std::fmt::Write;

use maud::{PreEscaped, Render, html};

use super::ClaimReport;
use super::diagrams::RecordMove;
use super::page::Text;
use crate::claims::GameOverReason;
use crate::game::Side;

/// What a move of the record is to the claim.
/// `played` is the record's move to that ply (none at the start).
fn marks(r: &ClaimReport, ply: usize, played: Option<&str>) -> (Vec<&'static str>, Option<String>) {
    let v = &r.verdict;
    let mut class = Vec::new();
    let mut note = None;
    if let Some(i) = v.repetitions.iter().position(|&q| q == ply) {
        class.push("occ");
        note = Some(format!("{}", i + 1));
    }
    // The ply after the claim point is the written move's (`written`);
    // the move played there shares its label only when it is that move
    // (the same position).
    let same_as_written = ply <= v.ply
        || (played.is_some() && played == v.written_move.as_deref() && !v.wrong_side());
    if let Some(i) = v
        .repetitions_written
        .iter()
        .position(|&q| q == ply && same_as_written)
    {
        class.push("occw");
        note = Some(format!("w{}", i + 1));
    }
    if ply == v.ply {
        class.push("claim");
    } else if ply > v.ply {
        class.push("after");
    }
    if ply == v.count.since_ply && counted(r) {
        class.push("reset");
    }
    (class, note)
}

/// The claim asks a count (its start is marked then).
pub fn counted(r: &ClaimReport) -> bool {
    let v = &r.verdict;
    v.grounds().iter().any(|g| g.rule.is_count())
        || v.reasons()
            .iter()
            .any(|x| matches!(x, crate::claims::Reason::CountShort { .. }))
}

fn number(m: &RecordMove, first: bool) -> String {
    match m.side {
        Side::White => format!("{}.", m.number),
        Side::Black if first => format!("{}...", m.number),
        Side::Black => String::new(),
    }
}

/// The record around the claim point, the claim point and the
/// occurrences marked, the written move in its place.
pub fn record(r: &ClaimReport, s: &mut String) {
    let d = &r.diagrams;
    let Some(first) = d.record.first() else {
        return;
    };
    s.push_str("<h2>The record around the claim</h2><p class=\"record\">");
    if d.record_cut {
        let _ = write!(s, "… (from ply {}) ", first.ply);
    } else {
        let (class, note) = marks(r, 0, None);
        if let Some(n) = note {
            html! { span class={ "m " (class.join(" ")) } { "start" sup { (n) } } }.render_to(s);
            s.push(' ');
        }
    }
    let mut written_done = false;
    for (i, m) in d.record.iter().enumerate() {
        if m.ply == r.verdict.ply + 1 {
            written(r, s);
            written_done = true;
        }
        let (class, note) = marks(r, m.ply, Some(&m.notation));
        let number = number(m, i == 0 || m.ply == r.verdict.ply + 1);
        html! {
            span class={ "m " (class.join(" ")) } {
                (number) (Text(&m.notation)) @if let Some(n) = note { sup { (n) } }
            }
        }
        .render_to(s);
        s.push(' ');
    }
    if !written_done {
        written(r, s);
    }
    s.push_str(
        "</p><p class=\"legend\">Boxed: the claim point. Numbered: the positions counted \
         (w: after the written move). Dashed: the written move. Grey: after the claim.",
    );
    if counted(r) {
        s.push_str(" Underlined: the last move that restarted the count.");
    }
    s.push_str("</p>\n");
}

fn written(r: &ClaimReport, s: &mut String) {
    if let Some(w) = &r.written_label {
        let note = r
            .verdict
            .repetitions_written
            .iter()
            .position(|&q| q == r.verdict.ply + 1);
        html! {
            span.m.wr title="the written move, not played" {
                (Text(w)) @if let Some(i) = note { sup { "w" (i + 1) } }
            }
        }
        .render_to(s);
        s.push(' ');
    }
}

/// How the game had already ended, with its result: "White was
/// checkmated (5.1.1): Black wins, 0-1", "Drawn by fivefold repetition
/// (9.6.1): ½-½";
/// `None` when it had not.
pub fn ended(r: &ClaimReport) -> Option<String> {
    let over = r.verdict.game_over.as_ref()?;
    let draughts = r.game_type == crate::game::GameType::ColumnDraughts;
    let (win, loss, draw) = if draughts {
        ("2-0", "0-2", "1-1")
    } else {
        ("1-0", "0-1", "½-½")
    };
    let lost = |what: &str| {
        let side = r.diagrams.board(over.ply).map(|b| b.to_move);
        let result = match side {
            Some(Side::White) => format!("Black wins, {loss}"),
            Some(Side::Black) => format!("White wins, {win}"),
            None => "the player to move lost".to_owned(),
        };
        let who = side.map_or("The player to move", Side::title);
        format!("{who} {what} ({}): {result}", over.article)
    };
    let drawn = |how: &str| format!("Drawn by {how} ({}): {draw}", over.article);
    Some(match over.reason {
        GameOverReason::Checkmate => lost("was checkmated"),
        GameOverReason::NoMoves => lost("could not move and lost"),
        GameOverReason::Stalemate => drawn("stalemate"),
        GameOverReason::InsufficientMaterial => drawn("insufficient material"),
        GameOverReason::DeadPosition => drawn("a dead position"),
        GameOverReason::FivefoldRepetition => drawn("fivefold repetition"),
        GameOverReason::SeventyFiveMove => drawn("the 75-move rule"),
    })
}

/// The clocks' cell: blank to fill in, or prefilled with what the
/// record's `[%clk]` comments give (the source said under it).
fn clocks(r: &ClaimReport) -> String {
    let Some(c) = &r.clocks else {
        return "White&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;Black"
            .to_owned();
    };
    let one = |side: Side, reading: &Option<super::clocks::Reading>| {
        let clock = reading.as_ref().map_or("–", |x| x.clock.as_str());
        html! { (side.title()) " " b.clk { (Text(clock)) } }
    };
    html! {
        (one(Side::White, &c.white)) " " (PreEscaped("&nbsp;")) " " (one(Side::Black, &c.black))
        br; span.legend { "from " (Text(c.source)) ": " (Text(c.words(r.to_move))) }
    }
    .into_string()
}

/// The decision to tick: upheld or rejected, or, when the game had
/// already ended, that ending (no claim can change it).
fn decision(r: &ClaimReport) -> String {
    let v = &r.verdict;
    if let Some(how) = ended(r) {
        return html! { span.box {} "no claim: the game had already ended. " (Text(how)) "." }
            .into_string();
    }
    let penalty = v
        .penalty
        .as_ref()
        .map(|p| html! { " (" (Text(p.article)) ")" }.into_string())
        .unwrap_or_default();
    format!(
        "<span class=\"box\"></span>upheld: the game is drawn \
         <span class=\"box\"></span>rejected: the game continues{penalty}"
    )
}

/// The block the arbiter fills in and signs.
pub fn block(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    // The clocks' cell and the decision are markup of the templates above.
    html! {
        section.sign {
            h2 { "The arbiter's decision" }
            table {
                tr { th { "Arbiter" } td.blank {} th { "Time of the claim" } td.blank {} }
                tr {
                    th { "Clocks at the claim" } td.blank { (PreEscaped(clocks(r))) }
                    th { "Time of the decision" } td.blank {}
                }
                tr {
                    th { "Decision" }
                    td colspan="3" {
                        (PreEscaped(decision(r))) " "
                        span.legend { "(verify-claim: " (if v.valid() { "valid" } else { "not valid" }) ")" }
                    }
                }
                tr { th { "Signature" } td.blank colspan="3" {} }
            }
        }
    }
    .render_to(s);
    s.push('\n');
}

/// Text as a CSS string's content: quotes, backslashes, `<` and control
/// characters as escapes (the page's identification goes into the print
/// style, where no HTML escaping applies).
fn css_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '"' | '\\' | '<' | '>' | '&' => {
                let _ = write!(out, "\\{:x} ", u32::from(c));
            }
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Every printed page names the game and its page ("page 2/2"): the
/// page's margin boxes, so a second page holding only the decision block
/// still says whose game it decides.
pub fn page_boxes(r: &ClaimReport) -> String {
    let mut who = format!("{} – {}", r.players.0, r.players.1);
    if let Some(e) = &r.event {
        who.push_str(&format!(", {e}"));
    }
    if let Some(x) = &r.round {
        who.push_str(&format!(", round {x}"));
    }
    if let Some(d) = &r.date {
        who.push_str(&format!(", {d}"));
    }
    let file = std::path::Path::new(&r.file)
        .file_name()
        .map_or(r.file.clone(), |f| f.to_string_lossy().into_owned());
    who.push_str(&format!(" · game {} of {file}", r.game));
    format!(
        "@page {{ @bottom-left {{ content: \"{}\"; {BOX} }} \
         @bottom-right {{ content: \"page \" counter(page) \"/\" counter(pages); {BOX} }} }}\n",
        css_string(&who)
    )
}

/// The margin boxes' type.
const BOX: &str = "font: 7.5pt \"DejaVu Sans\", sans-serif; color: #444; vertical-align: top;";

/// The style of the record and the block; in print, spacing a little
/// tighter so that a claim with two diagrams fits one A4 page.
pub const CSS: &str = r#"
p.record { line-height: 1.9; font-size: 10.5pt; margin: .3em 0; }
.record .m { white-space: nowrap; padding: 0 .15em; }
.record .occ, .record .occw { font-weight: bold; background: #e4ecf7; }
.record sup { font-size: 7pt; color: #1f4e9c; margin-left: .1em; }
.record .claim { outline: 2px solid #1f4e9c; }
.record .wr { outline: 2px dashed #1f4e9c; font-weight: bold; }
.record .after { color: #888; }
.record .reset { text-decoration: underline 2px; }
.groups { display: flex; flex-wrap: wrap; column-gap: 6mm; }
.groups > section.group { flex: 0 1 auto; max-width: 100%; min-width: 55mm; }
.groups > section.group > h2, .groups > section.group > p { font-size: 11pt; width: 0; min-width: 100%; }
.groups > section.group > p.legend { font-size: 8pt; }
.tail { display: grid; grid-template-columns: 1fr 1fr; column-gap: 6mm; }
.tail > * { min-width: 0; }
section.sign { break-inside: avoid; page-break-inside: avoid; }
section.sign table { width: 100%; border-collapse: collapse; font-size: 10pt; }
section.sign th { text-align: left; font-weight: bold; padding: 1mm 2mm 1mm 0; width: 1%; white-space: nowrap; vertical-align: bottom; }
section.sign td { padding: 1mm 2mm; vertical-align: bottom; }
section.sign td.blank { border-bottom: 1px solid #444; height: 7mm; min-width: 40mm; color: #666; font-size: 8.5pt; }
section.sign b.clk { color: #111; font-size: 10pt; }
section.sign .box { display: inline-block; width: 3.5mm; height: 3.5mm; border: 1px solid #111; vertical-align: -.4mm; margin: 0 1mm 0 3mm; }
@media print {
html { line-height: 1.28; }
h2 { margin: .45em 0 .2em; }
.verdict { margin-bottom: .4em; padding: .2em 1em; }
.verdict h1 { font-size: 16pt; }
p.record { line-height: 1.7; }
.groups > section.group > h2 { font-size: 10pt; }
section.sign td.blank { height: 6mm; }
section.sign th, section.sign td { padding-top: .5mm; padding-bottom: .5mm; }
footer { margin-top: .2em; }
}
"#;
