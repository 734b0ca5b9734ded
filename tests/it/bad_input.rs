//! Bad input: every problem is one error with file, line and column, and
//! exit status 2; never a panic, never a verdict.

use crate::common;
use common::{run, temp_file};

/// Runs on a record given as text; returns stderr, asserting status 2 and
/// one line beginning with `file:line:col: error:`.
fn error_of(name: &str, bytes: &[u8], extra: &[&str]) -> String {
    let path = temp_file(name, bytes);
    let mut args = vec![path.as_str()];
    args.extend(extra);
    let r = run(&args);
    assert_eq!(r.status, 2, "stdout: {}\nstderr: {}", r.stdout, r.stderr);
    assert!(r.stdout.is_empty(), "a verdict was printed: {}", r.stdout);
    assert!(r.stderr.starts_with(&*path), "{}", r.stderr);
    r.stderr[path.len()..].to_owned()
}

const TAGS: &str = "[Event \"x\"]\n[White \"A\"]\n[Black \"B\"]\n\n";

#[test]
fn unknown_token_in_the_movetext() {
    let e = error_of(
        "unknown.pgn",
        format!("{TAGS}1. e4 e5 2. Nf9 Nc6 *\n").as_bytes(),
        &[],
    );
    assert_eq!(
        e.trim(),
        ":5:13: error: 'Nf9' is not a move (nor a move number, NAG, comment or result)"
    );
    let e = error_of(
        "word.pgn",
        format!("{TAGS}1. e4 e5 hello 2. Nf3 *\n").as_bytes(),
        &[],
    );
    assert!(e.starts_with(":5:10: error: 'hello'"), "{e}");
}

#[test]
fn illegal_move_in_the_record() {
    let e = error_of(
        "illegal.pgn",
        format!("{TAGS}1. e4 e5\n2. Ke3 Nc6 *\n").as_bytes(),
        &[],
    );
    assert!(e.starts_with(":6:4: error: illegal move 2.Ke3:"), "{e}");
    assert!(
        e.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        "{e}"
    );
}

#[test]
fn null_moves() {
    let e = error_of(
        "null.pgn",
        format!("{TAGS}1. e4 -- 2. d4 *\n").as_bytes(),
        &[],
    );
    assert!(e.starts_with(":5:7: error: '--' is a null move"), "{e}");
    let e = error_of(
        "z0.pgn",
        format!("{TAGS}1. e4 Z0 2. d4 *\n").as_bytes(),
        &[],
    );
    assert!(e.contains("null move"), "{e}");
}

#[test]
fn unterminated_comment_and_tag() {
    let e = error_of(
        "comment.pgn",
        format!("{TAGS}1. e4 {{ never closed\n e5 *\n").as_bytes(),
        &[],
    );
    assert!(e.starts_with(":5:7: error: unterminated comment"), "{e}");
    let e = error_of("tag.pgn", b"[Event \"x\"]\n[White \"A]\n\n1. e4 *\n", &[]);
    assert!(e.starts_with(":2:1: error: unterminated tag [White"), "{e}");
    let e = error_of(
        "variation.pgn",
        format!("{TAGS}1. e4 (1. d4 d5 e5 *\n").as_bytes(),
        &[],
    );
    assert!(e.starts_with(":5:7: error: unterminated variation"), "{e}");
}

#[test]
fn bad_fen() {
    let e = error_of(
        "fen.pgn",
        b"[SetUp \"1\"]\n[FEN \"8/8/8/9/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n",
        &[],
    );
    assert!(
        e.starts_with(":2:1: error: bad FEN \"8/8/8/9/8/8/8/8 w - - 0 1\""),
        "{e}"
    );
    let e = error_of(
        "fen2.pgn",
        b"[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n",
        &[],
    );
    assert!(e.contains("bad FEN"), "{e}");
}

#[test]
fn not_a_pgn_at_all() {
    let e = error_of("binary.pgn", &[0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3], &[]);
    assert!(e.contains("error:"), "{e}");
    let e = error_of("binary2.pgn", b"\x00\x01\x02garbage", &[]);
    assert!(e.starts_with(":1:1: error: binary data"), "{e}");
    let e = error_of("empty.pgn", b"", &[]);
    assert!(e.contains("empty input"), "{e}");
    let e = error_of("blank.pgn", b"\n\n  \n", &[]);
    assert!(e.contains("empty input"), "{e}");
}

