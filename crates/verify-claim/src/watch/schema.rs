//! The event record and the game identity: the types behind the JSON
//! schema of `watch`.

// The event's fields are the JSON schema's, documented field by field in
// docs/watch.md; the types are public for the binary's views (`watching`).
#![allow(missing_docs)]

use std::sync::Arc;

use serde::Serialize;

use crate::diag::Place;
use crate::game::Side;
use crate::record::GameRecord;

/// What an event is about. The names are part of the JSON schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventKind {
    GameEnded,
    MovesAfterEnd,
    ClaimAvailable,
    IllegalMove,
    ResultEntered,
    RecordChanged,
    /// A record or file the tool cannot read (bad tags, bad FEN, syntax).
    RecordError,
    /// A bound of the watch was reached (files, folders, boards in a file,
    /// plies of a board): what lies beyond it is not followed. Said once.
    LimitReached,
    /// A position stands the second time (the next can be claimed).
    RepetitionWarning,
    /// Ten plies short of the move-count claim (90 in chess).
    CountWarning,
    /// A clock under `--low-time`, from `[%clk]`.
    LowTime,
    /// A clock at zero, from `[%clk]` (6.9), confirmed: a later reading
    /// of that clock still at zero, or the result entered with no later
    /// move by that player.
    FlagFall,
    /// A clock read at zero, not confirmed yet (boards send glitched
    /// readings).
    ClockZero,
}

impl EventKind {
    pub fn name(self) -> &'static str {
        match self {
            EventKind::GameEnded => "game-ended",
            EventKind::MovesAfterEnd => "moves-after-end",
            EventKind::ClaimAvailable => "claim-available",
            EventKind::IllegalMove => "illegal-move",
            EventKind::ResultEntered => "result-entered",
            EventKind::RecordChanged => "record-changed",
            EventKind::RecordError => "record-error",
            EventKind::LimitReached => "limit-reached",
            EventKind::RepetitionWarning => "repetition-warning",
            EventKind::CountWarning => "count-warning",
            EventKind::LowTime => "low-time",
            EventKind::FlagFall => "flag-fall",
            EventKind::ClockZero => "clock-zero",
        }
    }
}

/// Which game a board is: its tags and its order in the file (the
/// event's `game` object, these fields in this order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameId {
    /// 1-based order in the file.
    pub index: usize,
    pub round: Option<String>,
    pub board: Option<String>,
    pub white: Option<String>,
    pub black: Option<String>,
}

impl GameId {
    pub fn of(record: &GameRecord<'_>, index: usize) -> GameId {
        let tag = |name: &str| {
            record
                .tag(name)
                .map(str::trim)
                .filter(|v| !v.is_empty() && *v != "?" && *v != "-")
                .map(str::to_owned)
        };
        GameId {
            index,
            round: tag("Round"),
            board: tag("Board"),
            white: tag("White"),
            black: tag("Black"),
        }
    }

    /// No game: an event about a whole file.
    pub fn none() -> GameId {
        GameId {
            index: 0,
            round: None,
            board: None,
            white: None,
            black: None,
        }
    }

    /// The key a board keeps across reads: Round and Board when the record
    /// has a Board tag, else Round, White and Black, else the order.
    pub fn key(&self) -> String {
        let r = self.round.as_deref().unwrap_or("");
        match (&self.board, &self.white, &self.black) {
            (Some(b), _, _) => format!("board\u{0}{r}\u{0}{b}"),
            (None, None, None) => format!("index\u{0}{}", self.index),
            (None, w, b) => format!(
                "players\u{0}{r}\u{0}{}\u{0}{}",
                w.as_deref().unwrap_or(""),
                b.as_deref().unwrap_or("")
            ),
        }
    }

    /// How the board is named to a person: "5.3", "3", or "#3".
    pub fn label(&self) -> String {
        match (&self.round, &self.board) {
            (Some(r), Some(b)) if !r.contains('.') => format!("{r}.{b}"),
            (_, Some(b)) => b.clone(),
            (Some(r), None) => r.clone(),
            (None, None) => format!("#{}", self.index),
        }
    }

