//! The JSON printer: one object per claim. The schema is documented in the
//! README ("JSON output"); the first fields are a contract.

use serde_json::{Value, json};

use super::ClaimReport;

/// The claim as a JSON value.
pub fn claim(r: &ClaimReport) -> Value {
    let v = &r.verdict;
    let label = |p: usize| -> Value {
        match r.labels.get(&p) {
            _ if p == v.ply + 1 => json!(r.written_label),
            Some(l) if p > 0 => json!(l),
            _ => Value::Null,
        }
    };
    json!({
        "file": r.file,
        "game": r.game,
        "game_type": r.game_type,
        "rules": r.rules,
        "ply": v.ply,
        "claimant": v.claimant,
        "written_move": v.written_move,
        "valid": v.valid,
        "grounds": v.grounds,
        "game_over": v.game_over,
        "claimed_by": v.claimed_by,
        "reasons": v.reasons,
        "repetitions": v.repetitions.iter().map(|&p| json!({"ply": p, "move": label(p)})).collect::<Vec<_>>(),
        "repetitions_with_written_move": v.repetitions_written.iter().map(|&p| json!({"ply": p, "move": label(p)})).collect::<Vec<_>>(),
        "near_misses": v.near_misses.iter().map(|n| json!({"ply": n.ply, "move": label(n.ply), "of": n.of, "reason": n.reason})).collect::<Vec<_>>(),
        "count": v.count,
        "written_move_ends_game": v.written_ending,
        "penalty": v.penalty,
        "dead_check": dead_check(&v.dead_check),
        "fen": r.fen,
        "notes": r.notes,
        "encoding": r.encoding,
        "not_checked": r.unverifiable,
    })
}

/// `{"search", "dead", "white_can_win", "black_can_win", "helpmates"}`:
/// true/false/null (undetermined); helpmates in SAN from the claim position.
pub fn dead_check(d: &crate::game::DeadCheck) -> Value {
    let line = |w: &crate::game::Win| match w {
        crate::game::Win::Yes { helpmate } => json!(helpmate),
        _ => Value::Null,
    };
    json!({
        "search": d.search,
        "dead": d.dead(),
        "white_can_win": d.white.as_bool(),
        "black_can_win": d.black.as_bool(),
        "helpmates": {"white": line(&d.white), "black": line(&d.black)},
    })
}
