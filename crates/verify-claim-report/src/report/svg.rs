//! Board diagrams as inline SVG, for any game's [`Board`]: chess pieces
//! (drawn once as symbols, placed with `<use>`) and column-draughts towers
//! (each square's stack, top piece first). One printer for both games.

use std::fmt::Write;

use crate::game::Side;
use crate::game::board::{Board, Figure, Piece};

/// The piece drawings, defined once per page and referenced by every
/// diagram. Chess: Colin M.L. Burnett's set as in python-chess (see the
/// file); draughts: discs and tower layers.
pub fn defs() -> String {
    let mut s = String::from(
        "<svg class=\"defs\" width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>\n",
    );
    s.push_str(include_str!("pieces.svg"));
    // The empty 8×8 board, drawn once.
    s.push_str("<symbol id=\"vc-sq8\" viewBox=\"0 0 80 80\"><rect width=\"80\" height=\"80\" fill=\"#f0d9b5\"/><path fill=\"#b58863\" d=\"");
    for sq in 0..64 {
        if (sq % 8 + sq / 8) % 2 == 0 {
            let _ = write!(s, "M{} {}h10v10h-10z", sq % 8 * 10, (7 - sq / 8) * 10);
        }
    }
    s.push_str("\"/></symbol>\n");
    for (id, fill, stroke) in [("w", "#fafafa", "#222"), ("b", "#2b2b2b", "#000")] {
        let _ = writeln!(
            s,
            "<symbol id=\"vc-d{id}\" viewBox=\"0 0 10 10\"><circle cx=\"5\" cy=\"5\" r=\"3.9\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\".5\"/><circle cx=\"5\" cy=\"5\" r=\"2.6\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\".3\"/></symbol>"
        );
        let up = id.to_uppercase();
        let _ = writeln!(
            s,
            "<symbol id=\"vc-d{up}\" viewBox=\"0 0 10 10\"><circle cx=\"5\" cy=\"5\" r=\"3.9\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\".5\"/><path d=\"M2.9 6.2 2.5 3.6 3.9 4.7 5 3 6.1 4.7 7.5 3.6 7.1 6.2z\" fill=\"#d4a017\" stroke=\"{stroke}\" stroke-width=\".25\"/></symbol>"
        );
    }
    s.push_str("</defs></svg>\n");
    s
}

/// What to mark on a diagram.
#[derive(Clone, Debug, Default)]
pub struct Marks {
    /// Squares the move that produced the position touched (tinted).
    pub moved: Vec<usize>,
    /// Squares where the position differs from the one it resembles
    /// (ringed): a castling right, an en passant capture.
    pub differ: Vec<usize>,
    /// The side to move differs (the to-move marker is ringed).
    pub turn_differs: bool,
}

fn piece_id(p: Piece) -> String {
    let side = match p.side {
        Side::White => 'w',
        Side::Black => 'b',
    };
    let letter = match p.figure {
        Figure::King => 'K',
        Figure::Queen => 'Q',
        Figure::Rook => 'R',
        Figure::Bishop => 'B',
        Figure::Knight => 'N',
        Figure::Pawn => 'P',
        Figure::Man => return format!("vc-d{side}"),
        Figure::Crowned => return format!("vc-d{}", side.to_ascii_uppercase()),
    };
    format!("vc-{side}{letter}")
}

/// One square's stack, top piece first: a single piece fills the square; a
/// tower is drawn as layers from top to bottom, kings with a gold band,
/// and its height in the corner.
fn stack(s: &mut String, x: usize, y: usize, pieces: &[Piece]) {
    match pieces {
        [] => {}
        [p] => {
            let _ = write!(
                s,
                "<use href=\"#{}\" x=\"{x}\" y=\"{y}\" width=\"10\" height=\"10\"/>",
                piece_id(*p)
            );
        }
        _ => {
            let n = pieces.len() as f32;
            let h = (9.0 / n).min(2.6);
            for (i, p) in pieces.iter().enumerate() {
                let top = y as f32 + 0.5 + i as f32 * h;
                let (fill, stroke) = match p.side {
                    Side::White => ("#fafafa", "#222"),
                    Side::Black => ("#2b2b2b", "#000"),
                };
                let _ = write!(
                    s,
                    "<rect x=\"{}\" y=\"{top:.2}\" width=\"7\" height=\"{:.2}\" rx=\".6\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\".3\"/>",
                    x as f32 + 0.8,
                    h * 0.92
                );
                if p.figure == Figure::Crowned {
                    let _ = write!(
                        s,
                        "<rect x=\"{}\" y=\"{:.2}\" width=\"3.6\" height=\"{:.2}\" fill=\"#d4a017\"/>",
                        x as f32 + 2.5,
                        top + h * 0.2,
                        h * 0.5
                    );
                }
            }
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" class=\"n\">{}</text>",
                x + 10,
                y + 6,
                pieces.len()
            );
        }
    }
}

