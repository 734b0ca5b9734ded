//! Per board: the engine's answers after each new move, turned into events
//! emitted once.
//!
//! Nothing here decides a rule. After each ply the board asks the claim
//! engine ([`claims::decide`], [`claims::pending`]) what holds at that ply,
//! and the scan ([`scan_record`]) whether an entered result agrees with the
//! Laws; this module only remembers what it has already said, so that each
//! event is emitted once, and again only when a new occurrence arises.

// A board's fields are the watch's own state, public for the binary's
// views (`watching`); docs/watch.md says what each event means.
#![allow(missing_docs)]

use std::sync::Arc;

mod available;

pub(crate) use super::schema::{Event, EventKind, GameId};
use super::words::{reason_name, short_reason};
use crate::claims::scan::{Kind, ScanOptions, rulebook_of, scan_record};
use crate::claims::{self, Replay, replay::numbered};
use crate::diag::{Place, place_of};
use crate::game::Game;
use crate::laws::{GameResult, Rulebook};
use crate::record::GameRecord;

/// How the game ended, once said.
#[derive(Clone, Debug)]
struct Ended {
    ply: usize,
    reason: &'static str,
    words: &'static str,
    article: &'static str,
}

/// What one board has said so far, and what the view shows.
#[derive(Debug)]
pub struct Board {
    pub id: GameId,
    /// The move tokens already followed.
    moves: Vec<String>,
    /// Per ply followed: could the player to move claim by repetition, by
    /// the move count ([`available::NONE`], [`available::WRITTEN`], by
    /// writing a move, or [`available::BOARD`], on the board)?
    avail: Vec<[u8; 2]>,
    ended: Option<Ended>,
    after_end: bool,
    /// The illegal move reported: its ply, its token, numbered.
    illegal: Option<(usize, String, String)>,
    result: Option<String>,
    error: Option<String>,
    /// The tags that set the start position and the rules, as last read.
    setup: Option<String>,
    /// For the view.
    pub plies: usize,
    pub last_move: Option<String>,
    /// What the player to move may claim now, in words.
    claim_state: String,
    /// Whether the Laws agree with the result entered.
    result_agrees: Option<bool>,
    /// When this board last had an alert (the view highlights the newest).
    pub alert_at: Option<std::time::Instant>,
    /// [`MAX_PLIES`] was reached and said.
    cut: bool,
    /// What the live page draws.
    pub look: super::look::Look,
    /// Bumped at every read that changed what the board shows.
    pub version: u64,
    warned: super::warn::Warned,
}

/// What the engine needs besides the record.
pub struct Context<'a> {
    pub file: &'a Arc<str>,
    pub bytes: &'a [u8],
    pub options: &'a ScanOptions,
    /// `--low-time`, in seconds.
    pub low_time: Option<f64>,
}

/// A board follows at most this many plies (no real game comes near; it
/// bounds the work an absurd record can cause).
pub(crate) const MAX_PLIES: usize = 4000;

/// One record, followed by the engine of its game.
struct Follow<'a, 'r> {
    board: &'a mut Board,
    record: &'a GameRecord<'r>,
    cx: &'a Context<'a>,
    out: &'a mut Vec<Event>,
}

impl crate::game::WithGame for Follow<'_, '_> {
    type Output = Result<(), (usize, String)>;
    fn with<G: Game>(self, variant: G::Variant) -> Self::Output {
        let rules = rulebook_of::<G>(self.record, self.cx.options.rules);
        (self.board).follow::<G>(self.record, self.cx, &rules, variant, self.out)
    }
}

impl Board {
    pub fn new(id: GameId) -> Board {
        Board {
            id,
            moves: Vec::new(),
            avail: Vec::new(),
            ended: None,
            after_end: false,
            illegal: None,
            result: None,
            error: None,
            setup: None,
            plies: 0,
            last_move: None,
            claim_state: "waiting for moves".to_owned(),
            result_agrees: None,
            alert_at: None,
            cut: false,
            look: super::look::Look::default(),
            version: 0,
            warned: super::warn::Warned::default(),
        }
    }

