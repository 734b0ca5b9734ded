//! Can a side still win at column draughts? 1.11: "if a win is impossible
//! for both sides, the game is drawn". A side wins when the opponent, to
//! move, cannot move (1.12: no tower on top, or every tower blocked).
//!
//! The question is cooperative, as for chess's dead positions: is there any
//! sequence of legal moves (both sides playing for the same result) that
//! leaves the opponent without a move? Answered by a best-first search over
//! the positions reachable from here, with an exact set of the positions
//! seen and a node bound. It returns a line that wins (checked as found), a
//! proof that none exists (every reachable position seen, none a win), or
//! undetermined when the bound is reached. Never a guess: positions are
//! keyed exactly (no hash stands for a position), so an exhausted search is
//! a proof.
//!
//! Cheap cases first: a position that has ended; a side with no tower on
//! top while the opponent is to move (it can never get one back: only its
//! own captures uncover its pieces), which has lost on the next move.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use super::{Position, Rules, Tower, legal_moves, play};
use crate::{Search, Side, Win};

/// Positions a full search may visit (about 32 bytes each, twice: under
/// 20 MB at the bound).
const FULL_NODES: usize = 250_000;
/// The quick search: the same search, bounded low enough for every game
/// of a scan. It proves small locked or forced positions, and often finds a
/// winning line.
const QUICK_NODES: usize = 600;

/// A position exactly, in 105 bits: the occupied squares (32), the side to
/// move (1), then for the pieces in square order, top first, a
/// last-of-its-tower flag (24) and colour and rank (2 × 24). A game has at
/// most 24 pieces; a position with more is not keyed.
fn key(pos: &Position) -> Option<u128> {
    let mut k: u128 = 0;
    let mut n = 0usize;
    for (s, t) in pos.towers.iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        k |= 1 << s;
        for i in 0..t.len() {
            if n >= 24 {
                return None;
            }
            if i + 1 == t.len() {
                k |= 1 << (33 + n);
            }
            k |= u128::from(t.white >> i & 1) << (57 + 2 * n);
            k |= u128::from(t.kings >> i & 1) << (58 + 2 * n);
            n += 1;
        }
    }
    if pos.turn == Side::White {
        k |= 1 << 32;
    }
    Some(k)
}

/// The position of a key (the move count and clock are not part of it: no
/// rule of play depends on them).
fn decode(k: u128, rules: Rules) -> Position {
    let mut towers = [Tower::EMPTY; 32];
    let mut n = 0usize;
    for (s, tower) in towers.iter_mut().enumerate() {
        if k >> s & 1 == 0 {
            continue;
        }
        let mut t = Tower::EMPTY;
        while n < 24 {
            let i = t.len;
            t.white |= ((k >> (57 + 2 * n) & 1) as u32) << i;
            t.kings |= ((k >> (58 + 2 * n) & 1) as u32) << i;
            t.len += 1;
            let last = k >> (33 + n) & 1 == 1;
            n += 1;
            if last {
                break;
            }
        }
        *tower = t;
    }
    Position {
        towers,
        turn: if k >> 32 & 1 == 1 {
            Side::White
        } else {
            Side::Black
        },
        clock: 0,
        fullmove: 1,
        rules,
    }
}

fn towers_of(pos: &Position, side: Side) -> usize {
    pos.towers
        .iter()
        .filter(|t| t.owner() == Some(side))
        .count()
}

/// How far `pos` looks from a win for `side` (lower is closer): the
/// opponent's towers first, then how far each is from the nearest of
/// `side`'s (a tower is taken from next to it). Only orders the search.
fn distance(pos: &Position, side: Side) -> u32 {
    let mine: Vec<(i8, i8)> = (0..32u8)
        .filter(|&s| pos.towers[s as usize].owner() == Some(side))
        .map(|s| (super::file_of(s), super::rank_of(s)))
        .collect();
    let mut towers = 0;
    let mut far = 0;
    for s in 0..32u8 {
        if pos.towers[s as usize].owner() != Some(side.other()) {
            continue;
        }
        towers += 1;
        let (f, r) = (super::file_of(s), super::rank_of(s));
        far += mine
            .iter()
            .map(|&(mf, mr)| (mf - f).abs().max((mr - r).abs()) as u32)
            .min()
            .unwrap_or(0);
    }
    towers * 64 + far
}

