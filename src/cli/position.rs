//! `verify-claim check-position --fen FEN`: can either side still mate?

use clap::Args;

use verify_claim::{Diagnostic, PositionOptions};

use super::{ColumnRulesArg, DeadSearchArg, FormatArg, GameTypeArg, Outcome, SideArg};

#[derive(Args, Debug)]
#[command(after_help = "Exit status: 0 answered (even if undetermined), 2 bad FEN or options.")]
pub struct CheckPositionArgs {
    /// The position (chess FEN, or the tower FEN for column draughts).
    #[arg(long)]
    pub fen: String,
    /// Only this side: can it still checkmate?
    #[arg(long, value_enum)]
    pub side: Option<SideArg>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// How hard to look.
    #[arg(long, value_enum, default_value = "full")]
    pub dead_search: DeadSearchArg,
    /// The game the position is of.
    #[arg(long, value_enum, default_value = "chess")]
    pub game_type: GameTypeArg,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_enum, default_value = "standard")]
    pub column_rules: ColumnRulesArg,
}

pub fn run(args: &CheckPositionArgs) -> Result<Outcome, Diagnostic> {
    let opts = PositionOptions {
        search: args.dead_search.search(),
        side: args.side.map(SideArg::side),
        game_type: args.game_type.game_type(),
        column_rules: args.column_rules.rules(),
    };
    let check = verify_claim::check_position(&args.fen, &opts)?;
    Ok(Outcome::print(match args.format {
        FormatArg::Json => format!("{}\n", check.to_json()),
        FormatArg::Text => check.to_text(),
    }))
}
