//! SAN to move without generating the move list.
//!
//! shakmaty's `San::to_move` builds a list of legal candidates (a 256-entry
//! list returned by value) for every move. A recorded move names its piece,
//! its destination and usually nothing else, so the candidates can be read
//! from the attack tables directly: the pieces of that kind that reach the
//! destination, filtered by the written file, rank, capture sign and
//! promotion. A candidate is legal when its own king is not attacked after
//! it; that is the whole of legality for a move that is neither castling
//! nor en passant, so it holds in check too. Castling, en passant, drops
//! and null moves go to shakmaty unchanged.
//!
//! [`resolve`] gives exactly what `San::to_move` gives, errors included;
//! `src/tests/san_resolver.rs` compares the two on the whole corpus and on
//! random positions.

use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square, attacks,
    san::{San, SanError},
};

/// The move a SAN names in `pos`, as `San::to_move` finds it.
#[inline]
pub fn resolve(pos: &Chess, san: San) -> Result<Move, SanError> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return by_shakmaty(pos, san);
    };
    let us = pos.turn();
    let Some(king) = pos.board().king_of(us) else {
        return by_shakmaty(pos, san);
    };
    if role == Role::Pawn && pos.maybe_ep_square() == Some(to) {
        return by_shakmaty(pos, san);
    }
    let board = pos.board();
    // No normal move lands on its own piece; the capture sign must say
    // whether the destination holds a piece (en passant went above).
    if pos.us().contains(to) || capture != pos.them().contains(to) {
        return Err(SanError::IllegalSan);
    }
    if !promotion_fits(us, role, to, promotion) {
        return Err(SanError::IllegalSan);
    }
    let mut from_squares = origins(pos, role, to, capture) & pos.our(role);
    if let Some(f) = file {
        from_squares &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        from_squares &= Bitboard::from_rank(r);
    }
    let mut found = None;
    for from in from_squares {
        let king_after = if role == Role::King { to } else { king };
        if king_is_safe(board, us, king_after, from, to) {
            if found.is_some() {
                return Err(SanError::AmbiguousSan);
            }
            found = Some(from);
        }
    }
    let from = found.ok_or(SanError::IllegalSan)?;
    Ok(Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    })
}

/// The move of a token in one of the common shapes ([`quick_parse`]) that
/// names a legal move; `None` for anything else. Returned in a register:
/// the caller builds its `Result` itself (a `Result` written through memory
/// and read back at once stalled the scan's loop).
#[inline(never)]
pub fn quick_move(pos: &Chess, text: &[u8]) -> Option<Move> {
    resolve(pos, quick_parse(text)?).ok()
}

/// Castling, en passant and anything unusual: shakmaty's own resolution.
#[cold]
#[inline(never)]
fn by_shakmaty(pos: &Chess, san: San) -> Result<Move, SanError> {
    san.to_move(pos)
}

/// The SAN of the commonest token shapes, read without shakmaty's general
/// parser: a pawn push (`e4`), a pawn capture (`exd5`), a piece move with
/// or without a capture and one disambiguating file or rank (`Nf3`,
/// `Rxe1`, `Nbd7`, `R1xe2`), a promotion (`e8=Q`, `bxa1=N`), castling
/// (`O-O`, `O-O-O`), each with an
/// optional `+` or `#`. `None` means "not one of these shapes", never
/// "not SAN": the caller then asks shakmaty. Whatever this returns,
/// `SanPlus::from_ascii` returns too (`src/tests/san_resolver.rs` checks every
/// short string).
#[inline]
pub fn quick_parse(text: &[u8]) -> Option<San> {
    let b = match text {
        [rest @ .., b'+' | b'#'] => rest,
        _ => text,
    };
    let normal = |role, file, rank, capture, to, promotion| San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    };
    Some(match *b {
        [b'O', b'-', b'O'] => San::Castle(CastlingSide::KingSide),
        [b'O', b'-', b'O', b'-', b'O'] => San::Castle(CastlingSide::QueenSide),
        [f, r] => normal(Role::Pawn, None, None, false, square(f, r)?, None),
        [p, f, r] => normal(piece(p)?, None, None, false, square(f, r)?, None),
        [p, b'x', f, r] => match piece(p) {
            Some(role) => normal(role, None, None, true, square(f, r)?, None),
            None => normal(Role::Pawn, Some(file(p)?), None, true, square(f, r)?, None),
        },
        [p, d, f, r] if p.is_ascii_uppercase() => {
            let (file, rank) = disambiguation(d)?;
            normal(piece(p)?, file, rank, false, square(f, r)?, None)
        }
        [p, d, b'x', f, r] => {
            let (file, rank) = disambiguation(d)?;
            normal(piece(p)?, file, rank, true, square(f, r)?, None)
        }
        [f, r, b'=', q] => normal(Role::Pawn, None, None, false, square(f, r)?, promoted(q)?),
        [p, b'x', f, r, b'=', q] => normal(
            Role::Pawn,
            Some(file(p)?),
            None,
            true,
            square(f, r)?,
            promoted(q)?,
        ),
        _ => return None,
    })
}

