//! `verify-claim claim FILE`: decide one claim. Exit status 0 valid, 1 not.

use clap::{Args, ValueEnum};

use verify_claim::{ClaimKind, ClaimOptions, DeadSearch, Diagnostic, Search, Side};

use super::{Outcome, RecordOptions, named};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ClaimFormat {
    Text,
    Json,
    /// The game written back with the verdict as a tag and comments.
    Pgn,
    /// A printable page with board diagrams (the appeal report).
    Html,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 0 the claim is valid, 1 it is not, 2 the question could not be answered."
)]
pub(crate) struct ClaimArgs {
    /// The record (PGN, or PDN for column draughts); `-` for standard input.
    #[arg(required_unless_present = "sheet", conflicts_with = "sheet")]
    pub file: Option<String>,
    /// A scoresheet (instead of a record): the claim is decided on the game
    /// read from it; twice for both players' sheets.
    #[arg(long, value_name = "SHEET", action = clap::ArgAction::Append)]
    pub sheet: Vec<String>,
    #[command(flatten)]
    pub sheet_read: super::sheet::SheetReadArgs,
    /// The move the claimant wrote on the scoresheet and has not played (SAN,
    /// `g1-f3`, `0-0`, Russian piece letters).
    #[arg(long = "move", value_name = "MOVE")]
    pub written: Option<String>,
    /// The claim point: after this recorded move, e.g. `31...Kg8` or `32.Nf3`
    /// (default: after the last recorded move).
    #[arg(long, value_name = "MOVE", conflicts_with = "ply")]
    pub after: Option<String>,
    /// The claim point as plies played from the start position.
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Which game of a file with several (1-based).
    #[arg(long, value_name = "N")]
    pub game: Option<usize>,
    /// The rule claimed.
    #[arg(long, value_parser = named::<ClaimKind>(), default_value = "any")]
    pub claim: ClaimKind,
    /// Who made the claim (only the player having the move may).
    #[arg(long, value_parser = named::<Side>())]
    pub claimant: Option<Side>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: ClaimFormat,
    /// Show the helpmate lines behind "not a dead position" (always in JSON).
    #[arg(long)]
    pub explain: bool,
    /// How hard to look for a dead position (full: the unwinnability search).
    #[arg(long, value_parser = named::<Search>(), default_value = "full")]
    pub dead_search: Search,
    #[command(flatten)]
    pub record: RecordOptions,
}

impl ClaimArgs {
    fn options(&self) -> ClaimOptions {
        ClaimOptions {
            written_move: self.written.clone(),
            after: self.after.clone(),
            ply: self.ply,
            game: self.game,
            claim: self.claim,
            claimant: self.claimant,
            rules: self.record.rules,
            encoding: self.record.encoding,
            dead_search: DeadSearch(self.dead_search),
            game_type: self.record.game_type,
            column_rules: self.record.column_rules,
        }
    }
}

pub(super) fn run(args: &ClaimArgs) -> Result<Outcome, Diagnostic> {
    let Some(file) = &args.file else {
        return run_sheets(args);
    };
    let (mut report, pgn) = if args.format == ClaimFormat::Pgn {
        let (r, text) = verify_claim::decide_file_pgn(file, &args.options())?;
        (r, text)
    } else {
        (
            verify_claim::decide_file(file, &args.options())?,
            Vec::new(),
        )
    };
    report.explain = args.explain;
    let stdout = match args.format {
        ClaimFormat::Text => report.to_text().into_bytes(),
        ClaimFormat::Json => format!("{}\n", report.to_json()).into_bytes(),
        // The record's own bytes (Latin-1 stays Latin-1).
        ClaimFormat::Pgn => pgn,
        ClaimFormat::Html => report.to_html().into_bytes(),
    };
    Ok(Outcome {
        stdout,
        status: if report.verdict.valid() { 0 } else { 1 },
    })
}

/// `claim --sheet SHEET [--sheet SHEET2]`: the claim on the sheets' reading.
fn run_sheets(args: &ClaimArgs) -> Result<Outcome, Diagnostic> {
    if args.sheet.len() > 2 {
        return Err(Diagnostic::new(
            verify_claim::DiagnosticKind::Option,
            "verify-claim",
            None,
            "--sheet: at most two scoresheets (the claimant's and the opponent's)",
        ));
    }
    let sheets = args
        .sheet
        .iter()
        .map(|s| super::sheet::load(s))
        .collect::<Result<Vec<_>, _>>()?;
    let read = verify_claim::ReconstructOptions {
        notation: Some(args.sheet_read.notation.clone()),
        game_type: args.record.game_type,
        column_rules: args.record.column_rules,
        ..verify_claim::ReconstructOptions::default()
    };
    let mut claim = verify_claim::decide_sheets(&sheets, &read, &args.options())?;
    claim.report.explain = args.explain;
    let stdout = match args.format {
        ClaimFormat::Text => claim.to_text(),
        ClaimFormat::Json => format!("{}\n", claim.to_json()),
        ClaimFormat::Pgn => claim.to_pgn(),
        ClaimFormat::Html => claim.to_html(),
    };
    Ok(Outcome {
        stdout: stdout.into_bytes(),
        status: if claim.report.verdict.valid() { 0 } else { 1 },
    })
}
