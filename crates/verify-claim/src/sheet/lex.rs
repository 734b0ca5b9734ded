//! A scoresheet's text as boxes: the tag lines at the top, then one box per
//! ply in the order written (row shapes, running text, empty boxes, draw
//! offer marks), and the result.
//!
//! Nothing here knows a notation: a box is its text and its place. The
//! shapes are those of issue 41 (`12. Nf3 Nc6`, `12 | Nf3 | Nc6`, tabs,
//! running text, bare rows); written by hand rather than with a grammar
//! crate because the shapes mix within one file and every box must keep its
//! line and column for the placed errors and the report.

use crate::diag::{Diagnostic, DiagnosticKind, Place};
use crate::laws::GameResult;

/// The longest game the Laws allow is under 6,000 moves (the 75-move rule,
/// 9.6.2, bounds it): a sheet of more rows is not one game's record, and
/// refusing it bounds the search's time and memory.
pub(super) const MAX_ROWS: usize = 6_000;
/// A sheet of more boxes than two a row of the longest game is not one
/// game's record either (running text has no rows to count).
pub(super) const MAX_BOXES: usize = 2 * MAX_ROWS;

/// One box of the sheet: what is written in it, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Cell {
    /// The text as written, marks (`+`, `!`, `(=)`) removed; empty for an
    /// empty box.
    pub text: String,
    /// The text exactly as written (for the report).
    pub raw: String,
    pub place: Place,
    /// A draw-offer mark `(=)` follows the move.
    pub offer: bool,
}

impl Cell {
    pub(super) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// A sheet read into boxes.
#[derive(Clone, Debug, Default)]
pub(super) struct Lexed {
    pub tags: Vec<(String, String)>,
    /// The line of each tag.
    pub tag_lines: Vec<u32>,
    pub boxes: Vec<Cell>,
    pub result: Option<GameResult>,
    /// The move number written on the first row, if any.
    pub first_number: Option<u32>,
}

/// What marks an empty box.
const EMPTY: &[&str] = &["-", "—", "–", "...", "…", "?", "..", "--"];
/// The results a sheet may end with, as written by hand (a `½` with a
/// hyphen or an en dash).
const RESULTS: &[(&str, GameResult)] = &[
    ("1-0", GameResult::WhiteWins),
    ("0-1", GameResult::BlackWins),
    ("1/2-1/2", GameResult::Draw),
    ("½-½", GameResult::Draw),
    ("½–½", GameResult::Draw),
    ("*", GameResult::Unfinished),
];

/// The text of the sheet: UTF-8, else Latin-1 (issue 41); control bytes
/// other than tab, CR, LF and form feed make it a binary file.
pub(super) fn decode(name: &str, bytes: &[u8]) -> Result<String, Diagnostic> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.trim_start_matches('\u{feff}').to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    };
    if let Some(at) = text
        .char_indices()
        .find(|(_, c)| c.is_control() && !matches!(c, '\t' | '\r' | '\n' | '\x0c'))
        .map(|(i, _)| i)
    {
        return Err(Diagnostic::new(
            DiagnosticKind::Syntax,
            name,
            Some(place_in(&text, at)),
            "a control character: this is a binary file, not a scoresheet",
        ));
    }
    Ok(text)
}

/// The place of byte `at` of `text`.
fn place_in(text: &str, at: usize) -> Place {
    let before = &text[..at];
    let line = before.matches('\n').count() as u32 + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    Place {
        line,
        col: before[start..].chars().count() as u32 + 1,
    }
}

/// A word of a line and its column.
struct Word<'a> {
    text: &'a str,
    col: u32,
}

/// Splits `line` at `seps`, keeping the empty pieces (cells) and columns.
fn split_keep<'a>(line: &'a str, seps: &[char]) -> Vec<Word<'a>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut start_col = 1u32;
    for (col, (i, c)) in (1u32..).zip(line.char_indices()) {
        if seps.contains(&c) {
            out.push(Word {
                text: &line[start..i],
                col: start_col,
            });
            start = i + c.len_utf8();
            start_col = col + 1;
        }
    }
    out.push(Word {
        text: &line[start..],
        col: start_col,
    });
    out
}

