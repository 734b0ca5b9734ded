//! The claim engine, written once for every game: repetition and
//! move-count tracking, the claim forms, and game-over detection.
//!
//! It reads the rules of play through [`Game`] and the articles and numbers
//! through [`Rulebook`]; it produces a [`Verdict`], which the printers in
//! [`crate::report`] render.

mod decision;
mod over;
mod reason_words;
pub mod replay;
pub mod scan;

use serde::Serialize;

use crate::game::{DeadCheck, Difference, Ending, Game, MoveError, Search, Side};
use crate::laws::{Penalty, Rule, Rulebook, TimeClass};
pub use decision::Decision;
use over::game_over_at;
pub use over::{GameOver, GameOverReason, first_dead_ply, first_game_over};
pub use replay::Replay;

/// Which rules a claim is made under (`--claim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ClaimKind {
    /// Threefold repetition only (9.2).
    Repetition,
    /// The fifty-move count only (9.3), or unchanged material in column draughts.
    Count,
    /// Whichever rule makes the claim valid (the default).
    #[default]
    Any,
}

/// A claim to decide.
#[derive(Clone, Debug)]
pub struct ClaimRequest<'a> {
    /// The claim point: plies played from the start position.
    pub ply: usize,
    /// The move written on the scoresheet and not played.
    pub written: Option<&'a str>,
    pub kind: ClaimKind,
    /// Who made the claim, when the user says.
    pub claimant: Option<Side>,
    /// How hard to look for a dead position.
    pub dead_search: Search,
    /// What the caller already knows and needs.
    pub scope: Scope,
}

/// What a caller of [`decide`] already knows and needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A claim decided alone: whether the game ended before the claim
    /// point is found by replaying from the start, and the near misses
    /// are listed.
    Report,
    /// A follower asking ply after ply (`watch`), which knows the game had
    /// not ended before this ply (it asked each earlier one): only this
    /// ply's position is looked at, and no near misses are listed. Each
    /// call then costs one position, not the whole game so far.
    OpenBefore,
}

/// Whether a ground stands on the board or needs the written move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    /// The position on the board meets the rule.
    OnTheBoard,
    /// The move written on the scoresheet and not played meets it.
    WrittenMove,
}

/// One rule under which the claim is valid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ground {
    /// The rule, as the JSON names it ("threefold-repetition", ...).
    pub rule: Rule,
    /// The article of the rulebook applied ("9.2.2", "9.3.1").
    pub article: &'static str,
    /// Repetition: the plies after which the position stood (the written
    /// move's ply is `ply + 1`). Move count: the ply where the count began
    /// and the ply that completes it.
    pub plies: Vec<usize>,
    /// On the board, or by the written move.
    pub form: Form,
}

/// A position with the same arrangement of pieces that is not the same
/// position, and so does not count.
#[derive(Clone, Debug, Serialize)]
pub struct NearMiss {
    /// The ply after which it stood.
    pub ply: usize,
    /// Which position it resembles: the claim position or the one after the
    /// written move.
    pub of: Form,
    /// How it differs (castling rights, en passant, the side to move).
    pub reason: String,
}

/// The move count behind a count claim (fifty moves, unchanged material).
#[derive(Clone, Debug, Serialize)]
pub struct CountEvidence {
    /// Plies counted at the claim point.
    pub plies: u32,
    /// Of those, how many the start position (a FEN clock) supplied.
    pub from_start_position: u32,
    /// The ply after which the count began (the last resetting move, or 0).
    pub since_ply: usize,
    /// Plies counted after the written move (None: no written move, or it
    /// resets the count).
    pub with_written_move: Option<u32>,
    /// Plies the rule needs.
    pub needed: u32,
}

/// The decision on a claim, with its evidence.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The claim point: plies played from the start position.
    pub ply: usize,
    /// The player having the move at the claim point.
    pub claimant: Side,
    /// The claimant named by the user, if any.
    pub claimed_by: Option<Side>,
    /// The written move in the game's notation.
    pub written_move: Option<String>,
    /// Why the written move is no legal move, when the claim was judged
    /// without it (the game was over, or the board alone meets the rule).
    pub written_illegal: Option<String>,
    /// Whether the claim is correct: valid on its grounds, or not valid
    /// for its reasons ([`Verdict::valid`], [`Verdict::grounds`] and
    /// [`Verdict::reasons`] read it).
    pub decision: Decision,
    /// How the game had already ended before the claim point, if it had.
    pub game_over: Option<GameOver>,
    /// The plies at which the claim position stood.
    pub repetitions: Vec<usize>,
    /// The plies at which the position after the written move stood,
    /// including `ply + 1`.
    pub repetitions_written: Vec<usize>,
    /// Positions with the same pieces that are not the same position.
    pub near_misses: Vec<NearMiss>,
    /// The move count at the claim point.
    pub count: CountEvidence,
    /// The written move would end the game (checkmate, stalemate).
    pub written_ending: Option<Ending>,
    /// The penalty the Laws give an incorrect claim (time to the opponent).
    pub penalty: Option<Penalty>,
    /// Can either side still checkmate from the claim position?
    pub dead_check: DeadCheck,
    /// How the written move was read, when not as written (a slip).
    pub notes: Vec<String>,
}

