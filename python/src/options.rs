//! The binding's keyword arguments, checked and turned into the crate's
//! option types. Every name and value is the CLI's (with `_` for `-` in
//! names); a bad value is [`Error::Usage`], worded with the keyword, never
//! a CLI flag.

use verify_claim::{
    ClaimKind, ClaimOptions, ColumnRules, DeadSearch, Edition, Encoding, GameType, PositionOptions,
    RulesChoice, ScanOptions, ScanSettings, Search, Severity, Side,
};

use crate::engine::Error;

/// `keyword=value: expected one of a, b, c`.
fn bad(keyword: &str, value: &str, allowed: &[&str]) -> Error {
    let allowed: Vec<String> = allowed.iter().map(|a| format!("{a:?}")).collect();
    Error::Usage(format!(
        "{keyword}={value:?}: expected one of {}",
        allowed.join(", ")
    ))
}

/// The value of `keyword` among `(name, value)` pairs.
fn pick<T: Copy>(keyword: &str, value: &str, table: &[(&str, T)]) -> Result<T, Error> {
    table
        .iter()
        .find(|(name, _)| *name == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            bad(keyword, value, &names)
        })
}

pub fn rules(value: &str) -> Result<Option<Edition>, Error> {
    if value == "auto" {
        return Ok(None);
    }
    Edition::from_name(value).map(Some).ok_or_else(|| {
        bad(
            "rules",
            value,
            &["auto", "fide-2009", "fide-2014", "fide-2018", "fide-2023"],
        )
    })
}

pub fn search(keyword: &str, value: &str) -> Result<Search, Error> {
    pick(
        keyword,
        value,
        &[("quick", Search::Quick), ("full", Search::Full)],
    )
}

pub fn side(keyword: &str, value: Option<&str>) -> Result<Option<Side>, Error> {
    value
        .map(|v| {
            pick(
                keyword,
                v,
                &[("white", Side::White), ("black", Side::Black)],
            )
        })
        .transpose()
}

/// `auto` (from the tags) allowed when `auto` is true.
pub fn game_type(value: &str, auto: bool) -> Result<Option<GameType>, Error> {
    let table = [
        ("chess", Some(GameType::Chess)),
        ("column-draughts", Some(GameType::ColumnDraughts)),
    ];
    if auto && value == "auto" {
        return Ok(None);
    }
    if auto {
        let with_auto = [("auto", None), table[0], table[1]];
        return pick("game_type", value, &with_auto);
    }
    pick("game_type", value, &table)
}

pub fn column_rules(value: &str) -> Result<ColumnRules, Error> {
    pick(
        "column_rules",
        value,
        &[
            ("standard", ColumnRules::Standard),
            ("rejump", ColumnRules::Rejump),
        ],
    )
}

pub fn encoding(value: &str) -> Result<Encoding, Error> {
    pick(
        "encoding",
        value,
        &[
            ("auto", Encoding::Auto),
            ("utf8", Encoding::Utf8),
            ("latin1", Encoding::Latin1),
        ],
    )
}

pub fn severity(value: &str) -> Result<Severity, Error> {
    pick(
        "min_severity",
        value,
        &[
            ("info", Severity::Info),
            ("warning", Severity::Warning),
            ("error", Severity::Error),
        ],
    )
}

pub fn claim_kind(value: &str) -> Result<ClaimKind, Error> {
    pick(
        "claim",
        value,
        &[
            ("any", ClaimKind::Any),
            ("threefold", ClaimKind::Repetition),
            ("fifty", ClaimKind::Count),
            ("unchanged-material", ClaimKind::Count),
            // The names before the column-draughts ground had its own.
            ("repetition", ClaimKind::Repetition),
        ],
    )
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
