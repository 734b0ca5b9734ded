//! Scoresheets (issue 41): reading what the arbiter holds, in any notation
//! of Appendix C, reconstructing the game from one or two handwritten
//! sheets with slips, and deciding a claim on that reading.
//!
//! `lex` cuts a sheet into boxes; `notation` and `token` read a box as a
//! move and price each legal move as a reading of it; `search` finds the
//! cheapest games explaining every sheet at once; `report` writes what was
//! found; `claim` decides a claim on the readings.

mod claim;
mod gap;
mod html;
mod lex;
mod notation;
mod report;
mod search;
mod token;

pub use claim::{SheetClaim, decide_sheets};
pub use gap::Gap;

use crate::diag::{Diagnostic, DiagnosticKind, Place};
use crate::game::chess::ChessGame;
use crate::game::column_draughts::{self as cd, ColumnDraughts};
use crate::game::{Game, GameType};
use lex::{Cell, Lexed};
use search::Used;
use token::SheetGame;

/// A sheet's boxes read as moves (`None`: an empty box).
type Evidence<G> = Vec<Option<<G as SheetGame>::Written>>;

/// One scoresheet: its name (used in placed errors) and its bytes (UTF-8,
/// or Latin-1).
#[derive(Clone, Debug)]
pub struct Sheet {
    /// The name errors are placed in (the file's path).
    pub name: String,
    /// The sheet's bytes.
    pub text: Vec<u8>,
}

/// How to read the sheets.
#[derive(Clone, Debug)]
pub struct ReconstructOptions {
    /// `None` or `"auto"`: each sheet's notation is found from the whole
    /// sheet; else a code of Appendix C's table (`en`, `ru`, `de`, `fr`,
    /// `es`, `it`, `nl`, `pl`, `cs`, `hu`, `sv`, `figurine`), for every sheet.
    pub notation: Option<String>,
    /// How many readings to return, best first (default 5).
    pub candidates: usize,
    /// The game; `None`: from the sheet's GameType or Variant tag, or from
    /// its first move (a draughts opening step), chess otherwise.
    pub game_type: Option<GameType>,
    /// Column draughts: the reading of the re-jump rule.
    pub column_rules: cd::Rules,
    /// How many states the search keeps at each ply (default 256).
    pub beam: usize,
    /// The position on the board after a gap both sheets share (FEN,
    /// 8.5.1): say what the gap can prove (chess).
    pub board: Option<String>,
    /// With `board`: the moves White has made, as a clock counted them.
    pub moves: Option<u32>,
}

impl Default for ReconstructOptions {
    fn default() -> ReconstructOptions {
        ReconstructOptions {
            notation: None,
            candidates: 5,
            game_type: None,
            column_rules: cd::Rules::Standard,
            beam: 256,
            board: None,
            moves: None,
        }
    }
}

/// One change made to what a sheet says, to read it as the game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Repair {
    /// The ply (1 = the first move of the sheet's game).
    pub ply: usize,
    /// Which sheet (1 or 2).
    pub sheet: usize,
    /// What is written ("" for a move not written at all).
    pub written: String,
    /// How it is read, in English SAN ("" for a box read as no move).
    pub read: String,
}

/// A ply where the two sheets, as written, say different moves.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Discrepancy {
    /// The ply (1 = the first move).
    pub ply: usize,
    /// What sheet 1 has there, as written ("" for nothing).
    pub sheet1: String,
    /// What sheet 2 has there.
    pub sheet2: String,
}

/// One game that explains the sheets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Every ply from the start to the sheets' end, in English SAN (the
    /// game's own notation for column draughts).
    pub moves: Vec<String>,
    /// Every box not read as written, in ply order.
    pub repairs: Vec<Repair>,
    /// The sum of the repairs' costs (docs/scoresheets.md).
    pub cost: u32,
    /// Per sheet, what was written for each ply (`None`: nothing).
    pub written: Vec<Vec<Option<String>>>,
    /// Per sheet, how many plies it records (up to its last box).
    pub recorded: Vec<usize>,
}

/// What the sheets were read as.
#[derive(Clone, Debug)]
pub struct Reconstruction {
    /// The game the sheets are of.
    pub game_type: GameType,
    /// The sheets' names.
    pub names: Vec<String>,
    /// Each sheet's notation code.
    pub notation: Vec<String>,
    /// Best first.
    pub readings: Vec<Reading>,
    /// Plies where two sheets say different moves (two sheets only).
    pub discrepancies: Vec<Discrepancy>,
    /// The best reading is strictly cheaper than any other.
    pub clear: bool,
    /// The search's cap dropped a state as cheap as a reading returned.
    pub cut: bool,
    /// States the search kept.
    pub states: usize,
    /// The tags of the sheets (the first sheet's first).
    pub tags: Vec<(String, String)>,
    /// The start position, when the sheet gives one (FEN tag).
    pub start_fen: Option<String>,
    /// The result written at the end of a sheet.
    pub result: Option<crate::laws::GameResult>,
    /// The fullmove number of the start.
    pub first_move_number: u32,
    /// Whether Black moves first.
    pub black_first: bool,
    /// What a gap both sheets share can prove (`board` given).
    pub gap: Option<gap::Gap>,
}

