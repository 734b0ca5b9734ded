//! Replaying a record: every position of the game with its hash.

use crate::game::board::Board;
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
    /// The token is not a move in the game's notation (else: a move, not
    /// legal or ambiguous in its position).
    pub syntax: bool,
}

/// A replayed game, ply by ply, kept compact: per ply a hash, the move,
/// its token's offset and the last irreversible ply (about 30 bytes for
/// chess), and a full position every [`CHECKPOINT`] plies. Positions are
/// rebuilt where a rule needs one ([`Replay::position`], or all in turn
/// with [`Replay::positions`]).
///
/// Ply `p` is the position after `p` half-moves from the start position;
/// `moves[p]` leads from ply `p` to ply `p + 1`.
pub struct Replay<G: Game> {
    /// The positions at plies 0, CHECKPOINT, 2 × CHECKPOINT, ...
    checkpoints: Vec<G::Position>,
    pub hashes: Vec<u64>,
    pub moves: Vec<G::Move>,
    /// Byte offsets of the recorded move tokens.
    pub offsets: Vec<usize>,
    /// `since[p]`: the first ply whose position can equal ply `p`'s (after
    /// the last irreversible move).
    since: Vec<u32>,
}

/// Plies between two stored positions: a rebuilt position costs at most
/// this many moves played.
pub const CHECKPOINT: usize = 32;

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
            checkpoints: Vec::with_capacity(n / CHECKPOINT + 1),
            hashes: Vec::with_capacity(n + 1),
            moves: Vec::with_capacity(n),
            offsets: Vec::with_capacity(n),
            since: Vec::with_capacity(n + 1),
        };
        let mut pos = start;
        let mut hash = G::hash(&pos);
        let mut since = 0;
        r.checkpoints.push(pos.clone());
        r.hashes.push(hash);
        r.since.push(0);
        for (i, tok) in tokens.iter().enumerate() {
            let m = G::parse_recorded(&pos, tok.text).map_err(|e| ReplayError {
                index: i,
                offset: tok.offset,
                syntax: matches!(e, MoveError::Syntax(_)),
                message: describe_move_error::<G>(&pos, tok.text, e),
            })?;
            if G::is_irreversible(&pos, &m) {
                since = i + 1;
            }
            hash = G::play(&mut pos, &m, hash);
            r.moves.push(m);
            r.offsets.push(tok.offset);
            if (i + 1) % CHECKPOINT == 0 {
                r.checkpoints.push(pos.clone());
            }
            r.hashes.push(hash);
            r.since.push(u32::try_from(since).unwrap_or(u32::MAX));
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

    /// The position at ply `p` (at most the last ply), rebuilt from the
    /// nearest stored position.
    pub fn position(&self, p: usize) -> G::Position {
        let p = p.min(self.len());
        let k = p / CHECKPOINT;
        let mut pos = self.checkpoints[k].clone();
        for m in &self.moves[k * CHECKPOINT..p] {
            // The hash is not needed here.
            G::play(&mut pos, m, 0);
        }
        pos
    }

    /// Every position from ply 0 to the last, in turn (one move played per
    /// step).
    pub fn positions(&self) -> impl Iterator<Item = G::Position> + '_ {
        let mut pos = Some(self.checkpoints[0].clone());
        let mut p = 0;
        std::iter::from_fn(move || {
            let current = pos.take()?;
            if p < self.len() {
                let mut next = current.clone();
                G::play(&mut next, &self.moves[p], 0);
                pos = Some(next);
            }
            p += 1;
            Some(current)
        })
    }

    /// The first ply whose position can equal ply `p`'s.
    pub fn since(&self, p: usize) -> usize {
        self.since[p] as usize
    }

    /// The move from ply `p` in the game's notation (normalised, with
    /// check marks).
    pub fn notation(&self, p: usize) -> String {
        G::notation(&self.position(p), &self.moves[p])
    }

    /// "24...Kg8": the move that produced the position at ply `p` (p ≥ 1).
    pub fn label(&self, p: usize) -> String {
        if p == 0 {
            return "the start position".to_owned();
        }
        let before = self.position(p - 1);
        numbered::<G>(&before, &G::notation(&before, &self.moves[p - 1]))
    }

    /// The plies (≤ `upto`) at which `pos` (with hash `hash`) stood, each
    /// match confirmed by comparing the positions themselves.
    pub fn occurrences(&self, pos: &G::Position, hash: u64, upto: usize) -> Vec<usize> {
        (0..=upto.min(self.len()))
            .filter(|&q| self.hashes[q] == hash && self.position(q) == *pos)
            .collect()
    }
}

/// The boards of a record at the given plies (`None` where the record
/// cannot be replayed that far: an illegal move before it, a bad start
/// position). For scan reports: only games with findings are replayed.
pub fn record_boards(
    record: &crate::record::GameRecord<'_>,
    forced: Option<crate::game::GameType>,
    column_rules: crate::game::column_draughts::Rules,
    plies: &[usize],
) -> Vec<Option<Board>> {
    let work = BoardsAt { record, plies };
    crate::game::dispatch_record(record, forced, column_rules, work)
        .unwrap_or_else(|_| vec![None; plies.len()])
}

/// [`record_boards`] for one game.
struct BoardsAt<'a, 'r> {
    record: &'a crate::record::GameRecord<'r>,
    plies: &'a [usize],
}

impl crate::game::WithGame for BoardsAt<'_, '_> {
    type Output = Vec<Option<Board>>;
    fn with<G: Game>(self, variant: G::Variant) -> Vec<Option<Board>> {
        boards_of::<G>(self.record, variant, self.plies)
    }
}

fn boards_of<G: Game>(
    record: &crate::record::GameRecord<'_>,
    variant: G::Variant,
    plies: &[usize],
) -> Vec<Option<Board>> {
    let mut out = vec![None; plies.len()];
    let Ok(mut pos) = G::start_without_notes(record, variant) else {
        return out;
    };
    let last = plies.iter().copied().max().unwrap_or(0);
    for p in 0..=last {
        for (i, &q) in plies.iter().enumerate() {
            if q == p {
                out[i] = Some(G::board(&pos));
            }
        }
        let Some(tok) = record.moves.get(p) else {
            break;
        };
        match G::parse_recorded(&pos, tok.text) {
            Ok(m) => {
                G::play(&mut pos, &m, 0);
            }
            Err(_) => break,
        }
    }
    out
}