    pub fn players(&self) -> String {
        format!(
            "{} - {}",
            self.white.as_deref().unwrap_or("?"),
            self.black.as_deref().unwrap_or("?")
        )
    }
}

/// One event, not yet stamped with its time.
#[derive(Clone, Debug)]
pub struct Event {
    pub file: Arc<str>,
    pub game: GameId,
    pub ply: usize,
    pub kind: EventKind,
    pub side: Option<Side>,
    /// The move, numbered ("31...Kg8"): the one to write for a claim, the one
    /// that ended the game, the first after the end, the illegal one.
    pub mv: Option<String>,
    pub article: Option<&'static str>,
    pub message: String,
    /// Where in the file (illegal moves, record errors).
    pub place: Option<Place>,
    /// game-ended, moves-after-end: how the game ended (kebab-case).
    pub reason: Option<&'static str>,
    /// result-entered: the result, and whether the Laws agree.
    pub result: Option<String>,
    pub agrees: Option<bool>,
}

impl Event {
    pub(super) fn new(
        file: &Arc<str>,
        game: &GameId,
        ply: usize,
        kind: EventKind,
        message: String,
    ) -> Event {
        Event {
            file: Arc::clone(file),
            game: game.clone(),
            ply,
            kind,
            side: None,
            mv: None,
            article: None,
            message,
            place: None,
            reason: None,
            result: None,
            agrees: None,
        }
    }

    /// Alerts ask the arbiter to act: the bell rings and the view
    /// highlights them. Claims, agreeing results and corrections inform.
    pub fn is_alert(&self) -> bool {
        match self.kind {
            EventKind::GameEnded | EventKind::MovesAfterEnd | EventKind::IllegalMove => true,
            EventKind::ResultEntered => self.agrees == Some(false),
            EventKind::RecordError
            | EventKind::LimitReached
            | EventKind::LowTime
            | EventKind::FlagFall => true,
            EventKind::ClaimAvailable
            | EventKind::RecordChanged
            | EventKind::RepetitionWarning
            | EventKind::CountWarning
            | EventKind::ClockZero => false,
        }
    }
}

/// An event as `watch --format jsonl` prints it, `/events` sends it and
/// `/state` lists it: the fields in the order printed. The fields up to
/// `message` are the contract, always there (`null` when they do not
/// apply); the others appear only when they apply.
#[derive(Clone, Debug, Serialize)]
pub struct EventJson {
    /// RFC 3339 in UTC, with milliseconds.
    pub time: String,
    pub file: String,
    /// The board's label; none for an event about a whole file.
    pub board: Option<String>,
    pub game: GameId,
    pub ply: usize,
    pub kind: &'static str,
    pub side: Option<Side>,
    #[serde(rename = "move")]
    pub mv: Option<String>,
    pub article: Option<&'static str>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agrees: Option<bool>,
}

impl EventJson {
    /// The event `e`, stamped with `time`.
    pub fn of(e: &Event, time: std::time::SystemTime) -> EventJson {
        EventJson {
            time: super::view::timestamp(time),
            file: e.file.to_string(),
            board: (e.game.index != 0).then(|| e.game.label()),
            game: e.game.clone(),
            ply: e.ply,
            kind: e.kind.name(),
            side: e.side,
            mv: e.mv.clone(),
            article: e.article,
            message: e.message.clone(),
            line: e.place.map(|p| p.line),
            col: e.place.map(|p| p.col),
            reason: e.reason,
            result: e.result.clone(),
            agrees: e.agrees,
        }
    }
}

/// The JSON text of one of the watch's derived records. Writing a struct
/// of strings, numbers, booleans and options to a `String` cannot fail
/// (serde_json fails only on a map key that is not a string, or on a
/// writer or a hand-written `Serialize` that fails): the empty default is
/// never seen.
pub(crate) fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
