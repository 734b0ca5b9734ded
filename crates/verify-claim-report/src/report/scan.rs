//! Scan printers: one per format. Each gets the findings in input order.
//!
//! - `text`: grouped by file and game, colour on a terminal (not with
//!   `NO_COLOR`);
//! - `jsonl`: one JSON object per finding (schema in docs/scan.md#json-lines);
//! - `csv`: one row per finding, with a header;
//! - `github`: workflow annotations (`::error file=...,line=...::message`).

use std::io::{self, Write};

use serde::Serialize;

use crate::claims::scan::{Kind, Severity};
use crate::diag::Diagnostic;
use crate::output::escape;
use crate::scan::{Needs, Row, Sink, Summary};

/// A format: each item of the scan written to `out`. [`Printed`] makes one
/// a [`Sink`]. Printers say nothing on stderr (the CLI's sink does).
pub trait Printer {
    /// What the format needs of each game besides its findings.
    fn needs(&self) -> Needs {
        Needs::default()
    }
    fn finding(&mut self, row: &Row<'_>, out: &mut dyn Write) -> io::Result<()>;
    /// An input that could not be read, or held no game, with its place
    /// when it has one.
    fn input_error(&mut self, d: &Diagnostic, out: &mut dyn Write) -> io::Result<()> {
        let _ = (d, out);
        Ok(())
    }
    /// A path a walk left out.
    fn input_warning(&mut self, file: &str, message: &str, out: &mut dyn Write) -> io::Result<()> {
        let _ = (file, message, out);
        Ok(())
    }
    /// The scan's totals, told just before [`Printer::finish`].
    fn totals(&mut self, summary: &Summary) {
        let _ = summary;
    }
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let _ = out;
        Ok(())
    }
    /// What the format's chunk hook made of a chunk.
    fn chunk_text(&mut self, text: &[u8], out: &mut dyn Write) -> io::Result<()> {
        let _ = (text, out);
        Ok(())
    }
}

/// A printer writing to `out`: the sink the CLI drives.
pub struct Printed<P, W> {
    pub printer: P,
    pub out: W,
}

impl<P: Printer, W: Write> Sink for Printed<P, W> {
    fn needs(&self) -> Needs {
        self.printer.needs()
    }
    fn finding(&mut self, row: &Row<'_>) -> io::Result<()> {
        self.printer.finding(row, &mut self.out)
    }
    fn input_error(&mut self, d: &Diagnostic) -> io::Result<()> {
        self.printer.input_error(d, &mut self.out)
    }
    fn input_warning(&mut self, file: &str, message: &str) -> io::Result<()> {
        self.printer.input_warning(file, message, &mut self.out)
    }
    fn chunk_text(&mut self, text: &[u8]) -> io::Result<()> {
        self.printer.chunk_text(text, &mut self.out)
    }
    fn totals(&mut self, summary: &Summary) {
        self.printer.totals(summary)
    }
    fn finish(&mut self) -> io::Result<()> {
        self.printer.finish(&mut self.out)?;
        self.out.flush()
    }
}

/// The scan's output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanFormat {
    /// For people: grouped by file and game.
    Text {
        /// ANSI colours.
        colour: bool,
    },
    /// One JSON object per finding ([`FindingLine`]).
    Jsonl,
    /// One row per finding, with a header.
    Csv,
    /// GitHub workflow annotations, ending with a line that says what was
    /// left out below the severity the scan was given.
    Github(Severity),
    /// The input games written back, a comment at each finding at or above
    /// the severity.
    Pgn(Severity),
    /// One page with a diagram per finding.
    Html,
}

/// The sink that writes `format` to `out`.
pub fn printer<'a, W: Write + 'a>(format: ScanFormat, out: W) -> Box<dyn Sink + 'a> {
    fn boxed<'a, P: Printer + 'a, W: Write + 'a>(printer: P, out: W) -> Box<dyn Sink + 'a> {
        Box::new(Printed { printer, out })
    }
    match format {
        ScanFormat::Text { colour } => boxed(Text::new(colour), out),
        ScanFormat::Jsonl => boxed(Jsonl::default(), out),
        ScanFormat::Csv => boxed(Csv::new(), out),
        ScanFormat::Github(min) => boxed(Github::new(min), out),
        ScanFormat::Pgn(min) => boxed(super::pgn::Pgn::new(min), out),
        ScanFormat::Html => boxed(super::html_scan::Html::new(Default::default()), out),
    }
}

/// The HTML page's sink, its header saying what the run was
/// ([`ScanFormat::Html`] is the page with a default header).
pub fn html_printer<'a, W: Write + 'a>(head: super::html_scan::Head, out: W) -> Box<dyn Sink + 'a> {
    Box::new(Printed {
        printer: super::html_scan::Html::new(head),
        out,
    })
}

