//! The per-game table (`scan --per-game`, Python's `scan_games`): one row
//! per game of the input, unreadable games included, built by the workers
//! from the same one scan that gives the findings (the game's record, its
//! findings and the Laws' ending) and numbered by the order, as the
//! findings are. The columns and their meanings are issue 44's contract
//! (docs/scan.md#the-per-game-table).

use serde::Serialize;

use crate::claims::scan::{Finding, Kind, Outcome};
use crate::diag::{LineCursor, Place};
use crate::laws::GameResult;
use crate::record::GameRecord;

/// One game of the input: its tags, how far it was replayed, how the Laws
/// ended it, the first claimable plies, the clocks there, its first error
/// and how many findings it has. The field order is the column order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameLine {
    /// The input as named (`<stdin>` for `-`).
    pub file: String,
    /// 1-based game number in the input.
    pub game: usize,
    /// The game's first line (of an unreadable game: where it began).
    pub line: u32,
    /// The tags as written (`None`: absent).
    pub site: Option<String>,
    #[allow(missing_docs)]
    pub event: Option<String>,
    #[allow(missing_docs)]
    pub date: Option<String>,
    #[allow(missing_docs)]
    pub round: Option<String>,
    #[allow(missing_docs)]
    pub white: Option<String>,
    #[allow(missing_docs)]
    pub black: Option<String>,
    /// `WhiteElo` as an integer (`None`: absent, or not a number).
    pub white_elo: Option<i64>,
    /// `BlackElo` likewise.
    pub black_elo: Option<i64>,
    /// The `TimeControl` tag as written.
    pub time_control: Option<String>,
    /// The `ECO` tag as written.
    pub eco: Option<String>,
    /// The `Termination` tag as written.
    pub termination: Option<String>,
    /// The recorded result: the `Result` tag, else the movetext's marker.
    pub result: Option<String>,
    /// Plies replayed (up to an illegal or unreadable move).
    pub plies: usize,
    /// The result the Laws give where they ended the game.
    pub laws_result: Option<&'static str>,
    /// The finding kind of the rule that ended it (`checkmate`, ...).
    pub ended_by: Option<&'static str>,
    /// The ply at which it ended.
    pub ended_ply: Option<usize>,
    /// Whether the recorded result is the Laws' (`None`: the Laws did not
    /// end the game, or no result is recorded).
    pub result_agrees: Option<bool>,
    /// The ply of the scan's first `threefold-claimable` finding.
    pub first_threefold_claimable_ply: Option<usize>,
    /// The ply of the scan's first `fifty-move-claimable` finding.
    pub first_fifty_claimable_ply: Option<usize>,
    /// Plies played after the earlier of the two.
    pub plies_after_first_claimable: Option<usize>,
    /// White's latest `[%clk]` at or before the first claimable ply, in
    /// seconds.
    pub clock_white: Option<f64>,
    /// Black's likewise.
    pub clock_black: Option<f64>,
    /// The game's first error, as `file:line:col: message`, for a game not
    /// fully read.
    pub error: Option<String>,
    /// The plies before that error (moves read, for an error of the
    /// reader).
    pub error_ply: Option<usize>,
    /// How many findings the scan reports for the game (every severity).
    pub findings: usize,
}

/// A row as a worker builds it: game and line numbered within its chunk,
/// the error not yet placed in its file.
#[derive(Clone, Debug)]
pub(crate) struct Draft {
    pub(crate) row: GameLine,
    /// The first error: its place in the chunk and its message.
    pub(crate) error: Option<(Place, String)>,
}

/// The row's tags, in one pass over the record's (the first of a name
/// counts, as [`GameRecord::tag`] finds it), not eleven look-ups.
fn tags(rec: &GameRecord<'_>, row: &mut GameLine) {
    let mut elo = [None, None];
    for t in &rec.tags {
        let slot = match t.name {
            "Site" => &mut row.site,
            "Event" => &mut row.event,
            "Date" => &mut row.date,
            "Round" => &mut row.round,
            "White" => &mut row.white,
            "Black" => &mut row.black,
            "TimeControl" => &mut row.time_control,
            "ECO" => &mut row.eco,
            "Termination" => &mut row.termination,
            "Result" => &mut row.result,
            "WhiteElo" | "BlackElo" => {
                let k = usize::from(t.name == "BlackElo");
                elo[k].get_or_insert(t.value.trim().parse::<i64>().ok());
                continue;
            }
            _ => continue,
        };
        if slot.is_none() {
            *slot = Some(t.value.to_string());
        }
    }
    [row.white_elo, row.black_elo] = elo.map(Option::flatten);
    if row.result.is_none() {
        row.result = rec.result.map(|r| r.text.to_owned());
    }
}

/// A recorded result, "2-0" and the other draughts forms read as chess
/// results (the scan's own reading); `None` for no result (`*` too).
fn decisive(r: &str) -> Option<GameResult> {
    GameResult::read(r).filter(|r| *r != GameResult::Unfinished)
}

