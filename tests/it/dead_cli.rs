//! Dead positions and unwinnable flag falls through the three modes.

use crate::common;
use common::{json, run};
use serde_json::json as j;

#[test]
fn claim_after_the_game_became_dead() {
    // The knights come off at ply 6 (42...Kxc6): a pawn wall with kings.
    let (status, v) = json(&["fixtures/chess/dead-wall.pgn"]);
    assert_eq!(status, 1);
    assert_eq!(
        v["game_over"],
        j!({"reason": "dead-position", "ply": 6, "article": "5.2.2"})
    );
    assert_eq!(v["dead_check"]["dead"], true);
    assert_eq!(v["dead_check"]["search"], "full");
    let r = run(&["fixtures/chess/dead-wall.pgn"]);
    assert!(
        r.stdout
            .contains("The game had already ended after 42...Kxc6 (ply 6): a dead position"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("dead: no sequence of legal moves leads to checkmate"),
        "{}",
        r.stdout
    );
    // One ply earlier a knight is still on the board: not dead, with the helpmate shown.
    let (_, v) = json(&["fixtures/chess/dead-wall.pgn", "--ply", "5"]);
    assert_eq!(v["game_over"], j!(null));
    assert_eq!(v["dead_check"]["dead"], false);
    assert_eq!(v["dead_check"]["white_can_win"], true);
    // The text says so in one line; the helpmate lines only with --explain.
    let r = run(&["fixtures/chess/dead-wall.pgn", "--ply", "5"]);
    assert!(
        r.stdout
            .contains("Not a dead position: both sides can still checkmate"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("helpmate"), "{}", r.stdout);
    assert!(v["dead_check"]["helpmates"]["white"].is_array(), "{v}");
    let r = run(&["fixtures/chess/dead-wall.pgn", "--ply", "5", "--explain"]);
    assert!(
        r.stdout
            .contains("White can still checkmate, e.g. (helpmate) 42..."),
        "{}",
        r.stdout
    );
    // Editions cite their own article.
    let (_, v) = json(&["fixtures/chess/dead-wall.pgn", "--rules", "fide-2009"]);
    assert_eq!(v["game_over"]["article"], "9.6");
}

#[test]
fn check_position_for_people_and_scripts() {
    let wall = "8/8/3k4/1p1p1p1p/1P1P1P1P/3K4/8/8 w - - 0 1";
    let r = run(&["check-position", "--fen", wall, "--format", "json"]);
    assert_eq!(r.status, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (
            v["dead"].clone(),
            v["white_can_win"].clone(),
            v["black_can_win"].clone()
        ),
        (j!(true), j!(false), j!(false))
    );
    // Bishops on opposite colours: not dead, helpmates for both.
    let r = run(&[
        "check-position",
        "--fen",
        "8/8/3k4/8/3b4/8/3KB3/8 w - - 0 1",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["dead"], false);
    assert!(
        v["helpmates"]["white"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .as_str()
            .unwrap()
            .ends_with('#')
    );
    // Same-coloured bishops: dead.
    let r = run(&[
        "check-position",
        "--fen",
        "8/8/3k4/8/2b5/8/3KB3/8 w - - 0 1",
        "--format",
        "json",
    ]);
    assert!(r.stdout.contains("\"dead\":true"), "{}", r.stdout);
    // One side only; the quick search only proves impossibility.
    let r = run(&[
        "check-position",
        "--fen",
        "8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1",
        "--side",
        "white",
        "--dead-search",
        "quick",
    ]);
    assert!(
        r.stdout
            .contains("White: undetermined (the quick search only proves impossibility"),
        "{}",
        r.stdout
    );
    let r = run(&["check-position", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"]);
    assert!(
        r.stdout.contains("stalemate: not a dead position"),
        "{}",
        r.stdout
    );
    let r = run(&["check-position", "--fen", "8/8/9/8/8/8/8/8 w - - 0 1"]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("bad FEN"), "{}", r.stderr);
}

#[test]
fn scan_dead_positions_flag_falls_and_resignations() {
    for search in ["quick", "full"] {
        let r = run(&[
            "scan",
            "fixtures/scan/flag-fall.pgn",
            "fixtures/chess/dead-wall.pgn",
            "--format",
            "jsonl",
            "--dead-search",
            search,
        ]);
        let got: Vec<(String, u64, String)> = r
            .stdout
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|v| {
                let file = v["file"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_owned();
                (
                    file,
                    v["game"].as_u64().unwrap(),
                    v["kind"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let want: Vec<(String, u64, String)> = [
            // 1: the knight's side lost on time: the queen can mate, it stands.
            // 2: the queen's side flagged: K+N cannot mate K+Q (the D3-Chess
            //    vectors label such positions "-B"): a draw under 6.9.
            ("flag-fall.pgn", 2, "unwinnable-flag-fall"),
            ("flag-fall.pgn", 2, "result-mismatch"),
            ("flag-fall.pgn", 3, "unwinnable-flag-fall"),
            ("flag-fall.pgn", 3, "result-mismatch"),
            // 4: resignation against a lone king in 2024 (5.1.2); 5: in 2020, no rule.
            ("flag-fall.pgn", 4, "unwinnable-resignation"),
            ("flag-fall.pgn", 4, "result-mismatch"),
            ("dead-wall.pgn", 1, "dead-position"),
            ("dead-wall.pgn", 1, "result-mismatch"),
        ]
        .into_iter()
        .map(|(f, g, k)| (f.to_owned(), g, k.to_owned()))
        .collect();
        assert_eq!(got, want, "--dead-search {search}");
    }
    // Insufficient material is reported as such, not twice.
    let r = run(&["scan", "fixtures/scan/kinds.pgn", "--format", "jsonl"]);
    assert!(!r.stdout.contains("dead-position"));
}
