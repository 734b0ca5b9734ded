//! Dead positions beyond chess's standard castling, through the CLI: column
//! draughts (1.11) in the three modes, and positions with more material
//! than the analyser can take. (Chess960 castling rights, which read the
//! analyser's boundary, are `src/tests/dead_chess960.rs`.)

use crate::common;

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
