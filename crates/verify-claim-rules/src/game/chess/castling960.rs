//! Dead positions with Chess960 castling rights, which the `chess` crate
//! under the analyser cannot express (it knows only a king on e1/e8 and
//! rooks on the corners).
//!
//! Sound in both directions:
//! - Remove the rights it cannot express. Every move of that position is a
//!   legal move of the real one with the same effect on the board, and
//!   castling is never legal out of check, so a helpmate found there is a
//!   helpmate here.
//! - A proof that `side` cannot mate there covers every line without such a
//!   castling move. A line with one castles first at some position N reached
//!   from here without it; N still has that right, so N is in the region
//!   explored below: the positions reached without such a castling move that
//!   still have such a right (any other position is reached the same way
//!   from the stripped position, and so already covered). For each castling
//!   move from each N, the position after it is analysed in turn (castling
//!   takes all that side's rights, so this recurses at most twice). The
//!   region and the castlings are bounded; beyond the bound, undetermined.

use std::collections::{HashMap, VecDeque};

use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Position, san::SanPlus,
};

use super::unwinnable::{analyse, can_mate as can_mate_from, exotic_rights, expressible_rooks};
use crate::game::{Search, Win};

/// The region's bound (positions) and the castlings analysed, per search.
fn bounds(search: Search) -> (usize, usize) {
    match search {
        Search::Quick => (64, 4),
        Search::Full => (4_000, 48),
    }
}

/// The position with only the castling rights the `chess` crate expresses.
fn stripped(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.castling_rights &= expressible_rooks(pos);
    match Chess::from_setup(setup, CastlingMode::Chess960) {
        Ok(p) => Some(p),
        Err(e) => e.ignore_too_much_material().ok(),
    }
}

/// A castling move with a right the `chess` crate cannot express.
fn exotic_castling(pos: &Chess, m: &Move) -> bool {
    match m {
        Move::Castle { rook, .. } => exotic_rights(pos).contains(*rook),
        _ => false,
    }
}

/// [`super::unwinnable::can_mate`] for a position (neither checkmate nor
/// stalemate) with castling rights the `chess` crate cannot express.
pub(super) fn can_mate(pos: &Chess, side: Color, search: Search) -> Win {
    if pos.board().by_color(side).count() == 1 {
        return Win::No; // a lone king never gives check, castling or not
    }
    let Some(base) = stripped(pos) else {
        return Win::Undetermined;
    };
    match analyse(&base, side, search) {
        Win::No => castling_lines(pos, side, search),
        other => other, // a helpmate there is one here; undetermined stays
    }
}

/// The lines through a castling move the `chess` crate cannot express.
fn castling_lines(pos: &Chess, side: Color, search: Search) -> Win {
    let (limit, mut castlings) = bounds(search);
    let mut nodes: Vec<(Chess, Option<(usize, Move)>)> = vec![(pos.clone(), None)];
    let mut seen: HashMap<Chess, usize> = HashMap::from([(pos.clone(), 0)]);
    let mut queue = VecDeque::from([0usize]);
    let mut undetermined = false;
    while let Some(i) = queue.pop_front() {
        let n = nodes[i].0.clone();
        for m in n.legal_moves() {
            let mut next = n.clone();
            next.play_unchecked(m);
            if exotic_castling(&n, &m) {
                if castlings == 0 {
                    return Win::Undetermined;
                }
                castlings -= 1;
                match can_mate_from(&next, side, search) {
                    Win::No => {}
                    Win::Yes { helpmate } => {
                        let mut line = line_to(pos, &nodes, i);
                        line.push(SanPlus::from_move(n.clone(), m).to_string());
                        line.extend(helpmate);
                        return Win::Yes { helpmate: line };
                    }
                    Win::Undetermined => undetermined = true,
                }
            } else if !exotic_rights(&next).is_empty() && !seen.contains_key(&next) {
                if nodes.len() >= limit {
                    return Win::Undetermined;
                }
                seen.insert(next.clone(), nodes.len());
                nodes.push((next, Some((i, m))));
                queue.push_back(nodes.len() - 1);
            }
        }
    }
    if undetermined {
        Win::Undetermined
    } else {
        Win::No
    }
}

/// The moves from `root` to node `i`, in SAN.
fn line_to(root: &Chess, nodes: &[(Chess, Option<(usize, Move)>)], mut i: usize) -> Vec<String> {
    let mut moves = Vec::new();
    while let Some((parent, m)) = &nodes[i].1 {
        moves.push(*m);
        i = *parent;
    }
    moves.reverse();
    let mut p = root.clone();
    moves
        .into_iter()
        .map(|m| SanPlus::from_move_and_play_unchecked(&mut p, m).to_string())
        .collect()
}
