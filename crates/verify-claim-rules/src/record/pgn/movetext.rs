//! The movetext: moves, move numbers, NAGs, annotation glyphs, comments,
//! variations and the termination marker. A move token is handed on as
//! text; anything that is no element is an error.

use super::lex::{is_word_byte, line_end, skip_line_spaces, skip_spaces, token_end};
use super::{GameRecord, MoveToken, Parse, Reader, ResultToken, lossy};
use crate::record::boundary;

impl<'a> Reader<'a> {
    /// The movetext, up to the termination marker, the end of the input or
    /// the next tag (a game without a termination marker).
    pub(super) fn read_movetext(&mut self, game: &mut GameRecord<'a>) -> Parse<()> {
        let b = self.bytes;
        loop {
            self.pos = skip_spaces(b, self.pos);
            if self.pos >= b.len() {
                return Ok(());
            }
            let at = self.pos;
            // Most elements are words (moves, move numbers): one look-up.
            if is_word_byte(b[at]) {
                self.read_word(game, at)?;
                game.end = self.pos;
                if game.result.is_some() {
                    return self.nothing_after_result(game);
                }
                continue;
            }
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
                // The next game's tags: this game had no termination marker.
                b'[' if boundary::is_game_start(b, at) => return Ok(()),
                b'[' => return self.err(at, BRACKET_IN_MOVETEXT),
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
                // A byte order mark before the next game's tags (at the
                // end of a chunk, cut at the `[` after it, or of the input).
                0xEF if b[at..].starts_with(boundary::BOM)
                    && (at + boundary::BOM.len() == b.len()
                        || boundary::is_game_start(b, at + boundary::BOM.len())) =>
                {
                    self.pos = at + boundary::BOM.len();
                    return Ok(());
                }
                _ => {
                    self.read_word(game, at)?;
                    if game.result.is_some() {
                        game.end = self.pos;
                        return self.nothing_after_result(game);
                    }
                }
            }
            game.end = self.pos;
        }
    }

    /// The termination marker ends the movetext: up to the next blank line
    /// or tag line, only comments may follow it. Moves after it
    /// (`1. e4 e5 1-0 2. Nf3`) are an error of this game, at their place:
    /// read as a new game they would be a game nobody recorded (it starts
    /// at no tag line), and python-chess reads them as this game's moves.
    /// A game without tags after a blank line is still a game.
    /// Looks ahead only: the reader goes on after the marker.
    fn nothing_after_result(&self, game: &GameRecord<'a>) -> Parse<()> {
        let b = self.bytes;
        let mut i = self.pos;
        loop {
            i = skip_line_spaces(b, i);
            let Some(&c) = b.get(i) else { return Ok(()) };
            match c {
                b'\n' | b'\r' => {
                    i += if b[i..].starts_with(b"\r\n") { 2 } else { 1 };
                    let next = skip_line_spaces(b, i);
                    if b.get(next).is_none_or(|&c| boundary::is_eol(c)) {
                        return Ok(());
                    }
                }
                b'{' => match boundary::comment_end(b, i) {
                    Some(end) => i = end,
                    // Unterminated (before the next game): the next read
                    // reports it.
                    None => return Ok(()),
                },
                b';' => i = line_end(b, i),
                b'%' if boundary::at_line_start(b, i) => i = line_end(b, i),
                // The next game's tags (a blank line before them or not),
                // or a byte order mark before them.
                b'[' if boundary::starts_tag(&b[i..]) => return Ok(()),
                0xEF if b[i..].starts_with(boundary::BOM) => return Ok(()),
                _ => return self.moves_after_result(game, i),
            }
        }
    }

    #[cold]
    fn moves_after_result(&self, game: &GameRecord<'a>, at: usize) -> Parse<()> {
        let b = self.bytes;
        let result = game.result.as_ref().map_or("", |r| r.text);
        let end = token_end(b, at + 1);
        self.err(
            at,
            format!(
                "'{}' after the result {result}: the termination marker ends the movetext (a new game starts with its tags, or after a blank line)",
                lossy(&b[at..end])
            ),
        )
    }

    /// Reads one word of movetext: a move number, a move or a result (the
    /// game's, in `game.result`: the movetext ends there). Returns no flag:
    /// a `Result` of a pointer comes back in a register.
    /// `at` is `self.pos`, passed in a register (not read back from memory
    /// just after the loop stored it).
    fn read_word(&mut self, game: &mut GameRecord<'a>, at: usize) -> Parse<()> {
        let b = self.bytes;
        // A move (most words) has no digit or `*` first: no move number, no
        // result. Its first byte is no delimiter: the token goes on from the
        // next.
        let end = if b[at].is_ascii_digit() || b[at] == b'*' {
            // A move number: digits then dots; a move may follow at once
            // ("1.e4"). No result and no castling with zeros has a dot
            // after its leading digits, so this needs no look at the rest
            // of the word.
            let digits = b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 0 && b.get(at + digits) == Some(&b'.') {
                let dots = b[at + digits..].iter().take_while(|&&c| c == b'.').count();
                self.pos = dots_apart(b, at + digits + dots);
                return Ok(());
            }
            let end = token_end(b, at);
            if let Some(text) = result_text(&b[at..end]) {
                self.pos = end;
                game.result = Some(ResultToken { text, offset: at });
                return Ok(());
            }
            self.numeric_word(at, end, digits)?;
            end
        } else {
            token_end(b, at + 1)
        };
        self.push_move(game, at, end)
    }

    /// A word that begins with a digit (or `*`) and is neither a move
    /// number nor a result: an error if it is digits alone; otherwise a
    /// move token ("0-0" castling, or "1-2", "3x" for the game to refuse).
    #[cold]
    fn numeric_word(&self, at: usize, end: usize, digits: usize) -> Parse<()> {
        let word = &self.bytes[at..end];
        // Digits with no dots: PDN allows numeric squares in other games,
        // but none of ours; and "12" alone is no element.
        if digits == word.len() {
            return self.err(
                at,
                format!("'{}' is not a move, a move number or a result", lossy(word)),
            );
        }
        Ok(())
    }

    /// Hands `bytes[at..end]` on as a move token. Annotation glyphs glued
    /// to a move ("e4!?") are part of the import format; they carry no
    /// rules meaning and are cut off; a lone glyph ("!", "?!") is passed over.
    #[inline]
    fn push_move(&mut self, game: &mut GameRecord<'a>, at: usize, end: usize) -> Parse<()> {
        let word = &self.bytes[at..end];
        let mut text_end = end;
        if matches!(word.last(), Some(b'!' | b'?')) {
            text_end = at
                + word
                    .iter()
                    .rposition(|&c| c != b'!' && c != b'?')
                    .map_or(0, |i| i + 1);
            if text_end == at {
                self.pos = end;
                return Ok(());
            }
        }
        if text_end - at > super::MAX_MOVE_WORD {
            return self.long_word(at, text_end);
        }
        let Some(text) = self.text(at, text_end) else {
            return self.err(
                at,
                format!("'{}' is not a move (bytes that are not UTF-8)", lossy(word)),
            );
        };
        game.moves.push(MoveToken { text, offset: at });
        self.pos = end;
        Ok(())
    }

    /// A word too long to be a move.
    #[cold]
    fn long_word(&self, at: usize, end: usize) -> Parse<()> {
        let word = &self.bytes[at..end];
        self.err(at, format!("'{}' is not a move (too long)", lossy(word)))
    }

    /// Skips a comment. A comment does not run into the next game: a blank
    /// line then a tag line inside it means its `}` is missing.
    fn skip_comment(&mut self) -> Parse<()> {
        let b = self.bytes;
        let open = self.pos;
        // The common case, a comment on one line (`{ [%clk 0:05:00] }`): its
        // `}` comes before any line end, so no game can start inside it.
        // (Two bytes to look for are cheaper than three, and most inputs
        // have no CR at all.)
        let rest = &b[open + 1..];
        let first = if self.lf_only {
            memchr::memchr2(b'}', b'\n', rest)
        } else {
            memchr::memchr3(b'}', b'\n', b'\r', rest)
        };
        if let Some(i) = first
            && rest[i] == b'}'
        {
            self.pos = open + 2 + i;
            return Ok(());
        }
        if let Some(end) = boundary::comment_end(b, open) {
            self.pos = end;
            return Ok(());
        }
        self.err(open, "unterminated comment: '{' with no closing '}'")
    }

    /// Skips a variation (nested ones too). It ends, unclosed, at a game
    /// start ([`boundary::is_game_start`]): the next game's tags.
    fn skip_variation(&mut self) -> Parse<()> {
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
                b'[' if boundary::is_game_start(b, self.pos) => break,
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

/// A `[` in the movetext that does not start a game (a tag line at the
/// start of a line after a blank line): never part of the movetext.
const BRACKET_IN_MOVETEXT: &str = "'[' in the movetext: a command such as [%clk 0:01:00] belongs inside a comment {...}, and a game's tags start a line after a blank line";

/// Where the movetext goes on after a move number ending at `i`: past the
/// dots of Black's move when spaces stand between them and the number
/// (`1. ... Ba5`, as chess.js writes it, or `1. ...Ba5`).
fn dots_apart(b: &[u8], i: usize) -> usize {
    let j = skip_spaces(b, i);
    let dots = b[j.min(b.len())..]
        .iter()
        .take_while(|&&c| c == b'.')
        .count();
    if j > i && dots > 0 { j + dots } else { i }
}

/// The termination marker `word` is, if it is one.
fn result_text(word: &[u8]) -> Option<&'static str> {
    Some(match word {
        b"1-0" => "1-0",
        b"0-1" => "0-1",
        b"1/2-1/2" => "1/2-1/2",
        b"*" => "*",
        b"2-0" => "2-0",
        b"0-2" => "0-2",
        b"1-1" => "1-1",
        _ => return None,
    })
}
