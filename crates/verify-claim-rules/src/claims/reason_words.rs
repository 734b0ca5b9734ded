//! Why a claim fails ([`Reason`]) in the arbiter's words. Every printer
//! (text, HTML, JSON, PGN comments) renders reasons through here; the
//! counts with their nouns are [`crate::words`].

use std::fmt;

use crate::claims::Reason;
use crate::words::{moves_of_plies, plies, times};

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
                board_only,
            } => {
                write!(
                    f,
                    "{} counted{} ({}); the rule needs {needed}",
                    moves_of_plies(*n),
                    if *with_written {
                        " with the written move"
                    } else {
                        ""
                    },
                    plies(*n)
                )?;
                if let Some(article) = board_only {
                    write!(
                        f,
                        "; the count is claimed before moving ({article}): the written move does not count"
                    )?;
                }
                Ok(())
            }
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
            board_only: None,
        };
        assert_eq!(
            c.to_string(),
            "4.5 moves counted (9 plies); the rule needs 50 moves"
        );
    }
}
