//! `--format pgn`: the input written back with the verdict and findings as
//! a tag and comments, everything else byte for byte; read back by
//! python-chess (same moves, the comments at the finding plies).

use crate::common;
use std::collections::BTreeSet;
use std::process::Command;

use common::harness::ORACLE;
use common::run;
use serde_json::Value;

const ARCHIVE: &str = "fixtures/scan/annotate.pgn";

/// Removes what the annotation added: the tag line and the comments.
fn strip(annotated: &str) -> String {
    let mut out = String::new();
    for line in annotated.split_inclusive('\n') {
        if !line.starts_with("[VerifyClaim \"") {
            out.push_str(line);
        }
    }
    // The tag line of a game without tags is followed by a blank line.
    while let Some(i) = out.find("{verify-claim: ") {
        let Some(len) = out[i..].find('}') else { break };
        let (before, after) = out.split_at(i);
        let after = &after[len + 1..];
        out = if before.ends_with(' ') && !after.starts_with(' ') {
            format!("{}{after}", &before[..before.len() - 1])
        } else if let Some(a) = after.strip_prefix(' ') {
            format!("{before}{a}")
        } else {
            format!("{before}{after}")
        };
    }
    out
}

fn finding_plies(jsonl: &str) -> Vec<BTreeSet<u64>> {
    let mut by_game: Vec<BTreeSet<u64>> = vec![BTreeSet::new(); 5];
    for line in jsonl.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let g = v["game"].as_u64().unwrap() as usize;
        by_game[g - 1].insert(v["ply"].as_u64().unwrap());
    }
    by_game
}

fn scan_writes_the_archive_back_with_the_findings() {
    let r = run(&["scan", ARCHIVE, "--format", "pgn"]);
    assert_eq!(r.status, 1, "{}", r.stderr); // the wrong winner is an error
    let input = std::fs::read_to_string(ARCHIVE).unwrap();
    assert_eq!(strip(&r.stdout), input, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("[VerifyClaim \"warning: moves-after-end; info: insufficient-material\"]")
    );
    assert!(
        r.stdout
            .contains("1. Kxd3 {verify-claim: insufficient-material: "),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("[VerifyClaim \"error: result-mismatch; info: checkmate\"]")
    );
    // A finding at the start position goes before the first move.
    assert!(
        r.stdout
            .contains("1. {verify-claim: insufficient-material: "),
        "{}",
        r.stdout
    );
    // The game with nothing to say is unchanged.
    assert!(
        r.stdout
            .contains("[Result \"*\"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 *")
    );
    // --min-severity leaves the info comments out.
    let r = run(&[
        "scan",
        ARCHIVE,
        "--format",
        "pgn",
        "--min-severity",
        "warning",
    ]);
    assert!(!r.stdout.contains("threefold-claimable"), "{}", r.stdout);
    assert!(r.stdout.contains("{verify-claim: moves-after-end: "));
    assert_eq!(strip(&r.stdout), input);
}

fn claim_writes_the_game_back_with_the_verdict() {
    let f = "fixtures/chess/threefold-written.pgn";
    let r = run(&[f, "--move", "Ng8", "--format", "pgn"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("[VerifyClaim \"valid: threefold repetition (9.2.1), fide-2023\"]")
    );
    assert!(r.stdout.contains(
        "4. Ng1 {verify-claim: threefold repetition claimable by Black with 4...Ng8 (9.2.1)} *"
    ));
    assert_eq!(strip(&r.stdout), std::fs::read_to_string(f).unwrap());
    let r = run(&[f, "--format", "pgn"]);
    assert_eq!(r.status, 1);
    assert!(r.stdout.contains("[VerifyClaim \"not valid, fide-2023\"]"));
    assert!(r.stdout.contains("what follows: 9.5.3"), "{}", r.stdout);
    // One game of several: only that one comes back.
    let r = run(&[
        "fixtures/chess/round5.pgn",
        "--game",
        "2",
        "--format",
        "pgn",
    ]);
    assert_eq!(r.stdout.matches("[Event ").count(), 1, "{}", r.stdout);
}

const READ_BACK: &str = r#"
import sys, json, chess.pgn
def games(path):
    with open(path, encoding="utf-8") as f:
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                return
            yield g
for a, b in zip(games(sys.argv[1]), games(sys.argv[2])):
    moves_a = [m.uci() for m in a.mainline_moves()]
    moves_b = [m.uci() for m in b.mainline_moves()]
    heads_a = dict(a.headers)
    heads_b = {k: v for k, v in b.headers.items() if k != "VerifyClaim"}
    plies = [0] if "verify-claim:" in b.comment else []
    plies += [i + 1 for i, n in enumerate(b.mainline()) if "verify-claim:" in n.comment]
    print(json.dumps({"same_moves": moves_a == moves_b, "same_tags": heads_a == heads_b,
                      "variations": [len(n.variations) for n in a.mainline()] ==
                                    [len(n.variations) for n in b.mainline()],
                      "tag": b.headers.get("VerifyClaim"), "plies": plies, "errors": len(b.errors)}))
"#;

/// python-chess's reading of `output` against `input`, one object a game.
/// `output` goes to a scratch file removed on return (test runs leave
/// nothing in the temporary directory).
fn read_back(py: &str, input: &str, output: &str) -> Vec<Value> {
    let out_path = common::temp_file("out.pgn", output.as_bytes());
    let o = Command::new(py)
        .args(["-c", READ_BACK, input, &out_path])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn python_chess_reads_the_annotated_games() {
    let py = common::find_oracle_python().expect("ORACLE found python-chess");
    let out = run(&["scan", ARCHIVE, "--format", "pgn"]).stdout;
    let findings = finding_plies(&run(&["scan", ARCHIVE, "--format", "jsonl"]).stdout);
    let games = read_back(&py, ARCHIVE, &out);
    assert_eq!(games.len(), 5);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["same_moves"], true, "game {}: {g}", i + 1);
        assert_eq!(g["same_tags"], true, "game {}: {g}", i + 1);
        assert_eq!(g["variations"], true, "game {}: {g}", i + 1);
        assert_eq!(g["errors"], 0, "game {}: {g}", i + 1);
        let plies: BTreeSet<u64> = g["plies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        assert_eq!(plies, findings[i], "game {}: {g}", i + 1);
        assert_eq!(g["tag"].is_null(), findings[i].is_empty(), "game {}", i + 1);
    }
    let f = "fixtures/chess/threefold-written.pgn";
    let out = run(&[f, "--move", "Ng8", "--format", "pgn"]).stdout;
    let games = read_back(&py, f, &out);
    assert_eq!(games[0]["same_moves"], true, "{}", games[0]);
    // The occurrences (plies 0, 3, 4) and the claim point (7).
    assert_eq!(games[0]["plies"], serde_json::json!([0, 3, 4, 7]));
}

crate::verify_claim_tests! {
    scan_writes_the_archive_back_with_the_findings,
    claim_writes_the_game_back_with_the_verdict,
    python_chess_reads_the_annotated_games: [ORACLE],
}
