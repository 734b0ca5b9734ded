//! Inputs: files, directories, standard input; decompression; and the
//! splitting of large inputs into chunks at game boundaries, so that one big
//! file can use every core.
//!
//! - [`select`]: the one game a claim is about, read as a stream (claim
//!   mode): only the stretch of text that holds it is kept.
//! - [`walk`]: the files a scan covers, in a fixed order.
//! - [`open`]: a reader that decompresses by extension (or magic bytes).
//! - [`chunks`]: a stream cut into chunks that each hold whole games.
//! - [`ranges`]: a plain file cut by the workers themselves.

pub mod chunks;
pub mod open;
pub mod ranges;
pub mod walk;

use std::io::{self, Read};

use crate::diag::{Diagnostic, Place, place_of};
use crate::record::pgn::SyntaxError;
use crate::record::{Encoding, GameRecord, Reader, boundary};

/// Part of an input: its bytes, the name to show in messages, and the
/// place of its first byte in the whole input.
pub struct Input {
    /// The name to show (`<stdin>` for `-`).
    pub name: String,
    /// The bytes (decompressed).
    pub bytes: Vec<u8>,
    /// The place of `bytes[0]` in the whole input.
    pub base: Place,
}

const START: Place = Place { line: 1, col: 1 };

impl Input {
    /// The place of byte `offset` of [`Input::bytes`] in the whole input.
    pub fn place(&self, offset: usize) -> Place {
        place_of(&self.bytes, offset, self.base)
    }

    /// An error at byte `offset`.
    pub fn diag(&self, offset: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(&self.name, Some(self.place(offset)), message)
    }
}

/// The game a claim is about: the stretch of the input that holds it.
pub struct Selected {
    /// The stretch of the input that holds the game.
    pub input: Input,
    /// 1-based index of the game in the input.
    pub index: usize,
    /// Games of the stretch before this one.
    skip: usize,
    encoding: Encoding,
}

impl Selected {
    /// The game's record (an error with its place if it cannot be read).
    pub fn record(&self) -> Result<GameRecord<'_>, Diagnostic> {
        let mut reader = Reader::new(&self.input.bytes, self.encoding);
        let mut game = None;
        for _ in 0..=self.skip {
            game = reader.next_game();
        }
        match game {
            Some(Ok(g)) => Ok(g),
            Some(Err(e)) => Err(self.input.diag(e.offset, e.message)),
            None => Err(self.input.diag(0, "the game is gone (the input changed?)")),
        }
    }

    /// Notes for the report: tags read as Latin-1, a missing termination
    /// marker (with its place).
    pub fn notes(&self, record: &GameRecord<'_>) -> Vec<String> {
        let mut notes = Vec::new();
        if record.latin1 {
            notes.push(match self.encoding {
                Encoding::Latin1 => "tag values read as Latin-1 (ISO 8859-1), as asked".to_owned(),
                _ => "tag values that are not UTF-8 were read as Latin-1 (ISO 8859-1); --encoding utf8 refuses them".to_owned(),
            });
        }
        if record.result.is_none() {
            let p = self.input.place(record.end);
            notes.push(format!(
                "the record has no termination marker (1-0, 0-1, 1/2-1/2 or *) at {}:{}",
                p.line, p.col
            ));
        }
        notes
    }
}

/// Games listed in the "choose one" message, at most.
const LISTED: usize = 100;

/// Reads the input at `path` (`-`: standard input, decompressed by name or
/// magic bytes) as a stream and keeps the game asked for (`wanted`, 1-based;
/// `None`: the only game). Memory: the stretch of text between two game
/// starts that holds the game, and a read buffer; not the whole input.
pub fn select(
    path: &str,
    encoding: Encoding,
    wanted: Option<usize>,
) -> Result<Selected, Diagnostic> {
    let name = if path == "-" { "<stdin>" } else { path };
    let reader =
        open::open(path).map_err(|e| Diagnostic::new(name, None, format!("cannot read: {e}")))?;
    select_from(name, reader, encoding, wanted)
}

