//! The start position of a chess record, from its `Variant`, `SetUp` and
//! `FEN` tags, and whether it is a Chess960 game.

use shakmaty::{CastlingMode, CastlingSide, Chess, Color, Position, Square, fen::Fen};

use crate::record::GameRecord;

/// The largest move number a FEN tag may give: move numbers are counted
/// in 32 bits (shakmaty's), and a game of the longest record claim mode
/// reads (64 MiB of text, under 12 million moves) stays far below 2^32
/// from it, so no label saturates.
pub(crate) const MAX_FEN_MOVE_NUMBER: u32 = 1_000_000_000;

/// How a chess record starts.
#[derive(Clone, Debug)]
pub struct Start {
    pub position: Chess,
    /// Chess960 (by the Variant tag, or by castling rights in the FEN).
    pub chess960: bool,
    /// The game starts from a FEN tag, not the standard position.
    pub from_fen: bool,
}

/// The start position of a record, from its `Variant`, `SetUp` and `FEN`
/// tags. Errors carry the offset of the tag at fault.
pub fn start_position(record: &GameRecord<'_>) -> Result<Start, (usize, String)> {
    let mut chess960 = false;
    if let Some(tag) = record.tag_entry("Variant") {
        let v = tag.value.trim().to_ascii_lowercase();
        match v.as_str() {
            "" | "standard" | "chess" | "normal" | "from position" | "fromposition" => {}
            "chess960"
            | "chess 960"
            | "960"
            | "fischerandom"
            | "fischer random"
            | "fischer random chess"
            | "frc"
            | "chess960 (fischerandom)" => chess960 = true,
            _ => {
                return Err((
                    tag.offset,
                    format!(
                        "variant '{}' is not chess under the FIDE Laws; verify-claim decides chess (standard and Chess960) and column draughts only",
                        tag.value
                    ),
                ));
            }
        }
    }
    let Some(fen_tag) = record.tag_entry("FEN") else {
        if chess960 {
            return Err((
                record.offset,
                "a Chess960 game needs a FEN tag with its start position".to_owned(),
            ));
        }
        return Ok(Start {
            position: Chess::default(),
            chess960: false,
            from_fen: false,
        });
    };
    let text = fen_tag.value.trim();
    let fen = Fen::from_ascii(text.as_bytes())
        .map_err(|e| (fen_tag.offset, format!("bad FEN \"{text}\": {e}")))?;
    let number = fen.as_setup().fullmoves.get();
    if number > MAX_FEN_MOVE_NUMBER {
        // As written: shakmaty saturates a larger number at 2^32 - 1.
        let written = text.split_ascii_whitespace().nth(5).unwrap_or_default();
        return Err((
            fen_tag.offset,
            format!(
                "FEN \"{text}\": move number {written} is over {MAX_FEN_MOVE_NUMBER}, the largest a record may start from (move numbers are counted in 32 bits, and no game comes near it)"
            ),
        ));
    }
    // Castling rights written as files (Shredder-FEN) or naming a rook that
    // is not the outermost mark a Chess960 game.
    if let Some(castling) = text.split_ascii_whitespace().nth(2)
        && castling
            .chars()
            .any(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c))
    {
        chess960 = true;
    }
    let position: Chess = fen
        .into_position(CastlingMode::Chess960)
        .map_err(|e| (fen_tag.offset, format!("bad FEN \"{text}\": {e}")))?;
    if !chess960 && is_chess960_castling(&position) {
        chess960 = true;
    }
    Ok(Start {
        position,
        chess960,
        from_fen: true,
    })
}

/// Castling rights with the king or a rook off its standard square.
fn is_chess960_castling(pos: &Chess) -> bool {
    let castles = pos.castles();
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if let Some(rook) = castles.rook(color, side) {
                let (king_sq, rook_sq) = match (color, side) {
                    (Color::White, CastlingSide::KingSide) => (Square::E1, Square::H1),
                    (Color::White, CastlingSide::QueenSide) => (Square::E1, Square::A1),
                    (Color::Black, CastlingSide::KingSide) => (Square::E8, Square::H8),
                    (Color::Black, CastlingSide::QueenSide) => (Square::E8, Square::A8),
                };
                if rook != rook_sq || pos.board().king_of(color) != Some(king_sq) {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Encoding, Reader};

    fn start_of(pgn: &str) -> Result<Start, (usize, String)> {
        let mut r = Reader::new(pgn.as_bytes(), Encoding::Utf8);
        let game = r.next_game().unwrap().unwrap();
        start_position(&game)
    }

    #[test]
    fn move_numbers_near_2_to_the_32_are_refused_at_the_fen_tag() {
        let e = start_of("[Event \"e\"]\n[FEN \"7k/8/8/8/8/8/8/K7 w - - 0 4294967295\"]\n\n*\n")
            .unwrap_err();
        assert_eq!(e.0, 12);
        assert!(
            e.1.contains("move number 4294967295 is over 1000000000"),
            "{}",
            e.1
        );
        // The number as written, not as saturated.
        let e = start_of("[FEN \"7k/8/8/8/8/8/8/K7 w - - 0 4294967296\"]\n\n*\n").unwrap_err();
        assert!(e.1.contains("move number 4294967296 is over"), "{}", e.1);
        let s = start_of("[FEN \"7k/8/8/8/8/8/8/K7 w - - 0 1000000000\"]\n\n*\n").unwrap();
        assert_eq!(s.position.fullmoves().get(), 1_000_000_000);
    }
}
