//! The tower FEN: a position of column draughts as text.
//!
//! ```text
//! W:a1=w,c1=w,e3=wb,d6=B,f8=bbw:0:12
//! │ │                          │ └ the move number (optional, default 1)
//! │ │                          └── plies since the material last changed (optional, default 0)
//! │ └ the towers, `square=stack`, the stack from top to bottom:
//! │   w white man, W white king, b black man, B black king
//! └ the side to move: W or B
//! ```
//!
//! PDN's FEN cannot describe towers, so a record of column draughts gives its
//! start position in this form in its `FEN` tag. Towers are written in square
//! order (a1, c1, e1, g1, b2, ...), so writing a parsed FEN gives it back
//! unchanged. A tower whose colours alternate more than once is refused.
//!
//! (Example: `src/tests/module_examples.rs`, `column_draughts_fen_round_trip`.)

use super::{Piece, Position, Rules, Tower, far_rank, parse_square, rank_of, square_name};
use crate::Side;

pub fn piece_char(p: Piece) -> char {
    match (p.side, p.king) {
        (Side::White, false) => 'w',
        (Side::White, true) => 'W',
        (Side::Black, false) => 'b',
        (Side::Black, true) => 'B',
    }
}

/// A tower's stack, top first: "wwb".
pub fn stack(t: &Tower) -> String {
    t.pieces().map(piece_char).collect()
}

/// Writes a position.
pub fn write(pos: &Position) -> String {
    let towers: Vec<String> = pos
        .towers
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.is_empty())
        .map(|(s, t)| format!("{}={}", square_name(s as u8), stack(t)))
        .collect();
    let side = if pos.turn == Side::White { "W" } else { "B" };
    format!("{side}:{}:{}:{}", towers.join(","), pos.clock, pos.fullmove)
}

/// Reads a position; errors say what is wrong.
/// The piece a stack letter stands for (`w`, `W`, `b`, `B`).
fn piece_of(c: char) -> Option<Piece> {
    let (side, king) = match c {
        'w' => (Side::White, false),
        'W' => (Side::White, true),
        'b' => (Side::Black, false),
        'B' => (Side::Black, true),
        _ => return None,
    };
    Some(Piece { side, king })
}

pub fn parse(text: &str, rules: Rules) -> Result<Position, String> {
    let bad = |why: &str| {
        format!("bad tower FEN \"{text}\": {why} (expected e.g. W:a1=w,c3=wb,d6=B:0:1)")
    };
    let fields: Vec<&str> = text.trim().split(':').collect();
    if fields.len() < 2 || fields.len() > 4 {
        return Err(bad(
            "it needs the side to move and the towers, separated by ':'",
        ));
    }
    let turn = match fields[0] {
        "W" | "w" => Side::White,
        "B" | "b" => Side::Black,
        _ => return Err(bad("the side to move must be W or B")),
    };
    let mut pos = Position::start(rules);
    pos.towers = [Tower::EMPTY; 32];
    pos.turn = turn;
    if !fields[1].trim().is_empty() {
        for item in fields[1].split(',') {
            let Some((sq, st)) = item.trim().split_once('=') else {
                return Err(bad(&format!("'{item}' is not square=stack")));
            };
            let Some(s) = parse_square(sq) else {
                return Err(bad(&format!("'{sq}' is not a dark square")));
            };
            if !pos.towers[s as usize].is_empty() {
                return Err(bad(&format!("{sq} is given twice")));
            }
            let mut pieces = Vec::new();
            for c in st.chars() {
                let Some(p) = piece_of(c) else {
                    return Err(bad(&format!("'{c}' in {item} is not w, W, b or B")));
                };
                pieces.push(p);
            }
            if pieces.is_empty() || pieces.len() > 24 {
                return Err(bad(&format!("the tower on {sq} must hold 1 to 24 pieces")));
            }
            let t = Tower::from_pieces(&pieces);
            if !t.is_valid() {
                return Err(bad(&format!(
                    "the tower on {sq} ({st}) alternates colours more than once, which no game can produce"
                )));
            }
            // A man that reaches the far rank is crowned there at once
            // (even mid-capture): none stands on it on top of a tower.
            if let Some(top) = t.top()
                && !top.king
                && rank_of(s) == far_rank(top.side)
            {
                return Err(bad(&format!(
                    "the man on top of {sq} stands on its last rank, where it would have been crowned (write {})",
                    if top.side == Side::White { 'W' } else { 'B' }
                )));
            }
            pos.towers[s as usize] = t;
        }
    }
    let count = |i: usize, default: u32, what: &str| -> Result<u32, String> {
        match fields.get(i) {
            None => Ok(default),
            Some(v) => v
                .trim()
                .parse()
                .map_err(|_| bad(&format!("the {what} '{v}' is not a number"))),
        }
    };
    pos.clock = count(2, 0, "move count")?;
    pos.fullmove = count(3, 1, "move number")?.max(1);
    let whites = pos
        .towers
        .iter()
        .flat_map(|t| t.pieces())
        .filter(|p| p.side == Side::White)
        .count();
    let blacks = pos
        .towers
        .iter()
        .flat_map(|t| t.pieces())
        .filter(|p| p.side == Side::Black)
        .count();
    if whites > 12 || blacks > 12 {
        return Err(bad("more than 12 pieces of one colour"));
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let start = Position::start(Rules::Standard);
        let text = write(&start);
        assert!(text.starts_with("W:a1=w,c1=w,e1=w,g1=w,b2=w"), "{text}");
        assert_eq!(parse(&text, Rules::Standard).unwrap(), start);
        assert_eq!(write(&parse(&text, Rules::Standard).unwrap()), text);
        for bad in [
            "X:a1=w",
            "W:a2=w",
            "W:a1=q",
            "W:a1=wbw",
            "W:a1=w,a1=b",
            "W",
            "W:a1=w:x",
            // An uncrowned man on top of a tower on its last rank.
            "W:b8=w",
            "B:a1=bw,h8=B",
        ] {
            assert!(parse(bad, Rules::Standard).is_err(), "{bad}");
        }
        // Crowned, or a man below the top: a position a game can reach.
        assert!(parse("W:b8=W,a1=Bw,c1=wb", Rules::Standard).is_ok());
        // Order does not matter on input; output is in square order.
        assert_eq!(
            write(&parse("B:h8=b,a1=W:3:9", Rules::Standard).unwrap()),
            "B:a1=W,h8=b:3:9"
        );
    }
}