/// A diagram, White at the bottom. `compact` leaves out the coordinates
/// (scan pages); `title` is the diagram's accessible name (escaped here).
pub fn board(b: &Board, marks: &Marks, title: &str, compact: bool) -> String {
    let (w, h) = (b.files * 10, b.ranks * 10);
    let mut s = String::with_capacity(1600);
    let (vx, vw, vh) = if compact {
        (0, w + 4, h)
    } else {
        (-6, w + 12, h + 6)
    };
    let _ = write!(
        s,
        "<svg class=\"board{}\" viewBox=\"{vx} 0 {vw} {vh}\" role=\"img\" aria-label=\"{}\"><title>{}</title>",
        if compact { " compact" } else { "" },
        super::page::Text(title),
        super::page::Text(title)
    );
    if (b.files, b.ranks) == (8, 8) {
        s.push_str("<use href=\"#vc-sq8\" width=\"80\" height=\"80\"/>");
    } else {
        let _ = write!(s, "<rect width=\"{w}\" height=\"{h}\" class=\"l\"/>");
        // The dark squares as one path.
        s.push_str("<path class=\"d\" d=\"");
        for sq in (0..b.squares.len()).filter(|&q| b.is_dark(q)) {
            let (x, y) = xy(b, sq);
            let _ = write!(s, "M{x} {y}h10v10h-10z");
        }
        s.push_str("\"/>");
    }
    for &sq in &marks.moved {
        let (x, y) = xy(b, sq);
        let _ = write!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"10\" height=\"10\" class=\"m\"/>"
        );
    }
    if compact {
        glyphs(&mut s, b);
    }
    for (sq, pieces) in b.squares.iter().enumerate() {
        if compact && pieces.len() == 1 && glyph(pieces[0]).is_some() {
            continue;
        }
        let (x, y) = xy(b, sq);
        stack(&mut s, x, y, pieces);
    }
    for &sq in &marks.differ {
        let (x, y) = xy(b, sq);
        let _ = write!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"9\" height=\"9\" class=\"x\"/>",
            x as f32 + 0.5,
            y as f32 + 0.5
        );
    }
    // Who is to move: a disc beside the board, at that side's edge.
    let (cy, fill) = match b.to_move {
        Side::White => (h - 3, "#fafafa"),
        Side::Black => (3, "#2b2b2b"),
    };
    let _ = write!(
        s,
        "<circle cx=\"{}\" cy=\"{cy}\" r=\"1.5\" fill=\"{fill}\" stroke=\"#000\" stroke-width=\".4\"/>",
        w + 2
    );
    if marks.turn_differs {
        let _ = write!(
            s,
            "<circle cx=\"{}\" cy=\"{cy}\" r=\"2.6\" class=\"x\"/>",
            w + 2
        );
    }
    if !compact {
        for f in 0..b.files {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" class=\"c\">{}</text>",
                f * 10 + 5,
                h as f32 + 3.3,
                (b'a' + f as u8) as char
            );
        }
        for r in 0..b.ranks {
            let _ = write!(
                s,
                "<text x=\"-3\" y=\"{}\" class=\"c\">{}</text>",
                h - r * 10 - 5,
                r + 1
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// Chess pieces as font glyphs (the filled set, painted in each side's
/// colour): one `<text>` per side, each glyph placed by its own x and y.
/// Scan pages draw thousands of compact diagrams; the vector pieces, as
/// `<use>` clones, cost Chromium minutes there.
fn glyphs(s: &mut String, b: &Board) {
    for side in [Side::White, Side::Black] {
        let (mut xs, mut ys, mut text) = (String::new(), String::new(), String::new());
        for (sq, pieces) in b.squares.iter().enumerate() {
            if let [p] = pieces.as_slice()
                && p.side == side
                && let Some(g) = glyph(*p)
            {
                let (x, y) = xy(b, sq);
                let _ = write!(xs, "{} ", x + 5);
                let _ = write!(ys, "{} ", y + 5);
                text.push(g);
            }
        }
        if !text.is_empty() {
            let _ = write!(
                s,
                "<text class=\"g {}\" x=\"{}\" y=\"{}\">{text}</text>",
                side.name(),
                xs.trim_end(),
                ys.trim_end()
            );
        }
    }
}

/// The filled chess glyph of a piece (U+265A–U+265F).
fn glyph(p: Piece) -> Option<char> {
    Some(match p.figure {
        Figure::King => '\u{265A}',
        Figure::Queen => '\u{265B}',
        Figure::Rook => '\u{265C}',
        Figure::Bishop => '\u{265D}',
        Figure::Knight => '\u{265E}',
        Figure::Pawn => '\u{265F}',
        Figure::Man | Figure::Crowned => return None,
    })
}

/// Top-left corner of a square, White at the bottom.
fn xy(b: &Board, sq: usize) -> (usize, usize) {
    let f = b.files.max(1);
    let (file, rank) = (sq % f, sq / f);
    (
        file * 10,
        (b.ranks.saturating_sub(1).saturating_sub(rank)) * 10,
    )
}

/// The towers of more than one piece in the tower FEN's letters, top
/// first ("g1 wbbB": white man on black men on a black king): the exact
/// composition, for print.
pub fn towers_legend(b: &Board) -> Vec<String> {
    let letter = |p: &Piece| match (p.side, p.figure) {
        (Side::White, Figure::Crowned) => 'W',
        (Side::White, _) => 'w',
        (Side::Black, Figure::Crowned) => 'B',
        (Side::Black, _) => 'b',
    };
    b.squares
        .iter()
        .enumerate()
        .filter(|(_, st)| st.len() > 1)
        .map(|(sq, st)| {
            format!(
                "{}\u{a0}{}",
                b.square_name(sq),
                st.iter().map(letter).collect::<String>()
            )
        })
        .collect()
}
