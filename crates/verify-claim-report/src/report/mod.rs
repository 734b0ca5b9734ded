//! Printers: findings in, text out. Rules code never formats output; it
//! produces a [`ClaimReport`], and one printer per format renders it.
//!
//! - [`text`]: an arbiter's note, for people.
//! - [`json`]: one JSON object, the documented schema (docs/claims.md#json-output).
//! - [`pgn`]: the input games written back with the findings as comments.
//! - [`html`]: the appeal report, a printable page with board diagrams
//!   ([`svg`], positions from [`diagrams`]); [`html_scan`] for archives.

pub mod clocks;
pub mod diagrams;
pub mod games;
mod games_json;
pub mod html;
pub mod html_scan;
pub mod json;
pub mod page;
pub mod pgn;
pub mod position;
pub mod scan;
pub mod sign;
pub mod svg;
pub mod text;
#[cfg(test)]
mod whole;

use std::collections::BTreeMap;

use crate::claims::{Replay, Verdict};
use crate::game::{Game, GameType, Side};
use crate::laws::{NotCheckable, Unseen};

/// Everything a printer needs about one decided claim, with the move
/// labels already rendered (printers know no game).
#[derive(Clone, Debug)]
pub struct ClaimReport {
    /// The input's name as printed.
    pub file: String,
    /// 1-based index of the game in its file.
    pub game: usize,
    /// Chess or column draughts.
    pub game_type: GameType,
    /// The rulebook applied (`fide-2023`, ... in the output).
    pub rules: crate::laws::Laws,
    /// What the move count is of plies without, in the rulebook's words
    /// ("a pawn move or a capture"; draughts "a change of material").
    pub count_without: &'static str,
    /// White, Black, Event, Round as recorded.
    pub players: (String, String),
    /// The Event tag.
    pub event: Option<String>,
    /// The Round tag.
    pub round: Option<String>,
    /// The decision and its evidence.
    pub verdict: Verdict,
    /// "24...Kg8" for every ply the report mentions.
    pub labels: BTreeMap<usize, String>,
    /// The written move with its number ("32.Nf3").
    pub written_label: Option<String>,
    /// The claim position as FEN.
    pub fen: String,
    /// The claim position drawn in text.
    pub diagram: String,
    /// Move number and side to move at the claim point (to number lines).
    pub move_number: u32,
    /// The side to move at the claim point.
    pub to_move: Side,
    /// How the edition and time control were chosen, Chess960, FEN start...
    pub notes: Vec<String>,
    /// What a record cannot show and the verdict therefore assumes.
    pub unverifiable: Vec<NotCheckable>,
    /// Print the helpmate lines behind "not a dead position" (`--explain`).
    pub explain: bool,
    /// The `Date` tag, when it says something (set by the caller).
    pub date: Option<String>,
    /// The positions the HTML report draws.
    pub diagrams: diagrams::Diagrams,
    /// How the tag values were read: `utf-8`, or `latin1` when some were
    /// not UTF-8 (or Latin-1 was asked for).
    pub encoding: &'static str,
    /// The clocks the record's `[%clk]` comments give at the claim point
    /// (set by the caller; then the clocks are no longer listed among what
    /// a record cannot show).
    pub clocks: Option<clocks::Clocks>,
}

impl ClaimReport {
    /// Builds the report, rendering the labels of every ply the verdict
    /// names.
    #[allow(clippy::too_many_arguments)]
    pub fn new<G: Game>(
        file: &str,
        game: usize,
        rules: &crate::laws::Rulebook,
        tags: (String, String, Option<String>, Option<String>),
        replay: &Replay<G>,
        verdict: Verdict,
        notes: Vec<String>,
    ) -> ClaimReport {
        let mut plies: Vec<usize> = verdict.repetitions.clone();
        plies.extend(
            verdict
                .repetitions_written
                .iter()
                .copied()
                .filter(|&q| q <= replay.len()),
        );
        plies.extend(verdict.near_misses.iter().map(|n| n.ply));
        plies.extend(
            verdict
                .grounds()
                .iter()
                .flat_map(|g| g.plies.iter().copied())
                .filter(|&q| q <= replay.len()),
        );
        plies.push(verdict.ply);
        plies.push(verdict.count.since_ply);
        if let Some(o) = &verdict.game_over {
            plies.push(o.ply);
        }
        let labels = plies
            .into_iter()
            .filter(|&q| q <= verdict.ply)
            .map(|q| (q, replay.label(q)))
            .collect();
        let pos = &replay.position(verdict.ply);
        // A written move of the player not having the move is no move of
        // the game: it gets no number.
        let written_label = verdict
            .written_move
            .as_ref()
            .filter(|_| !verdict.wrong_side())
            .map(|m| crate::claims::replay::numbered::<G>(pos, m));
        let mut notes = notes;
        notes.extend(verdict.notes.iter().cloned());
        let diagrams = diagrams::Diagrams::collect(replay, &verdict);
        ClaimReport {
            date: None,
            diagrams,
            file: file.to_owned(),
            game,
            game_type: G::TYPE,
            rules: rules.laws,
            count_without: rules.count_without,
            players: (tags.0, tags.1),
            event: tags.2,
            round: tags.3,
            fen: G::fen(pos),
            diagram: G::diagram(pos),
            move_number: G::move_number(pos),
            to_move: G::side_to_move(pos),
            labels,
            written_label,
            verdict,
            notes,
            encoding: "utf-8",
            clocks: None,
            unverifiable: rules.not_checkable.to_vec(),
            explain: false,
        }
    }

