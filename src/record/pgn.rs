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

/// How to read tag values that are not valid UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    /// UTF-8 only: anything else is an error (the default).
    #[default]
    Utf8,
    /// Tag values that are not UTF-8 are read as ISO-8859-1 (the character
    /// set the PGN standard names, common in old archives).
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
    /// Offset just after the closing `]`.
    pub end: usize,
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
    /// Offset just after the game: after its termination marker, or where
    /// the next game's tags (or the input) begin.
    pub end: usize,
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
        }
    }

    /// Reads the next game: `None` at the end of the input. After an error
    /// the reader has skipped to the next line that starts a tag, so reading
    /// can go on with the next game.
    pub fn next_game(&mut self) -> Option<Result<GameRecord<'a>, SyntaxError>> {
        self.skip_space_and_comments_between_games();
        if self.pos >= self.bytes.len() {
            return None;
        }
        let start = self.pos;
        let result = self.read_game(start).map(|mut g| {
            g.end = self.pos;
            g
        });
        if result.is_err() {
            self.resync();
        }
        Some(result)
    }

    /// Skips to the next game: a line that begins with `[` after a blank
    /// line (or the end of the input). Always moves forward.
    fn resync(&mut self) {
        let b = self.bytes;
        let mut i = self.pos + 1;
        let mut blank_line_seen = false;
        let mut line_blank = false;
        while i < b.len() {
            if b[i - 1] == b'\n' {
                if b[i] == b'[' && blank_line_seen {
                    self.pos = i;
                    return;
                }
                line_blank = true;
            }
            match b[i] {
                b'\n' => {
                    if line_blank {
                        blank_line_seen = true;
                    }
                    line_blank = true;
                }
                b' ' | b'\t' | b'\r' => {}
                _ => line_blank = false,
            }
            i += 1;
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
                b'%' if self.at_line_start(self.pos) => self.skip_line(),
                b';' => self.skip_line(),
                _ => return,
            }
        }
    }

    fn at_line_start(&self, i: usize) -> bool {
        i == 0 || self.bytes[i - 1] == b'\n'
    }

    fn skip_line(&mut self) {
        let b = self.bytes;
        self.pos = memchr::memchr(b'\n', &b[self.pos..]).map_or(b.len(), |i| self.pos + i);
    }

    fn err<T>(&self, offset: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
        Err(SyntaxError {
            offset,
            message: message.into(),
        })
    }

    fn read_game(&mut self, start: usize) -> Result<GameRecord<'a>, SyntaxError> {
        let mut game = GameRecord {
            offset: start,
            tags: Vec::new(),
            moves: Vec::with_capacity(128),
            result: None,
            end: start,
        };
        let b = self.bytes;
        // Tag section. A blank line then another tag means the game had
        // tags and no movetext: the next tag starts a new game.
        loop {
            let before = self.pos;
            self.skip_space_and_comments_between_games();
            if self.pos < b.len() && b[self.pos] == b'[' {
                let blank_line = memchr::memchr_iter(b'\n', &b[before..self.pos]).count() >= 2;
                if blank_line && !game.tags.is_empty() {
                    return Ok(game);
                }
                let tag = self.read_tag()?;
                game.tags.push(tag);
            } else {
                break;
            }
        }
        // Movetext.
        loop {
            while self.pos < b.len() && is_space(b[self.pos]) {
                self.pos += 1;
            }
            if self.pos >= b.len() {
                return Ok(game);
            }
            let at = self.pos;
            match b[at] {
                0 => return self.err(at, "binary data (a NUL byte): this is not a PGN record"),
                b'{' => self.skip_comment()?,
                b';' => self.skip_line(),
                b'%' if self.at_line_start(at) => self.skip_line(),
                b'(' => self.skip_variation()?,
                b')' => return self.err(at, "')' with no variation open"),
                b'}' => return self.err(at, "'}' with no comment open"),
                b']' => return self.err(at, "']' outside a tag"),
                b'"' => return self.err(at, "a string ('\"') in the movetext"),
                b'[' => {
                    // A new tag section: this game had no termination marker.
                    return Ok(game);
                }
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
                    if let Some(result) = self.read_word(&mut game)? {
                        game.result = Some(result);
                        return Ok(game);
                    }
                }
            }
        }
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
        // Only move tokens are checked: most bytes of real archives are
        // comments, which need no checking (measured: checking whole
        // buffers cost twice as much).
        let text = match std::str::from_utf8(&b[at..text_end]) {
            Ok(t) => t,
            Err(_) => {
                return self.err(
                    at,
                    format!("'{}' is not a move (bytes that are not UTF-8)", lossy(word)),
                );
            }
        };
        game.moves.push(MoveToken { text, offset: at });
        self.pos = end;
        Ok(None)
    }

    fn read_tag(&mut self) -> Result<Tag<'a>, SyntaxError> {
        let b = self.bytes;
        let open = self.pos;
        let mut i = open + 1;
        let line_end = memchr::memchr(b'\n', &b[i.min(b.len())..]).map_or(b.len(), |p| i + p);
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
        let raw = &b[value_start..i];
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
        let value = self.decode_value(raw, value_start, name)?;
        let value = if has_escape {
            Cow::Owned(value.replace("\\\"", "\"").replace("\\\\", "\\"))
        } else {
            value
        };
        Ok(Tag {
            name,
            value,
            offset: open,
            end: self.pos,
        })
    }

    fn decode_value(
        &self,
        raw: &'a [u8],
        offset: usize,
        name: &str,
    ) -> Result<Cow<'a, str>, SyntaxError> {
        match std::str::from_utf8(raw) {
            Ok(s) => Ok(Cow::Borrowed(s)),
            Err(e) => match self.encoding {
                Encoding::Latin1 => Ok(Cow::Owned(raw.iter().map(|&c| c as char).collect())),
                Encoding::Utf8 => {
                    let bad = offset + e.valid_up_to();
                    self.err(
                        bad,
                        format!(
                            "tag {name} is not UTF-8 (byte 0x{:02X}); old archives are often Latin-1: re-run with --encoding latin1",
                            raw[e.valid_up_to()]
                        ),
                    )
                }
            },
        }
    }

    fn skip_comment(&mut self) -> Result<(), SyntaxError> {
        let b = self.bytes;
        let open = self.pos;
        match memchr::memchr(b'}', &b[open + 1..]) {
            Some(p) => {
                self.pos = open + 1 + p + 1;
                Ok(())
            }
            None => self.err(open, "unterminated comment: '{' with no closing '}'"),
        }
    }

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
                b'[' if self.at_line_start(self.pos) => break,
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

