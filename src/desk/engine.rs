//! The one place the desk calls the engine: a claim decided on the
//! scoresheets, and the scoresheets read. The answers are the objects
//! `claim --format json` and `reconstruct --format json` print for the
//! same sheets saved as `sheet1` and `sheet2` (the names the errors and
//! the objects give).

use serde_json::{Value, json};

use crate::record::{Encoding, Reader};
use crate::{ClaimOptions, Diagnostic, Edition, Side};

/// What a claim is decided on.
pub struct ClaimInput {
    /// The claimant's (or White's) sheet first.
    pub sheets: Vec<String>,
    /// The move written and not played.
    pub written: Option<String>,
    /// The claim point (`31...Kg8`); none: after the last move.
    pub after: Option<String>,
    pub notation: Option<String>,
    pub claimant: Option<Side>,
    pub rules: Option<Edition>,
}

/// A decision: the claim object and the appeal report.
pub struct Decision {
    pub json: Value,
    pub html: String,
}

/// The name sheet `i` (from 0) has in the answers and errors.
pub fn sheet_name(i: usize) -> String {
    format!("sheet{}", i + 1)
}

/// Decides the claim on the sheets.
///
/// Until the scoresheet reader is merged, the first sheet is read as a
/// record (PGN) and the second is not used: `claim FILE` on `sheet1`.
pub fn claim(input: &ClaimInput) -> Result<Decision, Diagnostic> {
    let opts = ClaimOptions {
        written_move: input.written.clone(),
        after: input.after.clone(),
        claimant: input.claimant,
        rules: input.rules,
        ..ClaimOptions::default()
    };
    let first = input.sheets.first().map_or("", String::as_str);
    let report = crate::decide(&sheet_name(0), first.as_bytes(), &opts)?;
    Ok(Decision {
        json: report.to_json(),
        html: report.to_html(),
    })
}

/// Reads the sheets: the readings, best first.
///
/// Until the scoresheet reader is merged: the first sheet's first game as
/// a record, its moves as written, one reading with no repair.
pub fn reconstruct(
    sheets: &[String],
    _notation: Option<&str>,
    _candidates: usize,
) -> Result<Value, Diagnostic> {
    let name = sheet_name(0);
    let text = sheets.first().map_or("", String::as_str);
    let mut reader = Reader::new(text.as_bytes(), Encoding::Auto);
    let moves: Vec<String> = match reader.next_game() {
        None => Vec::new(),
        Some(Err(e)) => {
            let place =
                crate::diag::place_of(text.as_bytes(), e.offset, crate::Place { line: 1, col: 1 });
            return Err(Diagnostic::new(&name, Some(place), e.message));
        }
        Some(Ok(record)) => record.moves.iter().map(|m| m.text.to_owned()).collect(),
    };
    Ok(json!({
        "notation": ["en"],
        "readings": [{ "moves": moves, "repairs": [], "cost": 0 }],
        "discrepancies": [],
        "clear": true,
    }))
}
