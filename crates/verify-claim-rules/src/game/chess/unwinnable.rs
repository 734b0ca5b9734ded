//! Can a side still checkmate? Miguel Ambrona's Chess Unwinnability
//! Analyzer ("A Practical Algorithm for Chess Unwinnability", FUN 2022), as
//! the crate `chasolver`, behind this one boundary: positions cross it as
//! the `chess` crate's `Board` (what chasolver works on), built directly
//! from ours, and helpmate lines come back as SAN.
//!
//! Used for dead positions (no sequence of legal moves leads to checkmate
//! for either side: 9.6 in 2009, 9.7 in 2014, 5.2.2 from 2018), for flag
//! falls (6.9) and, from 2023, resignations (5.1.2).
//!
//! (Example: `src/tests/module_examples.rs`, `chess_pawn_wall_is_dead`.)

use std::str::FromStr;

use shakmaty::{
    Bitboard, CastlingMode, Chess, Color, EnPassantMode, Position, Role, Square, fen::Fen,
    san::SanPlus, uci::UciMove,
};

pub use crate::game::{Search, Win};
pub use shorten::shorten as shorten_helpmate;

mod shorten;

/// The most pieces a side may have for the analyser. The `chess` crate
/// under it lists the moves of the side to move in a fixed array of 18
/// entries, filled without bounds checks: one entry per piece that has a
/// move, plus at most two en passant captures. 16 pieces a side (the most a
/// game can reach: a promotion only replaces a pawn, and no move adds a
/// piece) fill at most 18; a position with more could write past the array.
/// Such a position never goes to the analyser.
pub const MAX_PIECES_A_SIDE: usize = 16;

/// Whether the analyser can be given this position, and every position
/// reachable from it (moves never add pieces).
pub fn fits_analyser(pos: &Chess) -> bool {
    let b = pos.board();
    b.white().count() <= MAX_PIECES_A_SIDE && b.black().count() <= MAX_PIECES_A_SIDE
}

/// The rooks whose castling the `chess` crate can express: standard
/// castling, the king on e1 (e8) and the rook on a1 or h1 (a8, h8), where
/// Chess960 castling is the same move.
pub(super) fn expressible_rooks(pos: &Chess) -> Bitboard {
    let b = pos.board();
    let mut rooks = Bitboard::EMPTY;
    if b.king_of(Color::White) == Some(Square::E1) {
        rooks |= Bitboard::from(Square::A1) | Bitboard::from(Square::H1);
    }
    if b.king_of(Color::Black) == Some(Square::E8) {
        rooks |= Bitboard::from(Square::A8) | Bitboard::from(Square::H8);
    }
    rooks
}

/// Castling rights the `chess` crate cannot express (Chess960): a position
/// with any goes to the analyser only through `castling960`.
pub fn exotic_rights(pos: &Chess) -> Bitboard {
    pos.castles().castling_rights() & !expressible_rooks(pos)
}

fn chess_color(c: Color) -> chess::Color {
    match c {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    }
}

/// The position for chasolver, built directly (no FEN written and read
/// again): the same board as the `chess` crate reads from our FEN. `None`
/// when it cannot be expressed exactly (Chess960 castling rights) or has
/// more material than the analyser can take.
fn to_board(pos: &Chess) -> Option<chess::Board> {
    if !fits_analyser(pos) || !exotic_rights(pos).is_empty() {
        return None;
    }
    let mut b = chess::BoardBuilder::new();
    // By piece bitboards, not square by square: a third of the cost.
    for color in Color::ALL {
        for (role, to) in [
            (Role::Pawn, chess::Piece::Pawn),
            (Role::Knight, chess::Piece::Knight),
            (Role::Bishop, chess::Piece::Bishop),
            (Role::Rook, chess::Piece::Rook),
            (Role::Queen, chess::Piece::Queen),
            (Role::King, chess::Piece::King),
        ] {
            for sq in pos.board().by_piece(role.of(color)) {
                b.piece(chess::ALL_SQUARES[usize::from(sq)], to, chess_color(color));
            }
        }
    }
    b.side_to_move(chess_color(pos.turn()));
    let rights = pos.castles().castling_rights();
    for (color, short, long) in [
        (Color::White, Square::H1, Square::A1),
        (Color::Black, Square::H8, Square::A8),
    ] {
        let r = match (rights.contains(short), rights.contains(long)) {
            (true, true) => chess::CastleRights::Both,
            (true, false) => chess::CastleRights::KingSide,
            (false, true) => chess::CastleRights::QueenSide,
            (false, false) => chess::CastleRights::NoRights,
        };
        b.castle_rights(chess_color(color), r);
    }
    b.en_passant(
        pos.ep_square(EnPassantMode::Legal)
            .map(|sq| chess::File::from_index(usize::from(sq.file()))),
    );
    chess::Board::try_from(&b).ok()
}

