//! Shorter helpmates for a report that shows them. The analyser's line
//! proves that a side can still mate, and it may wander (36 moves for
//! K+N v K+N, knights stepping out and back); an arbiter follows a short
//! one. Only the line changes here, never a verdict: every line returned
//! is replayed and ends in the side's checkmate, or the analyser's line
//! stays.
//!
//! The search, bounded by [`NODE_BUDGET`] positions in all: from the start
//! and from every position on the line, every sequence of up to `depth`
//! plies (1, 2, 3, then 4 and again while it gains) is tried; one that
//! checkmates, or reaches a later position of the line in fewer plies than
//! the line takes, is a shortcut. The shortest chain of shortcuts is the
//! new line, and the next round starts from it. From the start this is
//! iterative deepening, so a mate within 4 plies is always the one shown.
//! Hand-written: chasolver 3.0.0 exposes only its whole search, not a depth
//! or budget of its own to ask for.
//!
//! Positions are the `chess` crate's boards (what the analyser works on,
//! and built with optimisation in debug builds too).

use chess::{Board, ChessMove, EMPTY, MoveGen};
use rustc_hash::{FxHashMap, FxHashSet};
use shakmaty::{Chess, Color, Position, san::SanPlus};

/// Positions the search may visit for one line, over all its rounds: a few
/// milliseconds.
pub(crate) const NODE_BUDGET: usize = 200_000;

/// Deepest shortcut tried, in plies.
const MAX_DEPTH: u32 = 4;

/// `line` (SAN, from `pos`, ending in `side`'s checkmate) as short as the
/// bounded search makes it. The line as given when it cannot be read, or
/// when the position cannot go to the analyser's board (Chess960 castling).
pub fn shorten(pos: &Chess, side: Color, line: Vec<String>) -> Vec<String> {
    shorten_within(pos, side, line, NODE_BUDGET)
}

/// [`shorten`] with `budget` positions to visit.
fn shorten_within(pos: &Chess, side: Color, line: Vec<String>, budget: usize) -> Vec<String> {
    let Some(start) = super::to_board(pos) else {
        return line;
    };
    let Some(mut moves) = chess_moves(pos, &line) else {
        return line;
    };
    let winner = super::chess_color(side);
    let mut budget = budget;
    // A short mate from the start first: breadth first, so the first found
    // is the shortest (within half the budget).
    let mut first = budget / 2;
    let start_line = [start];
    let index = FxHashMap::from_iter([(start.get_hash(), 0)]);
    let from_start = Line {
        boards: &start_line,
        index: &index,
    };
    let mate = shortcuts(&from_start, 0, winner, MAX_DEPTH, &mut first)
        .into_iter()
        .find(|(to, path)| to.is_none() && path.len() < moves.len());
    budget -= budget / 2 - first;
    if let Some((_, path)) = mate {
        moves = path;
    }
    // Then shortcuts along the line: each depth again while it gains.
    for depth in 1..=MAX_DEPTH {
        while budget > 0 {
            let before = moves.len();
            moves = round(start, &moves, winner, depth, &mut budget);
            if moves.len() >= before {
                break;
            }
        }
    }
    match super::helpmate_san(pos, &moves) {
        Some(san) if san.len() < line.len() => san,
        _ => line,
    }
}

/// The line's moves on the analyser's board, each checked legal there.
fn chess_moves(pos: &Chess, line: &[String]) -> Option<Vec<ChessMove>> {
    let mut p = pos.clone();
    let mut board = super::to_board(pos)?;
    let mut out = Vec::with_capacity(line.len());
    for san in line {
        let m = san.parse::<SanPlus>().ok()?.san.to_move(&p).ok()?;
        let uci = m.to_uci(shakmaty::CastlingMode::Standard).to_string();
        let cm = uci.parse::<ChessMove>().ok()?;
        if !board.legal(cm) {
            return None;
        }
        board = board.make_move_new(cm);
        p.play_unchecked(m);
        out.push(cm);
    }
    Some(out)
}

/// How the search reached a position of the line (or the mate): from
/// which earlier one, in how many plies in all, by which moves.
#[derive(Clone)]
struct Best {
    plies: usize,
    from: usize,
    moves: Vec<ChessMove>,
}

/// One round: shortcuts of up to `depth` plies from every position of the
/// line, and the shortest chain of them (the line itself when none).
fn round(
    start: Board,
    line: &[ChessMove],
    winner: chess::Color,
    depth: u32,
    budget: &mut usize,
) -> Vec<ChessMove> {
    let mut boards = Vec::with_capacity(line.len() + 1);
    boards.push(start);
    for &m in line {
        boards.push(boards[boards.len() - 1].make_move_new(m));
    }
    let n = line.len();
    // A position met twice stands for its last visit (a cycle cut out).
    // By the boards' Zobrist hashes; a match is confirmed on the board.
    let index: FxHashMap<u64, usize> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| (b.get_hash(), i))
        .collect();
    // best[j]: the shortest way found to position j; best[n + 1]: to a mate.
    let mut best: Vec<Best> = (0..=n + 1)
        .map(|j| Best {
            plies: if j == 0 { 0 } else { usize::MAX },
            from: 0,
            moves: Vec::new(),
        })
        .collect();
    for i in 0..n {
        // A position the line comes back to: the cycle is cut out.
        if let Some(j) = on_line(&index, &boards, &boards[i]).filter(|&j| j > i) {
            improve(&mut best, j, i, Vec::new());
        }
        if *budget > 0 {
            let line = Line {
                boards: &boards,
                index: &index,
            };
            for (to, path) in shortcuts(&line, i, winner, depth, budget) {
                improve(&mut best, to.unwrap_or(n + 1), i, path);
            }
        }
        improve(&mut best, i + 1, i, vec![line[i]]);
    }
    let target = if best[n + 1].plies < best[n].plies {
        n + 1
    } else {
        n
    };
    chain(&best, target)
}

