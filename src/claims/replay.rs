//! Replaying a record: every position of the game with its hash.

use crate::game::{Game, MoveError, Side};
use crate::record::MoveToken;

/// A recorded move that could not be played.
#[derive(Clone, Debug)]
pub struct ReplayError {
    /// Index of the move in the record (0-based: the ply it starts from).
    pub index: usize,
    /// Byte offset of the move token.
    pub offset: usize,
    pub message: String,
}

/// Every position of a game, ply by ply.
///
/// `positions[p]` is the position after `p` half-moves from the start
/// position; `moves[p]` leads from `positions[p]` to `positions[p + 1]`.
pub struct Replay<G: Game> {
    pub positions: Vec<G::Position>,
    pub hashes: Vec<u64>,
    pub moves: Vec<G::Move>,
    /// The moves in the game's notation (normalised, with check marks).
    pub notation: Vec<String>,
    /// Byte offsets of the recorded move tokens.
    pub offsets: Vec<usize>,
    /// `since[p]`: the first ply whose position can equal `positions[p]`
    /// (after the last irreversible move).
    pub since: Vec<usize>,
}

/// The error for a recorded move that cannot be played: the move with its
/// number and, when it is a move but not a legal one, the position's FEN.
pub fn describe_move_error<G: Game>(pos: &G::Position, text: &str, e: MoveError) -> String {
    let label = numbered::<G>(pos, text);
    match e {
        MoveError::Syntax(s) => s,
        MoveError::Illegal(s) => format!("illegal move {label}: {s}; position {}", G::fen(pos)),
        MoveError::Ambiguous(s) => format!("ambiguous move {label}: {s}; position {}", G::fen(pos)),
    }
}

/// "31.Nf3" or "31...Kg8": a move with its number, as arbiters write it.
pub fn numbered<G: Game>(before: &G::Position, notation: &str) -> String {
    let n = G::move_number(before);
    match G::side_to_move(before) {
        Side::White => format!("{n}.{notation}"),
        Side::Black => format!("{n}...{notation}"),
    }
}

impl<G: Game> Replay<G> {
    /// Plays the recorded moves from `start`. The first move that cannot be
    /// played is an error naming it with its number and the position's FEN.
    pub fn new(start: G::Position, tokens: &[MoveToken<'_>]) -> Result<Replay<G>, ReplayError> {
        let n = tokens.len();
        let mut r = Replay {
            hashes: Vec::with_capacity(n + 1),
            positions: Vec::with_capacity(n + 1),
            moves: Vec::with_capacity(n),
            notation: Vec::with_capacity(n),
            offsets: Vec::with_capacity(n),
            since: Vec::with_capacity(n + 1),
        };
        let mut pos = start;
        let mut hash = G::hash(&pos);
        let mut since = 0;
        r.positions.push(pos.clone());
        r.hashes.push(hash);
        r.since.push(0);
        for (i, tok) in tokens.iter().enumerate() {
            let m = G::parse_recorded(&pos, tok.text).map_err(|e| ReplayError {
                index: i,
                offset: tok.offset,
                message: describe_move_error::<G>(&pos, tok.text, e),
            })?;
            r.notation.push(G::notation(&pos, &m));
            if G::is_irreversible(&pos, &m) {
                since = i + 1;
            }
            hash = G::play(&mut pos, &m, hash);
            r.moves.push(m);
            r.offsets.push(tok.offset);
            r.positions.push(pos.clone());
            r.hashes.push(hash);
            r.since.push(since);
        }
        Ok(r)
    }

    /// Number of plies in the record.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// "24...Kg8": the move that produced the position at ply `p` (p ≥ 1).
    pub fn label(&self, p: usize) -> String {
        if p == 0 {
            return "the start position".to_owned();
        }
        numbered::<G>(&self.positions[p - 1], &self.notation[p - 1])
    }

    /// The plies (≤ `upto`) at which `pos` (with hash `hash`) stood, each
    /// match confirmed by comparing the positions themselves.
    pub fn occurrences(&self, pos: &G::Position, hash: u64, upto: usize) -> Vec<usize> {
        (0..=upto.min(self.len()))
            .filter(|&q| self.hashes[q] == hash && self.positions[q] == *pos)
            .collect()
    }
}
