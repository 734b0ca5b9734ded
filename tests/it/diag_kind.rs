//! Every `DiagnosticKind` is set where its diagnostic is made: what a
//! program (the Python package) acts on, never the message's words.

use std::io::ErrorKind;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::process::Command;

use verify_claim::{
    ClaimOptions, Diagnostic, DiagnosticKind, PositionOptions, ScanSettings, check_position,
    decide, decide_file, scan_paths,
};

use crate::common::Scratch;

/// Set in the child processes the tests below run themselves in: the
/// path to read.
const CHILD: &str = "VERIFY_CLAIM_TEST_DIAG_CHILD";

/// The user a root test runs its child as: root reads a file of mode 000.
const NOBODY: u32 = 65534;

fn claim(bytes: &[u8], opts: &ClaimOptions) -> Diagnostic {
    decide("k.pgn", bytes, opts).expect_err("an error")
}

#[test]
fn every_kind_is_set_where_its_diagnostic_is_made() {
    use DiagnosticKind::*;
    let none = ClaimOptions::default();
    let game = |n| ClaimOptions {
        game: Some(n),
        ..ClaimOptions::default()
    };
    let after = ClaimOptions {
        after: Some("9.Nf3".into()),
        ..ClaimOptions::default()
    };
    let huge = [
        &b"[Event \"a\"]\n\n1. e4 {"[..],
        &vec![b'x'; 17 << 20],
        b"} *\n",
    ]
    .concat();
    let cases: Vec<(DiagnosticKind, Diagnostic)> = vec![
        (IllegalMove, claim(b"1. e4 e5 2. Ke3 *\n", &none)),
        (Syntax, claim(b"1. e4 e5 2. Zz9 *\n", &none)),
        (Syntax, claim(b"[Event \"a\n\n1. e4 *\n", &none)),
        (
            Syntax,
            claim(b"[FEN \"8/8 w\"]\n[SetUp \"1\"]\n\n1. e4 *\n", &none),
        ),
        (Syntax, claim(b"[GameType \"shogi\"]\n\n1. e4 *\n", &none)),
        (Option, claim(b"1. e4 *\n\n1. d4 *\n", &none)),
        (Option, claim(b"1. e4 *\n", &game(3))),
        (Option, claim(b"1. e4 *\n", &game(0))),
        (Option, claim(b"1. e4 e5 *\n", &after)),
        (NoGame, claim(b"", &none)),
        (NoGame, claim(b"{ only a comment }\n", &none)),
        (Limit, claim(&huge, &none)),
    ];
    for (want, d) in &cases {
        assert_eq!(d.kind, *want, "{d}");
    }
    let fen = check_position("not a fen", &PositionOptions::default()).expect_err("a bad FEN");
    assert_eq!(fen.kind, Syntax, "{fen}");
    let missing = decide_file("no/such/dir/k.pgn", &none).expect_err("missing");
    assert_eq!(missing.kind, Io(ErrorKind::NotFound), "{missing}");
    let dir = Scratch::new("diag-kind");
    let read_dir = decide_file(&dir.to_string_lossy(), &none).expect_err("a directory");
    assert_eq!(read_dir.kind, Io(ErrorKind::IsADirectory), "{read_dir}");
    let scanned: Vec<_> = scan_paths(&["no/such/dir"], &ScanSettings::default()).collect();
    let walked = scanned
        .last()
        .expect("an item")
        .as_ref()
        .expect_err("an error");
    assert_eq!(walked.kind, Io(ErrorKind::NotFound), "{walked}");
}

/// Deciding a claim on `path` fails with `Io(PermissionDenied)`.
fn assert_denied(path: &str) {
    let d = decide_file(path, &ClaimOptions::default()).expect_err("unreadable");
    assert_eq!(
        d.kind,
        DiagnosticKind::Io(ErrorKind::PermissionDenied),
        "{d}"
    );
}

/// A file of mode 000: `Io(PermissionDenied)`. Root reads it anyway, so as
/// root the test runs itself again as `nobody`.
#[test]
fn an_unreadable_file_is_permission_denied() {
    if let Some(path) = std::env::var_os(CHILD) {
        let path = path.to_string_lossy().into_owned();
        assert_denied(&path);
        eprintln!("checked: permission denied");
        return;
    }
    let dir = Scratch::new("diag-denied");
    // Searchable by anyone (a scratch directory is its owner's alone).
    std::fs::set_permissions(&*dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.file("locked.pgn", b"1. e4 e5 *\n");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::metadata(&path).unwrap().uid() != 0 {
        assert_denied(&path);
        return;
    }
    use std::os::unix::process::CommandExt;
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            "diag_kind::an_unreadable_file_is_permission_denied",
            "--nocapture",
        ])
        .env(CHILD, &path)
        .uid(NOBODY)
        .gid(NOBODY)
        .output()
        .expect("the test as nobody");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("checked: permission denied"), "{err}");
}
