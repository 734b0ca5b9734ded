//! Scoresheet reconstruction time (issue 41): a 120-move game written on
//! two sheets (English SAN, and Russian letters in long algebraic), three
//! slips on each, reconstructed with the default options.
//!
//!     cargo bench --bench sheets
//!
//! The game is made here (a fixed pseudo-random walk that prefers quiet
//! moves, so it lasts), not read from ../shared, so the benchmark runs
//! anywhere. Prints the median of `VC_RUNS` (7) runs and whether the true
//! game came first. Not a test: nothing fails on time.

use std::time::Instant;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position, Role};
use verify_claim::{ReconstructOptions, Sheet, reconstruct};

/// A fixed walk of `plies` legal moves (captures taken one time in four).
fn game(plies: usize) -> Vec<(String, String)> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % n as u64) as usize
    };
    let mut pos = Chess::default();
    let mut out = Vec::new();
    while out.len() < plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let quiet: Vec<_> = legal.iter().filter(|m| !m.is_capture()).collect();
        let m = if quiet.is_empty() || next(4) == 0 {
            legal[next(legal.len())]
        } else {
            *quiet[next(quiet.len())]
        };
        let san = SanPlus::from_move(pos.clone(), m).to_string();
        let ru = russian_long(&m);
        out.push((san, ru));
        pos.play_unchecked(m);
    }
    out
}

fn russian_long(m: &shakmaty::Move) -> String {
    if let Some(side) = m.castling_side() {
        return if side.is_king_side() { "0-0" } else { "0-0-0" }.into();
    }
    let letter = match m.role() {
        Role::King => "Кр",
        Role::Queen => "Ф",
        Role::Rook => "Л",
        Role::Bishop => "С",
        Role::Knight => "К",
        Role::Pawn => "",
    };
    let sep = if m.is_capture() { ":" } else { "-" };
    let promo = match m.promotion() {
        Some(Role::Queen) => "Ф",
        Some(Role::Rook) => "Л",
        Some(Role::Bishop) => "С",
        Some(Role::Knight) => "К",
        _ => "",
    };
    let from = m.from().map(|s| s.to_string()).unwrap_or_default();
    format!("{letter}{from}{sep}{}{promo}", m.to())
}

/// The destination's rank one off (`Nf3` -> `Nf4`): a slip.
fn slip(text: &str) -> String {
    let mut c: Vec<char> = text.chars().collect();
    if let Some(i) = (1..c.len()).rev().find(|&i| c[i].is_ascii_digit()) {
        c[i] = if c[i] == '8' {
            '7'
        } else {
            (c[i] as u8 + 1) as char
        };
    }
    c.into_iter().collect()
}

/// This thread's time on the CPU (Linux's schedstat), in nanoseconds: the
/// machine may be shared, and wall time then says little.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn sheet(boxes: &[String]) -> Vec<u8> {
    boxes
        .chunks(2)
        .enumerate()
        .map(|(i, r)| format!("{}. {}\n", i + 1, r.join(" ")))
        .collect::<String>()
        .into_bytes()
}

fn main() {
    let g = game(240);
    let truth: Vec<String> = g.iter().map(|m| m.0.clone()).collect();
    let mut a: Vec<String> = truth.clone();
    let mut b: Vec<String> = g.iter().map(|m| m.1.clone()).collect();
    for p in [31, 101, 181] {
        a[p] = slip(&a[p]);
    }
    for p in [60, 140, 220] {
        b[p] = slip(&b[p]);
    }
    let sheets = [
        Sheet {
            name: "a".into(),
            text: sheet(&a),
        },
        Sheet {
            name: "b".into(),
            text: sheet(&b),
        },
    ];
    if let Ok(dir) = std::env::var("VC_SHEETS_DUMP") {
        std::fs::write(format!("{dir}/a.txt"), &sheets[0].text).unwrap();
        std::fs::write(format!("{dir}/b.txt"), &sheets[1].text).unwrap();
        std::fs::write(format!("{dir}/truth.txt"), truth.join(" ")).unwrap();
    }
    let runs: usize = std::env::var("VC_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7);
    let mut times = Vec::new();
    let mut cpu = Vec::new();
    let mut first = false;
    let mut states = 0;
    for _ in 0..runs.max(1) {
        let (t, c) = (Instant::now(), cpu_ns());
        let r = reconstruct(&sheets, &ReconstructOptions::default()).expect("a reading");
        times.push(t.elapsed());
        cpu.push(cpu_ns().saturating_sub(c));
        first = r.readings[0].moves == truth;
        states = r.states;
    }
    times.sort();
    cpu.sort();
    println!(
        "sheets: {} plies, two sheets, three slips each: median {:.1} ms wall, {:.1} ms on the CPU, over {} runs (min {:.1} ms wall), {} states, true game first: {first}",
        truth.len(),
        times[times.len() / 2].as_secs_f64() * 1e3,
        cpu[cpu.len() / 2] as f64 / 1e6,
        times.len(),
        times[0].as_secs_f64() * 1e3,
        states
    );
}
