//! A strict reader for PGN-style records (PGN and PDN share the syntax).
//!
//! pgn-reader is fast but drops tokens it cannot parse without a word and
//! reports no places; an arbiter's tool must do neither, so this reader
//! keeps the byte offset of every tag and move and fails loudly on anything
//! it does not understand.
//!
//! (Example: `src/tests/module_examples.rs`, `record_reader_reads_tags_moves_result`.)

use std::borrow::Cow;

use super::boundary;

mod lex;
mod movetext;
mod tags;

use lex::skip_spaces;
pub use lex::token_end;

column_draughts::named! {
    /// How to read tag values.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
    pub enum Encoding {
        /// UTF-8 where a value is UTF-8, else ISO-8859-1 (the character set the
        /// PGN standard names, common in old archives); the record says so
        /// (`GameRecord::latin1`). The default.
        #[default]
        Auto = "auto" ("UTF-8 where a tag value is UTF-8, else Latin-1 (with a note)"),
        /// UTF-8 only: anything else is an error.
        Utf8 = "utf8" ("UTF-8 only: anything else is an error"),
        /// Every tag value is read as ISO-8859-1, UTF-8 or not.
        Latin1 = "latin1" ("Every tag value is Latin-1 (ISO 8859-1)"),
    }
}

/// A syntax error: byte offset and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

/// One tag pair, `[Name "value"]`.
#[derive(Clone, Debug)]
pub struct Tag<'a> {
    pub name: &'a str,
    pub value: Cow<'a, str>,
    /// Offset of the opening `[`.
    pub offset: usize,
    /// Offset just after the closing `]`.
    pub end: usize,
    /// The value holds `"` that are not escaped ([`GameRecord::unescaped_quotes`]).
    pub quotes_unescaped: bool,
}

/// A token of the movetext that should be a move (the game decides).
#[derive(Clone, Copy, Debug)]
pub struct MoveToken<'a> {
    /// The token, without annotation glyphs (`!`, `?`).
    pub text: &'a str,
    pub offset: usize,
}

/// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`, and the PDN
/// forms `2-0`, `0-2`, `1-1`).
#[derive(Clone, Copy, Debug)]
pub struct ResultToken<'a> {
    pub text: &'a str,
    pub offset: usize,
}

/// One game as read from the record: tags, main-line moves, result.
/// Variations and comments are skipped (after checking their syntax).
#[derive(Clone, Debug)]
pub struct GameRecord<'a> {
    /// Offset of the game's first byte (its first tag or move).
    pub offset: usize,
    pub tags: Vec<Tag<'a>>,
    pub moves: Vec<MoveToken<'a>>,
    pub result: Option<ResultToken<'a>>,
    /// Offset just past the game's last element: where its termination
    /// marker is, or should have been (`result` is `None`: the record ended,
    /// or the next game began, without one).
    pub end: usize,
    /// Some tag value was not UTF-8 and was read as ISO-8859-1
    /// ([`Encoding::Auto`]), or [`Encoding::Latin1`] was asked for.
    pub latin1: bool,
    /// The first tag whose value holds `"` that are not escaped
    /// (`[White ""Socrates Expert""]`), by its offset: its value was read
    /// as python-chess reads it, up to the last `"` before the `]`.
    pub unescaped_quotes: Option<usize>,
}

impl<'a> GameRecord<'a> {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|t| t.name == name).map(|t| &*t.value)
    }

    /// The first tag with this name, with its offset.
    pub fn tag_entry(&self, name: &str) -> Option<&Tag<'a>> {
        self.tags.iter().find(|t| t.name == name)
    }
}

