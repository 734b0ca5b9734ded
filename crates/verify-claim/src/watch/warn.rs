//! The arbiter's early warnings, said once per occurrence: a position that
//! stands the second time (a third occurrence could be claimed, 9.2), the
//! count ten plies short of a claim (90 plies without a pawn move or
//! capture in chess, 9.3), and from the `[%clk]` comments: a clock under
//! `--low-time`, and a flag fall with whether the opponent can still mate
//! (6.9; the engine's `can_mate` decides it; in column draughts a flag fall
//! loses, 1.12, unless neither side can win, 1.11).

use std::sync::Arc;

use super::schema::{Event, EventKind, GameId};
use crate::claims::Replay;
use crate::game::{Game, Search, Side, Win};
use crate::laws::Rulebook;
use crate::record::clock::{command, seconds};

/// What was said, per board.
#[derive(Debug, Default)]
pub(crate) struct Warned {
    /// Plies looked at so far.
    done: usize,
    /// Per side: low time said, flag fall said (at which ply).
    low: [Option<usize>; 2],
    flag: [Option<usize>; 2],
    /// Per side: a reading at zero not confirmed yet.
    zero: [Option<Zero>; 2],
    /// The last ply looked at, when its move had no `[%clk]` yet: a
    /// writer may add the comment after the move, in a later write.
    unclocked: Option<usize>,
}

/// A clock read at zero: the ply, the reading, the move it followed.
#[derive(Debug, Clone)]
struct Zero {
    ply: usize,
    clock: String,
    label: String,
}

/// What the warnings need besides the replay.
pub(crate) struct Input<'a> {
    pub file: &'a Arc<str>,
    pub id: &'a GameId,
    pub bytes: &'a [u8],
    /// Where the record ends in `bytes`.
    pub end: usize,
    pub rules: &'a Rulebook,
    pub low_time: Option<f64>,
    /// The ply at which the Laws ended the game: nothing is warned after.
    pub ended: Option<usize>,
    /// A result is entered (tag or marker, not `*`).
    pub decided: bool,
}

fn slot(side: Side) -> usize {
    usize::from(side == Side::Black)
}

impl Warned {
    /// The record was changed from ply `from` on.
    pub(crate) fn back_to(&mut self, from: usize) {
        self.done = self.done.min(from + 1);
        if self.unclocked.is_some_and(|p| p > from) {
            self.unclocked = None;
        }
        for z in &mut self.zero {
            if z.as_ref().is_some_and(|z| z.ply > from) {
                *z = None;
            }
        }
        for s in [&mut self.low, &mut self.flag] {
            for v in s.iter_mut() {
                if v.is_some_and(|p| p > from) {
                    *v = None;
                }
            }
        }
    }

    /// The warnings of the plies up to `upto` not looked at yet.
    pub(crate) fn plies<G: Game>(
        &mut self,
        replay: &Replay<G>,
        i: &Input<'_>,
        upto: usize,
        out: &mut Vec<Event>,
    ) {
        let last = i.ended.map_or(upto, |e| e.min(upto)).min(replay.len());
        for p in self.done.max(1)..=last {
            let pos = replay.position(p);
            let ev = |kind, message: String| {
                let mut e = Event::new(i.file, i.id, p, kind, message);
                e.mv = Some(replay.label(p));
                e
            };
            let Some(&hash) = replay.hashes.get(p) else {
                break;
            };
            if replay.occurrences(&pos, hash, p).len() == 2 {
                let mut e = ev(
                    EventKind::RepetitionWarning,
                    format!(
                        "the position after {} stands the second time: a third occurrence can be claimed ({})",
                        replay.label(p),
                        i.rules.repetition.board
                    ),
                );
                e.reason = Some(i.rules.repetition_rule.name());
                e.article = Some(i.rules.repetition.board);
                e.side = Some(G::side_to_move(&pos));
                out.push(e);
            }
            let warn_at = i.rules.count_plies.saturating_sub(10);
            if warn_at > 0 && G::count_clock(&pos) == warn_at {
                out.push(ev(
                    EventKind::CountWarning,
                    format!(
                        "{warn_at} plies without {}: a claim can be made at {} ({})",
                        i.rules.count_without, i.rules.count_plies, i.rules.count.board
                    ),
                ));
            }
            self.clock::<G>(replay, i, p, out);
        }
        self.done = self.done.max(last + 1);
    }

    /// The clock of the last ply looked at, when it had none then and the
    /// record now has one after its move (a `[%clk]` written after the
    /// move, in a later write): said as if it had come with the move.
    pub(crate) fn late_clock<G: Game>(
        &mut self,
        replay: &Replay<G>,
        i: &Input<'_>,
        out: &mut Vec<Event>,
    ) {
        // Below `done` by construction (set by `clock`, on a ply looked
        // at); the replay may be shorter now (cut at an illegal move).
        if let Some(p) = self.unclocked
            && p <= replay.len()
        {
            self.clock::<G>(replay, i, p, out);
        }
    }

    /// A result entered while a reading at zero is its player's last move:
    /// the flag fall is confirmed.
    pub(crate) fn confirmed_by_result<G: Game>(
        &mut self,
        replay: &Replay<G>,
        i: &Input<'_>,
        out: &mut Vec<Event>,
    ) {
        if !i.decided || i.ended.is_some() {
            return;
        }
        for k in 0..2 {
            let Some(z) = self.zero[k].clone() else {
                continue;
            };
            if self.flag[k].is_some() || replay.len() > z.ply + 1 {
                continue;
            }
            let mover = G::side_to_move(&replay.position(z.ply - 1));
            let said = format!(
                "{}'s clock showed {} after {}, confirmed by the result entered with no later move by {}: the flag fell",
                mover.title(),
                z.clock,
                z.label,
                mover.title()
            );
            out.push(self.flag_event::<G>(replay, i, &z, mover, &said));
        }
    }

