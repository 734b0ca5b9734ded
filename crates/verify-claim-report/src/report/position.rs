//! One checked position (`check-position`): the answer and its text
//! printer.

use crate::game::{DeadCheck, GameType, Search, Side, Win};

/// The answer for one position; its JSON form is `check-position --format
/// json`'s object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCheck {
    /// The position, written back in its game's FEN.
    pub fen: String,
    /// Checkmate, stalemate, no moves: the position ends the game as such.
    pub ending: Option<crate::game::Ending>,
    /// Dead (no side can mate), not dead, or `None` undetermined.
    pub dead: Option<bool>,
    /// Each side's chance, with a helpmate where one was found.
    pub check: DeadCheck,
    /// Only this side was asked about.
    pub side: Option<Side>,
    /// Move number and side to move, to number the helpmate lines.
    pub move_number: u32,
    /// The side to move.
    pub to_move: Side,
    /// The game: the printer's words ("checkmate", "win") and article.
    pub game_type: GameType,
}

impl PositionCheck {
    /// `{"search", "dead", "white_can_win", "black_can_win", "helpmates",
    /// "fen", "ending"}` (docs/dead-positions.md#check-position).
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = crate::report::json::dead_check(&self.check);
        v["dead"] = serde_json::json!(self.dead);
        v["fen"] = serde_json::json!(self.fen);
        v["ending"] = serde_json::json!(self.ending);
        v
    }

    /// The answer for people (`--format text`).
    pub fn to_text(&self) -> String {
        text(self)
    }
}

/// The position, whether it is dead, and each side's chance.
pub fn text(c: &PositionCheck) -> String {
    let mut s = format!("Position: {}\n", c.fen);
    s.push_str(&match (c.ending, c.dead) {
        (Some(e), _) => {
            format!("The position is {e}: not a dead position, the game is over as such.\n")
        }
        (None, _) if c.side.is_some() => String::new(),
        (None, Some(true)) => format!(
            "Dead: no sequence of legal moves leads to {}, for either side ({}).\n",
            c.game_type.win_words().2,
            // No game, no date: the newest edition's article.
            crate::laws::Rulebook::for_game(c.game_type, None, None)
                .0
                .ending_article(crate::game::Ending::InsufficientMaterial)
        ),
        (None, Some(false)) => "Not dead.\n".to_owned(),
        (None, None) => "Dead or not: undetermined (nothing is assumed).\n".to_owned(),
    });
    for ((side, win), end) in [(Side::White, &c.check.white), (Side::Black, &c.check.black)]
        .into_iter()
        .zip(&c.check.ends)
    {
        if c.side.is_none_or(|w| w == side) {
            s.push_str(&chance(c, side.title(), win, end));
        }
    }
    s
}

fn chance(c: &PositionCheck, name: &str, win: &Win, end: &Option<String>) -> String {
    let (mate, done, _) = c.game_type.win_words();
    match win {
        Win::Yes { helpmate } if helpmate.is_empty() => format!("  {name} has {done}.\n"),
        Win::Yes { helpmate } => format!(
            "  {name} can {mate}: {} (a helpmate){}\n",
            super::numbered_line(c.move_number, c.to_move, helpmate),
            super::line_end(end)
        ),
        Win::No => format!("  {name} cannot {mate} by any sequence of legal moves.\n"),
        Win::Undetermined if c.check.search == Search::Quick => format!(
            "  {name}: undetermined (the quick search only proves impossibility; try --dead-search full).\n"
        ),
        Win::Undetermined => format!("  {name}: undetermined.\n"),
    }
}
