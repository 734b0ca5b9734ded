//! Helpers of the engine's corpus and oracle tests (the crate-internal
//! twin of `tests/common`): `../shared`, the python-chess oracle, the
//! D3-Chess vectors, a pgn-reader replay of the corpus.
//!
//! These tests run under libtest, which cannot decide at run time that a
//! test is ignored: build.rs decides when the crate is built
//! (`cfg(no_shared)`, `cfg(no_oracle)`), and each test that reads
//! `../shared` or runs the oracle carries
//! `#[cfg_attr(no_shared, ignore = ...)]`, so cargo's summary shows it as
//! ignored. Run anyway (`--include-ignored`) without what it needs, it says
//! `SKIPPED:` on stderr; under `VERIFY_CLAIM_REQUIRE_ORACLE=1` (CI) it
//! fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// `../shared` beside the crate, when present.
pub fn shared_dir() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    p.join("labels").is_dir().then_some(p)
}

/// `../shared` beside the crate, when present. Tests call this and return
/// early, saying so, when it is absent.
pub fn shared() -> Option<PathBuf> {
    let p = shared_dir();
    if p.is_none() {
        skipped("../shared is absent; this test needs its labelled data");
    }
    p
}

#[path = "../../../../tests/common/oracle_python.rs"]
mod oracle_python;
pub use oracle_python::find_oracle_python;

/// [`find_oracle_python`], saying the test is skipped when there is none.
pub fn oracle_python() -> Option<String> {
    let py = find_oracle_python();
    if py.is_none() {
        skipped("no python with python-chess (set ORACLE_PYTHON; .ci/run installs one)");
    }
    py
}

/// The variable that turns every skip into a failure (set by `.ci/run`,
/// so CI cannot pass without `../shared` and the oracle).
pub const REQUIRE: &str = "VERIFY_CLAIM_REQUIRE_ORACLE";

/// Says a test is skipped, or fails it when [`REQUIRE`] is set (to anything
/// but empty or `0`).
pub fn skipped(why: &str) {
    let required = std::env::var(REQUIRE).is_ok_and(|v| !v.is_empty() && v != "0");
    assert!(!required, "{REQUIRE} is set, but {why}");
    eprintln!("SKIPPED: {why}");
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
    let scratch = tempfile::Builder::new()
        .prefix("verify-claim-oracle-")
        .tempdir()
        .expect("a scratch directory");
    let out = scratch.path().join("oracle");
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

/// Replays every game of `../shared/corpus` (the zstd files too) with
/// pgn-reader and shakmaty: `each_move(position, san, ply)` before each move
/// is played (`ply` moves already played), `each_game(final position)` after
/// a game replayed to its end. A game stops at the first move shakmaty
/// refuses, and then has no final position. Returns the files read.
pub fn replay_corpus(
    shared: &Path,
    each_move: impl FnMut(&shakmaty::Chess, shakmaty::san::San, usize),
    each_game: impl FnMut(&shakmaty::Chess),
) -> usize {
    use crate::input::walk::{Item, expand};
    use std::io::Read;
    // The scan's own walk: the records below the folder, sorted.
    let paths: Vec<PathBuf> = expand(&[shared.join("corpus")])
        .into_iter()
        .filter_map(|item| match item {
            Item::File(p) => Some(p),
            _ => None,
        })
        .collect();
    let mut replay = Replay {
        pos: shakmaty::Chess::default(),
        ply: 0,
        bad: false,
        each_move,
        each_game,
    };
    let mut read = 0;
    for p in &paths {
        let name = p.to_string_lossy();
        let mut bytes = Vec::new();
        if name.ends_with(".zst") {
            let f = std::fs::File::open(p).unwrap();
            zstd::stream::read::Decoder::new(f)
                .unwrap()
                .read_to_end(&mut bytes)
                .unwrap();
        } else if name.ends_with(".pgn") {
            bytes = std::fs::read(p).unwrap();
        } else {
            continue;
        }
        read += 1;
        let mut reader = pgn_reader::Reader::new(&bytes[..]);
        while let Ok(Some(())) = reader.read_game(&mut replay) {}
    }
    read
}

struct Replay<M, G> {
    pos: shakmaty::Chess,
    ply: usize,
    bad: bool,
    each_move: M,
    each_game: G,
}

impl<M, G> pgn_reader::Visitor for Replay<M, G>
where
    M: FnMut(&shakmaty::Chess, shakmaty::san::San, usize),
    G: FnMut(&shakmaty::Chess),
{
    type Tags = Option<shakmaty::Chess>;
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> std::ops::ControlFlow<(), Self::Tags> {
        std::ops::ControlFlow::Continue(None)
    }
    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> std::ops::ControlFlow<()> {
        if name == b"FEN" {
            *tags = shakmaty::fen::Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(shakmaty::CastlingMode::Chess960).ok());
        }
        std::ops::ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Self::Tags) -> std::ops::ControlFlow<(), ()> {
        self.pos = tags.unwrap_or_default();
        self.ply = 0;
        self.bad = false;
        std::ops::ControlFlow::Continue(())
    }
    fn san(&mut self, _: &mut (), san: pgn_reader::SanPlus) -> std::ops::ControlFlow<()> {
        use shakmaty::Position;
        if !self.bad {
            (self.each_move)(&self.pos, san.san, self.ply);
            match san.san.to_move(&self.pos) {
                Ok(m) => self.pos.play_unchecked(m),
                Err(_) => self.bad = true,
            }
            self.ply += 1;
        }
        std::ops::ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _: &mut ()) -> std::ops::ControlFlow<(), pgn_reader::Skip> {
        std::ops::ControlFlow::Continue(pgn_reader::Skip(true))
    }
    fn end_game(&mut self, _: ()) {
        if !self.bad {
            (self.each_game)(&self.pos);
        }
    }
}