    /// The record as followed, as PGN (the desk opens it from the live
    /// board).
    pub fn record(&self) -> String {
        crate::desk::record::pgn(&self.id, self.setup.as_deref(), &self.moves)
    }

    /// The board's state in a few words, for the live view.
    pub fn state(&self) -> String {
        if let Some(e) = &self.error {
            return format!("cannot read: {e}");
        }
        let mut parts = Vec::new();
        if let Some((_, _, label)) = &self.illegal {
            parts.push(format!("ILLEGAL MOVE {label}"));
        }
        if let Some(end) = &self.ended {
            parts.push(format!("ENDED {} {}", end.words, end.article));
            if self.after_end {
                parts.push("MOVES AFTER END".to_owned());
            }
        } else if self.illegal.is_none() && self.result.is_none() {
            parts.push(self.claim_state.clone());
        }
        if let Some(r) = &self.result {
            let against = self.result_agrees == Some(false);
            parts.push(format!(
                "{r}{}",
                if against {
                    " AGAINST THE LAWS"
                } else {
                    " entered"
                }
            ));
        }
        parts.join(" · ")
    }

    /// Follows the board's record as now read; returns the new events.
    pub fn update(&mut self, record: &GameRecord<'_>, cx: &Context<'_>) -> Vec<Event> {
        let out = self.follow_record(record, cx);
        if out.iter().any(Event::is_alert) {
            self.alert_at = Some(std::time::Instant::now());
        }
        out
    }

    fn follow_record(&mut self, record: &GameRecord<'_>, cx: &Context<'_>) -> Vec<Event> {
        let mut out = Vec::new();
        let texts: Vec<&str> = record.moves.iter().map(|m| m.text).collect();
        let mut same = self
            .moves
            .iter()
            .zip(&texts)
            .take_while(|(a, b)| a == *b)
            .count();
        // The tags the start position and the rules come from.
        let setup = ["FEN", "SetUp", "Variant", "GameType", "Date"]
            .map(|t| record.tag(t).unwrap_or(""))
            .join("\u{0}");
        let restart = self.setup.as_ref().is_some_and(|s| *s != setup) && !self.avail.is_empty();
        if restart {
            same = 0;
        }
        self.setup = Some(setup);
        if same < self.moves.len() || restart {
            if same == texts.len() && record.result.is_none() && !restart {
                // Fewer moves and no termination marker: a file still being
                // written. A take-back shows when the next move is written.
                return out;
            }
            out.push(self.changed(cx.file, same, &texts, restart));
        }
        let work = Follow {
            board: self,
            record,
            cx,
            out: &mut out,
        };
        let opts = cx.options;
        let engine = crate::game::dispatch_record(record, opts.game_type, opts.column_rules, work)
            .and_then(|r| r);
        if let Err((offset, message)) = engine {
            if self.error.as_deref() != Some(message.as_str()) {
                let mut e = Event::new(
                    cx.file,
                    &self.id,
                    0,
                    EventKind::RecordError,
                    message.clone(),
                );
                e.place = Some(place_of(cx.bytes, offset, Place { line: 1, col: 1 }));
                out.push(e);
            }
            self.error = Some(message);
            return out;
        }
        self.error = None;
        self.moves = texts.iter().map(|t| (*t).to_owned()).collect();
        out
    }

