//! The checks made at each position of a scanned game, one stage each, in
//! the order the rules are applied: the claims a player could make there
//! (threefold repetition, the move count), then the endings by the
//! position alone (insufficient material, the automatic draws, checkmate,
//! stalemate, no moves). What one stage has already reported, and the end
//! of the game once found, is kept in [`Scan`].

use super::history::History;
use super::{End, Finding, Kind, info};
use crate::game::{Ending, Game, Side};
use crate::laws::{GameResult, Rule, Rulebook};
use crate::record::GameRecord;

/// What is known of the position at one ply before any check.
pub(super) struct Ply {
    pub p: usize,
    /// Offset of the move that produced the position (the game's start for
    /// ply 0).
    pub offset: usize,
    pub side: Side,
    pub is_final: bool,
    /// How the final position ends the game by itself (only asked there).
    pub final_ending: Option<Ending>,
    /// A move exists: before the final position, the next recorded move
    /// proves it.
    pub has_moves: bool,
    /// Plies counted towards the move-count rule.
    pub clock: u32,
}

impl Ply {
    pub(super) fn at<G: Game>(record: &GameRecord<'_>, pos: &G::Position, p: usize) -> Ply {
        let is_final = p == record.moves.len();
        let final_ending = if is_final { G::ending(pos) } else { None };
        Ply {
            p,
            offset: if p == 0 {
                record.offset
            } else {
                record.moves[p - 1].offset
            },
            side: G::side_to_move(pos),
            is_final,
            final_ending,
            has_moves: !matches!(
                final_ending,
                Some(Ending::Checkmate | Ending::Stalemate | Ending::NoMoves)
            ),
            clock: G::count_clock(pos),
        }
    }
}

/// The state of one game's scan between plies.
pub(super) struct Scan<'a, G: Game> {
    pub rules: &'a Rulebook,
    pub out: Vec<Finding>,
    pub hist: History<G::Position>,
    /// The moves played so far (the history replays them to rebuild a
    /// position; the dead-position search replays them too).
    pub moves: Vec<G::Move>,
    /// Times the current position has stood.
    reps: u32,
    /// The last move changed the material (or this is the start).
    check_material: bool,
    pub end: Option<End>,
    /// A claim was possible in the final position (for 9.1.1).
    pub claimable_at_end: bool,
    count_kind: Kind,
    /// The least clock at which a move-count stage can report (a claim by
    /// writing a move, one ply short of the count; the automatic draw).
    count_from: u32,
    threefold_done: bool,
    count_done: bool,
    insufficient_done: bool,
    fivefold_done: bool,
    seventy_five_done: bool,
    /// Fivefold repetition or 75 moves has ended the game.
    automatic_end: bool,
}

