//! The unwinnability analysis against positions labelled by the algorithm's
//! author: `../shared/labels/d3chess-test-vector.txt` (1,803 positions) and
//! `../shared/labels/ashlar-chess/oracle/ambrona-unwinnability.tsv`. No
//! contradiction is allowed; undetermined results are counted and reported.
//! Skips, saying so, without `../shared`.

use super::support;
use crate::game::chess::unwinnable::{Search, Win, can_mate, position_from_fen};
use rayon::prelude::*;
use shakmaty::Color;

fn contradicts(ours: &Win, can: bool) -> bool {
    matches!((ours, can), (Win::Yes { .. }, false) | (Win::No, true))
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn d3chess_test_vector() {
    let Some(shared) = support::shared() else {
        return;
    };
    let lines = support::d3chess_vectors(&shared);
    // (pairs, undetermined, quick proved, contradictions), in parallel.
    let results: Vec<(usize, usize, usize, Vec<String>)> = lines
        .par_iter()
        .map(|line| {
            let (label, fen) = line.split_at(2);
            // Some vectors give only the board and the side to move.
            let mut fields: Vec<&str> = fen.split_whitespace().collect();
            fields.resize(4, "-");
            let fen = format!("{} 0 1", fields.join(" "));
            let pos = position_from_fen(&fen).unwrap_or_else(|e| panic!("{e}"));
            let expect = [
                (Color::White, &label[0..1] == "W"),
                (Color::Black, &label[1..2] == "B"),
            ];
            let mut r = (0, 0, 0, Vec::new());
            for (side, can) in expect {
                r.0 += 1;
                let full = can_mate(&pos, side, Search::Full);
                let quick = can_mate(&pos, side, Search::Quick);
                r.1 += usize::from(full == Win::Undetermined);
                r.2 += usize::from(quick == Win::No);
                if contradicts(&full, can) || contradicts(&quick, can) {
                    r.3.push(format!(
                        "{label} {fen} {side:?}: full {full:?}, quick {quick:?}"
                    ));
                }
            }
            r
        })
        .collect();
    let n: usize = results.iter().map(|r| r.0).sum();
    let undetermined: usize = results.iter().map(|r| r.1).sum();
    let quick_proved: usize = results.iter().map(|r| r.2).sum();
    let wrong: Vec<String> = results.into_iter().flat_map(|r| r.3).collect();
    eprintln!(
        "d3chess vectors: {n} (position, side) pairs; full search undetermined on {undetermined}; quick proved {quick_proved} unwinnable"
    );
    assert_eq!(n, 2 * 1803);
    assert!(
        wrong.is_empty(),
        "{} contradictions:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn ambrona_labelled_final_positions() {
    let Some(shared) = support::shared() else {
        return;
    };
    let text = std::fs::read_to_string(
        shared.join("labels/ashlar-chess/oracle/ambrona-unwinnability.tsv"),
    )
    .unwrap();
    let (mut n, mut undetermined) = (0, 0);
    let mut wrong = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = position_from_fen(f[0]).unwrap_or_else(|e| panic!("{e}"));
        for (side, full_label) in [(Color::White, f[1]), (Color::Black, f[2])] {
            n += 1;
            let full = can_mate(&pos, side, Search::Full);
            let quick = can_mate(&pos, side, Search::Quick);
            if full == Win::Undetermined {
                undetermined += 1;
            }
            let can = match full_label {
                "WINNABLE" => Some(true),
                "UNWINNABLE" => Some(false),
                _ => None,
            };
            if let Some(can) = can
                && (contradicts(&full, can) || contradicts(&quick, can))
            {
                wrong.push(format!(
                    "{} {side:?}: label {full_label}, full {full:?}, quick {quick:?}",
                    f[0]
                ));
            }
        }
    }
    eprintln!(
        "ambrona labels: {n} (position, side) pairs; full search undetermined on {undetermined}"
    );
    assert!(n > 2700);
    assert!(
        wrong.is_empty(),
        "{} contradictions:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The ashlar-chess dead-position games: read and replayed by our reader,
/// their final positions must agree with the labels Ambrona's analyser gave
/// them (`ambrona-unwinnability.tsv`, keyed by FEN without the clocks).
#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn ashlar_cha_games() {
    use crate::claims::Replay;
    use crate::game::{Game, chess::ChessGame};
    use crate::record::{Encoding, Reader};

    let Some(shared) = support::shared() else {
        return;
    };
    let tsv = std::fs::read_to_string(
        shared.join("labels/ashlar-chess/oracle/ambrona-unwinnability.tsv"),
    )
    .unwrap();
    let key = |fen: &str| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    let labels: std::collections::HashMap<String, (String, String)> = tsv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (key(f[0]), (f[1].to_owned(), f[2].to_owned()))
        })
        .collect();
    let mut files = Vec::new();
    let mut dirs = vec![shared.join("labels/ashlar-chess/pgn/cha")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "pgn") {
                files.push(p);
            }
        }
    }
    let (mut games, mut labelled, mut undetermined) = (0, 0, 0);
    let mut wrong = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut reader = Reader::new(&bytes, Encoding::Auto);
        while let Some(rec) = reader.next_game() {
            let rec = rec.unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
            let (start, _) = ChessGame::start_position(&rec, ())
                .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.1));
            let replay = Replay::<ChessGame>::new(start, &rec.moves)
                .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
            games += 1;
            let last = &replay.position(replay.len());
            let Some((w, b)) = labels.get(&key(&ChessGame::fen(last))) else {
                continue;
            };
            labelled += 1;
            let check = ChessGame::dead_check(last, Search::Full);
            for (label, ours) in [(w, &check.white), (b, &check.black)] {
                match (label.as_str(), ours) {
                    (_, Win::Undetermined) => undetermined += 1,
                    ("WINNABLE", Win::No) | ("UNWINNABLE", Win::Yes { .. }) => {
                        wrong.push(format!("{}: label {label}, ours {ours:?}", path.display()))
                    }
                    _ => {}
                }
            }
        }
    }
    eprintln!(
        "ashlar cha: {games} games, {labelled} final positions labelled, {undetermined} side verdicts undetermined"
    );
    assert!(games > 500 && labelled > 400, "{games} {labelled}");
    assert!(
        wrong.is_empty(),
        "{} contradictions:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
