//! Moves: the compact move type, every legal move (the capture rules and
//! both re-jump readings), playing a move, and perft.

use super::{DIRECTIONS, Position, Rules, Square, Tower, far_rank, rank_of, step};
use crate::Side;

/// Squares a move holds inline; longer captures (more than 10 jumps) are
/// kept on the heap. 24 bytes a move either way.
const INLINE: usize = 22;

/// A move: the path of the moving tower (its square, then every landing
/// square) and the squares of the towers it jumped, in order. Two paths are
/// two moves, even when they reach the same position.
///
/// Stored as one run of squares, the path then the jumped squares: a step
/// has 2 (no jump), a capture of `n` jumps `2n + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move(Squares);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Squares {
    Inline { len: u8, sq: [Square; INLINE] },
    Heap(Box<[Square]>),
}

impl Move {
    /// A step (or a king's flight) from `from` to `to`.
    pub fn step(from: Square, to: Square) -> Move {
        Move::of(&[from, to])
    }

    /// A capture along `path` (`path.len() == captured.len() + 1`) jumping
    /// `captured`.
    pub fn capture(path: &[Square], captured: &[Square]) -> Move {
        debug_assert_eq!(path.len(), captured.len() + 1);
        Move::of(&[path, captured].concat())
    }

    fn of(all: &[Square]) -> Move {
        if all.len() > INLINE {
            return Move(Squares::Heap(all.into()));
        }
        let mut sq = [0; INLINE];
        sq[..all.len()].copy_from_slice(all);
        Move(Squares::Inline {
            len: all.len() as u8,
            sq,
        })
    }

    fn squares(&self) -> &[Square] {
        match &self.0 {
            Squares::Inline { len, sq } => &sq[..*len as usize],
            Squares::Heap(all) => all,
        }
    }

    /// The number of squares of the path.
    fn path_len(&self) -> usize {
        let n = self.squares().len();
        if n.is_multiple_of(2) { n } else { n / 2 + 1 }
    }

    /// The moving tower's square, then every landing square.
    pub fn path(&self) -> &[Square] {
        &self.squares()[..self.path_len()]
    }

    /// The squares of the towers jumped, in order (empty for a step).
    pub fn captured(&self) -> &[Square] {
        &self.squares()[self.path_len()..]
    }

    pub fn is_capture(&self) -> bool {
        !self.captured().is_empty()
    }

    pub fn from(&self) -> Square {
        self.squares()[0]
    }

    pub fn to(&self) -> Square {
        self.path()[self.path_len() - 1]
    }
}

/// The state of a capture in progress.
#[derive(Clone)]
struct Capture {
    board: [Tower; 32],
    path: Vec<Square>,
    captured: Vec<Square>,
    king: bool,
}

/// Every legal move (captures only, when any exists).
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut captures = Vec::new();
    for s in 0..32u8 {
        if pos.towers[s as usize].owner() == Some(pos.turn) {
            captures_from(pos, s, &mut captures);
        }
    }
    if !captures.is_empty() {
        return captures;
    }
    let mut quiet = Vec::new();
    for s in 0..32u8 {
        let t = pos.towers[s as usize];
        let Some(top) = t.top() else { continue };
        if top.side != pos.turn {
            continue;
        }
        for d in DIRECTIONS {
            if !top.king {
                let forward = if pos.turn == Side::White { 1 } else { -1 };
                if d.1 != forward {
                    continue;
                }
                if let Some(to) = step(s, d)
                    && pos.towers[to as usize].is_empty()
                {
                    quiet.push(Move::step(s, to));
                }
            } else {
                let mut cur = s;
                while let Some(to) = step(cur, d) {
                    if !pos.towers[to as usize].is_empty() {
                        break;
                    }
                    quiet.push(Move::step(s, to));
                    cur = to;
                }
            }
        }
    }
    quiet
}

fn captures_from(pos: &Position, from: Square, out: &mut Vec<Move>) {
    let mut board = pos.towers;
    let king = board[from as usize].top().is_some_and(|p| p.king);
    // The square the tower starts from counts as empty during the capture.
    board[from as usize] = Tower::EMPTY;
    let state = Capture {
        board,
        path: vec![from],
        captured: Vec::new(),
        king,
    };
    extend(pos, &state, out);
}

/// The jumps available from the capture's current square: (jumped square,
/// landing squares).
fn jumps(pos: &Position, c: &Capture) -> Vec<(Square, Vec<Square>)> {
    let cur = *c.path.last().unwrap_or(&0);
    let mut out = Vec::new();
    for d in DIRECTIONS {
        // Find the first occupied square along the direction.
        let mut over = step(cur, d);
        if c.king {
            while let Some(o) = over {
                if !c.board[o as usize].is_empty() {
                    break;
                }
                over = step(o, d);
            }
        }
        let Some(o) = over else { continue };
        let t = c.board[o as usize];
        if t.owner() != Some(pos.turn.other()) || !jumpable(pos, c, o) {
            continue;
        }
        let mut landings = Vec::new();
        let mut l = step(o, d);
        while let Some(sq) = l {
            if !c.board[sq as usize].is_empty() {
                break;
            }
            landings.push(sq);
            if !c.king {
                break;
            }
            l = step(sq, d);
        }
        if !landings.is_empty() {
            out.push((o, landings));
        }
    }
    out
}