/// Replays chasolver's moves on our position and writes them in SAN; `None`
/// if any does not fit (then the helpmate is not trusted).
fn helpmate_san(pos: &Chess, moves: &[chess::ChessMove]) -> Option<Vec<String>> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let uci = UciMove::from_str(&m.to_string()).ok()?;
        let mv = uci.to_move(&p).ok()?;
        out.push(SanPlus::from_move_and_play_unchecked(&mut p, mv).to_string());
    }
    p.is_checkmate().then_some(out)
}

/// Whether `side` can still checkmate from `pos`.
pub fn can_mate(pos: &Chess, side: Color, search: Search) -> Win {
    if pos.is_checkmate() {
        // The side that delivered it has; the other cannot move any more.
        return if pos.turn() != side {
            Win::Yes {
                helpmate: Vec::new(),
            }
        } else {
            Win::No
        };
    }
    if pos.is_stalemate() {
        return Win::No;
    }
    analyse(pos, side, search)
}

/// [`can_mate`] for a position that is neither checkmate nor stalemate.
pub(super) fn analyse(pos: &Chess, side: Color, search: Search) -> Win {
    if !fits_analyser(pos) {
        return Win::Undetermined;
    }
    if search == Search::Quick {
        return match quick_proved(pos, &[side]) {
            Some(true) => Win::No,
            Some(false) => Win::Undetermined,
            None => super::castling960::can_mate(pos, side, search),
        };
    }
    let Some(board) = to_board(pos) else {
        return super::castling960::can_mate(pos, side, search);
    };
    match chasolver::winnability(&board, chess_color(side)) {
        Some(chasolver::Winnability::Unwinnable) => Win::No,
        Some(chasolver::Winnability::Winnable { helpmate }) => match helpmate_san(pos, &helpmate) {
            Some(san) => Win::Yes { helpmate: san },
            None => Win::Undetermined,
        },
        None => Win::Undetermined,
    }
}

/// The quick test's verdicts, remembered on each thread, keyed by the
/// exact position: the board, the side to move, the castling rights and
/// the legal en passant square (what `Chess` equality compares). The test
/// is a function of exactly that (the analyser's board holds nothing else,
/// no move counters), so a verdict found once is the verdict wherever the
/// same position stands again, and reusing it changes no output. Nothing
/// is keyed by less than the whole position: no verdict is borrowed from a
/// position that only looks alike.
///
/// Two memories. The last position asked about: a scan asks twice about a
/// game's final position (is it dead? then, after a loss on time, could
/// the winner mate?). And the positions the analyser itself was run on,
/// across games: archives repeat final positions (the same opening trap,
/// the same resignation, one tournament in two files), and a blocked pawn
/// structure costs the analyser up to 0.7 ms, where a look-up costs a
/// hash. Positions that [`super::unproved`] answers are cheap and not kept
/// there, so they do not crowd out the costly ones. Bounded: when
/// [`ANALYSED`] positions are held the memory starts again empty, so it
/// stays under about 150 KB a thread whatever the input (896 entries of
/// 144 bytes fill 1,024 buckets of the hash table to its 7/8).
#[derive(Default)]
struct QuickVerdicts {
    last: Option<(Chess, [Option<bool>; 2])>,
    analysed: rustc_hash::FxHashMap<Chess, [Option<bool>; 2]>,
}

