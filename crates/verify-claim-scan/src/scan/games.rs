//! The per-game table (`scan --per-game`, Python's `scan_games`): one row
//! per game of the input, unreadable games included, built by the workers
//! from the same one scan that gives the findings (the game's record, its
//! findings and the Laws' ending) and numbered by the order, as the
//! findings are. The columns and their meanings are issue 44's contract
//! (docs/scan.md#the-per-game-table).

use std::sync::Arc;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::claims::scan::{Finding, Kind, Outcome};
use crate::diag::{LineCursor, Place};
use crate::laws::GameResult;
use crate::record::GameRecord;

/// One game of the input: its tags, how far it was replayed, how the Laws
/// ended it, the first claimable plies, the clocks there, its first error
/// and how many findings it has. The columns' order is the order of its
/// serialization (and of `scan --per-game`'s CSV header).
///
/// The ten tag columns are read with [`GameLine::site`] and the other
/// methods: their texts share one buffer (a row per game of a month of
/// lichess: one allocation a row, not eleven).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameLine {
    /// The input as named (`<stdin>` for `-`), shared by its rows.
    pub file: Arc<str>,
    /// 1-based game number in the input.
    pub game: usize,
    /// The game's first line (of an unreadable game: where it began).
    pub line: u32,
    tags: TagTexts,
    /// `WhiteElo` as an integer (`None`: absent, or not a number).
    pub white_elo: Option<i64>,
    /// `BlackElo` likewise.
    pub black_elo: Option<i64>,
    /// Plies replayed (up to an illegal or unreadable move).
    pub plies: usize,
    /// The result the Laws give where they ended the game.
    pub laws_result: Option<GameResult>,
    /// The finding kind of the rule that ended it (`checkmate`, ...).
    pub ended_by: Option<Kind>,
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

/// The tag columns, in their order.
const SITE: usize = 0;
const EVENT: usize = 1;
const DATE: usize = 2;
const ROUND: usize = 3;
const WHITE: usize = 4;
const BLACK: usize = 5;
const TIME_CONTROL: usize = 6;
const ECO: usize = 7;
const TERMINATION: usize = 8;
const RESULT: usize = 9;

/// The tag column a PGN tag fills, by its name: the one list of them,
/// for the scan's rows and for rows built by hand.
fn tag_column(name: &str) -> Option<usize> {
    Some(match name {
        "Site" => SITE,
        "Event" => EVENT,
        "Date" => DATE,
        "Round" => ROUND,
        "White" => WHITE,
        "Black" => BLACK,
        "TimeControl" => TIME_CONTROL,
        "ECO" => ECO,
        "Termination" => TERMINATION,
        "Result" => RESULT,
        _ => return None,
    })
}

/// A row's tag texts: each column's span of a buffer, or `None` where the
/// record has no such tag. The buffer is the chunk's, shared by its rows
/// ([`Drafts`]): a row of the table allocates nothing of its own.
#[derive(Clone, Debug, Default, PartialEq)]
struct TagTexts {
    text: Arc<str>,
    spans: [Option<(u32, u32)>; 10],
}

impl TagTexts {
    fn get(&self, i: usize) -> Option<&str> {
        let (from, to) = self.spans[i]?;
        self.text.get(from as usize..to as usize)
    }
}

/// Column `i` of `spans` is `value`, appended to `buf`, unless it has one
/// already (the first tag of a name counts, as [`GameRecord::tag`] finds
/// it). A span that would not fit `u32` (4 GiB of tags) is left out.
fn set_first(spans: &mut [Option<(u32, u32)>; 10], buf: &mut String, i: usize, value: &str) {
    if spans[i].is_some() {
        return;
    }
    let from = buf.len();
    let (Ok(a), Ok(b)) = (u32::try_from(from), u32::try_from(from + value.len())) else {
        return;
    };
    buf.push_str(value);
    spans[i] = Some((a, b));
}

/// The tag columns, as written (`None`: the record has no such tag).
impl GameLine {
    /// The `Site` tag.
    pub fn site(&self) -> Option<&str> {
        self.tags.get(SITE)
    }
    /// The `Event` tag.
    pub fn event(&self) -> Option<&str> {
        self.tags.get(EVENT)
    }
    /// The `Date` tag.
    pub fn date(&self) -> Option<&str> {
        self.tags.get(DATE)
    }
    /// The `Round` tag.
    pub fn round(&self) -> Option<&str> {
        self.tags.get(ROUND)
    }
    /// The `White` tag.
    pub fn white(&self) -> Option<&str> {
        self.tags.get(WHITE)
    }
    /// The `Black` tag.
    pub fn black(&self) -> Option<&str> {
        self.tags.get(BLACK)
    }
    /// The `TimeControl` tag.
    pub fn time_control(&self) -> Option<&str> {
        self.tags.get(TIME_CONTROL)
    }
    /// The `ECO` tag.
    pub fn eco(&self) -> Option<&str> {
        self.tags.get(ECO)
    }
    /// The `Termination` tag.
    pub fn termination(&self) -> Option<&str> {
        self.tags.get(TERMINATION)
    }
    /// The recorded result: the `Result` tag, else the movetext's marker.
    pub fn result(&self) -> Option<&str> {
        self.tags.get(RESULT)
    }

    /// Sets a tag column by its PGN tag name (`"Site"`, `"ECO"`, ...:
    /// the ten of the table), unless it is set already; for rows built by
    /// hand (tests, other readers). Other names are ignored.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if let Some(i) = tag_column(name) {
            let mut buf = String::from(&*self.tags.text);
            set_first(&mut self.tags.spans, &mut buf, i, value);
            self.tags.text = buf.into();
        }
    }
}