/// The words of `line` split at white space, with their columns.
fn words(line: &str) -> Vec<Word<'_>> {
    split_keep(line, &[' ', '\u{a0}', '\x0c'])
        .into_iter()
        .filter(|w| !w.text.is_empty())
        .collect()
}

/// A move-number label at the head of `w`: (number, black's `12...`, the
/// rest of the word). `0-0` is castling, not a label.
fn label(w: &str) -> Option<(u32, bool, &str)> {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 5 {
        return None;
    }
    let rest = &w[digits..];
    let marks = rest
        .char_indices()
        .take_while(|&(_, c)| matches!(c, '.' | ')' | '…'))
        .last()
        .map_or(0, |(i, c)| i + c.len_utf8());
    if marks == 0 && !rest.is_empty() {
        return None;
    }
    let number = w[..digits].parse().ok()?;
    let black = rest[..marks].contains("..") || rest[..marks].contains('…');
    Some((number, black, &rest[marks..]))
}

/// The sheet being built: its rows of boxes.
#[derive(Default)]
struct Rows {
    /// Each row: its line, its number label, its boxes.
    rows: Vec<(u32, Option<u32>, Vec<Cell>)>,
    numbered: bool,
    result: Option<(GameResult, Place)>,
    first_number: Option<u32>,
}

impl Rows {
    fn new_row(&mut self, line: u32) {
        self.rows.push((line, None, Vec::new()));
    }
    fn push(&mut self, cell: Cell) {
        if self.rows.is_empty() {
            self.new_row(cell.place.line);
        }
        if let Some(r) = self.rows.last_mut() {
            r.2.push(cell);
        }
    }
}

/// A box's text without the marks players add (`+`, `#`, `!`, `?`) and
/// with its draw-offer mark noted.
fn cell(raw: &str, place: Place) -> Cell {
    let mut t = raw.trim();
    let mut offer = false;
    if let Some(s) = t.strip_suffix("(=)") {
        t = s.trim_end();
        offer = true;
    }
    let text = if EMPTY.contains(&t) || t.is_empty() {
        ""
    } else {
        t.trim_end_matches(['+', '#', '!', '?', '†', '‡'])
    };
    Cell {
        text: text.to_owned(),
        raw: raw.trim().to_owned(),
        place,
        offer,
    }
}

