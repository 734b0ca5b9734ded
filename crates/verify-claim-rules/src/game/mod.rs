//! The rules of play, behind one trait: everything the claim engine needs
//! to know about a game, and nothing about claims.
//!
//! [`chess`] implements it with shakmaty. A second game (column draughts)
//! implements the same trait; the claim engine in [`crate::claims`] and the
//! printers in [`crate::report`] are written once over it.

pub mod board;
pub mod chess;
pub mod column_draughts;

pub use column_draughts::{MoveError, Search, Side, Win};

column_draughts::named! {
    /// Which game a record is of.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum GameType {
        /// Chess, under the FIDE Laws.
        Chess = "chess",
        /// Russian column draughts (bashni).
        ColumnDraughts = "column-draughts",
    }
}

impl GameType {
    /// What a side must still be able to do for a position not to be dead,
    /// as a verb, its past and a noun: chess "checkmate", column draughts
    /// "win" (leave the opponent without a move, 1.11).
    pub fn win_words(self) -> (&'static str, &'static str, &'static str) {
        match self {
            GameType::Chess => ("checkmate", "checkmated", "checkmate"),
            GameType::ColumnDraughts => ("win", "won", "a win"),
        }
    }
}

/// Which game a record is of: from its `GameType` or `Variant` tag (PDN
/// has no number for column draughts, so any value naming it counts:
/// "column draughts", "bashni", "столбовые шашки"), unless `forced`.
/// A record naming another draughts game is an error.
pub fn detect(
    record: &crate::record::GameRecord<'_>,
    forced: Option<GameType>,
) -> Result<GameType, (usize, String)> {
    if let Some(g) = forced {
        return Ok(g);
    }
    let names_column = |v: &str| {
        let v = v.to_lowercase();
        v.contains("column") || v.contains("bashni") || v.contains("столбов") || v.contains("башни")
    };
    for tag in ["GameType", "Variant"] {
        if let Some(t) = record.tag_entry(tag) {
            if names_column(&t.value) {
                return Ok(GameType::ColumnDraughts);
            }
            let v = t.value.trim().to_lowercase();
            if tag == "GameType" && !(v.is_empty() || v == "0" || v.starts_with("chess")) {
                return Err((
                    t.offset,
                    format!(
                        "GameType \"{}\" is neither chess nor column draughts, the two games verify-claim decides",
                        t.value
                    ),
                ));
            }
        }
    }
    Ok(GameType::Chess)
}

/// Work written once over [`Game`] and run for the game a record is of:
/// the one place where a [`GameType`] becomes a typed engine (claims,
/// scans, position checks, the watch view and the scan's diagrams all go
/// through [`dispatch`]). A trait, not a closure: Rust closures cannot be
/// generic over the game.
pub trait WithGame {
    type Output;
    /// Runs with the game `G` and its rules of play (`variant`: column
    /// draughts' re-jump reading; `()` for chess).
    fn with<G: Game>(self, variant: G::Variant) -> Self::Output;
}

/// Runs `work` with the typed engine of `game`.
pub fn dispatch<W: WithGame>(
    game: GameType,
    column_rules: column_draughts::Rules,
    work: W,
) -> W::Output {
    match game {
        GameType::Chess => work.with::<chess::ChessGame>(()),
        GameType::ColumnDraughts => work.with::<column_draughts::ColumnDraughts>(column_rules),
    }
}

/// Runs `work` with the engine of the game `record` is of ([`detect`]:
/// `forced`, else its tags); the error of a record naming another game.
pub fn dispatch_record<W: WithGame>(
    record: &crate::record::GameRecord<'_>,
    forced: Option<GameType>,
    column_rules: column_draughts::Rules,
    work: W,
) -> Result<W::Output, (usize, String)> {
    Ok(dispatch(detect(record, forced)?, column_rules, work))
}

column_draughts::named! {
    /// How a game ends by the position alone (not by a claim).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Ending {
        /// Chess: the side to move is checkmated.
        Checkmate = "checkmate",
        /// Chess: the side to move has no legal move and is not in check.
        Stalemate = "stalemate",
        /// Chess: neither side has mating material (the simple dead position).
        InsufficientMaterial = "insufficient-material",
        /// Draughts: the side to move has no piece on top or cannot move (1.12).
        NoMoves = "no-moves",
    }
}

/// The ways two positions with the same arrangement of pieces can still be
/// different positions under the rules (a near miss for repetition).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Difference {
    pub reason: String,
}