/// Reads `sheets` (one or two: each player's record of the same game) and
/// finds the games that explain them, best first.
pub fn reconstruct(
    sheets: &[Sheet],
    opts: &ReconstructOptions,
) -> Result<Reconstruction, Diagnostic> {
    if sheets.is_empty() || sheets.len() > 2 {
        return Err(Diagnostic::new(
            DiagnosticKind::Option,
            "verify-claim",
            None,
            "one or two scoresheets: the claimant's, and the opponent's of the same game",
        ));
    }
    let forced = match opts.notation.as_deref() {
        None | Some("auto") => None,
        Some(code) => Some(code.to_owned()),
    };
    let mut lexed = Vec::new();
    for s in sheets {
        let text = lex::decode(&s.name, &s.text)?;
        lexed.push(lex::lex(&s.name, &text)?);
    }
    let game = match opts.game_type {
        Some(g) => g,
        None => detect_game(&lexed),
    };
    let names: Vec<String> = sheets.iter().map(|s| s.name.clone()).collect();
    let mut rec = match game {
        GameType::Chess => run::<ChessGame>(&names, &lexed, forced.as_deref(), opts, ())?,
        GameType::ColumnDraughts => {
            run::<ColumnDraughts>(&names, &lexed, forced.as_deref(), opts, opts.column_rules)?
        }
    };
    if let Some(board) = &opts.board {
        if game != GameType::Chess {
            return Err(Diagnostic::new(
                DiagnosticKind::Option,
                "--board",
                None,
                "a gap is analysed for chess only",
            ));
        }
        rec.gap = Some(
            gap::analyse(
                rec.start_fen.as_deref(),
                &rec.readings[0].moves,
                board,
                opts.moves,
            )
            .map_err(|m| Diagnostic::new(DiagnosticKind::Option, "--board", None, m))?,
        );
    }
    Ok(rec)
}

/// Column draughts when a tag says so, or when the first box is a man's
/// step from the third rank to the fourth (no chess move is written so).
fn detect_game(lexed: &[Lexed]) -> GameType {
    let names_column = |v: &str| {
        let v = v.to_lowercase();
        v.contains("column") || v.contains("bashni") || v.contains("столбов") || v.contains("башни")
    };
    let first = &lexed[0];
    if first
        .tags
        .iter()
        .any(|(k, v)| (k == "GameType" || k == "Variant") && names_column(v))
    {
        return GameType::ColumnDraughts;
    }
    let b: Vec<char> = first
        .boxes
        .iter()
        .find(|c| !c.is_empty())
        .map_or(Vec::new(), |c| c.text.chars().collect());
    let step = b.len() == 5
        && ('a'..='h').contains(&b[0])
        && b[1] == '3'
        && b[2] == '-'
        && (b[3] as i32 - b[0] as i32).abs() == 1
        && b[4] == '4';
    if step {
        GameType::ColumnDraughts
    } else {
        GameType::Chess
    }
}

/// The start position from the sheet's tags (FEN and SetUp, Variant), read
/// as a record with those tags is.
fn start<G: Game>(
    name: &str,
    lexed: &Lexed,
    variant: G::Variant,
) -> Result<G::Position, Diagnostic> {
    let mut pgn = String::new();
    for (k, v) in &lexed.tags {
        pgn.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "\\\"")));
    }
    pgn.push_str("\n*\n");
    let at_tag = |offset: usize| {
        let line = pgn[..offset.min(pgn.len())].matches('\n').count();
        let line = lexed.tag_lines.get(line).copied().unwrap_or(1);
        Diagnostic::new(
            DiagnosticKind::Syntax,
            name,
            Some(Place { line, col: 1 }),
            "",
        )
    };
    let selected = crate::input::select_from(name, pgn.as_bytes(), crate::Encoding::Utf8, Some(1))?;
    let record = selected.record()?;
    G::start_without_notes(&record, variant).map_err(|(o, m)| Diagnostic {
        message: m,
        ..at_tag(o)
    })
}

