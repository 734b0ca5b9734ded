//! Never a panic on input: thousands of corrupted records (bytes flipped,
//! inserted, deleted, cut) through the reader, the replay, the claim engine
//! and the scan, for both games, and random tower FENs and written moves.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::claims::{self, ClaimKind, ClaimRequest, Replay};
use crate::game::{
    Game, GameType, Search,
    chess::ChessGame,
    column_draughts::{self, ColumnDraughts},
};
use crate::laws::{Edition, Rulebook};
use crate::record::{Encoding, Reader};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const ALPHABET: &[u8] = b" \n[]{}()\";$.:-xNBRQKOo0123456789abcdefgh=+#!?*/\x00\xff\xc3";

fn mutate(rng: &mut Rng, src: &[u8]) -> Vec<u8> {
    let mut v = src.to_vec();
    for _ in 0..1 + rng.below(6) {
        if v.is_empty() {
            break;
        }
        let i = rng.below(v.len());
        match rng.below(4) {
            0 => v[i] = ALPHABET[rng.below(ALPHABET.len())],
            1 => v.insert(i, ALPHABET[rng.below(ALPHABET.len())]),
            2 => {
                v.remove(i);
            }
            _ => v.truncate(i),
        }
    }
    v
}

fn exercise<G: Game>(bytes: &[u8], variant: G::Variant, rules: &Rulebook, written: &str) {
    let mut reader = Reader::new(bytes, Encoding::Auto);
    while let Some(rec) = reader.next_game() {
        let Ok(rec) = rec else { continue };
        let Ok((start, _)) = G::start_position(&rec, variant) else {
            continue;
        };
        let Ok(replay) = Replay::<G>::new(start, &rec.moves) else {
            continue;
        };
        for ply in [0, replay.len() / 2, replay.len()] {
            let req = ClaimRequest {
                ply,
                written: Some(written),
                kind: ClaimKind::Any,
                claimant: None,
                dead_search: Search::Quick,
                scope: claims::Scope::Report,
            };
            let _ = claims::decide(&replay, rules, None, &req);
        }
    }
    // The scan catches a worker's panic and ends with it as an error item.
    let settings = crate::ScanSettings {
        jobs: Some(1),
        ..Default::default()
    };
    for item in crate::scan_bytes("t.pgn", bytes, &settings) {
        if let Err(d) = item {
            assert!(!d.message.contains("internal error"), "{d}");
        }
    }
}

#[test]
fn corrupted_records_never_panic() {
    let chess = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/chess/lichess-sample.pgn"
    ))
    .unwrap();
    let chess = &chess[..20_000];
    let kinds = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/scan/kinds.pgn"
    ))
    .unwrap();
    let draughts: Vec<u8> = ["game.pdn", "repetition.pdn", "material.pdn", "no-moves.pdn"]
        .iter()
        .flat_map(|f| {
            std::fs::read(format!(
                "{}/../../fixtures/draughts/{f}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap()
        })
        .collect();
    let mut rng = Rng(2026);
    let written = [
        "Nf3", "O-O", "e8=Q", "Кр", "", "c3-d4", "c3:e5:g7", "a1:h8", "zz", "Ng1-f3", "…",
    ];
    for i in 0..1500 {
        let src: &[u8] = match i % 3 {
            0 => chess,
            1 => &kinds,
            _ => &draughts,
        };
        let bytes = mutate(&mut rng, src);
        let w = written[rng.below(written.len())];
        let result = catch_unwind(AssertUnwindSafe(|| {
            exercise::<ChessGame>(&bytes, (), &Rulebook::fide(Edition::Fide2023), w);
            exercise::<ColumnDraughts>(
                &bytes,
                column_draughts::Rules::Rejump,
                &Rulebook::column_draughts(),
                w,
            );
        }));
        if result.is_err() {
            let path = std::env::temp_dir().join("verify-claim-panic.pgn");
            std::fs::write(&path, &bytes).unwrap();
            panic!(
                "panic on mutation {i} (written move {w:?}); input saved to {}",
                path.display()
            );
        }
    }
    let _ = GameType::Chess;
}

#[test]
fn random_tower_fens_never_panic() {
    let mut rng = Rng(7);
    let parts = [
        "W", "B", ":", ",", "=", "a1", "c3", "h8", "d4", "w", "W", "b", "B", "ww", "bw", "wbw",
        "0", "12", "x", "",
    ];
    for _ in 0..3000 {
        let text: String = (0..rng.below(12))
            .map(|_| parts[rng.below(parts.len())])
            .collect();
        let r = catch_unwind(|| {
            if let Ok(p) = column_draughts::fen::parse(&text, column_draughts::Rules::Standard) {
                let _ = column_draughts::perft(&p, 2);
                assert_eq!(
                    column_draughts::fen::parse(
                        &column_draughts::fen::write(&p),
                        column_draughts::Rules::Standard
                    )
                    .ok(),
                    Some(p)
                );
            }
        });
        assert!(r.is_ok(), "tower FEN {text:?}");
    }
}