impl Verdict {
    /// The claim was made by the player not having the move.
    pub fn wrong_side(&self) -> bool {
        self.claimed_by.is_some_and(|by| by != self.claimant)
    }
}

/// Why a claim fails: the data each printer renders in its own words
/// (`reason_words` renders the sentences of the text, HTML and JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The game had ended by itself before the claim point.
    GameOver(GameOver),
    /// The claim was made by the player not having the move (`claimant`
    /// had it); only that player may claim (`article`).
    WrongSide {
        claimant: Side,
        article: &'static str,
    },
    /// Repetition: how often the position on the board has stood, and the
    /// position after the written move would stand; `needed` are needed.
    TooFewRepetitions {
        on_board: usize,
        with_written: Option<usize>,
        needed: usize,
    },
    /// Move count: plies counted at the claim point, or with the written
    /// move; the rule needs `needed` (the rulebook's words for its count).
    CountShort {
        plies: u32,
        with_written: bool,
        needed: &'static str,
        /// A move was written, but the count is claimed before moving (this
        /// article): the written move does not count.
        board_only: Option<&'static str>,
    },
}

/// Occurrences a repetition claim needs (9.2; draughts 1.13.2).
const REPETITIONS: usize = 3;

/// The written move, read and played on a copy of the claim position.
struct Written<G: Game> {
    mv: G::Move,
    next: G::Position,
    hash: u64,
}

/// Decides a claim at `req.ply` of a replayed game.
///
/// Errors: the written move is not a legal move (the message says why).
pub fn decide<G: Game>(
    replay: &Replay<G>,
    rules: &Rulebook,
    time: Option<TimeClass>,
    req: &ClaimRequest<'_>,
) -> Result<Verdict, crate::game::MoveError> {
    let p = req.ply.min(replay.len());
    let pos = &replay.position(p);
    let claimant = G::side_to_move(pos);
    let dead_check = G::dead_check(pos, req.dead_search);
    let game_over = ended_before(replay, rules, req, p, pos, &dead_check);
    // A claim by the player not having the move is no Article 9 claim: the
    // written move (the other side's) is not read at all.
    let wrong_side = req.claimant.is_some_and(|by| by != claimant);
    let mut notes = Vec::new();
    let wants = (
        req.kind != ClaimKind::Count,
        req.kind != ClaimKind::Repetition,
    );
    let repetitions = replay.occurrences(pos, replay.hashes[p], p);
    let mut written_illegal = None;
    let written = match req.written.filter(|_| !wrong_side) {
        Some(text) => {
            let unneeded = if game_over.is_some() {
                Unneeded::GameOver
            } else {
                Unneeded::on_board::<G>(rules, wants, p, pos, &repetitions)
            };
            read_written(
                replay,
                p,
                pos,
                text,
                unneeded,
                &mut notes,
                &mut written_illegal,
            )?
        }
        None => None,
    };
    let written_move = match (&written, req.written) {
        (Some(w), _) => Some(G::notation(pos, &w.mv)),
        (None, Some(t)) => Some(t.to_owned()),
        (None, None) => None,
    };
    let repetitions_written = match &written {
        Some(w) => {
            let mut v = replay.occurrences(&w.next, w.hash, p);
            v.push(p + 1);
            v
        }
        None => Vec::new(),
    };
    let count = count_evidence::<G>(rules, p, pos, written.as_ref());
    let grounds = grounds_of(rules, wants, p, &repetitions, &repetitions_written, &count);
    let mut reasons = Vec::new();
    if let Some(over) = &game_over {
        reasons.push(Reason::GameOver(over.clone()));
    }
    if wrong_side {
        reasons.push(Reason::WrongSide {
            claimant,
            article: rules.claimant_article,
        });
    }
    let decision = if !reasons.is_empty() {
        Decision::NotValid { reasons }
    } else if grounds.is_empty() {
        let with_written = written.as_ref().map(|_| repetitions_written.len());
        let reasons = shortfalls(rules, wants, repetitions.len(), with_written, &count);
        Decision::NotValid { reasons }
    } else {
        Decision::Valid { grounds }
    };
    let near_misses = if wants.0 && req.scope == Scope::Report {
        near_misses(replay, p, written.as_ref().map(|w| &w.next))
    } else {
        Vec::new()
    };
    let written_ending = written.as_ref().and_then(|w| G::ending(&w.next));
    let valid = decision.is_valid();
    let penalty = (!valid && game_over.is_none() && !wrong_side)
        .then(|| rules.penalty(time, written_move.as_deref(), !wants.0));
    Ok(Verdict {
        ply: p,
        claimant,
        claimed_by: req.claimant,
        written_move,
        written_illegal,
        decision,
        game_over,
        repetitions,
        repetitions_written,
        near_misses,
        count,
        written_ending,
        penalty,
        dead_check,
        notes,
    })
}

