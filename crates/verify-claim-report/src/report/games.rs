//! `scan --per-game`: the per-game table ([`GameLine`], one row per game of
//! the input, in input order) as JSON lines or CSV, instead of the
//! findings. The columns are the fields of [`GameLine`], in its order.

use std::borrow::Cow;
use std::io::{self, Write};

use super::scan::csv_field;
use crate::claims::scan::Kind;
use crate::laws::GameResult;
use crate::scan::{GameLine, Needs, Row, Sink};

/// The columns, in their order (the CSV header; the JSON objects' keys).
pub const COLUMNS: [&str; 28] = [
    "file",
    "game",
    "line",
    "site",
    "event",
    "date",
    "round",
    "white",
    "black",
    "white_elo",
    "black_elo",
    "time_control",
    "eco",
    "termination",
    "result",
    "plies",
    "laws_result",
    "ended_by",
    "ended_ply",
    "result_agrees",
    "first_threefold_claimable_ply",
    "first_fifty_claimable_ply",
    "plies_after_first_claimable",
    "clock_white",
    "clock_black",
    "error",
    "error_ply",
    "findings",
];

/// The per-game table written to `out`: a sink that asks for each game's
/// row and writes nothing for the findings.
pub struct PerGame<W> {
    out: W,
    csv: bool,
    header: bool,
    line: Vec<u8>,
}

impl<W: Write> PerGame<W> {
    /// JSON lines, or CSV with a header when `csv`.
    pub fn new(out: W, csv: bool) -> PerGame<W> {
        PerGame {
            out,
            csv,
            header: false,
            line: Vec::new(),
        }
    }

    fn write_header(&mut self) -> io::Result<()> {
        if self.csv && !self.header {
            self.header = true;
            writeln!(self.out, "{}", COLUMNS.join(","))?;
        }
        Ok(())
    }
}

fn text(v: Option<&str>) -> Cow<'_, str> {
    Cow::Borrowed(v.unwrap_or(""))
}

fn num<T: ToString>(v: Option<T>) -> Cow<'static, str> {
    v.map_or(Cow::Borrowed(""), |v| Cow::Owned(v.to_string()))
}

/// The row's cells as CSV text, in [`COLUMNS`]' order (empty: null).
fn cells(g: &GameLine) -> [Cow<'_, str>; 28] {
    [
        Cow::Borrowed(&g.file),
        num(Some(g.game)),
        num(Some(g.line)),
        text(g.site()),
        text(g.event()),
        text(g.date()),
        text(g.round()),
        text(g.white()),
        text(g.black()),
        num(g.white_elo),
        num(g.black_elo),
        text(g.time_control()),
        text(g.eco()),
        text(g.termination()),
        text(g.result()),
        num(Some(g.plies)),
        text(g.laws_result.map(GameResult::name)),
        text(g.ended_by.map(Kind::name)),
        num(g.ended_ply),
        num(g.result_agrees),
        num(g.first_threefold_claimable_ply),
        num(g.first_fifty_claimable_ply),
        num(g.plies_after_first_claimable),
        num(g.clock_white),
        num(g.clock_black),
        text(g.error.as_deref()),
        num(g.error_ply),
        num(Some(g.findings)),
    ]
}

impl<W: Write> Sink for PerGame<W> {
    fn needs(&self) -> Needs {
        Needs {
            games: true,
            ..Needs::default()
        }
    }

    fn finding(&mut self, _row: &Row<'_>) -> io::Result<()> {
        Ok(())
    }

    fn game(&mut self, g: &GameLine) -> io::Result<()> {
        self.line.clear();
        if self.csv {
            self.write_header()?;
            for (i, cell) in cells(g).iter().enumerate() {
                if i > 0 {
                    self.line.push(b',');
                }
                csv_field(&mut self.line, cell)?;
            }
        } else {
            super::games_json::row(&mut self.line, g);
        }
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }

    fn finish(&mut self) -> io::Result<()> {
        self.write_header()?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csv_header_is_the_json_keys_in_order() {
        let row = GameLine::default();
        let json = serde_json::to_value(&row).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(keys, COLUMNS);
    }
}