    /// The confirmed flag fall of reading `z` (the position when it fell).
    fn flag_event<G: Game>(
        &mut self,
        replay: &Replay<G>,
        i: &Input<'_>,
        z: &Zero,
        mover: Side,
        said: &str,
    ) -> Event {
        let k = slot(mover);
        self.flag[k] = Some(z.ply);
        self.zero[k] = None;
        let (article, message) = flag_fall::<G>(i.rules, &replay.position(z.ply), mover, said);
        let mut e = Event::new(i.file, i.id, z.ply, EventKind::FlagFall, message);
        e.side = Some(mover);
        e.mv = Some(z.label.clone());
        e.article = Some(article);
        e
    }

    /// The clock the mover of ply `p` wrote after the move.
    fn clock<G: Game>(
        &mut self,
        replay: &Replay<G>,
        i: &Input<'_>,
        p: usize,
        out: &mut Vec<Event>,
    ) {
        let (Some(&from), to) = (
            replay.offsets.get(p - 1),
            replay.offsets.get(p).copied().unwrap_or(i.end),
        ) else {
            return;
        };
        let text = String::from_utf8_lossy(i.bytes.get(from..to.max(from)).unwrap_or_default());
        let Some(clock) = command(&text, "%clk") else {
            self.unclocked = Some(p);
            return;
        };
        self.unclocked = None;
        let Some(left) = seconds(&clock) else { return };
        let before = replay.position(p - 1);
        let mover = G::side_to_move(&before);
        let k = slot(mover);
        let mut e = Event::new(i.file, i.id, p, EventKind::LowTime, String::new());
        e.side = Some(mover);
        e.mv = Some(replay.label(p));
        // A reading at zero is a flag fall only when confirmed: a board
        // may send one wrong reading (a DGT board read 0:00:00 once, then
        // 0:16:15). A later reading above zero forgets it.
        if left > 0.0 {
            self.zero[k] = None;
        }
        if left <= 0.0 && self.flag[k].is_none() {
            let label = replay.label(p);
            if let Some(z) = self.zero[k].clone() {
                let said = format!(
                    "{}'s clock showed {} after {} and still shows {clock} after {label}: the flag fell",
                    mover.title(),
                    z.clock,
                    z.label,
                );
                out.push(self.flag_event::<G>(replay, i, &z, mover, &said));
            } else {
                e.kind = EventKind::ClockZero;
                e.message = format!(
                    "{}'s clock read {clock} after {label}, not confirmed: a flag fall once a later reading of it still shows zero, or the result is entered with no later move by {}",
                    mover.title(),
                    mover.title()
                );
                self.zero[k] = Some(Zero {
                    ply: p,
                    clock,
                    label,
                });
                out.push(e);
            }
        } else if i.low_time.is_some_and(|t| left < t) && self.low[k].is_none() && left > 0.0 {
            self.low[k] = Some(p);
            e.message = format!(
                "{}'s clock shows {clock} after {}: under the {} s of --low-time",
                mover.title(),
                replay.label(p),
                i.low_time.unwrap_or_default()
            );
            out.push(e);
        }
    }
}

/// What a flag fall of `mover` in `pos` means, and the article saying so.
/// Chess (6.9): a loss, unless the opponent cannot checkmate by any series
/// of legal moves. Column draughts: a loss by the clock (1.12), unless
/// neither side can win any more (1.11); there the opponent's lack of a
/// win alone changes nothing. Once a side a game at most: the full search,
/// to say it outright.
fn flag_fall<G: Game>(
    rules: &Rulebook,
    pos: &G::Position,
    mover: Side,
    said: &str,
) -> (&'static str, String) {
    let other = mover.other();
    let can = G::can_mate(pos, other, Search::Full);
    let Some(article) = rules.unwinnable_loss_article(true) else {
        // The mover's own chances are searched only when the opponent's
        // win was not found: either side's keeps the loss.
        let mover_can = match can {
            Win::Yes { .. } => None,
            _ => Some(G::can_mate(pos, mover, Search::Full)),
        };
        return match (can, mover_can) {
            (Win::Yes { .. }, _) | (_, Some(Win::Yes { .. })) => (
                "1.12",
                format!("{said}: {} loses on time (1.12)", mover.title()),
            ),
            (Win::No, Some(Win::No)) => (
                "1.11",
                format!("{said}, but neither side can win any more: the game is drawn (1.11)"),
            ),
            _ => (
                "1.12",
                format!(
                    "{said}: {} loses on time (1.12), unless neither side can win any more (1.11: not decided)",
                    mover.title()
                ),
            ),
        };
    };
    let message = match can {
        Win::No => format!(
            "{said}, but {} cannot checkmate by any series of legal moves: the game is drawn ({article})",
            other.title()
        ),
        Win::Yes { .. } => format!(
            "{said} and {} can still checkmate: {} loses ({article})",
            other.title(),
            mover.title()
        ),
        Win::Undetermined => format!(
            "{said}; whether {} can still checkmate is not decided ({article})",
            other.title()
        ),
    };
    (article, message)
}
