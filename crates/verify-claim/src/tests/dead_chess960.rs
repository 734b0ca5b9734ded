//! Dead positions with Chess960 castling rights (moved from
//! tests/dead_more.rs: it reads the analyser's boundary directly).

use super::support;
use crate::game::chess::unwinnable::{Search, Win, can_mate, position_from_fen};
use shakmaty::{Color, Position};

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
#[cfg_attr(no_shared, ignore = "../shared is absent")]
fn tcec_chess960_games() {
    use crate::claims::Replay;
    use crate::game::{Game, chess::ChessGame};
    use crate::record::{Encoding, Reader};

    let Some(shared) = support::shared() else {
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
