//! A live board's record written out as PGN for the desk: the tags that
//! name the game and set its start, then the moves as the watch followed
//! them, numbered from the start position's move number.

use std::fmt::Write;

use crate::watch::schema::GameId;

/// The tags `Board` keeps in its setup string, in its order.
const SETUP_TAGS: [&str; 5] = ["FEN", "SetUp", "Variant", "GameType", "Date"];

/// A tag value with `\` and `"` escaped, as PGN asks.
fn quoted(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The record: `setup` is the watch's `FEN\0SetUp\0Variant\0GameType\0Date`.
pub(crate) fn pgn(id: &GameId, setup: Option<&str>, moves: &[String]) -> String {
    let mut s = String::new();
    let named = [
        ("Round", &id.round),
        ("Board", &id.board),
        ("White", &id.white),
        ("Black", &id.black),
    ];
    for (tag, value) in named {
        if let Some(v) = value {
            let _ = writeln!(s, "[{tag} \"{}\"]", quoted(v));
        }
    }
    let values: Vec<&str> = setup.map_or_else(Vec::new, |s| s.split('\u{0}').collect());
    let mut fen = None;
    for (tag, v) in SETUP_TAGS.iter().zip(&values) {
        if !v.is_empty() {
            let _ = writeln!(s, "[{tag} \"{}\"]", quoted(v));
            if *tag == "FEN" {
                fen = Some(*v);
            }
        }
    }
    if !s.is_empty() {
        s.push('\n');
    }
    // The start's move number and side from the FEN, when there is one.
    let fields: Vec<&str> = fen.map_or_else(Vec::new, |f| f.split_whitespace().collect());
    let black_first = fields.get(1) == Some(&"b");
    let mut number: u32 = fields
        .get(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
        .max(1);
    for (i, m) in moves.iter().enumerate() {
        let white = (i % 2 == 0) != black_first;
        if white {
            let _ = write!(s, "{number}. ");
        } else if i == 0 {
            let _ = write!(s, "{number}... ");
        }
        s.push_str(m);
        s.push(if i % 12 == 11 { '\n' } else { ' ' });
        if !white {
            number = number.saturating_add(1);
        }
    }
    s.push_str("*\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_written_back() {
        let id = GameId {
            index: 1,
            round: Some("5".into()),
            board: Some("3".into()),
            white: Some("A \"B\"".into()),
            black: None,
        };
        let moves: Vec<String> = ["e4", "e5", "Nf3"].map(String::from).to_vec();
        let text = pgn(&id, Some("\u{0}\u{0}\u{0}\u{0}2024.01.01"), &moves);
        assert_eq!(
            text,
            "[Round \"5\"]\n[Board \"3\"]\n[White \"A \\\"B\\\"\"]\n[Date \"2024.01.01\"]\n\n1. e4 e5 2. Nf3 *\n"
        );
        let fen = "8/8/8/8/8/8/8/K1k5 b - - 0 40\u{0}1\u{0}\u{0}\u{0}";
        let text = pgn(&GameId::none(), Some(fen), &moves[..2]);
        assert!(text.ends_with("\n\n40... e4 41. e5 *\n"), "{text}");
    }
}
