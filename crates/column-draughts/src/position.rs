//! A position, and its hash: full, and updated on a move from the squares
//! the move touched.

use super::tower::Piece;
use super::{Move, Rules, Square, Tower, rank_of};
use crate::Side;

const WHITE_TO_MOVE: u64 = 0x2545_F491_4F6C_DD1D;

/// A position: the towers, the side to move, the move count and the
/// re-jump reading in force.
#[derive(Clone, Debug)]
pub struct Position {
    pub towers: [Tower; 32],
    pub turn: Side,
    /// Plies since the material last changed (a capture or a promotion).
    pub clock: u32,
    pub fullmove: u32,
    pub rules: Rules,
}

/// Positions are the same when every tower is the same (composition, top to
/// bottom, kings included) and the same side is to move (1.13.1).
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.turn == other.turn && self.towers == other.towers
    }
}

impl Position {
    /// The start position.
    pub fn start(rules: Rules) -> Position {
        let mut towers = [Tower::EMPTY; 32];
        for (s, t) in towers.iter_mut().enumerate() {
            let r = rank_of(s as Square);
            let side = match r {
                0..=2 => Some(Side::White),
                5..=7 => Some(Side::Black),
                _ => None,
            };
            if let Some(side) = side {
                *t = Tower::from_pieces(&[Piece { side, king: false }]);
            }
        }
        Position {
            towers,
            turn: Side::White,
            clock: 0,
            fullmove: 1,
            rules,
        }
    }
}

/// The hash of a position: every tower on its square, and the side to move.
pub fn full_hash(pos: &Position) -> u64 {
    let mut h = if pos.turn == Side::White {
        WHITE_TO_MOVE
    } else {
        0
    };
    for (s, t) in pos.towers.iter().enumerate() {
        h ^= t.hash(s as Square);
    }
    h
}

/// Plays `m` and returns the new hash from the old one: only the squares
/// the move touched change.
pub fn play_hashed(pos: &mut Position, m: &Move, hash: u64) -> u64 {
    let mut h = hash ^ WHITE_TO_MOVE;
    // Each touched square once (a re-jump may pass a tower twice).
    let mut seen = [false; 32];
    let ends = [m.from(), m.to()];
    for &s in m.captured().iter().chain(&ends) {
        if !std::mem::replace(&mut seen[s as usize], true) {
            h ^= pos.towers[s as usize].hash(s);
        }
    }
    super::play(pos, m);
    for (s, &hit) in seen.iter().enumerate() {
        if hit {
            h ^= pos.towers[s].hash(s as Square);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legal_moves;
    use crate::tower::splitmix64;

    #[test]
    fn incremental_hash_equals_full_hash() {
        for rules in [Rules::Standard, Rules::Rejump] {
            let mut p = Position::start(rules);
            let mut h = full_hash(&p);
            let mut x: u64 = 7;
            for _ in 0..200 {
                let moves = legal_moves(&p);
                if moves.is_empty() {
                    break;
                }
                x = splitmix64(x);
                let m = &moves[(x % moves.len() as u64) as usize];
                h = play_hashed(&mut p, m, h);
                assert_eq!(h, full_hash(&p));
            }
        }
    }
}
