//! Replays the committed fuzz corpus (`fuzz/corpus/TARGET/`) through the
//! same entry points as the fuzz targets (`crate::fuzzing`), on stable: a regression that a
//! fuzzer once found is caught by a plain `cargo test`.

use crate::fuzzing as entries;

use std::path::Path;

fn replay(target: &str, entry: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no corpus", dir.display());
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let caught = std::panic::catch_unwind(|| entry(&data));
        assert!(caught.is_ok(), "{}: the entry point failed", f.display());
    }
}

#[test]
fn reader() {
    replay("reader", entries::reader);
}

#[test]
fn scan_chunk() {
    replay("scan_chunk", entries::scan_chunk);
}

#[test]
fn claim() {
    replay("claim", entries::claim);
}

#[test]
fn chess_fen() {
    replay("chess_fen", entries::chess_fen);
}

#[test]
fn tower_fen() {
    replay("tower_fen", entries::tower_fen);
}

#[test]
fn check_position() {
    replay("check_position", entries::check_position);
}

#[test]
fn http_head() {
    replay("http_head", entries::http_head);
}

#[test]
fn sheet() {
    replay("sheet", entries::sheet);
}
