//! Column draughts as a [`Game`]: what the engine asks of a game, answered
//! from this module's parts.

use super::{
    ColumnDraughts, Move, Position, Rules, dead, fen, legal_moves, play, square_at, square_name,
};
use super::{full_hash, parse_move, play_hashed};
use crate::game::board::{Board, Figure, Piece};
use crate::game::{Difference, Ending, Game, GameType, MoveError, Search, Side, Win};
use crate::record::GameRecord;

fn rules_note(rules: Rules) -> Vec<String> {
    vec![match rules {
        Rules::Standard => "re-jump rule: a tower may be jumped at most once per move (the default reading)".to_owned(),
        Rules::Rejump => "re-jump rule: captures take effect at once and a tower may be jumped again (--column-rules rejump)".to_owned(),
    }]
}

impl Game for ColumnDraughts {
    type Position = Position;
    type Move = Move;
    type Variant = Rules;

    const TYPE: GameType = GameType::ColumnDraughts;

    fn start_position(
        record: &GameRecord<'_>,
        rules: Rules,
    ) -> Result<(Position, Vec<String>), (usize, String)> {
        let pos = Self::start_without_notes(record, rules)?;
        let mut notes = rules_note(rules);
        if record.tag_entry("FEN").is_some() {
            notes.push(format!(
                "the game starts from the position {}; positions before it are unknown and count for nothing",
                fen::write(&pos)
            ));
        }
        Ok((pos, notes))
    }

    fn start_without_notes(
        record: &GameRecord<'_>,
        rules: Rules,
    ) -> Result<Position, (usize, String)> {
        match record.tag_entry("FEN") {
            None => Ok(Position::start(rules)),
            Some(tag) => fen::parse(&tag.value, rules).map_err(|e| (tag.offset, e)),
        }
    }

    fn hash(pos: &Position) -> u64 {
        full_hash(pos)
    }

    fn play(pos: &mut Position, m: &Move, hash: u64) -> u64 {
        play_hashed(pos, m, hash)
    }

    fn legal_moves(pos: &Position) -> Vec<Move> {
        legal_moves(pos)
    }

    fn parse_recorded(pos: &Position, text: &str) -> Result<Move, MoveError> {
        parse_move(pos, text)
    }

    fn parse_written(pos: &Position, text: &str) -> Result<Move, MoveError> {
        parse_move(pos, text)
    }

    fn notation(_pos: &Position, m: &Move) -> String {
        m.to_string()
    }

    fn is_irreversible(_pos: &Position, _m: &Move) -> bool {
        // Kings move back and forth and captures only move pieces between
        // towers: nothing is provably irreversible, so the repetition
        // history keeps every position of the game (records are short).
        false
    }

    fn resets_count(pos: &Position, m: &Move) -> bool {
        let mut p = pos.clone();
        play(&mut p, m)
    }

    fn count_clock(pos: &Position) -> u32 {
        pos.clock
    }

    fn insufficient_material(_pos: &Position) -> bool {
        false
    }

    fn can_mate(pos: &Position, side: Side, search: Search) -> Win {
        dead::can_win(pos, side, search)
    }

    fn is_dead_playable(pos: &Position, search: Search) -> bool {
        dead::is_dead_playable(pos, search)
    }

    fn ending(pos: &Position) -> Option<Ending> {
        legal_moves(pos).is_empty().then_some(Ending::NoMoves)
    }

    fn side_to_move(pos: &Position) -> Side {
        pos.turn
    }

    fn move_number(pos: &Position) -> u32 {
        pos.fullmove
    }

    fn fen(pos: &Position) -> String {
        fen::write(pos)
    }

    fn board(pos: &Position) -> Board {
        board(pos)
    }

    fn from_fen(fen: &str, rules: Rules) -> Result<Position, String> {
        fen::parse(fen, rules)
    }

    fn diagram(pos: &Position) -> String {
        let mut out = String::new();
        let mut legend = Vec::new();
        for rank in (0..8i8).rev() {
            out.push_str(&format!("  {} ", rank + 1));
            for file in 0..8i8 {
                let cell = match square_at(file, rank) {
                    None => "  ".to_owned(),
                    Some(s) => {
                        let t = pos.towers[s as usize];
                        match t.top() {
                            None => " .".to_owned(),
                            Some(p) => {
                                if t.len() > 1 {
                                    legend.push(format!("{}={}", square_name(s), fen::stack(&t)));
                                }
                                format!(" {}", fen::piece_char(p))
                            }
                        }
                    }
                };
                out.push_str(&cell);
            }
            out.push('\n');
        }
        out.push_str("     a b c d e f g h\n");
        if !legend.is_empty() {
            out.push_str(&format!("  towers (top first): {}\n", legend.join(" ")));
        }
        out
    }

    fn difference(a: &Position, b: &Position) -> Option<Difference> {
        (a.towers == b.towers && a.turn != b.turn).then(|| Difference {
            reason: "the other side was to move".to_owned(),
        })
    }
}

/// The column-draughts board for diagrams: every tower, top first, on
/// the dark squares.
fn board(pos: &Position) -> Board {
    let mut b = Board::empty(8, 8, pos.turn, true);
    for (s, tower) in pos.towers.iter().enumerate() {
        let Ok(sq) = u8::try_from(s) else { continue };
        let (f, r) = (super::file_of(sq), super::rank_of(sq));
        if !(0..8).contains(&f) || !(0..8).contains(&r) {
            continue;
        }
        b.squares[r as usize * 8 + f as usize] = tower
            .pieces()
            .map(|p| Piece {
                side: p.side,
                figure: if p.king { Figure::Crowned } else { Figure::Man },
            })
            .collect();
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's dead-position answers for column draughts (the search
    /// itself is tested in the column-draughts crate).
    #[test]
    fn dead_check_through_the_game() {
        let pos = |t: &str| fen::parse(t, Rules::Standard).unwrap();
        let d = ColumnDraughts::dead_check(&pos("W:c3=w,d4=b,f6=b,g7=b"), Search::Full);
        assert_eq!(d.dead(), Some(false));
        // Black to move with no tower: a loss, not a dead position.
        assert!(!ColumnDraughts::is_dead(&pos("B:c3=wb"), Search::Full));
    }
}