/// One finding as one JSON line: the documented schema (docs/scan.md#json-lines),
/// field for field and in this order. The library's scan yields
/// these, so a program reading `--format jsonl` and one calling
/// `crate::scan_bytes` see the same object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FindingLine {
    /// The input as named on the command line (`<stdin>` for `-`).
    pub file: String,
    /// 1-based game number in the file.
    pub game: usize,
    /// Line and column of the move (or error) in the file.
    pub line: u32,
    /// Plies played when the finding holds (0: the start position).
    pub ply: usize,
    /// What was found.
    pub kind: Kind,
    /// The player concerned (the one who may claim, the one who flagged).
    pub side: Option<crate::game::Side>,
    /// The move to write for a claim with a written move.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// One sentence for people, with the article.
    pub message: String,
    /// How much it matters (`--fail-on`).
    pub severity: Severity,
    /// Column of the move (or error), counting characters.
    pub column: u32,
    /// White as recorded.
    pub white: String,
    /// Black as recorded.
    pub black: String,
    /// For a result finding: the result recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<Option<String>>,
    /// For a result finding: the result the Laws give.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Option<String>>,
}

impl FindingLine {
    /// The line for a finding placed in its file.
    pub fn new(r: &Row<'_>) -> FindingLine {
        let f = &r.placed.finding;
        let result = f.kind == Kind::ResultMismatch || f.recorded.is_some();
        FindingLine {
            file: r.file.to_owned(),
            game: r.game,
            line: r.placed.place.line,
            ply: f.ply,
            kind: f.kind,
            side: f.side,
            mv: f.mv.clone(),
            message: f.message.clone(),
            severity: f.kind.severity(),
            column: r.placed.place.col,
            white: r.placed.white.clone(),
            black: r.placed.black.clone(),
            recorded: result.then(|| f.recorded.clone()),
            expected: result.then(|| f.expected.clone()),
        }
    }
}

/// JSON lines. Each line is serialized into `line` (kept from one to the
/// next), then written at once: serde_json writing through `dyn Write`
/// made one call per token: 1.6 times the instructions (callgrind).
#[derive(Default)]
pub struct Jsonl {
    line: Vec<u8>,
}

impl Printer for Jsonl {
    fn finding(&mut self, r: &Row<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.line.clear();
        serde_json::to_writer(&mut self.line, &FindingLine::new(r))?;
        self.line.push(b'\n');
        out.write_all(&self.line)
    }
}

pub struct Csv {
    header: bool,
}

impl Csv {
    pub fn new() -> Csv {
        Csv { header: false }
    }
}

impl Default for Csv {
    fn default() -> Csv {
        Csv::new()
    }
}

/// Writes one field, quoted (quotes doubled) when it holds a comma, a
/// quote or a line end; control characters shown escaped, and a cell a
/// spreadsheet would take for a formula made text (`escape::csv_cell`).
pub(crate) fn csv_field(out: &mut dyn Write, s: &str) -> io::Result<()> {
    let s = escape::text(s);
    let s = &*escape::csv_cell(&s);
    if s.contains([',', '"', '\n', '\r']) {
        out.write_all(b"\"")?;
        for (i, part) in s.split('"').enumerate() {
            if i > 0 {
                out.write_all(b"\"\"")?;
            }
            out.write_all(part.as_bytes())?;
        }
        out.write_all(b"\"")
    } else {
        out.write_all(s.as_bytes())
    }
}

impl Csv {
    fn write_header(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if !self.header {
            self.header = true;
            writeln!(
                out,
                "file,game,line,column,ply,kind,severity,side,move,recorded,expected,message"
            )?;
        }
        Ok(())
    }
}

impl Printer for Csv {
    fn finding(&mut self, r: &Row<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.write_header(out)?;
        let f = &r.placed.finding;
        csv_field(out, r.file)?;
        write!(
            out,
            ",{},{},{},{},{},{},{},",
            r.game,
            r.placed.place.line,
            r.placed.place.col,
            f.ply,
            f.kind.name(),
            f.kind.severity().name(),
            f.side.map_or("", |s| s.name())
        )?;
        for field in [
            f.mv.as_deref(),
            f.recorded.as_deref(),
            f.expected.as_deref(),
        ] {
            csv_field(out, field.unwrap_or(""))?;
            out.write_all(b",")?;
        }
        csv_field(out, &f.message)?;
        out.write_all(b"\n")
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.write_header(out)
    }
}

pub struct Github {
    min: Severity,
    by_kind: std::collections::BTreeMap<Kind, usize>,
}

impl Github {
    pub fn new(min: Severity) -> Github {
        Github {
            min,
            by_kind: Default::default(),
        }
    }
}

fn gh_escape(s: &str, property: bool) -> String {
    let mut t = escape::text(s)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    if property {
        t = t.replace(':', "%3A").replace(',', "%2C");
    }
    t
}

