//! The examples that were the internal modules' doc tests: the modules are
//! private, so rustdoc no longer runs them; each is a test here, named in
//! its module's documentation.

#[test]
fn column_draughts_notation() {
    use crate::game::{
        Game,
        column_draughts::{ColumnDraughts, Position},
    };
    let start = Position::start(Default::default());
    assert_eq!(ColumnDraughts::legal_moves(&start).len(), 7);
    let m = ColumnDraughts::parse_recorded(&start, "c3-d4").unwrap();
    assert_eq!(ColumnDraughts::notation(&start, &m), "c3-d4");
}

#[test]
fn column_draughts_fen_round_trip() {
    use crate::game::column_draughts::{Rules, fen};
    let p = fen::parse("B:c3=wb,d6=B,h8=bw:4:20", Rules::Standard).unwrap();
    assert_eq!(fen::write(&p), "B:c3=wb,d6=B,h8=bw:4:20");
    assert!(fen::parse("W:c3=wbw", Rules::Standard).is_err());
}

#[test]
fn chess_written_moves_in_russian_letters() {
    use crate::game::{Game, chess::ChessGame};
    use shakmaty::Chess;
    let pos = Chess::default();
    let m = ChessGame::parse_written(&pos, "Кf3").unwrap(); // Russian piece letters
    assert_eq!(ChessGame::notation(&pos, &m), "Nf3");
}

#[test]
fn chess_pawn_wall_is_dead() {
    use crate::game::chess::unwinnable::{Search, Win, can_mate};
    use shakmaty::{CastlingMode, Chess, Color, fen::Fen};
    // A pawn wall with kings only: dead.
    let pos: Chess = Fen::from_ascii(b"8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1")
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    assert_eq!(can_mate(&pos, Color::White, Search::Full), Win::No);
}

#[test]
fn record_reader_reads_tags_moves_result() {
    use crate::record::{Encoding, Reader};
    let pgn = b"[White \"A\"]\n\n1. e4 {best} e5 2. Nf3 1-0\n";
    let mut reader = Reader::new(pgn, Encoding::Utf8);
    let game = reader.next_game().unwrap().unwrap();
    assert_eq!(game.tag("White"), Some("A"));
    let moves: Vec<&str> = game.moves.iter().map(|m| m.text).collect();
    assert_eq!(moves, ["e4", "e5", "Nf3"]);
    assert_eq!(game.result.map(|r| r.text), Some("1-0"));
}