/// [`select`] from any reader of a record's bytes, named `name` in
/// messages.
pub fn select_from<R: Read>(
    name: &str,
    reader: R,
    encoding: Encoding,
    wanted: Option<usize>,
) -> Result<Selected, Diagnostic> {
    let name = name.to_owned();
    let mut stretches = Stretches::new(reader);
    let mut total = 0;
    let mut first: Option<Selected> = None;
    let mut listing = String::new();
    let mut text_at: Option<Place> = None;
    loop {
        let (bytes, base) = match stretches.next() {
            Ok(Some(s)) => s,
            Ok(None) => break,
            Err((e, place)) => {
                return Err(Diagnostic::new(
                    &name,
                    Some(place),
                    format!("cannot read: {e}"),
                ));
            }
        };
        let input = Input {
            name: name.clone(),
            bytes,
            base,
        };
        if text_at.is_none() {
            text_at = first_text(&input);
        }
        let mut reader = Reader::new(&input.bytes, encoding);
        let mut here = 0;
        while let Some(game) = reader.next_game() {
            here += 1;
            if total + here <= LISTED {
                listing.push_str(&list_entry(total + here, &game));
            }
            if let Ok(g) = game {
                reader.recycle(g);
            }
        }
        let before = total;
        total += here;
        match wanted {
            Some(k) if k > before && k <= total => {
                return Ok(Selected {
                    input,
                    index: k,
                    skip: k - before - 1,
                    encoding,
                });
            }
            None if first.is_none() && here > 0 => {
                first = Some(Selected {
                    input,
                    index: 1,
                    skip: 0,
                    encoding,
                });
            }
            _ => {}
        }
    }
    match (wanted, total, first) {
        (None, 1, Some(s)) => Ok(s),
        (_, 0, _) => Err(no_game(&name, text_at)),
        (Some(k), n, _) => Err(Diagnostic::new(
            &name,
            None,
            format!("--game {k}: the file has {n} game(s)"),
        )),
        (None, n, _) => {
            if n > LISTED {
                listing.push_str(&format!("\n  … and {} more", n - LISTED));
            }
            Err(Diagnostic::new(
                &name,
                Some(START),
                format!("the file has {n} games; choose one with --game N:{listing}"),
            ))
        }
    }
}

fn list_entry(i: usize, game: &Result<GameRecord<'_>, SyntaxError>) -> String {
    match game {
        Ok(g) => format!(
            "\n  {i:>3}  {} – {}{}",
            g.tag("White").unwrap_or("?"),
            g.tag("Black").unwrap_or("?"),
            g.tag("Round")
                .map(|r| format!(", round {r}"))
                .unwrap_or_default()
        ),
        Err(e) => format!("\n  {i:>3}  (unreadable: {})", e.message),
    }
}

/// The place of the first byte that is not white space or the byte order
/// mark, if any.
fn first_text(input: &Input) -> Option<Place> {
    let b = &input.bytes;
    let from = if input.base == START && b.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let i = b[from..].iter().position(|c| !c.is_ascii_whitespace())?;
    Some(input.place(from + i))
}

/// An input with no game: where and why.
fn no_game(name: &str, text_at: Option<Place>) -> Diagnostic {
    match text_at {
        None => Diagnostic::new(name, Some(START), "empty input: no game in it"),
        Some(p) => Diagnostic::new(
            name,
            Some(p),
            "no game in the input: only comments (no tag, no move, no result)",
        ),
    }
}

/// How much is read at a time.
const READ: usize = 1 << 20;

/// A stream cut at game starts ([`boundary::is_game_start`]): the reader
/// reads every stretch alone exactly as it would read it in the whole input.
struct Stretches<R> {
    inner: R,
    buf: Vec<u8>,
    /// The place of `buf[0]` in the input.
    base: Place,
    /// No game start in `buf[1..searched]`.
    searched: usize,
    eof: bool,
}

impl<R: Read> Stretches<R> {
    fn new(inner: R) -> Stretches<R> {
        Stretches {
            inner,
            buf: Vec::new(),
            base: START,
            searched: 1,
            eof: false,
        }
    }

    /// The next stretch and the place of its first byte; an error with the
    /// place where reading stopped.
    #[allow(clippy::type_complexity)]
    fn next(&mut self) -> Result<Option<(Vec<u8>, Place)>, (io::Error, Place)> {
        loop {
            let from = self.searched.max(1);
            if let Some(i) = boundary::next_game_start(&self.buf, from, self.buf.len()) {
                let rest = self.buf.split_off(i);
                return Ok(Some(self.emit(rest)));
            }
            if self.eof {
                if self.buf.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.emit(Vec::new())));
            }
            // A game start near the end may need bytes not read yet.
            self.searched = self.buf.len().saturating_sub(256);
            let n = (&mut self.inner)
                .take(READ as u64)
                .read_to_end(&mut self.buf)
                .map_err(|e| (e, place_of(&self.buf, self.buf.len(), self.base)))?;
            self.eof = n == 0;
        }
    }

    fn emit(&mut self, rest: Vec<u8>) -> (Vec<u8>, Place) {
        let stretch = std::mem::replace(&mut self.buf, rest);
        let base = self.base;
        self.base = place_of(&stretch, stretch.len(), base);
        self.searched = 1;
        (stretch, base)
    }
}
