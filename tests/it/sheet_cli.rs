//! `verify-claim reconstruct` and `claim --sheet` as users run them: the
//! JSON contract of issue 41, the exit statuses, the placed errors on bad
//! input, and claims decided on a reading.

use crate::common;

use common::{Scratch, run};
use serde_json::Value;

fn json_of(args: &[&str]) -> (i32, Value) {
    let r = run(args);
    let v = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} {}", r.stdout, r.stderr));
    (r.status, v)
}

const RUY: &str =
    "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. Ba4 Nf6\n5. O-O Be7\n";

#[test]
fn reconstruct_json_contract() {
    let s = Scratch::new("sheet-json");
    let a = s.file("a.txt", RUY.as_bytes());
    let b = s.file(
        "b.txt",
        "1. e4 e5\n2. Кf3 Кc6\n3. Сb5 a6\n4. Сa4 Кf5\n5. О-О Сe7\n".as_bytes(),
    );
    let (status, v) = json_of(&[
        "reconstruct",
        &a,
        &b,
        "--format",
        "json",
        "--candidates",
        "3",
    ]);
    assert_eq!(status, 0);
    assert_eq!(v["notation"], serde_json::json!(["en", "ru"]));
    let r = v["readings"].as_array().unwrap();
    assert!(r.len() <= 3);
    assert_eq!(r[0]["moves"][7], "Nf6");
    assert_eq!(
        r[0]["repairs"],
        serde_json::json!([{"ply": 8, "sheet": 2, "written": "Кf5", "read": "Nf6"}])
    );
    assert!(r[0]["cost"].is_number());
    assert_eq!(
        v["discrepancies"],
        serde_json::json!([{"ply": 8, "sheet1": "Nf6", "sheet2": "Кf5"}])
    );
    assert_eq!(v["clear"], true);
    assert_eq!(v["search"]["cut"], false);
}

#[test]
fn a_legal_sheet_is_read_as_written() {
    let s = Scratch::new("sheet-legal");
    let a = s.file("a.txt", RUY.as_bytes());
    let (status, v) = json_of(&["reconstruct", &a, "--format", "json"]);
    assert_eq!(status, 0);
    assert_eq!(v["readings"][0]["repairs"], serde_json::json!([]));
    assert_eq!(v["readings"][0]["cost"], 0);
    assert_eq!(v["discrepancies"], serde_json::json!([]));
}

