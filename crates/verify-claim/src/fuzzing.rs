//! The fuzz targets' entry points, one function per target (feature
//! `fuzzing`; not a stable interface). The fuzz targets
//! (`fuzz/fuzz_targets/*.rs`, nightly, `cargo +nightly fuzz run NAME`) call
//! them through `fuzz/src/lib.rs`, and so does `src/tests/fuzz_corpus.rs`,
//! which replays the committed corpus (`fuzz/corpus/NAME/`) on stable in a
//! plain `cargo test`. They live in the crate because the properties they
//! check (the reader's offsets, reading in pieces, FEN round trips) are of
//! internal parts.
//!
//! Each entry point panics only when a property the tool promises fails:
//! the tool itself must never panic, hang or crash on any input, and every
//! error about an input must carry its place.

use crate::claims::scan::{RulesChoice, ScanOptions};
use crate::game::column_draughts::{self as cd, fen as tower_fen_mod};
use crate::game::{Game, Search, chess::ChessGame};
use crate::record::{Encoding, Reader, boundary};

/// The PGN/PDN reader in each encoding: offsets in bounds and increasing,
/// and the same games whether the input is read whole or in pieces cut at
/// every game start (as the scan's chunks are).
pub fn reader(data: &[u8]) {
    for encoding in [Encoding::Auto, Encoding::Utf8, Encoding::Latin1] {
        let whole = read_all(data, 0, data.len(), encoding);
        let mut pieces = Vec::new();
        let mut from = 0;
        while from < data.len() {
            let to = boundary::next_game_start(data, from + 1, data.len()).unwrap_or(data.len());
            pieces.extend(read_all(data, from, to, encoding));
            from = to;
        }
        assert_eq!(whole, pieces, "reading in pieces changed the games");
    }
}

/// What was read of one game: (start, Ok(moves, end) | Err(offset)).
type Read = (usize, Result<(usize, usize), usize>);

/// Every game of `data[from..to]`, with offsets in the whole input.
fn read_all(data: &[u8], from: usize, to: usize, encoding: Encoding) -> Vec<Read> {
    let bytes = &data[from..to];
    let mut reader = Reader::new(bytes, encoding);
    let mut out = Vec::new();
    let mut last = None;
    while let Some(game) = reader.next_game() {
        let item = match game {
            Ok(g) => {
                assert!(g.end <= bytes.len() && g.offset <= g.end);
                let mut prev = g.offset;
                for m in &g.moves {
                    assert!(m.offset >= prev && m.offset + m.text.len() <= g.end);
                    prev = m.offset;
                }
                for t in &g.tags {
                    assert!(t.offset >= g.offset && t.offset < g.end);
                }
                let item = (from + g.offset, Ok((g.moves.len(), from + g.end)));
                reader.recycle(g);
                item
            }
            Err(e) => {
                assert!(e.offset <= bytes.len());
                (usize::MAX, Err(from + e.offset))
            }
        };
        if let (Some(l), Ok(_)) = (last, &item.1) {
            assert!(item.0 > l, "games out of order");
        }
        if item.1.is_ok() {
            last = Some(item.0);
        }
        out.push(item);
    }
    out
}

/// A scan of the input, chunk by chunk, as the scan's workers do it, on
/// the calling thread: every finding placed at line and column >= 1.
///
/// Not through [`crate::scan_bytes`]: that spawns a producer and a worker
/// per call, detached, whose exit frees memory after the call returns, so
/// libFuzzer saw more mallocs than frees in every run and ran
/// LeakSanitizer's full heap scan after each input (most of the time of a
/// run: 344 execs/s with leak detection off, fewer with it on).
pub fn scan_chunk(data: &[u8]) {
    let options = ScanOptions {
        rules: RulesChoice::Auto,
        min_draw_moves: Some(20),
        dead_search: Search::Quick,
        column_rules: cd::Rules::Standard,
        game_type: None,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let how = crate::scan::Analysis {
        encoding: Encoding::Auto,
        options: &options,
        stop: &stop,
        boards: true,
        games: true,
        panic_on: None,
    };
    let mut chunker = crate::input::chunks::Chunker::new(data);
    let mut game = 0;
    while let Ok(Some(chunk)) = chunker.next_chunk() {
        let a = crate::scan::analyse_chunk(&chunk, &how, &mut game);
        let (games, found) = (a.games, a.findings);
        assert_eq!(a.rows.len(), games, "one row per game");
        for f in found {
            assert!(f.place.line >= 1 && f.place.col >= 1);
            assert!(f.game >= 1 && f.game <= games);
        }
    }
}

/// A claim: the first line of the input is the written move, the second
/// the `--after` move, the rest the record (quick dead search). Errors
/// about the record have a place; errors about the options name the option.
pub fn claim(data: &[u8]) {
    let mut lines = data.splitn(3, |&b| b == b'\n');
    let text = |l: Option<&[u8]>| {
        let t = String::from_utf8_lossy(l.unwrap_or_default()).into_owned();
        (!t.is_empty()).then_some(t)
    };
    let written_move = text(lines.next());
    let after = text(lines.next());
    let record = lines.next().unwrap_or_default();
    for game in [None, Some(2)] {
        let opts = crate::ClaimOptions {
            written_move: written_move.clone(),
            after: after.clone(),
            game,
            dead_search: crate::DeadSearch(Search::Quick),
            ..Default::default()
        };
        if let Err(d) = crate::decide("f.pgn", record, &opts) {
            let about_options = d.kind == crate::DiagnosticKind::Option;
            assert!(
                about_options || d.place.is_some(),
                "an error about the record without a place: {d}"
            );
        }
    }
}

/// Chess FEN: parse, write, parse again: the same position.
pub fn chess_fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    use crate::game::chess::unwinnable::position_from_fen;
    if let Ok(pos) = position_from_fen(text) {
        let fen = ChessGame::fen(&pos);
        let again = position_from_fen(&fen).expect("a written FEN reads back");
        assert_eq!(ChessGame::fen(&again), fen);
    }
}