/// Whether `side` can still win from `pos`: a line of moves (in the
/// notation) after which the opponent, to move, cannot move; `No` when no
/// sequence of legal moves leads there; `Undetermined` at the node bound.
pub fn can_win(pos: &Position, side: Side, search: Search) -> Win {
    if legal_moves(pos).is_empty() {
        // Over: the side to move has lost.
        return if pos.turn != side {
            Win::Yes {
                helpmate: Vec::new(),
            }
        } else {
            Win::No
        };
    }
    if towers_of(pos, side) == 0 {
        // The opponent moves (its captures take only `side`'s towers, of
        // which there are none), and `side` has no tower to move.
        return Win::No;
    }
    let limit = match search {
        Search::Quick => QUICK_NODES,
        Search::Full => FULL_NODES,
    };
    match key(pos) {
        Some(root) => Searcher::new(root, pos.rules, side).run(limit),
        None => Win::Undetermined,
    }
}

/// The search's state: every position seen (exactly), the node it was
/// first reached from, and the frontier ordered by `distance`.
struct Searcher {
    rules: Rules,
    side: Side,
    nodes: Vec<(u128, u32)>,
    seen: HashMap<u128, u32>,
    frontier: BinaryHeap<(Reverse<u32>, u32)>,
}

impl Searcher {
    fn new(root: u128, rules: Rules, side: Side) -> Searcher {
        let mut s = Searcher {
            rules,
            side,
            nodes: vec![(root, 0)],
            seen: HashMap::new(),
            frontier: BinaryHeap::new(),
        };
        s.seen.insert(root, 0);
        s.frontier.push((Reverse(0), 0));
        s
    }

    fn run(mut self, limit: usize) -> Win {
        while let Some((_, idx)) = self.frontier.pop() {
            let pos = decode(self.nodes[idx as usize].0, self.rules);
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                if pos.turn != self.side {
                    return Win::Yes {
                        helpmate: self.line(idx),
                    };
                }
                continue; // `side` has lost on this line
            }
            for m in &moves {
                let mut next = pos.clone();
                play(&mut next, m);
                let Some(k) = key(&next) else {
                    return Win::Undetermined;
                };
                if self.seen.contains_key(&k) {
                    continue;
                }
                if self.nodes.len() >= limit {
                    return Win::Undetermined;
                }
                let child = self.nodes.len() as u32;
                self.nodes.push((k, idx));
                self.seen.insert(k, child);
                if towers_of(&next, self.side) == 0 {
                    continue; // `side` has lost: nothing follows
                }
                self.frontier
                    .push((Reverse(distance(&next, self.side)), child));
            }
        }
        // Every position reachable from the start has been seen: none is a
        // win for `side`.
        Win::No
    }

    /// The moves from the root to node `idx`, in the notation.
    fn line(&self, mut idx: u32) -> Vec<String> {
        let mut chain = vec![idx];
        while idx != 0 {
            idx = self.nodes[idx as usize].1;
            chain.push(idx);
        }
        chain.reverse();
        let mut out = Vec::with_capacity(chain.len());
        for w in chain.windows(2) {
            let from = decode(self.nodes[w[0] as usize].0, self.rules);
            let to = self.nodes[w[1] as usize].0;
            let found = legal_moves(&from).into_iter().find(|m| {
                let mut p = from.clone();
                play(&mut p, m);
                key(&p) == Some(to)
            });
            if let Some(m) = found {
                out.push(m.to_string());
            }
        }
        out
    }
}

