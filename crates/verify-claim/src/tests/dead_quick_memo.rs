//! The quick dead-position test remembers its verdicts (on the last
//! position, since a scan asks about a game's final position twice, and on
//! the positions the analyser ran on, across games). Its answers must be
//! the analyser's own, whatever was asked before: checked on the D3-Chess
//! vectors with each side to move, asked in an order that hits and misses
//! the remembered entry, against chasolver run afresh (every fourth
//! vector, to keep the test short). Skips, saying so, without `../shared`.

use super::support;
use std::str::FromStr;

use rayon::prelude::*;

use crate::game::chess::unwinnable::{Search, Win, can_mate, is_dead_playable, position_from_fen};
use shakmaty::{Color, EnPassantMode, Position, fen::Fen};

fn fresh(fen: &str, side: Color) -> bool {
    let board = chess::Board::from_str(fen).unwrap();
    let side = match side {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    };
    chasolver::is_unwinnable_fast(&board, side)
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn remembered_verdicts_are_the_analysers() {
    let Some(shared) = support::shared() else {
        return;
    };
    let lines: Vec<String> = support::d3chess_vectors(&shared)
        .into_iter()
        .step_by(4) // a quarter of them: the analyser is run twice on each
        .collect();
    // (positions asked, whether the side to move changed a verdict), each
    // thread asking its own sequence (the entry is per thread).
    let results: Vec<(usize, bool)> = lines.par_iter().map(|l| check_board(l)).collect();
    let asked: usize = results.iter().map(|r| r.0).sum();
    let turn_matters = results.iter().filter(|r| r.1).count();
    println!("{asked} positions; the side to move changes a verdict on {turn_matters} boards");
    assert!(asked > 500, "{asked}");
    // The entry is keyed by the whole position, not the board alone: these
    // boards would catch a key without the side to move.
    assert!(turn_matters > 0);
}

/// One vector's board with each side to move.
fn check_board(line: &str) -> (usize, bool) {
    let mut asked = 0;
    let fields: Vec<&str> = line[2..].split_whitespace().collect();
    let mut pair = Vec::new();
    for turn in ["w", "b"] {
        let fen = format!("{} {turn} - - 0 1", fields[0]);
        let Ok(pos) = position_from_fen(&fen) else {
            continue; // the side not to move in check
        };
        let b = pos.board();
        if pos.legal_moves().is_empty() || b.white().count() > 16 || b.black().count() > 16 {
            continue; // an ending, or beyond the analyser
        }
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let (w, b) = (fresh(&fen, Color::White), fresh(&fen, Color::Black));
        // Dead first (remembers White's, and Black's if asked), then
        // each side, Black first; then the same again.
        for _ in 0..2 {
            assert_eq!(is_dead_playable(&pos, Search::Quick), w && b, "{fen}");
            for (side, proved) in [(Color::Black, b), (Color::White, w)] {
                let ours = can_mate(&pos, side, Search::Quick);
                assert_eq!(ours == Win::No, proved, "{fen} {side:?}");
                assert_ne!(ours, Win::Yes { helpmate: vec![] });
            }
        }
        asked += 1;
        pair.push((w, b));
    }
    (asked, pair.len() == 2 && pair[0] != pair[1])
}
