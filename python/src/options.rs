//! The binding's keyword arguments, checked and turned into the crate's
//! option types. Every name and value is the CLI's (with `_` for `-` in
//! names); a bad value is [`Error::Usage`], worded with the keyword, never
//! a CLI flag.

use verify_claim::{
    ClaimKind, ClaimOptions, ColumnRules, DeadSearch, Edition, Encoding, GameType, PositionOptions,
    RulesChoice, ScanOptions, ScanSettings, Search, Severity, Side,
};

use verify_claim::names::{self, Named};

use crate::engine::Error;

/// `keyword=value: expected one of a, b, c`.
fn bad(keyword: &str, value: &str, allowed: &[&str]) -> Error {
    let allowed: Vec<String> = allowed.iter().map(|a| format!("{a:?}")).collect();
    Error::Usage(format!(
        "{keyword}={value:?}: expected one of {}",
        allowed.join(", ")
    ))
}

/// The value of `keyword`, by the library's name table for `T` (the
/// names the CLI takes, written once in the library).
fn pick<T: Named>(keyword: &str, value: &str) -> Result<T, Error> {
    names::parse::<T>(value).map_err(|e| bad(keyword, value, &e.expected))
}

/// `auto` (`None`: decide by the input) or a value of `T`.
fn auto_or<T: Named>(keyword: &str, value: &str) -> Result<Option<T>, Error> {
    names::auto_or::<T>(value).map_err(|e| bad(keyword, value, &e.expected))
}

pub fn rules(value: &str) -> Result<Option<Edition>, Error> {
    auto_or("rules", value)
}

pub fn search(keyword: &str, value: &str) -> Result<Search, Error> {
    pick(keyword, value)
}

pub fn side(keyword: &str, value: Option<&str>) -> Result<Option<Side>, Error> {
    value.map(|v| pick(keyword, v)).transpose()
}

/// `auto` (from the tags) allowed when `auto` is true.
pub fn game_type(value: &str, auto: bool) -> Result<Option<GameType>, Error> {
    if auto {
        return auto_or("game_type", value);
    }
    pick("game_type", value).map(Some)
}

pub fn column_rules(value: &str) -> Result<ColumnRules, Error> {
    pick("column_rules", value)
}

pub fn encoding(value: &str) -> Result<Encoding, Error> {
    pick("encoding", value)
}

pub fn severity(value: &str) -> Result<Severity, Error> {
    pick("min_severity", value)
}

pub fn claim_kind(value: &str) -> Result<ClaimKind, Error> {
    pick("claim", value)
}

/// `decide`'s keywords, as strings.
pub struct ClaimArgs<'a> {
    pub written: Option<String>,
    pub after: Option<String>,
    pub ply: Option<usize>,
    pub game: Option<usize>,
    pub claim: &'a str,
    pub claimant: Option<&'a str>,
    pub rules: &'a str,
    pub game_type: &'a str,
    pub column_rules: &'a str,
    pub encoding: &'a str,
    pub dead_search: &'a str,
}

pub fn claim_options(a: ClaimArgs<'_>) -> Result<ClaimOptions, Error> {
    if a.game == Some(0) {
        return Err(Error::Usage(
            "game=0: games are counted from 1 (the first game of the file is game=1)".to_owned(),
        ));
    }
    Ok(ClaimOptions {
        written_move: a.written,
        after: a.after,
        ply: a.ply,
        game: a.game,
        claim: claim_kind(a.claim)?,
        claimant: side("claimant", a.claimant)?,
        rules: rules(a.rules)?,
        encoding: encoding(a.encoding)?,
        dead_search: DeadSearch(search("dead_search", a.dead_search)?),
        game_type: game_type(a.game_type, true)?,
        column_rules: column_rules(a.column_rules)?,
    })
}

pub fn position_options(
    side_: Option<&str>,
    dead_search: &str,
    game_type_: &str,
    column_rules_: &str,
) -> Result<PositionOptions, Error> {
    Ok(PositionOptions {
        search: search("dead_search", dead_search)?,
        side: side("side", side_)?,
        game_type: game_type(game_type_, false)?.unwrap_or(GameType::Chess),
        column_rules: column_rules(column_rules_)?,
    })
}

/// `scan`'s keywords, as strings.
pub struct ScanArgs<'a> {
    pub jobs: Option<usize>,
    pub rules: &'a str,
    pub game_type: &'a str,
    pub column_rules: &'a str,
    pub encoding: &'a str,
    pub dead_search: &'a str,
    pub min_severity: &'a str,
    pub min_draw_moves: Option<u32>,
    pub follow: bool,
}

pub fn scan_settings(a: ScanArgs<'_>) -> Result<ScanSettings, Error> {
    if a.jobs == Some(0) {
        return Err(Error::Usage(
            "jobs=0: expected at least 1 (None: every core)".to_owned(),
        ));
    }
    Ok(ScanSettings {
        jobs: a.jobs,
        options: ScanOptions {
            rules: rules(a.rules)?.map_or(RulesChoice::Auto, RulesChoice::Fixed),
            min_draw_moves: a.min_draw_moves,
            dead_search: search("dead_search", a.dead_search)?,
            column_rules: column_rules(a.column_rules)?,
            game_type: game_type(a.game_type, true)?,
        },
        encoding: encoding(a.encoding)?,
        min_severity: severity(a.min_severity)?,
        follow: a.follow,
    })
}
