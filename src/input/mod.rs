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

    /// Game `j` (0-based) of a chunk of whole games placed at `base`:
    /// only the stretch between two game starts that holds it is copied.
    fn in_chunk(
        name: &str,
        chunk: &[u8],
        base: Place,
        mut j: usize,
        index: usize,
        encoding: Encoding,
    ) -> Selected {
        let mut from = 0;
        loop {
            let rest = &chunk[from..];
            let len = boundary::next_game_start(rest, 1, rest.len()).unwrap_or(rest.len());
            let n = count_games(&rest[..len], encoding, |_, _| {});
            if j < n || from + len == chunk.len() {
                return Selected {
                    input: Input {
                        name: name.to_owned(),
                        bytes: rest[..len].to_vec(),
                        base: place_of(chunk, from, base),
                    },
                    index,
                    skip: j,
                    encoding,
                };
            }
            j -= n;
            from += len;
        }
    }

    /// Notes for the report: tags read as Latin-1, quotes not escaped in a
    /// tag value, a missing termination marker (with their places).
    pub fn notes(&self, record: &GameRecord<'_>) -> Vec<String> {
        let mut notes = Vec::new();
        if record.latin1 {
            notes.push(match self.encoding {
                Encoding::Latin1 => "tag values read as Latin-1 (ISO 8859-1), as asked".to_owned(),
                _ => "tag values that are not UTF-8 were read as Latin-1 (ISO 8859-1); --encoding utf8 refuses them".to_owned(),
            });
        }
        if let Some(at) = record.unescaped_quotes {
            let p = self.input.place(at);
            notes.push(format!(
                "the tag at {}:{} holds '\"' that are not escaped (as \\\"): its value was read up to the last '\"' before its ']', as python-chess reads it",
                p.line, p.col
            ));
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
    let mut chunks = Chunks::new(reader);
    let mut total = 0;
    let mut first: Option<Selected> = None;
    let mut listing = String::new();
    let mut text_at: Option<Place> = None;
    loop {
        let (bytes, base) = match chunks.next() {
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
        if text_at.is_none() {
            text_at = first_text(bytes, base);
        }
        let here = count_games(bytes, encoding, |i, game| {
            if total + i <= LISTED {
                listing.push_str(&list_entry(total + i, game));
            }
        });
        let before = total;
        total += here;
        let keep = |j: usize| Selected::in_chunk(&name, bytes, base, j, before + j + 1, encoding);
        match wanted {
            Some(k) if k > before && k <= total => return Ok(keep(k - before - 1)),
            None if first.is_none() && here > 0 => first = Some(keep(0)),
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

/// The number of games the reader reads in `bytes`, each also handed to
/// `each` with its 1-based number.
fn count_games(
    bytes: &[u8],
    encoding: Encoding,
    mut each: impl FnMut(usize, &Result<GameRecord<'_>, SyntaxError>),
) -> usize {
    let mut reader = Reader::new(bytes, encoding);
    let mut n = 0;
    while let Some(game) = reader.next_game() {
        n += 1;
        each(n, &game);
        if let Ok(g) = game {
            reader.recycle(g);
        }
    }
    n
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

/// The place of the first byte of `bytes` (placed at `base`) that is not
/// white space or the byte order mark, if any.
fn first_text(bytes: &[u8], base: Place) -> Option<Place> {
    let from = if base == START && bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let i = bytes[from..]
        .iter()
        .position(|c| !c.is_ascii_whitespace())?;
    Some(place_of(bytes, from + i, base))
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

/// A stream cut at game starts ([`boundary::is_game_start`]) into chunks of
/// whole games, about [`READ`] bytes each: the reader reads every chunk
/// alone exactly as it would read it in the whole input. Chunks are lent
/// out of one read buffer (no copy); the bytes before the current chunk
/// are dropped when more is read.
struct Chunks<R> {
    inner: R,
    buf: Vec<u8>,
    /// The current chunk begins at `buf[start]`, at a game start (or at the
    /// start of the input).
    start: usize,
    /// The place of `buf[start]` in the input.
    base: Place,
    /// No game start in `buf[start + searched..]` but at its very end.
    searched: usize,
    eof: bool,
}

impl<R: Read> Chunks<R> {
    fn new(inner: R) -> Chunks<R> {
        Chunks {
            inner,
            buf: Vec::new(),
            start: 0,
            base: START,
            searched: 1,
            eof: false,
        }
    }

    /// The next chunk and the place of its first byte; an error with the
    /// place where reading stopped.
    #[allow(clippy::type_complexity)]
    fn next(&mut self) -> Result<Option<(&[u8], Place)>, (io::Error, Place)> {
        loop {
            // Searched in the chunk alone, as the reader will read it.
            let rest = &self.buf[self.start..];
            if self.eof {
                if rest.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.emit(rest.len())));
            }
            if let Some(i) = boundary::last_game_start(rest, self.searched.max(1)) {
                return Ok(Some(self.emit(i)));
            }
            self.fill()?;
        }
    }

    /// Reads more, first dropping the chunks already lent out.
    fn fill(&mut self) -> Result<(), (io::Error, Place)> {
        self.buf.drain(..self.start);
        self.start = 0;
        // A game start near the end may need bytes not read yet.
        self.searched = self.buf.len().saturating_sub(256);
        let n = (&mut self.inner)
            .take(READ as u64)
            .read_to_end(&mut self.buf)
            .map_err(|e| (e, place_of(&self.buf, self.buf.len(), self.base)))?;
        self.eof = n == 0;
        Ok(())
    }

    /// The chunk of `len` bytes at `start`; the next one starts after it.
    fn emit(&mut self, len: usize) -> (&[u8], Place) {
        let (from, base) = (self.start, self.base);
        let chunk = &self.buf[from..from + len];
        self.base = place_of(chunk, len, base);
        self.start = from + len;
        self.searched = 1;
        (chunk, base)
    }
}
