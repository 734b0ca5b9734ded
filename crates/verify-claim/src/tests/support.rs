//! Helpers of the engine's corpus and oracle tests: what they share with
//! the integration tests (`../shared`, the python-chess oracle, the
//! D3-Chess vectors) comes from the dev-only crate `crates/test-support`;
//! here are how a test says it is skipped, and a pgn-reader replay of the
//! corpus (which walks it with the crate's own `input::walk`).
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

pub(super) use verify_claim_test_support::{
    REQUIRE, d3chess_vectors, find_oracle_python, run_oracle, shared_dir,
};

/// `../shared` beside the crate, when present. Tests call this and return
/// early, saying so, when it is absent.
pub(super) fn shared() -> Option<PathBuf> {
    let p = shared_dir();
    if p.is_none() {
        skipped("../shared is absent; this test needs its labelled data");
    }
    p
}

/// [`find_oracle_python`], saying the test is skipped when there is none.
pub(super) fn oracle_python() -> Option<String> {
    let py = find_oracle_python();
    if py.is_none() {
        skipped("no python with python-chess (set ORACLE_PYTHON; .ci/run installs one)");
    }
    py
}

/// Says a test is skipped, or fails it when [`REQUIRE`] is set (to anything
/// but empty or `0`).
pub(super) fn skipped(why: &str) {
    assert!(
        !verify_claim_test_support::required(),
        "{REQUIRE} is set, but {why}"
    );
    eprintln!("SKIPPED: {why}");
}

/// Replays every game of `../shared/corpus` (the zstd files too) with
/// pgn-reader and shakmaty: `each_move(position, san, ply)` before each move
/// is played (`ply` moves already played), `each_game(final position)` after
/// a game replayed to its end. A game stops at the first move shakmaty
/// refuses, and then has no final position. Returns the files read.
pub(super) fn replay_corpus(
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