/// The end of the movetext token that starts at `offset` (a move with its
/// glyphs, `e4!?`): the first space or delimiter after it.
pub fn token_end(bytes: &[u8], offset: usize) -> usize {
    let mut i = offset.min(bytes.len());
    while i < bytes.len() && !is_delimiter(bytes[i]) {
        i += 1;
    }
    i
}

fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(s: &str) -> Vec<Result<GameRecord<'_>, SyntaxError>> {
        let mut r = Reader::new(s.as_bytes(), Encoding::Utf8);
        std::iter::from_fn(|| r.next_game()).collect()
    }

    fn moves<'a>(g: &GameRecord<'a>) -> Vec<&'a str> {
        g.moves.iter().map(|m| m.text).collect()
    }

    #[test]
    fn reads_moves_numbers_comments_variations_nags() {
        let games = read_all(
            "[A \"b\"]\n1.e4 e5 $1 2. Nf3!? {c (d} (2. f4 {x} (2. d4)) 2... Nc6; rest\n3. O-O 0-0 1/2-1/2",
        );
        let g = games[0].as_ref().unwrap();
        assert_eq!(moves(g), ["e4", "e5", "Nf3", "Nc6", "O-O", "0-0"]);
        assert_eq!(g.result.unwrap().text, "1/2-1/2");
    }

    #[test]
    fn ends_of_games_tags_and_tokens() {
        let src = "[A \"1\"] [B \"2\"]\n1. e4!? e5 *\n\n[A \"2\"]\n1. d4";
        let games = read_all(src);
        let g = games[0].as_ref().unwrap();
        assert_eq!(&src[g.offset..g.end], "[A \"1\"] [B \"2\"]\n1. e4!? e5 *");
        assert_eq!(&src[g.tags[1].offset..g.tags[1].end], "[B \"2\"]");
        let e4 = g.moves[0].offset;
        assert_eq!(&src[e4..token_end(src.as_bytes(), e4)], "e4!?");
        let g = games[1].as_ref().unwrap();
        assert_eq!(g.end, src.len());
    }

    #[test]
    fn a_game_of_tags_alone() {
        let games = read_all("[A \"1\"]\n[B \"x\"]\n \n\n[A \"2\"]\n\n1. e4 *\n");
        assert_eq!(games.len(), 2);
        let g = games[0].as_ref().unwrap();
        assert_eq!((g.tags.len(), g.moves.len()), (2, 0));
        assert_eq!(games[1].as_ref().unwrap().moves.len(), 1);
    }

    #[test]
    fn two_games_and_missing_result() {
        let games = read_all("[A \"1\"]\n1. e4\n\n[A \"2\"]\n1. d4 *\n");
        assert_eq!(games.len(), 2);
        assert!(games[0].as_ref().unwrap().result.is_none());
        assert_eq!(games[1].as_ref().unwrap().tag("A"), Some("2"));
    }

    #[test]
    fn errors_carry_offsets() {
        let src = "[A \"1\"]\n1. e4 {open";
        let e = read_all(src).remove(0).unwrap_err();
        assert_eq!(e.offset, src.find('{').unwrap());
        let e = read_all("[A \"1]\n1. e4 *").remove(0).unwrap_err();
        assert!(e.message.contains("unterminated tag"), "{}", e.message);
        let e = read_all("1. e4 ) *").remove(0).unwrap_err();
        assert!(e.message.contains("')'"));
        let e = read_all("1. e4 (e5 *").remove(0).unwrap_err();
        assert!(e.message.contains("unterminated variation"));
        let e = read_all("1. e4 12 *").remove(0).unwrap_err();
        assert!(e.message.contains("'12'"));
    }

    #[test]
    fn latin1_tags() {
        let bytes = b"[White \"M\xfcller\"]\n1. e4 *";
        let mut r = Reader::new(bytes, Encoding::Utf8);
        let e = r.next_game().unwrap().unwrap_err();
        assert_eq!(e.offset, 9);
        assert!(e.message.contains("--encoding latin1"));
        let mut r = Reader::new(bytes, Encoding::Latin1);
        let g = r.next_game().unwrap().unwrap();
        assert_eq!(g.tag("White"), Some("M\u{fc}ller"));
    }

    #[test]
    fn escapes_in_tag_values() {
        let games = read_all("[Event \"a \\\"b\\\" \\\\ c\"]\n*");
        assert_eq!(
            games[0].as_ref().unwrap().tag("Event"),
            Some("a \"b\" \\ c")
        );
    }

    #[test]
    fn resyncs_after_error() {
        let games = read_all("[A \"1\"]\n1. e4 }\n\n[A \"2\"]\n1. d4 *\n");
        assert!(games[0].is_err());
        assert_eq!(games[1].as_ref().unwrap().tag("A"), Some("2"));
        // An error in a tag skips the rest of that game's tags.
        let games = read_all("[A \"1]\n[B \"x\"]\n\n1. e4 *\n\n[A \"2\"]\n*\n");
        assert_eq!(games.len(), 2, "{games:?}");
        assert!(games[0].is_err());
        assert_eq!(games[1].as_ref().unwrap().tag("A"), Some("2"));
        // Errors at the very end terminate.
        let games = read_all("[A \"1]");
        assert_eq!(games.len(), 1);
    }
}