/// Both sides' chances to checkmate: a dead position when neither has one.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DeadCheck {
    /// How hard it looked.
    pub search: Search,
    /// Whether White can still checkmate (column draughts: still win).
    pub white: Win,
    /// Whether Black can.
    pub black: Win,
    /// The position (FEN) White's and Black's helpmates end in, where a
    /// report shows the lines ([`DeadCheck::shown`]); not in the JSON.
    #[serde(skip)]
    pub ends: [Option<String>; 2],
}

impl DeadCheck {
    /// Dead: neither side can mate. `None`: undetermined.
    pub fn dead(&self) -> Option<bool> {
        match (self.white.as_bool(), self.black.as_bool()) {
            (Some(true), _) | (_, Some(true)) => Some(false),
            (Some(false), Some(false)) => Some(true),
            _ => None,
        }
    }

    /// As a report shows it (a claim, `check-position`; never the scan):
    /// each helpmate as short as [`Game::shorten_helpmate`] makes it, and
    /// the position it ends in. The verdicts stay as they are.
    pub fn shown<G: Game>(mut self, pos: &G::Position) -> DeadCheck {
        for (i, side) in [Side::White, Side::Black].into_iter().enumerate() {
            let side_win = if i == 0 {
                &mut self.white
            } else {
                &mut self.black
            };
            if let Win::Yes { helpmate } = side_win {
                *helpmate = G::shorten_helpmate(pos, side, std::mem::take(helpmate));
                self.ends[i] = line_end::<G>(pos, helpmate);
            }
        }
        self
    }
}

/// The position `line` (in the game's notation) leads to from `pos`, as
/// FEN; `None` when it is empty or a move cannot be read.
fn line_end<G: Game>(pos: &G::Position, line: &[String]) -> Option<String> {
    if line.is_empty() {
        return None;
    }
    let mut p = pos.clone();
    let mut hash = G::hash(&p);
    for text in line {
        let m = G::parse_recorded(&p, text).ok()?;
        hash = G::play(&mut p, &m, hash);
    }
    Some(G::fen(&p))
}

/// The rules of one game, as the claim engine needs them.
///
/// Positions are compared with `PartialEq`, which must be exactly the rules'
/// identity of positions (for chess: FIDE 9.2, see `chess`). `hash` must be
/// equal for equal positions; the engine always confirms a hash match with
/// `==`, so a collision can never create a repetition.
pub trait Game {
    type Position: Clone + PartialEq;
    type Move: Clone + PartialEq;
    /// Choices of rules a record does not carry (column draughts: the
    /// re-jump reading); `()` for chess.
    type Variant: Copy + Default + Send + Sync;

    const TYPE: GameType;

