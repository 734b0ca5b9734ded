//! The HTML printer: the appeal report, one self-contained page (inline
//! CSS and SVG, nothing fetched) to read on screen, print on A4 and attach
//! to a decision. Verdict first; then the game, the claim, the evidence as
//! board diagrams, and what follows.
//!
//! The page is made of maud templates: every splice is escaped, text from
//! the input (tag values, file names, moves) as [`Text`]; the diagrams
//! (svg.rs) and the parts written by other templates are spliced as
//! `PreEscaped`, said where.

use std::fmt::Write;

use maud::{PreEscaped, Render, html};

use super::ClaimReport;
use super::diagrams::{NEAR_MISSES_DRAWN, occurrence_lines};
use super::page::{Text, page_start, rulebook_words};
use super::svg::{self, Marks};
use crate::claims::{Form, GameOverReason};
use crate::game::Win;
use crate::game::board::Board;
use crate::laws::Rule;

fn rule_words(rule: Rule) -> &'static str {
    match rule {
        Rule::ThreefoldRepetition => "Threefold repetition",
        Rule::FiftyMove => "Fifty-move rule",
        Rule::UnchangedMaterial => "Unchanged material",
    }
}

fn form_words(f: Form) -> &'static str {
    match f {
        Form::OnTheBoard => "on the board",
        Form::WrittenMove => "with the written move",
    }
}

/// Renders the claim report as one page.
pub fn claim(r: &ClaimReport) -> String {
    let v = &r.verdict;
    let mut s = String::with_capacity(64 * 1024);
    page_start(
        &format!(
            "Claim {} – {} v {}",
            if v.valid() { "valid" } else { "not valid" },
            r.players.0,
            r.players.1
        ),
        &format!("{}{}", super::sign::CSS, super::sign::page_boxes(r)),
        &mut s,
    );
    verdict(r, &mut s);
    header(r, &mut s);
    super::sign::record(r, &mut s);
    game_over(r, &mut s);
    grounds(r, &mut s);
    s.push_str("<div class=\"groups\">");
    occurrences(r, &mut s);
    near_misses(r, &mut s);
    s.push_str("</div>\n");
    if !r.verdict.near_misses.is_empty() {
        s.push_str("<p class=\"legend\">Same pieces, not the same position: ringed in red, the right (castling, en passant) or the side to move that differs.</p>\n");
    }
    // A count claim's count is evidence; any other claim's is a side note.
    let counted = super::sign::counted(r);
    if counted {
        count_strip(r, &mut s);
    }
    s.push_str("<div class=\"tail\"><div>");
    if !counted {
        count_strip(r, &mut s);
    }
    dead(r, &mut s);
    penalty(r, &mut s);
    s.push_str("</div><div>");
    follows(r, &mut s);
    s.push_str("</div></div>\n");
    super::sign::block(r, &mut s);
    html! {
        footer { p {
            "Position claimed: " span.fen { (Text(&r.fen)) } ". Written by verify-claim "
            (env!("CARGO_PKG_VERSION")) " from " (Text(&r.file)) ", game " (r.game) "."
        } }
    }
    .render_to(&mut s);
    s.push_str("\n</body></html>\n");
    s
}

fn verdict(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    html! {
        header class={ "verdict " (if v.valid() { "ok" } else { "no" }) } {
            h1 { "Claim " (if v.valid() { "valid" } else { "not valid" }) }
            @for g in v.grounds() {
                @let plies: Vec<String> = g.plies.iter().map(|p| format!("ply {p}")).collect();
                p {
                    b { (rule_words(g.rule)) } " " (form_words(g.form)) ": Article "
                    (Text(g.article)) " (" (plies.join(", ")) ")."
                }
            }
            @if let Some(first) = v.reasons().first() {
                p { (Text(capital(&first.to_string()))) }
            }
            @if let Some(how) = super::sign::ended(r) {
                p { b { (Text(how)) "." } }
            }
            p { "Under the " (Text(rulebook_words(r.rules))) "." }
        }
    }
    .render_to(s);
    s.push('\n');
}