/// Where the game had ended by itself at or before the claim point: the
/// first ending on the board, or the first dead position when the claim
/// position is dead and became so earlier.
fn ended_before<G: Game>(
    replay: &Replay<G>,
    rules: &Rulebook,
    req: &ClaimRequest<'_>,
    p: usize,
    pos: &G::Position,
    dead_check: &DeadCheck,
) -> Option<GameOver> {
    let game_over = match req.scope {
        Scope::Report => first_game_over(replay, rules, p),
        Scope::OpenBefore => game_over_at(replay, rules, p, pos),
    };
    if dead_check.dead() != Some(true) {
        return game_over;
    }
    let d = first_dead_ply::<G>(replay, p, req.dead_search);
    // Insufficient material at the same ply is the simpler name for it.
    if game_over.as_ref().is_none_or(|g| d < g.ply) {
        return Some(GameOver {
            reason: GameOverReason::DeadPosition,
            ply: d,
            article: rules.ending_article(Ending::InsufficientMaterial),
        });
    }
    game_over
}

/// Whether the claim can be judged without the written move, should it be
/// no legal move.
#[derive(Clone, Copy, PartialEq)]
enum Unneeded {
    No,
    /// The game was over before the claim: no move is played any more.
    GameOver,
    /// The position on the board already meets the rule claimed ("has
    /// just appeared", or the count reached): the claim is correct
    /// whatever move was written, for that move is never played.
    BoardMeetsRule,
}

impl Unneeded {
    /// `BoardMeetsRule` when the claim position alone meets a rule claimed.
    fn on_board<G: Game>(
        rules: &Rulebook,
        wants: (bool, bool),
        p: usize,
        pos: &G::Position,
        repetitions: &[usize],
    ) -> Unneeded {
        let count = count_evidence::<G>(rules, p, pos, None);
        if grounds_of(rules, wants, p, repetitions, &[], &count).is_empty() {
            Unneeded::No
        } else {
            Unneeded::BoardMeetsRule
        }
    }
}

