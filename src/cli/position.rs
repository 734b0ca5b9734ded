//! `verify-claim check-position --fen FEN`: can either side still mate?

use clap::Args;

use verify_claim::{ColumnRules, Diagnostic, GameType, PositionOptions, Search, Side};

use super::{FormatArg, Outcome, named};

#[derive(Args, Debug)]
#[command(after_help = "Exit status: 0 answered (even if undetermined), 2 bad FEN or options.")]
pub(crate) struct CheckPositionArgs {
    /// The position (chess FEN, or the tower FEN for column draughts).
    #[arg(long)]
    pub fen: String,
    /// Only this side: can it still checkmate?
    #[arg(long, value_parser = named::<Side>())]
    pub side: Option<Side>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// How hard to look.
    #[arg(long, value_parser = named::<Search>(), default_value = "full")]
    pub dead_search: Search,
    /// The game the position is of.
    #[arg(long, value_parser = named::<GameType>(), default_value = "chess")]
    pub game_type: GameType,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_parser = named::<ColumnRules>(), default_value = "standard")]
    pub column_rules: ColumnRules,
}

pub(super) fn run(args: &CheckPositionArgs) -> Result<Outcome, Diagnostic> {
    let opts = PositionOptions {
        search: args.dead_search,
        side: args.side,
        game_type: args.game_type,
        column_rules: args.column_rules,
    };
    let check = verify_claim::check_position(&args.fen, &opts)?;
    Ok(Outcome::print(match args.format {
        FormatArg::Json => format!("{}\n", check.to_json()),
        FormatArg::Text => check.to_text(),
    }))
}
