//! Scan mode: every finding kind, every output format, the same output for
//! any --jobs, compressed inputs, standard input, exit statuses, and
//! malformed input that must give findings or errors, never a crash.

use crate::common;

use std::io::Write;

use common::harness::SHARED;
use common::{Scratch, TempFile, run, run_with_stdin};
use serde_json::Value;

const KINDS: &str = "fixtures/scan/kinds.pgn";

fn jsonl(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// A scratch directory for one test, removed when the guard is dropped
/// (test runs leave nothing in the temporary directory).
fn temp_dir(name: &str) -> Scratch {
    Scratch::new(&format!("scan-{name}"))
}

/// (game, kind, ply) of every finding.
fn triples(v: &[Value]) -> Vec<(u64, String, u64)> {
    v.iter()
        .map(|f| {
            (
                f["game"].as_u64().unwrap(),
                f["kind"].as_str().unwrap().to_owned(),
                f["ply"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn every_finding_kind_with_its_place() {
    let r = run(&["scan", KINDS, "--format", "jsonl", "--min-draw-moves", "20"]);
    assert_eq!(r.status, 1, "{}", r.stderr);
    let v = jsonl(&r.stdout);
    let got = triples(&v);
    let want: Vec<(u64, String, u64)> = [
        (1, "stalemate", 1),
        (1, "result-mismatch", 1),
        (2, "checkmate", 4),
        (2, "result-mismatch", 4),
        (3, "insufficient-material", 0),
        (3, "result-mismatch", 0),
        (4, "early-draw-agreement", 4),
        (5, "illegal-move", 2),
        (6, "parse-error", 1),
        (7, "result-tag-mismatch", 2),
        (8, "threefold-claimable", 7),
    ]
    .into_iter()
    .map(|(g, k, p)| (g, k.to_owned(), p))
    .collect();
    assert_eq!(got, want);
    // The contract fields.
    let mate = &v[2];
    assert_eq!(mate["file"], KINDS);
    assert_eq!(mate["line"], 17);
    assert_eq!(mate["side"], "white");
    assert_eq!(mate["move"], Value::Null);
    let mismatch = &v[3];
    assert_eq!(
        (mismatch["recorded"].as_str(), mismatch["expected"].as_str()),
        (Some("1-0"), Some("0-1"))
    );
    assert_eq!(v[1]["expected"], "1/2-1/2");
    assert!(
        v[5]["message"]
            .as_str()
            .unwrap()
            .contains("recorded after the game ended at ply 0")
    );
    let three = &v[10];
    assert_eq!(
        (three["side"].as_str(), three["move"].as_str()),
        (Some("black"), Some("Ng8"))
    );
    assert_eq!(
        (v[7]["line"].as_u64(), v[7]["column"].as_u64()),
        (Some(43), Some(13))
    );
    assert_eq!(
        (v[8]["line"].as_u64(), v[8]["column"].as_u64()),
        (Some(51), Some(7))
    );
    // Without --min-draw-moves there is no early-draw finding.
    let r = run(&["scan", KINDS, "--format", "jsonl"]);
    assert!(!r.stdout.contains("early-draw-agreement"));
}

fn automatic_draws_and_counts_from_the_chess_fixtures() {
    let r = run(&["scan", "fixtures/chess", "--format", "jsonl"]);
    let v = jsonl(&r.stdout);
    let find = |file: &str, kind: &str| {
        v.iter()
            .find(|f| f["file"].as_str().unwrap().ends_with(file) && f["kind"] == kind)
            .map(|f| f["ply"].as_u64().unwrap())
    };
    assert_eq!(
        find("fivefold-scattered.pgn", "fivefold-repetition"),
        Some(24)
    );
    assert_eq!(
        find("fivefold-consecutive.pgn", "fivefold-repetition"),
        Some(16)
    );
    assert_eq!(find("seventy-five.pgn", "seventy-five-move"), Some(2));
    assert_eq!(
        find("seventy-five-mate.pgn", "seventy-five-move"),
        None,
        "checkmate takes precedence"
    );
    assert_eq!(find("seventy-five-mate.pgn", "checkmate"), Some(1));
    assert_eq!(find("fifty-fen-clock.pgn", "fifty-move-claimable"), Some(9));
    assert_eq!(find("ep-pinned.pgn", "threefold-claimable"), Some(8));
    // A promotion changes the material as a capture does.
    assert_eq!(
        find("insufficient-by-promotion.pgn", "insufficient-material"),
        Some(1)
    );
    // A claim with a written move from a position that stands for the
    // first time, before the game's end.
    assert_eq!(
        find("threefold-by-another-path.pgn", "threefold-claimable"),
        Some(7)
    );
    // 2014 reading of fivefold under --rules fide-2014; none before 2014.
    let r = run(&[
        "scan",
        "fixtures/chess/fivefold-scattered.pgn",
        "--format",
        "jsonl",
        "--rules",
        "fide-2014",
    ]);
    assert!(!r.stdout.contains("fivefold-repetition"));
    let r = run(&[
        "scan",
        "fixtures/chess/seventy-five.pgn",
        "--format",
        "jsonl",
        "--rules",
        "fide-2009",
    ]);
    assert!(!r.stdout.contains("seventy-five-move"));
    assert!(!r.stdout.contains("result-mismatch"));
}

fn all_output_formats() {
    let r = run(&["scan", KINDS, "--format", "text"]);
    assert!(
        r.stdout
            .starts_with("fixtures/scan/kinds.pgn\n  game 1 (Stale – Mate)\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("error result-mismatch: recorded 1-0, but the game ended by checkmate: 0-1"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains('\x1b'), "no colour off a terminal");
    assert!(r.stderr.contains("scanned 8 games"), "{}", r.stderr);

    let r = run(&["scan", KINDS, "--format", "csv"]);
    let mut lines = r.stdout.lines();
    assert_eq!(
        lines.next(),
        Some("file,game,line,column,ply,kind,severity,side,move,recorded,expected,message")
    );
    let row = lines.find(|l| l.contains(",checkmate,")).unwrap();
    assert!(row.starts_with("fixtures/scan/kinds.pgn,2,17,"), "{row}");
    // Messages with commas are quoted.
    assert!(
        r.stdout
            .contains(",\"recorded 1-0, but the game ended by checkmate: 0-1\""),
        "{}",
        r.stdout
    );

    // Notices are shown when asked (github's default is warnings and up).
    let r = run(&[
        "scan",
        KINDS,
        "--format",
        "github",
        "--min-severity",
        "info",
    ]);
    assert!(
        r.stdout
            .contains("::error file=fixtures/scan/kinds.pgn,line=17,col="),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("::notice file=fixtures/scan/kinds.pgn,line=17,"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("title=result-mismatch::game 2, ply 4: recorded 1-0"),
        "{}",
        r.stdout
    );

    // An empty result still has the CSV header.
    let r = run(&[
        "scan",
        "fixtures/chess/fools-mate.pgn",
        "--format",
        "csv",
        "--fail-on",
        "never",
    ]);
    assert!(r.stdout.starts_with("file,game,"));
}

fn exit_status_follows_fail_on() {
    assert_eq!(run(&["scan", KINDS, "--format", "jsonl"]).status, 1);
    assert_eq!(
        run(&["scan", KINDS, "--format", "jsonl", "--fail-on", "never"]).status,
        0
    );
    let early = "fixtures/chess/round5.pgn";
    // round 5.2 is a draw after one move: a warning with --min-draw-moves.
    assert_eq!(run(&["scan", early, "--min-draw-moves", "10"]).status, 0);
    assert_eq!(
        run(&[
            "scan",
            early,
            "--min-draw-moves",
            "10",
            "--fail-on",
            "warning"
        ])
        .status,
        1
    );
    assert_eq!(
        run(&[
            "scan",
            "fixtures/chess/threefold-written.pgn",
            "--fail-on",
            "warning"
        ])
        .status,
        0
    );
    // An input that cannot be read at all: 2, and the others are still scanned.
    let r = run(&["scan", "/nonexistent/x.pgn", early, "--format", "jsonl"]);
    assert_eq!(r.status, 2);
    assert!(
        r.stderr.contains("/nonexistent/x.pgn: error: cannot read"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("round5.pgn"));
}

/// A multi-chunk input (chunks are 256 KiB): the lichess sample 25 times,
/// in a scratch file removed when the guard is dropped.
fn large_input() -> TempFile {
    let sample = std::fs::read("fixtures/chess/lichess-sample.pgn").unwrap();
    let kinds = std::fs::read(KINDS).unwrap();
    let mut bytes = Vec::new();
    for _ in 0..25 {
        bytes.write_all(&sample).unwrap();
        bytes.write_all(b"\n").unwrap();
        bytes.write_all(&kinds).unwrap();
        bytes.write_all(b"\n").unwrap();
    }
    common::temp_file("large.pgn", &bytes)
}

fn output_is_identical_whatever_the_jobs() {
    let path = large_input();
    let p: &str = &path;
    let one = run(&["scan", p, "--format", "jsonl", "--jobs", "1"]);
    assert!(
        one.stdout.lines().count() > 500,
        "{}",
        one.stdout.lines().count()
    );
    for jobs in ["2", "3", "8"] {
        let other = run(&["scan", p, "--format", "jsonl", "--jobs", jobs]);
        assert!(one.stdout == other.stdout, "--jobs {jobs} differs");
    }
    // Game numbers and lines run on across chunks: the last game is 25 × 68.
    let v = jsonl(&one.stdout);
    let last = v.last().unwrap();
    assert_eq!(last["game"], 25 * 68);
    let text = std::fs::read_to_string(&path).unwrap();
    let line = last["line"].as_u64().unwrap() as usize;
    assert!(
        text.lines().nth(line - 1).unwrap().contains("Ng1 Ng8"),
        "line {line}"
    );
}

fn compressed_inputs_and_directories() {
    let d = temp_dir("compressed");
    let plain = std::fs::read(KINDS).unwrap();
    std::fs::write(
        d.join("a.pgn.zst"),
        zstd::encode_all(&plain[..], 3).unwrap(),
    )
    .unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&plain).unwrap();
    std::fs::write(d.join("b.pgn.gz"), gz.finish().unwrap()).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(&plain).unwrap();
    std::fs::write(d.join("c.pgn.bz2"), bz.finish().unwrap()).unwrap();
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("sub/d.pgn"), &plain).unwrap();
    std::fs::write(d.join("sub/notes.txt"), b"not a record").unwrap();
    let r = run(&["scan", d.to_str().unwrap(), "--format", "jsonl"]);
    let v = jsonl(&r.stdout);
    let reference = triples(&jsonl(&run(&["scan", KINDS, "--format", "jsonl"]).stdout));
    for name in ["a.pgn.zst", "b.pgn.gz", "c.pgn.bz2", "sub/d.pgn"] {
        let of: Vec<Value> = v
            .iter()
            .filter(|f| f["file"].as_str().unwrap().ends_with(name))
            .cloned()
            .collect();
        assert_eq!(triples(&of), reference, "{name}");
    }
    // Files in sorted order; the .txt is left out.
    let files: Vec<&str> = v.iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert!(files.windows(2).all(|w| w[0] <= w[1]));
    assert!(!r.stdout.contains("notes.txt"));
    assert!(r.stderr.contains("scanned 32 games"), "{}", r.stderr);
}

fn standard_input_plain_and_compressed() {
    let plain = std::fs::read(KINDS).unwrap();
    let reference = triples(&jsonl(&run(&["scan", KINDS, "--format", "jsonl"]).stdout));
    let r = run_with_stdin(&["scan", "-", "--format", "jsonl"], Some(&plain));
    let v = jsonl(&r.stdout);
    assert_eq!(v[0]["file"], "<stdin>");
    assert_eq!(triples(&v), reference);
    // Compressed data on standard input is recognised by its magic bytes.
    let z = zstd::encode_all(&plain[..], 3).unwrap();
    let r = run_with_stdin(&["scan", "-", "--format", "jsonl"], Some(&z));
    assert_eq!(triples(&jsonl(&r.stdout)), reference);
}

fn malformed_input_gives_findings_or_errors_never_a_crash() {
    let d = temp_dir("malformed");
    let sample = std::fs::read("fixtures/chess/lichess-sample.pgn").unwrap();
    std::fs::write(d.join("truncated.pgn"), &sample[..sample.len() / 2]).unwrap();
    let mut junk = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..100_000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        junk.push((x >> 16) as u8);
    }
    std::fs::write(d.join("binary.pgn"), &junk).unwrap();
    let mut zst = zstd::encode_all(&sample[..], 3).unwrap();
    zst.truncate(zst.len() / 2);
    std::fs::write(d.join("truncated.pgn.zst"), &zst).unwrap();
    std::fs::write(d.join("empty.pgn"), b"").unwrap();
    let r = run(&["scan", d.to_str().unwrap(), "--format", "jsonl"]);
    assert!(r.status == 1 || r.status == 2, "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    let v = jsonl(&r.stdout);
    assert!(
        v.iter()
            .any(|f| f["file"].as_str().unwrap().ends_with("binary.pgn")
                && f["kind"] == "parse-error")
    );
    assert!(
        v.iter()
            .any(|f| f["file"].as_str().unwrap().ends_with("truncated.pgn")
                && f["kind"] == "parse-error")
    );
    // The truncated compressed file is an input error (status 2), said on
    // stderr: cut inside its one block, no game of it was decoded.
    assert!(
        r.stderr
            .contains("truncated.pgn.zst: error: stopped reading"),
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 2);

    // The shared malformed corpus, when present.
    {
        let shared = common::shared_dir().expect("SHARED found ../shared");
        let r = run(&[
            "scan",
            shared.join("corpus/malformed").to_str().unwrap(),
            "--format",
            "jsonl",
        ]);
        assert!(r.status <= 1, "{}", r.stderr);
        assert!(!r.stderr.contains("panicked"));
        let r = run(&[
            "scan",
            shared.join("corpus/python-chess").to_str().unwrap(),
            "--format",
            "jsonl",
        ]);
        assert!(r.status <= 1, "{}", r.stderr);
        assert!(
            r.stdout.contains("crazyhouse") || r.stdout.to_lowercase().contains("variant"),
            "{}",
            r.stdout
        );
    }
}

#[cfg(unix)]
fn unreadable_directory_is_an_input_error() {
    use std::os::unix::fs::PermissionsExt;
    let d = temp_dir("unreadable");
    std::fs::write(d.join("ok.pgn"), std::fs::read(KINDS).unwrap()).unwrap();
    let locked = d.join("locked");
    std::fs::create_dir_all(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let r = run(&["scan", d.to_str().unwrap(), "--format", "jsonl"]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    // root can read anything: then the directory is simply empty.
    if std::fs::read_dir(&locked).is_ok() && r.status != 2 {
        eprintln!("running as root: permissions are not enforced, nothing to check");
        return;
    }
    assert_eq!(r.status, 2, "{}", r.stderr);
    assert!(r.stdout.contains("ok.pgn"));
}

/// The summary's numbers: plurals, the plies replayed (a game that fails
/// at its first move replays none), and MB/s of the text scanned, with the
/// compressed size beside it for compressed input.
fn summary_numbers_say_what_was_scanned() {
    let summary = |r: &common::Run| {
        r.stderr
            .lines()
            .find(|l| l.starts_with("scanned "))
            .unwrap_or_else(|| panic!("no summary: {}", r.stderr))
            .to_owned()
    };
    let r = run_with_stdin(&["scan", "-"], Some(b"x\n"));
    let line = summary(&r);
    assert!(line.starts_with("scanned 1 game (0 plies) in "), "{line}");
    assert!(line.contains(" MB/s of text; "), "{line}");
    // A game that fails at ply 2 replayed 2 plies.
    let pgn = b"1. e4 e5 2. Ke3 *\n";
    let line = summary(&run_with_stdin(&["scan", "-"], Some(pgn)));
    assert!(line.starts_with("scanned 1 game (2 plies) in "), "{line}");
    // Compressed: the rate is of the text, the compressed size beside it.
    let text = std::fs::read(KINDS).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    let file = common::temp_file("kinds.pgn.gz", &gz);
    let r = run(&["scan", file.as_str()]);
    let line = summary(&r);
    let compressed = format!(
        " MB/s of text ({:.1} MB compressed); ",
        gz.len() as f64 / 1e6
    );
    assert!(line.contains(&compressed), "{line}");
}

crate::verify_claim_tests! {
    summary_numbers_say_what_was_scanned,
    every_finding_kind_with_its_place,
    automatic_draws_and_counts_from_the_chess_fixtures,
    all_output_formats,
    exit_status_follows_fail_on,
    output_is_identical_whatever_the_jobs,
    compressed_inputs_and_directories,
    standard_input_plain_and_compressed,
    malformed_input_gives_findings_or_errors_never_a_crash: [SHARED],
    unreadable_directory_is_an_input_error,
}
