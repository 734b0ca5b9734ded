//! The clocks a record gives at the claim point: the last `[%clk]`
//! comment after each player's move up to the claim (electronic boards
//! and online games write one after every move). The arbiter's report
//! shows them, with where they came from, instead of saying that a record
//! cannot show the clocks.

use serde::Serialize;

use crate::claims::Replay;
use crate::game::{Game, Side};
use crate::record::clock::command;

/// One player's clock as the record last wrote it before the claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reading {
    /// As written (`0:02:32`).
    pub clock: String,
    /// The ply after which it was written, and that move (`15.Ra1`).
    pub ply: usize,
    #[serde(rename = "move")]
    pub after: String,
}

/// Both players' readings; at least one is there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Clocks {
    /// White's last reading, if the record has one.
    pub white: Option<Reading>,
    /// Black's.
    pub black: Option<Reading>,
    /// Where the readings come from, in words.
    pub source: &'static str,
}

/// The source, as every printer words it.
pub const SOURCE: &str = "the record's [%clk] comments";

/// The last `[%clk]` of each side after its moves up to ply `ply`
/// (`bytes` the text the record was read from, `end` where the record
/// ends in it); `None` when the record has none.
pub fn at<G: Game>(replay: &Replay<G>, bytes: &[u8], end: usize, ply: usize) -> Option<Clocks> {
    let mut clocks = Clocks {
        white: None,
        black: None,
        source: SOURCE,
    };
    for p in (0..ply.min(replay.len())).rev() {
        if clocks.white.is_some() && clocks.black.is_some() {
            break;
        }
        let (Some(&from), to) = (replay.offsets.get(p), replay.offsets.get(p + 1)) else {
            continue;
        };
        let to = to.copied().unwrap_or(end).max(from);
        let text = String::from_utf8_lossy(bytes.get(from..to).unwrap_or_default());
        let slot = match G::side_to_move(&replay.position(p)) {
            Side::White => &mut clocks.white,
            Side::Black => &mut clocks.black,
        };
        if slot.is_none()
            && let Some(clock) = command(&text, "%clk")
        {
            *slot = Some(Reading {
                clock,
                ply: p + 1,
                after: replay.label(p + 1),
            });
        }
    }
    (clocks.white.is_some() || clocks.black.is_some()).then_some(clocks)
}

impl Clocks {
    /// "White 0:02:32 after 15.Ra1, Black 0:02:35 after 14...Qa3"; the
    /// clock of the player to move ran on after its reading.
    pub fn words(&self, to_move: Side) -> String {
        let one = |side: Side, r: &Option<Reading>| match r {
            Some(r) if side == to_move => format!(
                "{} {} after {} (running since)",
                side.title(),
                r.clock,
                r.after
            ),
            Some(r) => format!("{} {} after {}", side.title(), r.clock, r.after),
            None => format!("{}: none written", side.title()),
        };
        format!(
            "{}, {}",
            one(Side::White, &self.white),
            one(Side::Black, &self.black)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::chess::ChessGame;

    #[test]
    fn each_sides_last_clock_before_the_claim() {
        let text = "1. e4 {[%clk 0:03:00]} e5 {[%clk 0:02:58]} 2. Nf3 {[%clk 0:02:51]} Nc6 *";
        let mut reader = crate::record::pgn::Reader::new(text.as_bytes(), Default::default());
        let record = reader.next_game().expect("a game").expect("the record");
        let start = ChessGame::start_without_notes(&record, ()).expect("a start");
        let replay = Replay::<ChessGame>::new(start, &record.moves).expect("legal");
        let c = at(&replay, text.as_bytes(), record.end, 3).expect("clocks");
        assert_eq!(c.white.as_ref().map(|r| r.clock.as_str()), Some("0:02:51"));
        assert_eq!(
            c.black.as_ref().map(|r| (r.clock.as_str(), r.ply)),
            Some(("0:02:58", 2))
        );
        assert_eq!(
            c.words(Side::Black),
            "White 0:02:51 after 2.Nf3, Black 0:02:58 after 1...e5 (running since)"
        );
        assert_eq!(at(&replay, text.as_bytes(), record.end, 0), None);
    }
}
