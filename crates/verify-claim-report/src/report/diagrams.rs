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

/// Occurrences listed under one diagram, at most; the rest are counted
/// (the JSON report lists every one). With at most [`NEAR_MISSES_DRAWN`]
/// near misses and one board for each distinct position, a claim page
/// stays under about 200 KB however long the game.
pub const OCCURRENCES_LISTED: usize = 40;

/// Occurrences drawn one by one, at most; more are drawn once per
/// distinct position ([`Diagrams::by_board`]).
pub const OCCURRENCES_DRAWN: usize = 12;

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

    /// The diagrams to draw for the occurrences `plies`, each with the
    /// plies it stands for: one each while there are at most
    /// [`OCCURRENCES_DRAWN`] (the move that led to each is marked); beyond,
    /// each distinct position once, in the order of its first ply. Plies
    /// with no board are left out.
    pub fn by_board(&self, plies: &[usize]) -> Vec<Vec<usize>> {
        if plies.len() <= OCCURRENCES_DRAWN {
            return plies
                .iter()
                .filter(|q| self.at.contains_key(q))
                .map(|&q| vec![q])
                .collect();
        }
        let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
        for &q in plies {
            let Some(&i) = self.at.get(&q) else {
                continue;
            };
            match groups.iter_mut().find(|(j, _)| *j == i) {
                Some((_, g)) => g.push(q),
                None => groups.push((i, vec![q])),
            }
        }
        groups.into_iter().map(|(_, g)| g).collect()
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
        let counted = v.grounds().iter().any(|g| g.rule.is_count())
            || v.reasons()
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

/// The caption lines of one diagram drawn for several occurrences: a line
/// each for the first [`OCCURRENCES_LISTED`], then how many more.
pub fn occurrence_lines(group: &[usize], label: impl Fn(usize) -> String) -> Vec<String> {
    let mut lines: Vec<String> = group
        .iter()
        .take(OCCURRENCES_LISTED)
        .map(|&q| label(q))
        .collect();
    if group.len() > OCCURRENCES_LISTED {
        lines.push(format!(
            "… and {} more occurrences of this position (not listed here; --format json lists every one)",
            group.len() - OCCURRENCES_LISTED
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrences_are_grouped_by_board_and_listed_up_to_a_cap() {
        let mut d = Diagrams::default();
        let a = Board {
            files: 8,
            ranks: 8,
            squares: vec![Vec::new(); 64],
            to_move: crate::game::Side::White,
            rights: Vec::new(),
            dark_only: false,
        };
        let b = Board {
            to_move: crate::game::Side::Black,
            ..a.clone()
        };
        for q in [2, 6, 10] {
            d.insert(q, &a);
        }
        d.insert(7, &b);
        assert_eq!(
            d.by_board(&[2, 6, 7, 10, 99]),
            vec![vec![2], vec![6], vec![7], vec![10]]
        );
        let mut many = vec![7];
        for q in 0..OCCURRENCES_DRAWN {
            let q = 100 + 2 * q;
            d.insert(q, &a);
            many.push(q);
        }
        let groups = d.by_board(&many);
        assert_eq!(groups.len(), 2);
        assert_eq!(
            (groups[0].clone(), groups[1].len()),
            (vec![7], OCCURRENCES_DRAWN)
        );
        let many: Vec<usize> = (0..1000).collect();
        let lines = occurrence_lines(&many, |q| format!("ply {q}"));
        assert_eq!(lines.len(), OCCURRENCES_LISTED + 1);
        assert!(lines[OCCURRENCES_LISTED].starts_with("… and 960 more"));
    }
}
