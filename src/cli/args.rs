//! Option values several subcommands share, and their library types.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

use verify_claim::names::{self, Name, Named};
use verify_claim::{ColumnRules, Edition, Encoding, GameType, RulesChoice, ScanOptions, Search};

/// The options that say which rules apply and how to read a record,
/// the same in `claim`, `scan` and `watch`.
#[derive(Args, Debug)]
#[command(next_help_heading = "Rules and records")]
pub(crate) struct RecordOptions {
    /// The edition of the Laws (auto: in force on each game's Date).
    #[arg(long, value_parser = auto_or::<Edition>(), default_value = "auto")]
    pub rules: Auto<Edition>,
    /// The game of every record (auto: from its GameType or Variant tag; chess otherwise).
    #[arg(long, value_parser = auto_or::<GameType>(), default_value = "auto")]
    pub game_type: Auto<GameType>,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_parser = named::<ColumnRules>(), default_value = "standard")]
    pub column_rules: ColumnRules,
    /// How to read tag values.
    #[arg(long, value_parser = named::<Encoding>(), default_value = "auto")]
    pub encoding: Encoding,
}

impl RecordOptions {
    /// The scan engine's options (scan and watch) with these rules.
    pub(crate) fn scan_options(
        &self,
        dead_search: Search,
        min_draw_moves: Option<u32>,
    ) -> ScanOptions {
        ScanOptions {
            rules: self.rules.map_or(RulesChoice::Auto, RulesChoice::Fixed),
            min_draw_moves,
            dead_search,
            column_rules: self.column_rules,
            game_type: self.game_type,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    Text,
    Json,
}

/// An option whose values are the library's name table for `T`: clap
/// lists the names (with their help, when the table has it) and parses
/// them into `T`. The names and their help are the library's, written once.
pub(crate) fn named<T: Named + Send + Sync>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(possible_values(T::NAMES))
        .try_map(|text: String| names::parse::<T>(&text))
}

/// The same with `auto` first: `None` (decide by the input), else a `T`.
pub(crate) fn auto_or<T: Named + Send + Sync>() -> impl TypedValueParser<Value = Auto<T>> {
    let auto = PossibleValue::new(names::AUTO);
    PossibleValuesParser::new(std::iter::once(auto).chain(possible_values(T::NAMES)))
        .try_map(|text: String| names::auto_or::<T>(&text))
}

/// `auto` or a value: an alias, so that clap does not read the option as
/// one that may be left out (`Option<T>`).
pub(crate) type Auto<T> = Option<T>;

fn possible_values<T>(table: &'static [Name<T>]) -> impl Iterator<Item = PossibleValue> {
    table.iter().map(|n| {
        let value = PossibleValue::new(n.name).aliases(n.aliases.iter().copied());
        match n.help {
            Some(help) => value.help(help),
            None => value,
        }
    })
}
