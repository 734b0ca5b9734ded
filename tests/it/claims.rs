//! Every claim form on hand-made fixtures, through the command line.

use crate::common;
use common::{json, run, run_with_stdin};
use serde_json::json as j;

const F: &str = "fixtures/chess";

fn fx(name: &str) -> String {
    format!("{F}/{name}")
}

#[test]
fn threefold_only_with_the_written_move() {
    let (status, v) = json(&[&fx("threefold-written.pgn"), "--move", "Ng8"]);
    assert_eq!(status, 0);
    assert_eq!(v["valid"], true);
    assert_eq!(v["ply"], 7);
    assert_eq!(v["claimant"], "black");
    assert_eq!(v["written_move"], "Ng8");
    assert_eq!(v["rules"], "fide-2023");
    assert_eq!(
        v["grounds"],
        j!([{"rule": "threefold-repetition", "article": "9.2.1", "plies": [0, 4, 8], "form": "written-move"}])
    );
    // Without the written move the position has stood only twice.
    let (status, v) = json(&[&fx("threefold-written.pgn")]);
    assert_eq!(status, 1);
    assert_eq!(v["valid"], false);
    assert_eq!(v["grounds"], j!([]));
    assert_eq!(v["penalty"]["minutes_added"], 2);
    // A written move that does not repeat: invalid, and it must be played.
    let (status, v) = json(&[&fx("threefold-written.pgn"), "--move", "Nc6"]);
    assert_eq!(status, 1);
    assert!(
        v["penalty"]["text"]
            .as_str()
            .unwrap()
            .contains("Nc6 must be played")
    );
}

