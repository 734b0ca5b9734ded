//! One chunk analysed: its games read, each game's findings placed at
//! their lines and, when the sink wants them, each game's row and each
//! finding's board. Workers call [`analyse_chunk`]; nothing here knows
//! threads or order.

use std::sync::atomic::{AtomicBool, Ordering};

use super::games::Drafts;
use super::{Draft, Placed};
use crate::claims::scan::{Finding, Kind, ScanOptions, scan_record_outcome};
use crate::diag::{LineCursor, Place};
use crate::input::chunks::{Chunk, MAX_GAME};
use crate::record::{Encoding, GameRecord, Reader};

/// How a worker analyses its chunks.
pub struct Analysis<'a> {
    pub encoding: Encoding,
    pub options: &'a ScanOptions,
    /// Set when the scan stops: give up between two games.
    pub stop: &'a AtomicBool,
    /// Each finding's board ([`Needs::boards`]: only games with findings
    /// are replayed a second time).
    pub boards: bool,
    /// Each game's row ([`Needs::games`]).
    pub games: bool,
    /// The test-only panic (see [`DEBUG_PANIC`]).
    pub panic_on: Option<&'a str>,
}

/// A hidden debug switch for the tests of a worker's panic: a game whose
/// `Event` tag is this variable's value panics. No input alone does it.
pub const DEBUG_PANIC: &str = "VERIFY_CLAIM_DEBUG_PANIC";

/// What a worker made of one chunk.
pub struct Analysed {
    pub games: usize,
    pub plies: usize,
    /// Line ends in the chunk.
    pub lines: u32,
    pub findings: Vec<Placed>,
    /// Each game's row, when [`Analysis::games`].
    pub rows: Vec<Draft>,
}

/// Finds the findings of one chunk. Lines in findings count from 1 at the
/// chunk's start; the caller adds the lines of the chunks before (counted
/// here, in parallel, not by the chunker). `game` follows the game being
/// analysed (for a panic's message).
pub fn analyse_chunk(chunk: &Chunk, how: &Analysis<'_>, game: &mut usize) -> Analysed {
    let mut cursor = LineCursor::new(&chunk.bytes, 1);
    let mut reader = Reader::knowing_cr(&chunk.bytes, how.encoding, cursor.has_cr());
    let mut games = 0;
    let mut plies = 0;
    let mut out = Vec::new();
    let mut rows = Drafts::default();
    // Games before this chunk in the same task (a run of frames has several).
    let before = *game;
    loop {
        // Before the read: a panic while the next game is parsed names it.
        *game = before + games + 1;
        let Some(rec) = reader.next_game() else {
            break;
        };
        if how.stop.load(Ordering::Relaxed) {
            break;
        }
        games += 1;
        match rec {
            Err(e) => {
                let line = how.games.then(|| cursor.place(reader.last_game().0).line);
                let at = cursor.place(e.offset);
                if let Some(line) = line {
                    let read = reader.last_game().1;
                    rows.push(Draft::unreadable(
                        games,
                        line,
                        at,
                        e.message.clone(),
                        Some(read),
                    ));
                }
                out.push(error_at(games, at, e.offset, e.message));
            }
            Ok(rec) => {
                if let Some(event) = how.panic_on
                    && rec.tag("Event") == Some(event)
                {
                    panic!("{DEBUG_PANIC} is set and this game's Event is {event:?}");
                }
                let (findings, outcome) = scan_record_outcome(&rec, how.options);
                // Plies as replayed: a game that fails stops at its error.
                plies += findings
                    .iter()
                    .find(|f| matches!(f.kind, Kind::ParseError | Kind::IllegalMove))
                    .map_or(rec.moves.len(), |f| f.ply);
                if how.games {
                    let bytes = &chunk.bytes;
                    rows.record(&rec, bytes, games, &findings, &outcome, &mut cursor);
                }
                if !findings.is_empty() {
                    let drawn = boards_of(&rec, &findings, how);
                    place_findings(&rec, games, findings, drawn, &mut cursor, &mut out);
                }
                reader.recycle(rec);
            }
        }
    }
    if let Some(skipped) = chunk.too_large {
        games += 1;
        let at = chunk.bytes.len();
        let (finding, row) = too_large(skipped, games, at, &mut cursor, how.games);
        out.push(finding);
        if let Some(row) = row {
            rows.push(row);
        }
    }
    // Counted on from the last place given, not over the chunk again.
    let mut lines = cursor.line_ends();
    if let Some(skipped) = chunk.too_large {
        lines += skipped.lines;
    }
    Analysed {
        games,
        plies,
        lines,
        findings: out,
        rows: rows.finish(),
    }
}

/// The boards of a game's findings, when the sink draws them
/// ([`Analysis::boards`]): the game replayed a second time, to their plies.
fn boards_of(
    rec: &GameRecord<'_>,
    findings: &[Finding],
    how: &Analysis<'_>,
) -> Vec<Option<crate::game::board::Board>> {
    if !how.boards {
        return Vec::new();
    }
    let plies: Vec<usize> = findings.iter().map(|f| f.ply).collect();
    crate::claims::replay::record_boards(
        rec,
        how.options.game_type,
        how.options.column_rules,
        &plies,
    )
}

/// The error of a game too large to hold, the chunk's last (its game
/// `games`, at the chunk's end `at`), and its row when rows are made.
fn too_large(
    skipped: crate::input::chunks::Skipped,
    games: usize,
    at: usize,
    cursor: &mut LineCursor<'_>,
    rows: bool,
) -> (Placed, Option<Draft>) {
    let message = format!(
        "this game is not read: {} MiB with no game start after it (a tag line after a \
         blank line), over the {} MiB a game may take",
        skipped.bytes >> 20,
        MAX_GAME >> 20
    );
    let place = cursor.place(at);
    let row = rows.then(|| Draft::unreadable(games, place.line, place, message.clone(), None));
    let mut unread = error_at(games, place, at, message);
    unread.unread = true;
    (unread, row)
}

/// A game's findings placed in the chunk, each with its board if drawn.
fn place_findings(
    rec: &GameRecord<'_>,
    game: usize,
    findings: Vec<Finding>,
    drawn: Vec<Option<crate::game::board::Board>>,
    cursor: &mut LineCursor<'_>,
    out: &mut Vec<Placed>,
) {
    let white = rec.tag("White").unwrap_or("?");
    let black = rec.tag("Black").unwrap_or("?");
    let result = rec
        .tag("Result")
        .or(rec.result.map(|r| r.text))
        .unwrap_or("");
    let mut drawn = drawn.into_iter();
    // Findings come sorted by ply; their offsets are not always increasing
    // (a result finding points at the end), so the cursor handles going back.
    for f in findings {
        out.push(Placed {
            game,
            place: cursor.place(f.offset),
            white: white.to_owned(),
            black: black.to_owned(),
            result: result.to_owned(),
            board: drawn.next().flatten().map(Box::new),
            finding: f,
            unread: false,
        });
    }
}

/// A game's parse error.
pub(super) fn error_at(game: usize, place: Place, offset: usize, message: String) -> Placed {
    Placed {
        game,
        place,
        white: String::new(),
        black: String::new(),
        result: String::new(),
        board: None,
        unread: false,
        finding: Finding {
            kind: Kind::ParseError,
            ply: 0,
            offset,
            side: None,
            mv: None,
            message,
            recorded: None,
            expected: None,
        },
    }
}
