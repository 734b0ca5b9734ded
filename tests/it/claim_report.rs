//! The text report as a person reads it: only what applies, the true
//! reason for a refused written move, hints for slips.

use crate::common;
use common::{json, run};

const F: &str = "fixtures/chess/threefold-written.pgn";

#[test]
fn a_claim_by_the_wrong_side_says_only_what_applies() {
    let r = run(&[F, "--move", "Ng8", "--claimant", "white"]);
    assert_eq!(r.status, 1);
    assert!(
        r.stdout
            .contains("the claim is refused: White did not have the move (Black had it)"),
        "{}",
        r.stdout
    );
    for absent in [
        "must be played",
        "What follows",
        "Evidence",
        "Grounds",
        "4...Ng8",
    ] {
        assert!(!r.stdout.contains(absent), "{absent}: {}", r.stdout);
    }
    // The JSON contract: claimant is the player having the move.
    let (_, v) = json(&[F, "--move", "Ng8", "--claimant", "white"]);
    assert_eq!(v["claimant"], "black");
    assert_eq!(v["claimed_by"], "white");
    assert_eq!(v["penalty"], serde_json::Value::Null);
    assert_eq!(v["valid"], false);
    // A move of White's written by White is not read as Black's: no error.
    let r = run(&[F, "--move", "Nf3", "--claimant", "white"]);
    assert_eq!(r.status, 1, "{}", r.stderr);
}

#[test]
fn no_helpmate_lines_unless_asked() {
    let r = run(&[F, "--move", "Ng8"]);
    assert!(
        r.stdout
            .contains("Not a dead position: both sides can still checkmate"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("helpmate"), "{}", r.stdout);
    let r = run(&[F, "--move", "Ng8", "--explain"]);
    assert!(r.stdout.contains("e.g. (helpmate)"), "{}", r.stdout);
    let (_, v) = json(&[F, "--move", "Ng8"]);
    assert!(v["dead_check"]["helpmates"]["white"].is_array());
}

#[test]
fn a_capture_mark_on_an_empty_square_is_read_as_the_move() {
    // Kxh7 with h7 empty: the same move as Kh7, which completes the claim.
    let f = "fixtures/chess/capture-slip.pgn";
    let (status, v) = json(&[f, "--move", "Kxh7"]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["written_move"], "Kh7");
    // On the board (plies 0, 4, 8) and with the written move (1, 5, 9).
    assert_eq!(v["grounds"][1]["form"], "written-move");
    assert_eq!(v["grounds"][1]["plies"], serde_json::json!([1, 5, 9]));
    assert!(
        v["notes"].as_array().unwrap().iter().any(|n| n
            .as_str()
            .unwrap()
            .contains("marks a capture, but h7 is empty: read as Kh7")),
        "{v}"
    );
    let r = run(&[F, "--move", "Nxg8"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("king in check"));
    // A pawn's capture mark cannot be a slip: refused with the true reason.
    let r = run(&[F, "--move", "dxe6"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("it marks a capture (x), but e6 is empty"),
        "{}",
        r.stderr
    );
}

#[test]
fn lower_case_piece_letters_get_a_hint() {
    let r = run(&[F, "--move", "ng8"]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("did you mean Ng8?"), "{}", r.stderr);
    let r = run(&[
        "fixtures/chess/castling-lost.pgn",
        "--ply",
        "0",
        "--move",
        "o-o",
    ]);
    assert_eq!(r.status, 2);
    assert!(!r.stderr.contains("did you mean"), "{}", r.stderr);
}

#[test]
fn the_help_names_every_claim() {
    let r = run(&["claim", "--help"]);
    for word in [
        "threefold",
        "fifty",
        "unchanged-material",
        "--explain",
        "pgn",
    ] {
        assert!(r.stdout.contains(word), "{word}: {}", r.stdout);
    }
    let (status, _) = json(&[
        "fixtures/draughts/material.pdn",
        "--claim",
        "unchanged-material",
    ]);
    assert_eq!(status, 0);
}

/// The HTML page says what the move count is of in its rulebook's words,
/// for chess and for column draughts (it once wrote its own, by game).
#[test]
fn the_html_count_says_what_resets_it_by_the_rulebook() {
    for (file, without) in [
        (
            "fixtures/chess/fifty-fen-clock.pgn",
            "a pawn move or a capture",
        ),
        ("fixtures/draughts/material.pdn", "a change of material"),
    ] {
        let r = run(&[file, "--format", "html"]);
        assert_eq!(r.status, 0, "{file}: {}", r.stderr);
        let line = format!(" without {without} since the start; ");
        assert!(r.stdout.contains(&line), "{file}: no '{line}'");
    }
}