/// The line's positions, and where each stands on it.
struct Line<'a> {
    boards: &'a [Board],
    index: &'a FxHashMap<u64, usize>,
}

/// Where `board` stands on the line (its last visit).
fn on_line(index: &FxHashMap<u64, usize>, boards: &[Board], board: &Board) -> Option<usize> {
    let j = *index.get(&board.get_hash())?;
    (boards.get(j) == Some(board)).then_some(j)
}

/// Takes the way to `to` through `from` by `moves` when it is shorter.
fn improve(best: &mut [Best], to: usize, from: usize, moves: Vec<ChessMove>) {
    let (Some(f), Some(t)) = (best.get(from), best.get(to)) else {
        return;
    };
    let plies = f.plies.saturating_add(moves.len());
    if plies < t.plies {
        best[to] = Best { plies, from, moves };
    }
}

/// The moves from the start to `target`, following `from` back.
fn chain(best: &[Best], mut target: usize) -> Vec<ChessMove> {
    let mut pieces = Vec::new();
    while target > 0 {
        let Some(b) = best.get(target) else { break };
        pieces.push(b.moves.clone());
        target = b.from;
    }
    pieces.into_iter().rev().flatten().collect()
}

/// One position the breadth-first search reached: its board, the node it
/// came from and the move.
struct Node {
    board: Board,
    parent: usize,
    mv: ChessMove,
}

/// Every sequence of at most `depth` plies from `from` (line position `i`)
/// that mates (`None`) or reaches a line position later than `i` plus its
/// length (`Some(j)`), the first (shortest) for each.
fn shortcuts(
    line: &Line<'_>,
    i: usize,
    winner: chess::Color,
    depth: u32,
    budget: &mut usize,
) -> Vec<(Option<usize>, Vec<ChessMove>)> {
    let Some(&from) = line.boards.get(i) else {
        return Vec::new();
    };
    let mut nodes = vec![Node {
        board: from,
        parent: 0,
        mv: ChessMove::default(),
    }];
    let mut seen = FxHashSet::default();
    seen.insert(from.get_hash());
    let mut found = Vec::new();
    let mut level = 0..1;
    for plies in 1..=depth as usize {
        let end = nodes.len();
        for at in level.clone() {
            let board = nodes[at].board;
            for m in MoveGen::new_legal(&board) {
                if *budget == 0 {
                    return found;
                }
                *budget -= 1;
                let next = board.make_move_new(m);
                if !seen.insert(next.get_hash()) {
                    continue;
                }
                nodes.push(Node {
                    board: next,
                    parent: at,
                    mv: m,
                });
                let mate = next.side_to_move() != winner
                    && *next.checkers() != EMPTY
                    && MoveGen::new_legal(&next).len() == 0;
                let later = on_line(line.index, line.boards, &next).filter(|&j| j > i + plies);
                if mate || later.is_some() {
                    found.push((later, path(&nodes, nodes.len() - 1)));
                }
            }
        }
        level = end..nodes.len();
    }
    found
}

/// The moves from the search's root to node `at`.
fn path(nodes: &[Node], mut at: usize) -> Vec<ChessMove> {
    let mut out = Vec::new();
    while at > 0 {
        let Some(n) = nodes.get(at) else { break };
        out.push(n.mv);
        at = n.parent;
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Search, Win};

    fn analysed(fen: &str, side: Color) -> (Chess, Vec<String>) {
        let p = super::super::position_from_fen(fen).unwrap();
        let Win::Yes { helpmate } = super::super::can_mate(&p, side, Search::Full) else {
            panic!("{fen}: no helpmate for {side:?}")
        };
        (p, helpmate)
    }

    /// Replays `line` from `pos`: legal SAN, ending in `side`'s mate.
    fn mates(pos: &Chess, side: Color, line: &[String]) -> bool {
        let mut p = pos.clone();
        for san in line {
            let m = san.parse::<SanPlus>().unwrap().san.to_move(&p).unwrap();
            p.play_unchecked(m);
        }
        p.is_checkmate() && p.turn() != side
    }

    #[test]
    fn knights_mate_in_far_fewer_moves_than_the_analyser_wanders() {
        // The analyser's lines: 71 and 54 plies (36 and 27 moves).
        let fen = "8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1";
        for side in [Color::White, Color::Black] {
            let (p, line) = analysed(fen, side);
            let short = shorten(&p, side, line.clone());
            assert!(
                short.len() <= 30,
                "{side:?}: {} plies: {short:?}",
                short.len()
            );
            assert!(short.len() < line.len());
            assert!(mates(&p, side, &short), "{short:?}");
        }
    }

    #[test]
    fn a_short_mate_from_the_start_is_the_one_shown() {
        // From the initial position the analyser's line for Black is 80
        // plies and more; the fool's mate takes 4, and none takes fewer.
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (p, line) = analysed(fen, Color::Black);
        assert!(line.len() > 4, "{line:?}");
        let short = shorten(&p, Color::Black, line);
        assert_eq!(short.len(), 4, "{short:?}");
        assert!(mates(&p, Color::Black, &short), "{short:?}");
        // A mate in one stays one move.
        let fen = "7k/8/6K1/8/8/8/8/R7 w - - 0 1";
        let (p, line) = analysed(fen, Color::White);
        assert_eq!(shorten(&p, Color::White, line), ["Ra8#"]);
    }

    #[test]
    fn a_line_that_cannot_be_read_stays_as_given() {
        let p = Chess::default();
        let line = vec!["e5".to_owned(), "Qh4#".to_owned()];
        assert_eq!(shorten(&p, Color::Black, line.clone()), line);
    }
}
