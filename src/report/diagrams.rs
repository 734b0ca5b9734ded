//! The positions a claim report draws, taken from the replay through the
//! [`Game`] trait: every occurrence, the near misses, the position after
//! the written move, and where the game ended. Printers get boards, never
//! positions, so one printer serves every game.

use std::collections::BTreeMap;

use crate::claims::{Replay, Verdict};
use crate::game::board::Board;
use crate::game::{Game, Side};

/// Near misses drawn (the text report lists as many; the rest are counted).
pub const NEAR_MISSES_DRAWN: usize = 12;

/// Plies of the record shown around the claim point, at most.
pub const RECORD_PLIES: usize = 120;
/// A record up to this claim point is shown whole.
pub const RECORD_WHOLE: usize = 40;
/// Plies shown after the claim point (what was played after the claim).
pub const RECORD_AFTER: usize = 6;

/// One move of the record as the claim report prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The ply this move produces (1 for the first move).
    pub ply: usize,
    /// The move number and the side that made the move.
    pub number: u32,
    pub side: Side,
    /// The move in the game's notation ("Nf3").
    pub notation: String,
}

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
    /// The record around the claim point: from a little before the first
    /// occurrence (or the last resetting move) to a few moves after the
    /// claim, at most [`RECORD_PLIES`] plies before it.
    pub record: Vec<RecordMove>,
    /// The record has moves before the first one shown.
    pub record_cut: bool,
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
        d.record_window(replay, v);
        d
    }

    /// The moves around the claim point, in the game's notation.
    fn record_window<G: Game>(&mut self, replay: &Replay<G>, v: &Verdict) {
        let p = v.ply.min(replay.len());
        // The count's start matters to a count claim only.
        let counted = v.grounds.iter().any(|g| g.rule != "threefold-repetition")
            || v.reasons
                .iter()
                .any(|r| matches!(r, crate::claims::Reason::CountShort { .. }));
        let first = v
            .repetitions
            .iter()
            .copied()
            .chain(counted.then_some(v.count.since_ply))
            .filter(|&q| q <= p)
            .min()
            .unwrap_or(p);
        // Two plies of context before the first position the claim names,
        // at least the last few moves, and no more than RECORD_PLIES.
        // A short record is shown whole.
        let lo = if p <= RECORD_WHOLE {
            0
        } else {
            first
                .saturating_sub(2)
                .min(p.saturating_sub(8))
                .max(p.saturating_sub(RECORD_PLIES))
        };
        let hi = (p + RECORD_AFTER).min(replay.len());
        let mut pos = replay.position(lo);
        for (i, m) in replay.moves.iter().enumerate().take(hi).skip(lo) {
            self.record.push(RecordMove {
                ply: i + 1,
                number: G::move_number(&pos),
                side: G::side_to_move(&pos),
                notation: G::notation(&pos, m),
            });
            G::play(&mut pos, m, 0);
        }
        self.record_cut = lo > 0;
    }
}