/// The written move read (as written, or as a plain slip with a note) and
/// played on a copy. When the claim is judged without it (`unneeded`), a
/// move that is not legal is no error: `Ok(None)`, its reason in `illegal`.
/// After the game ended the claim then fails on that ground; when the
/// board alone meets the rule it stands on the board, with a note.
fn read_written<G: Game>(
    replay: &Replay<G>,
    p: usize,
    pos: &G::Position,
    text: &str,
    unneeded: Unneeded,
    notes: &mut Vec<String>,
    illegal: &mut Option<String>,
) -> Result<Option<Written<G>>, MoveError> {
    let parsed = G::parse_written(pos, text).or_else(|e| match G::written_slip(pos, text) {
        Some((m, note)) => {
            notes.push(note);
            Ok(m)
        }
        None => Err(e),
    });
    match parsed {
        Ok(mv) => {
            let mut next = pos.clone();
            let hash = G::play(&mut next, &mv, replay.hashes[p]);
            Ok(Some(Written { mv, next, hash }))
        }
        Err(e) if unneeded == Unneeded::GameOver => {
            *illegal = Some(e.to_string());
            Ok(None)
        }
        Err(e @ (MoveError::Illegal(_) | MoveError::Ambiguous(_)))
            if unneeded == Unneeded::BoardMeetsRule =>
        {
            notes.push(format!(
                "the written move {text} is no legal move here ({e}); it is never played: the position on the board already meets the rule, so the claim is judged on the board alone"
            ));
            *illegal = Some(e.to_string());
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// The move count at the claim point, and with the written move when it
/// does not restart the count.
fn count_evidence<G: Game>(
    rules: &Rulebook,
    p: usize,
    pos: &G::Position,
    written: Option<&Written<G>>,
) -> CountEvidence {
    let clock = G::count_clock(pos);
    let from_start = clock.saturating_sub(p as u32);
    CountEvidence {
        plies: clock,
        from_start_position: from_start,
        since_ply: p - (clock - from_start) as usize,
        with_written_move: written
            .filter(|w| !G::resets_count(pos, &w.mv))
            .map(|_| clock + 1),
        needed: rules.count_plies,
    }
}

/// The rules met: repetition on the board / with the written move, the
/// move count on the board / with the written move (`wants`: repetition,
/// count, as claimed).
fn grounds_of(
    rules: &Rulebook,
    wants: (bool, bool),
    p: usize,
    repetitions: &[usize],
    repetitions_written: &[usize],
    count: &CountEvidence,
) -> Vec<Ground> {
    let mut grounds = Vec::new();
    let ground = |rule, article, plies, form| Ground {
        rule,
        article,
        plies,
        form,
    };
    let (rep, cnt) = wants;
    if rep && repetitions.len() >= REPETITIONS {
        let article = rules.repetition.board;
        grounds.push(ground(
            rules.repetition_rule,
            article,
            repetitions.to_vec(),
            Form::OnTheBoard,
        ));
    }
    if let (true, Some(article)) = (
        rep && repetitions_written.len() >= REPETITIONS,
        rules.repetition.written,
    ) {
        let plies = repetitions_written.to_vec();
        grounds.push(ground(
            rules.repetition_rule,
            article,
            plies,
            Form::WrittenMove,
        ));
    }
    if cnt && count.plies >= rules.count_plies {
        let plies = vec![count.since_ply, p];
        grounds.push(ground(
            rules.count_rule,
            rules.count.board,
            plies,
            Form::OnTheBoard,
        ));
    }
    if let (true, Some(article), Some(n)) = (cnt, rules.count.written, count.with_written_move)
        && n >= rules.count_plies
    {
        let plies = vec![count.since_ply, p + 1];
        grounds.push(ground(rules.count_rule, article, plies, Form::WrittenMove));
    }
    grounds
}

/// Why no rule claimed is met: what each one counted against what it
/// needs.
fn shortfalls(
    rules: &Rulebook,
    wants: (bool, bool),
    on_board: usize,
    with_written: Option<usize>,
    count: &CountEvidence,
) -> Vec<Reason> {
    let mut reasons = Vec::new();
    if wants.0 {
        reasons.push(Reason::TooFewRepetitions {
            on_board,
            with_written,
            needed: REPETITIONS,
        });
    }
    if wants.1 {
        // A written move completes the count only where the rule has a
        // written form (chess 9.3.1); in column draughts the count is
        // claimed before moving (1.13.1): the board's count is the claim's.
        let written = count
            .with_written_move
            .filter(|_| rules.count.written.is_some());
        let board_only =
            (count.with_written_move.is_some() && written.is_none()).then_some(rules.count.board);
        reasons.push(Reason::CountShort {
            plies: written.unwrap_or(count.plies),
            with_written: written.is_some(),
            needed: rules.count_words,
            board_only,
        });
    }
    reasons
}

fn near_misses<G: Game>(
    replay: &Replay<G>,
    p: usize,
    written: Option<&G::Position>,
) -> Vec<NearMiss> {
    let mut out = Vec::new();
    let at_p = replay.position(p);
    let targets = [
        (Some(&at_p), Form::OnTheBoard),
        (written, Form::WrittenMove),
    ];
    for (target, of) in targets {
        let Some(target) = target else { continue };
        for (q, before) in replay.positions().take(p + 1).enumerate() {
            if let Some(Difference { reason }) = G::difference(target, &before) {
                out.push(NearMiss { ply: q, of, reason });
            }
        }
    }
    out
}

/// Claims the player to move could make at ply `p` by writing a move:
/// the moves that would complete a repetition, and the moves that would
/// complete the move count (for `count`, only moves after which the game is
/// not over, to match the usual reading of 9.3.1 in other tools; see
/// [`decide`] for the tool's own reading).
pub struct Pending<M> {
    pub repetition: Vec<M>,
    pub count: Vec<M>,
}

/// Computes [`Pending`] claims at ply `p` (costly: plays every legal move).
pub fn pending<G: Game>(replay: &Replay<G>, rules: &Rulebook, p: usize) -> Pending<G::Move> {
    let pos = &replay.position(p);
    let mut out = Pending {
        repetition: Vec::new(),
        count: Vec::new(),
    };
    let clock = G::count_clock(pos);
    for m in G::legal_moves(pos) {
        let mut next = pos.clone();
        let hash = G::play(&mut next, &m, replay.hashes[p]);
        if !G::is_irreversible(pos, &m) && replay.occurrences(&next, hash, p).len() >= 2 {
            out.repetition.push(m.clone());
        }
        if !G::resets_count(pos, &m)
            && clock + 1 >= rules.count_plies
            && G::ending(&next).is_none_or(|e| e == Ending::InsufficientMaterial)
        {
            out.count.push(m);
        }
    }
    out
}
