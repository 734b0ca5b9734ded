//! The HTML printer: the appeal report, one self-contained page (inline
//! CSS and SVG, nothing fetched) to read on screen, print on A4 and attach
//! to a decision. Verdict first; then the game, the claim, the evidence as
//! board diagrams, and what follows.
//!
//! Every text that comes from the input (tag values, file names, moves)
//! goes through [`esc`].

use std::fmt::Write;

use super::ClaimReport;
use super::diagrams::{NEAR_MISSES_DRAWN, occurrence_lines};
pub use super::page::esc;
use super::page::{page_start, rulebook_words};
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
    let _ = write!(
        s,
        "<footer><p>Position claimed: <span class=\"fen\">{}</span>. \
         Written by verify-claim {} from {}, game {}.</p></footer>\n</body></html>\n",
        esc(&r.fen),
        env!("CARGO_PKG_VERSION"),
        esc(&r.file),
        r.game
    );
    s
}

fn verdict(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    let _ = write!(
        s,
        "<header class=\"verdict {}\"><h1>Claim {}</h1>",
        if v.valid() { "ok" } else { "no" },
        if v.valid() { "valid" } else { "not valid" }
    );
    for g in v.grounds() {
        let plies: Vec<String> = g.plies.iter().map(|p| format!("ply {p}")).collect();
        let _ = write!(
            s,
            "<p><b>{}</b> {}: Article {} ({}).</p>",
            rule_words(g.rule),
            form_words(g.form),
            esc(g.article),
            plies.join(", ")
        );
    }
    if let Some(first) = v.reasons().first() {
        let _ = write!(s, "<p>{}</p>", esc(&capital(&first.to_string())));
    }
    if let Some(how) = super::sign::ended(r) {
        let _ = write!(s, "<p><b>{}.</b></p>", esc(&how));
    }
    let _ = writeln!(
        s,
        "<p>Under the {}.</p></header>",
        esc(&rulebook_words(r.rules))
    );
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
        let w = if wide { " class=\"wide\"" } else { "" };
        let _ = write!(s, "<dt{w}>{k}</dt><dd{w}>{}</dd>", esc(val));
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

/// One diagram with its caption lines (already escaped by the caller's
/// choice of text: captions are escaped here).
fn figure(s: &mut String, board: &Board, marks: &Marks, class: &str, lines: &[String]) {
    let title = lines.join(", ");
    let _ = write!(
        s,
        "<figure class=\"{class}\">{}<figcaption>",
        svg::board(board, marks, &title, class.contains("compact"))
    );
    for (i, l) in lines.iter().enumerate() {
        if i == 0 {
            let _ = write!(s, "<b>{}</b>", esc(l));
        } else {
            let _ = write!(s, "{}<br>", esc(l));
        }
    }
    let legend = svg::towers_legend(board);
    if !legend.is_empty() {
        let _ = write!(
            s,
            "<span class=\"legend\">towers, top first: {}</span>",
            esc(&legend.join(", "))
        );
    }
    s.push_str("</figcaption></figure>");
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
    let _ = write!(
        s,
        "<p>The game ended {} (ply {}): {}, Article {}. No claim can be made after the game has ended, so this claim fails whatever the position.</p>",
        esc(&r.after(over.ply)),
        over.ply,
        esc(&how),
        esc(over.article)
    );
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
        s.push_str("<h2>Why the claim fails</h2><ul>");
        for reason in v.reasons() {
            let _ = write!(s, "<li>{}</li>", esc(&reason.to_string()));
        }
        s.push_str("</ul>\n");
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
    let _ = write!(
        s,
        "<section class=\"group\"><h2>The position on the board: {} occurrence{}</h2><div class=\"row\">",
        v.repetitions.len(),
        if v.repetitions.len() == 1 { "" } else { "s" }
    );
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
        figure(s, b, &moved(r, q), class, &lines);
    }
    s.push_str("</div></section>\n");
    if v.repetitions_written.is_empty() {
        return;
    }
    let _ = write!(
        s,
        "<section class=\"group\"><h2>The position after the written move {}: {} occurrence{}</h2><div class=\"row\">",
        esc(r.written_label.as_deref().unwrap_or("")),
        v.repetitions_written.len(),
        if v.repetitions_written.len() == 1 {
            ""
        } else {
            "s"
        }
    );
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
        figure(s, b, &moved(r, q), class, &lines);
    }
    s.push_str("</div></section>\n");
}

fn occurrence_no(plies: &[usize], q: usize) -> usize {
    plies.iter().position(|&p| p == q).map_or(0, |i| i + 1)
}

fn near_misses(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    if v.near_misses.is_empty() {
        return;
    }
    s.push_str("<section class=\"group\"><h2>Same pieces, not counted</h2><div class=\"row\">");
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
            s,
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
    s.push_str("</div>");
    if v.near_misses.len() > NEAR_MISSES_DRAWN {
        let _ = write!(
            s,
            "<p>… and {} more, listed in the JSON report.</p>",
            v.near_misses.len() - NEAR_MISSES_DRAWN
        );
    }
    s.push_str("</section>\n");
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
    let _ = write!(
        s,
        "<h2>Move count: {} of {} plies</h2><p class=\"small\">{} without {} since {}{}; the rule needs {} plies.{}</p>",
        c.plies,
        c.needed,
        plies_words(c.plies),
        r.count_without,
        esc(&since),
        if c.from_start_position > 0 {
            format!(
                "; {} of them are counted in the start position's FEN",
                c.from_start_position
            )
        } else {
            String::new()
        },
        c.needed,
        match c.with_written_move {
            Some(n) => format!(" With the written move: {n}."),
            None if r.verdict.written_illegal.is_some() => {
                " The written move is no legal move.".to_owned()
            }
            None if r.verdict.written_move.is_some() => {
                " The written move restarts the count.".to_owned()
            }
            None => String::new(),
        }
    );
    if !super::sign::counted(r) {
        return;
    }
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
        let _ = write!(
            s,
            "<h2>What follows from the incorrect claim</h2><p>{} (Article {}).</p>",
            esc(&capital(&p.text)),
            esc(p.article)
        );
    }
}

fn follows(r: &ClaimReport, s: &mut String) {
    s.push_str("<h2>What a record cannot show</h2><div class=\"small\"><ul>");
    for n in &r.unverifiable {
        let _ = write!(s, "<li>{}</li>", esc(&capital(n.words)));
    }
    s.push_str("</ul>");
    if !r.notes.is_empty() {
        s.push_str("<h3>Notes</h3><ul>");
        for n in &r.notes {
            let _ = write!(s, "<li>{}</li>", esc(&capital(n)));
        }
        s.push_str("</ul>");
    }
    s.push_str("</div>\n");
}
