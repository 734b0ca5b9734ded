//! The helpmate lines `check-position` and `claim --explain` show: the
//! analyser's line shortened (`game/chess/unwinnable/shorten.rs` in the
//! rules crate), with the position it ends in. Through the API, so here,
//! above the rules.

use crate::game::Win;
use shakmaty::{Chess, Position, san::SanPlus};

#[test]
fn check_position_shows_the_short_line_and_where_it_ends() {
    let opts = crate::PositionOptions::default();
    let c = crate::check_position("8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1", &opts).unwrap();
    // The verdicts are the analyser's; only the lines are shorter.
    assert_eq!(c.dead, Some(false));
    let Win::Yes { helpmate } = &c.check.white else {
        panic!("{c:?}")
    };
    assert!(helpmate.len() <= 30, "{helpmate:?}");
    let end = c.check.ends[0].as_deref().unwrap();
    let mut p = Chess::default();
    p = crate::game::chess::unwinnable::position_from_fen("8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1")
        .unwrap_or(p);
    for san in helpmate {
        let m = san.parse::<SanPlus>().unwrap().san.to_move(&p).unwrap();
        p.play_unchecked(m);
    }
    let fen = shakmaty::fen::Fen::from_position(&p, shakmaty::EnPassantMode::Legal);
    assert_eq!(end, fen.to_string());
    let text = c.to_text();
    assert!(
        text.contains(&format!("(a helpmate); it ends in {end}\n")),
        "{text}"
    );
    // The JSON's shape is as before: the lines, no end position.
    let json = c.to_json();
    assert_eq!(json["helpmates"]["white"], serde_json::json!(helpmate));
    assert!(json.get("ends").is_none(), "{json}");
}

#[test]
fn claim_explain_shows_the_short_line_and_where_it_ends() {
    let pgn = b"[FEN \"8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kd1 Kd7 *\n";
    let mut r = crate::decide("kn.pgn", pgn, &Default::default()).unwrap();
    r.explain = true;
    let text = r.to_text();
    let d = &r.verdict.dead_check;
    assert_eq!(d.dead(), Some(false));
    for (name, win, end) in [
        ("White", &d.white, &d.ends[0]),
        ("Black", &d.black, &d.ends[1]),
    ] {
        let Win::Yes { helpmate } = win else {
            panic!("{d:?}")
        };
        assert!(
            helpmate.len() <= 36,
            "{name}: {} plies: {helpmate:?}",
            helpmate.len()
        );
        let end = end.as_deref().unwrap();
        assert!(text.contains(&format!("#; it ends in {end}\n")), "{text}");
    }
}
