//! The search for the games that explain the sheets: a beam over plies
//! (Viterbi with a cap). A state is a position and, for each sheet, how
//! many of its boxes are used; each ply plays one legal move, and each
//! sheet either reads it from its next box (at the cost of the slip that
//! takes, [`super::token`]), or did not write it (a missing box), or holds
//! a box of no move before it (an extra box). Two paths to the same
//! position with the same boxes used are one state (the cheaper kept; an
//! equal one marks the state as tied, so the reading is not clear). The
//! cheapest `beam` states go on at each ply; the search says whether the
//! cap dropped a state as cheap as a reading it returns.

use std::collections::HashMap;

use super::token::{SheetGame, cost, costs};

/// How one sheet accounts for one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Used {
    /// Read from box `index` at `cost`.
    Box { index: usize, cost: u32 },
    /// Box `extra` holds no move; the ply is read from box `index`.
    Extra {
        extra: usize,
        index: usize,
        cost: u32,
    },
    /// Not written on this sheet.
    Missing,
    /// The sheet had ended.
    Ended,
}

impl Used {
    fn cost(self) -> u32 {
        match self {
            Used::Box { cost, .. } => cost,
            Used::Extra { cost: c, .. } => cost::EXTRA + c,
            Used::Missing => cost::MISSING,
            Used::Ended => 0,
        }
    }
    fn advance(self) -> usize {
        match self {
            Used::Box { .. } => 1,
            Used::Extra { .. } => 2,
            _ => 0,
        }
    }
}

/// A game found: its moves, how each sheet accounts for each ply, its
/// cost, and whether another path as cheap reached one of its states.
#[derive(Clone, Debug)]
pub(super) struct Found<M> {
    pub moves: Vec<M>,
    pub used: Vec<Vec<Used>>,
    pub cost: u32,
    pub tied: bool,
}

/// What the search found, and how far it looked.
pub(super) struct Outcome<M> {
    pub found: Vec<Found<M>>,
    /// States the search kept.
    pub states: usize,
    /// The cap dropped a state no dearer than the last reading returned.
    pub cut: bool,
}

struct Node<M> {
    parent: usize,
    mv: Option<M>,
    used: [Used; 2],
    cost: u32,
    tied: bool,
}

struct State<P> {
    node: usize,
    pos: P,
    hash: u64,
    at: [usize; 2],
}

/// How much dearer than the cheapest step of a ply a step may be and go on.
const MARGIN: u32 = 2 * cost::MAX_BOX;

/// A move of one state: (state, move index, per sheet use, cost).
type Step = (usize, usize, [Used; 2], u32);

/// Searches from `start` for the cheapest games explaining `sheets` (each a
/// list of boxes; `None` an empty box), at most `want` of them.
pub(super) fn search<G: SheetGame>(
    start: &G::Position,
    sheets: &[Vec<Option<G::Written>>],
    want: usize,
    beam: usize,
) -> Outcome<G::Move> {
    let lens = [
        sheets.first().map_or(0, Vec::len),
        sheets.get(1).map_or(0, Vec::len),
    ];
    let mut nodes: Vec<Node<G::Move>> = vec![Node {
        parent: usize::MAX,
        mv: None,
        used: [Used::Ended; 2],
        cost: 0,
        tied: false,
    }];
    let mut frontier = vec![State {
        node: 0,
        pos: start.clone(),
        hash: G::hash(start),
        at: [0, 0],
    }];
    let mut finals: Vec<usize> = Vec::new();
    let mut min_dropped = u32::MAX;
    let max_plies = lens[0] + lens[1] + 2;
    for _ in 0..max_plies {
        if frontier.is_empty() {
            break;
        }
        let legal: Vec<Vec<G::Move>> = frontier.iter().map(|s| G::legal_moves(&s.pos)).collect();
        let mut steps = steps_of::<G>(&frontier, &legal, &nodes, sheets, lens);
        let sorted = order_cheapest(&mut steps, beam);
        let mut next: Vec<State<G::Position>> = Vec::new();
        let mut seen: HashMap<(u64, [usize; 2]), usize> = HashMap::new();
        let mut layer_finals = 0;
        // Whether a step of this ply can use a sheet's last box (an extra
        // box uses two).
        let near_end = frontier
            .iter()
            .any(|s| (0..2).all(|sh| s.at[sh] + 2 >= lens[sh]));
        for idx in 0..steps.len() {
            if idx == sorted {
                steps[sorted..].sort_unstable_by_key(step_key);
            }
            let (si, mi, used, c) = steps[idx];
            let s = &frontier[si];
            let at = [s.at[0] + used[0].advance(), s.at[1] + used[1].advance()];
            let is_final = at[0] >= lens[0] && at[1] >= lens[1];
            // Enough states to go on, and enough readings ending here; or
            // dearer than the cheapest by more than two boxes' worst
            // slips (no later box can make up for that much).
            let too_dear = c > steps[0].3.saturating_add(MARGIN);
            if too_dear || next.len() >= beam && (layer_finals >= want * 2 || !near_end) {
                min_dropped = min_dropped.min(c);
                break;
            }
            if (is_final && layer_finals >= want * 2) || (!is_final && next.len() >= beam) {
                min_dropped = min_dropped.min(c);
                continue;
            }
            let m = &legal[si][mi];
            let mut pos = s.pos.clone();
            let hash = G::play(&mut pos, m, s.hash);
            if let Some(&i) = seen.get(&(hash, at))
                && next[i].pos == pos
            {
                let n = next[i].node;
                if nodes[n].cost == c {
                    nodes[n].tied = true;
                }
                continue;
            }
            let tied = nodes[s.node].tied;
            nodes.push(Node {
                parent: s.node,
                mv: Some(m.clone()),
                used,
                cost: c,
                tied,
            });
            let node = nodes.len() - 1;
            if is_final {
                finals.push(node);
                layer_finals += 1;
                continue;
            }
            seen.insert((hash, at), next.len());
            next.push(State {
                node,
                pos,
                hash,
                at,
            });
        }
        frontier = next;
    }
    collect(&nodes, finals, want, sheets.len().min(2), min_dropped)
}

