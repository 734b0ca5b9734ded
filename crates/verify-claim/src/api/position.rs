//! Checking one position: can either side still checkmate (chess: 5.2.2,
//! 6.9), or still win (column draughts: 1.11)?

use crate::diag::{Diagnostic, DiagnosticKind};
use crate::game::column_draughts;
use crate::game::{DeadCheck, Ending, Game, GameType, Search, Side, Win, WithGame};
pub use crate::report::position::PositionCheck;

/// How to check a position. The default: chess, the full search, both sides.
#[derive(Clone, Copy, Debug)]
pub struct PositionOptions {
    /// How hard to look (the quick test only ever proves impossibility).
    pub search: Search,
    /// Only this side; `None`: both.
    pub side: Option<Side>,
    /// The game the FEN is of (column draughts: the tower FEN).
    pub game_type: GameType,
    /// Column draughts: the reading of the re-jump rule.
    pub column_rules: column_draughts::Rules,
}

impl Default for PositionOptions {
    fn default() -> PositionOptions {
        PositionOptions {
            search: Search::Full,
            side: None,
            game_type: GameType::Chess,
            column_rules: column_draughts::Rules::Standard,
        }
    }
}

/// Checks the position `fen`. A FEN that cannot be read is a [`Diagnostic`]
/// naming `--fen`.
pub fn check_position(fen: &str, opts: &PositionOptions) -> Result<PositionCheck, Diagnostic> {
    let work = Check { fen, opts };
    crate::game::dispatch(opts.game_type, opts.column_rules, work)
        .map_err(|m| Diagnostic::new(DiagnosticKind::Syntax, "--fen", None, m))
}

/// One position, checked by the engine of its game.
struct Check<'a> {
    fen: &'a str,
    opts: &'a PositionOptions,
}

impl WithGame for Check<'_> {
    type Output = Result<PositionCheck, String>;
    fn with<G: Game>(self, variant: G::Variant) -> Self::Output {
        Ok(check::<G>(&G::from_fen(self.fen, variant)?, self.opts))
    }
}

fn check<G: Game>(pos: &G::Position, opts: &PositionOptions) -> PositionCheck {
    let wanted = |s: Side| opts.side.is_none_or(|w| w == s);
    let can = |s: Side| match wanted(s) {
        true => G::can_mate(pos, s, opts.search),
        false => Win::Undetermined,
    };
    let check = DeadCheck {
        search: opts.search,
        white: can(Side::White),
        black: can(Side::Black),
        ends: Default::default(),
    }
    .shown::<G>(pos);
    let ending = G::ending(pos);
    let over = matches!(
        ending,
        Some(Ending::Checkmate | Ending::Stalemate | Ending::NoMoves)
    );
    PositionCheck {
        fen: G::fen(pos),
        ending,
        dead: if over { Some(false) } else { check.dead() },
        check,
        side: opts.side,
        move_number: G::move_number(pos),
        to_move: G::side_to_move(pos),
        game_type: G::TYPE,
    }
}
