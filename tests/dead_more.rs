//! Dead positions beyond chess's standard castling: column draughts (1.11)
//! through the three modes, Chess960 castling rights, and positions with
//! more material than the analyser can take.

mod common;

use shakmaty::{Color, Position};
use verify_claim::game::chess::unwinnable::{Search, Win, can_mate, position_from_fen};

/// More than 16 pieces a side would overflow the `chess` crate's move list:
/// such a FEN is refused (exit 2, a message), never a signal.
#[test]
fn over_full_positions_never_reach_the_analyser() {
    let fen = "k7/nnnnnnnn/nnnnnnnn/nnn5/8/8/8/7K b - - 0 1";
    for search in ["quick", "full"] {
        let r = common::run(&["check-position", "--fen", fen, "--dead-search", search]);
        assert_eq!(r.status, 2, "{}", r.stderr);
        assert!(r.stderr.contains("16 a side"), "{}", r.stderr);
    }
    // Random over-full and full positions: an answer or an error, never a
    // signal (status -1 here).
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let pieces = b"pnbrqPNBRQ";
    for i in 0..300 {
        let mut board = [b'.'; 64];
        board[(next() % 64) as usize] = b'k';
        let wk = loop {
            let s = (next() % 64) as usize;
            if board[s] == b'.' {
                break s;
            }
        };
        board[wk] = b'K';
        let n = 20 + next() % 36;
        for _ in 0..n {
            let s = (next() % 64) as usize;
            if board[s] == b'.' && (8..56).contains(&s) {
                board[s] = pieces[(next() % 10) as usize];
            }
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = board[rank * 8 + file];
                if c == b'.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c as char);
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if i % 2 == 0 {
            " w - - 0 1"
        } else {
            " b - - 0 1"
        });
        let search = if i % 3 == 0 { "full" } else { "quick" };
        let r = common::run(&["check-position", "--fen", &fen, "--dead-search", search]);
        assert!(
            r.status == 0 || r.status == 2,
            "{fen}: status {} {}",
            r.status,
            r.stderr
        );
    }
}

/// Chess960 castling rights the `chess` crate cannot express.
#[test]
fn chess960_castling_rights() {
    // King on b1 with the a1 rook's right, and the same for Black: both can
    // mate (a helpmate found without the rights is one with them).
    let p = position_from_fen("rk6/8/8/8/8/8/8/RK6 w Aa - 0 1").unwrap();
    for c in [Color::White, Color::Black] {
        let Win::Yes { helpmate } = can_mate(&p, c, Search::Full) else {
            panic!("{c:?}");
        };
        assert!(
            helpmate.last().is_some_and(|m| m.ends_with('#')),
            "{helpmate:?}"
        );
    }
    // A lone king cannot mate, whatever the other side's castling; Black,
    // with the b8 rook's right, can.
    let p = position_from_fen("1rk5/1pp5/8/8/8/8/8/5K2 b b - 0 1").unwrap();
    assert_eq!(can_mate(&p, Color::White, Search::Full), Win::No);
    assert!(matches!(
        can_mate(&p, Color::Black, Search::Full),
        Win::Yes { .. }
    ));
    // The verdict never depends on the search: a quick answer is never a
    // contradiction of the full one.
    for fen in [
        "rk6/8/8/8/8/8/8/RK6 w Aa - 0 1",
        "1rk5/1pp5/8/8/8/8/8/5K2 b b - 0 1",
    ] {
        let p = position_from_fen(fen).unwrap();
        for c in [Color::White, Color::Black] {
            let (q, f) = (
                can_mate(&p, c, Search::Quick),
                can_mate(&p, c, Search::Full),
            );
            assert!(
                q == Win::Undetermined || q.as_bool() == f.as_bool(),
                "{fen} {c:?}"
            );
        }
    }
}

/// The Chess960 games of the TCEC archives: every final position that
/// still has castling rights is decided by the full search (none
/// undetermined), and every helpmate ends in mate.
#[test]
fn tcec_chess960_games() {
    use verify_claim::claims::Replay;
    use verify_claim::game::{Game, chess::ChessGame};
    use verify_claim::record::{Encoding, Reader};

    let Some(shared) = common::shared() else {
        return;
    };
    let dir = shared.join("corpus/tcec");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("rc"))
        .collect();
    files.sort();
    let (mut games, mut with_rights, mut undetermined) = (0, 0, 0);
    for path in &files {
        let bytes = zstd::decode_all(std::fs::File::open(path).unwrap()).unwrap();
        let mut reader = Reader::new(&bytes, Encoding::Latin1);
        while let Some(rec) = reader.next_game() {
            let Ok(rec) = rec else { continue };
            let Ok((start, _)) = ChessGame::start_position(&rec, ()) else {
                continue;
            };
            let Ok(replay) = Replay::<ChessGame>::new(start, &rec.moves) else {
                continue;
            };
            games += 1;
            let last = &replay.position(replay.len());
            if last.castles().castling_rights().is_empty() {
                continue;
            }
            with_rights += 1;
            let d = ChessGame::dead_check(last, Search::Full);
            if d.white == Win::Undetermined || d.black == Win::Undetermined {
                undetermined += 1;
                eprintln!("undetermined: {}", ChessGame::fen(last));
            }
        }
    }
    println!(
        "{games} Chess960 games, {with_rights} end with castling rights, {undetermined} undetermined"
    );
    assert!(games > 100, "{games}");
    assert_eq!(undetermined, 0);
}

/// Column draughts through check-position, claim mode and scan.
#[test]
fn column_draughts_in_every_mode() {
    // The forced loss of the unit tests: White cannot win, Black can.
    let (status, v) = common::json(&[
        "check-position",
        "--game-type",
        "column-draughts",
        "--fen",
        "W:c3=w,d4=b,f6=b,g7=b",
    ]);
    assert_eq!(status, 0);
    assert_eq!(v["white_can_win"], false, "{v}");
    assert_eq!(v["black_can_win"], true, "{v}");
    assert_eq!(v["dead"], false, "{v}");
    assert_eq!(v["helpmates"]["black"][0], "c3:e5", "{v}");
    let r = common::run(&[
        "check-position",
        "--game-type",
        "column-draughts",
        "--fen",
        "W:c3=w,d4=b,f6=b,g7=b",
    ]);
    assert!(
        r.stdout.contains("White cannot win by any sequence"),
        "{}",
        r.stdout
    );
    // A bad tower FEN is an error.
    let r = common::run(&[
        "check-position",
        "--game-type",
        "column-draughts",
        "--fen",
        "W:a2=w",
    ]);
    assert_eq!(r.status, 2);
    // A game: the claim report shows each side's chance.
    let r = common::run(&["fixtures/draughts/game.pdn", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["dead_check"]["dead"], false, "{v}");
    // Scan: no dead-position finding in a game where both can still win.
    let r = common::run(&[
        "scan",
        "fixtures/draughts",
        "--format",
        "jsonl",
        "--dead-search",
        "full",
    ]);
    assert!(!r.stdout.contains("dead-position"), "{}", r.stdout);
}