/// A piece letter (not `P`: shakmaty reads `Pe4` too, but it is rare).
fn piece(c: u8) -> Option<Role> {
    match c {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    }
}

fn file(c: u8) -> Option<File> {
    (b'a'..=b'h')
        .contains(&c)
        .then(|| File::new(u32::from(c - b'a')))
}

fn rank(c: u8) -> Option<Rank> {
    (b'1'..=b'8')
        .contains(&c)
        .then(|| Rank::new(u32::from(c - b'1')))
}

fn square(f: u8, r: u8) -> Option<Square> {
    Some(Square::from_coords(file(f)?, rank(r)?))
}

/// One disambiguating character: a file or a rank.
fn disambiguation(c: u8) -> Option<(Option<File>, Option<Rank>)> {
    match (file(c), rank(c)) {
        (Some(f), _) => Some((Some(f), None)),
        (_, Some(r)) => Some((None, Some(r))),
        _ => None,
    }
}

/// A promotion letter as shakmaty reads it after `=` (any role, either
/// case: the resolver refuses the wrong ones as shakmaty does).
fn promoted(c: u8) -> Option<Option<Role>> {
    Role::from_char(char::from(c)).map(Some)
}

/// A pawn reaching the last rank must promote (to a knight, bishop, rook or
/// queen); nothing else may.
fn promotion_fits(us: Color, role: Role, to: Square, promotion: Option<Role>) -> bool {
    let last = if us == Color::White {
        Rank::Eighth
    } else {
        Rank::First
    };
    match promotion {
        None => role != Role::Pawn || to.rank() != last,
        Some(p) => role == Role::Pawn && to.rank() == last && p != Role::Pawn && p != Role::King,
    }
}

/// Squares from which a piece of `role` (of the side to move) could move to
/// `to`, ignoring pins. Sliders are found without shakmaty's magic attack
/// table (710 KB, a cache miss on most lookups): the few pieces of that kind
/// on a line through `to` (a table of 1 KB), each with nothing between.
fn origins(pos: &Chess, role: Role, to: Square, capture: bool) -> Bitboard {
    let occupied = pos.board().occupied();
    match role {
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => reaching(pos.our(role) & lines(to).diagonal, to, occupied),
        Role::Rook => reaching(pos.our(role) & lines(to).straight, to, occupied),
        Role::Queen => {
            let l = lines(to);
            reaching(pos.our(role) & (l.diagonal | l.straight), to, occupied)
        }
        Role::King => attacks::king_attacks(to),
        Role::Pawn if capture => attacks::pawn_attacks(!pos.turn(), to),
        Role::Pawn => pawn_push_origins(pos.turn(), to, occupied),
    }
}

/// The squares of `pieces` (each on a line through `to`) with nothing
/// between them and `to`.
fn reaching(pieces: Bitboard, to: Square, occupied: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for from in pieces {
        if !attacks::between(from, to).intersects(occupied) {
            out.add(from);
        }
    }
    out
}

