//! Issue 8's reader items through the binary: games never lost, every
//! error with its place, line ends of every kind, claim mode streaming to
//! its game.

use crate::common;
use common::{games_scanned, run, run_with_stdin, temp_file};

/// The games a scan of `bytes` counted, from its summary line.
fn scanned_games(bytes: &[u8]) -> (usize, String) {
    let r = run_with_stdin(&["scan", "-", "--format", "jsonl"], Some(bytes));
    (games_scanned(&r.stderr), r.stdout)
}

const MATE: &str = "1. f3 e5 2. g4 Qh4#";

#[test]
fn no_termination_marker_and_a_blank_line_then_tags() {
    let text = format!("[Event \"a\"]\n\n{MATE}\n\n[Event \"b\"]\n\n{MATE} 0-1\n");
    let (n, out) = scanned_games(text.as_bytes());
    assert_eq!(n, 2, "{out}");
    assert_eq!(out.matches("\"checkmate\"").count(), 2, "{out}");
    // Claim mode: game 1 is read, and the missing marker is noted with its place.
    let path = temp_file("no-result.pgn", text.as_bytes());
    let r = run(&[&path, "--game", "1"]);
    assert_eq!(r.status, 1, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("no termination marker (1-0, 0-1, 1/2-1/2 or *) at 3:20"),
        "{}",
        r.stdout
    );
}

#[test]
fn an_unclosed_variation_keeps_the_next_game() {
    let text = b"[Event \"a\"]\n\n1. e4 ( 1. d4 *\n\n[Event \"b\"]\n[White \"S\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    let (n, out) = scanned_games(text);
    assert_eq!(n, 2, "{out}");
    assert!(out.contains("unterminated variation"), "{out}");
    assert!(out.contains("\"checkmate\""), "{out}");
    let path = temp_file("variation.pgn", text);
    let r = run(&[&path, "--game", "1"]);
    assert!(
        r.stderr.contains(":3:7: error: unterminated variation"),
        "{}",
        r.stderr
    );
    let r = run(&[&path, "--game", "2"]);
    assert_eq!(r.status, 1, "{}", r.stderr);
    assert!(r.stdout.contains("S – ?"), "{}", r.stdout);
}

#[test]
fn lone_cr_line_ends() {
    let text = b"[Event \"a\"]\r[Site \"x\"];c\r\r1. f3 e5 2. g4 Qh4# 0-1\r";
    let (n, out) = scanned_games(text);
    assert_eq!(n, 1);
    assert!(out.contains("\"checkmate\""), "{out}");
    for eol in ["\r", "\r\n", "\n"] {
        let text = [
            "[Event \"a\"]",
            "",
            "1. e4 }",
            "",
            "[Event \"b\"]",
            "; a comment",
            "",
            "[Event \"c\"]",
            "",
            "",
            "[Event \"d\"]",
            "",
            "1. e4 e5 2. Nf3 Nf9 *",
            "",
        ]
        .join(eol);
        let (n, out) = scanned_games(text.as_bytes());
        assert_eq!(n, 4, "{eol:?}: {out}");
        let path = temp_file("cr.pgn", text.as_bytes());
        let r = run(&[&path, "--game", "1"]);
        assert!(
            r.stderr.contains(":3:7: error: '}'"),
            "{eol:?}: {}",
            r.stderr
        );
        let r = run(&[&path, "--game", "4"]);
        assert!(
            r.stderr.contains(":13:17: error: 'Nf9'"),
            "{eol:?}: {}",
            r.stderr
        );
        // An unclosed comment stops at the next game's tags, whatever ends
        // the lines between them.
        let text = [
            "[A \"1\"]",
            "",
            "1. e4 {oops",
            "",
            "[A \"2\"]",
            "",
            "1. d4 {c} *",
            "",
        ]
        .join(eol);
        let (n, out) = scanned_games(text.as_bytes());
        assert_eq!(n, 2, "{eol:?}: {out}");
        assert!(out.contains("unterminated comment"), "{eol:?}: {out}");
    }
}

#[test]
fn inputs_without_a_game_have_a_place() {
    for (name, bytes, want) in [
        ("e.pgn", &b""[..], ":1:1: error: empty input: no game in it"),
        (
            "bom.pgn",
            b"\xEF\xBB\xBF",
            ":1:1: error: empty input: no game in it",
        ),
        (
            "ws.pgn",
            b"\n \r\n",
            ":1:1: error: empty input: no game in it",
        ),
        (
            "c.pgn",
            b"\n; only this\n",
            ":2:1: error: no game in the input",
        ),
        (
            "b.pgn",
            // The comment, where an editor shows it: the mark is no column.
            b"\xEF\xBB\xBF{a comment}\n",
            ":1:1: error: no game in the input",
        ),
    ] {
        let path = temp_file(name, bytes);
        let r = run(&[&path]);
        assert_eq!(r.status, 2);
        assert!(
            r.stderr.starts_with(&format!("{path}{want}")),
            "{}",
            r.stderr
        );
    }
}

#[test]
fn claim_mode_reads_a_stream_to_its_game() {
    let mut text = String::new();
    for i in 1..=3000 {
        text.push_str(&format!(
            "[Event \"e\"]\n[White \"W{i}\"]\n[Black \"B\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n\n"
        ));
    }
    text.push_str("[Event \"e\"]\n[White \"last\"]\n\n1. e4 e5 2. Kf9 *\n");
    let path = temp_file("many.pgn", text.as_bytes());
    let r = run(&[&path, "--game", "2999"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Game 2999 of"), "{}", r.stdout);
    assert!(r.stdout.contains("W2999 – B"), "{}", r.stdout);
    // Places count from the start of the whole input.
    let r = run(&[&path, "--game", "3001"]);
    assert!(
        r.stderr.contains(&format!("{path}:18004:13: error: 'Kf9'")),
        "{}",
        r.stderr
    );
    let r = run(&[&path, "--game", "3002"]);
    assert!(
        r.stderr.contains("--game 3002: the file has 3001 games"),
        "{}",
        r.stderr
    );
    let r = run(&[&path]);
    assert!(
        r.stderr.contains("the file has 3001 games; choose one"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("… and 2901 more"), "{}", r.stderr);
    // Standard input too.
    let r = run_with_stdin(&["-", "--game", "2"], Some(text.as_bytes()));
    assert!(r.stdout.contains("W2 – B"), "{}", r.stderr);
}
