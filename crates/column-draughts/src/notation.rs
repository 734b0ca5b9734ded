//! Notation: a move as text (`c3-d4`, `c3:e5:g3`), reading one, and why a
//! move that does not read is illegal.

use std::fmt;

use super::{Move, Position, Square, legal_moves, parse_square, rank_of, square_name};
use crate::{MoveError, Side};

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { ":" } else { "-" };
        let names: Vec<String> = self.path().iter().map(|&s| square_name(s)).collect();
        f.write_str(&names.join(sep))
    }
}

/// Explains why a written or recorded move is not legal, naming the rule.
fn explain(
    pos: &Position,
    text: &str,
    squares: &[Square],
    capture: bool,
    legal: &[Move],
) -> MoveError {
    let from = squares[0];
    let Some(top) = pos.towers[from as usize].top() else {
        return MoveError::Illegal(format!(
            "'{text}' is illegal: there is no tower on {}",
            square_name(from)
        ));
    };
    if top.side != pos.turn {
        return MoveError::Illegal(format!(
            "'{text}' is illegal: the tower on {} is {}'s, and {} is to move",
            square_name(from),
            top.side.title(),
            pos.turn.title()
        ));
    }
    let any_capture = legal.first().is_some_and(Move::is_capture);
    let list = |ms: Vec<&Move>| {
        ms.iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !capture && any_capture {
        return MoveError::Illegal(format!(
            "'{text}' is illegal: capturing is compulsory (possible: {})",
            list(legal.iter().collect())
        ));
    }
    if capture {
        // A capture stopped while it could go on.
        let longer: Vec<&Move> = legal
            .iter()
            .filter(|m| m.path().len() > squares.len() && m.path().starts_with(squares))
            .collect();
        if !longer.is_empty() {
            return MoveError::Illegal(format!(
                "'{text}' is illegal: a started capture must be completed (it goes on: {})",
                list(longer)
            ));
        }
        // A king landing where the capture cannot continue when it could.
        if top.king || squares.len() > 2 {
            let same_start: Vec<&Move> = legal.iter().filter(|m| m.from() == from).collect();
            if !same_start.is_empty() {
                return MoveError::Illegal(format!(
                    "'{text}' is illegal: no capture follows that path (a king must land where the capture can go on, if it can; the captures from {} are: {})",
                    square_name(from),
                    list(same_start)
                ));
            }
        }
        return MoveError::Illegal(format!(
            "'{text}' is illegal: no capture from {} follows that path{}",
            square_name(from),
            if any_capture {
                format!(" (possible: {})", list(legal.iter().collect()))
            } else {
                " (there is nothing to capture)".to_owned()
            }
        ));
    }
    let to = squares[squares.len() - 1];
    if !top.king {
        let forward = if pos.turn == Side::White { 1 } else { -1 };
        if (rank_of(to) - rank_of(from)).signum() == -forward {
            return MoveError::Illegal(format!(
                "'{text}' is illegal: a man moves only forward (it captures backward, but steps forward)"
            ));
        }
        return MoveError::Illegal(format!(
            "'{text}' is illegal: a man steps one square diagonally forward to an empty square"
        ));
    }
    MoveError::Illegal(format!(
        "'{text}' is illegal: a king moves along a diagonal over empty squares, and {} is not such a square from {}",
        square_name(to),
        square_name(from)
    ))
}

/// Reads `c3-d4`, `c3:e5:g3`, or `c3:g3` (ends only, when unambiguous).
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let t = text.trim();
    let capture = t.contains(':') || t.contains('x');
    let parts: Vec<&str> = t.split([':', '-', 'x']).collect();
    let squares: Option<Vec<Square>> = parts.iter().map(|p| parse_square(p)).collect();
    let Some(squares) = squares.filter(|s| s.len() >= 2) else {
        return Err(MoveError::Syntax(format!(
            "'{text}' is not a column-draughts move (write c3-d4, or c3:e5:g3 for a capture)"
        )));
    };
    if capture && t.contains('-') {
        return Err(MoveError::Syntax(format!("'{text}' mixes '-' and ':'")));
    }
    let legal = legal_moves(pos);
    let exact: Vec<&Move> = legal
        .iter()
        .filter(|m| m.path() == squares && m.is_capture() == capture)
        .collect();
    if let [m] = exact.as_slice() {
        return Ok((*m).clone());
    }
    if capture && squares.len() == 2 {
        let ends: Vec<&Move> = legal
            .iter()
            .filter(|m| m.is_capture() && m.from() == squares[0] && m.to() == squares[1])
            .collect();
        match ends.as_slice() {
            [m] => return Ok((*m).clone()),
            [] => {}
            many => {
                let paths: Vec<String> = many.iter().map(|m| m.to_string()).collect();
                return Err(MoveError::Ambiguous(format!(
                    "'{text}' is ambiguous: several capture paths join those squares: {}",
                    paths.join(", ")
                )));
            }
        }
    }
    Err(explain(pos, text, &squares, capture, &legal))
}
