//! Towers: the pieces on one square, top first, packed in three words.

use super::Square;
use crate::Side;

/// A tower: pieces from top (bit 0) to bottom. `white` and `kings` are
/// bitmasks over the `len` pieces. An empty square is a tower of length 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tower {
    pub(super) len: u8,
    pub(super) white: u32,
    pub(super) kings: u32,
}

/// One piece of a tower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub side: Side,
    pub king: bool,
}

impl Tower {
    pub const EMPTY: Tower = Tower {
        len: 0,
        white: 0,
        kings: 0,
    };

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// The pieces from top to bottom.
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        (0..self.len).map(|i| Piece {
            side: if self.white >> i & 1 == 1 {
                Side::White
            } else {
                Side::Black
            },
            king: self.kings >> i & 1 == 1,
        })
    }

    /// Builds a tower from its pieces, top first.
    pub fn from_pieces(pieces: &[Piece]) -> Tower {
        let mut t = Tower::EMPTY;
        for p in pieces {
            t.push_bottom(*p);
        }
        t
    }

    pub fn top(&self) -> Option<Piece> {
        (self.len > 0).then_some(Piece {
            side: if self.white & 1 == 1 {
                Side::White
            } else {
                Side::Black
            },
            king: self.kings & 1 == 1,
        })
    }

    pub fn owner(&self) -> Option<Side> {
        self.top().map(|p| p.side)
    }

    pub(super) fn pop_top(&mut self) -> Option<Piece> {
        let p = self.top()?;
        self.white >>= 1;
        self.kings >>= 1;
        self.len -= 1;
        Some(p)
    }

    pub(super) fn push_bottom(&mut self, p: Piece) {
        if p.side == Side::White {
            self.white |= 1 << self.len;
        }
        if p.king {
            self.kings |= 1 << self.len;
        }
        self.len += 1;
    }

    pub(super) fn crown_top(&mut self) {
        self.kings |= 1;
    }

    /// Colours change at most once from top to bottom (the invariant).
    pub fn is_valid(&self) -> bool {
        let mut changes = 0;
        for i in 1..self.len {
            if (self.white >> i & 1) != (self.white >> (i - 1) & 1) {
                changes += 1;
            }
        }
        changes <= 1 && self.len <= 24
    }

    /// Hash of this tower on this square: a value drawn once per distinct
    /// (square, tower) by a fixed mixing function (the state space is too
    /// large for a table), so positions hash alike exactly when towers agree.
    pub(super) fn hash(&self, sq: Square) -> u64 {
        if self.len == 0 {
            return 0;
        }
        let packed = (self.white as u64)
            | (self.kings as u64) << 24
            | (self.len as u64) << 48
            | (sq as u64) << 56;
        splitmix64(packed)
    }
}

pub(super) fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
