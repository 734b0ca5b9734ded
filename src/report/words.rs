//! The arbiter's words: counts with their nouns ("1 move", "2 times",
//! "4.5 moves"), and why a claim fails ([`Reason`]) as a sentence. Every
//! printer (text, HTML, JSON, PGN comments) renders reasons through here.

use std::fmt;

use crate::claims::Reason;

/// `n` with its noun, singular for exactly one: "1 ply", "9 plies".
pub fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        _ => format!("{n} {many}"),
    }
}

/// "2 times", "1 time".
pub fn times(n: usize) -> String {
    count(n, "time", "times")
}

/// "9 plies", "1 ply".
pub fn plies(n: u32) -> String {
    count(n as usize, "ply", "plies")
}

/// Plies as moves by each player: "4.5 moves", "1 move", "0 moves".
pub fn moves_of_plies(n: u32) -> String {
    if n.is_multiple_of(2) {
        count((n / 2) as usize, "move", "moves")
    } else {
        format!("{}.5 moves", n / 2)
    }
}

/// "1 move", "3 moves".
pub fn moves(n: usize) -> String {
    count(n, "move", "moves")
}

/// "1 game", "1110 games".
pub fn games(n: usize) -> String {
    count(n, "game", "games")
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::GameOver(over) => write!(
                f,
                "the game had already ended at ply {} by {} ({}); no claim can be made after that",
                over.ply,
                over.reason.name(),
                over.article
            ),
            Reason::WrongSide { claimant, article } => write!(
                f,
                "the claim is refused: {} did not have the move ({} had it); only the player having the move may claim ({article}), so no draw claim was made: no penalty follows, and no written move of {}'s belongs to it",
                claimant.other().title(),
                claimant.title(),
                claimant.title(),
            ),
            Reason::TooFewRepetitions {
                on_board,
                with_written,
                needed,
            } => {
                write!(
                    f,
                    "the position on the board has stood {}",
                    times(*on_board)
                )?;
                if let Some(w) = with_written {
                    write!(
                        f,
                        " and the position after the written move would stand {}",
                        times(*w)
                    )?;
                }
                write!(f, "; {} are needed", number_word(*needed))
            }
            Reason::CountShort {
                plies: n,
                with_written,
                needed,
            } => write!(
                f,
                "{} counted{} ({}); the rule needs {needed}",
                moves_of_plies(*n),
                if *with_written {
                    " with the written move"
                } else {
                    ""
                },
                plies(*n)
            ),
        }
    }
}

/// Small counts in words ("three are needed").
fn number_word(n: usize) -> String {
    match n {
        2 => "two".to_owned(),
        3 => "three".to_owned(),
        5 => "five".to_owned(),
        n => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_their_noun_in_the_singular_for_one() {
        assert_eq!(times(1), "1 time");
        assert_eq!(times(2), "2 times");
        assert_eq!(plies(1), "1 ply");
        assert_eq!(plies(9), "9 plies");
        assert_eq!(moves_of_plies(9), "4.5 moves");
        assert_eq!(moves_of_plies(2), "1 move");
        assert_eq!(moves_of_plies(1), "0.5 moves");
        assert_eq!(moves_of_plies(0), "0 moves");
        assert_eq!(games(1), "1 game");
        assert_eq!(games(1110), "1110 games");
    }

    #[test]
    fn a_short_repetition_reads_without_parentheses() {
        let r = Reason::TooFewRepetitions {
            on_board: 2,
            with_written: Some(1),
            needed: 3,
        };
        assert_eq!(
            r.to_string(),
            "the position on the board has stood 2 times and the position after the written move would stand 1 time; three are needed"
        );
        let c = Reason::CountShort {
            plies: 9,
            with_written: false,
            needed: "50 moves",
        };
        assert_eq!(
            c.to_string(),
            "4.5 moves counted (9 plies); the rule needs 50 moves"
        );
    }
}
