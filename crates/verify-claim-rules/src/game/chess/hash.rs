//! The Zobrist hash of a chess position, kept up to date move by move.
//!
//! Every move is updated here from shakmaty's own tables (shakmaty's
//! `update_zobrist_hash` gives up on a quarter of all plies and checks
//! more than it needs): the pieces that left and arrived, the castling
//! rights and the legal en passant file before and after. The result is
//! always the full hash in `EnPassantMode::Legal`; a test checks that on
//! every ply of the corpus.

use shakmaty::{
    CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square,
    zobrist::{Zobrist64, ZobristValue},
};

/// The full hash.
pub fn full(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Plays the legal move `m` and returns the new position's hash, given the
/// hash of `pos` before it. Every move is a delta: the side to move, the
/// pieces that left and arrived, the castling rights only when they
/// changed, and the en passant file only around a double push (the only
/// time a position has an en passant square at all).
#[inline(always)]
pub fn play(pos: &mut Chess, m: Move, hash: u64) -> u64 {
    let us = pos.turn();
    let Some(pieces) = pieces_delta(us, m) else {
        pos.play_unchecked(m);
        return full(pos);
    };
    let mut h = Zobrist64(hash) ^ Zobrist64::zobrist_for_white_turn() ^ pieces;
    if pos.maybe_ep_square().is_some() {
        h ^= en_passant(pos);
    }
    let castles = pos
        .castles()
        .castling_rights()
        .any()
        .then(|| pos.castles().clone());
    pos.play_unchecked(m);
    if let Some(before) = castles
        && before.castling_rights() != pos.castles().castling_rights()
    {
        h ^= castling(&before) ^ castling(pos.castles());
    }
    if pos.maybe_ep_square().is_some() {
        h ^= en_passant(pos);
    }
    h.0
}

/// The pieces that leave and arrive with `m`, played by `us`.
#[inline(always)]
fn pieces_delta(us: Color, m: Move) -> Option<Zobrist64> {
    let piece =
        |sq: Square, role: Role, color: Color| Zobrist64::zobrist_for_piece(sq, role.of(color));
    Some(match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let mut d = piece(from, role, us) ^ piece(to, promotion.unwrap_or(role), us);
            if let Some(c) = capture {
                d ^= piece(to, c, !us);
            }
            d
        }
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            piece(from, Role::Pawn, us) ^ piece(to, Role::Pawn, us) ^ piece(taken, Role::Pawn, !us)
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            piece(king, Role::King, us)
                ^ piece(rook, Role::Rook, us)
                ^ piece(side.king_to(us), Role::King, us)
                ^ piece(side.rook_to(us), Role::Rook, us)
        }
        Move::Put { .. } => return None,
    })
}

/// The part of the hash for the castling rights.
fn castling(castles: &shakmaty::Castles) -> Zobrist64 {
    let mut h = Zobrist64::default();
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if castles.has(color, side) {
                h ^= Zobrist64::zobrist_for_castling_right(color, side);
            }
        }
    }
    h
}

/// The part of the hash for the legal en passant file.
fn en_passant(pos: &Chess) -> Zobrist64 {
    match pos.ep_square(EnPassantMode::Legal) {
        Some(sq) => Zobrist64::zobrist_for_en_passant_file(sq.file()),
        None => Zobrist64::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    /// Every legal move of a few positions with castling rights, en
    /// passant, promotions and Chess960 castling.
    #[test]
    fn incremental_equals_full_on_every_move_of_tricky_positions() {
        for fen in [
            "r3k2r/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/R3K2R w KQkq e6 0 1",
            "r3k2r/1P4P1/8/8/2pP4/8/8/R3K2R b KQkq d3 0 1",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
            "4k3/8/8/K1Pp3r/8/8/8/8 w - d6 0 1",
            "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        ] {
            let pos: Chess = Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap();
            for m in pos.legal_moves() {
                let mut p = pos.clone();
                let h = play(&mut p, m, full(&pos));
                assert_eq!(h, full(&p), "{fen}: {m:?}");
            }
        }
    }
}