/// Proved drawn under 1.11: neither side can win. The position is known
/// to have a legal move. Stops at the first side not proved unable to win.
pub fn is_dead_playable(pos: &Position, search: Search) -> bool {
    can_win(pos, Side::White, search) == Win::No && can_win(pos, Side::Black, search) == Win::No
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{fen, legal_moves, parse_move};

    fn pos(text: &str) -> Position {
        fen::parse(text, Rules::Standard).unwrap()
    }

    /// Replays a winning line and checks that it ends with the loser to
    /// move and unable to move.
    fn assert_wins(text: &str, side: Side, search: Search) -> Vec<String> {
        let mut p = pos(text);
        let Win::Yes { helpmate } = can_win(&p, side, search) else {
            panic!("{text}: {side} should be able to win");
        };
        for m in &helpmate {
            let mv = parse_move(&p, m).unwrap();
            play(&mut p, &mv);
        }
        assert!(legal_moves(&p).is_empty(), "{helpmate:?}");
        assert_eq!(p.turn, side.other(), "{helpmate:?}");
        helpmate
    }

    #[test]
    fn keys_are_exact() {
        let texts = [
            "W:a1=w,c3=wb,d6=B,f8=bbw:0:12",
            "B:h8=WWbbb,a1=Bbbbbbbwwwww",
            "W:a1=w,c1=w,e1=w,g1=w,b2=w,d2=w,f2=w,h2=w,a3=w,c3=w,e3=w,g3=w,b6=b,d6=b,f6=b,h6=b,a7=b,c7=b,e7=b,g7=b,b8=b,d8=b,f8=b,h8=b",
        ];
        for t in texts {
            let p = pos(t);
            let back = decode(key(&p).unwrap(), Rules::Standard);
            assert_eq!(back, p, "{t}");
        }
        // The side to move is part of the key.
        assert_ne!(key(&pos("W:c3=w,f6=b")), key(&pos("B:c3=w,f6=b")));
    }

    #[test]
    fn a_side_with_no_tower_cannot_win() {
        // Every white piece is a prisoner under a black top and Black is to
        // move: only White's own captures could uncover a white piece, and
        // White has no tower to capture with. After any black move White
        // cannot move and has lost (1.12).
        let t = "B:c3=bw,e5=b";
        assert_eq!(can_win(&pos(t), Side::White, Search::Quick), Win::No);
        assert_eq!(can_win(&pos(t), Side::White, Search::Full), Win::No);
        assert_eq!(assert_wins(t, Side::Black, Search::Full).len(), 1);
    }

    #[test]
    fn a_forced_loss_is_proved() {
        // White's only move is the capture c3:e5 (the man cannot go on: f6
        // is backed by g7, and d4 was just jumped). Black must then take
        // back f6:d4, which takes the white man off the top of e5: White
        // has no tower left and has lost. Every line is forced, so the
        // search sees all of them: White cannot win.
        let t = "W:c3=w,d4=b,f6=b,g7=b";
        assert_eq!(can_win(&pos(t), Side::White, Search::Full), Win::No);
        assert_eq!(can_win(&pos(t), Side::White, Search::Quick), Win::No);
        assert_eq!(
            assert_wins(t, Side::Black, Search::Full),
            ["c3:e5", "f6:d4"]
        );
    }

    #[test]
    fn over_positions() {
        // Black to move with no tower: Black has lost, White has won.
        let t = "B:c3=wb";
        assert_eq!(
            can_win(&pos(t), Side::White, Search::Quick),
            Win::Yes {
                helpmate: Vec::new()
            }
        );
        assert_eq!(can_win(&pos(t), Side::Black, Search::Full), Win::No);
    }

    #[test]
    fn a_win_through_a_long_forced_capture_line() {
        // White's king on a1 must capture (compulsory) and, having begun,
        // must go on while it can, landing where the capture continues:
        // a1:d4:f6:d8:a5 takes all four black men in one move, and every
        // capture White has takes them all. So White wins, and Black, left
        // with prisoners only whatever White chooses, cannot.
        let t = "W:a1=W,c3=b,e5=b,e7=b,c7=b";
        let line = assert_wins(t, Side::White, Search::Full);
        assert_eq!(line.len(), 1);
        assert_eq!(line[0].matches(':').count(), 4, "{line:?}");
        assert_eq!(can_win(&pos(t), Side::Black, Search::Full), Win::No);
        // Black wins only through a line of forced captures: White must take
        // two (c3:e5:g7), and Black's man later takes White's king off the
        // top of the tower, leaving White only prisoners.
        let t = "W:c3=w,d4=b,d6=b,f6=b";
        assert!(assert_wins(t, Side::Black, Search::Full).len() >= 4);
    }

    #[test]
    fn the_perft_positions() {
        // The start position: both sides can still win.
        let start = fen::write(&Position::start(Rules::Standard));
        // The hand-counted perft positions, with who can win and why the
        // other cannot.
        let cases: &[(&str, bool, bool)] = &[
            (&start, true, true),
            // Both: see the test above.
            ("W:c3=w,d4=b,d6=b,f6=b", true, true),
            // c3:e5 is forced and takes Black's only top: Black has lost.
            ("W:c3=w,d4=bw", true, false),
            // b6:d8 crowns and must go on over e7 as a king: every black
            // man is taken in White's forced first move.
            ("W:b6=w,c7=b,e7=b", true, false),
            // a1:f6:d8 is the only move and takes both black men.
            ("W:a1=W,c3=b,e7=b", true, false),
            // The king takes c3's top; each of its lines leaves Black a
            // tower, and either side can win from there.
            ("W:a1=W,c3=bb,f6=b,d8=b", true, true),
        ];
        for &(t, white, black) in cases {
            for (side, can) in [(Side::White, white), (Side::Black, black)] {
                if can {
                    assert_wins(t, side, Search::Full);
                } else {
                    assert_eq!(can_win(&pos(t), side, Search::Full), Win::No, "{t} {side}");
                }
            }
        }
    }
}