/// Reads the sheet `text` (named `name`) into boxes.
pub(super) fn lex(name: &str, text: &str) -> Result<Lexed, Diagnostic> {
    let mut out = Lexed::default();
    let mut rows = Rows {
        numbered: text.lines().any(|l| {
            let l = l.trim_start();
            l.split([' ', '\t', '|']).next().and_then(label).is_some()
        }),
        ..Rows::default()
    };
    let mut in_tags = true;
    let mut comment = false;
    for (i, line) in text.lines().enumerate() {
        let n = i as u32 + 1;
        let err = |col: u32, m: String| {
            Diagnostic::new(
                DiagnosticKind::Syntax,
                name,
                Some(Place { line: n, col }),
                m,
            )
        };
        let trimmed = line.trim();
        if comment {
            comment = !trimmed.contains('}');
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with('%') || trimmed.starts_with(';') {
            continue;
        }
        if trimmed.starts_with('[') {
            if !in_tags {
                return Err(err(
                    1,
                    "a tag line after the moves: tags go at the top".into(),
                ));
            }
            out.tags.push(
                tag(trimmed)
                    .ok_or_else(|| err(1, "a tag line is written [Name \"value\"]".into()))?,
            );
            out.tag_lines.push(n);
            continue;
        }
        in_tags = false;
        if rows.result.is_some() {
            return Err(err(1, "moves after the result".into()));
        }
        if line.contains(['|', '\t']) {
            cells_line(&mut rows, line, n);
        } else {
            comment = words_line(&mut rows, line, n).map_err(|(c, m)| err(c, m))?;
        }
        if rows.rows.len() > MAX_ROWS {
            return Err(err(
                1,
                format!(
                    "more than {MAX_ROWS} rows: no game is this long (9.6.2), so this is not one game's scoresheet"
                ),
            ));
        }
        if rows.rows.iter().map(|r| r.2.len()).sum::<usize>() > MAX_BOXES {
            return Err(err(
                1,
                format!("more than {MAX_BOXES} moves: no game is this long (9.6.2)"),
            ));
        }
    }
    finish(name, rows, out)
}

/// The rows as one list of boxes: a row of one box that is not the last
/// had its second box left empty.
fn finish(name: &str, rows: Rows, mut out: Lexed) -> Result<Lexed, Diagnostic> {
    let count = rows.rows.len();
    for (i, (line, _, mut cells)) in rows.rows.into_iter().enumerate() {
        if cells.len() == 1 && i + 1 < count {
            cells.push(cell(
                "",
                Place {
                    line,
                    col: cells[0].place.col + cells[0].raw.chars().count() as u32,
                },
            ));
        }
        out.boxes.extend(cells);
    }
    // Boxes left empty after the last move written record nothing: the
    // sheet ends at its last move (what the game did after it is a gap
    // the sheet cannot fill).
    while out.boxes.last().is_some_and(Cell::is_empty) && out.boxes.len() > 1 {
        out.boxes.pop();
    }
    if out.boxes.iter().all(Cell::is_empty) {
        let place = out
            .boxes
            .first()
            .map_or(Place { line: 1, col: 1 }, |c| c.place);
        return Err(Diagnostic::new(
            DiagnosticKind::NoGame,
            name,
            Some(place),
            "no moves: a scoresheet holds the moves, one row per move number",
        ));
    }
    out.result = rows.result.map(|r| r.0);
    out.first_number = rows.first_number;
    Ok(out)
}

/// `[Name "value"]`.
fn tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (key, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((key.to_owned(), value.replace("\\\"", "\"")))
}

/// A row in cells: `12 | Nf3 | Nc6` or `12<TAB>Nf3<TAB>Nc6`.
fn cells_line(rows: &mut Rows, line: &str, n: u32) {
    let mut cells = split_keep(line, &['|', '\t']);
    while cells.len() > 1 && cells.first().is_some_and(|c| c.text.trim().is_empty()) {
        cells.remove(0);
    }
    rows.new_row(n);
    let mut first = true;
    let mut boxes = Vec::new();
    for c in cells {
        let t = c.text.trim();
        if first && let Some((num, _, "")) = label(t) {
            rows.first_number.get_or_insert(num);
            first = false;
            continue;
        }
        first = false;
        let lead = (c.text.len() - c.text.trim_start().len()) as u32;
        boxes.push(cell(
            t,
            Place {
                line: n,
                col: c.col + lead,
            },
        ));
    }
    while boxes.len() > 2 && boxes.last().is_some_and(Cell::is_empty) {
        boxes.pop();
    }
    for b in boxes {
        rows.push(b);
    }
}

/// A line of words: rows with numbers, running text or a bare row. Returns
/// whether a `{` comment goes on to the next line.
fn words_line(rows: &mut Rows, line: &str, n: u32) -> Result<bool, (u32, String)> {
    if !rows.numbered {
        rows.new_row(n);
    }
    let mut depth = 0usize;
    let mut comment = false;
    for w in words(line) {
        let place = Place {
            line: n,
            col: w.col,
        };
        let mut t = w.text;
        if comment {
            comment = !t.contains('}');
            continue;
        }
        if t.starts_with('{') {
            comment = !t.contains('}');
            continue;
        }
        if t.starts_with(';') {
            break;
        }
        if depth > 0 || (t.starts_with('(') && t != "(=)") {
            depth += t.matches('(').count();
            depth = depth.saturating_sub(t.matches(')').count());
            continue;
        }
        if t.starts_with('$') {
            continue;
        }
        if t == "(=)" {
            if let Some(last) = rows.rows.last_mut().and_then(|r| r.2.last_mut()) {
                last.offer = true;
            }
            continue;
        }
        if let Some((num, black, rest)) = label(t) {
            rows.first_number.get_or_insert(num);
            let same = rows.rows.last().is_some_and(|r| r.1 == Some(num));
            if !(black && same) {
                rows.new_row(n);
                if let Some(r) = rows.rows.last_mut() {
                    r.1 = Some(num);
                }
                if black {
                    rows.push(cell("", place));
                }
            }
            if rest.is_empty() {
                continue;
            }
            t = rest;
        }
        if let Some(&(_, result)) = RESULTS.iter().find(|r| r.0 == t) {
            rows.result = Some((result, place));
            continue;
        }
        if rows.result.is_some() {
            return Err((w.col, "moves after the result".into()));
        }
        rows.push(cell(t, place));
    }
    Ok(comment)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        lex("s", s)
            .unwrap()
            .boxes
            .into_iter()
            .map(|c| c.text)
            .collect()
    }

    #[test]
    fn shapes() {
        let want = ["e4", "e5", "Nf3", "Nc6"];
        for s in [
            "1. e4 e5\n2. Nf3 Nc6\n",
            "1 e4 e5\n2 Nf3 Nc6",
            "1) e4 e5\n2) Nf3 Nc6 1-0",
            "1 | e4 | e5\n2 | Nf3 | Nc6\n",
            "1\te4\te5\n2\tNf3\tNc6\n",
            "1. e4 e5 2. Nf3 Nc6",
            "1.e4 e5 2.Nf3\nNc6 *",
            "e4 e5\nNf3 Nc6",
            "[White \"A\"]\n\n1. e4 e5 {a comment} 2. Nf3+ (2. Bc4) Nc6!? 1/2-1/2",
        ] {
            assert_eq!(texts(s), want, "{s}");
        }
    }

    #[test]
    fn empty_boxes_and_marks() {
        assert_eq!(
            texts("1. e4 -\n2. Nf3 …\n3. ? Nc6\n4. | | d6"),
            ["e4", "", "Nf3", "", "", "Nc6", "", "d6"]
        );
        assert_eq!(texts("1 | e4 | \n2 | Nf3 | Nc6"), ["e4", "", "Nf3", "Nc6"]);
        assert_eq!(texts("1. e4\n2. Nf3 Nc6"), ["e4", "", "Nf3", "Nc6"]);
        assert_eq!(
            texts("1. e4 e5 2. Nf3 ... 3. Bb5"),
            ["e4", "e5", "Nf3", "", "Bb5"]
        );
        let l = lex("s", "1. e4 e5 (=) 2. Nf3(=)").unwrap();
        assert!(l.boxes[1].offer && l.boxes[2].offer && !l.boxes[0].offer);
        assert_eq!(texts("1. ... e5 2. Nf3"), ["", "e5", "Nf3"]);
    }

    #[test]
    fn bad_input_is_placed() {
        let e = lex("s", "").unwrap_err();
        assert_eq!(
            e.to_string(),
            "s:1:1: error: no moves: a scoresheet holds the moves, one row per move number"
        );
        let e = decode("s", b"1. e4\x00").unwrap_err();
        assert!(e.to_string().starts_with("s:1:6: error: a control"), "{e}");
        let e = lex("s", "1. e4 e5 1-0\n2. Nf3").unwrap_err();
        assert!(e.to_string().starts_with("s:2:1:"), "{e}");
        let big = "1. Nf3 Nf6\n".repeat(MAX_ROWS + 1);
        let e = lex("s", &big).unwrap_err();
        assert!(
            e.to_string().starts_with(&format!("s:{}:1:", MAX_ROWS + 1)),
            "{e}"
        );
        assert_eq!(decode("s", b"1. e4 \xe9").unwrap(), "1. e4 é");
    }
}
