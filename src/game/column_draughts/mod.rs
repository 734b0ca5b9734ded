//! Russian column draughts (столбовые шашки, "bashni"), as
//! `../shared/notes/column-draughts.md` sets out the rules.
//!
//! - 32 dark squares (a1 dark), 12 men a side, White first.
//! - Every occupied square holds a [`Tower`]; its top piece decides the
//!   owner and how it moves; a king buried in a tower stays a king.
//! - Men step diagonally forward, capture forward and backward; kings fly.
//!   Capturing is compulsory, with free choice of sequence; a started
//!   sequence must be completed; a flying king must land where the capture
//!   can continue if it can; a man reaching the far rank during a capture
//!   becomes a king and goes on as a king.
//! - A capture takes the top piece of the jumped tower and puts it at the
//!   bottom of the capturing tower (each taken piece below the previous one);
//!   what is left of the jumped tower stays, owned by its new top.
//! - Jumping the same tower twice in one move: by default not (jumped towers
//!   stay in place, blocking, until the move ends); [`Rules::Rejump`] takes
//!   each piece at once and allows a tower to be jumped again, but never on
//!   the jump right after its previous one.
//!
//! Notation: `c3-d4` for a step, `c3:e5:g3` for a capture with every landing
//! square (or only its ends, `c3:g3`, when that is unambiguous).
//!
//! ```
//! use verify_claim::game::{Game, column_draughts::{ColumnDraughts, Position}};
//! let start = Position::start(Default::default());
//! assert_eq!(ColumnDraughts::legal_moves(&start).len(), 7);
//! let m = ColumnDraughts::parse_recorded(&start, "c3-d4").unwrap();
//! assert_eq!(ColumnDraughts::notation(&start, &m), "c3-d4");
//! ```

pub mod dead;
pub mod fen;

use std::fmt;

use super::{Difference, Ending, Game, GameType, MoveError, Search, Side, Win};
use crate::record::GameRecord;

/// Which reading of the re-jump rule applies (`--column-rules`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rules {
    /// Each tower may be jumped at most once per move; jumped towers stay in
    /// place, blocking, until the move ends (as in Russian draughts).
    #[default]
    Standard,
    /// Captures take effect at once; a tower may be jumped again (not on the
    /// jump right after its previous one) while an enemy piece is on top.
    Rejump,
}

/// A square, 0..32: rank-major from a1 (a1 = 0, c1 = 1, ..., h8 = 31).
pub type Square = u8;

pub fn file_of(s: Square) -> i8 {
    let r = (s / 4) as i8;
    2 * (s % 4) as i8 + (r % 2)
}

pub fn rank_of(s: Square) -> i8 {
    (s / 4) as i8
}

/// The square at (file, rank), if it is a dark square on the board.
pub fn square_at(file: i8, rank: i8) -> Option<Square> {
    if !(0..8).contains(&file) || !(0..8).contains(&rank) || (file + rank) % 2 != 0 {
        return None;
    }
    Some((rank * 4 + file / 2) as Square)
}

pub fn square_name(s: Square) -> String {
    format!("{}{}", (b'a' + file_of(s) as u8) as char, rank_of(s) + 1)
}

/// Reads "c3" (a dark square); `None` otherwise.
pub fn parse_square(t: &str) -> Option<Square> {
    let b = t.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    square_at((b[0] - b'a') as i8, (b[1] - b'1') as i8)
}

const DIRECTIONS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn step(s: Square, d: (i8, i8)) -> Option<Square> {
    square_at(file_of(s) + d.0, rank_of(s) + d.1)
}

fn far_rank(side: Side) -> i8 {
    match side {
        Side::White => 7,
        Side::Black => 0,
    }
}