/// Every step of every state of the frontier, with its cost so far.
fn steps_of<G: SheetGame>(
    frontier: &[State<G::Position>],
    legal: &[Vec<G::Move>],
    nodes: &[Node<G::Move>],
    sheets: &[Vec<Option<G::Written>>],
    lens: [usize; 2],
) -> Vec<Step> {
    let k = sheets.len().min(2);
    let mut steps: Vec<Step> = Vec::new();
    for (si, s) in frontier.iter().enumerate() {
        let base = nodes[s.node].cost;
        expand::<G>(s, &legal[si], sheets, k, lens, |mi, used, c| {
            steps.push((si, mi, used, base + c));
        });
    }
    steps
}

/// Puts the cheapest steps first, in order (ties by state, then move):
/// only the first few beams' worth are sorted (a ply has tens of thousands
/// of steps, and at most `beam` states go on; two merging into one state
/// is rare); the rest, sorted too, follow.
/// Returns where the sorted part ends: the caller sorts the rest
/// ([`sort_rest`]) only if it gets there.
fn order_cheapest(steps: &mut [Step], beam: usize) -> usize {
    let head = beam.saturating_mul(4);
    if steps.len() > head {
        steps.select_nth_unstable_by_key(head, step_key);
        steps[..head].sort_unstable_by_key(step_key);
        head
    } else {
        steps.sort_unstable_by_key(step_key);
        steps.len()
    }
}

fn step_key(&(si, mi, _, c): &Step) -> (u32, usize, usize) {
    (c, si, mi)
}

/// The moves of state `s` with each sheet's ways of accounting for them,
/// handed to `emit(move index, uses, cost)`.
fn expand<G: SheetGame>(
    s: &State<G::Position>,
    legal: &[G::Move],
    sheets: &[Vec<Option<G::Written>>],
    k: usize,
    lens: [usize; 2],
    mut emit: impl FnMut(usize, [Used; 2], u32),
) {
    // Per sheet: the costs of its next box and of the one after.
    let box_costs = |sh: usize, j: usize| -> Option<Vec<Option<u32>>> {
        let b = sheets.get(sh)?.get(j)?;
        Some(match b {
            None => vec![Some(cost::EXACT); legal.len()],
            Some(w) => costs::<G>(&s.pos, legal, w),
        })
    };
    let active: [bool; 2] = [0 < k && s.at[0] < lens[0], 1 < k && s.at[1] < lens[1]];
    let here = [
        active[0].then(|| box_costs(0, s.at[0])).flatten(),
        active[1].then(|| box_costs(1, s.at[1])).flatten(),
    ];
    let after = [
        active[0].then(|| box_costs(0, s.at[0] + 1)).flatten(),
        active[1].then(|| box_costs(1, s.at[1] + 1)).flatten(),
    ];
    // Each sheet's ways of accounting for move `mi` (at most three).
    let ways = |sh: usize, mi: usize| -> ([Used; 3], usize) {
        let mut out = [Used::Ended; 3];
        if !active[sh] {
            return (out, 1);
        }
        let j = s.at[sh];
        out[0] = Used::Missing;
        let mut n = 1;
        if let Some(c) = here[sh].as_ref().and_then(|v| v[mi]) {
            out[n] = Used::Box { index: j, cost: c };
            n += 1;
        }
        if let Some(c) = after[sh].as_ref().and_then(|v| v[mi]) {
            out[n] = Used::Extra {
                extra: j,
                index: j + 1,
                cost: c,
            };
            n += 1;
        }
        (out, n)
    };
    for mi in 0..legal.len() {
        let (a, na) = ways(0, mi);
        let (b, nb) = ways(1, mi);
        for &a in &a[..na] {
            for &b in &b[..nb] {
                if a.advance() + b.advance() > 0 {
                    emit(mi, [a, b], a.cost() + b.cost());
                }
            }
        }
    }
}

/// The cheapest distinct games among the final states.
fn collect<M: Clone + PartialEq>(
    nodes: &[Node<M>],
    mut finals: Vec<usize>,
    want: usize,
    k: usize,
    min_dropped: u32,
) -> Outcome<M> {
    finals.sort_by_key(|&n| (nodes[n].cost, n));
    let mut found: Vec<Found<M>> = Vec::new();
    for n in finals {
        if found.len() >= want {
            break;
        }
        let mut moves = Vec::new();
        let mut used: Vec<Vec<Used>> = vec![Vec::new(); k];
        let mut tied = false;
        let mut i = n;
        while i != 0 {
            let node = &nodes[i];
            if let Some(m) = &node.mv {
                moves.push(m.clone());
            }
            for (sh, u) in used.iter_mut().enumerate() {
                u.push(node.used[sh]);
            }
            tied |= node.tied;
            i = node.parent;
        }
        moves.reverse();
        used.iter_mut().for_each(|u| u.reverse());
        if found.iter().any(|f| f.moves == moves) {
            continue;
        }
        found.push(Found {
            moves,
            used,
            cost: nodes[n].cost,
            tied,
        });
    }
    let last = found.last().map_or(u32::MAX, |f| f.cost);
    Outcome {
        states: nodes.len(),
        cut: min_dropped <= last,
        found,
    }
}