impl Draft {
    /// The row of a record read whole: `game` within the chunk, `bytes`
    /// the chunk (for the clocks), `cursor` at or before the game's start.
    pub(crate) fn of_record(
        rec: &GameRecord<'_>,
        bytes: &[u8],
        game: usize,
        findings: &[Finding],
        outcome: &Outcome,
        cursor: &mut LineCursor<'_>,
    ) -> Draft {
        let first = |k: Kind| findings.iter().find(|f| f.kind == k).map(|f| f.ply);
        let threefold = first(Kind::ThreefoldClaimable);
        let fifty = first(Kind::FiftyMoveClaimable);
        let claimable = threefold.into_iter().chain(fifty).min();
        let (clock_white, clock_black) =
            claimable.map_or((None, None), |p| clocks(rec, bytes, p, outcome.black_first));
        let end = outcome.end;
        let error = findings
            .iter()
            .find(|f| matches!(f.kind, Kind::ParseError | Kind::IllegalMove));
        let line = cursor.place(rec.offset).line;
        let mut row = GameLine {
            game,
            line,
            plies: outcome.plies,
            laws_result: end.map(|e| e.result.name()),
            ended_by: end.map(|e| e.kind.name()),
            ended_ply: end.map(|e| e.ply),
            first_threefold_claimable_ply: threefold,
            first_fifty_claimable_ply: fifty,
            plies_after_first_claimable: claimable.map(|p| outcome.plies.saturating_sub(p)),
            clock_white,
            clock_black,
            error_ply: error.map(|e| e.ply),
            findings: findings.len(),
            ..GameLine::default()
        };
        tags(rec, &mut row);
        row.result_agrees = end.and_then(|e| {
            let recorded = decisive(row.result.as_deref()?)?;
            Some(recorded == e.result)
        });
        let error = error.map(|e| (cursor.place(e.offset), e.message.clone()));
        Draft { row, error }
    }

    /// The row of a game the reader could not read (or hold): where it
    /// began (`line` in the chunk), its error and the moves before it.
    pub(crate) fn unreadable(
        game: usize,
        line: u32,
        at: Place,
        message: String,
        error_ply: Option<usize>,
    ) -> Draft {
        Draft {
            row: GameLine {
                game,
                line,
                error_ply,
                findings: 1,
                ..GameLine::default()
            },
            error: Some((at, message)),
        }
    }

    /// Moved on by the games and lines before its chunk in the input.
    pub(crate) fn moved(&mut self, games: usize, lines: u32) {
        self.row.game += games;
        self.row.line += lines;
        if let Some((at, _)) = &mut self.error {
            at.line += lines;
        }
    }

    /// The row in its file.
    pub(crate) fn placed(mut self, file: &str) -> GameLine {
        self.row.file = file.to_owned();
        if let Some((at, message)) = self.error {
            self.row.error = Some(format!("{file}:{}:{}: {message}", at.line, at.col));
        }
        self.row
    }
}

/// Each side's latest `[%clk]` (in seconds) among the moves before ply
/// `ply`: the comments after move `k` are read up to the next move (or the
/// game's end), outside variations, the first `[%clk]` of them counting
/// (as python-chess's `clock()` reads a node's comment). `black_first`:
/// the first move is Black's.
fn clocks(
    rec: &GameRecord<'_>,
    bytes: &[u8],
    ply: usize,
    black_first: bool,
) -> (Option<f64>, Option<f64>) {
    let mut out = [None, None];
    let end = rec.result.map_or(rec.end, |r| r.offset);
    for k in (0..ply.min(rec.moves.len())).rev() {
        // 0: White's move, 1: Black's.
        let side = (k + usize::from(black_first)) % 2;
        if out[side].is_some() {
            continue;
        }
        let from = rec.moves[k].offset;
        let to = rec.moves.get(k + 1).map_or(end, |m| m.offset).max(from);
        out[side] = bytes.get(from..to).and_then(clock_after_move);
        if out[0].is_some() && out[1].is_some() {
            break;
        }
    }
    (out[0], out[1])
}

/// The first `[%clk]` in the comments of one move's stretch of movetext
/// (the move, its comments, variations, the next move number), outside
/// variations. A hand-written pass, not a PGN parser: the reader has
/// checked the stretch's syntax already.
fn clock_after_move(text: &[u8]) -> Option<f64> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'{' => {
                let close = memchr::memchr(b'}', &text[i..]).map_or(text.len(), |j| i + j);
                if depth == 0 {
                    let comment = String::from_utf8_lossy(&text[i + 1..close]);
                    if let Some(s) = crate::watch::look::command(&comment, "%clk")
                        .and_then(|c| crate::watch::look::seconds(&c))
                    {
                        return Some(s);
                    }
                }
                i = close;
            }
            b';' => i = memchr::memchr2(b'\n', b'\r', &text[i..]).map_or(text.len(), |j| i + j),
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_read_outside_variations_only() {
        assert_eq!(clock_after_move(b"e4 {[%clk 0:03:00]} 1..."), Some(180.0));
        assert_eq!(clock_after_move(b"e4 ( d4 {[%clk 0:01:00]} ) 1..."), None);
        assert_eq!(
            clock_after_move(b"e4 ( d4 {(} ) {x} {[%eval 0.2] [%clk 1:00:00.5]} 2."),
            Some(3600.5)
        );
        assert_eq!(clock_after_move(b"e4 ; {[%clk 0:01:00]}\n"), None);
    }
}