/// A tower: pieces from top (bit 0) to bottom. `white` and `kings` are
/// bitmasks over the `len` pieces. An empty square is a tower of length 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tower {
    len: u8,
    white: u32,
    kings: u32,
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

    fn pop_top(&mut self) -> Option<Piece> {
        let p = self.top()?;
        self.white >>= 1;
        self.kings >>= 1;
        self.len -= 1;
        Some(p)
    }

    fn push_bottom(&mut self, p: Piece) {
        if p.side == Side::White {
            self.white |= 1 << self.len;
        }
        if p.king {
            self.kings |= 1 << self.len;
        }
        self.len += 1;
    }

    fn crown_top(&mut self) {
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
    fn hash(&self, sq: Square) -> u64 {
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

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

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

/// A move: the path of the moving tower (its square, then every landing
/// square) and the squares of the towers it jumped, in order. Two paths are
/// two moves, even when they reach the same position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub path: Vec<Square>,
    pub captured: Vec<Square>,
}

impl Move {
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    pub fn from(&self) -> Square {
        self.path[0]
    }

    pub fn to(&self) -> Square {
        self.path[self.path.len() - 1]
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { ":" } else { "-" };
        let names: Vec<String> = self.path.iter().map(|&s| square_name(s)).collect();
        f.write_str(&names.join(sep))
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
                    quiet.push(Move {
                        path: vec![s, to],
                        captured: Vec::new(),
                    });
                }
            } else {
                let mut cur = s;
                while let Some(to) = step(cur, d) {
                    if !pos.towers[to as usize].is_empty() {
                        break;
                    }
                    quiet.push(Move {
                        path: vec![s, to],
                        captured: Vec::new(),
                    });
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
            out.push(Move {
                path: c.path.clone(),
                captured: c.captured.clone(),
            });
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
    for &o in &m.captured {
        if let Some(p) = pos.towers[o as usize].pop_top() {
            tower.push_bottom(p);
        }
    }
    let was_king = tower.top().is_some_and(|p| p.king);
    let promoted = !was_king && m.path[1..].iter().any(|&s| rank_of(s) == far_rank(side));
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

fn rules_note(rules: Rules) -> Vec<String> {
    vec![match rules {
        Rules::Standard => "re-jump rule: a tower may be jumped at most once per move (the default reading)".to_owned(),
        Rules::Rejump => "re-jump rule: captures take effect at once and a tower may be jumped again (--column-rules rejump)".to_owned(),
    }]
}

/// Column draughts as a [`Game`].
pub struct ColumnDraughts;

fn full_hash(pos: &Position) -> u64 {
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

/// Explains why a written or recorded move is not legal, naming the rule.
fn explain(
    pos: &Position,
    text: &str,
    squares: &[Square],
    capture: bool,
    legal: &[Move],
) -> MoveError {
    let from = squares[0];
    let Some(top) = pos.towers[from as usize].top() else {
        return MoveError::Illegal(format!(
            "'{text}' is illegal: there is no tower on {}",
            square_name(from)
        ));
    };
    if top.side != pos.turn {
        return MoveError::Illegal(format!(
            "'{text}' is illegal: the tower on {} is {}'s, and {} is to move",
            square_name(from),
            top.side.title(),
            pos.turn.title()
        ));
    }
    let any_capture = legal.first().is_some_and(Move::is_capture);
    let list = |ms: Vec<&Move>| {
        ms.iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !capture && any_capture {
        return MoveError::Illegal(format!(
            "'{text}' is illegal: capturing is compulsory (possible: {})",
            list(legal.iter().collect())
        ));
    }
    if capture {
        // A capture stopped while it could go on.
        let longer: Vec<&Move> = legal
            .iter()
            .filter(|m| m.path.len() > squares.len() && m.path.starts_with(squares))
            .collect();
        if !longer.is_empty() {
            return MoveError::Illegal(format!(
                "'{text}' is illegal: a started capture must be completed (it goes on: {})",
                list(longer)
            ));
        }
        // A king landing where the capture cannot continue when it could.
        if top.king || squares.len() > 2 {
            let same_start: Vec<&Move> = legal.iter().filter(|m| m.from() == from).collect();
            if !same_start.is_empty() {
                return MoveError::Illegal(format!(
                    "'{text}' is illegal: no capture follows that path (a king must land where the capture can go on, if it can; the captures from {} are: {})",
                    square_name(from),
                    list(same_start)
                ));
            }
        }
        return MoveError::Illegal(format!(
            "'{text}' is illegal: no capture from {} follows that path{}",
            square_name(from),
            if any_capture {
                format!(" (possible: {})", list(legal.iter().collect()))
            } else {
                " (there is nothing to capture)".to_owned()
            }
        ));
    }
    let to = squares[squares.len() - 1];
    if !top.king {
        let forward = if pos.turn == Side::White { 1 } else { -1 };
        if (rank_of(to) - rank_of(from)).signum() == -forward {
            return MoveError::Illegal(format!(
                "'{text}' is illegal: a man moves only forward (it captures backward, but steps forward)"
            ));
        }
        return MoveError::Illegal(format!(
            "'{text}' is illegal: a man steps one square diagonally forward to an empty square"
        ));
    }
    MoveError::Illegal(format!(
        "'{text}' is illegal: a king moves along a diagonal over empty squares, and {} is not such a square from {}",
        square_name(to),
        square_name(from)
    ))
}

/// Reads `c3-d4`, `c3:e5:g3`, or `c3:g3` (ends only, when unambiguous).
fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let capture = t.contains(':') || t.contains('x');
    let parts: Vec<&str> = t.split([':', '-', 'x']).collect();
    let squares: Option<Vec<Square>> = parts.iter().map(|p| parse_square(p)).collect();
    let Some(squares) = squares.filter(|s| s.len() >= 2) else {
        return Err(MoveError::Syntax(format!(
            "'{text}' is not a column-draughts move (write c3-d4, or c3:e5:g3 for a capture)"
        )));
    };
    if capture && t.contains('-') {
        return Err(MoveError::Syntax(format!("'{text}' mixes '-' and ':'")));
    }
    let legal = legal_moves(pos);
    let exact: Vec<&Move> = legal
        .iter()
        .filter(|m| m.path == squares && m.is_capture() == capture)
        .collect();
    if let [m] = exact.as_slice() {
        return Ok((*m).clone());
    }
    if capture && squares.len() == 2 {
        let ends: Vec<&Move> = legal
            .iter()
            .filter(|m| m.is_capture() && m.from() == squares[0] && m.to() == squares[1])
            .collect();
        match ends.as_slice() {
            [m] => return Ok((*m).clone()),
            [] => {}
            many => {
                let paths: Vec<String> = many.iter().map(|m| m.to_string()).collect();
                return Err(MoveError::Ambiguous(format!(
                    "'{text}' is ambiguous: several capture paths join those squares: {}",
                    paths.join(", ")
                )));
            }
        }
    }
    Err(explain(pos, text, &squares, capture, &legal))
}

impl Game for ColumnDraughts {
    type Position = Position;
    type Move = Move;
    type Variant = Rules;

    const TYPE: GameType = GameType::ColumnDraughts;

    fn start_position(
        record: &GameRecord<'_>,
        rules: Rules,
    ) -> Result<(Position, Vec<String>), (usize, String)> {
        match record.tag_entry("FEN") {
            None => Ok((Position::start(rules), rules_note(rules))),
            Some(tag) => {
                let pos = fen::parse(&tag.value, rules).map_err(|e| (tag.offset, e))?;
                let note = format!(
                    "the game starts from the position {}; positions before it are unknown and count for nothing",
                    fen::write(&pos)
                );
                let mut notes = rules_note(rules);
                notes.push(note);
                Ok((pos, notes))
            }
        }
    }

    fn hash(pos: &Position) -> u64 {
        full_hash(pos)
    }

    fn play(pos: &mut Position, m: &Move, hash: u64) -> u64 {
        // Incremental: only the squares the move touched change.
        let mut h = hash ^ WHITE_TO_MOVE;
        let touched: Vec<Square> = m
            .captured
            .iter()
            .copied()
            .chain([m.from(), m.to()])
            .collect();
        let mut seen: Vec<Square> = Vec::with_capacity(touched.len());
        for &s in &touched {
            if !seen.contains(&s) {
                seen.push(s);
                h ^= pos.towers[s as usize].hash(s);
            }
        }
        play(pos, m);
        for &s in &seen {
            h ^= pos.towers[s as usize].hash(s);
        }
        h
    }

    fn legal_moves(pos: &Position) -> Vec<Move> {
        legal_moves(pos)
    }

    fn parse_recorded(pos: &Position, text: &str) -> Result<Move, MoveError> {
        parse_move(pos, text)
    }

    fn parse_written(pos: &Position, text: &str) -> Result<Move, MoveError> {
        parse_move(pos, text)
    }

    fn notation(_pos: &Position, m: &Move) -> String {
        m.to_string()
    }

    fn is_irreversible(_pos: &Position, _m: &Move) -> bool {
        // Kings move back and forth and captures only move pieces between
        // towers: nothing is provably irreversible, so the repetition
        // history keeps every position of the game (records are short).
        false
    }

    fn resets_count(pos: &Position, m: &Move) -> bool {
        let mut p = pos.clone();
        play(&mut p, m)
    }

    fn count_clock(pos: &Position) -> u32 {
        pos.clock
    }

    fn insufficient_material(_pos: &Position) -> bool {
        false
    }

    fn can_mate(pos: &Position, side: Side, search: Search) -> Win {
        dead::can_win(pos, side, search)
    }

    fn is_dead_playable(pos: &Position, search: Search) -> bool {
        dead::is_dead_playable(pos, search)
    }

    fn ending(pos: &Position) -> Option<Ending> {
        legal_moves(pos).is_empty().then_some(Ending::NoMoves)
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.turn
    }

    fn move_number(pos: &Position) -> u32 {
        pos.fullmove
    }

    fn fen(pos: &Position) -> String {
        fen::write(pos)
    }

    fn board(pos: &Position) -> crate::game::board::Board {
        crate::game::board::column_draughts(pos)
    }

    fn diagram(pos: &Position) -> String {
        let mut out = String::new();
        let mut legend = Vec::new();
        for rank in (0..8i8).rev() {
            out.push_str(&format!("  {} ", rank + 1));
            for file in 0..8i8 {
                let cell = match square_at(file, rank) {
                    None => "  ".to_owned(),
                    Some(s) => {
                        let t = pos.towers[s as usize];
                        match t.top() {
                            None => " .".to_owned(),
                            Some(p) => {
                                if t.len() > 1 {
                                    legend.push(format!("{}={}", square_name(s), fen::stack(&t)));
                                }
                                format!(" {}", fen::piece_char(p))
                            }
                        }
                    }
                };
                out.push_str(&cell);
            }
            out.push('\n');
        }
        out.push_str("     a b c d e f g h\n");
        if !legend.is_empty() {
            out.push_str(&format!("  towers (top first): {}\n", legend.join(" ")));
        }
        out
    }

    fn difference(a: &Position, b: &Position) -> Option<Difference> {
        (a.towers == b.towers && a.turn != b.turn).then(|| Difference {
            reason: "the other side was to move".to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares() {
        assert_eq!(parse_square("a1"), Some(0));
        assert_eq!(parse_square("c1"), Some(1));
        assert_eq!(parse_square("b2"), Some(4));
        assert_eq!(parse_square("h8"), Some(31));
        assert_eq!(parse_square("a2"), None);
        for s in 0..32 {
            assert_eq!(parse_square(&square_name(s)), Some(s));
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
        assert_eq!(m.captured, vec![parse_square("e5").unwrap()]);
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

    #[test]
    fn incremental_hash_equals_full_hash() {
        let mut p = Position::start(Rules::Standard);
        let mut h = ColumnDraughts::hash(&p);
        let mut x: u64 = 7;
        for _ in 0..200 {
            let moves = legal_moves(&p);
            if moves.is_empty() {
                break;
            }
            x = splitmix64(x);
            let m = &moves[(x % moves.len() as u64) as usize];
            h = ColumnDraughts::play(&mut p, m, h);
            assert_eq!(h, ColumnDraughts::hash(&p));
        }
    }
}