/// The most positions [`QuickVerdicts::analysed`] holds on one thread.
const ANALYSED: usize = 896;

thread_local! {
    static QUICK_VERDICTS: std::cell::RefCell<QuickVerdicts> =
        std::cell::RefCell::new(QuickVerdicts::default());
}

impl QuickVerdicts {
    /// What is known of `pos`: White's and Black's verdicts, each proved
    /// unable to mate, or not (yet) asked.
    fn known(&self, pos: &Chess) -> [Option<bool>; 2] {
        match &self.last {
            Some((last, known)) if last == pos => *known,
            _ => self.analysed.get(pos).copied().unwrap_or_default(),
        }
    }

    /// Remembers `known` for `pos`; among the analysed positions when the
    /// analyser was run on it, now or before.
    fn keep(&mut self, pos: &Chess, known: [Option<bool>; 2], analysed: bool) {
        if let Some(k) = self.analysed.get_mut(pos) {
            *k = known;
        } else if analysed {
            if self.analysed.len() >= ANALYSED {
                self.analysed.clear();
            }
            self.analysed.insert(pos.clone(), known);
        }
        match &mut self.last {
            Some((last, k)) if last == pos => *k = known,
            _ => self.last = Some((pos.clone(), known)),
        }
    }
}

/// Whether the quick test proves that none of `sides` can mate, asking
/// them in order and stopping at the first not proved; `None` when the
/// position cannot go to the analyser as it is (see [`to_board`]). A side
/// the test certainly cannot prove ([`super::unproved`]) is answered
/// without it.
fn quick_proved(pos: &Chess, sides: &[Color]) -> Option<bool> {
    if !fits_analyser(pos) || !exotic_rights(pos).is_empty() {
        return None;
    }
    QUICK_VERDICTS.with_borrow_mut(|memory| {
        let mut known = memory.known(pos);
        let mut board = None;
        let mut answer = Some(true);
        for &side in sides {
            let slot = usize::from(side == Color::Black);
            let proved = known[slot].or_else(|| quick_test(pos, side, &mut board));
            known[slot] = proved;
            // Not proved (`Some(false)`), or the analyser cannot be asked
            // (`None`): the sides after it need not be.
            if proved != Some(true) {
                answer = proved;
                break;
            }
        }
        memory.keep(pos, known, board.is_some());
        answer
    })
}

/// The analyser's quick test for one side, unless the position certainly
/// fails it ([`super::unproved`]); its board built once for both sides.
fn quick_test(pos: &Chess, side: Color, board: &mut Option<chess::Board>) -> Option<bool> {
    if super::unproved::quick_test_cannot_prove(pos, side) {
        return Some(false);
    }
    if board.is_none() {
        *board = Some(to_board(pos)?);
    }
    Some(chasolver::is_unwinnable_fast(
        board.as_ref()?,
        chess_color(side),
    ))
}

/// Proved dead: neither side can mate.
pub fn is_dead(pos: &Chess, search: Search) -> bool {
    if pos.legal_moves().is_empty() {
        return false; // checkmate or stalemate: the game ends as that
    }
    is_dead_playable(pos, search)
}

/// [`is_dead`] for a position known to have a legal move. One conversion,
/// and it stops at the first side not proved unable to mate (the usual
/// case, and cheap).
pub fn is_dead_playable(pos: &Chess, search: Search) -> bool {
    const BOTH: [Color; 2] = [Color::White, Color::Black];
    let direct = match search {
        Search::Quick => quick_proved(pos, &BOTH),
        Search::Full => to_board(pos).map(|board| {
            BOTH.iter().all(|&c| {
                matches!(
                    chasolver::winnability(&board, chess_color(c)),
                    Some(chasolver::Winnability::Unwinnable)
                )
            })
        }),
    };
    direct.unwrap_or_else(|| {
        fits_analyser(pos) && BOTH.into_iter().all(|c| analyse(pos, c, search) == Win::No)
    })
}

