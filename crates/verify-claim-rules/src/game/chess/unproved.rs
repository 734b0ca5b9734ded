//! Positions where the analyser's quick test cannot succeed, known without
//! running it.
//!
//! The quick test (`chasolver::is_unwinnable_fast`, version 3) proves a side
//! unable to mate in stages. For a side W it first plays out forced moves,
//! then runs a full-width search 4 plies deep (7 when only pawns and
//! bishops are left) that succeeds only if *every* line ends in material W
//! cannot mate with, or in a position without moves where W has not mated.
//! Its later stages run only on pawn structures it calls blocked: enough
//! W pawns facing an enemy pawn or king, and no pawn without an enemy pawn
//! on its file.
//!
//! So when a position has two or more legal moves (nothing is forced),
//! has a pawn structure that is not blocked in that sense, and has one
//! line as deep as that search (4 plies, or 7 with pawns and bishops only)
//! along which W keeps mating material and nobody runs out of moves, the
//! quick test answers "not proved" whatever it would explore. With pawns
//! and bishops only, a third stage (the same search 15 plies deep) is
//! gated on the count of blocked pawns alone, so there the count must
//! fail that gate: a structure that passes the gate only by a lonely pawn
//! is asked. This module finds that line with shakmaty on our own
//! position, about a third of the cost of handing the position to the
//! analyser, which is then not asked.
//!
//! This is a statement about the analyser, not about chess: it never
//! declares a position winnable or dead. Every verdict is still exactly the
//! analyser's; `src/tests/quick_gate.rs` checks on every final position of the
//! corpus, on positions along its games and on the D3-Chess vectors that
//! whenever this says "cannot prove", the analyser, run, does not prove.
//! It reads the analyser's own definitions (quoted at each function), so a
//! new version of chasolver must be checked against it again (Cargo.toml
//! pins it to exactly 3.0.0).

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square, attacks};

/// Positions visited in the search for a line before giving up (the
/// analyser then decides). The first line almost always serves.
const BUDGET: u32 = 24;

/// The most quiet moves tried at one position.
const BRANCH: usize = 2;

/// Room for the quiet moves of one position, before [`quiet_moves`] fills
/// it (the drop is a placeholder, never read).
const NO_MOVES: [Move; BRANCH] = [Move::Put {
    role: Role::Pawn,
    to: Square::A1,
}; BRANCH];

/// Whether the analyser's quick test, asked whether `winner` can still
/// mate, certainly answers "not proved". `false` means "ask it".
pub fn quick_test_cannot_prove(pos: &Chess, winner: Color) -> bool {
    let board = pos.board();
    // `only_pawns_and_bishops`: the search goes 7 plies deep, not 4.
    let pawns_and_bishops = (board.knights() | board.rooks() | board.queens()).is_empty();
    let structure = structure(pos, winner);
    let never_blocked = if pawns_and_bishops {
        structure.few_blocked
    } else {
        structure.few_blocked || structure.lonely
    };
    if !never_blocked || insufficient(pos, winner) {
        return false;
    }
    let depth = if pawns_and_bishops { 7 } else { 4 };
    let mut moves = NO_MOVES;
    let start = Quiet {
        board: board.clone(),
        turn: pos.turn(),
    };
    // Two legal moves: nothing is forced, so the analyser searches `pos`.
    let n = quiet_moves(&start.board, start.turn, &mut moves, 2);
    let mut budget = BUDGET;
    n >= 2
        && moves[..n]
            .iter()
            .any(|m| quiet_line(&start.after(*m), depth - 1, &mut budget))
}

/// A position along a quiet line, as far as [`quiet_moves`] reads it: the
/// board and the side to move. A quiet move changes nothing else that it
/// reads (castling rights, the en passant square and the clocks are not
/// looked at), so the move is played on the board alone, without a whole
/// position copied and shakmaty's `play_unchecked`.
#[derive(Clone)]
struct Quiet {
    board: Board,
    turn: Color,
}

impl Quiet {
    /// After the quiet move `m` (one of [`quiet_moves`]: a normal move to
    /// an empty square, no promotion): the piece moved as shakmaty moves it.
    fn after(&self, m: Move) -> Quiet {
        let mut next = self.clone();
        if let Move::Normal { role, from, to, .. } = m {
            next.board.discard_piece_at(from);
            next.board.set_piece_at(to, role.of(self.turn));
        }
        next.turn = !self.turn;
        next
    }
}

