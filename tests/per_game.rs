//! `scan --per-game` (issue 44): one row per game of the input, in input
//! order, unreadable games included; its tags, first claimable plies,
//! endings and clocks against python-chess (tests/per_game_oracle.py) on
//! the shared lichess and TWIC files; the malformed files' errors as rows.

use crate::common;

use common::harness::{ORACLE, SHARED};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

fn per_game(args: &[&str]) -> (common::Run, Vec<Value>) {
    let mut all = vec!["scan", "--per-game", "--no-progress"];
    all.extend_from_slice(args);
    let run = common::run(&all);
    let rows = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    (run, rows)
}

/// Five games: a draw by threefold with clocks, an unreadable one, one
/// with an illegal move, a checkmate, one with no tag at all.
const GAMES: &str = "[Event \"a\"]\n[Site \"s1\"]\n[WhiteElo \"1500\"]\n[BlackElo \"?\"]\n[Result \"1/2-1/2\"]\n\n\
1. Nf3 {[%clk 0:05:00]} Nf6 {[%clk 0:04:59]} 2. Ng1 {[%clk 0:04:58]} ( 2. d4 {[%clk 0:00:01]} ) Ng8 {[%clk 0:04:57]} \
3. Nf3 {[%clk 0:04:50]} Nf6 {[%clk 0:04:40]} 4. Ng1 Ng8 5. e4 1/2-1/2\n\n\
[Event \"b\"]\n\n1. e4 } e5 *\n\n\
[Event \"c\"]\n\n1. e4 e5 2. Ke3 *\n\n\
[Event \"d\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n\
1. d4 d5 *\n";

fn every_game_is_a_row_in_input_order() {
    let scratch = common::Scratch::new("per-game");
    let path = scratch.file("games.pgn", GAMES.as_bytes());
    let (run, rows) = per_game(&[&path]);
    // Parse errors and illegal moves are findings at the error severity.
    assert_eq!(run.status, 1, "{}", run.stderr);
    let games: Vec<u64> = rows.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    assert_eq!(games, [1, 2, 3, 4, 5], "{}", run.stdout);
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [1, 9, 13, 17, 22]);

    let draw = &rows[0];
    assert_eq!(draw["site"], "s1");
    assert_eq!(draw["white_elo"], 1500);
    assert_eq!(draw["black_elo"], Value::Null, "'?' is no rating");
    assert_eq!(draw["date"], Value::Null);
    assert_eq!(draw["plies"], 9);
    // The start position stands a third time after 8 plies; Black (to
    // move at ply 7) can claim by writing 4...Ng8.
    assert_eq!(draw["first_threefold_claimable_ply"], 7);
    assert_eq!(draw["first_fifty_claimable_ply"], Value::Null);
    assert_eq!(draw["plies_after_first_claimable"], 2);
    // White's latest clock at or before ply 7 is after 4. Nf3 (ply 5),
    // not the one in the variation; Black's after 3...Nf6 (ply 6).
    assert_eq!(draw["clock_white"], 290.0);
    assert_eq!(draw["clock_black"], 280.0);
    assert_eq!(draw["laws_result"], Value::Null);
    assert_eq!(draw["result_agrees"], Value::Null);
    assert_eq!(draw["findings"], 1);

    let bad = &rows[1];
    assert_eq!(bad["event"], Value::Null);
    let error = bad["error"].as_str().unwrap();
    assert!(error.starts_with(&format!("{path}:11:7: ")), "{error}");
    assert_eq!(bad["error_ply"], 1);
    assert_eq!(bad["findings"], 1);

    let illegal = &rows[2];
    assert_eq!(illegal["event"], "c");
    assert_eq!(illegal["plies"], 2);
    assert_eq!(illegal["error_ply"], 2);
    let error = illegal["error"].as_str().unwrap();
    assert!(
        error.starts_with(&format!("{path}:15:13: illegal move")),
        "{error}"
    );

    let mate = &rows[3];
    assert_eq!(mate["ended_by"], "checkmate");
    assert_eq!(mate["ended_ply"], 7);
    assert_eq!(mate["laws_result"], "1-0");
    assert_eq!(mate["result_agrees"], true);
    assert_eq!(mate["error"], Value::Null);

    let bare = &rows[4];
    assert_eq!(bare["result"], "*");
    assert_eq!(bare["white"], Value::Null);
    assert_eq!(bare["findings"], 0);

    // The CSV holds the same rows under the same names.
    let csv = common::run(&["scan", "--per-game", "--format", "csv", &path]);
    let mut csv_lines = csv.stdout.lines();
    let header: Vec<&str> = csv_lines.next().unwrap().split(',').collect();
    let keys: Vec<&str> = rows[0]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(header, keys);
    assert_eq!(csv_lines.count(), rows.len());
}