/// Reads a FEN (Chess960 castling accepted). A position with more
/// material than a game can reach (a study, a test vector) is accepted;
/// game records stay strict.
pub fn position_from_fen(fen: &str) -> Result<Chess, String> {
    let f =
        Fen::from_ascii(fen.trim().as_bytes()).map_err(|e| format!("bad FEN \"{fen}\": {e}"))?;
    match f.into_position(CastlingMode::Chess960) {
        Ok(p) => Ok(p),
        Err(e) => e
            .ignore_too_much_material()
            .map_err(|e| format!("bad FEN \"{fen}\": {e}")),
    }
}

/// Reads a FEN for `check-position`: as [`position_from_fen`], and refused
/// beyond [`MAX_PIECES_A_SIDE`] pieces a side (the analyser cannot take
/// them).
pub fn position_for_analysis(fen: &str) -> Result<Chess, String> {
    let pos = position_from_fen(fen)?;
    for color in [Color::White, Color::Black] {
        let n = pos.board().by_color(color).count();
        if n > MAX_PIECES_A_SIDE {
            return Err(format!(
                "FEN \"{fen}\": {n} {color} pieces; no game reaches more than {MAX_PIECES_A_SIDE} a side, and the analyser takes no more"
            ));
        }
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{DeadCheck, Game, chess::ChessGame};

    fn dead_check(pos: &Chess, search: Search) -> DeadCheck {
        ChessGame::dead_check(pos, search)
    }

    fn pos(fen: &str) -> Chess {
        position_from_fen(fen).unwrap()
    }

    fn check(fen: &str) -> (Option<bool>, Option<bool>, Option<bool>) {
        let d = dead_check(&pos(fen), Search::Full);
        (d.dead(), d.white.as_bool(), d.black.as_bool())
    }

    #[test]
    fn classic_cases() {
        // Pawn wall, kings only: dead.
        assert_eq!(
            check("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1"),
            (Some(true), Some(false), Some(false))
        );
        // K+B v K+B, bishops on the same colour: dead.
        assert_eq!(check("8/8/3k4/8/2b5/8/3KB3/8 w - - 0 1").0, Some(true));
        // Bishops on opposite colours: a helpmate exists.
        assert_eq!(
            check("8/8/3k4/8/3b4/8/3KB3/8 w - - 0 1"),
            (Some(false), Some(true), Some(true))
        );
        // K+N v K+N: not dead.
        assert_eq!(
            check("8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1"),
            (Some(false), Some(true), Some(true))
        );
        // K+N+N v K: not dead (White can mate with cooperation).
        assert_eq!(
            check("8/8/3k4/8/8/8/3KNN2/8 w - - 0 1"),
            (Some(false), Some(true), Some(false))
        );
        // K v K: dead.
        assert_eq!(check("8/8/3k4/8/8/8/3K4/8 w - - 0 1").0, Some(true));
    }

    #[test]
    fn a_fortress_only_one_side_can_ever_mate() {
        // From the D3-Chess vectors ("-B"): only Black can ever mate.
        // (A wall with a free rook behind it is no fortress: the rook can be
        // given up to open it, which the search finds.)
        let d = dead_check(&pos("8/8/8/7p/5K1k/7P/8/8 b - - 0 1"), Search::Full);
        assert_eq!(d.white, Win::No);
        assert!(matches!(d.black, Win::Yes { .. }), "{d:?}");
        assert_eq!(d.dead(), Some(false));
    }

    #[test]
    fn helpmates_are_san_and_end_in_mate() {
        let p = pos("8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1");
        let Win::Yes { helpmate } = can_mate(&p, Color::White, Search::Full) else {
            panic!()
        };
        assert!(!helpmate.is_empty());
        assert!(helpmate.last().unwrap().ends_with('#'), "{helpmate:?}");
    }

    /// The board built directly is the one the `chess` crate reads from
    /// our FEN, along random games (castling, en passant, promotions).
    #[test]
    fn direct_board_is_the_fen_board() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut compared = 0;
        for _ in 0..300 {
            let mut p = Chess::default();
            for _ in 0..160 {
                let fen = Fen::from_position(&p, EnPassantMode::Legal).to_string();
                let want = chess::Board::from_str(&fen).ok();
                assert_eq!(to_board(&p), want, "{fen}");
                compared += 1;
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Prefer captures and pawn moves now and then, to reach
                // promotions and en passant.
                let pick = moves
                    .iter()
                    .find(|m| x.is_multiple_of(3) && (m.is_promotion() || m.is_en_passant()))
                    .copied()
                    .unwrap_or(moves[(x % moves.len() as u64) as usize]);
                p.play_unchecked(pick);
            }
        }
        assert!(compared > 20_000, "{compared}");
    }

    /// Pawn walls with the kings on every pair of squares behind them, a
    /// White knight on h1 in a third of them, either side to move: 1,152
    /// distinct positions for the analyser, dead and not dead.
    fn walls() -> Vec<Chess> {
        let mut out = Vec::new();
        for wk in 0..24u32 {
            for bk in 40..64u32 {
                let mut setup = shakmaty::Setup::empty();
                let board = &mut setup.board;
                for file in [1, 3, 5, 7] {
                    board.set_piece_at(Square::new(24 + file), Color::White.pawn());
                    board.set_piece_at(Square::new(32 + file), Color::Black.pawn());
                }
                board.set_piece_at(Square::new(wk), Color::White.king());
                board.set_piece_at(Square::new(bk), Color::Black.king());
                if wk % 3 == 0 {
                    // A knight crosses the wall: not dead.
                    board.set_piece_at(Square::H1, Color::White.knight());
                }
                for turn in Color::ALL {
                    setup.turn = turn;
                    if let Ok(p) = setup.clone().position::<Chess>(CastlingMode::Standard) {
                        out.push(p);
                    }
                }
            }
        }
        out
    }

    /// A verdict remembered from an earlier game is the one the analyser
    /// gives that position afresh, and the memory stays bounded.
    #[test]
    fn remembered_verdicts_are_the_analysers_own() {
        let positions = walls();
        // White is asked first: these go to the analyser, more of them than
        // the memory holds, so it empties on the way.
        let analysed = positions
            .iter()
            .filter(|p| !super::super::unproved::quick_test_cannot_prove(p, Color::White))
            .count();
        assert!(analysed > ANALYSED, "{analysed}");
        let fresh: Vec<bool> = positions
            .iter()
            .map(|p| {
                let board = to_board(p).unwrap();
                [Color::White, Color::Black]
                    .iter()
                    .all(|&c| chasolver::is_unwinnable_fast(&board, chess_color(c)))
            })
            .collect();
        assert!(fresh.iter().any(|&d| d) && fresh.iter().any(|&d| !d));
        // Twice over, in two orders: the second pass reads the memory.
        for round in 0..2 {
            for k in 0..positions.len() {
                let i = if round == 0 {
                    k
                } else {
                    positions.len() - 1 - k
                };
                let dead = is_dead_playable(&positions[i], Search::Quick);
                assert_eq!(dead, fresh[i], "position {i}, round {round}");
            }
            let held = QUICK_VERDICTS.with_borrow(|m| m.analysed.len());
            assert!((1..=ANALYSED).contains(&held), "{held}");
        }
    }

    #[test]
    fn quick_search_never_says_yes() {
        let p = pos("8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1");
        assert_eq!(can_mate(&p, Color::White, Search::Quick), Win::Undetermined);
        let p = pos("8/8/3k4/8/8/8/3K4/8 w - - 0 1");
        assert_eq!(can_mate(&p, Color::White, Search::Quick), Win::No);
    }
}