/// The lines through a square on an empty board.
#[derive(Clone, Copy)]
struct Lines {
    /// Its file and rank.
    straight: Bitboard,
    /// Its two diagonals.
    diagonal: Bitboard,
}

static LINES: [Lines; 64] = {
    let mut table = [Lines {
        straight: Bitboard::EMPTY,
        diagonal: Bitboard::EMPTY,
    }; 64];
    let mut i = 0;
    while i < 64 {
        let sq = Square::new(i as u32);
        table[i] = Lines {
            straight: attacks::rook_attacks(sq, Bitboard::EMPTY),
            diagonal: attacks::bishop_attacks(sq, Bitboard::EMPTY),
        };
        i += 1;
    }
    table
};

fn lines(sq: Square) -> Lines {
    LINES[usize::from(sq)]
}

/// The squares a pawn pushes from to reach the empty square `to`: one step
/// back, or two from its start rank over an empty square.
fn pawn_push_origins(us: Color, to: Square, occupied: Bitboard) -> Bitboard {
    let back = if us == Color::White { -8 } else { 8 };
    let Some(one) = to.offset(back) else {
        return Bitboard::EMPTY;
    };
    if occupied.contains(one) {
        return Bitboard::from_square(one);
    }
    let double_rank = if us == Color::White {
        Rank::Fourth
    } else {
        Rank::Fifth
    };
    match one.offset(back) {
        Some(two) if to.rank() == double_rank => Bitboard::from_square(two),
        _ => Bitboard::EMPTY,
    }
}

/// After the normal move `from`-`to`, no piece of the opponent attacks the
/// king of `us` on `king` (a piece captured on `to` attacks nothing). The
/// stepping pieces from their small tables; a slider only if it stands on a
/// line through the king, then by what lies between.
pub(super) fn king_is_safe(
    board: &shakmaty::Board,
    us: Color,
    king: Square,
    from: Square,
    to: Square,
) -> bool {
    let them = board.by_color(!us) & !Bitboard::from_square(to);
    let steppers = (attacks::knight_attacks(king) & board.knights())
        | (attacks::king_attacks(king) & board.kings())
        | (attacks::pawn_attacks(us, king) & board.pawns());
    if steppers.intersects(them) {
        return false;
    }
    let l = lines(king);
    let sliders = them
        & ((l.straight & board.rooks_and_queens()) | (l.diagonal & board.bishops_and_queens()));
    if sliders.is_empty() {
        return true;
    }
    let occupied = (board.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    sliders
        .into_iter()
        .all(|s| attacks::between(king, s).intersects(occupied))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen, san::SanPlus};

    fn check(fen: &str, tokens: &[&str]) {
        let pos: Chess = Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        for t in tokens {
            let san = SanPlus::from_ascii(t.as_bytes()).unwrap().san;
            assert_eq!(resolve(&pos, san), san.to_move(&pos), "{fen}: {t}");
        }
    }

    #[test]
    fn agrees_with_shakmaty_on_hand_picked_cases() {
        check(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            &[
                "e4", "e3", "e5", "Nf3", "Nd2", "Nxf3", "exd3", "Ke2", "O-O", "e2e4", "Pe4",
            ],
        );
        // Pinned knight, check, evasions, a king walking into check.
        check(
            "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",
            &["Nc3", "Nd4", "Kd2", "Ke2", "Kf2", "Kd1"],
        );
        check(
            "4k3/8/8/8/1b6/8/3P4/4K2R w K - 0 1",
            &["d3", "Kf1", "Ke2", "Rh2", "c3", "Kd1", "O-O"],
        );
        // Ambiguity, disambiguation, promotion, en passant.
        check(
            "4k3/1P6/8/3pP3/8/8/8/1N2KN2 w - d6 0 1",
            &[
                "Nd2", "Nbd2", "Nfd2", "N1d2", "b8=Q", "b8", "b8=K", "bxa8=Q", "exd6", "e6",
                "Nd2=Q",
            ],
        );
        check(
            "4k3/8/8/8/8/8/p7/4K3 b - - 0 1",
            &["a1=N", "a1", "a1=P", "Kd7", "Ke7"],
        );
    }
}
