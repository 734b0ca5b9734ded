//! Option values several subcommands share, and their library types.

use clap::{Args, ValueEnum};

use verify_claim::{
    ColumnRules, Edition, Encoding, GameType, RulesChoice, ScanOptions, Search, Side,
};

/// The options that say which rules apply and how to read a record,
/// the same in `claim`, `scan` and `watch`.
#[derive(Args, Debug)]
#[command(next_help_heading = "Rules and records")]
pub struct RecordOptions {
    /// The edition of the Laws (auto: in force on each game's Date).
    #[arg(long, value_enum, default_value = "auto")]
    pub rules: RulesArg,
    /// The game of every record (auto: from its GameType or Variant tag; chess otherwise).
    #[arg(long, value_enum, default_value = "auto")]
    pub game_type: GameTypeChoice,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_enum, default_value = "standard")]
    pub column_rules: ColumnRulesArg,
    /// How to read tag values.
    #[arg(long, value_enum, default_value = "auto")]
    pub encoding: EncodingArg,
}

impl RecordOptions {
    /// The scan engine's options (scan and watch) with these rules.
    pub fn scan_options(
        &self,
        dead_search: DeadSearchArg,
        min_draw_moves: Option<u32>,
    ) -> ScanOptions {
        ScanOptions {
            rules: self
                .rules
                .edition()
                .map_or(RulesChoice::Auto, RulesChoice::Fixed),
            min_draw_moves,
            dead_search: dead_search.search(),
            column_rules: self.column_rules.rules(),
            game_type: self.game_type.game_type(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    White,
    Black,
}

impl SideArg {
    pub fn side(self) -> Side {
        match self {
            SideArg::White => Side::White,
            SideArg::Black => Side::Black,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    Auto,
    #[value(name = "fide-2009")]
    Fide2009,
    #[value(name = "fide-2014")]
    Fide2014,
    #[value(name = "fide-2018")]
    Fide2018,
    #[value(name = "fide-2023")]
    Fide2023,
}

impl RulesArg {
    /// The edition asked for; `None` for `auto` (by the game's Date).
    pub fn edition(self) -> Option<Edition> {
        match self {
            RulesArg::Auto => None,
            RulesArg::Fide2009 => Some(Edition::Fide2009),
            RulesArg::Fide2014 => Some(Edition::Fide2014),
            RulesArg::Fide2018 => Some(Edition::Fide2018),
            RulesArg::Fide2023 => Some(Edition::Fide2023),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeadSearchArg {
    /// A fast test that can prove a position dead, never that it is not.
    Quick,
    /// The full unwinnability search (helpmate or proof).
    Full,
}

impl DeadSearchArg {
    pub fn search(self) -> Search {
        match self {
            DeadSearchArg::Quick => Search::Quick,
            DeadSearchArg::Full => Search::Full,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    /// UTF-8 where a tag value is UTF-8, else Latin-1 (with a note).
    Auto,
    /// UTF-8 only: anything else is an error.
    Utf8,
    /// Every tag value is Latin-1 (ISO 8859-1).
    Latin1,
}

impl EncodingArg {
    pub fn encoding(self) -> Encoding {
        match self {
            EncodingArg::Auto => Encoding::Auto,
            EncodingArg::Utf8 => Encoding::Utf8,
            EncodingArg::Latin1 => Encoding::Latin1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameTypeChoice {
    Auto,
    Chess,
    #[value(name = "column-draughts")]
    ColumnDraughts,
}

impl GameTypeChoice {
    /// The game forced; `None` for `auto` (from the tags).
    pub fn game_type(self) -> Option<GameType> {
        match self {
            GameTypeChoice::Auto => None,
            GameTypeChoice::Chess => Some(GameType::Chess),
            GameTypeChoice::ColumnDraughts => Some(GameType::ColumnDraughts),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameTypeArg {
    Chess,
    #[value(name = "column-draughts")]
    ColumnDraughts,
}

impl GameTypeArg {
    pub fn game_type(self) -> GameType {
        match self {
            GameTypeArg::Chess => GameType::Chess,
            GameTypeArg::ColumnDraughts => GameType::ColumnDraughts,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColumnRulesArg {
    /// A tower may be jumped once per move (jumped towers stay, blocking).
    Standard,
    /// Captures take effect at once; a tower may be jumped again.
    Rejump,
}

impl ColumnRulesArg {
    pub fn rules(self) -> ColumnRules {
        match self {
            ColumnRulesArg::Standard => ColumnRules::Standard,
            ColumnRulesArg::Rejump => ColumnRules::Rejump,
        }
    }
}
