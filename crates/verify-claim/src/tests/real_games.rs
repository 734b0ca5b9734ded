//! Real game collections: every ply's incrementally updated hash equals the
//! full hash, and our strict reader reads the same moves as pgn-reader.
//!
//! Runs on the committed lichess sample (CC0) always, and on the plain PGN
//! files of `../shared/corpus/` when present (skipping, saying so, when not).

use super::support;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use crate::claims::Replay;
use crate::game::{Game, chess::ChessGame};
use crate::record::{Encoding, Reader};
use pgn_reader::{RawTag, SanPlus, Visitor};

/// Replays every game that replays, checking hashes on every ply.
/// Returns (games, plies, games refused).
fn check_hashes(path: &Path) -> (usize, usize, usize) {
    let bytes = std::fs::read(path).unwrap();
    let mut reader = Reader::new(&bytes, Encoding::Auto);
    let (mut games, mut plies, mut refused) = (0, 0, 0);
    while let Some(rec) = reader.next_game() {
        let Ok(rec) = rec else {
            refused += 1;
            continue;
        };
        let Ok((start, _)) = ChessGame::start_position(&rec, ()) else {
            refused += 1;
            continue;
        };
        let Ok(replay) = Replay::<ChessGame>::new(start, &rec.moves) else {
            refused += 1;
            continue;
        };
        for (p, pos) in replay.positions().enumerate() {
            assert_eq!(
                replay.hashes[p],
                ChessGame::hash(&pos),
                "{}: game {} ply {p}: incremental hash differs from full hash",
                path.display(),
                games + refused + 1
            );
        }
        games += 1;
        plies += replay.len();
    }
    (games, plies, refused)
}

#[test]
fn incremental_hash_equals_full_hash_on_the_lichess_sample() {
    let (games, plies, refused) = check_hashes(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/chess/lichess-sample.pgn"
    )));
    assert_eq!((games, refused), (60, 0));
    assert!(plies > 3000, "{plies}");
}

fn corpus_files(shared: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["lichess", "twic", "scalachess", "chessjs", "pychess-fen"] {
        let Ok(rd) = std::fs::read_dir(shared.join("corpus").join(dir)) else {
            continue;
        };
        files.extend(
            rd.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "pgn")),
        );
    }
    files.sort();
    files
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn incremental_hash_equals_full_hash_on_the_shared_corpus() {
    let Some(shared) = support::shared() else {
        return;
    };
    let (mut games, mut plies) = (0, 0);
    for f in corpus_files(&shared) {
        let (g, p, _) = check_hashes(&f);
        games += g;
        plies += p;
    }
    eprintln!("checked {games} games, {plies} plies");
    assert!(games > 2000, "{games}");
}

/// Collects main-line SAN as pgn-reader reads it.
struct Sans;

impl Visitor for Sans {
    type Tags = ();
    type Movetext = Vec<String>;
    type Output = Vec<String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }
    fn tag(&mut self, _: &mut (), _: &[u8], _: RawTag<'_>) -> ControlFlow<Self::Output> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Vec::new())
    }
    fn san(&mut self, m: &mut Vec<String>, san: SanPlus) -> ControlFlow<Self::Output> {
        m.push(san.san.to_string());
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, m: Vec<String>) -> Self::Output {
        m
    }
}

fn same_moves_as_pgn_reader(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let mut theirs = pgn_reader::Reader::new(&bytes[..]);
    let mut ours = Reader::new(&bytes, Encoding::Auto);
    let mut n = 0;
    while let Some(rec) = ours.next_game() {
        let rec = rec.unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
        let sans = theirs
            .read_game(&mut Sans)
            .unwrap()
            .expect("pgn-reader has the game too");
        let mine: Vec<String> = rec
            .moves
            .iter()
            .map(|m| m.text.trim_end_matches(['+', '#']).replace("0-0", "O-O"))
            .collect();
        assert_eq!(mine, sans, "{}: game {}", path.display(), n + 1);
        n += 1;
    }
    assert!(
        theirs.read_game(&mut Sans).unwrap().is_none(),
        "pgn-reader read more games"
    );
    n
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn our_reader_reads_the_same_moves_as_pgn_reader() {
    assert_eq!(
        same_moves_as_pgn_reader(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/chess/lichess-sample.pgn"
        ))),
        60
    );
    let Some(shared) = support::shared() else {
        return;
    };
    for dir in ["lichess", "twic"] {
        for f in std::fs::read_dir(shared.join("corpus").join(dir)).unwrap() {
            let n = same_moves_as_pgn_reader(&f.unwrap().path());
            assert!(n > 400, "{n}");
        }
    }
}
