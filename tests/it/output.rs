//! What the tool writes, as a terminal, a spreadsheet, a CI log and a
//! packager meet it: control characters shown escaped, CSV cells that are
//! never formulas, a closed output said, `--jobs` bounded, a short usage,
//! GitHub annotations that keep to the few a step shows, `perft --divide`,
//! a man page per subcommand, and no game dropped in silence from
//! `--format pgn`.

use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_verify-claim");
/// The window title, a cleared screen and red text, from a tag value.
const HOSTILE: &str = "A\x1b]0;OWNED\x07\x1b[2J\x1b[31mRED";
const SHOWN: &str = "A\\x1b]0;OWNED\\x07\\x1b[2J\\x1b[31mRED";

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn run_in(dir: &Path, args: &[&str]) -> Run {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run verify-claim");
    Run {
        status: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn run(args: &[&str]) -> Run {
    run_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// A scratch directory for one test, removed when the guard is dropped
/// (test runs leave nothing in the temporary directory).
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("verify-claim-output-{name}-"))
        .tempdir()
        .expect("temp dir")
}

/// A folder holding `=1+1.pgn`: a hostile White, a formula as Result
/// (removed when the guard is dropped).
fn hostile(name: &str, result: &str) -> tempfile::TempDir {
    let dir = temp_dir(name);
    let d = dir.path();
    let game = format!(
        "[Event \"x\"]\n[White \"{HOSTILE}\"]\n[Black \"B\x07\"]\n[Result \"{result}\"]\n\n\
         1. f3 e5 2. g4 Qh4# 0-1\n"
    );
    std::fs::write(d.join("=1+1.pgn"), game).expect("write");
    dir
}

fn assert_no_control(what: &str, text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect();
    assert!(
        bad.is_empty(),
        "{what}: control characters {bad:?} in {text:?}"
    );
}

#[test]
fn a_tag_value_cannot_drive_the_terminal() {
    let dir = hostile("escape", "0-1");
    let d = dir.path();
    for format in ["text", "csv", "github"] {
        let r = run_in(
            d,
            &[
                "scan",
                "=1+1.pgn",
                "--format",
                format,
                "--min-severity",
                "info",
            ],
        );
        assert_no_control(format, &r.stdout);
        assert_no_control(format, &r.stderr);
    }
    let r = run_in(d, &["scan", "=1+1.pgn", "--no-progress"]);
    assert!(r.stdout.contains(SHOWN), "{}", r.stdout);
    assert!(r.stdout.contains("B\\x07"), "{}", r.stdout);
    let r = run_in(d, &["=1+1.pgn", "--move", "Nf3\x1b[2J"]);
    assert_no_control("claim text", &r.stdout);
    assert!(
        r.stdout.contains(SHOWN) && r.stdout.contains("Nf3\\x1b[2J"),
        "{}",
        r.stdout
    );
    // JSON keeps its own escaping.
    let r = run_in(d, &["scan", "=1+1.pgn", "--format", "jsonl"]);
    assert!(r.stdout.contains("A\\u001b]0;OWNED\\u0007"), "{}", r.stdout);
}

#[test]
fn stderr_shows_the_control_characters_of_what_it_quotes() {
    let dir = temp_dir("stderr");
    let d = dir.path();
    std::fs::write(d.join("a\x1b[2J.pgn"), "[Event \"x\"]\n\n1. e4 Qx9 *\n").expect("write");
    for args in [
        &["a\x1b[2J.pgn"][..],
        &["scan", "a\x1b[2J.pgn"],
        &["nothing\x1b]0;T\x07.pgn"],
        &["scan", "nothing\x1b]0;T\x07.pgn"],
        &["perft", "--fen", "8/8/8/8/8/8/8/8\x1b[31m w - - 0 1", "1"],
    ] {
        let r = run_in(d, args);
        assert_ne!(r.stderr, "", "{args:?}");
        assert_no_control(&format!("{args:?}"), &r.stderr);
        assert_no_control(&format!("{args:?}"), &r.stdout);
        let said = format!("{}{}", r.stdout, r.stderr);
        assert!(said.contains("\\x1b"), "{args:?}: {said}");
    }
}

#[test]
fn csv_cells_are_never_formulas_and_results_stay_readable() {
    for result in [
        "@SUM(1+1)",
        "=HYPERLINK(\\\"http://evil.example/\\\",\\\"click\\\")",
    ] {
        let dir = hostile("csv", result);
        let d = dir.path();
        let r = run_in(d, &["scan", "=1+1.pgn", "--format", "csv"]);
        let rows: Vec<&str> = r.stdout.lines().skip(1).collect();
        assert!(!rows.is_empty(), "{}", r.stderr);
        for row in &rows {
            assert!(row.starts_with("'=1+1.pgn,"), "{row}");
            assert!(
                !row.contains(",=") && !row.contains(",@") && !row.contains(",\"="),
                "{row}"
            );
        }
        assert!(r.stdout.contains(",0-1,"), "{}", r.stdout);
    }
    let r = run(&["scan", "fixtures/scan/kinds.pgn", "--format", "csv"]);
    assert!(r.stdout.contains(",1-0,0-1,"), "{}", r.stdout);
}

/// Runs with standard output closed (`>&-`) by a shell.
fn closed_stdout(args: &[&str]) -> Run {
    let o = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run sh");
    Run {
        status: o.status.code().unwrap_or(-1),
        stdout: String::new(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

#[test]
fn a_closed_stdout_is_an_error_as_a_full_disk_is() {
    for args in [
        &[
            "scan",
            "fixtures/chess/fools-mate.pgn",
            "--fail-on",
            "never",
        ][..],
        &["fixtures/chess/threefold-written.pgn", "--move", "Ng8"],
        &["fixtures/chess/fools-mate.pgn"],
        &["perft", "1"],
    ] {
        let r = closed_stdout(args);
        assert_eq!(r.status, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("cannot write the output"),
            "{args:?}: {}",
            r.stderr
        );
    }
    // A stdout sent to /dev/null on purpose is not closed: write-only as a
    // shell's `>/dev/null`, and read-write as Python's `subprocess.DEVNULL`,
    // daemon(3) and systemd's `StandardOutput=null` open it.
    let read_write = || {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .expect("open /dev/null")
    };
    for (args, status) in [
        (&["perft", "1"][..], 0),
        (
            &[
                "scan",
                "fixtures/chess/fools-mate.pgn",
                "--fail-on",
                "never",
            ],
            0,
        ),
        (
            &["fixtures/chess/threefold-written.pgn", "--move", "Ng8"],
            0,
        ),
    ] {
        for out in [Stdio::null(), Stdio::from(read_write())] {
            let o = Command::new(BIN)
                .args(args)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .stdout(out)
                .output()
                .expect("run");
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(status), "{args:?}: {err}");
        }
    }
}

#[test]
fn a_closed_pipe_ends_the_run_quietly_with_status_0() {
    let dir = temp_dir("pipe");
    let d = dir.path();
    let sample = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/chess/lichess-sample.pgn"),
    )
    .expect("read");
    let big = d.join("big.pgn");
    std::fs::write(&big, sample.repeat(150)).expect("write");
    let script = format!(
        "set -o pipefail; {BIN} scan {} --format jsonl | head -1 >/dev/null; s=$?; \
         {BIN} scan - --format csv < {} | head -1 >/dev/null && exit $s",
        big.display(),
        big.display()
    );
    let o = Command::new("bash")
        .args(["-c", &script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run bash");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn jobs_are_bounded_with_a_clear_error() {
    let r = run(&["scan", "fixtures/chess/fools-mate.pgn", "--jobs", "100000"]);
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--jobs") && r.stderr.contains("0..=256"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    let r = run(&["scan", "fixtures/chess/fools-mate.pgn", "--jobs", "256"]);
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn a_bare_call_gives_a_short_usage() {
    let r = run(&[]);
    assert_eq!(r.status, 2);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr.starts_with("verify-claim: error: "),
        "{}",
        r.stderr
    );
    for sub in [
        "claim",
        "scan",
        "watch",
        "desk",
        "check-position",
        "perft",
        "completions",
        "man",
    ] {
        assert!(
            r.stderr.contains(&format!("\n  {sub} ")),
            "{sub}: {}",
            r.stderr
        );
    }
    assert!(
        !r.stderr.contains("Options:"),
        "the whole help: {}",
        r.stderr
    );
    assert!(r.stderr.lines().count() < 20, "{}", r.stderr);
}

#[test]
fn github_shows_warnings_and_errors_and_says_what_it_left_out() {
    let r = run(&["scan", "fixtures/scan/kinds.pgn", "--format", "github"]);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let notices = lines.iter().filter(|l| l.starts_with("::notice")).count();
    assert_eq!(notices, 1, "{}", r.stdout);
    let last = lines.last().copied().unwrap_or("");
    assert!(
        last.starts_with("::notice title=verify-claim summary::shown: "),
        "{last}"
    );
    assert!(
        last.contains("left out: ") && last.contains(" notices"),
        "{last}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("::error")),
        "{}",
        r.stdout
    );
    let all = run(&[
        "scan",
        "fixtures/scan/kinds.pgn",
        "--format",
        "github",
        "--min-severity",
        "info",
    ]);
    let notices = all
        .stdout
        .lines()
        .filter(|l| l.starts_with("::notice"))
        .count();
    assert!(notices > 2, "{}", all.stdout);
    assert!(
        all.stdout
            .lines()
            .last()
            .unwrap_or("")
            .ends_with("nothing left out"),
        "{}",
        all.stdout
    );
}

#[test]
fn github_annotations_of_a_compressed_file_name_their_game() {
    let zst = "../shared/corpus/tcec/TCEC_Cup_4_Quarterfinal.pgn.zst";
    if !Path::new(env!("CARGO_MANIFEST_DIR")).join(zst).exists() {
        // The shared corpus sits beside the worktree; compress a fixture instead.
        let dir = temp_dir("zst");
        let d = dir.path();
        let bytes =
            std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/scan/kinds.pgn"))
                .expect("read");
        let Ok(mut child) = Command::new("zstd")
            .args(["-q", "-o"])
            .arg(d.join("k.pgn.zst"))
            .arg("-")
            .stdin(Stdio::piped())
            .spawn()
        else {
            panic!("neither the shared corpus nor zstd is here");
        };
        use std::io::Write;
        child.stdin.take().map(|mut s| s.write_all(&bytes));
        assert!(child.wait().is_ok_and(|s| s.success()));
        return check_compressed(&run_in(
            d,
            &[
                "scan",
                "k.pgn.zst",
                "--format",
                "github",
                "--min-severity",
                "info",
            ],
        ));
    }
    check_compressed(&run(&[
        "scan",
        zst,
        "--format",
        "github",
        "--min-severity",
        "info",
    ]));
}

fn check_compressed(r: &Run) {
    let annotations: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| !l.contains("summary::"))
        .collect();
    assert!(!annotations.is_empty(), "{}", r.stderr);
    for a in annotations {
        assert!(
            !a.contains(",line="),
            "a line of the decompressed text: {a}"
        );
        assert!(
            a.contains(" in game ") && a.contains("of the decompressed text"),
            "{a}"
        );
    }
}

fn divide(args: &[&str]) -> (Vec<(String, u64)>, u64) {
    let r = run(args);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let (lines, total) = r
        .stdout
        .trim_end()
        .rsplit_once("\n\n")
        .expect("blank line before the total");
    let lines = lines
        .lines()
        .map(|l| {
            let (m, n) = l.split_once(": ").expect("move: count");
            (m.to_owned(), n.parse().expect("a count"))
        })
        .collect();
    (lines, total.parse().expect("the total"))
}

#[test]
fn perft_divide_gives_the_known_counts_per_first_move() {
    let (lines, total) = divide(&["perft", "3", "--divide"]);
    assert_eq!(total, 8902);
    assert_eq!(lines.len(), 20);
    for (m, n) in [
        ("a2a3", 380),
        ("b1c3", 440),
        ("d2d4", 560),
        ("e2e4", 600),
        ("g1h3", 400),
        ("b2b4", 421),
    ] {
        assert!(lines.contains(&(m.to_owned(), n)), "{m}: {lines:?}");
    }
    // Kiwipete, the usual test of castling, en passant and promotions.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (lines, total) = divide(&["perft", "2", "--divide", "--fen", kiwipete]);
    assert_eq!((lines.len(), total), (48, 2039));
    assert!(lines.contains(&("e1g1".to_owned(), 43)), "{lines:?}");
    let (lines, total) = divide(&["perft", "5", "--divide", "--game-type", "column-draughts"]);
    assert_eq!(total, 7482);
    assert_eq!(lines.len(), 7);
    assert_eq!(lines.iter().map(|l| l.1).sum::<u64>(), 7482);
    let (lines, total) = divide(&["perft", "2", "--divide", "--game-type", "column-draughts"]);
    assert_eq!(total, 49);
    assert!(lines.iter().all(|(_, n)| *n == 7), "{lines:?}");
    assert!(lines.contains(&("c3-d4".to_owned(), 7)), "{lines:?}");
}

#[test]
fn man_writes_a_page_per_subcommand_with_examples_and_exit_status() {
    let dir = temp_dir("man");
    let d = dir.path();
    let r = run(&["man", "--dir", d.to_str().expect("utf-8 temp dir")]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let mut pages = vec!["verify-claim.1".to_owned()];
    for sub in [
        "claim",
        "reconstruct",
        "scan",
        "watch",
        "desk",
        "check-position",
        "perft",
        "completions",
        "man",
    ] {
        pages.push(format!("verify-claim-{sub}.1"));
    }
    assert_eq!(r.stdout.lines().count(), pages.len(), "{}", r.stdout);
    let has_man = Command::new("man").arg("--version").output().is_ok();
    for page in &pages {
        let path = d.join(page);
        let roff = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(
            roff.contains(".SH EXAMPLES") && roff.contains(".SH \"EXIT STATUS\""),
            "{page}"
        );
        if !has_man {
            continue;
        }
        let out = Command::new("man")
            .arg("-l")
            .arg(&path)
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "100")
            .output()
            .expect("run man");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{page}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for section in ["SYNOPSIS", "EXAMPLES", "EXIT STATUS"] {
            assert!(
                text.contains(section),
                "{page}: {section} missing from {text}"
            );
        }
    }
    let top = std::fs::read_to_string(d.join("verify-claim.1")).expect("top page");
    assert!(
        top.contains("verify\\-claim\\-scan(1)") || top.contains("verify-claim-scan(1)"),
        "{top}"
    );
    let one = run(&["man", "scan"]);
    assert_eq!(
        one.stdout,
        std::fs::read_to_string(d.join("verify-claim-scan.1")).expect("scan page")
    );
}

#[test]
fn a_game_too_large_to_hold_is_said_not_written_by_format_pgn() {
    let dir = temp_dir("pgn");
    let d = dir.path();
    let mate = "[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4#\n\n";
    let mut bytes = mate.as_bytes().to_vec();
    bytes.extend_from_slice(b"[Event \"huge\"]\n\n1. e4 {");
    let line = [b'x'; 1023];
    for _ in 0..(65 << 10) {
        bytes.extend_from_slice(&line);
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(b"} *\n\n");
    bytes.extend_from_slice(mate.as_bytes());
    std::fs::write(d.join("huge.pgn"), &bytes).expect("write");
    let r = run_in(d, &["scan", "huge.pgn", "--format", "pgn", "--no-progress"]);
    assert_eq!(r.stdout.matches("[Event \"x\"]").count(), 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("huge.pgn:5:1: warning: game 2 is not written to the output"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("not written to the output: huge.pgn game 2"),
        "{}",
        r.stderr
    );
}