/// Reads games one after another from a buffer.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    encoding: Encoding,
    /// `bytes[text_from..]` begins with `text`, known to be UTF-8: tokens
    /// inside it are sliced from it, not checked again (one check per
    /// stretch of valid text instead of one per token).
    text: &'a str,
    text_from: usize,
    /// Vectors of a game handed back with [`Reader::recycle`].
    spare: (Vec<Tag<'a>>, Vec<MoveToken<'a>>),
    /// No CR anywhere in the input: LF alone ends a line.
    lf_only: bool,
    /// Where the last game read began, and the moves read in it before its
    /// error (0 for an error in the tags): [`Reader::last_game`].
    last: (usize, usize),
}

/// Internal results: the error boxed, so that the common path returns in
/// registers.
type Parse<T> = Result<T, Box<SyntaxError>>;

impl<'a> Reader<'a> {
    /// A reader over `bytes` (a UTF-8 byte order mark at the start is skipped).
    pub fn new(bytes: &'a [u8], encoding: Encoding) -> Reader<'a> {
        Reader::knowing_cr(bytes, encoding, memchr::memchr(b'\r', bytes).is_some())
    }

    /// [`Reader::new`], told whether `bytes` hold a CR anywhere (a caller
    /// that has looked already, as the scan's line cursor has).
    pub fn knowing_cr(bytes: &'a [u8], encoding: Encoding, has_cr: bool) -> Reader<'a> {
        let pos = if bytes.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        Reader {
            bytes,
            pos,
            encoding,
            text: "",
            text_from: 0,
            spare: (Vec::new(), Vec::with_capacity(128)),
            lf_only: !has_cr,
            last: (0, 0),
        }
    }

    /// The offset where the last game returned by [`Reader::next_game`]
    /// began, and, when it was an error, the moves read before the error
    /// (the per-game table's `line` and `error_ply` of an unreadable game).
    pub fn last_game(&self) -> (usize, usize) {
        self.last
    }

    /// Hands a game's vectors back for the next game (saves allocations in
    /// a scan; optional).
    pub fn recycle(&mut self, game: GameRecord<'a>) {
        let (mut tags, mut moves) = (game.tags, game.moves);
        tags.clear();
        moves.clear();
        self.spare = (tags, moves);
    }

    /// Reads the next game: `None` at the end of the input. After an error
    /// the reader has skipped to the next place a game can start (see
    /// [`Reader::resync`]), so reading can go on with the next game.
    ///
    /// Text with no tag, no move and no termination marker (a comment
    /// between games, say) is not a game and is passed over.
    pub fn next_game(&mut self) -> Option<Result<GameRecord<'a>, SyntaxError>> {
        loop {
            self.skip_space_and_comments_between_games();
            if self.pos >= self.bytes.len() {
                return None;
            }
            let start = self.pos;
            self.last = (start, 0);
            match self.read_game(start) {
                Ok(g) if g.tags.is_empty() && g.moves.is_empty() && g.result.is_none() => {
                    self.recycle(g);
                }
                Ok(g) => return Some(Ok(g)),
                Err(e) => {
                    self.resync(start);
                    return Some(Err(*e));
                }
            }
        }
    }

    /// After an error in the game that began at `start`: goes on at the
    /// next game start ([`boundary::is_game_start`]) at or after the place
    /// the error stopped the reader; a damaged line, tag line or not, stays
    /// in its game. No game can begin between `start` and that place
    /// (nothing is read across a game start), so none is skipped.
    fn resync(&mut self, start: usize) {
        let b = self.bytes;
        let from = self.pos.max(start + 1);
        self.pos = boundary::next_game_start(b, from, b.len()).unwrap_or(b.len());
    }

    fn skip_space_and_comments_between_games(&mut self) {
        let b = self.bytes;
        loop {
            self.pos = skip_spaces(b, self.pos);
            if self.pos >= b.len() {
                return;
            }
            match b[self.pos] {
                b'%' if boundary::at_line_start(b, self.pos) => self.skip_line(),
                b';' => self.skip_line(),
                // Where files were joined: a byte order mark before a game.
                0xEF if b[self.pos..].starts_with(boundary::BOM) => self.pos += boundary::BOM.len(),
                // A comment before a game's tags (a file's heading, a note
                // after the last result) or between them, closed before the
                // next game. One left open is read, and refused, as movetext.
                b'{' => match boundary::comment_end(b, self.pos) {
                    Some(end) => self.pos = end,
                    None => return,
                },
                _ => return,
            }
        }
    }

    /// Skips to the end of the line (LF or CR).
    fn skip_line(&mut self) {
        self.pos = lex::line_end(self.bytes, self.pos);
    }

    fn err<T>(&self, offset: usize, message: impl Into<String>) -> Parse<T> {
        Err(Box::new(SyntaxError {
            offset,
            message: message.into(),
        }))
    }

    fn read_game(&mut self, start: usize) -> Parse<GameRecord<'a>> {
        let (tags, moves) = std::mem::take(&mut self.spare);
        let mut game = GameRecord {
            offset: start,
            tags,
            moves,
            result: None,
            end: start,
            latin1: false,
            unescaped_quotes: None,
        };
        let b = self.bytes;
        // Tag section. A blank line then another tag means the game had
        // tags and no movetext: the next tag starts a new game.
        loop {
            self.skip_space_and_comments_between_games();
            if self.pos < b.len() && b[self.pos] == b'[' {
                if !game.tags.is_empty()
                    && !boundary::follows_text_line(b, self.pos)
                    && boundary::is_game_start(b, self.pos)
                {
                    return Ok(game);
                }
                let tag = match self.plain_tag() {
                    Some(tag) => tag,
                    None => self.read_tag(&mut game.latin1)?,
                };
                if tag.quotes_unescaped {
                    game.unescaped_quotes.get_or_insert(tag.offset);
                }
                game.tags.push(tag);
                game.end = self.pos;
            } else {
                break;
            }
        }
        if let Err(e) = self.read_movetext(&mut game) {
            self.last.1 = game.moves.len();
            self.recycle(game);
            return Err(e);
        }
        Ok(game)
    }