    /// The record now differs from ply `from` on: forget what was said
    /// about the plies after it and replay from there.
    fn changed(&mut self, file: &Arc<str>, from: usize, texts: &[&str], restart: bool) -> Event {
        let message = super::words::changed(from, &self.moves, texts, restart);
        self.warned.back_to(if restart { 0 } else { from });
        self.moves.truncate(from);
        self.avail.truncate(if restart { 0 } else { from + 1 });
        if restart {
            self.ended = None;
        }
        if self.ended.as_ref().is_some_and(|e| e.ply > from) {
            self.ended = None;
        }
        if self.ended.as_ref().is_none_or(|e| e.ply >= from) {
            self.after_end = false;
        }
        if self.illegal.as_ref().is_some_and(|(p, _, _)| *p > from) {
            self.illegal = None;
        }
        self.result = None;
        self.result_agrees = None;
        Event::new(file, &self.id, from, EventKind::RecordChanged, message)
    }

    fn follow<G: Game>(
        &mut self,
        record: &GameRecord<'_>,
        cx: &Context<'_>,
        rules: &Rulebook,
        variant: G::Variant,
        out: &mut Vec<Event>,
    ) -> Result<(), (usize, String)> {
        let start = G::start_without_notes(record, variant)?;
        let tokens = &record.moves[..record.moves.len().min(MAX_PLIES)];
        if tokens.len() < record.moves.len() && !self.cut {
            self.cut = true;
            out.push(Event::new(
                cx.file,
                &self.id,
                MAX_PLIES,
                EventKind::LimitReached,
                format!(
                    "the record has {} plies: only the first {MAX_PLIES} are followed",
                    record.moves.len()
                ),
            ));
        }
        let (replay, bad) = match Replay::<G>::new(start.clone(), tokens) {
            Ok(r) => (r, None),
            Err(e) => {
                let r = Replay::<G>::new(start, &tokens[..e.index])
                    .map_err(|e| (e.offset, e.message))?;
                (r, Some(e))
            }
        };
        let set = |r: Option<&str>| {
            r.map(str::trim).is_some_and(|r| {
                !r.is_empty() && GameResult::read(r) != Some(GameResult::Unfinished)
            })
        };
        let decided = set(record.tag("Result")) || set(record.result.map(|r| r.text));
        // What the warnings read, as the game's end now stands (the id
        // copied once an update, as `ply` below changes the board).
        let id = self.id.clone();
        let input = |ended: &Option<Ended>| super::warn::Input {
            file: cx.file,
            id: &id,
            bytes: cx.bytes,
            end: record.end,
            rules,
            low_time: cx.low_time,
            ended: ended.as_ref().map(|e| e.ply),
            decided,
        };
        // A clock written after the last move seen, before the moves after it.
        self.warned
            .late_clock::<G>(&replay, &input(&self.ended), out);
        for p in self.avail.len()..=replay.len() {
            self.ply::<G>(&replay, rules, cx, p, out);
            // The warnings of the plies up to this one, in ply order.
            self.warned.plies::<G>(&replay, &input(&self.ended), p, out);
        }
        self.warned
            .confirmed_by_result::<G>(&replay, &input(&self.ended), out);
        let look = super::look::of::<G>(&replay, rules, cx.bytes, record.end);
        if look != self.look || self.version == 0 {
            self.look = look;
            self.version += 1;
        }
        self.plies = replay.len();
        self.last_move = (!replay.is_empty()).then(|| replay.label(replay.len()));
        if let Some(e) = bad {
            let text = tokens[e.index].text;
            if self
                .illegal
                .as_ref()
                .is_none_or(|(p, t, _)| *p != e.index + 1 || t != text)
            {
                let mut ev = Event::new(
                    cx.file,
                    &self.id,
                    e.index + 1,
                    EventKind::IllegalMove,
                    e.message,
                );
                ev.mv = Some(numbered::<G>(&replay.position(e.index), text));
                ev.side = Some(G::side_to_move(&replay.position(e.index)));
                ev.place = Some(place_of(cx.bytes, e.offset, Place { line: 1, col: 1 }));
                ev.article = rules.illegal_move_article();
                self.illegal = Some((
                    e.index + 1,
                    text.to_owned(),
                    ev.mv.clone().unwrap_or_default(),
                ));
                out.push(ev);
            }
        } else {
            self.illegal = None;
        }
        self.result_entered::<G>(record, cx, &replay, out);
        Ok(())
    }