#[test]
fn latin1_tag_values() {
    let bytes = b"[Event \"Schach\"]\n[White \"M\xfcller\"]\n[Black \"B\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";
    let e = error_of("latin1.pgn", bytes, &["--encoding", "utf8"]);
    assert!(
        e.starts_with(":2:10: error: tag White is not UTF-8 (byte 0xFC)"),
        "{e}"
    );
    assert!(e.contains("--encoding latin1"), "{e}");
    let path = temp_file("latin1-ok.pgn", bytes);
    for extra in [&[][..], &["--encoding", "latin1"], &["--encoding", "auto"]] {
        let mut args = vec![path.as_str()];
        args.extend(extra);
        let r = run(&args);
        assert_eq!(r.status, 0, "{}", r.stderr);
        assert!(r.stdout.contains("M\u{fc}ller"), "{}", r.stdout);
        assert!(r.stdout.contains("Latin-1"), "{}", r.stdout);
    }
    let r = run(&[&path, "--format", "json"]);
    assert!(r.stdout.contains("\"encoding\":\"latin1\""), "{}", r.stdout);
}

#[test]
fn variants_the_laws_do_not_cover() {
    let e = error_of("zh.pgn", b"[Variant \"Crazyhouse\"]\n\n1. e4 *\n", &[]);
    assert!(
        e.starts_with(":1:1: error: variant 'Crazyhouse' is not chess under the FIDE Laws"),
        "{e}"
    );
    let e = error_of("drop.pgn", format!("{TAGS}1. e4 N@f3 *\n").as_bytes(), &[]);
    assert!(e.contains("piece drop"), "{e}");
}

#[test]
fn stray_closing_brackets() {
    let e = error_of("paren.pgn", format!("{TAGS}1. e4 ) e5 *\n").as_bytes(), &[]);
    assert!(
        e.starts_with(":5:7: error: ')' with no variation open"),
        "{e}"
    );
    let e = error_of(
        "brace.pgn",
        format!("{TAGS}1. e4 }} e5 *\n").as_bytes(),
        &[],
    );
    assert!(
        e.starts_with(":5:7: error: '}' with no comment open"),
        "{e}"
    );
}

#[test]
fn unreadable_file_and_bad_options() {
    let r = run(&["/nonexistent/game.pgn"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr
            .starts_with("/nonexistent/game.pgn: error: cannot read"),
        "{}",
        r.stderr
    );
    let r = run(&["fixtures/chess/fools-mate.pgn", "--claim", "sometimes"]);
    assert_eq!(r.status, 2);
    let r = run(&[
        "fixtures/chess/fools-mate.pgn",
        "--ply",
        "2",
        "--after",
        "1.f3",
    ]);
    assert_eq!(r.status, 2);
}

#[test]
fn columns_count_characters_not_bytes() {
    let e = error_of(
        "utf8.pgn",
        "[Event \"Šach\"]\n\n1. e4 {Ходы} Nf9 *\n".as_bytes(),
        &[],
    );
    assert!(e.starts_with(":3:14: error: 'Nf9'"), "{e}");
}

/// Issue 40.8: claim mode on an input that gives no game start (binary
/// data, an endless device) stops after 64 MiB with a placed error, where
/// it read on for ever (7 GB in 15 s) to count the games.
#[cfg(unix)]
#[test]
fn an_input_with_no_game_start_ends_with_a_placed_error() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    // Waits for the child; a child still running at the deadline (a hang,
    // not slowness: the bound is reached in about 1 s) is killed.
    fn finish(mut child: std::process::Child) -> (Option<i32>, String) {
        let deadline = Instant::now() + Duration::from_secs(300);
        while child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let out = child.wait_with_output().expect("the child's output");
        let code = out.status.code();
        (code, String::from_utf8_lossy(&out.stderr).into_owned())
    }
    let bin = env!("CARGO_BIN_EXE_verify-claim");
    let child = Command::new(bin)
        .arg("/dev/urandom")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn verify-claim");
    let (code, err) = finish(child);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("/dev/urandom:1:1: error: no game starts in 64 MiB from here"),
        "{err}"
    );
    // After a game, the error is placed where the stretch begins: at the
    // start of the game the zeros run on from.
    let mut child = Command::new(bin)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn verify-claim");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let zeros = vec![0u8; 1 << 20];
        let games = format!("{TAGS}1. e4 e5 *\n\n[Event \"y\"]\n");
        let mut ok = stdin.write_all(games.as_bytes());
        // The reader stops early: a broken pipe ends the writing.
        for _ in 0..80 {
            ok = ok.and_then(|()| stdin.write_all(&zeros));
        }
        ok.is_err()
    });
    let (code, err) = finish(child);
    assert!(writer.join().expect("the writer"), "all 80 MiB were read");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with("<stdin>:7:1: error: no game starts in 64 MiB"),
        "{err}"
    );
}
