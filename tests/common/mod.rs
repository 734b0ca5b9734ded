//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

pub mod harness;
pub mod printed;

// One copy for these tests and the library's own (crates/test-support);
// each test target uses some of them.
#[allow(unused_imports)]
pub use verify_claim_test_support::{
    REQUIRE, Scratch, TempFile, find_oracle_python, run_oracle, shared_dir, temp_file,
};

pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the verify-claim binary from the crate root.
pub fn run(args: &[&str]) -> Run {
    run_with_stdin(args, None)
}

pub fn run_with_stdin(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_verify-claim"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn verify-claim");
    if let Some(bytes) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The number of games a scan's summary line ("scanned N games ...") gives.
pub fn games_scanned(stderr: &str) -> usize {
    stderr
        .split("scanned ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no summary line: {stderr}"))
}

/// Runs with `--format json` and parses the object.
pub fn json(args: &[&str]) -> (i32, serde_json::Value) {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    let r = run(&a);
    assert!(
        r.status == 0 || r.status == 1,
        "status {}: {}",
        r.status,
        r.stderr
    );
    (
        r.status,
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout)),
    )
}

/// `../shared`, for a test listed with [`harness::SHARED`] (which runs it
/// only when it is there).
pub fn shared_path() -> PathBuf {
    shared_dir().expect("../shared is absent: list this test with harness::SHARED")
}

/// The oracle's Python, for a test listed with [`harness::ORACLE`].
pub fn oracle_path() -> String {
    find_oracle_python().expect("no python with python-chess: list this test with harness::ORACLE")
}