#[test]
fn pgn_feeds_claim_and_scan() {
    let s = Scratch::new("sheet-pgn");
    let a = s.file("a.txt", b"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Nh1 Ng8\n");
    let r = run(&["reconstruct", &a, "--format", "pgn"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("4. Ng1 {sheet 1 has 'Nh1', read as Ng1} Ng8"),
        "{}",
        r.stdout
    );
    let p = s.file("r.pgn", r.stdout.as_bytes());
    let c = run(&["claim", &p]);
    assert_eq!(c.status, 0, "{}{}", c.stdout, c.stderr);
    let sc = run(&["scan", &p]);
    assert!(sc.status == 0 || sc.status == 1, "{}", sc.stderr);
}

#[test]
fn text_says_what_to_check() {
    let s = Scratch::new("sheet-text");
    let a = s.file("a.txt", b"1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. Ba4 Nf5\n");
    let r = run(&["reconstruct", &a]);
    assert_eq!(r.status, 0);
    assert!(
        r.stdout.contains("4...Nf6: sheet 1 has 'Nf5', read as Nf6"),
        "{}",
        r.stdout
    );
}

/// One placed error (`file:line:col`) and status 2 on every bad input.
#[test]
fn bad_input_is_one_placed_error() {
    let s = Scratch::new("sheet-bad");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty.txt", b"".to_vec(), ":1:1: error: no moves"),
        (
            "garbage.txt",
            b"1. e4 e5\n2. Zz9 Nc6\n".to_vec(),
            ":2:4: error: 'Zz9' is not a move in any notation",
        ),
        (
            "binary.txt",
            b"1. e4\x00\x01\x02".to_vec(),
            ":1:6: error: a control character",
        ),
        (
            "descriptive.txt",
            b"1. P-K4 P-K4\n2. N-KB3 N-QB3\n".to_vec(),
            ":1:4: error: 'P-K4' is descriptive notation",
        ),
        (
            "rows.txt",
            "1. Nf3 Nf6\n".repeat(10_000).into_bytes(),
            ":6001:1: error: more than 6000 rows",
        ),
        (
            "stalemate.txt",
            b"[FEN \"k7/8/1Q6/8/8/8/8/7K b - - 0 1\"]\n\n1. ... Ka7\n".to_vec(),
            ":3:8: error: no game explains",
        ),
    ];
    for (name, bytes, want) in cases {
        let f = s.file(name, &bytes);
        let r = run(&["reconstruct", &f, "--format", "json"]);
        assert_eq!(r.status, 2, "{name}: {}", r.stdout);
        assert_eq!(r.stderr.lines().count(), 1, "{name}: {}", r.stderr);
        assert!(r.stderr.contains(want), "{name}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    let f = s.file("ok.txt", RUY.as_bytes());
    let r = run(&["reconstruct", &f, "--notation", "xx"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("--notation xx: not a notation"),
        "{}",
        r.stderr
    );
    let r = run(&["reconstruct", &f, "--notation", "de"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains(":5:1: error:") || r.stderr.contains("ok.txt:"),
        "{}",
        r.stderr
    );
}

#[test]
fn claim_on_sheets() {
    let s = Scratch::new("sheet-claim");
    // A slip away from the repetition: the verdict of the clean record.
    let a = s.file(
        "a.txt",
        "1. e4 e5\n2. Nf3 Nc6\n3. Bb5 a6\n4. Ba4 Nf5\n5. Ng5 Ng8\n6. Nf3 Nf6\n7. Ng5 Ng8\n8. Nf3 Nf6\n".as_bytes(),
    );
    let b = s.file(
        "b.txt",
        "1. e4 e5\n2. Кf3 Кc6\n3. Сb5 a6\n4. Сa4 Кf6\n5. Кg5 Кg8\n6. Кf3 Кf6\n7. Кg5 Кg8\n8. Кf3 Кf6\n".as_bytes(),
    );
    // The position after 4...Nf6 stands for the third time after 8...Nf6.
    let (status, v) = json_of(&["claim", "--sheet", &a, "--sheet", &b, "--format", "json"]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["valid"], true);
    assert_eq!(v["depends_on_reading"], false, "{v}");
    assert_eq!(v["reading"]["repairs"][0]["written"], "Nf5");
    assert_eq!(v["reading"]["discrepancies"][0]["ply"], 8);
    assert!(v["reading"]["alternatives"].is_number());
    assert!(v["valid"].is_boolean());
}

#[test]
fn an_equal_ambiguity_makes_the_verdict_depend_on_the_reading() {
    let s = Scratch::new("sheet-amb");
    // 7.Nd2: the b1 knight (the third occurrence) or the f3 knight (not).
    let a = s.file(
        "a.txt",
        b"1. Nf3 Nf6\n2. d3 Nc6\n3. Nbd2 Nb8\n4. Nb1 Nc6\n5. Nbd2 Nb8\n6. Nb1 Nc6\n7. Nd2\n",
    );
    let (_, v) = json_of(&["claim", "--sheet", &a, "--format", "json"]);
    assert_eq!(v["depends_on_reading"], true, "{v}");
    let t = run(&["claim", "--sheet", &a]);
    assert!(
        t.stdout.contains("THE VERDICT DEPENDS ON THE READING"),
        "{}",
        t.stdout
    );
    // PGN: the record decided, the verdict's tag, the repair's comment.
    let p = run(&["claim", "--sheet", &a, "--format", "pgn"]);
    assert!(
        p.stdout
            .contains("[VerifyClaim \"valid: threefold repetition"),
        "{}",
        p.stdout
    );
    assert!(
        p.stdout.contains("{sheet 1 has 'Nd2', read as Nbd2}"),
        "{}",
        p.stdout
    );
    let h = run(&["claim", "--sheet", &a, "--format", "html"]);
    assert!(h.stdout.contains("The scoresheets as read"), "{}", h.stdout);
}

#[test]
fn the_claimants_move_written_and_not_played() {
    let s = Scratch::new("sheet-written");
    // Black's sheet ends with 4...Ng8, written and not played (9.2.1).
    let white = s.file("w.txt", b"1. Nf3 Nf6\n2. Ng1 Ng8\n3. Nf3 Nf6\n4. Ng1\n");
    let black = s.file("b.txt", b"1. Nf3 Nf6\n2. Ng1 Ng8\n3. Nf3 Nf6\n4. Ng1 Ng8\n");
    let (status, v) = json_of(&[
        "claim", "--sheet", &black, "--sheet", &white, "--format", "json",
    ]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["valid"], true);
    let t = run(&["claim", "--sheet", &black, "--sheet", &white]);
    assert!(
        t.stdout
            .contains("Ng8 is taken as the move written and not played"),
        "{}",
        t.stdout
    );
}

#[test]
fn column_draughts_sheets() {
    let s = Scratch::new("sheet-cd");
    let a = s.file(
        "a.txt",
        b"1. c3-d4 f6-g5\n2. b2-c3 g7-f6\n3. d4-e5 f6:d4:b2\n",
    );
    let (status, v) = json_of(&["reconstruct", &a, "--format", "json"]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["game_type"], "column-draughts");
    assert_eq!(v["readings"][0]["repairs"], serde_json::json!([]));
    // A slip (d4-e4 is no draughts move): repaired to d4-e5.
    let b = s.file(
        "b.txt",
        b"1. c3-d4 f6-g5\n2. b2-c3 g7-f6\n3. d4-e4 f6:d4:b2\n",
    );
    let (_, v) = json_of(&["reconstruct", &b, "--format", "json"]);
    assert_eq!(v["readings"][0]["repairs"][0]["read"], "d4-e5", "{v}");
}

/// The fixtures: the Opera game written by sheet_render.py in every
/// notation of the table (several shapes, long algebraic, `:` or no
/// capture marks, check marks), each read exactly with `--notation auto`.
#[test]
fn fixtures_in_every_notation() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sheets");
    let opera = [
        "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
        "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
        "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
    ];
    let codes = [
        "en", "ru", "de", "fr", "es", "it", "nl", "pl", "cs", "hu", "sv", "figurine",
    ];
    for code in codes {
        let f = dir.join(format!("opera-{code}.txt"));
        let (status, v) = json_of(&["reconstruct", f.to_str().unwrap(), "--format", "json"]);
        assert_eq!(status, 0, "{code}");
        let named = match code {
            "sv" => "de",
            "it" => "es",
            c => c,
        };
        assert_eq!(v["notation"][0], named, "{code}");
        assert_eq!(
            v["readings"][0]["moves"],
            serde_json::to_value(opera.to_vec()).unwrap(),
            "{code}"
        );
        assert_eq!(v["readings"][0]["repairs"], serde_json::json!([]), "{code}");
        assert_eq!(v["clear"], true, "{code}");
        // The forced notation reads it the same.
        let (status, w) = json_of(&[
            "reconstruct",
            f.to_str().unwrap(),
            "--notation",
            code,
            "--format",
            "json",
        ]);
        assert_eq!(status, 0, "{code}");
        assert_eq!(w["readings"][0]["moves"], v["readings"][0]["moves"]);
    }
}

/// A row shifted on one sheet (2...Nc6 not written, the moves after it
/// one box early): the other sheet places it; one repair, a missing box.
#[test]
fn a_shifted_row() {
    let s = Scratch::new("sheet-shift");
    let a = s.file(
        "a.txt",
        b"1. e4 e5\n2. Nf3 Bb5\n3. a6 Ba4\n4. Nf6 O-O\n5. Be7\n",
    );
    let b = s.file(
        "b.txt",
        "1. e4 e5\n2. Кf3 Кc6\n3. Сb5 a6\n4. Сa4 Кf6\n5. 0-0 Сe7\n".as_bytes(),
    );
    let (status, v) = json_of(&["reconstruct", &a, &b, "--format", "json"]);
    assert_eq!(status, 0);
    assert_eq!(v["readings"][0]["moves"][3], "Nc6");
    assert_eq!(
        v["readings"][0]["repairs"],
        serde_json::json!([{"ply": 4, "sheet": 1, "written": "", "read": "Nc6"}])
    );
    assert_eq!(v["clear"], true);
}

/// A gap both sheets share, to the position on the board (8.4, 8.5.1).
#[test]
fn a_gap_to_the_board() {
    let s = Scratch::new("sheet-gap");
    let a = s.file("a.txt", b"1. Nf3 Nf6\n2. Ng1 Ng8\n3. - -\n");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (status, v) = json_of(&[
        "reconstruct",
        &a,
        "--board",
        start,
        "--moves",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(status, 0);
    let g = &v["gap"];
    assert_eq!(g["plies"], 4);
    assert_eq!(g["capture_or_pawn_move"], false);
    assert_eq!(g["count"], 8);
    assert_eq!(g["occurrences_before"], 2);
    let pawn = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let (_, v) = json_of(&["reconstruct", &a, "--board", pawn, "--format", "json"]);
    assert_eq!(v["gap"]["capture_or_pawn_move"], true);
    assert_eq!(v["gap"]["parity"], "odd");
    let r = run(&["reconstruct", &a, "--board", start, "--moves", "1"]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("--moves 1"), "{}", r.stderr);
}