    /// What holds at ply `p`, said once.
    fn ply<G: Game>(
        &mut self,
        replay: &Replay<G>,
        rules: &Rulebook,
        cx: &Context<'_>,
        p: usize,
        out: &mut Vec<Event>,
    ) {
        if self.ended.is_none() {
            self.evaluate::<G>(replay, rules, cx, p, out);
        } else {
            self.avail.push([0, 0]);
        }
        let Some(end) = &self.ended else { return };
        if p > end.ply && !self.after_end {
            self.after_end = true;
            let mut e = Event::new(
                cx.file,
                &self.id,
                end.ply + 1,
                EventKind::MovesAfterEnd,
                format!(
                    "a move was recorded after the game ended at ply {} by {} ({}): the arbiter must intervene",
                    end.ply, end.words, end.article
                ),
            );
            e.mv = Some(replay.label(end.ply + 1));
            e.side = Some(G::side_to_move(&replay.position(end.ply)));
            e.article = Some(end.article);
            e.reason = Some(end.reason);
            out.push(e);
        }
    }

    fn game_ended<G: Game>(
        &mut self,
        replay: &Replay<G>,
        cx: &Context<'_>,
        over: &claims::GameOver,
        out: &mut Vec<Event>,
    ) {
        let reason = reason_name(over.reason);
        let words = over.reason.name();
        let mut e = Event::new(
            cx.file,
            &self.id,
            over.ply,
            EventKind::GameEnded,
            format!(
                "the game ended at ply {} by {words} ({})",
                over.ply, over.article
            ),
        );
        if over.ply > 0 {
            e.mv = Some(replay.label(over.ply));
            e.side = Some(G::side_to_move(&replay.position(over.ply - 1)));
        }
        e.article = Some(over.article);
        e.reason = Some(reason);
        self.ended = Some(Ended {
            ply: over.ply,
            reason,
            words: short_reason(over.reason),
            article: over.article,
        });
        out.push(e);
    }

    /// A result set in the tag or the marker: once per result, with the
    /// scan's result checks.
    fn result_entered<G: Game>(
        &mut self,
        record: &GameRecord<'_>,
        cx: &Context<'_>,
        replay: &Replay<G>,
        out: &mut Vec<Event>,
    ) {
        fn set(r: Option<&str>) -> Option<&str> {
            r.map(str::trim)
                .filter(|r| !r.is_empty() && GameResult::read(r) != Some(GameResult::Unfinished))
        }
        let recorded = set(record.tag("Result")).or(set(record.result.map(|r| r.text)));
        if recorded == self.result.as_deref() {
            return;
        }
        self.result = recorded.map(str::to_owned);
        self.result_agrees = None;
        let Some(result) = recorded else { return };
        let mismatches: Vec<String> = scan_record(record, cx.options)
            .into_iter()
            // Only a result against the Laws: a tag against its marker
            // (`result-tag-mismatch`, also a tag or marker still `*` in a
            // file being written) is not one.
            .filter(|f| f.kind == Kind::ResultMismatch)
            .map(|f| f.message)
            .collect();
        let agrees = mismatches.is_empty();
        let message = if agrees {
            format!("result {result} entered; the Laws do not contradict it")
        } else {
            format!(
                "result {result} entered, against the Laws: {}",
                mismatches.join("; ")
            )
        };
        let mut e = Event::new(
            cx.file,
            &self.id,
            replay.len(),
            EventKind::ResultEntered,
            message,
        );
        e.result = Some(result.to_owned());
        e.agrees = Some(agrees);
        e.article = self.ended.as_ref().map(|x| x.article);
        e.reason = self.ended.as_ref().map(|x| x.reason);
        self.result_agrees = Some(agrees);
        out.push(e);
    }
}
