//! Tag pairs (`[Name "value"]`) and how their values are decoded (UTF-8,
//! ISO-8859-1, or either: [`Encoding`]).

use std::borrow::Cow;

use super::lex::{is_name_byte, is_value_stop, skip_line_spaces};
use super::{Encoding, Parse, Reader, Tag};
use crate::record::boundary;

impl<'a> Reader<'a> {
    /// The tag at `self.pos` if it has the common shape, `[Name "value"]`:
    /// the name right after the `[`, one space, a value without `\\` that
    /// is UTF-8, and the `]` right after its `"` (the encoding not
    /// [`Encoding::Latin1`]). What [`Reader::read_tag`] reads there, without
    /// its general steps; `None` (nothing read) for anything else.
    #[inline]
    pub(super) fn plain_tag(&mut self) -> Option<Tag<'a>> {
        if self.encoding == Encoding::Latin1 {
            return None;
        }
        let b = self.bytes;
        let open = self.pos;
        let name_start = open + 1;
        let mut i = name_start;
        while i < b.len() && is_name_byte(b[i]) {
            i += 1;
        }
        if i == name_start || b.get(i) != Some(&b' ') || b.get(i + 1) != Some(&b'"') {
            return None;
        }
        let value_start = i + 2;
        let mut j = value_start;
        while j < b.len() && !is_value_stop(b[j]) {
            j += 1;
        }
        if b.get(j) != Some(&b'"') || b.get(j + 1) != Some(&b']') {
            return None;
        }
        // One look-up for the name, the space, the quote and the value.
        let text = self.text(name_start, j)?;
        let name = text.get(..i - name_start)?;
        let value = text.get(value_start - name_start..)?;
        self.pos = j + 2;
        Some(Tag {
            name,
            value: Cow::Borrowed(value),
            offset: open,
            end: self.pos,
            quotes_unescaped: false,
        })
    }

    pub(super) fn read_tag(&mut self, latin1: &mut bool) -> Parse<Tag<'a>> {
        let b = self.bytes;
        let open = self.pos;
        let name_start = skip_line_spaces(b, open + 1);
        let mut i = name_start;
        while i < b.len() && is_name_byte(b[i]) {
            i += 1;
        }
        if i == name_start {
            return self.err(open, "a tag without a name (expected [Name \"value\"])");
        }
        // Checked ASCII above, so this cannot fail; still no unwrap on input.
        let name = self.text(name_start, i).unwrap_or("?");
        i = skip_line_spaces(b, i);
        if i >= b.len() || b[i] != b'"' {
            return self.err(
                open,
                format!("tag [{name} ...] has no quoted value (expected [{name} \"value\"])"),
            );
        }
        let value_start = i + 1;
        let (mut value_end, has_escape) = self.tag_value_end(open, value_start, name)?;
        i = skip_line_spaces(b, value_end + 1);
        let mut quotes_unescaped = false;
        if i >= b.len() || b[i] != b']' {
            // `[White ""Socrates Expert""]`: quotes in the value that are
            // not escaped. Read as python-chess reads it, up to a `"` that
            // the `]` follows on the line.
            let Some(q) = quote_before_bracket(b, value_end + 1) else {
                return self.err(
                    open,
                    format!("unterminated tag [{name} ...]: no closing ']'"),
                );
            };
            (value_end, quotes_unescaped) = (q, true);
            i = skip_line_spaces(b, q + 1);
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
            end: self.pos,
            quotes_unescaped,
        })
    }

    /// The closing `"` of the tag value that begins at `from` (the tag
    /// opened at `open`), and whether the value holds a `\` escape. A `\`
    /// takes the next byte literally; the value must end on its line.
    fn tag_value_end(&self, open: usize, from: usize, name: &str) -> Parse<(usize, bool)> {
        let b = self.bytes;
        let mut i = from;
        let mut has_escape = false;
        while let Some(k) = b[i.min(b.len())..].iter().position(|&c| is_value_stop(c)) {
            i += k;
            match b[i] {
                b'"' => return Ok((i, has_escape)),
                0 => return self.err(i, "binary data (a NUL byte) in a tag value"),
                b'\\' => {
                    has_escape = true;
                    i += 1;
                    if b.get(i).is_some_and(|&c| c != 0 && !boundary::is_eol(c)) {
                        i += 1;
                    }
                }
                _ => break, // a line end
            }
        }
        self.err(
            open,
            format!("unterminated tag [{name} ...]: no closing '\"' on its line"),
        )
    }

    fn decode_value(
        &mut self,
        from: usize,
        to: usize,
        name: &str,
        latin1: &mut bool,
    ) -> Parse<Cow<'a, str>> {
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
}

/// The first `"` at or after `from` on its line that a `]` follows (spaces
/// between them allowed).
fn quote_before_bracket(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i < b.len() && !boundary::is_eol(b[i]) && b[i] != 0 {
        if b[i] == b'"' && b.get(skip_line_spaces(b, i + 1)) == Some(&b']') {
            return Some(i);
        }
        i += 1;
    }
    None
}