fn the_per_game_table_is_jsonl_or_csv() {
    let run = common::run(&["scan", "--per-game", "--format", "html", "Cargo.toml"]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr
            .contains("--per-game writes jsonl or csv, not --format html"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
}

/// The rows do not depend on how the input is cut: a file of several
/// segments, read by one worker and by three, and as a stream.
fn the_rows_are_the_same_however_the_input_is_cut() {
    let shared = common::shared_path();
    let mut text = std::fs::read(shared.join("corpus/lichess/lichess_db_1000k.pgn")).unwrap();
    text.extend(std::fs::read(shared.join("corpus/twic/twic1599_1000k.pgn")).unwrap());
    let scratch = common::Scratch::new("per-game-cut");
    let path = scratch.file("both.pgn", &text);
    let one = common::run(&["scan", "--per-game", "--jobs", "1", &path]);
    let three = common::run(&["scan", "--per-game", "--jobs", "3", &path]);
    assert_eq!(one.stdout, three.stdout);
    let piped = common::run_with_stdin(&["scan", "--per-game", "--jobs", "2", "-"], Some(&text));
    assert_eq!(
        one.stdout
            .replace(&format!("\"file\":{path:?}"), "\"file\":\"<stdin>\""),
        piped.stdout
    );
    let rows = one.stdout.lines().count();
    assert_eq!(rows, common::games_scanned(&one.stderr));
}

/// Each malformed file: a row per game, and each parse error or illegal
/// move the findings report is its game's `error`, placed where the
/// finding is.
fn malformed_files_give_their_errors_as_rows() {
    let dir = common::shared_path().join("corpus/malformed");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut errors = 0;
    for f in files {
        let f = f.display().to_string();
        let (run, rows) = per_game(&[&f]);
        assert_eq!(rows.len(), common::games_scanned(&run.stderr), "{f}");
        let findings = common::run(&["scan", "--format", "jsonl", &f]);
        for line in findings.stdout.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            if !matches!(v["kind"].as_str(), Some("parse-error" | "illegal-move")) {
                continue;
            }
            errors += 1;
            let row = &rows[v["game"].as_u64().unwrap() as usize - 1];
            let want = format!(
                "{}:{}:{}: {}",
                v["file"].as_str().unwrap(),
                v["line"],
                v["column"],
                v["message"].as_str().unwrap()
            );
            assert_eq!(row["error"].as_str(), Some(want.as_str()), "{f}");
            assert_eq!(row["error_ply"], v["ply"], "{f}");
        }
    }
    assert!(errors >= 5, "{errors}");
}

/// The python-chess row of a game, as tests/per_game_oracle.py prints it.
fn oracle_rows(python: &str, files: &[String]) -> HashMap<(String, u64), Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/per_game_oracle.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .args(files)
        .output()
        .expect("run the oracle");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let key = (
                v["file"].as_str().unwrap().to_owned(),
                v["game"].as_u64().unwrap(),
            );
            (key, v)
        })
        .collect()
}

/// python-chess's Seven Tag Roster defaults stand for an absent tag.
fn same_tag(ours: &Value, theirs: &Value) -> bool {
    ours == theirs || (ours.is_null() && matches!(theirs.as_str(), Some("?" | "????.??.??" | "*")))
}

