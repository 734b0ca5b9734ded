//! A reconstruction written out: JSON (`reconstruct --format json`, the
//! contract of issue 41), PGN (the best reading, a comment at each repair;
//! it feeds `claim` and `scan`) and text (what an arbiter reads).

use serde_json::{Value, json};

use super::{Reading, Reconstruction};

/// The PGN tags a reading's record carries over from the sheets.
const TAGS: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "TimeControl",
    "GameType",
    "Variant",
    "SetUp",
    "FEN",
];

impl Reading {
    fn to_json(&self) -> Value {
        json!({
            "moves": self.moves,
            "repairs": self.repairs,
            "cost": self.cost,
        })
    }
}

impl Reconstruction {
    /// Exactly `verify-claim reconstruct --format json`.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "game_type": self.game_type.name(),
            "notation": self.notation,
            "readings": self.readings.iter().map(Reading::to_json).collect::<Vec<_>>(),
            "discrepancies": self.discrepancies,
            "clear": self.clear,
            "search": {"states": self.states, "cut": self.cut},
        });
        if let (Some(g), Value::Object(map)) = (&self.gap, &mut v) {
            map.insert("gap".into(), json!(g));
        }
        v
    }

    /// The best reading as PGN, with a comment at each repair saying what
    /// was written; `result`: the result to write (the sheet's, else `*`).
    pub fn to_pgn(&self) -> String {
        self.reading_pgn(0, true)
    }

    /// Reading `i` as a record (`comments`: a comment at each repair).
    pub(super) fn reading_pgn(&self, i: usize, comments: bool) -> String {
        let Some(r) = self.readings.get(i) else {
            return String::new();
        };
        let mut out = String::new();
        for name in TAGS {
            if let Some((_, v)) = self.tags.iter().find(|t| t.0 == *name) {
                out.push_str(&format!(
                    "[{name} \"{}\"]\n",
                    v.replace('\\', "\\\\").replace('"', "\\\"")
                ));
            }
        }
        let result = self
            .result
            .unwrap_or(crate::laws::GameResult::Unfinished)
            .name()
            .to_owned();
        out.push_str(&format!("[Result \"{result}\"]\n\n"));
        let mut words: Vec<String> = Vec::new();
        for (p, m) in r.moves.iter().enumerate() {
            let black = (p % 2 == 1) != self.black_first;
            let number = self.first_move_number as usize + (p + usize::from(self.black_first)) / 2;
            if !black {
                words.push(format!("{number}."));
            } else if p == 0 {
                words.push(format!("{number}..."));
            }
            words.push(m.clone());
            if comments {
                for rep in r.repairs.iter().filter(|x| x.ply == p + 1) {
                    words.push(format!("{{{}}}", repair_words(rep).replace('}', ")")));
                }
            }
        }
        words.push(result);
        out.push_str(&wrap(&words));
        out.push('\n');
        out
    }

    /// What an arbiter reads: the game as read, each repair and
    /// discrepancy, the alternatives, and what to check on the sheets.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let sheets: Vec<String> = self
            .names
            .iter()
            .zip(&self.notation)
            .map(|(n, c)| format!("{n} ({c})"))
            .collect();
        s.push_str(&format!("Sheets: {}\n", sheets.join(", ")));
        let Some(best) = self.readings.first() else {
            return s;
        };
        s.push_str(&format!(
            "Reading: {} plies, {} repair(s), cost {}{}\n",
            best.moves.len(),
            best.repairs.len(),
            best.cost,
            if self.clear {
                ""
            } else {
                " (NOT clear: another reading is as good)"
            }
        ));
        s.push_str(
            &self
                .reading_pgn(0, false)
                .lines()
                .filter(|l| !l.starts_with('['))
                .collect::<Vec<_>>()
                .join("\n"),
        );
        s.push('\n');
        if !best.repairs.is_empty() {
            s.push_str("\nRepairs (check these boxes on the sheets):\n");
            for r in &best.repairs {
                s.push_str(&format!(
                    "  {}: {}\n",
                    self.ply_label(r.ply, &best.moves),
                    repair_words(r)
                ));
            }
        }
        if !self.discrepancies.is_empty() {
            s.push_str("\nThe sheets disagree (retrace to where they agree, Appendix D.2.9):\n");
            for d in &self.discrepancies {
                let show = |t: &str| {
                    if t.is_empty() {
                        "(empty)".to_owned()
                    } else {
                        format!("'{t}'")
                    }
                };
                s.push_str(&format!(
                    "  {}: sheet 1 {}, sheet 2 {}\n",
                    self.ply_label(d.ply, &best.moves),
                    show(&d.sheet1),
                    show(&d.sheet2)
                ));
            }
        }
        for (i, r) in self.readings.iter().enumerate().skip(1) {
            let first_diff = r.moves.iter().zip(&best.moves).position(|(a, b)| a != b);
            let at = first_diff.map_or("a different length".to_owned(), |p| {
                self.ply_label(p + 1, &r.moves)
            });
            s.push_str(&format!(
                "Alternative {}: cost {}, {} repair(s), differs from {}\n",
                i + 1,
                r.cost,
                r.repairs.len(),
                at
            ));
        }
        if let Some(g) = &self.gap {
            s.push_str(&format!(
                "\nThe gap both sheets share, to the board ({}):\n  plies in it: {}\n  a capture or pawn move in it: {}\n  fifty-move claim: {}\n  threefold claim: {}\n",
                g.board,
                g.plies.map_or(format!("unknown ({})", g.parity), |p| p.to_string()),
                if g.capture_or_pawn_move { "yes, it must have happened" } else { "no, none can have" },
                g.fifty_move,
                g.threefold
            ));
        }
        if self.cut {
            s.push_str("Note: the search's cap cut off states as cheap as these readings; a reading may be missing.\n");
        }
        s
    }

    /// `12.Nf3` or `12...Nc6` for ply `ply` (1-based) of `moves`.
    pub fn ply_label(&self, ply: usize, moves: &[String]) -> String {
        let p = ply.saturating_sub(1);
        let q = p + usize::from(self.black_first);
        let number = self.first_move_number as usize + q / 2;
        let dots = if q.is_multiple_of(2) { "." } else { "..." };
        format!("{number}{dots}{}", moves.get(p).map_or("", String::as_str))
    }
}

/// A repair in words.
pub(super) fn repair_words(r: &super::Repair) -> String {
    match (r.written.is_empty(), r.read.is_empty()) {
        (true, _) => format!(
            "sheet {} does not record {} (a missing box)",
            r.sheet, r.read
        ),
        (_, true) => format!(
            "sheet {} has '{}', which is no move of the game",
            r.sheet, r.written
        ),
        _ => format!("sheet {} has '{}', read as {}", r.sheet, r.written, r.read),
    }
}

/// Words joined in lines of at most 79 characters.
fn wrap(words: &[String]) -> String {
    let mut out = String::new();
    let mut line = 0;
    for w in words {
        if line > 0 && line + 1 + w.chars().count() > 79 {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(w);
        line += w.chars().count();
    }
    out
}
