//! The positions a claim report draws, taken from the replay through the
//! [`Game`] trait: every occurrence, the near misses, the position after
//! the written move, and where the game ended. Printers get boards, never
//! positions, so one printer serves every game.

use std::collections::BTreeMap;

use crate::claims::{Replay, Verdict};
use crate::game::Game;
use crate::game::board::Board;

/// Near misses drawn (the text report lists as many; the rest are counted).
pub const NEAR_MISSES_DRAWN: usize = 12;

/// Boards by ply; the written move's position is at `verdict.ply + 1`.
#[derive(Clone, Debug, Default)]
pub struct Diagrams {
    pub boards: BTreeMap<usize, Board>,
    /// The squares the move producing each position touched.
    pub moved: BTreeMap<usize, Vec<usize>>,
}

impl Diagrams {
    pub fn collect<G: Game>(replay: &Replay<G>, v: &Verdict) -> Diagrams {
        let p = v.ply.min(replay.len());
        let mut plies: Vec<usize> = v.repetitions.clone();
        plies.extend(v.repetitions_written.iter().copied().filter(|&q| q <= p));
        plies.extend(v.near_misses.iter().take(NEAR_MISSES_DRAWN).map(|n| n.ply));
        plies.extend(v.game_over.as_ref().map(|o| o.ply));
        plies.push(p);
        let mut d = Diagrams::default();
        for q in plies.into_iter().filter(|&q| q <= p) {
            if d.boards.contains_key(&q) {
                continue;
            }
            let board = G::board(&replay.position(q));
            if q > 0 {
                d.moved
                    .insert(q, board.changed(&G::board(&replay.position(q - 1))));
            }
            d.boards.insert(q, board);
        }
        // The written move, played on a copy (after the game ended it may
        // not be legal: then there is nothing to draw).
        let pos = &replay.position(p);
        if let Some(text) = &v.written_move
            && let Ok(m) = G::parse_written(pos, text)
        {
            let mut next = pos.clone();
            G::play(&mut next, &m, 0);
            let before = G::board(pos);
            let after = G::board(&next);
            d.moved.insert(p + 1, after.changed(&before));
            d.boards.insert(p + 1, after);
        }
        d
    }
}
