//! The chess board for diagrams ([`crate::game::Game::board`]): the pieces
//! of a shakmaty position, the castling rights and a legal en passant.

use crate::game::Side;
use crate::game::board::{Board, Figure, Piece, Right};

/// The chess board of a shakmaty position.
pub(super) fn of(pos: &shakmaty::Chess) -> Board {
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
