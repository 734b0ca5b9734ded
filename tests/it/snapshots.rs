//! Whole outputs, as ripgrep and uv keep them: the claim of six fixtures in
//! every claim format (text, JSON, PGN, HTML) and the scan of four in every
//! scan format (text, JSONL, CSV, GitHub, PGN, HTML), each compared byte for
//! byte with its golden file in `tests/snapshots/`.
//!
//! The review workflow: a changed output fails with both versions shown;
//! `VERIFY_CLAIM_BLESS=1 cargo test --test it snapshots` rewrites the golden
//! files, and `git diff tests/snapshots` is the review (commit what is
//! meant, as `cargo insta review` would accept it).

use crate::common::run;
use std::path::{Path, PathBuf};

/// The claims: a fixture and the claim's options.
const CLAIMS: &[(&str, &[&str])] = &[
    ("chess/threefold-written.pgn", &["--move", "Ng8"]),
    ("chess/fivefold-scattered.pgn", &[]),
    ("chess/fifty-fen-clock.pgn", &[]),
    ("chess/castling-lost.pgn", &[]),
    ("chess/fools-mate.pgn", &[]),
    ("draughts/repetition.pdn", &[]),
];

/// The scans: every finding kind, an annotated game, flag falls and a
/// draughts game.
const SCANS: &[&str] = &[
    "scan/kinds.pgn",
    "scan/annotate.pgn",
    "scan/flag-fall.pgn",
    "draughts/game.pdn",
];

const CLAIM_FORMATS: &[(&str, &str)] = &[
    ("text", "txt"),
    ("json", "json"),
    ("pgn", "pgn"),
    ("html", "html"),
];
const SCAN_FORMATS: &[(&str, &str)] = &[
    ("text", "txt"),
    ("jsonl", "jsonl"),
    ("csv", "csv"),
    ("github", "github"),
    ("pgn", "pgn"),
    ("html", "html"),
];

fn snapshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// The scan page's generation time (`2026-12-06T19:10:00Z`) as `TIME`: the
/// only part of an output that changes from run to run.
fn without_times(text: &str) -> String {
    let b = text.as_bytes();
    let shape = b"dddd-dd-ddTdd:dd:ddZ";
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let fits = b.len() - i >= shape.len()
            && shape.iter().zip(&b[i..]).all(|(s, c)| match s {
                b'd' => c.is_ascii_digit(),
                s => s == c,
            });
        if fits {
            out.push_str("TIME");
            i += shape.len();
        } else {
            let ch = text[i..].chars().next().expect("a char at a char boundary");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// Compares `got` with the golden file `name` (or writes it, blessing).
fn check(name: &str, got: &str, failures: &mut Vec<String>) {
    let path = snapshots().join(name);
    if verify_claim_test_support::blessing() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(want) if want == got => {}
        Ok(want) => failures.push(format!(
            "{name} differs (VERIFY_CLAIM_BLESS=1 rewrites it):\n--- want\n{want}\n--- got\n{got}"
        )),
        Err(e) => failures.push(format!("{}: {e}", path.display())),
    }
}

fn snapshot_name(fixture: &str, mode: &str, ext: &str) -> String {
    format!("{}.{mode}.{ext}", fixture.replace('/', "_"))
}

#[test]
fn every_claim_format_whole() {
    let mut failures = Vec::new();
    for (fixture, options) in CLAIMS {
        let file = format!("fixtures/{fixture}");
        for (format, ext) in CLAIM_FORMATS {
            let mut args = vec!["claim", file.as_str(), "--format", format];
            args.extend_from_slice(options);
            let r = run(&args);
            assert!(r.status == 0 || r.status == 1, "{args:?}: {}", r.stderr);
            let got = format!("status {}\n{}", r.status, r.stdout);
            check(&snapshot_name(fixture, "claim", ext), &got, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_scan_format_whole() {
    let mut failures = Vec::new();
    for fixture in SCANS {
        let file = format!("fixtures/{fixture}");
        for (format, ext) in SCAN_FORMATS {
            let args = ["scan", file.as_str(), "--format", format, "--jobs", "2"];
            let r = run(&args);
            assert!(r.status == 0 || r.status == 1, "{args:?}: {}", r.stderr);
            let got = format!("status {}\n{}", r.status, without_times(&r.stdout));
            check(&snapshot_name(fixture, "scan", ext), &got, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn times_are_the_only_part_left_out() {
    assert_eq!(without_times("at 2026-12-06T19:10:00Z, ½"), "at TIME, ½");
    assert_eq!(without_times("2026-12-06"), "2026-12-06");
}
