//! What the live page shows of a board: the diagram, the last moves, the
//! clocks written in `[%clk]` comments, the count toward the move rules and
//! the positions that have stood twice. Computed when the board's record
//! changes, from the same replay the events come from.

// The page's fields are /state's, documented in docs/watch.md; public for
// the binary's views (`watching`).
#![allow(missing_docs)]

use serde::Serialize;

use crate::claims::Replay;
use crate::game::{Game, Side};
use crate::laws::Rulebook;
use crate::record::clock::command;
use crate::report::svg;

/// The last moves shown.
const LAST_MOVES: usize = 8;

/// A board as the page draws it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Look {
    /// The diagram of the position now (inline SVG, using the page's
    /// piece symbols).
    pub svg: String,
    /// "e4", "24...Kg8": the last moves, oldest first.
    pub last_moves: Vec<String>,
    pub to_move: Option<Side>,
    /// Plies since the count toward the move rule was last reset (chess:
    /// a pawn move or a capture; column draughts: a change of material).
    pub count: u32,
    /// That count toward the game's rules, in words: `8 plies without a
    /// pawn move or a capture: a claim at 100 (9.3.2), the game drawn at
    /// 150 (9.6.2)` (the rulebook's; the page adds nothing of its own).
    pub count_text: String,
    /// Each position that has stood twice since the last irreversible
    /// move: the move after which it stood, and its plies.
    pub twice: Vec<Twice>,
    /// The clocks last written for each side (`[%clk h:mm:ss]`) and the
    /// time the last move took (`[%emt]`), as written.
    pub clock_white: Option<String>,
    pub clock_black: Option<String>,
    pub emt: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Twice {
    /// The move after which the position stood the second time.
    pub after: String,
    pub plies: Vec<usize>,
}

/// The page's view of a replayed record under `rules`. `bytes` is the
/// file the record was read from (the comments after each move are read there) and `end`
/// where the record ends in it.
pub(crate) fn of<G: Game>(replay: &Replay<G>, rules: &Rulebook, bytes: &[u8], end: usize) -> Look {
    let n = replay.len();
    let pos = replay.position(n);
    let title = format!("the position after {}", replay.label(n));
    let count = G::count_clock(&pos);
    let mut look = Look {
        svg: svg::board(&G::board(&pos), &svg::Marks::default(), &title, true),
        last_moves: (n.saturating_sub(LAST_MOVES) + 1..=n)
            .map(|p| replay.label(p))
            .collect(),
        to_move: Some(G::side_to_move(&pos)),
        count,
        count_text: rules.count_toward(count),
        twice: twice(replay),
        ..Look::default()
    };
    clocks(replay, bytes, end, &mut look);
    look
}

/// The positions standing exactly twice since ply `since(n)`.
fn twice<G: Game>(replay: &Replay<G>) -> Vec<Twice> {
    let n = replay.len();
    let from = replay.since(n);
    let mut out: Vec<Twice> = Vec::new();
    for p in from..=n {
        let Some(&h) = replay.hashes.get(p) else {
            break;
        };
        let plies: Vec<usize> = (from..=n)
            .filter(|&q| replay.hashes.get(q) == Some(&h))
            .collect();
        if plies.len() == 2
            && plies.first() == Some(&p)
            && let Some(&second) = plies.get(1)
        {
            out.push(Twice {
                after: replay.label(second),
                plies,
            });
        }
    }
    out
}

/// The last `[%clk]` of each side and the last `[%emt]`, read from the
/// comments after the last few moves.
fn clocks<G: Game>(replay: &Replay<G>, bytes: &[u8], end: usize, look: &mut Look) {
    let n = replay.len();
    for p in (n.saturating_sub(4)..n).rev() {
        let Some(&from) = replay.offsets.get(p) else {
            continue;
        };
        let to = replay.offsets.get(p + 1).copied().unwrap_or(end);
        let text = bytes.get(from..to.max(from)).unwrap_or_default();
        let text = String::from_utf8_lossy(text);
        let mover = G::side_to_move(&replay.position(p));
        let slot = match mover {
            Side::White => &mut look.clock_white,
            Side::Black => &mut look.clock_black,
        };
        if slot.is_none() {
            *slot = command(&text, "%clk");
        }
        if p + 1 == n {
            look.emt = command(&text, "%emt");
        }
    }
}