impl<'a, G: Game> Scan<'a, G> {
    pub(super) fn new(rules: &'a Rulebook, start: &G::Position, hash: u64) -> Scan<'a, G> {
        let mut hist = History::new();
        let reps = hist.push(hash, start, |_, _, _| unreachable!("nothing to match"));
        Scan {
            rules,
            out: Vec::new(),
            hist,
            moves: Vec::new(),
            reps,
            check_material: true,
            end: None,
            claimable_at_end: false,
            count_kind: match rules.count_rule {
                Rule::UnchangedMaterial => Kind::UnchangedMaterialClaimable,
                Rule::FiftyMove | Rule::ThreefoldRepetition => Kind::FiftyMoveClaimable,
            },
            count_from: rules
                .automatic
                .as_ref()
                .map_or(u32::MAX, |a| a.count_plies)
                .min(rules.count_plies.saturating_sub(1)),
            threefold_done: false,
            count_done: false,
            insufficient_done: false,
            fivefold_done: false,
            seventy_five_done: false,
            automatic_end: false,
        }
    }

    /// Whether any stage can report at a position before the final one,
    /// whose clock is `clock`: it has stood before (threefold, fivefold
    /// repetition), a position with this side to move has stood twice and
    /// no threefold claim was reported (a written move might repeat it),
    /// the move count is near (see `count_from`), or the last move changed
    /// the material. Each stage still checks its own condition; this only
    /// lets the common ply, where none holds, pass them all at once.
    pub(super) fn may_report(&self, clock: u32) -> bool {
        self.reps >= 2
            || (self.hist.repeated(self.hist.parity()) && !self.threefold_done)
            || clock >= self.count_from
            || (self.check_material && !self.insufficient_done)
    }

    /// Every check of one position. Once a draw the Laws declare without a
    /// claim (fivefold repetition, 75 moves: 9.6.1, 9.6.2) has ended the
    /// game, at that ply or before, no claim is reported: the game is
    /// over, as claim mode says too.
    pub(super) fn position(&mut self, pos: &G::Position, ply: &Ply) {
        let over = self.automatic_end || self.automatic_due(ply);
        let threefold = !over && self.threefold(pos, ply);
        let count = !over && self.move_count(pos, ply);
        if ply.is_final {
            self.claimable_at_end = threefold || count;
        }
        self.insufficient_material(pos, ply);
        self.automatic_draws(ply);
        self.final_ending(ply);
    }

    /// Plays the next (legal) move and records the position reached.
    pub(super) fn play(&mut self, pos: &mut G::Position, m: G::Move, hash: u64) -> u64 {
        let irreversible = G::is_irreversible(pos, &m);
        self.check_material = G::changes_material(pos, &m);
        let hash = G::play(pos, &m, hash);
        self.moves.push(m);
        let ply = self.moves.len();
        if irreversible {
            self.hist.clear(ply);
        }
        let moves = &self.moves;
        self.reps = self.hist.push(hash, pos, |snapshot, from, to| {
            let mut p = snapshot.clone();
            for m in &moves[from..to] {
                G::play(&mut p, m, 0);
            }
            p
        });
        hash
    }

    /// A finding that ends the game here (unless it ended earlier).
    fn end_with(&mut self, finding: Finding, result: GameResult) {
        if self.end.is_none() {
            self.end = Some(End {
                ply: finding.ply,
                kind: finding.kind,
                result,
            });
        }
        self.out.push(finding);
    }

    /// A draw the rules declare here without a claim (insufficient
    /// material, fivefold repetition, seventy-five moves): the game's end.
    fn draw(&mut self, kind: Kind, ply: &Ply, message: String) {
        self.end_with(
            info(kind, ply.p, ply.offset, None, None, message),
            GameResult::Draw,
        );
    }

    /// Threefold repetition (9.2): on the board, or with a written move
    /// that makes a position stand a third time. Returns whether a claim
    /// is possible here.
    fn threefold(&mut self, pos: &G::Position, ply: &Ply) -> bool {
        if !ply.has_moves {
            return false;
        }
        if self.reps >= 3 {
            if !self.threefold_done {
                self.threefold_on_board(ply);
            }
            return true;
        }
        // Some position with the opponent to move has stood twice: a
        // written move might reach it a third time.
        let parity = self.hist.parity();
        if !(self.hist.repeated(parity) && (!self.threefold_done || ply.is_final)) {
            return false;
        }
        self.threefold_written(pos, ply, parity)
    }

    /// A claim the player to move could make here, on the board (`written`
    /// `None`) or by writing a move.
    fn claim(&mut self, kind: Kind, ply: &Ply, written: Option<String>, message: String) {
        self.out.push(info(
            kind,
            ply.p,
            ply.offset,
            Some(ply.side),
            written,
            message,
        ));
    }

    #[cold]
    fn threefold_on_board(&mut self, ply: &Ply) {
        self.threefold_done = true;
        let message = format!(
            "{} can claim a draw: the position has stood {} times ({})",
            ply.side.title(),
            self.reps,
            self.rules.repetition.board
        );
        self.claim(Kind::ThreefoldClaimable, ply, None, message);
    }

    #[cold]
    #[inline(never)]
    fn threefold_written(&mut self, pos: &G::Position, ply: &Ply, parity: usize) -> bool {
        let Some(m) = self
            .hist
            .twice_stood(parity)
            .find_map(|target| G::reversible_move_to(pos, target))
        else {
            return false;
        };
        if !self.threefold_done {
            self.threefold_done = true;
            let (side, rules) = (ply.side, self.rules);
            let san = G::notation(pos, &m);
            let message = format!(
                "{} can claim a draw by writing {san}: the position after it will have stood 3 times ({})",
                side.title(),
                rules.repetition.written.unwrap_or(rules.repetition.board)
            );
            self.claim(Kind::ThreefoldClaimable, ply, Some(san), message);
        }
        true
    }

    /// The move-count rule (fifty moves; unchanged material), on the board
    /// or with a written move that completes the count. Returns whether a
    /// claim is possible here.
    fn move_count(&mut self, pos: &G::Position, ply: &Ply) -> bool {
        let rules = self.rules;
        if !ply.has_moves || ply.clock.saturating_add(1) < rules.count_plies {
            return false;
        }
        if ply.clock >= rules.count_plies {
            if !self.count_done {
                self.move_count_on_board(ply);
            }
            return true;
        }
        let Some(article) = rules.count.written else {
            return false;
        };
        if self.count_done && !ply.is_final {
            return false;
        }
        self.move_count_written(pos, ply, article)
    }

    #[cold]
    fn move_count_on_board(&mut self, ply: &Ply) {
        self.count_done = true;
        let message = format!(
            "{} can claim a draw: {} plies without {} ({})",
            ply.side.title(),
            ply.clock,
            self.rules.count_without,
            self.rules.count.board
        );
        self.claim(self.count_kind, ply, None, message);
    }

    #[cold]
    #[inline(never)]
    fn move_count_written(&mut self, pos: &G::Position, ply: &Ply, article: &str) -> bool {
        let Some(m) = G::legal_moves(pos)
            .into_iter()
            .find(|m| !G::resets_count(pos, m))
        else {
            return false;
        };
        if !self.count_done {
            self.count_done = true;
            let side = ply.side;
            let san = G::notation(pos, &m);
            let message = format!(
                "{} can claim a draw by writing {san}: it completes {} plies without {} ({article})",
                side.title(),
                self.rules.count_plies,
                self.rules.count_without,
            );
            self.claim(self.count_kind, ply, Some(san), message);
        }
        true
    }

    /// Neither side has mating material: the game is drawn at once.
    /// Asked only when the last move changed the material.
    fn insufficient_material(&mut self, pos: &G::Position, ply: &Ply) {
        if !self.check_material || self.insufficient_done || !G::insufficient_material(pos) {
            return;
        }
        self.insufficient_done = true;
        let message = format!(
            "neither side can checkmate with the material left: the game is drawn ({})",
            self.rules.ending_article(Ending::InsufficientMaterial)
        );
        self.draw(Kind::InsufficientMaterial, ply, message);
    }

    /// Whether the position stands for the fivefold time, or completes 75
    /// moves, in an edition with automatic draws: the game ends here.
    fn automatic_due(&self, ply: &Ply) -> bool {
        let Some(a) = self.rules.automatic.as_ref() else {
            return false;
        };
        ply.has_moves && (self.fivefold_due(a) || ply.clock >= a.count_plies)
    }

    fn fivefold_due(&self, a: &crate::laws::AutomaticDraws) -> bool {
        if a.consecutive {
            self.hist.consecutive(a.repetitions)
        } else {
            self.reps >= a.repetitions
        }
    }

    /// The draws the arbiter declares without a claim (fivefold repetition,
    /// seventy-five moves), in the editions that have them.
    fn automatic_draws(&mut self, ply: &Ply) {
        let Some(a) = self.rules.automatic.as_ref() else {
            return;
        };
        if !ply.has_moves {
            return;
        }
        if self.fivefold_due(a) {
            self.automatic_end = true;
            self.fivefold(ply, a);
        }
        if ply.clock >= a.count_plies && !self.seventy_five_done {
            self.automatic_end = true;
            self.seventy_five(ply, a);
        }
    }

    #[cold]
    fn fivefold(&mut self, ply: &Ply, a: &crate::laws::AutomaticDraws) {
        if self.fivefold_done {
            // Reported once, and the game ended then.
            return;
        }
        self.fivefold_done = true;
        let times = if a.consecutive {
            a.repetitions
        } else {
            self.reps
        };
        let message = format!(
            "the position has stood {times} times: the game is drawn ({})",
            a.repetition_article
        );
        self.draw(Kind::FivefoldRepetition, ply, message);
    }

    #[cold]
    fn seventy_five(&mut self, ply: &Ply, a: &crate::laws::AutomaticDraws) {
        self.seventy_five_done = true;
        let message = format!(
            "{} plies without a pawn move or a capture: the game is drawn ({})",
            ply.clock, a.count_article
        );
        self.draw(Kind::SeventyFiveMove, ply, message);
    }

    /// The final position: checkmate, stalemate, or (draughts) no move.
    fn final_ending(&mut self, ply: &Ply) {
        let Some(e) = ply.final_ending else {
            return;
        };
        let (side, article) = (ply.side, self.rules.ending_article(e));
        let (kind, result, message) = match e {
            Ending::Checkmate => (
                Kind::Checkmate,
                GameResult::win_for(side.other()),
                format!("{} is checkmated ({article})", side.title()),
            ),
            Ending::Stalemate => (
                Kind::Stalemate,
                GameResult::Draw,
                format!(
                    "{} is stalemated: the game is drawn ({article})",
                    side.title()
                ),
            ),
            Ending::NoMoves => (
                Kind::NoMoves,
                GameResult::win_for(side.other()),
                format!("{} cannot move and has lost ({article})", side.title()),
            ),
            // Reported by its own stage, when the material changes.
            Ending::InsufficientMaterial => return,
        };
        let finding = info(kind, ply.p, ply.offset, Some(side), None, message);
        self.end_with(finding, result);
    }
}