/// A line of `depth` more quiet plies from `pos`, every position on it
/// with a legal move. Quiet moves take nothing and promote nothing, so the
/// material, and with it the analyser's "insufficient" answer, stays that
/// of the line's start: along this line its search cannot succeed.
fn quiet_line(pos: &Quiet, depth: u8, budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut moves = NO_MOVES;
    // One move is enough to go on: a line that stops short gives up.
    let n = quiet_moves(&pos.board, pos.turn, &mut moves, 1);
    if depth == 0 || n == 0 {
        return n > 0;
    }
    moves[..n]
        .iter()
        .any(|m| quiet_line(&pos.after(*m), depth - 1, budget))
}

/// Whether the side to move has a legal quiet move (see [`quiet_moves`]):
/// `true` proves it can move; `false` proves nothing.
pub fn has_quiet_move(pos: &Chess) -> bool {
    let mut moves = NO_MOVES;
    quiet_moves(pos.board(), pos.turn(), &mut moves, 1) == 1
}

/// Fills `out` with up to `want` legal quiet moves of `us` (to move) on `b`
/// (pieces to empty squares, pawns one step short of promotion) and returns
/// how many: the first found, not all. A normal move is legal exactly when its own king
/// is not attacked afterwards, so each is tested that way. Finding none
/// proves nothing (captures, castling and the rest are not looked at); the
/// caller then gives up.
fn quiet_moves(b: &Board, us: Color, out: &mut [Move; BRANCH], want: usize) -> usize {
    let Some(king) = b.king_of(us) else {
        return 0;
    };
    let occupied = b.occupied();
    let (step, last) = match us {
        Color::White => (8, Rank::Eighth),
        Color::Black => (-8, Rank::First),
    };
    let mut n = 0;
    // Stepping pieces first: their targets and the king-safety test come
    // from small tables; a slider's targets need the magic table.
    for role in [
        Role::Knight,
        Role::King,
        Role::Pawn,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ] {
        for from in b.by_piece(role.of(us)) {
            let targets = match role {
                Role::Pawn => from
                    .offset(step)
                    .filter(|to| to.rank() != last)
                    .map_or(Bitboard::EMPTY, Bitboard::from_square),
                _ => attacks::attacks(from, role.of(us), occupied),
            };
            for to in targets & !occupied {
                let king_after = if role == Role::King { to } else { king };
                if super::san::king_is_safe(b, us, king_after, from, to) {
                    out[n] = Move::Normal {
                        role,
                        from,
                        capture: None,
                        to,
                        promotion: None,
                    };
                    n += 1;
                    if n == want {
                        return n;
                    }
                }
            }
        }
    }
    n
}

/// The analyser's `insufficient_white_material`, for `winner` as White:
/// a lone king; king and knight against no minor piece, rook or pawn; or
/// king and bishops with every bishop on the board on one colour and no
/// knight or pawn anywhere.
fn insufficient(pos: &Chess, winner: Color) -> bool {
    let b = pos.board();
    let w = b.by_color(winner);
    let l = b.by_color(!winner);
    if w.count() == 1 {
        return true;
    }
    let minors = b.knights() | b.bishops();
    if w.count() == 2 && w.intersects(b.knights()) && !l.intersects(minors | b.rooks() | b.pawns())
    {
        return true;
    }
    let w_bishops = w & b.bishops();
    if w_bishops.is_empty() {
        return false;
    }
    let colour = if w_bishops.intersects(Bitboard::DARK_SQUARES) {
        Bitboard::DARK_SQUARES
    } else {
        Bitboard::LIGHT_SQUARES
    };
    w.count() == w_bishops.count() + 1
        && !(b.bishops() & !colour).any()
        && b.knights().is_empty()
        && b.pawns().is_empty()
}

/// How the pawn structure reads against the analyser's gates to its later
/// stages, in `winner`'s direction (the analyser mirrors the board for
/// Black).
struct Structure {
    /// Fewer of `winner`'s pawns face an enemy pawn or king than
    /// `max(1, pawns / 2 - 2)` (`nb_blocked_pawns`): no later stage runs.
    few_blocked: bool,
    /// Some pawn has no enemy pawn on its file (`has_lonely_pawns`; a pawn
    /// one step from promotion does not count): the fourth stage does not
    /// run, the third (pawns and bishops only) still may.
    lonely: bool,
}

