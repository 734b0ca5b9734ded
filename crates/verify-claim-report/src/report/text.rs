//! The text printer: the verdict as an arbiter's note.

use std::fmt::Write;

use super::ClaimReport;
use crate::claims::{Form, GameOverReason};
use crate::game::Win;
use crate::laws::Rule;

fn join_labels(r: &ClaimReport, plies: &[usize]) -> String {
    let parts: Vec<String> = plies
        .iter()
        .map(|&p| format!("{} (ply {p})", r.after(p)))
        .collect();
    match parts.len() {
        0 => String::new(),
        1 => parts[0].clone(),
        n => format!("{}, and {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// The rule's name in words ("threefold repetition").
pub fn rule_words(rule: Rule) -> &'static str {
    match rule {
        Rule::ThreefoldRepetition => "threefold repetition",
        Rule::FiftyMove => "fifty-move rule",
        Rule::UnchangedMaterial => "unchanged material",
    }
}

/// Renders the claim report, its control characters shown escaped (a tag
/// value, a file name or a written move cannot drive the terminal:
/// [`crate::output::escape`]).
pub fn claim(r: &ClaimReport) -> String {
    crate::output::escape::text(&note(r)).into_owned()
}

/// The claim report unescaped: the heading, then (unless the claim was no
/// claim at all) how the game ended, the grounds or why not, the evidence,
/// the dead-position check and what follows; the position and notes last.
fn note(r: &ClaimReport) -> String {
    let v = &r.verdict;
    let mut s = String::new();
    heading(r, &mut s);
    if v.wrong_side() {
        // Only what applies: no claim was made, so no evidence, no penalty.
        why_not(r, &mut s);
        position_and_notes(r, &mut s);
        return s;
    }
    game_over(r, &mut s);
    grounds(r, &mut s);
    why_not(r, &mut s);
    if v.game_over.is_none() {
        evidence(r, &mut s);
    }
    if let Some(e) = v.written_ending {
        let _ = writeln!(
            s,
            "  The written move would end the game by {}; the claim is decided before the move is made.",
            e.name()
        );
    }
    dead_section(r, &mut s);
    if let Some(p) = &v.penalty {
        let _ = writeln!(s, "\nWhat follows: {}.", p.text);
    }
    position_and_notes(r, &mut s);
    s
}

/// The verdict with its rules, the game, and the claim point.
fn heading(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    let verdict = if v.valid() { "VALID" } else { "NOT VALID" };
    let rules: Vec<String> = v
        .grounds()
        .iter()
        .map(|g| format!("{} ({})", rule_words(g.rule), g.article))
        .collect();
    let rules = match rules.is_empty() {
        true => String::new(),
        false => format!(": {}", rules.join("; ")),
    };
    let _ = writeln!(s, "Claim {verdict}{rules} — rules {}", r.rules);
    let event = r.event.as_deref().map(|e| format!(", {e}"));
    let round = r.round.as_deref().map(|x| format!(", round {x}"));
    let _ = writeln!(
        s,
        "Game {} of {}: {} – {}{}{}",
        r.game,
        r.file,
        r.players.0,
        r.players.1,
        event.unwrap_or_default(),
        round.unwrap_or_default()
    );
    let point = match v.ply {
        0 => "at the start position".to_owned(),
        p => r.after(p),
    };
    let _ = write!(
        s,
        "Claim {point} (ply {}): {} has the move",
        v.ply,
        v.claimant.title()
    );
    if let Some(by) = v.claimed_by {
        let _ = write!(s, "; claim made by {}", by.title());
    }
    let _ = match (&r.written_label, &v.written_move) {
        (Some(w), _) => writeln!(s, "; written move {w}."),
        (None, Some(w)) if v.wrong_side() => writeln!(s, " (written: {w})."),
        _ => writeln!(s, "; no move written."),
    };
    if let Some(c) = &r.clocks {
        let _ = writeln!(
            s,
            "Clocks at the claim, from {}: {}.",
            c.source,
            c.words(r.to_move)
        );
    }
}

/// Where and how the game had ended before the claim point.
fn game_over(r: &ClaimReport, s: &mut String) {
    let Some(over) = &r.verdict.game_over else {
        return;
    };
    let how = match over.reason {
        GameOverReason::Checkmate => "checkmate".to_owned(),
        GameOverReason::Stalemate => "stalemate".to_owned(),
        GameOverReason::DeadPosition if r.game_type != crate::game::GameType::Chess => format!(
            "a dead position (no sequence of legal moves can lead to {}: a win is impossible for both sides)",
            r.game_type.win_words().2
        ),
        other => other.name().to_owned(),
    };
    let _ = writeln!(
        s,
        "\nThe game had already ended {} (ply {}): {how}, article {}.",
        r.after(over.ply),
        over.ply,
        over.article
    );
}

/// Each rule met, with the plies that meet it.
fn grounds(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    if v.grounds().is_empty() {
        return;
    }
    let _ = writeln!(s, "\nGrounds:");
    for g in v.grounds() {
        let form = match g.form {
            Form::OnTheBoard => "on the board",
            Form::WrittenMove => "with the written move",
        };
        let (article, rule) = (g.article, rule_words(g.rule));
        if !g.rule.is_count() {
            let stood = join_labels(r, &g.plies);
            let _ = writeln!(s, "  {article} {rule} {form}: the position stood {stood}.");
            continue;
        }
        let c = &v.count;
        let n = match g.form {
            Form::WrittenMove => c.with_written_move.unwrap_or(c.plies),
            Form::OnTheBoard => c.plies,
        };
        let _ = writeln!(
            s,
            "  {article} {rule} {form}: {n} plies ({} moves by each player) since {}.",
            n / 2,
            count_since(r)
        );
    }
}

/// Why the claim fails, one reason a line.
fn why_not(r: &ClaimReport, s: &mut String) {
    if r.verdict.reasons().is_empty() {
        return;
    }
    let _ = writeln!(s, "\nWhy not:");
    for reason in r.verdict.reasons() {
        let _ = writeln!(s, "  - {reason}");
    }
}

/// The occurrences, the move count and the near misses, valid or not.
fn evidence(r: &ClaimReport, s: &mut String) {
    let v = &r.verdict;
    let _ = writeln!(s, "\nEvidence:");
    let _ = writeln!(
        s,
        "  The position on the board stood {}.",
        join_labels(r, &v.repetitions)
    );
    if !v.repetitions_written.is_empty() {
        let _ = writeln!(
            s,
            "  The position after the written move would stand {}.",
            join_labels(r, &v.repetitions_written)
        );
    }
    let c = &v.count;
    let written = match c.with_written_move {
        Some(n) => format!("; {n} with the written move"),
        None if v.written_illegal.is_some() => "; the written move is no legal move".to_owned(),
        None if v.written_move.is_some() => "; the written move restarts the count".to_owned(),
        None => String::new(),
    };
    let _ = writeln!(
        s,
        "  Move count: {} since {} ({} needed){written}.",
        crate::words::plies(c.plies),
        count_since(r),
        c.needed,
    );
    near_misses(r, s);
}

/// Positions with the same placement that do not count, twelve at most.
fn near_misses(r: &ClaimReport, s: &mut String) {
    let misses = &r.verdict.near_misses;
    if misses.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "  Same placement but not the same position (not counted):"
    );
    for n in misses.iter().take(12) {
        let of = match n.of {
            Form::OnTheBoard => "the claimed position",
            Form::WrittenMove => "the position after the written move",
        };
        let _ = writeln!(
            s,
            "    {} (ply {}), like {of}: {}",
            r.after(n.ply),
            n.ply,
            n.reason
        );
    }
    if misses.len() > 12 {
        let _ = writeln!(s, "    ... and {} more", misses.len() - 12);
    }
}

/// The claim position's diagram, then the notes.
fn position_and_notes(r: &ClaimReport, s: &mut String) {
    let _ = writeln!(s, "\nPosition claimed ({}):", r.fen);
    s.push_str(&r.diagram);
    if !r.notes.is_empty() || !r.unverifiable.is_empty() {
        let _ = writeln!(s, "\nNotes:");
        for n in &r.notes {
            let _ = writeln!(s, "  - {n}");
        }
        for n in &r.unverifiable {
            let _ = writeln!(s, "  - not checkable from a record: {n}");
        }
    }
}

/// The dead-position check of the claim position, with its proof.
fn dead_section(r: &ClaimReport, s: &mut String) {
    let d = &r.verdict.dead_check;
    if d.white == Win::Undetermined
        && d.black == Win::Undetermined
        && r.game_type != crate::game::GameType::Chess
    {
        return;
    }
    let search = match d.search {
        crate::game::Search::Quick => "quick search",
        crate::game::Search::Full => "full search",
    };
    let (mate, done, goal) = r.game_type.win_words();
    if d.dead() == Some(false) && !r.explain {
        // The helpmate lines (often a hundred moves) go to --explain and JSON.
        let can = |w: &Win| matches!(w, Win::Yes { .. });
        let _ = match (can(&d.white), can(&d.black)) {
            (true, true) => writeln!(
                s,
                "\nNot a dead position: both sides can still {mate} ({search}; --explain shows how)."
            ),
            (white, _) => {
                let (yes, no) = if white {
                    ("White", &d.black)
                } else {
                    ("Black", &d.white)
                };
                let other = if white { "Black" } else { "White" };
                let rest = match no {
                    Win::No => format!("{other} cannot by any sequence of legal moves"),
                    _ => format!("whether {other} can is undetermined"),
                };
                writeln!(
                    s,
                    "\nNot a dead position: {yes} can still {mate}; {rest} ({search}; --explain shows how)."
                )
            }
        };
        return;
    }
    let _ = match d.dead() {
        Some(true) => writeln!(
            s,
            "\nDead position ({search}): dead: no sequence of legal moves leads to {goal}, for either side."
        ),
        Some(false) => writeln!(s, "\nDead position ({search}): not dead."),
        None => writeln!(
            s,
            "\nDead position ({search}): undetermined (the search did not decide; nothing is assumed)."
        ),
    };
    for ((name, win), end) in [("White", &d.white), ("Black", &d.black)]
        .into_iter()
        .zip(&d.ends)
    {
        let _ = match win {
            Win::Yes { helpmate } if helpmate.is_empty() => writeln!(s, "  {name} has {done}."),
            Win::Yes { helpmate } => writeln!(
                s,
                "  {name} can still {mate}, e.g. (helpmate) {}",
                crate::report::helpmate_shown(r.move_number, r.to_move, helpmate, end),
            ),
            Win::No => writeln!(s, "  {name} cannot {mate} by any sequence of legal moves."),
            Win::Undetermined => writeln!(s, "  {name}: undetermined."),
        };
    }
}

/// "the start, 90 of them counted in the start position's FEN" or "after
/// 20.exd5": where the move count began.
fn count_since(r: &ClaimReport) -> String {
    let c = &r.verdict.count;
    let since = if c.since_ply == 0 {
        "the start".to_owned()
    } else {
        r.after(c.since_ply)
    };
    if c.from_start_position > 0 {
        format!(
            "{since}, {} of them counted in the start position's FEN",
            c.from_start_position
        )
    } else {
        since
    }
}
