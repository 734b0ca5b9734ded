//! `verify-claim claim FILE`: decide one claim. Exit status 0 valid, 1 not.

use clap::{Args, ValueEnum};

use verify_claim::{ClaimKind, ClaimOptions, DeadSearch, Diagnostic};

use super::{
    ColumnRulesArg, DeadSearchArg, EncodingArg, FormatArg, GameTypeChoice, Outcome, RulesArg,
    SideArg,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ClaimArg {
    /// Threefold repetition (9.2).
    #[value(alias = "repetition")]
    Threefold,
    /// The fifty-move rule (9.3); for column draughts, unchanged material (1.13.1).
    #[value(alias = "unchanged-material")]
    Fifty,
    /// Any ground.
    Any,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 0 the claim is valid, 1 it is not, 2 the question could not be answered."
)]
pub struct ClaimArgs {
    /// The record (PGN, or PDN for column draughts); `-` for standard input.
    pub file: String,
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
    #[arg(long, value_enum, default_value = "any")]
    pub claim: ClaimArg,
    /// Who made the claim (only the player having the move may).
    #[arg(long, value_enum)]
    pub claimant: Option<SideArg>,
    /// The edition of the Laws (auto: in force on the game's Date).
    #[arg(long, value_enum, default_value = "auto")]
    pub rules: RulesArg,
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// How to read tag values.
    #[arg(long, value_enum, default_value = "auto")]
    pub encoding: EncodingArg,
    /// How hard to look for a dead position (full: the unwinnability search).
    #[arg(long, value_enum, default_value = "full")]
    pub dead_search: DeadSearchArg,
    /// The game (auto: from the GameType or Variant tag; chess otherwise).
    #[arg(long, value_enum, default_value = "auto")]
    pub game_type: GameTypeChoice,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_enum, default_value = "standard")]
    pub column_rules: ColumnRulesArg,
}

impl ClaimArgs {
    fn options(&self) -> ClaimOptions {
        ClaimOptions {
            written_move: self.written.clone(),
            after: self.after.clone(),
            ply: self.ply,
            game: self.game,
            claim: match self.claim {
                ClaimArg::Threefold => ClaimKind::Repetition,
                ClaimArg::Fifty => ClaimKind::Count,
                ClaimArg::Any => ClaimKind::Any,
            },
            claimant: self.claimant.map(SideArg::side),
            rules: self.rules.edition(),
            encoding: self.encoding.encoding(),
            dead_search: DeadSearch(self.dead_search.search()),
            game_type: self.game_type.game_type(),
            column_rules: self.column_rules.rules(),
        }
    }
}

pub fn run(args: &ClaimArgs) -> Result<Outcome, Diagnostic> {
    let report = verify_claim::decide_file(&args.file, &args.options())?;
    let stdout = match args.format {
        FormatArg::Text => report.to_text(),
        FormatArg::Json => format!("{}\n", report.to_json()),
    };
    Ok(Outcome {
        stdout,
        status: if report.verdict.valid { 0 } else { 1 },
    })
}
