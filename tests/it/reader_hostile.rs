//! Issue 20's and 21's reader items through the binary: a `[` in the
//! movetext, damaged tag lines, bounded claim mode, FEN move numbers.

use crate::common;
use common::{games_scanned, run, run_with_stdin, temp_file};

const CLK: &[u8] = b"[Event \"a\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 [%clk 0:01:00] 4. Ng1 Ng8 *\n\n[Event \"b\"]\n\n1. e4 *\n";

#[test]
fn a_bracket_in_the_movetext_is_an_error_of_its_game_and_no_verdict() {
    let path = temp_file("clk.pgn", CLK);
    let r = run(&[&path, "--game", "1"]);
    assert_eq!(r.status, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert!(
        r.stderr.contains(":3:34: error: '[' in the movetext"),
        "{}",
        r.stderr
    );
    // The game after it keeps its number.
    let r = run(&[&path, "--game", "2"]);
    assert!(r.stdout.contains("Game 2 of"), "{}", r.stdout);
    assert!(r.stdout.contains(", b"), "{}", r.stdout);
    // The scan, whole and through the chunker (standard input), agrees.
    for (args, stdin) in [
        (&["scan", &path][..], None),
        (&["scan", "-", "--jobs", "3"], Some(CLK)),
    ] {
        let r = run_with_stdin(args, stdin);
        assert_eq!(games_scanned(&r.stderr), 2, "{}", r.stderr);
        assert_eq!(r.stdout.matches("parse-error").count(), 1, "{}", r.stdout);
    }
}

#[test]
fn a_damaged_tag_line_does_not_split_a_game() {
    // chess.js's tests-pgn-0.pgn: one game, `<br />` between its tags.
    let mut text = b"[Event \"?\"]<br />[Site \"?\"]<br />[White \"J\"]<br />[X? \"True\"]<br /><br />1. d4 d5 1-0 \n\n".to_vec();
    text.extend_from_slice(b"[Event \"b\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    let path = temp_file("br.pgn", &text);
    let r = run(&["scan", &path]);
    assert_eq!(games_scanned(&r.stderr), 2, "{}", r.stderr);
    assert!(r.stdout.contains("game 2 (? – ?)"), "{}", r.stdout);
    assert!(r.stdout.contains("checkmate"), "{}", r.stdout);
}

#[test]
fn uci_moves_spaced_dots_and_unescaped_quotes() {
    // python-chess's uci-moves.pgn: a UCI move is named as such.
    let path = temp_file("uci.pgn", b"[Event \"e\"]\n\ng1f3 c7c5 1/2-1/2\n");
    let r = run(&["scan", &path]);
    assert!(r.stdout.contains("'g1f3' is a UCI move"), "{}", r.stdout);
    assert!(r.stdout.contains("here it is Nf3"), "{}", r.stdout);
    // chess.js: `1. ... Ba5`.
    let text = b"[FEN \"rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\"]\n\n1. ... Bb4+ 2. c3 *\n";
    let path = temp_file("dots.pgn", text);
    let r = run(&["scan", &path]);
    assert!(!r.stdout.contains("error"), "{}", r.stdout);
    // pychess's `[White ""Socrates Expert""]`: read, with a note.
    let text = b"[Event \"e\"]\n[White \"\"Socrates Expert\"\"]\n\n1. e4 *\n";
    let path = temp_file("quotes.pgn", text);
    let r = run(&[&path]);
    assert!(
        r.stdout.contains("\"Socrates Expert\" – ?"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    assert!(
        r.stdout
            .contains("the tag at 2:1 holds '\"' that are not escaped"),
        "{}",
        r.stdout
    );
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

#[test]
fn a_truncated_gz_decides_the_games_read_whole() {
    let mut text = String::new();
    for i in 0..200 {
        text.push_str(&format!(
            "[Event \"e{i}\"]\n[White \"W{i}\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n\n"
        ));
    }
    let z = gzip(text.as_bytes());
    let path = temp_file("cut.pgn.gz", &z[..z.len() * 2 / 3]);
    let r = run(&[&path, "--game", "1"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Claim VALID"), "{}", r.stdout);
    // The game cut short is an error at the place where reading stopped.
    let r = run(&[&path, "--game", "200"]);
    assert_eq!(r.status, 2, "{}", r.stdout);
    assert!(r.stderr.contains("error: cannot read: "), "{}", r.stderr);
    assert!(r.stderr.contains("is cut short there"), "{}", r.stderr);
}

#[test]
fn claim_mode_does_not_hold_a_game_over_the_limit() {
    // A comment of 17 MiB: game 1 is too large, game 2 is read.
    let mut text = b"[Event \"big\"]\n\n1. e4 {".to_vec();
    text.resize(text.len() + (17 << 20), b'x');
    text.extend_from_slice(
        b"} e5 *\n\n[Event \"small\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n",
    );
    let z = gzip(&text);
    drop(text);
    let path = temp_file("big.pgn.gz", &z);
    let r = run(&[&path, "--game", "1"]);
    assert_eq!(r.status, 2, "{}", r.stdout);
    assert!(
        r.stderr.contains(":1:1: error: game 1: the game is"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("over the 16 MiB a game may hold"),
        "{}",
        r.stderr
    );
    let r = run(&[&path, "--game", "2"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(r.stdout.contains(", small"), "{}", r.stdout);
}

#[test]
fn claim_mode_refuses_a_game_of_more_than_a_million_plies() {
    let mut text = b"[Event \"long\"]\n\n".to_vec();
    for i in 0..250_001 {
        text.extend_from_slice(
            format!("{}. Nf3 Nf6 {}. Ng1 Ng8\n", 2 * i + 1, 2 * i + 2).as_bytes(),
        );
    }
    text.extend_from_slice(b"*\n");
    let path = temp_file("long.pgn", &text);
    let r = run(&[&path]);
    assert_eq!(r.status, 2, "{}", r.stdout);
    assert!(
        r.stderr
            .contains(":250003:9: error: the game has 1000004 plies, over the 1000000"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_claim_page_draws_a_position_once_however_often_it_stood() {
    let mut text = b"[Event \"long\"]\n\n".to_vec();
    for i in 0..100 {
        text.extend_from_slice(
            format!("{}. Nf3 Nf6 {}. Ng1 Ng8\n", 2 * i + 1, 2 * i + 2).as_bytes(),
        );
    }
    text.extend_from_slice(b"*\n");
    let path = temp_file("often.pgn", &text);
    let r = run(&[&path, "--format", "html"]);
    assert_eq!(r.status, 1, "{}", r.stderr);
    let boards = r.stdout.matches("<svg class=\"board").count();
    assert!(boards <= 3, "{boards} boards");
    assert!(
        r.stdout
            .contains("… and 61 more occurrences of this position"),
        "{}",
        r.stdout.len()
    );
    assert!(r.stdout.len() < 200_000, "{}", r.stdout.len());
}

/// Files that begin with a byte order mark, joined (`cat`): the mark before
/// each game's tags starts a game as a line start does, with or without a
/// termination marker before it, in the reader and in the chunkers (plain
/// file, segments of several MiB, standard input; any --jobs). The findings
/// are those of the same games without the marks.
#[test]
fn byte_order_marks_where_files_were_joined_start_games() {
    let sample = std::fs::read_to_string("fixtures/chess/lichess-sample.pgn").unwrap();
    let games: Vec<&str> = sample
        .split("\n\n[Event ")
        .filter(|g| !g.trim().is_empty())
        .collect();
    assert!(games.len() > 50, "{}", games.len());
    let (mut plain, mut marked) = (String::new(), String::new());
    for copy in 0..40 {
        for (i, g) in games.iter().enumerate() {
            let g = g.strip_prefix("[Event ").unwrap_or(g);
            let game = format!("[Event {}\n\n", g.trim_end());
            // Every fifth game loses its termination marker.
            let game = if (i + copy) % 5 == 0 {
                game.replace(" 1-0\n", "\n")
                    .replace(" 0-1\n", "\n")
                    .replace(" 1/2-1/2\n", "\n")
            } else {
                game
            };
            plain.push_str(&game);
            marked.push('\u{feff}');
            marked.push_str(&game);
        }
    }
    let plain_path = temp_file("joined-plain.pgn", plain.as_bytes());
    let marked_path = temp_file("joined-bom.pgn", marked.as_bytes());
    let findings = |out: &str| -> Vec<(u64, u64, String)> {
        out.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let kind = v["kind"].as_str().unwrap().to_owned();
                (
                    v["game"].as_u64().unwrap(),
                    v["line"].as_u64().unwrap(),
                    kind,
                )
            })
            .collect()
    };
    let want = run(&["scan", &plain_path, "--format", "jsonl"]);
    let n = games_scanned(&want.stderr);
    assert_eq!(n, 40 * games.len(), "{}", want.stderr);
    assert!(!want.stdout.contains("parse-error"), "{}", want.stdout);
    for jobs in ["1", "3"] {
        let got = run(&["scan", &marked_path, "--format", "jsonl", "--jobs", jobs]);
        assert_eq!(games_scanned(&got.stderr), n, "{}", got.stderr);
        assert_eq!(
            findings(&got.stdout),
            findings(&want.stdout),
            "--jobs {jobs}"
        );
        let got = run_with_stdin(
            &["scan", "-", "--format", "jsonl", "--jobs", jobs],
            Some(marked.as_bytes()),
        );
        assert_eq!(
            findings(&got.stdout),
            findings(&want.stdout),
            "stdin, --jobs {jobs}"
        );
    }
}

/// A byte order mark is no column: an error on the first line of a file
/// that begins with one is placed where an editor shows it, in the scan's
/// JSON and in claim mode's `file:line:col`.
#[test]
fn a_byte_order_mark_is_not_counted_as_a_column() {
    let path = temp_file("bom-column.pgn", b"\xEF\xBB\xBF1. e4 e5 2. Kxe8 *\n");
    let r = run(&["scan", &path, "--format", "jsonl"]);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(
        (&v["kind"], &v["line"], &v["column"]),
        (&"illegal-move".into(), &1.into(), &13.into())
    );
    let r = run(&["claim", &path]);
    assert!(
        r.stderr
            .contains("bom-column.pgn:1:13: error: illegal move 2.Kxe8"),
        "{}",
        r.stderr
    );
}