    /// `bytes[from..to]` as text, if it is UTF-8. Checks a whole stretch of
    /// the input at once and remembers it, so each byte is checked about
    /// once, however many tokens it holds (tokens come in input order).
    #[inline(always)]
    fn text(&mut self, from: usize, to: usize) -> Option<&'a str> {
        if from >= self.text_from
            && let Some(s) = self.text.get(from - self.text_from..to - self.text_from)
        {
            return Some(s);
        }
        self.text_anew(from, to)
    }

    /// [`Reader::text`] outside the stretch checked so far: checks the
    /// input from `from` on, as far as it is UTF-8.
    #[cold]
    #[inline(never)]
    fn text_anew(&mut self, from: usize, to: usize) -> Option<&'a str> {
        let rest = &self.bytes[from..];
        // A SIMD check (simdutf8): the stretch is the whole rest of the
        // input, comments too, and std's check costs several times more.
        self.text = match simdutf8::compat::from_utf8(rest) {
            Ok(s) => s,
            Err(e) => simdutf8::basic::from_utf8(&rest[..e.valid_up_to()]).unwrap_or(""),
        };
        self.text_from = from;
        self.text.get(..to - from)
    }
}

/// A word of the input as an error quotes it: whole up to
/// [`QUOTED`] bytes, else its start and its length (a megabyte-long token
/// is not echoed whole in every message).
fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    if bytes.len() <= QUOTED {
        return String::from_utf8_lossy(bytes);
    }
    let head = String::from_utf8_lossy(&bytes[..QUOTED]);
    Cow::Owned(format!("{head}... ({} bytes)", bytes.len()))
}

/// The most bytes of a word an error quotes.
const QUOTED: usize = 60;

/// The longest word read as a move: SAN is at most 7 bytes ("exd8=Q+" and
/// annotations aside), a draughts capture a path of a few squares; longer
/// is no move, and is refused here, quoted short.
pub(crate) const MAX_MOVE_WORD: usize = 256;

#[cfg(test)]
#[path = "pgn_tests.rs"]
mod tests;