    /// Sets the clocks the record gives; the clocks leave the list of what
    /// a record cannot show.
    pub fn with_clocks(mut self, clocks: Option<clocks::Clocks>) -> ClaimReport {
        if clocks.is_some() {
            self.unverifiable.retain(|n| n.what != Unseen::Clocks);
        }
        self.clocks = clocks;
        self
    }

    /// The claim as `verify-claim claim --format json` prints it
    /// (docs/claims.md#json-output).
    pub fn to_json(&self) -> serde_json::Value {
        json::claim(self)
    }

    /// The claim as an arbiter's note (`--format text`).
    pub fn to_text(&self) -> String {
        text::claim(self)
    }

    /// The appeal report, one self-contained HTML page (`--format html`).
    pub fn to_html(&self) -> String {
        html::claim(self)
    }

    /// The label of a ply ("after 24...Kg8", "at the start position").
    pub fn after(&self, ply: usize) -> String {
        if ply == self.verdict.ply + 1
            && self.written_label.is_some()
            && !self.labels.contains_key(&ply)
        {
            return format!(
                "after the written move {}",
                self.written_label.as_deref().unwrap_or("?")
            );
        }
        match self.labels.get(&ply) {
            Some(l) if ply == 0 => format!("at {l}"),
            Some(l) => format!("after {l}"),
            None => format!("at ply {ply}"),
        }
    }
}

/// "; it ends in FEN" after a helpmate shown (the position it ends in,
/// for an arbiter to set up), or nothing when it is not known.
pub fn line_end(end: &Option<String>) -> String {
    end.as_ref()
        .map(|fen| format!("; it ends in {fen}"))
        .unwrap_or_default()
}

/// The moves of a helpmate a report prints (`--explain`): an arbiter
/// follows 20 moves; the whole line is in the JSON report.
pub const HELPMATE_MOVES_SHOWN: u32 = 20;

/// A helpmate as the text report prints it: at most
/// [`HELPMATE_MOVES_SHOWN`] numbered moves, then how many plies follow;
/// the position it ends in after the whole line.
pub fn helpmate_shown(
    number: u32,
    to_move: Side,
    moves: &[String],
    end: &Option<String>,
) -> String {
    // 20 numbered moves: 40 plies from White's move, 39 from Black's.
    let cap = (HELPMATE_MOVES_SHOWN * 2) as usize - usize::from(to_move == Side::Black);
    if moves.len() <= cap {
        return format!("{}{}", numbered_line(number, to_move, moves), line_end(end));
    }
    let rest = moves.len() - cap;
    let end = end
        .as_ref()
        .map(|fen| format!(", ending in {fen}"))
        .unwrap_or_default();
    format!(
        "{} … and {rest} more plies (the whole line in --format json{end})",
        numbered_line(number, to_move, moves.get(..cap).unwrap_or(moves)),
    )
}

/// A line of moves with numbers, from a position: "31...Kg8 32.Nf3 Kh8".
pub fn numbered_line(number: u32, to_move: Side, moves: &[String]) -> String {
    let mut out = Vec::with_capacity(moves.len());
    let (mut n, mut side) = (number, to_move);
    for (i, m) in moves.iter().enumerate() {
        match side {
            Side::White => out.push(format!("{n}.{m}")),
            Side::Black if i == 0 => out.push(format!("{n}...{m}")),
            Side::Black => out.push(m.clone()),
        }
        if side == Side::Black {
            n += 1;
        }
        side = side.other();
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_helpmate_shows_twenty_moves_and_says_what_follows() {
        let moves: Vec<String> = (0..43).map(|i| format!("m{i}")).collect();
        let end = Some("FEN".to_owned());
        let white = helpmate_shown(8, Side::White, &moves, &end);
        assert!(white.starts_with("8.m0 m1 9.m2"), "{white}");
        assert!(
            white.ends_with(
                "27.m38 m39 … and 3 more plies (the whole line in --format json, ending in FEN)"
            ),
            "{white}"
        );
        let black = helpmate_shown(8, Side::Black, &moves, &None);
        assert!(black.starts_with("8...m0 9.m1"), "{black}");
        assert!(
            black.ends_with("27.m37 m38 … and 4 more plies (the whole line in --format json)"),
            "{black}"
        );
        let short = helpmate_shown(8, Side::White, &moves[..3], &end);
        assert_eq!(short, "8.m0 m1 9.m2; it ends in FEN");
    }
}
