//! The JSON printer: one object per claim, [`ClaimJson`]. The schema is
//! documented in docs/claims.md#json-output; the first fields are a
//! contract, and the field order is the struct's.

use serde::Serialize;
use serde_json::Value;

use super::ClaimReport;
use crate::claims::{CountEvidence, Form, GameOver, Ground};
use crate::game::{DeadCheck, Ending, GameType, Search, Side, Win};
use crate::laws::Penalty;

/// The claim report as `verify-claim claim --format json` writes it.
#[derive(Serialize)]
pub struct ClaimJson<'a> {
    pub file: &'a str,
    pub game: usize,
    pub game_type: GameType,
    pub rules: crate::laws::Laws,
    pub ply: usize,
    pub claimant: Side,
    pub written_move: Option<&'a str>,
    pub written_move_illegal: Option<&'a str>,
    pub valid: bool,
    pub grounds: &'a [Ground],
    pub game_over: Option<&'a GameOver>,
    pub claimed_by: Option<Side>,
    /// Why the claim fails, each reason as the text printer words it.
    pub reasons: Vec<String>,
    pub repetitions: Vec<PlyMove<'a>>,
    pub repetitions_with_written_move: Vec<PlyMove<'a>>,
    pub near_misses: Vec<NearMissJson<'a>>,
    pub count: &'a CountEvidence,
    pub written_move_ends_game: Option<Ending>,
    pub penalty: Option<&'a Penalty>,
    pub dead_check: DeadCheckJson<'a>,
    pub fen: &'a str,
    pub notes: &'a [String],
    pub encoding: &'a str,
    pub not_checked: &'a [crate::laws::NotCheckable],
    /// The clocks the record's `[%clk]` comments give at the claim point;
    /// absent when the record has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clocks: Option<&'a super::clocks::Clocks>,
}

/// A ply the report names, with its move ("24...Kg8"; `null` at the
/// start; the written move's label for the ply after the claim point).
#[derive(Serialize)]
pub struct PlyMove<'a> {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: Option<&'a str>,
}

/// A position with the same placement that is not the same position.
#[derive(Serialize)]
pub struct NearMissJson<'a> {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: Option<&'a str>,
    pub of: Form,
    pub reason: &'a str,
}

/// `{"search", "dead", "white_can_win", "black_can_win", "helpmates"}`:
/// true/false/null (undetermined); helpmates in the game's notation from
/// the position.
#[derive(Serialize)]
pub struct DeadCheckJson<'a> {
    pub search: Search,
    pub dead: Option<bool>,
    pub white_can_win: Option<bool>,
    pub black_can_win: Option<bool>,
    pub helpmates: Helpmates<'a>,
}

/// Each side's helpmate, `null` where none was found.
#[derive(Serialize)]
pub struct Helpmates<'a> {
    pub white: Option<&'a [String]>,
    pub black: Option<&'a [String]>,
}

impl<'a> DeadCheckJson<'a> {
    pub fn of(d: &'a DeadCheck) -> DeadCheckJson<'a> {
        let line = |w: &'a Win| match w {
            Win::Yes { helpmate } => Some(helpmate.as_slice()),
            _ => None,
        };
        DeadCheckJson {
            search: d.search,
            dead: d.dead(),
            white_can_win: d.white.as_bool(),
            black_can_win: d.black.as_bool(),
            helpmates: Helpmates {
                white: line(&d.white),
                black: line(&d.black),
            },
        }
    }
}

impl<'a> ClaimJson<'a> {
    pub fn of(r: &'a ClaimReport) -> ClaimJson<'a> {
        let v = &r.verdict;
        let label = |p: usize| -> Option<&'a str> {
            match r.labels.get(&p) {
                _ if p == v.ply + 1 => r.written_label.as_deref(),
                Some(l) if p > 0 => Some(l.as_str()),
                _ => None,
            }
        };
        let plies = |ps: &[usize]| {
            ps.iter()
                .map(|&ply| PlyMove {
                    ply,
                    mv: label(ply),
                })
                .collect()
        };
        ClaimJson {
            file: &r.file,
            game: r.game,
            game_type: r.game_type,
            rules: r.rules,
            ply: v.ply,
            claimant: v.claimant,
            written_move: v.written_move.as_deref(),
            written_move_illegal: v.written_illegal.as_deref(),
            valid: v.valid(),
            grounds: v.grounds(),
            game_over: v.game_over.as_ref(),
            claimed_by: v.claimed_by,
            reasons: v.reasons().iter().map(ToString::to_string).collect(),
            repetitions: plies(&v.repetitions),
            repetitions_with_written_move: plies(&v.repetitions_written),
            near_misses: v
                .near_misses
                .iter()
                .map(|n| NearMissJson {
                    ply: n.ply,
                    mv: label(n.ply),
                    of: n.of,
                    reason: &n.reason,
                })
                .collect(),
            count: &v.count,
            written_move_ends_game: v.written_ending,
            penalty: v.penalty.as_ref(),
            dead_check: DeadCheckJson::of(&v.dead_check),
            fen: &r.fen,
            notes: &r.notes,
            encoding: r.encoding,
            not_checked: &r.unverifiable,
            clocks: r.clocks.as_ref(),
        }
    }
}

/// The claim as a JSON value. `to_value` fails only for maps with
/// non-string keys or a failing custom `Serialize`, which these derived
/// structs cannot have: the `Null` is unreachable, not a silenced error.
pub fn claim(r: &ClaimReport) -> Value {
    serde_json::to_value(ClaimJson::of(r)).unwrap_or(Value::Null)
}

/// The dead-position check as a JSON value (`check-position`'s object
/// starts with it).
pub fn dead_check(d: &DeadCheck) -> Value {
    serde_json::to_value(DeadCheckJson::of(d)).unwrap_or(Value::Null)
}