fn run<G: SheetGame>(
    names: &[String],
    lexed: &[Lexed],
    forced: Option<&str>,
    opts: &ReconstructOptions,
    variant: G::Variant,
) -> Result<Reconstruction, Diagnostic> {
    let start = start::<G>(&names[0], &lexed[0], variant)?;
    let black_first = G::side_to_move(&start) == crate::Side::Black;
    let mut boxes: Vec<Vec<Cell>> = lexed.iter().map(|l| l.boxes.clone()).collect();
    if black_first {
        for b in &mut boxes {
            if b.first().is_some_and(Cell::is_empty) && b.len() > 1 {
                b.remove(0);
            }
        }
    }
    let mut codes = Vec::new();
    let mut evidence = Vec::new();
    for (i, b) in boxes.iter().enumerate() {
        let (code, written) =
            read_sheet::<G>(&names[i], b, &start, forced, opts.beam.clamp(1, 32))?;
        codes.push(G::codes()[code].to_owned());
        evidence.push(written);
    }
    let want = opts.candidates.max(2);
    let out = search::search::<G>(&start, &evidence, want, opts.beam.max(1));
    let readings: Vec<Reading> = out
        .found
        .iter()
        .map(|f| reading::<G>(&start, f, &boxes, &evidence))
        .collect();
    if readings.is_empty() {
        return Err(no_reading(names, &boxes));
    }
    let clear = !out.found[0].tied && out.found.get(1).is_none_or(|s| s.cost > out.found[0].cost);
    let discrepancies = if boxes.len() == 2 {
        discrepancies::<G>(&start, &out.found[0], &boxes, &evidence)
    } else {
        Vec::new()
    };
    let mut tags = lexed[0].tags.clone();
    for l in &lexed[1..] {
        for t in &l.tags {
            if !tags.iter().any(|x| x.0 == t.0) {
                tags.push(t.clone());
            }
        }
    }
    Ok(Reconstruction {
        game_type: G::TYPE,
        names: names.to_vec(),
        notation: codes,
        readings: readings.into_iter().take(opts.candidates.max(1)).collect(),
        discrepancies,
        clear,
        cut: out.cut,
        states: out.states,
        start_fen: tags.iter().find(|t| t.0 == "FEN").map(|_| G::fen(&start)),
        tags,
        result: lexed.iter().find_map(|l| l.result),
        first_move_number: G::move_number(&start),
        black_first,
        gap: None,
    })
}

/// No game explains the sheet: said at the first box no legal move reads.
fn no_reading(names: &[String], boxes: &[Vec<Cell>]) -> Diagnostic {
    let place = boxes[0].first().map(|c| c.place);
    Diagnostic::new(
        DiagnosticKind::IllegalMove,
        &names[0],
        place,
        "no game explains the sheet(s) within two slips a box: the record is unclear (1.13.2 note в, 8.5)",
    )
}

/// Reads one sheet's boxes in its notation (given, or the one of the table
/// that reads the whole sheet and explains it most cheaply).
fn read_sheet<G: SheetGame>(
    name: &str,
    boxes: &[Cell],
    start: &G::Position,
    forced: Option<&str>,
    beam: usize,
) -> Result<(usize, Evidence<G>), Diagnostic> {
    let codes = G::codes();
    let read_all = |n: usize| -> Result<Vec<Option<G::Written>>, &Cell> {
        boxes
            .iter()
            .map(|c| {
                if c.is_empty() {
                    Ok(None)
                } else {
                    G::read(n, &c.text).map(Some).map_err(|_| c)
                }
            })
            .collect()
    };
    if let Some(c) = boxes
        .iter()
        .find(|c| !c.is_empty() && G::not_evidence(&c.text).is_some())
    {
        let why = G::not_evidence(&c.text).unwrap_or_default();
        return Err(Diagnostic::new(
            DiagnosticKind::Syntax,
            name,
            Some(c.place),
            why,
        ));
    }
    if let Some(code) = forced {
        let Some(n) = codes.iter().position(|c| *c == code) else {
            return Err(Diagnostic::new(
                DiagnosticKind::Option,
                name,
                None,
                format!(
                    "--notation {code}: not a notation of Appendix C's table for {}; one of auto, {}",
                    G::TYPE.name(),
                    codes.join(", ")
                ),
            ));
        };
        return read_all(n)
            .map(|w| (n, w))
            .map_err(|c| placed_syntax::<G>(name, c, n));
    }
    let mut fits: Vec<(usize, Vec<Option<G::Written>>)> = Vec::new();
    let mut worst: Option<&Cell> = None;
    for n in 0..codes.len() {
        match read_all(n) {
            Ok(w) if !fits.iter().any(|f| f.1 == w) => fits.push((n, w)),
            Ok(_) => {}
            Err(c) => {
                if worst.is_none_or(|w| c.place > w.place) {
                    worst = Some(c);
                }
            }
        }
    }
    if fits.len() > 1 {
        let mut best = (u32::MAX, 0);
        for (i, (_, w)) in fits.iter().enumerate() {
            let out = search::search::<G>(start, std::slice::from_ref(w), 1, beam);
            let c = out.found.first().map_or(u32::MAX, |f| f.cost);
            if c < best.0 {
                best = (c, i);
            }
        }
        return Ok(fits.swap_remove(best.1));
    }
    fits.pop().ok_or_else(|| match worst {
        Some(c) if codes.len() == 1 => placed_syntax::<G>(name, c, 0),
        Some(c) => Diagnostic::new(
            DiagnosticKind::Syntax,
            name,
            Some(c.place),
            format!(
                "'{}' is not a move in any notation of Appendix C ({}): the sheet's notation is unknown",
                c.text,
                codes.join(", ")
            ),
        ),
        None => Diagnostic::new(DiagnosticKind::NoGame, name, None, "no moves"),
    })
}

