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
/// Each distinct board is kept once: a position that stood 250,000 times
/// is one board (the occurrences of a repetition are one position).
#[derive(Clone, Debug, Default)]
pub struct Diagrams {
    /// The distinct boards.
    boards: Vec<Board>,
    /// Ply → index in `boards`.
    at: BTreeMap<usize, usize>,
    /// The squares the move producing each position touched.
    pub moved: BTreeMap<usize, Vec<usize>>,
}

impl Diagrams {
    /// The board at `ply`, if the report draws it.
    pub fn board(&self, ply: usize) -> Option<&Board> {
        self.at.get(&ply).map(|&i| &self.boards[i])
    }

    fn insert(&mut self, ply: usize, board: &Board) {
        let i = match self.boards.iter().position(|b| b == board) {
            Some(i) => i,
            None => {
                self.boards.push(board.clone());
                self.boards.len() - 1
            }
        };
        self.at.insert(ply, i);
    }

    pub fn collect<G: Game>(replay: &Replay<G>, v: &Verdict) -> Diagrams {
        let p = v.ply.min(replay.len());
        let mut plies: Vec<usize> = v.repetitions.clone();
        plies.extend(v.repetitions_written.iter().copied().filter(|&q| q <= p));
        plies.extend(v.near_misses.iter().take(NEAR_MISSES_DRAWN).map(|n| n.ply));
        plies.extend(v.game_over.as_ref().map(|o| o.ply));
        plies.push(p);
        let mut d = Diagrams::default();
        // Equal positions draw equal boards: each is built once.
        let mut built: Vec<(G::Position, Board)> = Vec::new();
        let mut board_at = |q: usize| {
            let pos = replay.position(q);
            match built.iter().position(|(b, _)| *b == pos) {
                Some(i) => i,
                None => {
                    built.push((pos.clone(), G::board(&pos)));
                    built.len() - 1
                }
            }
        };
        let mut drawn = Vec::new();
        for q in plies.into_iter().filter(|&q| q <= p) {
            if d.at.contains_key(&q) {
                continue;
            }
            let i = board_at(q);
            if q > 0 {
                drawn.push((q, i, Some(board_at(q - 1))));
            } else {
                drawn.push((q, i, None));
            }
            d.at.insert(q, usize::MAX);
        }
        for (q, i, before) in drawn {
            if let Some(j) = before {
                d.moved.insert(q, built[i].1.changed(&built[j].1));
            }
            d.insert(q, &built[i].1);
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
            d.insert(p + 1, &after);
        }
        d
    }
}
