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
//! - [`zst_frames`]: a multi-frame zstd file cut into runs of frames that
//!   workers decode themselves.

pub mod chunks;
pub mod open;
pub mod ranges;
pub mod walk;
pub mod zst_frames;

use std::io::Read;

use crate::diag::{Diagnostic, DiagnosticKind, Place, place_of};
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

    /// An error of `kind` at byte `offset`.
    pub fn diag(
        &self,
        kind: DiagnosticKind,
        offset: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(kind, &self.name, Some(self.place(offset)), message)
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
            Some(Ok(g)) if g.moves.len() > MAX_CLAIM_PLIES => {
                let at = g.moves.get(MAX_CLAIM_PLIES).map_or(g.offset, |m| m.offset);
                Err(self.input.diag(
                    DiagnosticKind::Limit,
                    at,
                    format!(
                        "the game has {} plies, over the {MAX_CLAIM_PLIES} claim mode holds; `verify-claim scan` reads games of any length",
                        g.moves.len()
                    ),
                ))
            }
            Some(Ok(g)) => Ok(g),
            Some(Err(e)) => Err(self.input.diag(DiagnosticKind::Syntax, e.offset, e.message)),
            None => Err(self.input.diag(
                DiagnosticKind::Io(std::io::ErrorKind::Other),
                0,
                "the game is gone (the input changed?)",
            )),
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

/// Claim mode's bounds: a game (from its start to the next game start) of
/// more than 16 MiB is not read, and one of more than a million plies is
/// refused, so claim mode's memory stays under about 250 MB on any input
/// (the scan reads games of any length in bounded memory).
pub const MAX_CLAIM_GAME: usize = 16 << 20;
pub const MAX_CLAIM_PLIES: usize = 1_000_000;
/// Claim mode reads no further than this with no game start: an input
/// that gives none (binary data, `/dev/urandom`) is an error at the start
/// of that stretch, within seconds, where every game must otherwise be
/// read to count them.
pub const MAX_CLAIM_STRETCH: u64 = 64 << 20;

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
    select_path(std::path::Path::new(path), encoding, wanted, None)
}

/// [`select`] for any path (a name that is not UTF-8 is shown with `\xHH`,
/// as [`walk::display_name`] shows it); reading stops, as a read error,
/// once `stop` is set (the Python binding's Ctrl-C).
pub fn select_path(
    path: &std::path::Path,
    encoding: Encoding,
    wanted: Option<usize>,
    stop: Option<&std::sync::atomic::AtomicBool>,
) -> Result<Selected, Diagnostic> {
    let name = if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        walk::display_name(path)
    };
    let reader = open::open(path).map_err(|e| {
        let kind = DiagnosticKind::Io(e.kind());
        Diagnostic::new(kind, &name, None, format!("cannot read: {e}"))
    })?;
    select_from(
        &name,
        Stoppable {
            inner: reader,
            stop,
        },
        encoding,
        wanted,
    )
}

/// A reader that fails once `stop` is set.
struct Stoppable<'a, R> {
    inner: R,
    stop: Option<&'a std::sync::atomic::AtomicBool>,
}

impl<R: Read> Read for Stoppable<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self
            .stop
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
        {
            // Not `Interrupted`, which readers retry.
            return Err(std::io::Error::other("stopped"));
        }
        self.inner.read(buf)
    }
}

