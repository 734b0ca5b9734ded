//! The one place the desk calls the engine: a claim decided on the
//! scoresheets, and the scoresheets read. The answers are the objects
//! `claim --format json` and `reconstruct --format json` print for the
//! same sheets saved as `sheet1` and `sheet2` (the names the errors and
//! the objects give).

use serde_json::Value;

use crate::{ClaimOptions, Diagnostic, Edition, ReconstructOptions, Sheet, Side};

/// What a claim is decided on.
pub(crate) struct ClaimInput {
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
pub(crate) struct Decision {
    pub json: Value,
    pub html: String,
}

/// The name sheet `i` (from 0) has in the answers and errors.
pub(crate) fn sheet_name(i: usize) -> String {
    format!("sheet{}", i + 1)
}

/// The sheets as the engine takes them.
fn sheets_of(texts: &[String]) -> Vec<Sheet> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| Sheet {
            name: sheet_name(i),
            text: t.clone().into_bytes(),
        })
        .collect()
}

/// How to read the sheets: `notation` (none: auto), at most `candidates`
/// readings.
fn read_options(notation: Option<&str>, candidates: usize) -> ReconstructOptions {
    ReconstructOptions {
        notation: Some(notation.unwrap_or("auto").to_owned()),
        candidates,
        ..ReconstructOptions::default()
    }
}

/// Decides the claim on the sheets: `claim --sheet sheet1 [--sheet
/// sheet2] --format json` and `--format html`.
pub(crate) fn claim(input: &ClaimInput) -> Result<Decision, Diagnostic> {
    let opts = ClaimOptions {
        written_move: input.written.clone(),
        after: input.after.clone(),
        claimant: input.claimant,
        rules: input.rules,
        ..ClaimOptions::default()
    };
    let read = read_options(
        input.notation.as_deref(),
        ReconstructOptions::default().candidates,
    );
    let claim = crate::decide_sheets(&sheets_of(&input.sheets), &read, &opts)?;
    Ok(Decision {
        json: claim.to_json(),
        html: claim.to_html(),
    })
}

/// Reads the sheets: `reconstruct sheet1 [sheet2] --format json`, the
/// readings best first.
pub(crate) fn reconstruct(
    sheets: &[String],
    notation: Option<&str>,
    candidates: usize,
) -> Result<Value, Diagnostic> {
    let rec = crate::reconstruct(&sheets_of(sheets), &read_options(notation, candidates))?;
    Ok(rec.to_json())
}