    /// The start position of a record (from its tags), with notes for the
    /// reader ("Chess960", "starts from a FEN"). Errors carry the byte
    /// offset of the tag at fault.
    fn start_position(
        record: &crate::record::GameRecord<'_>,
        variant: Self::Variant,
    ) -> Result<(Self::Position, Vec<String>), (usize, String)>;
    /// [`Game::start_position`] without its notes, for a caller that shows
    /// none (the scan, the watch, the scan's diagrams): nothing is
    /// formatted (a FEN written out again for every FEN-start game was 5%
    /// of the instructions of a scan of the shared corpus' first 4 MB).
    fn start_without_notes(
        record: &crate::record::GameRecord<'_>,
        variant: Self::Variant,
    ) -> Result<Self::Position, (usize, String)>;
    /// Full hash of a position.
    fn hash(pos: &Self::Position) -> u64;
    /// Plays the legal move `m`, returning the hash of the new position,
    /// computed incrementally from `hash` where the game can.
    fn play(pos: &mut Self::Position, m: &Self::Move, hash: u64) -> u64;
    /// Every legal move in the position.
    fn legal_moves(pos: &Self::Position) -> Vec<Self::Move>;
    /// A move that is not irreversible and leads from `from` to exactly
    /// `to`, if there is one. The default plays every legal move; games
    /// override it with something cheaper (the scan asks it often).
    fn reversible_move_to(from: &Self::Position, to: &Self::Position) -> Option<Self::Move> {
        Self::legal_moves(from).into_iter().find(|m| {
            if Self::is_irreversible(from, m) {
                return false;
            }
            let mut next = from.clone();
            Self::play(&mut next, m, 0);
            next == *to
        })
    }
    /// Reads a move as recorded in a game score (the strict notation).
    fn parse_recorded(pos: &Self::Position, text: &str) -> Result<Self::Move, MoveError>;
    /// [`Game::parse_recorded`] for the common shapes only: the same move,
    /// or `None` for anything else (then ask `parse_recorded`, which also
    /// explains errors). For a scan's hot loop: an `Option` of a small move
    /// comes back in a register, a `Result` with its error through memory.
    fn parse_recorded_quick(_pos: &Self::Position, _text: &str) -> Option<Self::Move> {
        None
    }
    /// Reads a move as written on a scoresheet for a claim (the forms
    /// arbiters meet: the recorded notation plus common variants).
    fn parse_written(pos: &Self::Position, text: &str) -> Result<Self::Move, MoveError>;
    /// A written move that [`Game::parse_written`] refuses but that plainly
    /// means one legal move (a scoresheet slip, such as a capture mark on an
    /// empty square): that move, and a sentence saying how it was read.
    fn written_slip(_pos: &Self::Position, _text: &str) -> Option<(Self::Move, String)> {
        None
    }
    /// The move in the game's standard notation.
    fn notation(pos: &Self::Position, m: &Self::Move) -> String;
    /// No position before this move can ever occur again after it.
    fn is_irreversible(pos: &Self::Position, m: &Self::Move) -> bool;
    /// The move restarts the move-count rule (chess: pawn move or capture;
    /// draughts: a change of material).
    fn resets_count(pos: &Self::Position, m: &Self::Move) -> bool;
    /// The move changes the material (chess: a capture or a promotion;
    /// draughts: what restarts its count), so insufficient material must
    /// be asked again after it.
    fn changes_material(pos: &Self::Position, m: &Self::Move) -> bool {
        Self::resets_count(pos, m)
    }
    /// Plies counted towards the move-count rule in this position, including
    /// any count given by the start position (chess: the halfmove clock).
    fn count_clock(pos: &Self::Position) -> u32;
    /// Neither side has material to mate with (cheap; no move generation).
    /// Draughts: always false.
    fn insufficient_material(pos: &Self::Position) -> bool;
    /// Whether `side` can still win (chess: checkmate, by the
    /// unwinnability analyser; column draughts: leave the opponent without
    /// a move, by a cooperative search). Undetermined when not decided.
    fn can_mate(pos: &Self::Position, side: Side, search: Search) -> Win {
        let _ = (pos, side, search);
        Win::Undetermined
    }
    /// `line`, a helpmate for `side` from `pos`, as short as a bounded
    /// search makes it, for a report that shows it (never the scan: it
    /// costs a search). Default: the line as found.
    fn shorten_helpmate(pos: &Self::Position, side: Side, line: Vec<String>) -> Vec<String> {
        let _ = (pos, side);
        line
    }
    /// Both sides, for a report.
    fn dead_check(pos: &Self::Position, search: Search) -> DeadCheck {
        DeadCheck {
            search,
            white: Self::can_mate(pos, Side::White, search),
            black: Self::can_mate(pos, Side::Black, search),
            ends: Default::default(),
        }
    }
    /// Proved dead: neither side can mate (a checkmate or stalemate is what
    /// it is, not a dead position).
    fn is_dead(pos: &Self::Position, search: Search) -> bool {
        !matches!(
            Self::ending(pos),
            Some(Ending::Checkmate | Ending::Stalemate | Ending::NoMoves)
        ) && Self::is_dead_playable(pos, search)
    }
    /// [`Game::is_dead`] for a position the caller knows has a legal move
    /// (one was played from it, or its ending was already asked): the
    /// moves are not generated again.
    fn is_dead_playable(pos: &Self::Position, search: Search) -> bool {
        Self::can_mate(pos, Side::White, search) == Win::No
            && Self::can_mate(pos, Side::Black, search) == Win::No
    }
    /// How the position ends the game by itself, if it does.
    fn ending(pos: &Self::Position) -> Option<Ending>;
    fn side_to_move(pos: &Self::Position) -> Side;
    /// The move number of the next move (the fullmove number).
    fn move_number(pos: &Self::Position) -> u32;
    /// The position as FEN (or the game's FEN-like text).
    fn fen(pos: &Self::Position) -> String;
    /// A small text diagram, White at the bottom.
    fn diagram(pos: &Self::Position) -> String;
    /// The position for a drawn diagram: squares with piece stacks.
    fn board(pos: &Self::Position) -> board::Board;
    /// A position from the game's FEN (chess: standard or Chess960, within
    /// what the dead-position analyser takes; column draughts: the tower
    /// FEN), for `check-position`.
    fn from_fen(fen: &str, variant: Self::Variant) -> Result<Self::Position, String>;
    /// For positions with the same arrangement of pieces that are still not
    /// the same position: why. `None` if the arrangements differ or the
    /// positions are equal.
    fn difference(a: &Self::Position, b: &Self::Position) -> Option<Difference>;
}