impl Serialize for GameLine {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("GameLine", 28)?;
        m.serialize_field("file", &*self.file)?;
        m.serialize_field("game", &self.game)?;
        m.serialize_field("line", &self.line)?;
        m.serialize_field("site", &self.site())?;
        m.serialize_field("event", &self.event())?;
        m.serialize_field("date", &self.date())?;
        m.serialize_field("round", &self.round())?;
        m.serialize_field("white", &self.white())?;
        m.serialize_field("black", &self.black())?;
        m.serialize_field("white_elo", &self.white_elo)?;
        m.serialize_field("black_elo", &self.black_elo)?;
        m.serialize_field("time_control", &self.time_control())?;
        m.serialize_field("eco", &self.eco())?;
        m.serialize_field("termination", &self.termination())?;
        m.serialize_field("result", &self.result())?;
        m.serialize_field("plies", &self.plies)?;
        m.serialize_field("laws_result", &self.laws_result)?;
        m.serialize_field("ended_by", &self.ended_by)?;
        m.serialize_field("ended_ply", &self.ended_ply)?;
        m.serialize_field("result_agrees", &self.result_agrees)?;
        m.serialize_field(
            "first_threefold_claimable_ply",
            &self.first_threefold_claimable_ply,
        )?;
        m.serialize_field("first_fifty_claimable_ply", &self.first_fifty_claimable_ply)?;
        m.serialize_field(
            "plies_after_first_claimable",
            &self.plies_after_first_claimable,
        )?;
        m.serialize_field("clock_white", &self.clock_white)?;
        m.serialize_field("clock_black", &self.clock_black)?;
        m.serialize_field("error", &self.error)?;
        m.serialize_field("error_ply", &self.error_ply)?;
        m.serialize_field("findings", &self.findings)?;
        m.end()
    }
}

/// A row as a worker builds it: game and line numbered within its chunk,
/// the error not yet placed in its file.
#[derive(Clone, Debug)]
pub struct Draft {
    pub(crate) row: GameLine,
    /// The first error: its place in the chunk and its message.
    pub(crate) error: Option<(Place, String)>,
}

/// A chunk's rows as a worker builds them, their tag texts in one buffer:
/// one allocation a chunk, not one a row (the rows are dropped by the
/// thread that prints them, where freeing a worker's allocation a row cost
/// more CPU than making it).
#[derive(Default)]
pub(crate) struct Drafts {
    rows: Vec<Draft>,
    text: String,
}

impl Drafts {
    /// A row made without tags (an unreadable game).
    pub(crate) fn push(&mut self, d: Draft) {
        self.rows.push(d);
    }

    /// The row of a record read whole (see [`Draft::of_record`]).
    pub(crate) fn record(
        &mut self,
        rec: &GameRecord<'_>,
        bytes: &[u8],
        game: usize,
        findings: &[Finding],
        outcome: &Outcome,
        cursor: &mut LineCursor<'_>,
    ) {
        let d = Draft::of_record(rec, bytes, game, findings, outcome, cursor, &mut self.text);
        self.rows.push(d);
    }

    /// The rows, sharing the chunk's tag texts.
    pub(crate) fn finish(self) -> Vec<Draft> {
        let mut rows = self.rows;
        if !self.text.is_empty() {
            let text: Arc<str> = self.text.into();
            for d in &mut rows {
                d.row.tags.text = Arc::clone(&text);
            }
        }
        rows
    }
}

/// The row's tags, in one pass over the record's (the first of a name
/// counts, as [`GameRecord::tag`] finds it), not eleven look-ups.
/// Their texts go to `buf`, the chunk's.
fn tags(rec: &GameRecord<'_>, row: &mut GameLine, buf: &mut String) {
    let mut elo = [None, None];
    let spans = &mut row.tags.spans;
    for t in &rec.tags {
        if let Some(i) = tag_column(t.name) {
            set_first(spans, buf, i, &t.value);
        } else if let k @ ("WhiteElo" | "BlackElo") = t.name {
            let k = usize::from(k == "BlackElo");
            elo[k].get_or_insert(t.value.trim().parse::<i64>().ok());
        }
    }
    if let Some(r) = rec.result {
        set_first(spans, buf, RESULT, r.text);
    }
    [row.white_elo, row.black_elo] = elo.map(Option::flatten);
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
        buf: &mut String,
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
            laws_result: end.map(|e| e.result),
            ended_by: end.map(|e| e.kind),
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
        tags(rec, &mut row, buf);
        let result = row.tags.spans[RESULT].and_then(|(a, b)| buf.get(a as usize..b as usize));
        row.result_agrees = end.and_then(|e| {
            let recorded = decisive(result?)?;
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
    pub(crate) fn placed(mut self, file: &Arc<str>) -> GameLine {
        self.row.file = Arc::clone(file);
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
    // Most records without clocks have no `%clk` at all: one SIMD search
    // instead of a walk over every move's text.
    let start = rec.moves.first().map_or(end, |m| m.offset);
    if bytes
        .get(start..end)
        .is_none_or(|text| memchr::memmem::find(text, b"%clk").is_none())
    {
        return (None, None);
    }
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
                    if let Some(s) = crate::record::clock::command(&comment, "%clk")
                        .and_then(|c| crate::record::clock::seconds(&c))
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
