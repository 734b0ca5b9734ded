//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub mod harness;
pub mod printed;

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

/// A scratch directory `verify-claim-{name}-…` in the system's temporary
/// directory, removed with all it holds when the guard is dropped, so that
/// test runs leave nothing in the temporary directory. Hold it until the
/// test no longer needs its files.
pub struct Scratch(tempfile::TempDir);

impl Scratch {
    /// A new, empty scratch directory (test runs leave nothing in the
    /// temporary directory: it goes when the guard is dropped).
    pub fn new(name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("verify-claim-{name}-"))
            .tempdir()
            .expect("a scratch directory");
        Scratch(dir)
    }

    /// Writes `bytes` to a file `name` in the directory and returns its
    /// path (removed with the directory).
    pub fn file(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_string_lossy().into_owned()
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self
    }
}

impl AsRef<OsStr> for Scratch {
    fn as_ref(&self) -> &OsStr {
        self.as_os_str()
    }
}

/// A file written by [`temp_file`], in a scratch directory of its own that
/// is removed when the guard is dropped (test runs leave nothing in the
/// temporary directory). It reads as its path: `&file` is a `&str`.
pub struct TempFile {
    _dir: Scratch,
    path: String,
}

impl TempFile {
    /// The file's path.
    pub fn as_str(&self) -> &str {
        &self.path
    }
}

impl Deref for TempFile {
    type Target = str;
    fn deref(&self) -> &str {
        &self.path
    }
}

impl std::fmt::Display for TempFile {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.path)
    }
}

impl AsRef<Path> for TempFile {
    fn as_ref(&self) -> &Path {
        Path::new(&self.path)
    }
}

impl AsRef<str> for TempFile {
    fn as_ref(&self) -> &str {
        &self.path
    }
}

impl AsRef<OsStr> for TempFile {
    fn as_ref(&self) -> &OsStr {
        OsStr::new(&self.path)
    }
}

/// Writes `bytes` to a file `name` in a scratch directory of its own and
/// returns the guard of both: hold it while the file is used (test runs
/// leave nothing in the temporary directory).
pub fn temp_file(name: &str, bytes: &[u8]) -> TempFile {
    let dir = Scratch::new("tests");
    let path = dir.file(name, bytes);
    TempFile { _dir: dir, path }
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

/// The D3-Chess test vector's positions (`../shared/labels`): one line
/// each, comments and blank lines left out.
pub fn d3chess_vectors(shared: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(shared.join("labels/d3chess-test-vector.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && l.len() > 3)
        .map(str::to_owned)
        .collect()
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

/// `../shared` beside the crate, when present.
pub fn shared_dir() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    p.join("labels").is_dir().then_some(p)
}

/// `../shared`, for a test listed with [`harness::SHARED`] (which runs it
/// only when it is there).
pub fn shared_path() -> PathBuf {
    shared_dir().expect("../shared is absent: list this test with harness::SHARED")
}

#[path = "oracle_python.rs"]
mod oracle_python;
pub use oracle_python::find_oracle_python;

/// The oracle's Python, for a test listed with [`harness::ORACLE`].
pub fn oracle_path() -> String {
    find_oracle_python().expect("no python with python-chess: list this test with harness::ORACLE")
}

/// The variable that turns every skip into a failure (set by `.ci/run`,
/// so CI cannot pass without `../shared` and the oracle).
pub const REQUIRE: &str = "VERIFY_CLAIM_REQUIRE_ORACLE";

/// The oracle's `games.tsv`: the header, and one row per (file base name,
/// game).
pub type OracleGames = (
    Vec<String>,
    std::collections::HashMap<(String, usize), Vec<String>>,
);

/// Runs `../shared/tools/claims_oracle.py` on `files` and reads its
/// `games.tsv`. The oracle writes its `oracle.*.tsv` files into a scratch
/// directory, removed once they are read (test runs leave nothing in the
/// temporary directory).
pub fn run_oracle(python: &str, shared: &Path, files: &[PathBuf], jobs: usize) -> OracleGames {
    let scratch = Scratch::new("oracle");
    let out = scratch.join("oracle");
    let status = Command::new(python)
        .arg(shared.join("tools/claims_oracle.py"))
        .args(["--jobs", &jobs.to_string(), "--out"])
        .arg(&out)
        .args(files)
        .stdout(Stdio::null())
        .status()
        .expect("run the oracle");
    assert!(status.success(), "the oracle failed");
    let tsv =
        std::fs::read_to_string(format!("{}.games.tsv", out.display())).expect("oracle output");
    let mut lines = tsv.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap_or("")
        .split('\t')
        .map(str::to_owned)
        .collect();
    let rows = lines
        .map(|line| {
            let f: Vec<String> = line.split('\t').map(str::to_owned).collect();
            ((f[0].clone(), f[1].parse().unwrap_or(0)), f)
        })
        .collect();
    (header, rows)
}
