//! A strict reader for PGN-style records (PGN and PDN share the syntax).
//!
//! pgn-reader is fast but drops tokens it cannot parse without a word and
//! reports no places; an arbiter's tool must do neither, so this reader
//! keeps the byte offset of every tag and move and fails loudly on anything
//! it does not understand.
//!
//! ```
//! use verify_claim::record::{Encoding, Reader};
//! let pgn = b"[White \"A\"]\n\n1. e4 {best} e5 2. Nf3 1-0\n";
//! let mut reader = Reader::new(pgn, Encoding::Utf8);
//! let game = reader.next_game().unwrap().unwrap();
//! assert_eq!(game.tag("White"), Some("A"));
//! let moves: Vec<&str> = game.moves.iter().map(|m| m.text).collect();
//! assert_eq!(moves, ["e4", "e5", "Nf3"]);
//! assert_eq!(game.result.map(|r| r.text), Some("1-0"));
//! ```

use std::borrow::Cow;

use super::boundary;

/// How to read tag values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    /// UTF-8 where a value is UTF-8, else ISO-8859-1 (the character set the
    /// PGN standard names, common in old archives); the record says so
    /// ([`GameRecord::latin1`]). The default.
    #[default]
    Auto,
    /// UTF-8 only: anything else is an error.
    Utf8,
    /// Every tag value is read as ISO-8859-1, UTF-8 or not.
    Latin1,
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
}

const SPACE: u8 = 1;
const DELIMITER: u8 = 2;

/// Byte classes, looked up instead of matched: a `match` in the lexer's
/// inner loops compiles to a jump table per byte.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let spaces = [b' ', b'\t', b'\r', b'\n', 0x0b, 0x0c];
    let mut i = 0;
    while i < spaces.len() {
        t[spaces[i] as usize] = SPACE | DELIMITER;
        i += 1;
    }
    let delims = [b'{', b'}', b'(', b')', b'[', b']', b';', b'$', b'"'];
    let mut i = 0;
    while i < delims.len() {
        t[delims[i] as usize] = DELIMITER;
        i += 1;
    }
    t
};

#[inline]
fn is_space(b: u8) -> bool {
    CLASS[b as usize] & SPACE != 0
}

#[inline]
fn is_delimiter(b: u8) -> bool {
    CLASS[b as usize] & DELIMITER != 0
}

const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];

