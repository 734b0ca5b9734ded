//! Column draughts through the same front end as chess: claims (1.13),
//! results (1.11, 1.12), and moves that break the rules, with their places.

use crate::common;
use common::{json, run};
use serde_json::json as j;

const D: &str = "fixtures/draughts";

fn fx(name: &str) -> String {
    format!("{D}/{name}")
}

#[test]
fn threefold_on_the_board_and_with_a_written_move() {
    let (status, v) = json(&[&fx("repetition.pdn")]);
    assert_eq!(status, 0);
    assert_eq!(v["game_type"], "column-draughts");
    assert_eq!(v["rules"], "spb-column-draughts");
    assert_eq!(
        v["grounds"],
        j!([{"rule": "threefold-repetition", "article": "1.13.1", "plies": [0, 4, 8], "form": "on-the-board"}])
    );
    // One ply earlier: only by writing the move that repeats (1.13.2).
    let (status, _) = json(&[&fx("repetition.pdn"), "--ply", "7"]);
    assert_eq!(status, 1);
    let (status, v) = json(&[&fx("repetition.pdn"), "--ply", "7", "--move", "e7-f8"]);
    assert_eq!(status, 0);
    assert_eq!(v["grounds"][0]["article"], "1.13.2");
    assert_eq!(v["grounds"][0]["plies"], j!([0, 4, 8]));
    // A written move that does not repeat: it counts as made (note b).
    let (status, v) = json(&[&fx("repetition.pdn"), "--ply", "7", "--move", "e7-d6"]);
    assert_eq!(status, 1);
    assert_eq!(
        v["penalty"]["text"],
        "1.13.2, note b: the written move e7-d6 counts as made and play goes on"
    );
    // Only the player to move may claim.
    let (status, v) = json(&[&fx("repetition.pdn"), "--claimant", "black"]);
    assert_eq!(status, 1);
    assert!(v["reasons"][0].as_str().unwrap().contains("(1.13.2)"));
}

#[test]
fn unchanged_material_at_exactly_15_and_at_14_moves() {
    let (status, v) = json(&[&fx("material.pdn"), "--claim", "unchanged-material"]);
    assert_eq!(status, 0);
    assert_eq!(
        v["grounds"],
        j!([{"rule": "unchanged-material", "article": "1.13.1", "plies": [0, 10], "form": "on-the-board"}])
    );
    assert_eq!(v["count"]["plies"], 30);
    assert_eq!(v["count"]["from_start_position"], 20);
    let (status, v) = json(&[
        &fx("material.pdn"),
        "--claim",
        "unchanged-material",
        "--ply",
        "8",
    ]);
    assert_eq!(status, 1);
    assert_eq!(v["count"]["plies"], 28);
    // The count is claimed on the board, before moving: a written move does
    // not complete it.
    let (status, v) = json(&[
        &fx("material.pdn"),
        "--claim",
        "unchanged-material",
        "--ply",
        "9",
        "--move",
        "h8-g7",
    ]);
    assert_eq!(status, 1);
    // The reason counts the board (29 plies), not the written move, and
    // says why; note b (repetition claims) is not what follows.
    let reason = v["reasons"][0].as_str().unwrap();
    assert!(
        reason.starts_with("14.5 moves counted (29 plies)"),
        "{reason}"
    );
    assert!(
        reason.ends_with(
            "the count is claimed before moving (1.13.1): the written move does not count"
        ),
        "{reason}"
    );
    assert_eq!(
        v["penalty"]["text"],
        "1.13.1: the claim was wrong and play goes on"
    );
}

#[test]
fn a_player_who_cannot_move_has_lost() {
    let (status, v) = json(&[&fx("no-moves.pdn")]);
    assert_eq!(status, 1);
    assert_eq!(
        v["game_over"],
        j!({"reason": "no-moves", "ply": 1, "article": "1.12"})
    );
    let r = run(&["scan", &fx("no-moves.pdn"), "--format", "jsonl"]);
    assert_eq!(r.status, 0, "{}", r.stdout);
    assert!(r.stdout.contains("\"kind\":\"no-moves\""));
    // The wrong winner recorded.
    let text = std::fs::read_to_string(fx("no-moves.pdn"))
        .unwrap()
        .replace("0-2", "2-0");
    let path = common::temp_file("wrong-winner.pdn", text.as_bytes());
    let r = run(&["scan", &path, "--format", "jsonl"]);
    assert_eq!(r.status, 1);
    assert!(
        r.stdout.contains("\"kind\":\"result-mismatch\""),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("\"expected\":\"0-1\""), "{}", r.stdout);
}

/// A loss on time stands in column draughts though the winner could not
/// win any more (1.12): only a game neither side can win is drawn (1.11).
/// Chess's 6.9 does not apply.
#[test]
fn a_loss_on_time_stands_when_only_the_winner_cannot_win() {
    let r = run(&["scan", &fx("flag-fall.pdn"), "--format", "jsonl"]);
    assert_eq!(r.status, 0, "{}", r.stdout);
    assert_eq!(r.stdout, "", "no finding: the result stands");
    assert!(r.stderr.contains("scanned 1 game ("), "{}", r.stderr);
}