fn capital(t: &str) -> String {
    let mut c = t.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn header(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    s.push_str("<h2>The game and the claim</h2><dl class=\"head\">");
    // Pairs share a line; a long value (wide) has the line to itself.
    let mut item = |k: &str, val: &str, wide: bool| {
        let w = wide.then_some("wide");
        html! { dt class=[w] { (k) } dd class=[w] { (Text(val)) } }.render_to(s);
    };
    if let Some(e) = &r.event {
        item("Event", e, true);
    }
    item("White", &r.players.0, false);
    item("Black", &r.players.1, false);
    if let Some(x) = &r.round {
        item("Round", x, false);
    }
    if let Some(d) = &r.date {
        item("Date", d, false);
    }
    item("Record", &format!("{}, game {}", r.file, r.game), true);
    let point = if v.ply == 0 {
        "at the start position".to_owned()
    } else {
        r.after(v.ply)
    };
    item("Claim", &format!("{point} (ply {})", v.ply), false);
    item(
        "Written move",
        r.written_label
            .as_deref()
            .unwrap_or("none (a claim on the board)"),
        false,
    );
    let mut who = format!("{} had the move", v.claimant.title());
    if let Some(by) = v.claimed_by {
        who.push_str(&format!("; the claim was made by {}", by.title()));
    }
    item("Claimant", &who, true);
    s.push_str("</dl>\n");
}

/// One diagram with its caption lines (text, escaped here).
fn figure(s: &mut String, board: &Board, marks: &Marks, class: &str, lines: &[String]) {
    let title = lines.join(", ");
    // The diagram is SVG svg.rs writes (its title escaped there).
    let diagram = PreEscaped(svg::board(board, marks, &title, class.contains("compact")));
    let legend = svg::towers_legend(board);
    html! {
        figure class=(class) {
            (diagram)
            figcaption {
                @for (i, l) in lines.iter().enumerate() {
                    @if i == 0 { b { (Text(l)) } } @else { (Text(l)) br; }
                }
                @if !legend.is_empty() {
                    span.legend { "towers, top first: " (Text(legend.join(", "))) }
                }
            }
        }
    }
    .render_to(s);
}

fn moved(r: &ClaimReport, ply: usize) -> Marks {
    Marks {
        moved: r.diagrams.moved.get(&ply).cloned().unwrap_or_default(),
        ..Marks::default()
    }
}

fn game_over(r: &ClaimReport, s: &mut String) {
    let Some(over) = &r.verdict.game_over else {
        return;
    };
    s.push_str("<h2>The game had already ended</h2>");
    let how = match over.reason {
        GameOverReason::Checkmate | GameOverReason::Stalemate | GameOverReason::NoMoves => {
            let side = r
                .diagrams
                .board(over.ply)
                .map_or("The player to move", |b| b.to_move.title());
            match over.reason {
                GameOverReason::Checkmate => format!("{side} was checkmated"),
                GameOverReason::Stalemate => format!("{side} was stalemated"),
                _ => format!("{side} could not move and had lost"),
            }
        }
        GameOverReason::DeadPosition => "the position was dead: no sequence of legal moves could lead to checkmate, for either side (proved by the unwinnability search; see below)".to_owned(),
        GameOverReason::InsufficientMaterial => "neither side had the material to checkmate".to_owned(),
        GameOverReason::FivefoldRepetition => "the same position had stood five times".to_owned(),
        GameOverReason::SeventyFiveMove => "75 moves by each player had been made without a pawn move or a capture".to_owned(),
    };
    html! {
        p {
            "The game ended " (Text(r.after(over.ply))) " (ply " (over.ply) "): " (Text(how))
            ", Article " (Text(over.article)) ". No claim can be made after the game has \
            ended, so this claim fails whatever the position."
        }
    }
    .render_to(s);
    if let Some(b) = r.diagrams.board(over.ply) {
        s.push_str("<div class=\"row\">");
        figure(
            s,
            b,
            &moved(r, over.ply),
            "ended",
            &[
                "where the game ended".to_owned(),
                format!("{}, ply {}", r.after(over.ply), over.ply),
                b.rights_words(),
            ],
        );
        s.push_str("</div>\n");
    }
}

fn grounds(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    if v.reasons().len() > 1 {
        html! {
            h2 { "Why the claim fails" }
            ul { @for reason in v.reasons() { li { (Text(reason.to_string())) } } }
        }
        .render_to(s);
        s.push('\n');
    }
    if let Some(e) = v.written_ending {
        let _ = write!(
            s,
            "<p>The written move would end the game by {}; the claim is decided before the move is made.</p>",
            e.name()
        );
    }
}

fn occurrences(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    let mut figures = String::new();
    // Each distinct position once, its occurrences listed (diagrams.rs).
    for group in r.diagrams.by_board(&v.repetitions) {
        let q = group
            .iter()
            .copied()
            .find(|&q| q == v.ply)
            .or(group.first().copied());
        let Some((q, b)) = q.and_then(|q| Some((q, r.diagrams.board(q)?))) else {
            continue;
        };
        let (class, first) = if q == v.ply {
            ("claim", "the claim position".to_owned())
        } else {
            (
                "",
                format!("occurrence {}", occurrence_no(&v.repetitions, q)),
            )
        };
        let mut lines = vec![first];
        lines.extend(occurrence_lines(&group, |q| {
            format!("{}, ply {q}", r.after(q))
        }));
        figure(&mut figures, b, &moved(r, q), class, &lines);
    }
    let n = v.repetitions.len();
    html! {
        section.group {
            h2 { "The position on the board: " (n) " occurrence" (if n == 1 { "" } else { "s" }) }
            // The figures, written by `figure` (a template of its own).
            div.row { (PreEscaped(figures)) }
        }
    }
    .render_to(s);
    s.push('\n');
    if v.repetitions_written.is_empty() {
        return;
    }
    let mut figures = String::new();
    for group in r.diagrams.by_board(&v.repetitions_written) {
        let q = group
            .iter()
            .copied()
            .find(|&q| q == v.ply + 1)
            .or(group.first().copied());
        let Some((q, b)) = q.and_then(|q| Some((q, r.diagrams.board(q)?))) else {
            continue;
        };
        let label = |p: usize| {
            if p == v.ply + 1 {
                format!("{}, ply {p}", r.written_label.as_deref().unwrap_or(""))
            } else {
                format!("{}, ply {p}", r.after(p))
            }
        };
        let (class, first) = if q == v.ply + 1 {
            ("written", "after the written move, not played".to_owned())
        } else {
            (
                "",
                format!("occurrence {}", occurrence_no(&v.repetitions_written, q)),
            )
        };
        let mut lines = vec![first];
        lines.extend(occurrence_lines(&group, label));
        figure(&mut figures, b, &moved(r, q), class, &lines);
    }
    let n = v.repetitions_written.len();
    html! {
        section.group {
            h2 {
                "The position after the written move "
                (Text(r.written_label.as_deref().unwrap_or(""))) ": " (n) " occurrence"
                (if n == 1 { "" } else { "s" })
            }
            // The figures, written by `figure` (a template of its own).
            div.row { (PreEscaped(figures)) }
        }
    }
    .render_to(s);
    s.push('\n');
}

fn occurrence_no(plies: &[usize], q: usize) -> usize {
    plies.iter().position(|&p| p == q).map_or(0, |i| i + 1)
}

fn near_misses(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    if v.near_misses.is_empty() {
        return;
    }
    let mut figures = String::new();
    for n in v.near_misses.iter().take(NEAR_MISSES_DRAWN) {
        let target = match n.of {
            Form::OnTheBoard => v.ply,
            Form::WrittenMove => v.ply + 1,
        };
        let (Some(b), Some(t)) = (r.diagrams.board(n.ply), r.diagrams.board(target)) else {
            continue;
        };
        let mut differ: Vec<usize> = b
            .rights_not_in(t)
            .into_iter()
            .chain(t.rights_not_in(b))
            .map(|x| x.square())
            .collect();
        differ.dedup();
        let marks = Marks {
            differ,
            turn_differs: b.to_move != t.to_move,
            ..moved(r, n.ply)
        };
        let of = match n.of {
            Form::OnTheBoard => "like the claim position",
            Form::WrittenMove => "like the position after the written move",
        };
        figure(
            &mut figures,
            b,
            &marks,
            "near",
            &[
                format!("{}, ply {}", r.after(n.ply), n.ply),
                format!("{of}, but {}", n.reason),
                b.rights_words(),
            ],
        );
    }
    let more = v.near_misses.len().saturating_sub(NEAR_MISSES_DRAWN);
    html! {
        section.group {
            h2 { "Same pieces, not counted" }
            // The figures, written by `figure` (a template of its own).
            div.row { (PreEscaped(figures)) }
            @if more > 0 { p { "… and " (more) " more, listed in the JSON report." } }
        }
    }
    .render_to(s);
    s.push('\n');
}

/// The move count as a strip of plies, from the last resetting move (or
/// the FEN's share) to the claim point and the written move.
fn count_strip(r: &ClaimReport, s: &mut String) {
    let c = &r.verdict.count;
    let written = c.with_written_move.is_some() as u32;
    let cells = c.needed.max(c.plies + written).clamp(1, 400);
    let since = if c.since_ply == 0 {
        "the start".to_owned()
    } else {
        format!("{} (ply {})", r.after(c.since_ply), c.since_ply)
    };
    let written_words = match c.with_written_move {
        Some(n) => format!(" With the written move: {n}."),
        None if r.verdict.written_illegal.is_some() => {
            " The written move is no legal move.".to_owned()
        }
        None if r.verdict.written_move.is_some() => {
            " The written move restarts the count.".to_owned()
        }
        None => String::new(),
    };
    html! {
        h2 { "Move count: " (c.plies) " of " (c.needed) " plies" }
        p.small {
            (plies_words(c.plies)) " without " (r.count_without) " since " (Text(since))
            @if c.from_start_position > 0 {
                "; " (c.from_start_position) " of them are counted in the start position's FEN"
            }
            "; the rule needs " (c.needed) " plies." (written_words)
        }
    }
    .render_to(s);
    if !super::sign::counted(r) {
        return;
    }
    // The strip is SVG of numbers only, written as svg.rs writes its
    // diagrams (rects by the hundred; no text from the input).
    let w = cells * 3;
    let _ = write!(
        s,
        "<svg class=\"strip\" style=\"max-width:{:.0}mm\" viewBox=\"0 0 {} 12\" role=\"img\" aria-label=\"{} of {} plies\">",
        f64::from(w + 8) * 0.62,
        w + 8,
        c.plies,
        c.needed
    );
    for i in 0..cells {
        let class = if i < c.from_start_position {
            "fen"
        } else if i < c.plies {
            "play"
        } else if i < c.plies + written {
            "wr"
        } else {
            "need"
        };
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"1\" width=\"2.6\" height=\"5\" class=\"{class}\"/>",
            1 + i * 3
        );
        if i % 20 == 0 || i + 1 == cells {
            let _ = write!(s, "<text x=\"{}\" y=\"10.5\">{}</text>", 1 + i * 3, i + 1);
        }
    }
    s.push_str("</svg><p class=\"key legend\"><span style=\"background:#9aa5b1\"></span>from the FEN<span style=\"background:#3b82c4\"></span>played<span style=\"background:#f59e0b\"></span>the written move<span style=\"border:1px solid #bbb\"></span>still needed</p>\n");
}

