//! Paths are read as paths, not as text: a file whose name is not UTF-8 is
//! scanned like any other, and printed with its invalid bytes as `\xHH`.

use crate::common;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

const MATE: &[u8] = b"[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";

/// A fresh directory holding one game in `caf\xE9.pgn` (Latin-1 `café`),
/// removed when the guard is dropped (test runs leave nothing in the
/// temporary directory).
fn latin1_dir(tag: &str) -> common::Scratch {
    let dir = common::Scratch::new(&format!("paths-{tag}"));
    std::fs::write(dir.join(OsStr::from_bytes(b"caf\xE9.pgn")), MATE).unwrap();
    dir
}

#[test]
fn a_name_that_is_not_utf8_is_scanned_and_printed_escaped() {
    let dir = latin1_dir("text");
    let d = dir.to_str().unwrap();
    let r = common::run(&["scan", d]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with(&format!("{d}/caf\\xE9.pgn\n")),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("checkmate"), "{}", r.stdout);
    assert_eq!(common::games_scanned(&r.stderr), 1);
}

#[test]
fn json_carries_the_same_escaped_name() {
    let dir = latin1_dir("json");
    let d = dir.to_str().unwrap();
    let r = common::run(&["scan", "--format", "jsonl", d]);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let line: serde_json::Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(line["file"], format!("{d}/caf\\xE9.pgn"));
    assert_eq!(line["kind"], "checkmate");
}

#[test]
fn the_library_scans_it_too() {
    let dir = latin1_dir("lib");
    let d = dir.to_str().unwrap();
    let findings: Vec<_> = verify_claim::scan_paths(&[d], &verify_claim::ScanSettings::default())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].file, format!("{d}/caf\\xE9.pgn"));
}

#[test]
fn a_name_that_is_not_utf8_given_on_the_command_line_is_read() {
    let dir = latin1_dir("named");
    let file = dir.join(OsStr::from_bytes(b"caf\xE9.pgn"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .args(["scan", "--format", "jsonl"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let line: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(
        line["file"],
        format!("{}/caf\\xE9.pgn", dir.to_str().unwrap())
    );
    assert_eq!(line["kind"], "checkmate");
    let findings: Vec<_> =
        verify_claim::scan_paths(&[&file], &verify_claim::ScanSettings::default())
            .collect::<Result<_, _>>()
            .unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
}