/// [`select`] from any reader of a record's bytes, named `name` in
/// messages. The stream is cut by the scan's [`chunks::Chunker`], with
/// claim mode's bounds: a game longer than [`MAX_CLAIM_GAME`] is not read (an error
/// of that game, at its place); games not chosen are not kept. After a
/// read error (a truncated `.gz`), the games read whole are chosen as
/// usual; the game cut short and those after it are an error at the place
/// where reading stopped.
pub fn select_from<R: Read>(
    name: &str,
    reader: R,
    encoding: Encoding,
    wanted: Option<usize>,
) -> Result<Selected, Diagnostic> {
    let name = name.to_owned();
    let mut chunker = chunks::Chunker::new(reader)
        .max_game(MAX_CLAIM_GAME)
        .max_stretch(MAX_CLAIM_STRETCH);
    let mut base = START;
    let mut total = 0;
    let mut first: Option<Selected> = None;
    let mut listing = String::new();
    let mut text_at: Option<Place> = None;
    let mut first_too_large = None;
    loop {
        let chunk = match chunker.next_chunk() {
            Ok(Some(c)) => c,
            Ok(None) => break,
            Err(e) => {
                // A stretch with no game start is no read error: said as it is.
                let kind = read_error_kind(&e);
                let message = if kind == DiagnosticKind::Limit {
                    e.to_string()
                } else {
                    format!("cannot read: {e}")
                };
                return Err(Diagnostic::new(kind, &name, Some(base), message));
            }
        };
        if let Some(skipped) = chunk.too_large {
            total += 1;
            if total <= LISTED {
                listing.push_str(&format!(
                    "\n  {total:>3}  (unreadable: {})",
                    too_large(skipped)
                ));
            }
            let e = Diagnostic::new(
                DiagnosticKind::Limit,
                &name,
                Some(base),
                format!("game {total}: {}", too_large(skipped)),
            );
            if wanted == Some(total) {
                return Err(e);
            }
            if total == 1 {
                first_too_large = Some(e);
            }
            text_at.get_or_insert(base);
            base = Place {
                line: base.line + skipped.lines,
                col: 1,
            };
            continue;
        }
        let bytes = &chunk.bytes;
        // After a read error the last game of what was read may be cut.
        let whole = if chunker.failed() {
            boundary::whole_games_end(bytes)
        } else {
            bytes.len()
        };
        if text_at.is_none() {
            text_at = first_text(bytes, base);
        }
        let here = count_games(&bytes[..whole], encoding, |i, game| {
            if total + i <= LISTED {
                listing.push_str(&list_entry(total + i, game));
            }
        });
        let before = total;
        total += here;
        let keep = |j: usize| {
            Selected::in_chunk(&name, &bytes[..whole], base, j, before + j + 1, encoding)
        };
        match wanted {
            Some(k) if k > before && k <= total => return Ok(keep(k - before - 1)),
            None if first.is_none() && here > 0 => first = Some(keep(0)),
            _ => {}
        }
        if chunker.failed() {
            let e = chunker.next_chunk().err().map_or_else(
                || (std::io::ErrorKind::Other, "read error".to_owned()),
                |e| (e.kind(), e.to_string()),
            );
            return Err(cut_short(&name, e, bytes, whole, base, total));
        }
        base = place_of(bytes, bytes.len(), base);
    }
    match (wanted, total, first_too_large) {
        (None, 1, Some(e)) => Err(e),
        _ => finish(&name, wanted, total, first, listing, text_at),
    }
}

/// The kind of a reader's error: a stretch with no game start is no read
/// error but a [`DiagnosticKind::Limit`]; any other is I/O.
pub fn read_error_kind(e: &std::io::Error) -> DiagnosticKind {
    if e.get_ref().is_some_and(|x| x.is::<chunks::NoGameStart>()) {
        DiagnosticKind::Limit
    } else {
        DiagnosticKind::Io(e.kind())
    }
}

/// The error after a read error: the game that starts at `whole` of the
/// chunk read last is cut short where the text ends, and none after it can
/// be read; `total` games were read whole.
fn cut_short(
    name: &str,
    (kind, error): (std::io::ErrorKind, String),
    bytes: &[u8],
    whole: usize,
    base: Place,
    total: usize,
) -> Diagnostic {
    let cut = place_of(bytes, whole, base);
    Diagnostic::new(
        DiagnosticKind::Io(kind),
        name,
        Some(place_of(bytes, bytes.len(), base)),
        format!(
            "cannot read: {error}; game {} (from {}:{}) is cut short there, and no game after it can be read ({total} read whole)",
            total + 1,
            cut.line,
            cut.col
        ),
    )
}

/// What a game too large to read is.
fn too_large(s: chunks::Skipped) -> String {
    format!(
        "the game is {} bytes long, over the {} MiB a game may hold: not read",
        s.bytes,
        MAX_CLAIM_GAME >> 20
    )
}

/// The game chosen once the whole input is read, or why there is none.
fn finish(
    name: &str,
    wanted: Option<usize>,
    total: usize,
    first: Option<Selected>,
    mut listing: String,
    text_at: Option<Place>,
) -> Result<Selected, Diagnostic> {
    match (wanted, total, first) {
        (None, 1, Some(s)) => Ok(s),
        (_, 0, _) => Err(no_game(name, text_at)),
        (Some(k), n, _) => Err(Diagnostic::new(
            DiagnosticKind::Option,
            name,
            None,
            format!(
                "--game {k}: the file has {n} game{}",
                if n == 1 { "" } else { "s" }
            ),
        )),
        (None, n, _) => {
            if n > LISTED {
                listing.push_str(&format!("\n  … and {} more", n - LISTED));
            }
            Err(Diagnostic::new(
                DiagnosticKind::Option,
                name,
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
        None => Diagnostic::new(
            DiagnosticKind::NoGame,
            name,
            Some(START),
            "empty input: no game in it",
        ),
        Some(p) => Diagnostic::new(
            DiagnosticKind::NoGame,
            name,
            Some(p),
            "no game in the input: only comments (no tag, no move, no result)",
        ),
    }
}