fn structure(pos: &Chess, winner: Color) -> Structure {
    let b = pos.board();
    let w_pawns = b.pawns() & b.by_color(winner);
    let l_pawns = b.pawns() & b.by_color(!winner);
    let l_king = b.kings() & b.by_color(!winner);
    let forward = match winner {
        Color::White => w_pawns.0 << 8,
        Color::Black => w_pawns.0 >> 8,
    };
    let blocked = (forward & (l_pawns | l_king).0).count_ones();
    let pawns = b.pawns().count() as i8;
    let threshold = (pawns / 2 - 2).max(1) as u32;
    Structure {
        few_blocked: blocked < threshold,
        lonely: lonely_pawns(w_pawns, l_pawns, winner),
    }
}

/// Whether the files of `winner`'s pawns (but one on its seventh rank)
/// differ from the files of the loser's (but one on `winner`'s second).
fn lonely_pawns(w_pawns: Bitboard, l_pawns: Bitboard, winner: Color) -> bool {
    let (w_seventh, w_second) = match winner {
        Color::White => (Rank::Seventh, Rank::Second),
        Color::Black => (Rank::Second, Rank::Seventh),
    };
    let files = |pawns: Bitboard, skip: Rank| {
        (pawns & !Bitboard::from_rank(skip))
            .into_iter()
            .fold(0u8, |acc, sq| acc | 1 << u8::from(sq.file()))
    };
    files(w_pawns, w_seventh) != files(l_pawns, w_second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// Every move `quiet_moves` offers is legal, and it finds one whenever
    /// a legal move takes nothing, promotes nothing and is not castling or
    /// en passant: on random games from a few starts.
    #[test]
    fn quiet_moves_are_legal_moves() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut checked = 0;
        for start in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/1P4P1/8/8/2pP4/8/8/R3K2R b KQkq d3 0 1",
            "4k3/8/8/K1Pp3r/8/8/8/8 w - d6 0 1",
        ] {
            for _ in 0..60 {
                let mut p = pos(start);
                for _ in 0..150 {
                    let legal = p.legal_moves();
                    let mut out = NO_MOVES;
                    let n = quiet_moves(p.board(), p.turn(), &mut out, BRANCH);
                    for m in &out[..n] {
                        assert!(legal.contains(m), "{m:?} in {:?}", p.board());
                    }
                    let quiet = legal.iter().any(|m| {
                        matches!(
                            m,
                            Move::Normal {
                                capture: None,
                                promotion: None,
                                ..
                            }
                        )
                    });
                    assert_eq!(n > 0, quiet, "{:?}", p.board());
                    checked += 1;
                    if legal.is_empty() {
                        break;
                    }
                    p.play_unchecked(legal[next(legal.len())]);
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn an_open_middlegame_is_not_asked() {
        let p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        assert!(quick_test_cannot_prove(&p, Color::White));
        assert!(quick_test_cannot_prove(&p, Color::Black));
    }

    #[test]
    fn an_open_ending_of_pawns_and_bishops_is_not_asked() {
        // No pawn blocked: a line of 7 quiet plies defeats the deeper search.
        let p = pos("4k3/8/8/2b5/8/8/4P3/4K3 w - - 0 1");
        assert!(quick_test_cannot_prove(&p, Color::White));
        // One blocked pawn but a lonely one: that is not enough here.
        let p = pos("4k3/8/8/2b1p3/4P1P1/8/8/4K3 w - - 0 1");
        assert!(!quick_test_cannot_prove(&p, Color::White));
    }

    #[test]
    fn what_the_analyser_could_prove_is_asked() {
        // Pawns and bishops only, one pawn blocked: its third stage may run.
        assert!(!quick_test_cannot_prove(
            &pos("8/8/4k3/2b1p3/4P3/8/8/4K3 w - - 0 1"),
            Color::White
        ));
        // A lone king for White: its search proves it at once.
        assert!(!quick_test_cannot_prove(
            &pos("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"),
            Color::White
        ));
        // A locked pawn wall with rooks: the later stages run.
        assert!(!quick_test_cannot_prove(
            &pos("r3k3/8/8/1p1p1p1p/1P1P1P1P/8/8/R3K3 w - - 0 1"),
            Color::White
        ));
        // One legal move: forced moves are played first.
        assert!(!quick_test_cannot_prove(
            &pos("7k/8/8/8/8/8/1q6/K1R5 w - - 0 1"),
            Color::White
        ));
    }
}
