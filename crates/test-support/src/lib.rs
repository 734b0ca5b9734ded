//! What the library's own tests (`crates/verify-claim/src/tests/`) and the
//! command line's integration tests (`tests/common`) share: where
//! `../shared` is, the python-chess oracle and the variable that makes CI
//! fail rather than skip, the D3-Chess vectors, scratch directories.
//! One copy, a dev-dependency of both (it was two copies that drifted).
//! How a test that cannot run shows as skipped differs between the two
//! harnesses and stays with each (`src/tests/support.rs`,
//! `tests/common/harness.rs`).

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod oracle_python;
pub use oracle_python::find_oracle_python;

/// `../shared` beside the repository (the corpora, labels and tools), when
/// present.
pub fn shared_dir() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    p.join("labels").is_dir().then_some(p)
}

/// The variable that turns every skip into a failure (set by `.ci/run`,
/// so CI cannot pass without `../shared` and the oracle).
pub const REQUIRE: &str = "VERIFY_CLAIM_REQUIRE_ORACLE";

/// Whether [`REQUIRE`] is set (to anything but empty or `0`).
pub fn required() -> bool {
    std::env::var(REQUIRE).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The variable that makes the whole-output tests write what they got as
/// the expected output instead of comparing (`VERIFY_CLAIM_BLESS=1`).
pub const BLESS: &str = "VERIFY_CLAIM_BLESS";

/// Whether [`BLESS`] is set (to anything but empty or `0`).
pub fn blessing() -> bool {
    std::env::var(BLESS).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Asserts that `actual` is the whole `expected` output, the text of
/// file `name` in `dir`; or, when [`blessing`], writes `actual` there.
pub fn check_whole(actual: &str, expected: &str, dir: &Path, name: &str) {
    if blessing() {
        std::fs::write(dir.join(name), actual).expect("write the expected output");
        return;
    }
    assert_eq!(
        actual,
        expected,
        "{name}: the whole output differs ({BLESS}=1 rewrites {})",
        dir.join(name).display()
    );
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
