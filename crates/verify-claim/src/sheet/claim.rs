//! A claim decided on the reading of the sheets: the best reading is the
//! record; every other reading as good (no more repairs, and no dearer
//! ones) is decided too, and when one gives another verdict the claim
//! depends on the reading (the arbiter decides which is right; the tool
//! does not pretend).

use serde_json::{Value, json};

use super::{ReconstructOptions, Reconstruction, Sheet, reconstruct};
use crate::{ClaimOptions, ClaimReport, Diagnostic};

/// A claim decided on scoresheets.
#[derive(Clone, Debug)]
pub struct SheetClaim {
    /// The claim decided on the best reading.
    pub report: ClaimReport,
    /// What the sheets were read as.
    pub reconstruction: Reconstruction,
    /// Another reading with no more repairs than the best, and none
    /// dearer, gives a different verdict.
    pub depends_on_reading: bool,
    /// Each other reading decided: (its index in the readings, valid).
    pub verdicts: Vec<(usize, bool)>,
    /// The record decided: the best reading as PGN, a comment at each
    /// repair (without the written move when it was taken from a sheet).
    pub record: String,
    /// The written move taken from the claimant's sheet (one move more
    /// than the opponent's, 9.2.1), when no `--move` was given.
    pub written_from_sheet: Option<String>,
}

/// Reads `sheets` and decides the claim `opts` on the reading.
pub fn decide_sheets(
    sheets: &[Sheet],
    sheet_opts: &ReconstructOptions,
    opts: &ClaimOptions,
) -> Result<SheetClaim, Diagnostic> {
    let rec = reconstruct(sheets, sheet_opts)?;
    let name = &rec.names[0];
    let best = &rec.readings[0];
    // The claimant's sheet one ply longer than the opponent's: its last
    // move is the move written and not played (9.2.1, 9.3.1).
    let written_last = opts.written_move.is_none()
        && best.recorded.len() == 2
        && best.recorded.iter().max() == Some(&best.moves.len())
        && best.recorded.iter().min() == Some(&(best.moves.len().saturating_sub(1)))
        && best.recorded[0] != best.recorded[1];
    let decide_one = |i: usize| -> Result<(ClaimReport, String), Diagnostic> {
        let r = &rec.readings[i];
        let mut o = opts.clone();
        let mut reading = rec.clone();
        if written_last && r.moves.len() == best.moves.len() {
            o.written_move = r.moves.last().cloned();
            reading.readings[i].moves.pop();
        }
        o.game = None;
        o.game_type = Some(rec.game_type);
        let pgn = reading.reading_pgn(i, true);
        let report = crate::decide(name, pgn.as_bytes(), &o).map_err(|mut d| {
            // A place in the record written from the reading would point
            // at nothing the user has.
            d.place = None;
            d
        })?;
        Ok((report, pgn))
    };
    let (report, record) = decide_one(0)?;
    let mut verdicts = Vec::new();
    for i in 1..rec.readings.len() {
        // As good as the best: no more repairs, and none dearer (a reading
        // that needs a dearer slip is a worse explanation, not an equal
        // one; it stays among the alternatives of the text).
        let r = &rec.readings[i];
        if r.repairs.len() > best.repairs.len() || r.cost > best.cost {
            continue;
        }
        if let Ok((r, _)) = decide_one(i) {
            verdicts.push((i, r.verdict.valid()));
        }
    }
    let depends = verdicts.iter().any(|v| v.1 != report.verdict.valid());
    Ok(SheetClaim {
        written_from_sheet: written_last.then(|| best.moves.last().cloned()).flatten(),
        report,
        depends_on_reading: depends,
        verdicts,
        record,
        reconstruction: rec,
    })
}

impl SheetClaim {
    /// Exactly `verify-claim claim --sheet ... --format json`: the claim's
    /// object, with the reading and whether the verdict depends on it.
    pub fn to_json(&self) -> Value {
        let mut v = self.report.to_json();
        let rec = &self.reconstruction;
        let best = &rec.readings[0];
        if let Value::Object(map) = &mut v {
            map.insert(
                "reading".into(),
                json!({
                    "repairs": best.repairs,
                    "discrepancies": rec.discrepancies,
                    "alternatives": rec.readings.len().saturating_sub(1),
                }),
            );
            map.insert("depends_on_reading".into(), json!(self.depends_on_reading));
            map.insert("valid".into(), json!(self.report.verdict.valid()));
        }
        v
    }

    /// `claim --sheet ... --format pgn`: the record decided, with the
    /// verdict as a tag and comments (as `claim --format pgn` writes a
    /// record) and a comment at each repair.
    pub fn to_pgn(&self) -> String {
        let bytes = self.record.as_bytes();
        let annotated =
            crate::input::select_from(&self.report.file, bytes, crate::Encoding::Utf8, Some(1))
                .and_then(|sel| {
                    let record = sel.record()?;
                    let a = crate::report::pgn::claim_annotation(&self.report);
                    Ok(crate::report::pgn::annotate_game(bytes, &record, &a))
                });
        match annotated {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(_) => self.record.clone(),
        }
    }

    /// The claim's text, then the reading: repairs, discrepancies, and the
    /// verdict under each reading when it depends on it.
    pub fn to_text(&self) -> String {
        let mut s = self.report.to_text();
        s.push_str("\nThe record is the reading of the scoresheets:\n");
        if let Some(w) = &self.written_from_sheet {
            s.push_str(&format!(
                "The claimant's sheet has one move more than the opponent's: {w} is taken as the move written and not played (9.2.1).\n"
            ));
        }
        s.push_str(&self.reconstruction.to_text());
        s.push_str(&self.dependence_text());
        s
    }

    fn dependence_text(&self) -> String {
        if !self.depends_on_reading {
            return String::new();
        }
        let mut s = String::from(
            "\nTHE VERDICT DEPENDS ON THE READING: the arbiter must decide which reading the sheets bear.\n",
        );
        let word = |v: bool| if v { "valid" } else { "not valid" };
        s.push_str(&format!(
            "  Reading 1 (best): the claim is {}\n",
            word(self.report.verdict.valid())
        ));
        for (i, v) in &self.verdicts {
            s.push_str(&format!("  Reading {}: the claim is {}\n", i + 1, word(*v)));
        }
        s
    }

    /// The appeal report: the claim's page, with both sheets as read beside
    /// the reconstruction.
    pub fn to_html(&self) -> String {
        let mut page = self.report.to_html();
        if self.depends_on_reading
            && let Some(at) = page.find("<body>\n")
        {
            // Said first, before the verdict it qualifies.
            page.insert_str(at + 7, &super::html::depends_notice(self));
        }
        let table = super::html::sheets_table(self);
        match page.rfind("</body>") {
            Some(at) => format!("{}{table}{}", &page[..at], &page[at..]),
            None => page + &table,
        }
    }
}
