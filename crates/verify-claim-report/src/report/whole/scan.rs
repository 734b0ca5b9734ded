//! The scan printers, fed by hand: findings in two games of one file, one
//! in another file, an input that could not be read, a path left out, the
//! totals. The texts hold what each format must escape (`<`, `&`, `'`, a
//! quote, a control character).

use std::io::Write;

use super::{check, expected};
use crate::claims::scan::{Finding, Kind, RulesChoice, Severity};
use crate::diag::{Diagnostic, DiagnosticKind, Place};
use crate::game::{Game, Side, board::Board, chess::ChessGame};
use crate::record::Encoding;
use crate::report::html_scan::{Head, Html};
use crate::report::pgn::annotate_chunk;
use crate::report::scan::{Csv, Github, Jsonl, Printer, Text};
use crate::scan::{Placed, Row, Summary};

fn start_board() -> Box<Board> {
    Box::new(ChessGame::board(&shakmaty::Chess::default()))
}

/// A finding of `kind` at `ply`, on `line`, in game `game` of its file.
fn placed(game: usize, line: u32, kind: Kind, ply: usize, message: &str) -> Placed {
    Placed {
        game,
        place: Place { line, col: 3 },
        white: "Anna O'Hara".into(),
        black: "Bo <B&B> \"X\"\x1b".into(),
        finding: Finding {
            kind,
            ply,
            offset: 0,
            side: None,
            mv: None,
            message: message.into(),
            recorded: None,
            expected: None,
        },
        result: "1-0".into(),
        board: None,
        unread: false,
    }
}

/// The findings, each with its file, in input order.
fn rows() -> Vec<(&'static str, Placed)> {
    let mut mismatch = placed(
        1,
        9,
        Kind::ResultMismatch,
        4,
        "recorded 1-0, but White was checkmated (5.1.1)",
    );
    mismatch.finding.recorded = Some("1-0".into());
    mismatch.finding.expected = Some("0-1".into());
    mismatch.board = Some(start_board());
    let mate = placed(1, 9, Kind::Checkmate, 4, "White is checkmated (5.1.1)");
    let mut after = placed(2, 20, Kind::MovesAfterEnd, 7, "moves after the end & more");
    after.white = "?".into();
    after.black = "?".into();
    after.result = "1/2-1/2".into();
    after.board = Some(start_board());
    let mut threefold = placed(
        2,
        22,
        Kind::ThreefoldClaimable,
        8,
        "threefold repetition claimable by White with 5.Nf3 (9.2.1); the result 1/2-1/2 stands",
    );
    threefold.white = "?".into();
    threefold.black = "?".into();
    threefold.result = "1/2-1/2".into();
    threefold.finding.side = Some(Side::White);
    threefold.finding.mv = Some("Nf3".into());
    threefold.board = Some(start_board());
    let mut illegal = placed(1, 4, Kind::IllegalMove, 3, "2.Ke3 is not a legal move");
    illegal.white = "C".into();
    illegal.black = "D".into();
    illegal.result = "*".into();
    illegal.board = Some(start_board());
    vec![
        ("round 5.pgn", mismatch),
        ("round 5.pgn", mate),
        ("round 5.pgn", after),
        ("round 5.pgn", threefold),
        ("b.pgn", illegal),
    ]
}

/// The scan's events told to `printer`, and what it wrote.
fn printed(mut printer: impl Printer) -> String {
    let mut out = Vec::new();
    let rows = rows();
    for (file, p) in &rows {
        let row = Row {
            file,
            game: p.game,
            placed: p,
        };
        printer.finding(&row, &mut out).unwrap();
    }
    let missing = Diagnostic::new(
        DiagnosticKind::Io(std::io::ErrorKind::NotFound),
        "missing.pgn",
        None,
        "No such file (os error 2)",
    );
    printer.input_error(&missing, &mut out).unwrap();
    printer
        .input_warning("notes.txt", "not a record (left out)", &mut out)
        .unwrap();
    let mut summary = Summary {
        games: 3,
        plies: 40,
        failed_inputs: 1,
        ..Summary::default()
    };
    for (_, p) in &rows {
        *summary.by_kind.entry(p.finding.kind).or_default() += 1;
    }
    printer.totals(&summary);
    printer.finish(&mut out).unwrap();
    out.flush().unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn text() {
    check(&printed(Text::new(false)), expected!("scan.txt"));
}

#[test]
fn text_in_colour() {
    check(&printed(Text::new(true)), expected!("scan.colour.txt"));
}

#[test]
fn jsonl() {
    check(&printed(Jsonl::default()), expected!("scan.jsonl"));
}

#[test]
fn csv() {
    check(&printed(Csv::new()), expected!("scan.csv"));
}

#[test]
fn github() {
    check(
        &printed(Github::new(Severity::Warning)),
        expected!("scan.github"),
    );
}

#[test]
fn html() {
    let head = Head {
        inputs: vec!["round 5.pgn".into(), "b.pgn".into(), "missing.pgn".into()],
        rules: RulesChoice::Auto,
        min: Severity::Info,
        time: "2026-12-06T20:00:00Z".into(),
        all_diagrams: false,
    };
    check(&printed(Html::new(head)), expected!("scan.html"));
}

/// The PGN printer writes what its chunk hook made of each chunk: the
/// games back with a tag and a comment per finding at or above its
/// severity, the second game's warning left out here.
#[test]
fn pgn() {
    let chunk = "[White \"Anna O'Hara\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
                 1. f3 e5 2. g4 Qh4# 1-0\n\n\
                 [White \"?\"]\n[Black \"?\"]\n\n\
                 1. e4 {x} (1. d4) e5 2. Nf3 $1 Nc6 3. Ng1 Nb8 4. Nf3 Nc6 5. Ng1 *\n";
    let rows = rows();
    let findings: Vec<Placed> = rows.into_iter().take(4).map(|(_, p)| p).collect();
    let text = annotate_chunk(chunk.as_bytes(), Encoding::Utf8, &findings, Severity::Info);
    check(&String::from_utf8(text).unwrap(), expected!("scan.pgn"));
    let errors = annotate_chunk(chunk.as_bytes(), Encoding::Utf8, &findings, Severity::Error);
    check(
        &String::from_utf8(errors).unwrap(),
        expected!("scan.errors.pgn"),
    );
}