/// Whether the tower on `o` may be jumped now.
fn jumpable(pos: &Position, c: &Capture, o: Square) -> bool {
    match pos.rules {
        // Jumped towers stay, and may not be jumped twice.
        Rules::Standard => !c.captured.contains(&o),
        // Not on the jump right after its previous one.
        Rules::Rejump => c.captured.last() != Some(&o),
    }
}

/// The capture after jumping `o` and landing on `l`.
fn jump(pos: &Position, c: &Capture, o: Square, l: Square) -> Capture {
    let mut next = c.clone();
    if pos.rules == Rules::Rejump {
        // The piece is taken at once.
        next.board[o as usize].pop_top();
    }
    next.captured.push(o);
    next.path.push(l);
    if !next.king && rank_of(l) == far_rank(pos.turn) {
        next.king = true;
    }
    next
}

fn extend(pos: &Position, c: &Capture, out: &mut Vec<Move>) {
    let options = jumps(pos, c);
    if options.is_empty() {
        if !c.captured.is_empty() {
            out.push(Move::capture(&c.path, &c.captured));
        }
        return;
    }
    for (o, landings) in options {
        let nexts: Vec<Capture> = landings.iter().map(|&l| jump(pos, c, o, l)).collect();
        // A king must land where the capture can go on, if it can anywhere.
        let continuing: Vec<bool> = nexts.iter().map(|n| !jumps(pos, n).is_empty()).collect();
        let any = continuing.iter().any(|&x| x);
        for (n, cont) in nexts.iter().zip(continuing) {
            if !any || cont {
                extend(pos, n, out);
            }
        }
    }
}

/// Plays a legal move.
pub fn play(pos: &mut Position, m: &Move) -> bool {
    let side = pos.turn;
    let from = m.from() as usize;
    let mut tower = pos.towers[from];
    pos.towers[from] = Tower::EMPTY;
    for &o in m.captured() {
        if let Some(p) = pos.towers[o as usize].pop_top() {
            tower.push_bottom(p);
        }
    }
    let was_king = tower.top().is_some_and(|p| p.king);
    let promoted = !was_king && m.path()[1..].iter().any(|&s| rank_of(s) == far_rank(side));
    if promoted {
        tower.crown_top();
    }
    pos.towers[m.to() as usize] = tower;
    let material_changed = m.is_capture() || promoted;
    pos.clock = if material_changed { 0 } else { pos.clock + 1 };
    if side == Side::Black {
        pos.fullmove += 1;
    }
    pos.turn = side.other();
    material_changed
}

/// Number of move sequences of `depth` plies (paths counted, as records name
/// paths).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut p = pos.clone();
            play(&mut p, m);
            perft(&p, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use crate::{fen, parse_square};

    #[test]
    fn a_move_is_24_bytes_and_keeps_long_captures() {
        assert_eq!(std::mem::size_of::<Move>(), 24);
        let step = Move::step(1, 5);
        assert_eq!((step.path(), step.captured()), (&[1, 5][..], &[][..]));
        assert!(!step.is_capture());
        for n in 1..=14u8 {
            let path: Vec<Square> = (0..=n).collect();
            let captured: Vec<Square> = (16..16 + n).collect();
            let m = Move::capture(&path, &captured);
            assert_eq!(m.path(), &path[..]);
            assert_eq!(m.captured(), &captured[..]);
            assert_eq!((m.from(), m.to()), (0, n));
            assert!(m.is_capture());
        }
    }

    #[test]
    fn start_position_moves() {
        let p = Position::start(Rules::Standard);
        let mut names: Vec<String> = legal_moves(&p).iter().map(|m| m.to_string()).collect();
        names.sort();
        assert_eq!(
            names,
            [
                "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"
            ]
        );
    }

    #[test]
    fn a_capture_puts_the_piece_under_the_tower() {
        let mut p = Position::start(Rules::Standard);
        for t in ["c3-d4", "f6-e5"] {
            let m = parse_move(&p, t).unwrap();
            play(&mut p, &m);
        }
        let m = parse_move(&p, "d4:f6").unwrap();
        assert_eq!(m.captured(), [parse_square("e5").unwrap()]);
        play(&mut p, &m);
        let f6 = p.towers[parse_square("f6").unwrap() as usize];
        assert_eq!(fen::stack(&f6), "wb");
        assert!(p.towers[parse_square("e5").unwrap() as usize].is_empty());
        // Black must take back: the white tower's top, leaving a black tower.
        let mut legal: Vec<String> = legal_moves(&p).iter().map(|m| m.to_string()).collect();
        legal.sort();
        assert_eq!(legal, ["e7:g5", "g7:e5"]);
        let m = parse_move(&p, "g7:e5").unwrap();
        play(&mut p, &m);
        assert_eq!(
            fen::stack(&p.towers[parse_square("e5").unwrap() as usize]),
            "bw"
        );
        assert_eq!(
            fen::stack(&p.towers[parse_square("f6").unwrap() as usize]),
            "b"
        );
    }
}
