//! A game-agnostic description of a position, for diagrams: squares with
//! stacks of pieces, the side to move, and the rights that belong to the
//! identity of a position. Each game fills it in ([`super::Game::board`]);
//! the printers draw it without knowing which game it is.

use super::Side;

/// What a piece is, in either game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
    /// Draughts: a man.
    Man,
    /// Draughts: a king (a crowned man).
    Crowned,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub figure: Figure,
}

/// A right that makes two positions with the same pieces different.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Right {
    /// Chess: `side` may still castle with the rook on `square`.
    Castling { side: Side, square: usize },
    /// Chess: an en passant capture onto `square` is legal.
    EnPassant { square: usize },
}

impl Right {
    pub fn square(self) -> usize {
        match self {
            Right::Castling { square, .. } | Right::EnPassant { square } => square,
        }
    }
}

/// A position as a printer sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub files: usize,
    pub ranks: usize,
    /// Index `rank * files + file`, a1 first; each stack top first (empty:
    /// an empty square).
    pub squares: Vec<Vec<Piece>>,
    pub to_move: Side,
    pub rights: Vec<Right>,
    /// Only the dark squares are played on (draughts).
    pub dark_only: bool,
}

impl Board {
    /// An empty board of this size.
    pub fn empty(files: usize, ranks: usize, to_move: Side, dark_only: bool) -> Board {
        Board {
            files,
            ranks,
            squares: vec![Vec::new(); files * ranks],
            to_move,
            rights: Vec::new(),
            dark_only,
        }
    }

    /// "e4" for a square index.
    pub fn square_name(&self, sq: usize) -> String {
        let file = (b'a' + (sq % self.files.max(1)) as u8) as char;
        format!("{file}{}", sq / self.files.max(1) + 1)
    }

    /// a1 is dark in both games.
    pub fn is_dark(&self, sq: usize) -> bool {
        let f = self.files.max(1);
        (sq % f + sq / f).is_multiple_of(2)
    }

    /// The squares whose stacks differ between two boards of one size (the
    /// squares a move touched).
    pub fn changed(&self, other: &Board) -> Vec<usize> {
        (0..self.squares.len())
            .filter(|&s| other.squares.get(s) != Some(&self.squares[s]))
            .collect()
    }

    /// Rights held here and not in `other`.
    pub fn rights_not_in(&self, other: &Board) -> Vec<Right> {
        self.rights
            .iter()
            .copied()
            .filter(|r| !other.rights.contains(r))
            .collect()
    }

    /// The position in words for a caption: who is to move and the rights
    /// ("White to move; castling a1 h1 a8 h8; en passant c6").
    pub fn rights_words(&self) -> String {
        let mut castling = Vec::new();
        let mut ep = Vec::new();
        for r in &self.rights {
            match *r {
                Right::Castling { square, .. } => castling.push(self.square_name(square)),
                Right::EnPassant { square } => ep.push(self.square_name(square)),
            }
        }
        let mut out = format!("{} to move", self.to_move.title());
        if !castling.is_empty() {
            out.push_str(&format!("; castling with {}", castling.join(" ")));
        }
        if !ep.is_empty() {
            out.push_str(&format!("; en passant onto {}", ep.join(" ")));
        }
        out
    }
}

/// The chess board of a shakmaty position.
pub fn chess(pos: &shakmaty::Chess) -> Board {
    use shakmaty::{Color, EnPassantMode, Position, Role};
    let side = |c: Color| match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    };
    let mut b = Board::empty(8, 8, side(pos.turn()), false);
    for (sq, piece) in pos.board().clone() {
        let figure = match piece.role {
            Role::King => Figure::King,
            Role::Queen => Figure::Queen,
            Role::Rook => Figure::Rook,
            Role::Bishop => Figure::Bishop,
            Role::Knight => Figure::Knight,
            Role::Pawn => Figure::Pawn,
        };
        b.squares[usize::from(sq)] = vec![Piece {
            side: side(piece.color),
            figure,
        }];
    }
    for sq in pos.castles().castling_rights() {
        let owner = if sq.rank() == shakmaty::Rank::First {
            Side::White
        } else {
            Side::Black
        };
        b.rights.push(Right::Castling {
            side: owner,
            square: usize::from(sq),
        });
    }
    if let Some(sq) = pos.ep_square(EnPassantMode::Legal) {
        b.rights.push(Right::EnPassant {
            square: usize::from(sq),
        });
    }
    b
}

/// The column-draughts board: every tower, top first, on the dark squares.
pub fn column_draughts(pos: &super::column_draughts::Position) -> Board {
    use super::column_draughts::{file_of, rank_of};
    let mut b = Board::empty(8, 8, pos.turn, true);
    for (s, tower) in pos.towers.iter().enumerate() {
        let Ok(sq) = u8::try_from(s) else { continue };
        let (f, r) = (file_of(sq), rank_of(sq));
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

/// The boards of a record at the given plies (`None` where the record
/// cannot be replayed that far: an illegal move before it, a bad start
/// position). For scan reports: only games with findings are replayed.
pub fn record_boards(
    record: &crate::record::GameRecord<'_>,
    forced: Option<super::GameType>,
    column_rules: super::column_draughts::Rules,
    plies: &[usize],
) -> Vec<Option<Board>> {
    use super::GameType;
    match super::detect(record, forced) {
        Ok(GameType::Chess) => boards_of::<super::chess::ChessGame>(record, (), plies),
        Ok(GameType::ColumnDraughts) => {
            boards_of::<super::column_draughts::ColumnDraughts>(record, column_rules, plies)
        }
        Err(_) => vec![None; plies.len()],
    }
}

fn boards_of<G: super::Game>(
    record: &crate::record::GameRecord<'_>,
    variant: G::Variant,
    plies: &[usize],
) -> Vec<Option<Board>> {
    let mut out = vec![None; plies.len()];
    let Ok((mut pos, _)) = G::start_position(record, variant) else {
        return out;
    };
    let last = plies.iter().copied().max().unwrap_or(0);
    for p in 0..=last {
        for (i, &q) in plies.iter().enumerate() {
            if q == p {
                out[i] = Some(G::board(&pos));
            }
        }
        let Some(tok) = record.moves.get(p) else {
            break;
        };
        match G::parse_recorded(&pos, tok.text) {
            Ok(m) => {
                G::play(&mut pos, &m, 0);
            }
            Err(_) => break,
        }
    }
    out
}
