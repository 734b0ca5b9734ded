//! What the player to move may claim at a ply, on the board or by writing
//! a move, asked of the claim engine; said once per player's stretch.

use super::{Board, Context, Event, EventKind};
use crate::claims::{self, ClaimKind, ClaimRequest, Form, Replay, replay::numbered};
use crate::game::Game;
use crate::laws::{Rule, Rulebook};

/// How a claim stands at a ply: not available, by writing a move, on the
/// board.
pub(super) const NONE: u8 = 0;
pub(super) const WRITTEN: u8 = 1;
pub(super) const BOARD: u8 = 2;

impl Board {
    /// Asks the engine about ply `p` (pushes exactly one `avail` entry):
    /// the game's end, else the claims available on the board, then those
    /// a written move would make, then the events of the new ones.
    pub(super) fn evaluate<G: Game>(
        &mut self,
        replay: &Replay<G>,
        rules: &Rulebook,
        cx: &Context<'_>,
        p: usize,
        out: &mut Vec<Event>,
    ) {
        let search = cx.options.dead_search;
        let Ok(verdict) = claims::decide(replay, rules, None, &request(p, None, search)) else {
            self.avail.push([NONE, NONE]);
            return;
        };
        if let Some(over) = verdict.game_over {
            // A dead position proved now may have been dead a few plies
            // before: the end is at `over.ply`, and the caller says what
            // was recorded after it.
            self.game_ended::<G>(replay, cx, &over, out);
            self.avail.push([NONE, NONE]);
            return;
        }
        let mut grounds: Grounds = [None, None];
        for g in verdict.decision.into_grounds() {
            let i = usize::from(g.rule.is_count());
            grounds[i].get_or_insert((g, None));
        }
        written_grounds(replay, rules, p, search, &mut grounds);
        let form = |g: &Option<(claims::Ground, Option<String>)>| match g {
            None => NONE,
            Some((_, Some(_))) => WRITTEN,
            Some((_, None)) => BOARD,
        };
        let now = [form(&grounds[0]), form(&grounds[1])];
        let before = p.checked_sub(2).and_then(|q| self.avail.get(q)).copied();
        self.avail.push(now);
        self.claims_available(cx, p, verdict.claimant, grounds, before, out);
    }

    /// The events of the claims that became available at ply `p` (said
    /// once per player's stretch), and the board's claim state.
    #[allow(clippy::too_many_arguments)]
    fn claims_available(
        &mut self,
        cx: &Context<'_>,
        p: usize,
        side: crate::game::Side,
        grounds: Grounds,
        before: Option<[u8; 2]>,
        out: &mut Vec<Event>,
    ) {
        let mut claims = Vec::new();
        for (i, g) in grounds.into_iter().enumerate() {
            let Some((ground, mv)) = g else { continue };
            let (words, short) = match ground.rule {
                Rule::ThreefoldRepetition => ("threefold repetition", "threefold"),
                Rule::FiftyMove => ("the fifty-move rule", "fifty moves"),
                Rule::UnchangedMaterial => ("unchanged material", "material"),
            };
            claims.push(match &mv {
                Some(m) => format!("{short} by writing {m}"),
                None => format!("{short} on the board"),
            });
            // Said once per stretch, and again when a claim by writing
            // a move becomes one on the board.
            let now = if mv.is_some() { WRITTEN } else { BOARD };
            if before.is_some_and(|b| b[i] >= now) {
                continue;
            }
            let message = match &mv {
                Some(m) => format!(
                    "{} can claim a draw by writing {m} ({words}, {})",
                    side.title(),
                    ground.article
                ),
                None => format!(
                    "{} can claim a draw: {words} on the board ({})",
                    side.title(),
                    ground.article
                ),
            };
            let mut e = Event::new(cx.file, &self.id, p, EventKind::ClaimAvailable, message);
            e.side = Some(side);
            e.mv = mv;
            e.article = Some(ground.article);
            e.reason = Some(ground.rule.name());
            out.push(e);
        }
        self.claim_state = if claims.is_empty() {
            "playing".to_owned()
        } else {
            format!("{} may claim: {}", side.title(), claims.join("; "))
        };
    }
}

/// Whether some position with the opponent to move, since the last
/// irreversible move, has stood twice (by hash: a necessary condition for
/// a written move to repeat it a third time; the engine confirms).
fn twice_stood<G: Game>(replay: &Replay<G>, p: usize) -> bool {
    let hashes: Vec<u64> = (replay.since(p)..p)
        .filter(|q| (p - q) % 2 == 1)
        .map(|q| replay.hashes[q])
        .collect();
    hashes
        .iter()
        .enumerate()
        .any(|(i, h)| hashes[i + 1..].contains(h))
}

/// The claims available at a ply, repetition then count: the ground and
/// the written move that makes it (none on the board).
type Grounds = [Option<(claims::Ground, Option<String>)>; 2];

/// A claim at `ply`, asked at every ply in turn and only while the game has
/// not ended: the earlier plies were asked already.
fn request(
    ply: usize,
    written: Option<&str>,
    dead_search: crate::game::Search,
) -> ClaimRequest<'_> {
    ClaimRequest {
        ply,
        written,
        kind: ClaimKind::Any,
        claimant: None,
        dead_search,
        scope: claims::Scope::OpenBefore,
    }
}

/// Fills the grounds a written move would give at ply `p`. `pending` plays
/// every legal move: asked only where a written move could complete a claim
/// at all (the count one short, or a position the move could reach having
/// stood twice).
fn written_grounds<G: Game>(
    replay: &Replay<G>,
    rules: &Rulebook,
    p: usize,
    search: crate::game::Search,
    grounds: &mut Grounds,
) {
    let could = [
        grounds[0].is_none() && twice_stood(replay, p),
        grounds[1].is_none() && G::count_clock(&replay.position(p)) + 1 >= rules.count_plies,
    ];
    if !could.contains(&true) {
        return;
    }
    let pending = claims::pending(replay, rules, p);
    let pos = &replay.position(p);
    for (i, moves) in [pending.repetition, pending.count].into_iter().enumerate() {
        if grounds[i].is_some() {
            continue;
        }
        let Some(m) = moves.first() else { continue };
        let san = G::notation(pos, m);
        let Ok(v) = claims::decide(replay, rules, None, &request(p, Some(&san), search)) else {
            continue;
        };
        let rule = [rules.repetition_rule, rules.count_rule][i];
        if let Some(g) = v
            .decision
            .into_grounds()
            .into_iter()
            .find(|g| g.rule == rule && g.form == Form::WrittenMove)
        {
            grounds[i] = Some((g, Some(numbered::<G>(pos, &san))));
        }
    }
}