fn gh_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// Whether the lines of `file` are those of its decompressed text, not of
/// the file GitHub shows (named as compressed: `.zst`, `.gz`, `.bz2`).
fn compressed(file: &str) -> bool {
    crate::input::open::Compression::from_name(file).is_some()
}

impl Printer for Github {
    fn totals(&mut self, summary: &Summary) {
        self.by_kind.clone_from(&summary.by_kind);
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        github_summary(&self.by_kind, self.min, out)
    }

    fn finding(&mut self, r: &Row<'_>, out: &mut dyn Write) -> io::Result<()> {
        let f = &r.placed.finding;
        let level = gh_level(f.kind.severity());
        let (file, kind) = (gh_escape(r.file, true), gh_escape(f.kind.name(), true));
        let message = gh_escape(&f.message, false);
        let (line, col) = (r.placed.place.line, r.placed.place.col);
        if compressed(r.file) {
            // A line of the decompressed text would point into the
            // compressed file: the annotation names the game instead.
            return writeln!(
                out,
                "::{level} file={file},title={kind} in game {}::game {}, ply {} (line {line}, \
                 column {col} of the decompressed text): {message}",
                r.game, r.game, f.ply
            );
        }
        writeln!(
            out,
            "::{level} file={file},line={line},col={col},title={kind}::game {}, ply {}: {message}",
            r.game, f.ply
        )
    }

    fn input_error(&mut self, d: &Diagnostic, out: &mut dyn Write) -> io::Result<()> {
        let place = d
            .place
            .map(|p| format!(",line={},col={}", p.line, p.col))
            .unwrap_or_default();
        writeln!(
            out,
            "::error file={}{place},title=unreadable-input::{}",
            gh_escape(&d.file, true),
            gh_escape(&d.message, false)
        )
    }

    fn input_warning(&mut self, file: &str, message: &str, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "::warning file={},title=skipped-input::{}",
            gh_escape(file, true),
            gh_escape(message, false)
        )
    }
}

/// The line a `--format github` run ends with: the findings shown, and
/// those below `min` left out (they are counted in the exit status and
/// the summary all the same), with how to show them.
pub fn github_summary(
    by_kind: &std::collections::BTreeMap<Kind, usize>,
    min: Severity,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut counts = [0usize; 3];
    for (kind, n) in by_kind {
        counts[kind.severity() as usize] += n;
    }
    let words = ["notice", "warning", "error"];
    let count = |i: usize| {
        let s = if counts[i] == 1 { "" } else { "s" };
        format!("{} {}{s}", counts[i], words[i])
    };
    let shown: Vec<String> = (0..3)
        .rev()
        .filter(|&i| i >= min as usize)
        .map(count)
        .collect();
    let left: Vec<String> = (0..3)
        .rev()
        .filter(|&i| i < min as usize)
        .map(count)
        .collect();
    let left = if left.is_empty() {
        "nothing left out".to_owned()
    } else {
        format!(
            "left out: {} (below --min-severity {}; --min-severity info shows them)",
            left.join(", "),
            words[min as usize].replace("notice", "info")
        )
    };
    writeln!(
        out,
        "::notice title=verify-claim summary::shown: {}; {left}",
        shown.join(", ")
    )?;
    out.flush()
}

/// Text for people: a heading per file and per game.
pub struct Text {
    colour: bool,
    file: Option<String>,
    game: usize,
}

impl Text {
    pub fn new(colour: bool) -> Text {
        Text {
            colour,
            file: None,
            game: 0,
        }
    }

    fn paint(&self, code: &str, s: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
}

impl Printer for Text {
    fn finding(&mut self, r: &Row<'_>, out: &mut dyn Write) -> io::Result<()> {
        if self.file.as_deref() != Some(r.file) {
            if self.file.is_some() {
                writeln!(out)?;
            }
            writeln!(out, "{}", self.paint("1", &escape::field(r.file)))?;
            self.file = Some(r.file.to_owned());
            self.game = 0;
        }
        if self.game != r.game {
            self.game = r.game;
            writeln!(
                out,
                "  game {} ({} – {})",
                r.game,
                escape::field(&r.placed.white),
                escape::field(&r.placed.black)
            )?;
        }
        let f = &r.placed.finding;
        let (code, tag) = match f.kind.severity() {
            Severity::Error => ("31", "error"),
            Severity::Warning => ("33", "warning"),
            Severity::Info => ("36", "info"),
        };
        let extra = match (&f.recorded, &f.expected) {
            (Some(r), Some(e)) => format!(" [recorded {}, expected {e}]", escape::field(r)),
            (Some(r), None) => format!(" [recorded {}]", escape::field(r)),
            _ => String::new(),
        };
        writeln!(
            out,
            "    line {:<6} ply {:<4} {} {}: {}{extra}",
            r.placed.place.line,
            f.ply,
            self.paint(code, tag),
            f.kind.name(),
            escape::text(&f.message)
        )
    }
}