/// What differs between our row and python-chess's (`None`: a game the
/// oracle cannot judge, the Laws having ended it by a dead position).
fn differences(ours: &Value, theirs: &Value) -> Option<Vec<String>> {
    let mut wrong = Vec::new();
    let tags = [
        ("site", "Site"),
        ("event", "Event"),
        ("date", "Date"),
        ("round", "Round"),
        ("white", "White"),
        ("black", "Black"),
        ("time_control", "TimeControl"),
        ("eco", "ECO"),
        ("termination", "Termination"),
        ("result", "Result"),
    ];
    for (ours_name, tag) in tags {
        if !same_tag(&ours[ours_name], &theirs["tags"][tag]) {
            wrong.push(format!(
                "{ours_name}: {} vs {}",
                ours[ours_name], theirs["tags"][tag]
            ));
        }
    }
    for col in [
        "white_elo",
        "black_elo",
        "plies",
        "first_threefold_claimable_ply",
        "first_fifty_claimable_ply",
        "clock_white",
        "clock_black",
    ] {
        if ours[col] != theirs[col] {
            wrong.push(format!("{col}: {} vs {}", ours[col], theirs[col]));
        }
    }
    if ours["ended_by"] == "dead-position" {
        return None;
    }
    let ended = match theirs["ended"].as_array() {
        Some(e) => (e[0].clone(), e[1].clone(), e[2].clone()),
        None => (Value::Null, Value::Null, Value::Null),
    };
    let mine = (
        ours["ended_ply"].clone(),
        ours["ended_by"].clone(),
        ours["laws_result"].clone(),
    );
    if mine != ended {
        wrong.push(format!("ending: {mine:?} vs {ended:?}"));
    }
    Some(wrong)
}

fn rows_agree_with_python_chess() {
    let shared = common::shared_path();
    let python = common::find_oracle_python().expect("ORACLE found python-chess");
    let files: Vec<String> = ["lichess/lichess_db_1000k.pgn", "twic/twic1599_1000k.pgn"]
        .iter()
        .map(|f| shared.join("corpus").join(f).display().to_string())
        .collect();
    let oracle = oracle_rows(&python, &files);
    let mut args = vec!["--rules", "fide-2023"];
    args.extend(files.iter().map(String::as_str));
    let (run, rows) = per_game(&args);
    assert!(run.status <= 1, "{}", run.stderr);
    let (mut compared, mut left_out, mut ended, mut clocks) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    for ours in &rows {
        let key = (
            ours["file"].as_str().unwrap().to_owned(),
            ours["game"].as_u64().unwrap(),
        );
        let theirs = &oracle[&key];
        if !ours["error"].is_null() || theirs["errors"] != 0 {
            left_out += 1;
            continue;
        }
        match differences(ours, theirs) {
            None => left_out += 1,
            Some(d) => {
                compared += 1;
                ended += usize::from(!ours["ended_by"].is_null());
                clocks += usize::from(!ours["clock_white"].is_null());
                wrong.extend(
                    d.into_iter()
                        .map(|d| format!("{} game {}: {d}", key.0, key.1)),
                );
            }
        }
    }
    assert_eq!(rows.len(), oracle.len(), "a row per game");
    eprintln!(
        "compared {compared} games with python-chess ({ended} ended by the Laws, {clocks} with \
         clocks at a claimable ply); {left_out} left out"
    );
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(30)].join("\n")
    );
    assert!(
        compared > 1500 && ended > 150 && clocks > 10,
        "{compared} {ended} {clocks}"
    );
}

crate::verify_claim_tests! {
    every_game_is_a_row_in_input_order,
    the_per_game_table_is_jsonl_or_csv,
    the_rows_are_the_same_however_the_input_is_cut: [SHARED],
    malformed_files_give_their_errors_as_rows: [SHARED],
    rows_agree_with_python_chess: [SHARED, ORACLE],
}