/// The tower FEN of column draughts, under both readings of the re-jump
/// rule: parse, write, parse again.
pub fn tower_fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rules in [cd::Rules::Standard, cd::Rules::Rejump] {
        if let Ok(pos) = tower_fen_mod::parse(text, rules) {
            let fen = tower_fen_mod::write(&pos);
            let again = tower_fen_mod::parse(&fen, rules).expect("a written FEN reads back");
            assert_eq!(tower_fen_mod::write(&again), fen);
            let _ = cd::perft(&pos, 2);
        }
    }
}

/// `check-position` with the quick search (the full one can take seconds
/// on a random position: too slow to fuzz). Any FEN: an answer or an error.
pub fn check_position(data: &[u8]) {
    let Ok(fen) = std::str::from_utf8(data) else {
        return;
    };
    // Excluded: more than 16 men of a side. The `chess` crate that the
    // analyser uses writes past a fixed-size move list on such positions
    // (issue 8, item 2: a segfault, being fixed in the CLI by refusing
    // them); until that lands, fuzzing would only find it again.
    if let Ok(pos) = crate::game::chess::unwinnable::position_from_fen(fen) {
        use shakmaty::{Color, Position};
        let board = pos.board();
        if [Color::White, Color::Black]
            .iter()
            .any(|&c| board.by_color(c).count() > 16)
        {
            return;
        }
    }
    let opts = crate::PositionOptions {
        search: Search::Quick,
        ..Default::default()
    };
    let _ = crate::check_position(fen, &opts);
}

/// The live board's HTTP request head parser (`watch --serve`): any bytes
/// give a head, a wait for more, or a refusal (400, 431), never a panic;
/// a head that parses whole is never refused while it arrives in pieces
/// (the server reads it as it comes); a whole head's target is not empty.
pub fn http_head(data: &[u8]) {
    use crate::watch::serve::http::parse_head;
    let data = &data[..data.len().min(crate::watch::serve::http::MAX_HEAD)];
    let whole = parse_head(data);
    if let Err(status) = whole {
        assert!(matches!(status, 400 | 431), "status {status}");
    }
    if let Ok(Some((_, target, _))) = &whole {
        assert!(!target.is_empty());
        let step = (data.len() / 64).max(1);
        for cut in (0..data.len()).step_by(step) {
            assert!(
                parse_head(&data[..cut]).is_ok(),
                "the first {cut} bytes of a good head were refused"
            );
        }
    }
}

/// The scoresheet reader and the reconstruction (issue 41): any bytes as
/// one sheet, and split at the first NUL-free `\n---\n` as two; every error
/// placed (but the notation option's), and a reading bounded (a small beam,
/// so that a fuzzer's run is not spent in the search).
pub fn sheet(data: &[u8]) {
    let opts = crate::ReconstructOptions {
        beam: 8,
        candidates: 2,
        ..Default::default()
    };
    let split = data.windows(5).position(|w| w == b"\n---\n");
    let sheets: Vec<crate::Sheet> = match split {
        Some(i) => vec![
            crate::Sheet {
                name: "a".into(),
                text: data[..i].to_vec(),
            },
            crate::Sheet {
                name: "b".into(),
                text: data[i + 5..].to_vec(),
            },
        ],
        None => vec![crate::Sheet {
            name: "a".into(),
            text: data.to_vec(),
        }],
    };
    match crate::reconstruct(&sheets, &opts) {
        Ok(r) => {
            assert!(!r.readings.is_empty(), "a reconstruction without a reading");
            let _ = (r.to_json(), r.to_text(), r.to_pgn());
        }
        Err(d) => assert!(
            d.place.is_some(),
            "an error about a sheet without a place: {d}"
        ),
    }
}
