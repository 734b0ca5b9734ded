//! The SAN resolver against shakmaty's `San::to_move`: the same move or the
//! same error, on every SAN of ../shared/corpus (the zstd TCEC files too,
//! with variants of each: capture sign flipped, disambiguation dropped or
//! added) and on a few million strings in random positions, legal and
//! illegal alike.
//!
//! The corpus part needs ../shared (ignored without it); both
//! parts take about 30 s in a debug build.

use super::support;
use crate::game::chess::san::resolve;
use pgn_reader::SanPlus;
use shakmaty::{CastlingMode, Chess, File, Move, Position, Rank, Role, Square, fen::Fen, san::San};

/// Compares one SAN in one position; counts it.
fn compare(pos: &Chess, san: San, count: &mut u64) {
    *count += 1;
    let ours = resolve(pos, san);
    let theirs = san.to_move(pos);
    assert_eq!(
        ours,
        theirs,
        "SAN {san} in {}",
        Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
    );
}

/// The SAN and variants of it that are usually illegal or ambiguous.
fn variants(san: San) -> Vec<San> {
    let mut out = vec![san];
    if let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    {
        let with = |file, rank, capture, promotion| San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        };
        out.push(with(None, None, capture, promotion));
        out.push(with(file, rank, !capture, promotion));
        out.push(with(Some(to.file()), rank, capture, promotion));
        out.push(with(file, Some(Rank::Fourth), capture, promotion));
        out.push(with(file, rank, capture, Some(Role::Queen)));
        out.push(with(file, rank, capture, None));
    }
    out
}

#[test]
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn resolver_agrees_with_shakmaty_on_the_corpus() {
    let Some(shared) = support::shared() else {
        return;
    };
    let mut compared = 0;
    let read = support::replay_corpus(
        &shared,
        |pos, san, _| {
            for v in variants(san) {
                compare(pos, v, &mut compared);
            }
        },
        |_| {},
    );
    eprintln!("{read} files, {compared} SAN compared");
    assert!(compared > 5_000_000, "too few SAN compared: {compared}");
}

/// A small xorshift generator: the test is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random SAN-like string: mostly not legal, often not SAN at all.
fn random_token(rng: &mut Rng) -> String {
    let mut s = String::new();
    let roles = ["", "", "N", "B", "R", "Q", "K", "P"];
    s.push_str(roles[rng.below(roles.len() as u64) as usize]);
    if rng.below(4) == 0 {
        s.push(char::from(b'a' + rng.below(8) as u8));
    }
    if rng.below(8) == 0 {
        s.push(char::from(b'1' + rng.below(8) as u8));
    }
    if rng.below(3) == 0 {
        s.push('x');
    }
    s.push(char::from(b'a' + rng.below(8) as u8));
    s.push(char::from(b'1' + rng.below(8) as u8));
    if rng.below(6) == 0 {
        s.push('=');
        s.push(['Q', 'R', 'B', 'N', 'K', 'P'][rng.below(6) as usize]);
    }
    s
}

fn start_positions() -> Vec<Chess> {
    let mut out = vec![Chess::default()];
    for fen in [
        "r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
        "8/P2k4/8/2pP4/8/8/5Kp1/8 w - c6 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1",
        "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    ] {
        out.push(
            Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Chess960)
                .unwrap(),
        );
    }
    out
}

#[test]
fn resolver_agrees_with_shakmaty_on_random_positions() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut compared = 0u64;
    let mut strings = 0u64;
    let starts = start_positions();
    for game in 0..250 {
        let mut pos = starts[game % starts.len()].clone();
        for _ in 0..120 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Every legal move, as SAN and in its variants.
            for m in &legal {
                let san = San::from_move(&pos, *m);
                for v in variants(san) {
                    compare(&pos, v, &mut compared);
                }
            }
            // Random strings, parsed as SAN where they parse.
            for _ in 0..40 {
                let token = random_token(&mut rng);
                strings += 1;
                if let Ok(san) = token.parse::<SanPlus>() {
                    compare(&pos, san.san, &mut compared);
                }
            }
            // Every square and role: the illegal tokens near the legal ones.
            let to = Square::new(rng.below(64) as u32);
            for role in Role::ALL {
                for capture in [false, true] {
                    let san = San::Normal {
                        role,
                        file: (rng.below(3) == 0).then(|| File::new(rng.below(8) as u32)),
                        rank: None,
                        capture,
                        to,
                        promotion: None,
                    };
                    compare(&pos, san, &mut compared);
                }
            }
            let m: Move = legal[rng.below(legal.len() as u64) as usize];
            pos.play_unchecked(m);
        }
    }
    eprintln!("{compared} SAN compared ({strings} random strings)");
    assert!(compared > 2_000_000, "too few compared: {compared}");
}

/// Every string of up to four characters over the SAN alphabet (and a few
/// strangers), and two million longer ones: whatever the quick parser
/// reads, shakmaty's parser reads the same.
#[test]
fn quick_parser_agrees_with_shakmaty() {
    use crate::game::chess::san::quick_parse;
    const ALPHABET: &[u8] = b"abcdefgh12345678NBRQKPOx=+#-0@Zqnkp9i ";
    let check = |t: &[u8], read: &mut u64| {
        if let Some(quick) = quick_parse(t) {
            *read += 1;
            let full = shakmaty::san::SanPlus::from_ascii(t).ok().map(|s| s.san);
            assert_eq!(Some(quick), full, "{:?}", String::from_utf8_lossy(t));
        }
    };
    let mut read = 0u64;
    let n = ALPHABET.len();
    for len in 1..=4u32 {
        for mut i in 0..n.pow(len) {
            let mut t = Vec::new();
            for _ in 0..len {
                t.push(ALPHABET[i % n]);
                i /= n;
            }
            check(&t, &mut read);
        }
    }
    // Longer: built from SAN-like pieces so that many of them parse.
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..2_000_000 {
        let mut t = random_token(&mut rng).into_bytes();
        match rng.below(4) {
            0 => t.push(b"+#x=Q"[rng.below(5) as usize]),
            1 => {
                let at = rng.below(t.len() as u64 + 1) as usize;
                t.insert(at, ALPHABET[rng.below(n as u64) as usize]);
            }
            _ => {}
        }
        check(&t, &mut read);
    }
    for t in [
        "O-O", "O-O-O", "O-O+", "O-O-O#", "O-O-O-O", "O-", "Nbxd7+", "exd8=Q#",
    ] {
        check(t.as_bytes(), &mut read);
    }
    eprintln!("{read} strings read by the quick parser");
    assert!(read > 100_000, "{read}");
}
