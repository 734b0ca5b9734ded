//! `unproved::quick_test_cannot_prove` answers for the analyser without
//! running it, so it must never say "cannot prove" where the analyser's
//! quick test, run, proves a side unable to mate. Checked, for each side,
//! on every final position of ../shared/corpus (the TCEC files too), on
//! every sixth position along its games, on the D3-Chess vectors with each
//! side to move, and on random games from a few starts. It must also skip
//! most positions, or the scan pays for nothing. Skips, saying so, without
//! `../shared` (the random part runs anyway).

use super::support;
use std::str::FromStr;

use crate::game::chess::unproved::quick_test_cannot_prove;
use crate::game::chess::unwinnable::{exotic_rights, fits_analyser, position_from_fen};
use rayon::prelude::*;
use shakmaty::{Chess, Color, EnPassantMode, Position, fen::Fen};

/// What one position gave: (sides skipped, sides the analyser proved).
fn check(pos: &Chess) -> (u32, u32) {
    if pos.legal_moves().is_empty() || !fits_analyser(pos) {
        return (0, 0);
    }
    if exotic_rights(pos).any() {
        return (0, 0); // Chess960 rights: the analyser is not asked as is
    }
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let board = chess::Board::from_str(&fen).unwrap();
    let (mut skipped, mut proved) = (0, 0);
    for (side, theirs) in [
        (Color::White, chess::Color::White),
        (Color::Black, chess::Color::Black),
    ] {
        let skip = quick_test_cannot_prove(pos, side);
        let proves = chasolver::is_unwinnable_fast(&board, theirs);
        assert!(
            !(skip && proves),
            "{fen}: skipped for {side:?}, but the analyser proves it"
        );
        skipped += u32::from(skip);
        proved += u32::from(proves);
    }
    (skipped, proved)
}

fn tally(positions: &[Chess]) -> (usize, u32, u32) {
    let (s, p) = positions
        .par_iter()
        .map(check)
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    (positions.len(), s, p)
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn never_skips_what_the_analyser_proves_on_the_corpus() {
    let Some(shared) = support::shared() else {
        return;
    };
    // The final position of each game, and every sixth on the way.
    let (mut along, mut finals) = (Vec::new(), Vec::new());
    support::replay_corpus(
        &shared,
        |pos, _, ply| {
            if ply > 0 && ply.is_multiple_of(6) {
                along.push(pos.clone());
            }
        },
        |pos| finals.push(pos.clone()),
    );
    let (n, skipped, proved) = tally(&finals);
    eprintln!("final positions: {n}, sides skipped {skipped}, proved by the analyser {proved}");
    assert!(n > 8_000, "{n}");
    // Most final positions are never put to the analyser; some it proves.
    assert!(skipped as usize > n, "{skipped} of {n} positions' 2 sides");
    assert!(proved > 0);
    let (n, skipped, proved) = tally(&along);
    eprintln!("positions along the games: {n}, sides skipped {skipped}, proved {proved}");
    assert!(n > 100_000, "{n}");
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn never_skips_what_the_analyser_proves_on_the_d3chess_vectors() {
    let Some(shared) = support::shared() else {
        return;
    };
    let mut positions = Vec::new();
    for line in support::d3chess_vectors(&shared) {
        let board = line[2..].split_whitespace().next().unwrap().to_owned();
        for turn in ["w", "b"] {
            if let Ok(p) = position_from_fen(&format!("{board} {turn} - - 0 1")) {
                positions.push(p);
            }
        }
    }
    let (n, skipped, proved) = tally(&positions);
    eprintln!("D3-Chess positions: {n}, sides skipped {skipped}, proved {proved}");
    assert!(n > 1_000 && proved > 100, "{n} {proved}");
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn never_skips_what_the_analyser_proves_in_random_games() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let starts: Vec<Chess> = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        // Locked pawns with pieces behind them; a few pieces left.
        "r1b1k2r/8/8/1p1p1p1p/1P1P1P1P/8/8/R1B1K2R w KQkq - 0 1",
        "4k3/8/3n4/1p1p1p1p/1P1P1P1P/8/8/4K1N1 w - - 0 1",
        "4k3/8/8/p1p1p1p1/P1P1P1P1/8/2Q5/4K3 w - - 0 1",
        "8/8/2k5/8/8/5N2/2K5/8 w - - 0 1",
        // Pawns and bishops only (the analyser searches deeper there).
        "4k3/2b5/1p1p1p1p/1P1P1P1P/8/8/2B5/4K3 w - - 0 1",
        "4k3/8/2p1b3/2P1p3/4P3/8/3B4/4K3 w - - 0 1",
        "8/5k2/8/3b4/8/2B5/4PK2/8 w - - 0 1",
        "6k1/5p2/8/8/8/8/2B1P3/6K1 w - - 0 1",
        "4k3/pp3p2/2p1b3/8/8/2P1B3/PP3P2/4K3 w - - 0 1",
    ]
    .iter()
    .map(|f| position_from_fen(f).unwrap())
    .collect();
    let mut positions = Vec::new();
    for game in 0..1000 {
        let mut pos = starts[game % starts.len()].clone();
        for _ in 0..160 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.play_unchecked(legal[rng.below(legal.len())]);
            positions.push(pos.clone());
        }
    }
    let (n, skipped, proved) = tally(&positions);
    eprintln!("random positions: {n}, sides skipped {skipped}, proved {proved}");
    assert!(
        n > 50_000 && skipped > 0 && proved > 0,
        "{n} {skipped} {proved}"
    );
}
