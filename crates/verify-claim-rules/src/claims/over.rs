//! When the game was already over: by the position (checkmate,
//! stalemate, insufficient material; draughts: no move), by the automatic
//! draws (fivefold, 75 moves), or by a dead position, found first.

use serde::Serialize;

use super::Replay;
use crate::game::{Ending, Game, Search};
use crate::laws::Rulebook;

/// Why the game was already over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameOverReason {
    /// Chess: the side to move is checkmated.
    Checkmate,
    /// Chess: the side to move has no legal move.
    Stalemate,
    /// Chess: neither side has the material to checkmate.
    InsufficientMaterial,
    /// No sequence of legal moves can lead to checkmate, beyond what
    /// material alone shows (a pawn wall, a locked position).
    DeadPosition,
    /// The same position stood five times.
    FivefoldRepetition,
    /// 75 moves by each side with no capture or pawn move.
    SeventyFiveMove,
    /// Draughts: the player to move cannot move and has lost (1.12).
    NoMoves,
}

impl GameOverReason {
    /// In words, as the reports say it.
    pub fn name(self) -> &'static str {
        match self {
            GameOverReason::Checkmate => "checkmate",
            GameOverReason::Stalemate => "stalemate",
            GameOverReason::InsufficientMaterial => {
                "insufficient material (no sequence of legal moves can lead to checkmate)"
            }
            GameOverReason::DeadPosition => {
                "a dead position (no sequence of legal moves can lead to checkmate)"
            }
            GameOverReason::FivefoldRepetition => "fivefold repetition",
            GameOverReason::SeventyFiveMove => "the 75-move rule",
            GameOverReason::NoMoves => "the player to move being unable to move (a loss)",
        }
    }
}

/// The first point where the game ended by itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameOver {
    /// How it ended.
    pub reason: GameOverReason,
    /// The ply after which it ended.
    pub ply: usize,
    /// The article of the rulebook that ends it.
    pub article: &'static str,
}

/// The first ply ≤ `upto` at which the game was over by the position alone.
///
/// Checkmate takes precedence over the 75-move rule at the same ply.
pub fn first_game_over<G: Game>(
    replay: &Replay<G>,
    rules: &Rulebook,
    upto: usize,
) -> Option<GameOver> {
    replay
        .positions()
        .take(upto.min(replay.len()) + 1)
        .enumerate()
        .find_map(|(p, pos)| game_over_at(replay, rules, p, &pos))
}

pub(super) fn game_over_at<G: Game>(
    replay: &Replay<G>,
    rules: &Rulebook,
    p: usize,
    pos: &G::Position,
) -> Option<GameOver> {
    let ending = G::ending(pos);
    if let Some(e) = ending {
        let reason = match e {
            Ending::Checkmate => GameOverReason::Checkmate,
            Ending::Stalemate => GameOverReason::Stalemate,
            Ending::InsufficientMaterial => GameOverReason::InsufficientMaterial,
            Ending::NoMoves => GameOverReason::NoMoves,
        };
        return Some(GameOver {
            reason,
            ply: p,
            article: rules.ending_article(e),
        });
    }
    let auto = rules.automatic.as_ref()?;
    let reps = if auto.consecutive {
        // fide-2014: the position stood at every second move of each
        // player, five times in a row (every four plies).
        let mut n = 1;
        let mut q = p;
        while n < auto.repetitions && q >= 4 && q - 4 >= replay.since(p) {
            q -= 4;
            if replay.hashes[q] == replay.hashes[p] && replay.position(q) == *pos {
                n += 1;
            } else {
                break;
            }
        }
        n
    } else {
        (replay.since(p)..=p)
            .filter(|&q| replay.hashes[q] == replay.hashes[p] && replay.position(q) == *pos)
            .count() as u32
    };
    if reps >= auto.repetitions {
        return Some(GameOver {
            reason: GameOverReason::FivefoldRepetition,
            ply: p,
            article: auto.repetition_article,
        });
    }
    if G::count_clock(pos) >= auto.count_plies {
        return Some(GameOver {
            reason: GameOverReason::SeventyFiveMove,
            ply: p,
            article: auto.count_article,
        });
    }
    None
}

/// The first ply ≤ `upto` whose position is proved dead, given that the
/// position at `upto` is: a dead position stays dead, so a binary search.
pub fn first_dead_ply<G: Game>(replay: &Replay<G>, upto: usize, search: Search) -> usize {
    let (mut lo, mut hi) = (0, upto);
    while lo < hi {
        let mid = (lo + hi) / 2;
        // Before `upto`: a move was played from it.
        if G::is_dead_playable(&replay.position(mid), search) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}