/// `--min-draw-moves` is the event's rule in column draughts: the seed has
/// no minimum, and chess's 9.1.1 is not cited.
#[test]
fn an_early_draw_cites_the_events_regulations_not_chess() {
    let path = common::temp_file(
        "early.pdn",
        b"[GameType \"column draughts\"]\n[Result \"1-1\"]\n\n1. c3-d4 f6-g5 1-1\n",
    );
    let r = run(&["scan", &path, "--format", "jsonl", "--min-draw-moves", "20"]);
    assert!(
        r.stdout.contains("\"kind\":\"early-draw-agreement\""),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("(the event's regulations; 1.13.1 sets no minimum)"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("9.1.1"), "{}", r.stdout);
}

#[test]
fn captures_over_towers_are_replayed() {
    let (status, v) = json(&[&fx("game.pdn")]);
    assert_eq!(status, 1);
    // 2. d4:f6 g7:e5: the black man retakes the white man, leaving a black
    // man on f6 and a tower b-w on e5.
    assert!(v["fen"].as_str().unwrap().contains("e5=bw"), "{}", v["fen"]);
    let r = run(&[&fx("game.pdn")]);
    assert!(
        r.stdout.contains("towers (top first): e5=bw"),
        "{}",
        r.stdout
    );
}

fn error_of(pdn_moves: &str, fen: Option<&str>) -> String {
    let mut text = String::from("[GameType \"column draughts\"]\n");
    if let Some(f) = fen {
        text.push_str(&format!("[FEN \"{f}\"]\n"));
    }
    text.push('\n');
    text.push_str(pdn_moves);
    text.push('\n');
    // A scratch directory a call (tests run on several threads of one
    // process), removed on return.
    let path = common::temp_file("bad.pdn", text.as_bytes());
    let r = run(&[&path]);
    assert_eq!(r.status, 2, "{}", r.stdout);
    r.stderr[path.len()..].to_owned()
}

#[test]
fn moves_that_break_the_rules_are_errors_with_their_place() {
    // A quiet move when a capture is compulsory.
    let e = error_of("1. c3-d4 f6-e5 2. d4-c5 *", None);
    assert!(e.starts_with(":3:19: error: illegal move 2.d4-c5: 'd4-c5' is illegal: capturing is compulsory (possible: d4:f6)"), "{e}");
    // A man moving backward.
    let e = error_of("1. c3-d4 f6-g5 2. d4-c3 *", None);
    assert!(e.contains("a man moves only forward"), "{e}");
    // A capture stopped while it could go on.
    let e = error_of("1. c3:e5 *", Some("W:c3=w,d4=b,f6=b"));
    assert!(
        e.contains("a started capture must be completed (it goes on: c3:e5:g7)"),
        "{e}"
    );
    // A king landing where the capture cannot go on, when it could.
    let e = error_of("1. a1:d4 *", Some("W:a1=W,c3=b,e7=b"));
    assert!(
        e.contains("a king must land where the capture can go on"),
        "{e}"
    );
    assert!(e.contains("a1:f6:c5") || e.contains("a1:f6"), "{e}");
    // Ambiguous ends-only capture: the man takes all four towers round a
    // square and comes back to c3, either way round: two moves (the notes).
    let e = error_of("1. c3:c3 *", Some("W:c3=w,d4=b,d6=b,b4=b,b6=b"));
    assert!(
        e.contains("ambiguous") && e.contains("c3:e5:c7:a5:c3") && e.contains("c3:a5:c7:e5:c3"),
        "{e}"
    );
    // Not a move at all.
    let e = error_of("1. c3-d9 *", None);
    assert!(e.contains("not a column-draughts move"), "{e}");
}

#[test]
fn tower_fen_errors() {
    let e = error_of("*", Some("W:c3=wbw,f6=b"));
    assert!(e.starts_with(":2:1: error: bad tower FEN"), "{e}");
    assert!(e.contains("alternates colours more than once"), "{e}");
    let e = error_of("*", Some("W:c4=w"));
    assert!(e.contains("'c4' is not a dark square"), "{e}");
}

#[test]
fn ends_only_capture_when_unambiguous() {
    let (_, v) = json(&[
        &fx("game.pdn"),
        "--game-type",
        "column-draughts",
        "--ply",
        "3",
        "--move",
        "g7:e5",
    ]);
    assert_eq!(v["written_move"], "g7:e5");
    let (_, v) = json(&[&fx("game.pdn"), "--ply", "3", "--move", "e7:g5"]);
    assert_eq!(v["written_move"], "e7:g5");
}

#[test]
fn perft_subcommand_prints_the_count_last() {
    let r = run(&["perft", "--game-type", "column-draughts", "5"]);
    assert_eq!(r.stdout.lines().last(), Some("7482"));
    let r = run(&["perft", "4"]);
    assert_eq!(r.stdout.lines().last(), Some("197281"));
    let r = run(&[
        "perft",
        "--game-type",
        "column-draughts",
        "--fen",
        "W:a1=W,c3=bb,f6=b,d8=b",
        "--column-rules",
        "rejump",
        "1",
    ]);
    assert_eq!(r.stdout.trim(), "8");
}