#[test]
fn text_output_reads_like_an_arbiters_note() {
    let r = run(&[&fx("threefold-written.pgn"), "--move", "Ng8"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .starts_with("Claim VALID: threefold repetition (9.2.1)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("at the start position (ply 0), after 2...Ng8 (ply 4), and after the written move 4...Ng8 (ply 8)"), "{}", r.stdout);
    assert!(r.stdout.contains("  8  r n b q k b . r"), "{}", r.stdout);
}

#[test]
fn en_passant_pseudo_legal_but_illegal_does_not_make_positions_differ() {
    let (status, v) = json(&[&fx("ep-pinned.pgn")]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["grounds"][0]["plies"], j!([1, 5, 9]));
    assert_eq!(v["near_misses"], j!([]));
}

#[test]
fn legal_en_passant_makes_positions_differ() {
    let (status, v) = json(&[&fx("ep-legal.pgn")]);
    assert_eq!(status, 1);
    assert_eq!(
        v["repetitions"],
        j!([{"ply": 5, "move": "3...Ke8"}, {"ply": 9, "move": "5...Ke8"}])
    );
    assert_eq!(v["near_misses"][0]["ply"], 1);
    assert!(
        v["near_misses"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("en passant capture on c6")
    );
}

#[test]
fn castling_rights_lost_between_occurrences() {
    // At ply 10 the placement has stood three times, the position only twice.
    let (status, v) = json(&[&fx("castling-lost.pgn"), "--ply", "10"]);
    assert_eq!(status, 1);
    assert_eq!(v["repetitions"].as_array().unwrap().len(), 2);
    assert_eq!(v["near_misses"][0]["ply"], 2);
    assert!(
        v["near_misses"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("castling rights differ")
    );
    // At the end it has stood three times with the same rights (Date 2019: fide-2018).
    let (status, v) = json(&[&fx("castling-lost.pgn")]);
    assert_eq!(status, 0);
    assert_eq!(v["rules"], "fide-2018");
    assert_eq!(v["grounds"][0]["plies"], j!([6, 10, 14]));
    assert_eq!(v["grounds"][0]["article"], "9.2.1.2");
}

#[test]
fn fifty_moves_partly_from_the_fen_clock() {
    let (status, v) = json(&[&fx("fifty-fen-clock.pgn")]);
    assert_eq!(status, 0);
    assert_eq!(v["rules"], "fide-2014");
    assert_eq!(
        v["grounds"],
        j!([{"rule": "fifty-move", "article": "9.3.b", "plies": [0, 10], "form": "on-the-board"}])
    );
    assert_eq!(v["count"]["from_start_position"], 90);
    assert_eq!(v["count"]["plies"], 100);
    // One ply earlier the count is 99: valid only with a written quiet move.
    let (status, _) = json(&[&fx("fifty-fen-clock.pgn"), "--ply", "9", "--claim", "fifty"]);
    assert_eq!(status, 1);
    let (status, v) = json(&[&fx("fifty-fen-clock.pgn"), "--ply", "9", "--move", "Kb5"]);
    assert_eq!(status, 0);
    assert_eq!(v["grounds"][0]["article"], "9.3.a");
    assert_eq!(v["grounds"][0]["plies"], j!([0, 10]));
    let (status, _) = json(&[&fx("fifty-fen-clock.pgn"), "--ply", "9", "--move", "Ka6"]);
    assert_eq!(status, 0);
    let r = run(&[&fx("fifty-fen-clock.pgn"), "--ply", "9", "--move", "Kb4"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .contains("the king on a5 cannot go to b4: that square is attacked"),
        "{}",
        r.stderr
    );
    let r = run(&[&fx("fifty-fen-clock.pgn")]);
    assert!(
        r.stdout
            .contains("90 of them counted in the start position's FEN"),
        "{}",
        r.stdout
    );
}

#[test]
fn written_move_that_is_illegal_is_an_error() {
    let r = run(&[&fx("threefold-written.pgn"), "--move", "Nf4"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .contains("--move Nf4: 'Nf4' is illegal: no Black knight can move to f4"),
        "{}",
        r.stderr
    );
    let r = run(&[&fx("threefold-written.pgn"), "--move", "Nd7"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .contains("--move Nd7: 'Nd7' is illegal: d7 holds Black's own pawn"),
        "{}",
        r.stderr
    );
    let r = run(&[&fx("threefold-written.pgn"), "--move", "hello"]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("is not a move"), "{}", r.stderr);
}

/// A written move that is no legal move does not matter when the position
/// on the board already meets the rule (9.2.2, 9.3.2): that move is never
/// played, and the claim is correct. The JSON says why the move was left.
#[test]
fn an_illegal_written_move_leaves_a_claim_the_board_already_meets() {
    let game = b"[Date \"2024.01.01\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";
    let r = run_with_stdin(&["-", "--move", "Nf5", "--format", "json"], Some(game));
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(
        v["grounds"],
        j!([{"rule": "threefold-repetition", "article": "9.2.2", "plies": [0, 4, 8], "form": "on-the-board"}])
    );
    assert!(
        v["written_move_illegal"]
            .as_str()
            .unwrap()
            .contains("no White knight can move to f5"),
        "{v}"
    );
    assert_eq!(v["repetitions_with_written_move"], j!([]));
    let r = run_with_stdin(&["-", "--move", "Nf5"], Some(game));
    assert!(
        r.stdout.contains("the written move is no legal move"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("judged on the board alone"),
        "{}",
        r.stdout
    );
    // The fifty-move count reached on the board: the same.
    let (status, v) = json(&[&fx("fifty-fen-clock.pgn"), "--move", "Qd1"]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["grounds"][0]["article"], "9.3.b"); // a 2016 game: fide-2014
    assert!(v["written_move_illegal"].is_string(), "{v}");
    // A legal written move: no such field.
    let (_, v) = json(&[&fx("fifty-fen-clock.pgn"), "--move", "Re2"]);
    assert!(v["written_move_illegal"].is_null(), "{v}");
    // Not a move at all is still an error, as is an illegal move when the
    // claim needs it (written_move_that_is_illegal_is_an_error).
    let r = run_with_stdin(&["-", "--move", "Xq9"], Some(game));
    assert_eq!(r.status, 2);
}

#[test]
fn claim_by_the_side_not_having_the_move() {
    let (status, v) = json(&[&fx("castling-lost.pgn"), "--claimant", "black"]);
    assert_eq!(status, 1);
    assert_eq!(v["claimant"], "white");
    assert_eq!(v["claimed_by"], "black");
    assert_eq!(v["grounds"], j!([]));
    assert!(
        v["reasons"][0]
            .as_str()
            .unwrap()
            .contains("only the player having the move may claim (9.2.1)")
    );
    let (status, _) = json(&[&fx("castling-lost.pgn"), "--claimant", "white"]);
    assert_eq!(status, 0);
}

#[test]
fn claim_after_checkmate() {
    let (status, v) = json(&[&fx("fools-mate.pgn")]);
    assert_eq!(status, 1);
    assert_eq!(
        v["game_over"],
        j!({"reason": "checkmate", "ply": 4, "article": "5.1.1"})
    );
    assert_eq!(v["penalty"], j!(null));
    // Even with a "written move", which no longer exists.
    let (status, v) = json(&[&fx("fools-mate.pgn"), "--move", "Ke2"]);
    assert_eq!(status, 1);
    assert_eq!(v["game_over"]["reason"], "checkmate");
    let r = run(&[&fx("fools-mate.pgn")]);
    assert!(
        r.stdout.contains(
            "The game had already ended after 2...Qh4# (ply 4): checkmate, article 5.1.1."
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn chess960_castling_and_repetition() {
    let (status, v) = json(&[&fx("chess960.pgn")]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["grounds"][0]["plies"], j!([6, 10, 14]));
    assert!(v["notes"][0].as_str().unwrap().contains("Chess960"));
}

#[test]
fn claim_point_by_move_and_by_ply() {
    let (_, v) = json(&[&fx("castling-lost.pgn"), "--after", "5...Nf6"]);
    assert_eq!(v["ply"], 10);
    let (_, v) = json(&[&fx("castling-lost.pgn"), "--after", "5.Nf3"]);
    assert_eq!(v["ply"], 9);
    let (_, v) = json(&[&fx("castling-lost.pgn"), "--after", "5. Nf3"]);
    assert_eq!(v["ply"], 9);
    let r = run(&[&fx("castling-lost.pgn"), "--after", "5...Nc6"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("the game has 5...Nf6 there, not Nc6"),
        "{}",
        r.stderr
    );
    let r = run(&[&fx("castling-lost.pgn"), "--after", "40.Nf3"]);
    assert_eq!(r.status, 2);
    let r = run(&[&fx("castling-lost.pgn"), "--ply", "99"]);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("only 14 plies"), "{}", r.stderr);
}

#[test]
fn claim_kind_restricts_the_grounds() {
    let (status, _) = json(&[&fx("castling-lost.pgn"), "--claim", "fifty"]);
    assert_eq!(status, 1);
    let (status, _) = json(&[&fx("fifty-fen-clock.pgn"), "--claim", "threefold"]);
    assert_eq!(status, 1);
}

#[test]
fn editions_change_articles_and_penalties() {
    let (_, v) = json(&[
        &fx("threefold-written.pgn"),
        "--move",
        "Ng8",
        "--rules",
        "fide-2009",
    ]);
    assert_eq!(v["grounds"][0]["article"], "9.2.1");
    let (_, v) = json(&[&fx("threefold-written.pgn"), "--rules", "fide-2009"]);
    assert_eq!(v["penalty"]["minutes_added"], 3);
    assert_eq!(v["penalty"]["article"], "9.5.2");
    let (_, v) = json(&[
        &fx("threefold-written.pgn"),
        "--move",
        "Ng8",
        "--rules",
        "fide-2014",
    ]);
    assert_eq!(v["grounds"][0]["article"], "9.2.a");
}

#[test]
fn standard_input_and_multi_game_files() {
    let bytes = std::fs::read(fx("threefold-written.pgn")).unwrap();
    let r = run_with_stdin(&["-", "--move", "Ng8", "--format", "json"], Some(&bytes));
    assert_eq!(r.status, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["file"], "<stdin>");

    let r = run(&[&fx("round5.pgn")]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .contains("the file has 3 games; choose one with --game N"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("2  Carol – Dave, round 5.2"),
        "{}",
        r.stderr
    );
    let (status, v) = json(&[&fx("round5.pgn"), "--game", "3", "--move", "Nf3"]);
    assert_eq!(status, 0, "{v}");
    assert_eq!(v["game"], 3);
    let r = run(&[&fx("round5.pgn"), "--game", "4"]);
    assert_eq!(r.status, 2);
}

#[test]
fn written_move_that_would_checkmate_still_supports_the_claim() {
    // Documented deviation from python-chess (notes, decision 5): the claim
    // is decided before the move is made.
    let (status, v) = json(&[&fx("fifty-written-mate.pgn"), "--move", "Rh8"]);
    assert_eq!(status, 0);
    assert_eq!(v["grounds"][0]["article"], "9.3.1");
    assert_eq!(v["written_move"], "Rh8#");
    assert_eq!(v["written_move_ends_game"], "checkmate");
    let r = run(&[&fx("fifty-written-mate.pgn"), "--move", "Rh8"]);
    assert!(
        r.stdout.contains("would end the game by checkmate"),
        "{}",
        r.stdout
    );
}

#[test]
fn seventy_five_moves_end_the_game_from_2014() {
    let (status, v) = json(&[&fx("seventy-five.pgn")]);
    assert_eq!(status, 1);
    assert_eq!(
        v["game_over"],
        j!({"reason": "seventy-five-move", "ply": 2, "article": "9.6.2"})
    );
    let (_, v) = json(&[&fx("seventy-five.pgn"), "--rules", "fide-2014"]);
    assert_eq!(v["game_over"]["article"], "9.6.b");
    // The 2009 Laws have no automatic draw: the fifty-move claim stands.
    let (status, v) = json(&[&fx("seventy-five.pgn"), "--rules", "fide-2009"]);
    assert_eq!(status, 0);
    assert_eq!(v["game_over"], j!(null));
    assert_eq!(v["grounds"][0]["article"], "9.3.2");
    // A claim before the 75th move is still a claim.
    let (status, _) = json(&[&fx("seventy-five.pgn"), "--ply", "1"]);
    assert_eq!(status, 0);
}

#[test]
fn checkmate_on_the_75th_move_takes_precedence() {
    let (_, v) = json(&[&fx("seventy-five-mate.pgn")]);
    assert_eq!(
        v["game_over"],
        j!({"reason": "checkmate", "ply": 1, "article": "5.1.1"})
    );
}

#[test]
fn fivefold_2018_counts_any_five_2014_only_consecutive_alternate_moves() {
    let (status, v) = json(&[&fx("fivefold-scattered.pgn")]);
    assert_eq!(status, 1);
    assert_eq!(v["rules"], "fide-2018");
    assert_eq!(
        v["game_over"],
        j!({"reason": "fivefold-repetition", "ply": 24, "article": "9.6.1"})
    );
    let (status, v) = json(&[&fx("fivefold-scattered.pgn"), "--rules", "fide-2014"]);
    assert_eq!(status, 0);
    assert_eq!(v["game_over"], j!(null));
    assert_eq!(v["grounds"][0]["plies"], j!([0, 6, 12, 18, 24]));
    // Played some day of 2014: under fide-2009 or fide-2014, never a later
    // edition, so the scattered five-fold ends nothing.
    let text = std::fs::read_to_string(fx("fivefold-scattered.pgn"))
        .unwrap()
        .replace("2020.02.02", "2014.??.??");
    let path = common::temp_file("fivefold-2014.pgn", text.as_bytes());
    let (status, v) = json(&[&path]);
    assert_eq!(status, 0);
    assert_eq!(v["rules"], "fide-2014");
    assert_eq!(v["game_over"], j!(null));
    // Every four plies, five times: the 2014 rule ends the game too.
    let (_, v) = json(&[&fx("fivefold-consecutive.pgn")]);
    assert_eq!(v["rules"], "fide-2014");
    assert_eq!(
        v["game_over"],
        j!({"reason": "fivefold-repetition", "ply": 16, "article": "9.6.a"})
    );
}

#[test]
fn written_move_of_an_earlier_claim_is_not_confused_with_the_recorded_move() {
    // The game went on with 6.Ng1 after ply 10; the claim at ply 10 writes
    // 6.Ng1 too: the report must speak of the written move.
    let r = run(&[&fx("castling-lost.pgn"), "--ply", "10", "--move", "Ng1"]);
    assert!(
        r.stdout
            .contains("after 4.Ng1 (ply 7), and after the written move 6.Ng1 (ply 11)"),
        "{}",
        r.stdout
    );
    let (_, v) = json(&[&fx("castling-lost.pgn"), "--ply", "10", "--move", "Ng1"]);
    assert_eq!(
        v["repetitions_with_written_move"][1],
        j!({"ply": 11, "move": "6.Ng1"})
    );
}