/// "99 plies (49.5 moves by each player)".
fn plies_words(n: u32) -> String {
    let moves = if n.is_multiple_of(2) {
        format!("{}", n / 2)
    } else {
        format!("{}.5", n / 2)
    };
    match n {
        1 => "1 ply".to_owned(),
        _ => format!("{n} plies ({moves} moves by each player)"),
    }
}

fn dead(r: &ClaimReport, s: &mut String) {
    let d = &r.verdict.dead_check;
    if r.game_type != crate::game::GameType::Chess {
        return;
    }
    s.push_str("<h2>Dead position</h2><p class=\"small\">");
    let search = match d.search {
        crate::game::Search::Quick => "quick search",
        crate::game::Search::Full => "full search",
    };
    let _ = match d.dead() {
        Some(true) => write!(
            s,
            "Dead ({search}): no sequence of legal moves leads to checkmate, for either side. "
        ),
        Some(false) if d.white.as_bool() == Some(true) && d.black.as_bool() == Some(true) => {
            write!(
                s,
                "Not a dead position ({search}): both sides can still checkmate. "
            )
        }
        Some(false) => write!(s, "Not a dead position ({search}). "),
        None => write!(
            s,
            "Undetermined ({search}): the search did not decide; nothing is assumed. "
        ),
    };
    for (name, win) in [("White", &d.white), ("Black", &d.black)] {
        let _ = match win {
            Win::Yes { helpmate } if helpmate.is_empty() => write!(s, "{name} has checkmated. "),
            // The lines themselves are for --explain and JSON.
            Win::Yes { .. } if d.black.as_bool() == d.white.as_bool() => Ok(()),
            Win::Yes { .. } => write!(s, "{name} can still checkmate. "),
            Win::No => write!(
                s,
                "{name} cannot checkmate by any sequence of legal moves. "
            ),
            Win::Undetermined => write!(s, "{name}: undetermined. "),
        };
    }
    s.push_str("</p>\n");
}

fn penalty(r: &ClaimReport, s: &mut String) {
    if let Some(p) = &r.verdict.penalty {
        html! {
            h2 { "What follows from the incorrect claim" }
            p { (Text(capital(&p.text))) " (Article " (Text(p.article)) ")." }
        }
        .render_to(s);
    }
}

fn follows(r: &ClaimReport, s: &mut String) {
    html! {
        h2 { "What a record cannot show" }
        div.small {
            ul { @for n in &r.unverifiable { li { (Text(capital(n.words))) } } }
            @if !r.notes.is_empty() {
                h3 { "Notes" }
                ul { @for n in &r.notes { li { (Text(capital(n))) } } }
            }
        }
    }
    .render_to(s);
    s.push('\n');
}
