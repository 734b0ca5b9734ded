//! The checks made at each position of a scanned game, one stage each, in
//! the order the rules are applied: the claims a player could make there
//! (threefold repetition, the move count), then the endings by the
//! position alone (insufficient material, the automatic draws, checkmate,
//! stalemate, no moves). What one stage has already reported, and the end
//! of the game once found, is kept in [`Scan`].

use super::history::History;
use super::{End, Finding, Kind, info, win_for};
use crate::game::{Ending, Game, Side};
use crate::laws::Rulebook;
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
    /// Times the current position has stood.
    reps: u32,
    /// The last move changed what the move-count rule counts (material).
    check_material: bool,
    pub end: Option<End>,
    /// A claim was possible in the final position (for 9.1.1).
    pub claimable_at_end: bool,
    count_kind: Kind,
    threefold_done: bool,
    count_done: bool,
    insufficient_done: bool,
    fivefold_done: bool,
    seventy_five_done: bool,
}

impl<'a, G: Game> Scan<'a, G> {
    pub(super) fn new(rules: &'a Rulebook, start: &G::Position, hash: u64) -> Scan<'a, G> {
        let mut hist = History::new();
        let reps = hist.push(hash, start);
        Scan {
            rules,
            out: Vec::new(),
            hist,
            reps,
            check_material: true,
            end: None,
            claimable_at_end: false,
            count_kind: if rules.count_rule == "fifty-move" {
                Kind::FiftyMoveClaimable
            } else {
                Kind::UnchangedMaterialClaimable
            },
            threefold_done: false,
            count_done: false,
            insufficient_done: false,
            fivefold_done: false,
            seventy_five_done: false,
        }
    }

    /// Every check of one position.
    pub(super) fn position(&mut self, pos: &G::Position, ply: &Ply) {
        let threefold = self.threefold(pos, ply);
        let count = self.move_count(pos, ply);
        if ply.is_final {
            self.claimable_at_end = threefold || count;
        }
        self.insufficient_material(pos, ply);
        self.automatic_draws(ply);
        self.final_ending(ply);
    }

    /// Plays the next (legal) move and records the position reached.
    pub(super) fn play(&mut self, pos: &mut G::Position, m: &G::Move, hash: u64) -> u64 {
        let irreversible = G::is_irreversible(pos, m);
        self.check_material = G::resets_count(pos, m);
        let hash = G::play(pos, m, hash);
        if irreversible {
            self.hist.clear();
        }
        self.reps = self.hist.push(hash, pos);
        hash
    }

    fn set_end(&mut self, ply: usize, kind: Kind, result: &'static str) {
        if self.end.is_none() {
            self.end = Some(End { ply, kind, result });
        }
    }

    /// Threefold repetition (9.2): on the board, or with a written move
    /// that makes a position stand a third time. Returns whether a claim
    /// is possible here.
    fn threefold(&mut self, pos: &G::Position, ply: &Ply) -> bool {
        let (side, rules) = (ply.side, self.rules);
        if self.reps >= 3 && ply.has_moves {
            if !self.threefold_done {
                self.threefold_done = true;
                let message = format!(
                    "{} can claim a draw: the position has stood {} times ({})",
                    side.title(),
                    self.reps,
                    rules.repetition.board
                );
                self.out.push(info(
                    Kind::ThreefoldClaimable,
                    ply.p,
                    ply.offset,
                    Some(side),
                    None,
                    message,
                ));
            }
            return true;
        }
        let parity = self.hist.parity();
        if !(ply.has_moves && self.hist.repeated(parity) && (!self.threefold_done || ply.is_final))
        {
            return false;
        }
        // Some position with the opponent to move has stood twice: a
        // written move might reach it a third time.
        let Some(m) = self
            .hist
            .twice_stood(parity)
            .find_map(|target| G::reversible_move_to(pos, target))
        else {
            return false;
        };
        if !self.threefold_done {
            self.threefold_done = true;
            let san = G::notation(pos, &m);
            let message = format!(
                "{} can claim a draw by writing {san}: the position after it will have stood 3 times ({})",
                side.title(),
                rules.repetition.written.unwrap_or(rules.repetition.board)
            );
            self.out.push(info(
                Kind::ThreefoldClaimable,
                ply.p,
                ply.offset,
                Some(side),
                Some(san),
                message,
            ));
        }
        true
    }

    /// The move-count rule (fifty moves; unchanged material), on the board
    /// or with a written move that completes the count. Returns whether a
    /// claim is possible here.
    fn move_count(&mut self, pos: &G::Position, ply: &Ply) -> bool {
        let (side, rules, kind) = (ply.side, self.rules, self.count_kind);
        let what = if kind == Kind::FiftyMoveClaimable {
            "a pawn move or a capture"
        } else {
            "a change of material"
        };
        if ply.has_moves && ply.clock >= rules.count_plies {
            if !self.count_done {
                self.count_done = true;
                let message = format!(
                    "{} can claim a draw: {} plies without {what} ({})",
                    side.title(),
                    ply.clock,
                    rules.count.board
                );
                self.out
                    .push(info(kind, ply.p, ply.offset, Some(side), None, message));
            }
            return true;
        }
        let Some(article) = rules.count.written else {
            return false;
        };
        if !(ply.has_moves
            && ply.clock + 1 == rules.count_plies
            && (!self.count_done || ply.is_final))
        {
            return false;
        }
        let Some(m) = G::legal_moves(pos)
            .into_iter()
            .find(|m| !G::resets_count(pos, m))
        else {
            return false;
        };
        if !self.count_done {
            self.count_done = true;
            let san = G::notation(pos, &m);
            let message = format!(
                "{} can claim a draw by writing {san}: it completes {} plies without {what} ({article})",
                side.title(),
                rules.count_plies,
            );
            self.out.push(info(
                kind,
                ply.p,
                ply.offset,
                Some(side),
                Some(san),
                message,
            ));
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
        self.out.push(info(
            Kind::InsufficientMaterial,
            ply.p,
            ply.offset,
            None,
            None,
            message,
        ));
        self.set_end(ply.p, Kind::InsufficientMaterial, "1/2-1/2");
    }

    /// The draws the arbiter declares without a claim (fivefold repetition,
    /// seventy-five moves), in the editions that have them.
    fn automatic_draws(&mut self, ply: &Ply) {
        let Some(a) = self.rules.automatic.as_ref() else {
            return;
        };
        let five = if a.consecutive {
            self.hist.consecutive(a.repetitions)
        } else {
            self.reps >= a.repetitions
        };
        if five && ply.has_moves {
            if !self.fivefold_done {
                self.fivefold_done = true;
                let message = format!(
                    "the position has stood {} times: the game is drawn ({})",
                    if a.consecutive {
                        a.repetitions
                    } else {
                        self.reps
                    },
                    a.repetition_article
                );
                self.out.push(info(
                    Kind::FivefoldRepetition,
                    ply.p,
                    ply.offset,
                    None,
                    None,
                    message,
                ));
            }
            self.set_end(ply.p, Kind::FivefoldRepetition, "1/2-1/2");
        }
        if ply.clock >= a.count_plies && ply.has_moves && !self.seventy_five_done {
            self.seventy_five_done = true;
            let message = format!(
                "{} plies without a pawn move or a capture: the game is drawn ({})",
                ply.clock, a.count_article
            );
            self.out.push(info(
                Kind::SeventyFiveMove,
                ply.p,
                ply.offset,
                None,
                None,
                message,
            ));
            self.set_end(ply.p, Kind::SeventyFiveMove, "1/2-1/2");
        }
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
                win_for(side.other()),
                format!("{} is checkmated ({article})", side.title()),
            ),
            Ending::Stalemate => (
                Kind::Stalemate,
                "1/2-1/2",
                format!(
                    "{} is stalemated: the game is drawn ({article})",
                    side.title()
                ),
            ),
            Ending::NoMoves => (
                Kind::NoMoves,
                win_for(side.other()),
                format!("{} cannot move and has lost ({article})", side.title()),
            ),
            // Reported by its own stage, when the material changes.
            Ending::InsufficientMaterial => return,
        };
        self.out
            .push(info(kind, ply.p, ply.offset, Some(side), None, message));
        self.set_end(ply.p, kind, result);
    }
}
