//! The recorded result against the Laws: the Result tag against the
//! movetext's marker, moves recorded after the game ended, a result other
//! than the ending's, unwinnable losses (6.9, 5.1.2), and with
//! `--min-draw-moves` draws agreed too early (9.1.1) or recorded with no
//! moves at all.

use super::{End, Finding, Kind, ScanOptions, info, mismatch};
use crate::game::{Game, Side, Win};
use crate::laws::{GameResult, Rulebook};
use crate::record::GameRecord;

#[allow(clippy::too_many_arguments)]
pub(super) fn check_result<G: Game>(
    record: &GameRecord<'_>,
    rules: &Rulebook,
    opts: &ScanOptions,
    n: usize,
    final_pos: &G::Position,
    end: Option<End>,
    claimable_at_end: bool,
    out: &mut Vec<Finding>,
) {
    let end_offset = record
        .result
        .map(|r| r.offset)
        .or_else(|| record.moves.last().map(|m| m.offset))
        .unwrap_or(record.offset);
    let tag = record
        .tag("Result")
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let marker = record.result.map(|r| r.text);
    if let (Some(t), Some(m)) = (tag, marker)
        && GameResult::read(t) != GameResult::read(m)
    {
        out.push(tag_mismatch(n, end_offset, t, m, end));
    }
    // The result as recorded (its text, printed), and what it means.
    let Some((recorded, recorded_norm)) =
        tag.or(marker).and_then(|r| Some((r, GameResult::read(r)?)))
    else {
        return;
    };
    if let Some(e) = end {
        ended_result(record, n, e, recorded, recorded_norm, end_offset, out);
        return;
    }
    unwinnable_loss::<G>(
        record,
        rules,
        opts,
        n,
        final_pos,
        recorded,
        recorded_norm,
        end_offset,
        out,
    );
    if let Some(min) = opts.min_draw_moves
        && recorded_norm == GameResult::Draw
        && !claimable_at_end
    {
        let authority = rules.early_draw_authority();
        if n == 0 {
            // Nothing was played: no agreement to date, only a result.
            let message = format!(
                "the record has a result ({recorded}) but no moves: whether the draw was agreed before move {min} ({authority}) cannot be told from it"
            );
            out.push(Finding {
                recorded: Some(recorded.to_owned()),
                ..info(Kind::NoMovesRecorded, 0, end_offset, None, None, message)
            });
            return;
        }
        early_agreement::<G>(final_pos, min, n, recorded, authority, end_offset, out);
    }
}

/// A Result tag that disagrees with the movetext's own termination marker:
/// `recorded` is the tag (the result the scan checks against the Laws),
/// `expected` the Laws' result where they ended the game (never the marker,
/// which is only another statement of the record), else none.
fn tag_mismatch(n: usize, offset: usize, tag: &str, marker: &str, end: Option<End>) -> Finding {
    let mut message = format!("the Result tag says {tag} but the movetext ends with {marker}");
    if let Some(e) = end {
        let how = e.kind.name().replace('-', " ");
        message.push_str(&format!("; the game ended by {how}: {}", e.result));
    }
    Finding {
        recorded: Some(tag.to_owned()),
        expected: end.map(|e| e.result.name().to_owned()),
        ..info(Kind::ResultTagMismatch, n, offset, None, None, message)
    }
}

/// The recorded result of a game that ended by itself at `e`: moves
/// recorded after the end (a warning when the result is still the one the
/// Laws give, else a mismatch), or a result other than the ending's.
fn ended_result(
    record: &GameRecord<'_>,
    n: usize,
    e: End,
    recorded: &str,
    recorded_norm: GameResult,
    end_offset: usize,
    out: &mut Vec<Finding>,
) {
    let how = e.kind.name().replace('-', " ");
    if e.ply >= n {
        if recorded_norm != GameResult::Unfinished && recorded_norm != e.result {
            let message = format!(
                "recorded {recorded}, but the game ended by {how}: {}",
                e.result
            );
            out.push(mismatch(e.ply, end_offset, recorded, e.result, message));
        }
        return;
    }
    let after = format!(
        "{} recorded after the game ended at ply {} by {how}",
        crate::words::moves(n - e.ply),
        e.ply
    );
    if recorded_norm == e.result || recorded_norm == GameResult::Unfinished {
        // The result stands; only the record goes on (a common scoresheet
        // habit): a warning at the first extra move.
        let offset = record.moves.get(e.ply).map_or(end_offset, |m| m.offset);
        out.push(Finding {
            recorded: Some(recorded.to_owned()),
            expected: Some(e.result.name().to_owned()),
            ..info(
                Kind::MovesAfterEnd,
                e.ply,
                offset,
                None,
                None,
                format!("{after}; the recorded result {recorded} is the one the Laws give"),
            )
        });
    } else {
        let message = format!(
            "{after}; recorded {recorded}, but the Laws give {}",
            e.result
        );
        out.push(mismatch(e.ply, end_offset, recorded, e.result, message));
    }
}

/// Article 9.1.1 (in column draughts, the event's regulations): a draw
/// agreed before move `min` with no claimable ground at the end.
fn early_agreement<G: Game>(
    final_pos: &G::Position,
    min: u32,
    n: usize,
    recorded: &str,
    authority: &str,
    end_offset: usize,
    out: &mut Vec<Finding>,
) {
    let number = G::move_number(final_pos);
    let completed = if G::side_to_move(final_pos) == Side::White {
        number.saturating_sub(1)
    } else {
        number
    };
    if completed >= min {
        return;
    }
    let moves = crate::words::moves(completed as usize);
    out.push(Finding {
        recorded: Some(recorded.to_owned()),
        ..info(
            Kind::EarlyDrawAgreement,
            n,
            end_offset,
            None,
            None,
            format!(
                "drawn after {moves}, before move {min}, with no claimable ground ({authority})"
            ),
        )
    });
}

/// Article 6.9 (and, from 2023, 5.1.2): a game lost on time (or by
/// resignation) is drawn when the winner could not have checkmated by any
/// sequence of legal moves. Read from the `Termination` tag. Chess only
/// ([`Rulebook::unwinnable_loss_article`]): in column draughts a loss by
/// the clock stands (1.12).
#[allow(clippy::too_many_arguments)]
fn unwinnable_loss<G: Game>(
    record: &GameRecord<'_>,
    rules: &Rulebook,
    opts: &ScanOptions,
    n: usize,
    final_pos: &G::Position,
    recorded: &str,
    recorded_norm: GameResult,
    offset: usize,
    out: &mut Vec<Finding>,
) {
    let Some(winner) = recorded_norm.winner() else {
        return;
    };
    let term = record.tag("Termination").unwrap_or("").to_ascii_lowercase();
    let (kind, how, on_time) = if term.contains("time") {
        (Kind::UnwinnableFlagFall, "on time", true)
    } else if term.contains("resign") {
        (Kind::UnwinnableResignation, "by resignation", false)
    } else {
        return;
    };
    let Some(article) = rules.unwinnable_loss_article(on_time) else {
        return;
    };
    if G::can_mate(final_pos, winner, opts.dead_search) != Win::No {
        return;
    }
    out.push(info(
        kind,
        n,
        offset,
        Some(winner),
        None,
        format!(
            "won {how} by {}, who could not checkmate by any sequence of legal moves: the game is drawn ({article})",
            winner.title()
        ),
    ));
    out.push(mismatch(
        n,
        offset,
        recorded,
        GameResult::Draw,
        format!(
            "recorded {recorded} (won {how}), but {} could not checkmate: a draw ({article})",
            winner.title()
        ),
    ));
}