impl<'a> Reader<'a> {
    /// A reader over `bytes` (a UTF-8 byte order mark at the start is skipped).
    pub fn new(bytes: &'a [u8], encoding: Encoding) -> Reader<'a> {
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
        }
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
            match self.read_game(start) {
                Ok(g) if g.tags.is_empty() && g.moves.is_empty() && g.result.is_none() => {
                    self.recycle(g);
                }
                Ok(g) => return Some(Ok(g)),
                Err(e) => {
                    self.resync(start);
                    return Some(Err(e));
                }
            }
        }
    }

    /// After an error in the game that began at `start`: goes on at the
    /// first tag line, at or after the place the error stopped the reader,
    /// that begins a game ([`boundary::is_game_start`]) or follows a line
    /// that is not a tag line. No game can begin between `start` and that
    /// place (nothing is read across a game start), so none is skipped.
    fn resync(&mut self, start: usize) {
        let b = self.bytes;
        let mut at = self.pos.max(start + 1);
        while at < b.len() {
            let Some(i) = memchr::memchr(b'[', &b[at..]).map(|i| at + i) else {
                break;
            };
            if boundary::at_line_start(b, i)
                && boundary::starts_tag(&b[i..])
                && (boundary::is_game_start(b, i) || !previous_line_is_tag(b, i))
            {
                self.pos = i;
                return;
            }
            at = i + 1;
        }
        self.pos = b.len();
    }

    fn skip_space_and_comments_between_games(&mut self) {
        let b = self.bytes;
        loop {
            while self.pos < b.len() && is_space(b[self.pos]) {
                self.pos += 1;
            }
            if self.pos >= b.len() {
                return;
            }
            match b[self.pos] {
                b'%' if boundary::at_line_start(b, self.pos) => self.skip_line(),
                b';' => self.skip_line(),
                _ => return,
            }
        }
    }

    /// Skips to the end of the line (LF or CR).
    fn skip_line(&mut self) {
        let b = self.bytes;
        self.pos = memchr::memchr2(b'\n', b'\r', &b[self.pos..]).map_or(b.len(), |i| self.pos + i);
    }

    fn err<T>(&self, offset: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
        Err(SyntaxError {
            offset,
            message: message.into(),
        })
    }

    fn read_game(&mut self, start: usize) -> Result<GameRecord<'a>, SyntaxError> {
        let (tags, moves) = std::mem::take(&mut self.spare);
        let mut game = GameRecord {
            offset: start,
            tags,
            moves,
            result: None,
            end: start,
            latin1: false,
        };
        let b = self.bytes;
        // Tag section. A blank line then another tag means the game had
        // tags and no movetext: the next tag starts a new game.
        loop {
            self.skip_space_and_comments_between_games();
            if self.pos < b.len() && b[self.pos] == b'[' {
                if !game.tags.is_empty() && boundary::is_game_start(b, self.pos) {
                    return Ok(game);
                }
                let tag = self.read_tag(&mut game.latin1)?;
                game.tags.push(tag);
                game.end = self.pos;
            } else {
                break;
            }
        }
        self.read_movetext(&mut game)?;
        Ok(game)
    }

    /// The movetext, up to the termination marker, the end of the input or
    /// the next tag (a game without a termination marker).
    fn read_movetext(&mut self, game: &mut GameRecord<'a>) -> Result<(), SyntaxError> {
        let b = self.bytes;
        loop {
            while self.pos < b.len() && is_space(b[self.pos]) {
                self.pos += 1;
            }
            if self.pos >= b.len() {
                return Ok(());
            }
            let at = self.pos;
            match b[at] {
                0 => return self.err(at, "binary data (a NUL byte): this is not a PGN record"),
                b'{' => self.skip_comment()?,
                b';' => self.skip_line(),
                b'%' if boundary::at_line_start(b, at) => self.skip_line(),
                b'(' => self.skip_variation()?,
                b')' => return self.err(at, "')' with no variation open"),
                b'}' => return self.err(at, "'}' with no comment open"),
                b']' => return self.err(at, "']' outside a tag"),
                b'"' => return self.err(at, "a string ('\"') in the movetext"),
                // A new tag section: this game had no termination marker.
                b'[' => return Ok(()),
                b'$' => {
                    let mut i = at + 1;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    if i == at + 1 {
                        return self.err(at, "'$' not followed by a NAG number");
                    }
                    self.pos = i;
                }
                _ => {
                    if let Some(result) = self.read_word(game)? {
                        game.result = Some(result);
                        game.end = self.pos;
                        return Ok(());
                    }
                }
            }
            game.end = self.pos;
        }
    }

    /// `bytes[from..to]` as text, if it is UTF-8. Checks a whole stretch of
    /// the input at once and remembers it, so each byte is checked about
    /// once, however many tokens it holds.
    fn text(&mut self, from: usize, to: usize) -> Option<&'a str> {
        let window = self.text_from..self.text_from + self.text.len();
        if !(window.contains(&from) && to <= window.end) {
            let rest = &self.bytes[from..];
            let valid = match std::str::from_utf8(rest) {
                Ok(s) => s,
                Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or(""),
            };
            self.text = valid;
            self.text_from = from;
        }
        self.text.get(from - self.text_from..to - self.text_from)
    }

    /// Reads one word of movetext: a move number, a move or a result.
    fn read_word(
        &mut self,
        game: &mut GameRecord<'a>,
    ) -> Result<Option<ResultToken<'a>>, SyntaxError> {
        let b = self.bytes;
        let at = self.pos;
        let mut end = at;
        while end < b.len() && !is_delimiter(b[end]) {
            end += 1;
        }
        let word = &b[at..end];
        if matches!(word[0], b'0' | b'1' | b'2' | b'*')
            && let Some(r) = RESULTS.iter().find(|r| r.as_bytes() == word)
        {
            self.pos = end;
            return Ok(Some(ResultToken {
                text: r,
                offset: at,
            }));
        }
        if word[0].is_ascii_digit() && !word.starts_with(b"0-0") {
            // A move number: digits then dots; a move may follow at once ("1.e4").
            let mut i = at;
            while i < end && b[i].is_ascii_digit() {
                i += 1;
            }
            let digits_end = i;
            while i < end && b[i] == b'.' {
                i += 1;
            }
            if i == digits_end {
                // Digits with no dots: PDN allows numeric squares in other
                // games, but none of ours; and "12" alone is no element.
                if i == end {
                    return self.err(
                        at,
                        format!("'{}' is not a move, a move number or a result", lossy(word)),
                    );
                }
                // Something like "1-2" or "3x": hand it to the game as a move
                // token so the game says why it is not a move.
            } else {
                self.pos = i;
                return Ok(None);
            }
        }
        // Annotation glyphs glued to a move ("e4!?") are part of the import
        // format; they carry no rules meaning.
        let mut text_end = end;
        while text_end > at && matches!(b[text_end - 1], b'!' | b'?') {
            text_end -= 1;
        }
        if text_end == at {
            // A lone "!" or "?!" annotation.
            self.pos = end;
            return Ok(None);
        }
        let Some(text) = self.text(at, text_end) else {
            return self.err(
                at,
                format!("'{}' is not a move (bytes that are not UTF-8)", lossy(word)),
            );
        };
        game.moves.push(MoveToken { text, offset: at });
        self.pos = end;
        Ok(None)
    }

    fn read_tag(&mut self, latin1: &mut bool) -> Result<Tag<'a>, SyntaxError> {
        let b = self.bytes;
        let open = self.pos;
        let mut i = open + 1;
        let line_end =
            memchr::memchr2(b'\n', b'\r', &b[i.min(b.len())..]).map_or(b.len(), |p| i + p);
        while i < line_end && is_space(b[i]) {
            i += 1;
        }
        let name_start = i;
        while i < line_end
            && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'+' || b[i] == b'-')
        {
            i += 1;
        }
        if i == name_start {
            return self.err(open, "a tag without a name (expected [Name \"value\"])");
        }
        // Checked ASCII above, so this cannot fail; still no unwrap on input.
        let name = std::str::from_utf8(&b[name_start..i]).unwrap_or("?");
        while i < line_end && is_space(b[i]) {
            i += 1;
        }
        if i >= line_end || b[i] != b'"' {
            return self.err(
                open,
                format!("tag [{name} ...] has no quoted value (expected [{name} \"value\"])"),
            );
        }
        i += 1;
        let value_start = i;
        let mut escaped = false;
        let mut has_escape = false;
        loop {
            if i >= line_end {
                return self.err(
                    open,
                    format!("unterminated tag [{name} ...]: no closing '\"' on its line"),
                );
            }
            match b[i] {
                0 => return self.err(i, "binary data (a NUL byte) in a tag value"),
                b'\\' if !escaped => {
                    escaped = true;
                    has_escape = true;
                }
                b'"' if !escaped => break,
                _ => escaped = false,
            }
            i += 1;
        }
        let value_end = i;
        i += 1;
        while i < line_end && is_space(b[i]) {
            i += 1;
        }
        if i >= line_end || b[i] != b']' {
            return self.err(
                open,
                format!("unterminated tag [{name} ...]: no closing ']'"),
            );
        }
        self.pos = i + 1;
        let value = self.decode_value(value_start, value_end, name, latin1)?;
        let value = if has_escape {
            Cow::Owned(value.replace("\\\"", "\"").replace("\\\\", "\\"))
        } else {
            value
        };
        Ok(Tag {
            name,
            value,
            offset: open,
        })
    }

    fn decode_value(
        &mut self,
        from: usize,
        to: usize,
        name: &str,
        latin1: &mut bool,
    ) -> Result<Cow<'a, str>, SyntaxError> {
        let raw = &self.bytes[from..to];
        let as_latin1 = || Cow::Owned(raw.iter().map(|&c| c as char).collect());
        if self.encoding == Encoding::Latin1 {
            *latin1 = true;
            return Ok(if raw.is_ascii() {
                self.text(from, to).map_or_else(as_latin1, Cow::Borrowed)
            } else {
                as_latin1()
            });
        }
        if let Some(s) = self.text(from, to) {
            return Ok(Cow::Borrowed(s));
        }
        match self.encoding {
            Encoding::Utf8 => {
                let valid = std::str::from_utf8(raw)
                    .err()
                    .map_or(0, |e| e.valid_up_to());
                self.err(
                    from + valid,
                    format!(
                        "tag {name} is not UTF-8 (byte 0x{:02X}); old archives are often Latin-1: re-run with --encoding latin1 or auto",
                        raw.get(valid).copied().unwrap_or(0)
                    ),
                )
            }
            _ => {
                *latin1 = true;
                Ok(as_latin1())
            }
        }
    }

    /// Skips a comment. A comment does not run into the next game: a blank
    /// line then a tag line inside it means its `}` is missing.
    fn skip_comment(&mut self) -> Result<(), SyntaxError> {
        let b = self.bytes;
        let open = self.pos;
        let close = memchr::memchr(b'}', &b[open + 1..]).map(|p| open + 1 + p);
        let until = close.unwrap_or(b.len());
        if let (Some(close), None) = (close, boundary::game_start_within(b, open, until)) {
            self.pos = close + 1;
            return Ok(());
        }
        self.err(open, "unterminated comment: '{' with no closing '}'")
    }

    /// Skips a variation (nested ones too). It ends, unclosed, at a line
    /// that begins with `[`: the next game's tags.
    fn skip_variation(&mut self) -> Result<(), SyntaxError> {
        let b = self.bytes;
        let open = self.pos;
        let mut depth = 0usize;
        while self.pos < b.len() {
            match b[self.pos] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return Ok(());
                    }
                }
                b'{' => {
                    self.skip_comment()?;
                    continue;
                }
                b';' => self.skip_line(),
                b'[' if boundary::at_line_start(b, self.pos) => break,
                0 => {
                    return self.err(
                        self.pos,
                        "binary data (a NUL byte): this is not a PGN record",
                    );
                }
                _ => {}
            }
            self.pos += 1;
        }
        self.err(open, "unterminated variation: '(' with no closing ')'")
    }
}

/// Whether the line before the line that starts at `i` is a tag line.
fn previous_line_is_tag(b: &[u8], i: usize) -> bool {
    let mut j = i;
    // Back over the line end (CRLF is one) to the previous line's end.
    if j > 0 && b[j - 1] == b'\n' {
        j -= 1;
        if j > 0 && b[j - 1] == b'\r' {
            j -= 1;
        }
    } else if j > 0 && b[j - 1] == b'\r' {
        j -= 1;
    }
    let start = b[..j]
        .iter()
        .rposition(|&c| boundary::is_eol(c))
        .map_or(0, |k| k + 1);
    let line = &b[start..j];
    let first = line.iter().position(|&c| c != b' ' && c != b'\t');
    first.is_some_and(|f| boundary::starts_tag(&line[f..]))
}

fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

#[cfg(test)]
#[path = "pgn_tests.rs"]
mod tests;
