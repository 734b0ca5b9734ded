//! Scan findings a CI user can trust: moves recorded after a drawn ending
//! are a warning of their own, a result mismatch only when the results
//! differ, and `--min-severity` chooses what is printed.

use crate::common;
use common::harness::SHARED;
use common::run;
use serde_json::Value;

const ARCHIVE: &str = "fixtures/scan/annotate.pgn";

fn jsonl(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn moves_after_a_drawn_ending_are_a_warning() {
    let r = run(&["scan", ARCHIVE, "--format", "jsonl"]);
    let v = jsonl(&r.stdout);
    let after: Vec<&Value> = v
        .iter()
        .filter(|f| f["kind"] == "moves-after-end")
        .collect();
    assert_eq!(after.len(), 2, "{}", r.stdout);
    // Game 2: the game ended at ply 1 (insufficient material); the extra
    // move is on line 18.
    assert_eq!(after[0]["game"], 2);
    assert_eq!(after[0]["ply"], 1);
    assert_eq!(after[0]["severity"], "warning");
    assert_eq!(after[0]["line"], 18);
    let m = after[0]["message"].as_str().unwrap();
    assert!(m.contains("ended at ply 1 by insufficient material"), "{m}");
    // Only the wrong winner is a result mismatch.
    let mismatches: Vec<&Value> = v
        .iter()
        .filter(|f| f["kind"] == "result-mismatch")
        .collect();
    assert_eq!(mismatches.len(), 1, "{}", r.stdout);
    assert_eq!(mismatches[0]["game"], 3);
    // The older fixture: moves after insufficient material with 1-0 recorded
    // is still a mismatch (the results differ).
    let r = run(&["scan", "fixtures/scan/kinds.pgn", "--format", "jsonl"]);
    let v = jsonl(&r.stdout);
    assert!(v.iter().any(|f| {
        f["game"] == 3
            && f["kind"] == "result-mismatch"
            && f["message"]
                .as_str()
                .unwrap()
                .contains("but the Laws give 1/2-1/2")
    }));
}

fn min_severity_chooses_what_is_printed() {
    let all = jsonl(&run(&["scan", ARCHIVE, "--format", "jsonl"]).stdout);
    let r = run(&[
        "scan",
        ARCHIVE,
        "--format",
        "jsonl",
        "--min-severity",
        "warning",
    ]);
    let warn = jsonl(&r.stdout);
    assert!(warn.len() < all.len());
    assert!(warn.iter().all(|f| f["severity"] != "info"), "{}", r.stdout);
    assert_eq!(r.status, 1); // the exit status still follows --fail-on
    let r = run(&[
        "scan",
        ARCHIVE,
        "--format",
        "github",
        "--min-severity",
        "error",
    ]);
    // One annotation, then the line saying what was left out.
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    assert!(r.stdout.starts_with("::error "));
    assert!(
        r.stdout.contains("left out: 2 warnings, 4 notices"),
        "{}",
        r.stdout
    );
    // The summary counts every finding.
    assert!(r.stderr.contains("threefold-claimable 1"), "{}", r.stderr);
    let r = run(&[
        "scan",
        ARCHIVE,
        "--min-severity",
        "error",
        "--fail-on",
        "never",
    ]);
    assert_eq!(r.status, 0);
    assert!(!r.stdout.contains("info"));
}

fn twic_drawn_endings_with_one_move_more_are_not_errors() {
    let dir = common::shared_dir().expect("SHARED found ../shared");
    let path = dir.join("corpus/twic/twic1599_1000k.pgn");
    let r = run(&["scan", path.to_str().unwrap(), "--format", "jsonl"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let v = jsonl(&r.stdout);
    assert_eq!(
        v.iter().filter(|f| f["kind"] == "moves-after-end").count(),
        4
    );
    assert_eq!(v.iter().filter(|f| f["severity"] == "error").count(), 0);
}

/// Issue 40.1: `expected` is the Laws' result (0-1 after Black mates),
/// never the movetext's marker; a Result tag against its marker is a
/// finding of its own, in every format and in the watch.
fn expected_is_the_laws_result_not_the_marker() {
    let game = "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n";
    let scan = |format: &str| {
        let args = ["scan", "-", "--format", format, "--min-severity", "info"];
        common::run_with_stdin(&args, Some(game.as_bytes()))
    };
    let r = scan("jsonl");
    assert_eq!(r.status, 1, "{}", r.stderr);
    let v = jsonl(&r.stdout);
    let kinds: Vec<&str> = v.iter().map(|f| f["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["checkmate", "result-tag-mismatch"], "{}", r.stdout);
    let tag = &v[1];
    assert_eq!(tag["severity"], "error");
    assert_eq!(tag["recorded"], "0-1");
    assert_eq!(tag["expected"], "0-1");
    assert_eq!(
        tag["message"],
        "the Result tag says 0-1 but the movetext ends with 1-0; the game ended by checkmate: 0-1"
    );
    assert!(r.stderr.contains("result-tag-mismatch 1"), "{}", r.stderr);
    let csv = scan("csv").stdout;
    let row = csv.lines().nth(2).unwrap_or_default();
    assert!(
        row.starts_with("<stdin>,1,5,21,4,result-tag-mismatch,error,,,0-1,0-1,"),
        "{csv}"
    );
    let github = scan("github").stdout;
    assert!(
        github.contains("::error file=<stdin>,line=5,col=21,title=result-tag-mismatch::game 1, ply 4: the Result tag says 0-1"),
        "{github}"
    );
    let text = scan("text").stdout;
    assert!(
        text.contains("error result-tag-mismatch: the Result tag says 0-1 but the movetext ends with 1-0; the game ended by checkmate: 0-1 [recorded 0-1, expected 0-1]"),
        "{text}"
    );
    // Where the Laws did not end the game, they give no result.
    let other = "[Result \"1-0\"]\n\n1. d4 d5 1/2-1/2\n";
    let r = common::run_with_stdin(&["scan", "-", "--format", "jsonl"], Some(other.as_bytes()));
    let v = jsonl(&r.stdout);
    assert_eq!(v.len(), 1, "{}", r.stdout);
    assert_eq!(v[0]["kind"], "result-tag-mismatch");
    assert_eq!(v[0]["expected"], Value::Null);
    // The watch: 0-1 entered after Black mated agrees with the Laws.
    let mut live = verify_claim::LiveFile::new("board.pgn");
    let opts = verify_claim::ScanOptions::default();
    let t = std::time::SystemTime::UNIX_EPOCH;
    let events = live.update(game.as_bytes(), &opts, verify_claim::Encoding::Utf8, t);
    let entered: Vec<&Value> = events
        .iter()
        .filter(|e| e["kind"] == "result-entered")
        .collect();
    assert_eq!(entered.len(), 1, "{events:?}");
    assert_eq!(entered[0]["agrees"], true, "{}", entered[0]);
    assert_eq!(
        entered[0]["message"],
        "result 0-1 entered; the Laws do not contradict it"
    );
}

crate::verify_claim_tests! {
    expected_is_the_laws_result_not_the_marker,
    moves_after_a_drawn_ending_are_a_warning,
    min_severity_chooses_what_is_printed,
    twic_drawn_endings_with_one_move_more_are_not_errors: [SHARED],
}