fn placed_syntax<G: SheetGame>(name: &str, c: &Cell, n: usize) -> Diagnostic {
    let why = G::read(n, &c.text).err().unwrap_or_default();
    Diagnostic::new(DiagnosticKind::Syntax, name, Some(c.place), why)
}

/// What box `u` of `boxes` says, as written.
fn written_of(u: Used, boxes: &[Cell]) -> Option<String> {
    match u {
        Used::Box { index, .. } | Used::Extra { index, .. } => {
            boxes.get(index).map(|c| c.raw.clone())
        }
        _ => None,
    }
}

/// A found game as a reading: SAN moves, and a repair wherever a sheet's
/// box is not read exactly.
fn reading<G: SheetGame>(
    start: &G::Position,
    f: &search::Found<G::Move>,
    boxes: &[Vec<Cell>],
    evidence: &[Vec<Option<G::Written>>],
) -> Reading {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut repairs = Vec::new();
    let mut written = vec![Vec::new(); boxes.len()];
    let mut recorded = vec![0; boxes.len()];
    for (p, m) in f.moves.iter().enumerate() {
        let san = G::notation(&pos, m);
        for (sh, used) in f.used.iter().enumerate() {
            let u = used[p];
            let box_empty = |i: usize| evidence[sh].get(i).is_some_and(Option::is_none);
            let w = written_of(u, &boxes[sh]);
            if !matches!(u, Used::Ended | Used::Missing) {
                recorded[sh] = p + 1;
            }
            let repair = |written: String, read: String| Repair {
                ply: p + 1,
                sheet: sh + 1,
                written,
                read,
            };
            match u {
                Used::Box { cost, index } if cost > 0 && !box_empty(index) => {
                    repairs.push(repair(w.clone().unwrap_or_default(), san.clone()))
                }
                Used::Missing => repairs.push(repair(String::new(), san.clone())),
                Used::Extra { extra, cost, index } => {
                    let e = boxes[sh]
                        .get(extra)
                        .map(|c| c.raw.clone())
                        .unwrap_or_default();
                    repairs.push(repair(e, String::new()));
                    if cost > 0 && !box_empty(index) {
                        repairs.push(repair(w.clone().unwrap_or_default(), san.clone()));
                    }
                }
                _ => {}
            }
            written[sh].push(w.filter(|t| !t.is_empty() && !box_empty(box_index(u))));
        }
        G::play(&mut pos, m, 0);
        moves.push(san);
    }
    Reading {
        moves,
        repairs,
        cost: f.cost,
        written,
        recorded,
    }
}

fn box_index(u: Used) -> usize {
    match u {
        Used::Box { index, .. } | Used::Extra { index, .. } => index,
        _ => usize::MAX,
    }
}

/// The plies where the sheets say different moves: a box filled on one and
/// empty (or not there) on the other, or two boxes that neither read the
/// same as written nor both read exactly as the move.
fn discrepancies<G: SheetGame>(
    start: &G::Position,
    f: &search::Found<G::Move>,
    boxes: &[Vec<Cell>],
    evidence: &[Vec<Option<G::Written>>],
) -> Vec<Discrepancy> {
    let mut out = Vec::new();
    let text = |sh: usize, u: Used| -> (String, Option<&G::Written>, u32) {
        match u {
            Used::Box { index, cost } | Used::Extra { index, cost, .. } => {
                let w = evidence[sh].get(index).and_then(Option::as_ref);
                let raw = if w.is_some() {
                    boxes[sh][index].raw.clone()
                } else {
                    String::new()
                };
                (raw, w, cost)
            }
            _ => (String::new(), None, 0),
        }
    };
    let _ = start;
    for p in 0..f.moves.len() {
        let (a, wa, ca) = text(0, f.used[0][p]);
        let (b, wb, cb) = text(1, f.used[1][p]);
        let differ = match (wa, wb) {
            (None, None) => false,
            (Some(x), Some(y)) => x != y && !(ca == 0 && cb == 0),
            _ => true,
        };
        if differ {
            out.push(Discrepancy {
                ply: p + 1,
                sheet1: a,
                sheet2: b,
            });
        }
    }
    out
}
