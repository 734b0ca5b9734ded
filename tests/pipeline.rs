//! The scan pipeline under faults, with the real binary and real pipes,
//! FIFOs and symbolic links: a reader that stops early, outputs that cannot
//! be written, walks through FIFOs and link loops, games too large to hold,
//! archives without termination markers, truncated compressed files, and
//! scans that find nothing.

use crate::common;

use common::games_scanned;

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::harness::Need;
use common::{Scratch, run, run_with_stdin};

const KINDS: &str = "fixtures/scan/kinds.pgn";
const MATE: &[u8] = b"[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4#\n\n";

/// A scratch directory for one test, removed when the guard is dropped
/// (test runs leave nothing in the temporary directory: the too-large case
/// alone writes 66 MB).
fn temp_dir(name: &str) -> Scratch {
    Scratch::new(&format!("pipeline-{name}"))
}

fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_verify-claim"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// Waits for the child at most `secs`; kills it and fails the test if it
/// is still running then (a hang).
fn wait(child: &mut Child, secs: u64, what: &str) -> ExitStatus {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Many games with findings: the lichess sample 60 times (several MiB,
/// several segments).
fn big_input(d: &Path) -> PathBuf {
    let sample = std::fs::read("fixtures/chess/lichess-sample.pgn").unwrap();
    let path = d.join("big.pgn");
    let mut f = File::create(&path).unwrap();
    for _ in 0..60 {
        f.write_all(&sample).unwrap();
        f.write_all(b"\n").unwrap();
    }
    path
}

/// Reads one line of the scan's output, closes the pipe, and checks that
/// the scan then ends promptly, quietly and with status 0 (as ripgrep: a
/// reader that stopped is no failure, and `pipefail` steps pass).
fn read_one_line_then_close(mut child: Child, what: &str) {
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    assert!(!line.is_empty(), "{what}: no output");
    // The reader is gone: the scan must notice at its next write.
    let closed = Instant::now();
    let status = wait(&mut child, 120, what);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{what}: {status:?} {stderr}");
    assert!(stderr.is_empty(), "{what}: not quiet: {stderr}");
    assert!(
        closed.elapsed() < Duration::from_secs(60),
        "{what}: {:?}",
        closed.elapsed()
    );
}

fn a_closed_pipe_stops_the_scan_quietly_with_status_0() {
    let d = temp_dir("pipe");
    let big = big_input(&d);
    let big = big.to_str().unwrap();
    for (format, jobs) in [("jsonl", "2"), ("csv", "1"), ("text", "3")] {
        let child = command(&["scan", big, "--format", format, "--jobs", jobs])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        read_one_line_then_close(child, &format!("file, {format}, --jobs {jobs}"));
    }
    // Standard input, fed by a writer that does not stop.
    let mut child = command(&["scan", "-", "--format", "csv"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let bytes = std::fs::read(big).unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..10 {
            if stdin.write_all(&bytes).is_err() {
                return;
            }
        }
    });
    read_one_line_then_close(child, "standard input, csv");
    writer.join().unwrap();
}

/// Runs with stdout or stderr going to /dev/full.
fn to_full(args: &[&str], stdout_full: bool) -> Option<(i32, String)> {
    let full = File::options().write(true).open("/dev/full").ok()?;
    let mut cmd = command(args);
    cmd.stdin(Stdio::null());
    let out = if stdout_full {
        cmd.stdout(full).stderr(Stdio::piped()).output().unwrap()
    } else {
        cmd.stdout(Stdio::piped()).stderr(full).output().unwrap()
    };
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

fn an_output_that_cannot_be_written_is_an_error() {
    let claim = ["fixtures/chess/threefold-written.pgn", "--move", "Ng8"];
    for args in [
        &["scan", KINDS, "--format", "jsonl"][..],
        &["scan", KINDS][..],
        &claim[..],
        &["fixtures/chess/threefold-written.pgn", "--format", "json"][..],
    ] {
        let Some((status, stderr)) = to_full(args, true) else {
            panic!("no /dev/full, though DEV_FULL found it");
        };
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write the output"),
            "{args:?}: {stderr}"
        );
    }
}

fn an_unwritable_stderr_is_no_panic() {
    for (args, want) in [
        (&["scan", "fixtures/chess/fools-mate.pgn"][..], 0),
        (&["scan", "no-such-file.pgn"][..], 2),
        (&["no-such-file.pgn"][..], 2),
        (&["fixtures/chess/fools-mate.pgn", "--bogus"][..], 2),
    ] {
        let Some((status, _)) = to_full(args, false) else {
            panic!("no /dev/full, though DEV_FULL found it");
        };
        assert_eq!(status, want, "{args:?}");
    }
}

fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

fn walks_skip_fifos_and_links_and_scan_each_file_once() {
    let d = temp_dir("walk");
    std::fs::copy(KINDS, d.join("good.pgn")).unwrap();
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::copy(KINDS, d.join("sub/x.pgn")).unwrap();
    symlink(".", &d.join("l1"));
    symlink(".", &d.join("sub/l2"));
    symlink("good.pgn", &d.join("link.pgn"));
    symlink("missing.pgn", &d.join("dangling.pgn"));
    if !mkfifo(&d.join("a.pgn")) {
        panic!("mkfifo failed, though MKFIFO found it");
    }
    let one = games_scanned(&run(&["scan", KINDS]).stderr);
    let dir = d.to_str().unwrap();
    for follow in [false, true] {
        let mut args = vec!["scan", dir, "--format", "jsonl"];
        if follow {
            args.push("--follow");
        }
        let mut child = command(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let status = wait(&mut child, 60, &format!("walk, follow {follow}"));
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert_eq!(status.code(), Some(1), "{stderr}");
        // good.pgn and sub/x.pgn, once each, whatever the links.
        assert_eq!(games_scanned(&stderr), 2 * one, "follow {follow}: {stderr}");
        assert!(
            stderr.contains("a.pgn: warning: skipped: a FIFO"),
            "{stderr}"
        );
        assert!(
            stderr.contains("dangling.pgn: warning: skipped: a broken"),
            "{stderr}"
        );
        if follow {
            assert!(
                stderr.contains("l1: warning: skipped: a symbolic link loop"),
                "{stderr}"
            );
            assert!(
                stderr.contains("l2: warning: skipped: a symbolic link loop"),
                "{stderr}"
            );
        } else {
            for link in ["l1", "l2", "link.pgn"] {
                assert!(
                    stderr.contains(&format!("{link}: warning: skipped: a symbolic link (")),
                    "{link}: {stderr}"
                );
            }
        }
    }
    // A FIFO named on the command line is read.
    let fifo = d.join("a.pgn");
    let writer = std::thread::spawn(move || {
        let mut f = File::options().write(true).open(fifo).unwrap();
        f.write_all(&std::fs::read(KINDS).unwrap()).unwrap();
    });
    let mut child = command(&["scan", d.join("a.pgn").to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait(&mut child, 60, "an explicit FIFO");
    writer.join().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(games_scanned(&stderr), one, "{stderr}");
}

/// (game, line, kind) of every JSON line.
fn places(stdout: &str) -> Vec<(u64, u64, String)> {
    stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["game"].as_u64().unwrap(),
                v["line"].as_u64().unwrap(),
                v["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn a_game_too_large_is_its_error_and_the_scan_goes_on() {
    let d = temp_dir("too-large");
    let path = d.join("huge.pgn");
    let mut bytes = MATE.to_vec();
    bytes.extend_from_slice(b"[Event \"huge\"]\n\n1. e4 {");
    for _ in 0..(65 << 10) {
        bytes.extend_from_slice(&[b'x'; 1023]);
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(b"} *\n\n");
    bytes.extend_from_slice(MATE);
    std::fs::write(&path, &bytes).unwrap();
    let lines_before_last = 4 + 2 + (65 << 10) + 2;
    let want = vec![
        (1, 3, "checkmate".to_owned()),
        (2, 5, "parse-error".to_owned()),
        (3, lines_before_last + 3, "checkmate".to_owned()),
    ];
    let p = path.to_str().unwrap();
    for jobs in ["1", "3"] {
        let r = run(&["scan", p, "--format", "jsonl", "--jobs", jobs]);
        assert_eq!(places(&r.stdout), want, "--jobs {jobs}: {}", r.stderr);
        assert!(r.stdout.contains("not read: 65 MiB"), "{}", r.stdout);
        assert_eq!(r.status, 1);
    }
    let r = run_with_stdin(&["scan", "-", "--format", "jsonl"], Some(&bytes));
    assert_eq!(places(&r.stdout), want, "stdin: {}", r.stderr);
}

fn games_without_termination_markers_are_cut_and_counted() {
    let d = temp_dir("no-markers");
    let path = d.join("mates.pgn");
    let n = 40_000;
    let bytes: Vec<u8> = MATE.iter().copied().cycle().take(MATE.len() * n).collect();
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap();
    let one = run(&["scan", p, "--format", "jsonl", "--jobs", "1"]);
    let v = places(&one.stdout);
    assert_eq!(v.len(), n, "{}", one.stderr);
    assert!(
        v.iter()
            .enumerate()
            .all(|(i, (g, line, kind))| *g == i as u64 + 1
                && *line == 4 * i as u64 + 3
                && kind == "checkmate")
    );
    for jobs in ["2", "3", "8"] {
        let other = run(&["scan", p, "--format", "jsonl", "--jobs", jobs]);
        assert!(one.stdout == other.stdout, "--jobs {jobs} differs");
    }
    let stdin = run_with_stdin(&["scan", "-", "--format", "jsonl"], Some(&bytes));
    assert!(places(&stdin.stdout) == v, "standard input differs");
}

fn a_truncated_compressed_file_gives_its_games_then_an_error() {
    let d = temp_dir("truncated");
    // Several zstd blocks (of at most 128 KiB each); the last is cut short.
    let sample = std::fs::read("fixtures/chess/lichess-sample.pgn")
        .unwrap()
        .repeat(8);
    let mut zst = zstd::encode_all(&sample[..], 3).unwrap();
    zst.truncate(zst.len() - 20);
    let path = d.join("t.pgn.zst");
    std::fs::write(&path, &zst).unwrap();
    let r = run(&["scan", path.to_str().unwrap(), "--format", "jsonl"]);
    assert_eq!(r.status, 2, "{}", r.stderr);
    let scanned = games_scanned(&r.stderr);
    assert!(scanned > 10, "{}", r.stderr);
    assert!(!places(&r.stdout).is_empty());
    // The game the cut falls in is not decided: it is the error, placed
    // where its text begins, numbered after the games read whole; nothing
    // follows it.
    let v: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let last = v.last().unwrap();
    assert_eq!(last["kind"], "parse-error", "{last}");
    assert_eq!(last["game"], scanned + 1, "{last}");
    assert_eq!(last["column"], 1, "{last}");
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .starts_with("stopped reading: "),
        "{last}"
    );
    let line = last["line"].as_u64().unwrap() as usize;
    let text = String::from_utf8(sample).unwrap();
    assert!(
        text.lines().nth(line - 1).unwrap().starts_with("[Event "),
        "line {line}"
    );
    assert!(
        v.iter()
            .all(|f| f["game"].as_u64().unwrap() as usize <= scanned + 1)
    );
}

fn scanning_nothing_is_an_error_naming_the_inputs() {
    let d = temp_dir("nothing");
    std::fs::write(d.join("notes.txt"), b"not a record").unwrap();
    std::fs::write(d.join("empty.pgn"), b"").unwrap();
    let dir = d.to_str().unwrap();
    for args in [vec!["scan", dir], vec!["scan", dir, "--format", "github"]] {
        let r = run(&args);
        assert_eq!(r.status, 2, "{}", r.stderr);
        assert!(
            r.stderr.contains(&format!("{dir}: error: nothing scanned")),
            "{}",
            r.stderr
        );
    }
    let r = run_with_stdin(&["scan", "-"], Some(b""));
    assert_eq!(r.status, 2, "{}", r.stderr);
    // A file named that holds no game: an error at its start, in every format.
    let empty = d.join("empty.pgn");
    let empty = empty.to_str().unwrap();
    for format in ["text", "github", "jsonl"] {
        let r = run(&["scan", empty, "--format", format]);
        assert_eq!(r.status, 2, "{}", r.stderr);
        assert!(
            r.stderr
                .contains(&format!("{empty}:1:1: error: no game in the file")),
            "{}",
            r.stderr
        );
        if format == "github" {
            assert!(r.stdout.contains(",line=1,col=1,"), "{}", r.stdout);
        }
    }
}

/// `/dev/full`, a device every write to fails with "no space left".
const DEV_FULL: Need = Need {
    what: "/dev/full",
    check: || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .map(|_| ())
            .map_err(|e| format!("no /dev/full to write to: {e}"))
    },
};

/// `mkfifo(1)`, to make a named pipe in a directory scanned.
const MKFIFO: Need = Need {
    what: "mkfifo",
    check: || match Command::new("mkfifo").arg("--version").output() {
        Ok(o) if o.status.success() => Ok(()),
        _ => Err("no mkfifo(1) to make a named pipe".into()),
    },
};

crate::verify_claim_tests! {
    a_closed_pipe_stops_the_scan_quietly_with_status_0,
    an_output_that_cannot_be_written_is_an_error: [DEV_FULL],
    an_unwritable_stderr_is_no_panic: [DEV_FULL],
    walks_skip_fifos_and_links_and_scan_each_file_once: [MKFIFO],
    a_game_too_large_is_its_error_and_the_scan_goes_on,
    games_without_termination_markers_are_cut_and_counted,
    a_truncated_compressed_file_gives_its_games_then_an_error,
    scanning_nothing_is_an_error_naming_the_inputs,
}
