//! `--format pgn`: the input games written back, annotated.
//!
//! Each game gets a tag naming the verdict (`[VerifyClaim "..."]`, after its
//! last tag) and a comment at the ply of each finding (`{verify-claim: ...}`,
//! after the move that produced the position; before the first move for the
//! start position). Nothing else changes: the text of the record is copied
//! byte for byte from the input and the annotations are inserted into it,
//! so tags, moves, comments, variations and NAGs stay exactly as they were.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::ClaimReport;
use super::scan::Printer;
use crate::claims::Form;
use crate::claims::scan::Severity;
use crate::record::pgn::token_end;
use crate::record::{Encoding, GameRecord, Reader};
use crate::scan::{ChunkHook, Needs, Placed, Row};

/// The name of the tag that carries the verdict.
pub const TAG: &str = "VerifyClaim";

/// What to add to one game.
#[derive(Clone, Debug, Default)]
pub struct Annotation {
    /// The value of the `VerifyClaim` tag; none: no tag.
    pub tag: Option<String>,
    /// Comments by ply (several at one ply are joined into one comment).
    pub comments: BTreeMap<usize, Vec<String>>,
}

impl Annotation {
    pub fn comment(&mut self, ply: usize, text: impl Into<String>) {
        self.comments.entry(ply).or_default().push(text.into());
    }
}

/// A comment's text: a `}` would end it early.
fn comment_text(parts: &[String]) -> String {
    format!("{{verify-claim: {}}}", parts.join("; ").replace('}', ")"))
}

fn tag_value(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The insertions (offset, text) that annotate one game, in order.
fn inserts(bytes: &[u8], record: &GameRecord<'_>, a: &Annotation) -> Vec<(usize, Vec<u8>)> {
    let mut out = Vec::new();
    if let Some(tag) = &a.tag {
        let line = format!("[{TAG} \"{}\"]", tag_value(tag));
        match record.tags.last() {
            Some(t) => out.push((t.end, format!("\n{line}").into_bytes())),
            None => out.push((record.offset, format!("{line}\n\n").into_bytes())),
        }
    }
    for (&ply, parts) in &a.comments {
        let comment = comment_text(parts);
        let (at, text) = match ply.checked_sub(1).and_then(|i| record.moves.get(i)) {
            Some(m) => (token_end(bytes, m.offset), format!(" {comment}")),
            // The start position: before the first move (or the result).
            None => match record
                .moves
                .first()
                .map(|m| m.offset)
                .or(record.result.map(|r| r.offset))
            {
                Some(at) => (at, format!("{comment} ")),
                None => (record.end, format!("\n{comment}")),
            },
        };
        out.push((at, text.into_bytes()));
    }
    out
}

/// `bytes[start..end]` with the insertions made (stable for equal offsets).
fn splice(bytes: &[u8], start: usize, end: usize, mut ins: Vec<(usize, Vec<u8>)>) -> Vec<u8> {
    ins.sort_by_key(|i| i.0);
    let mut out = Vec::with_capacity(end - start + ins.iter().map(|i| i.1.len()).sum::<usize>());
    let mut at = start;
    for (off, text) in ins {
        let off = off.clamp(at, end);
        out.extend_from_slice(&bytes[at..off]);
        out.extend_from_slice(&text);
        at = off;
    }
    out.extend_from_slice(&bytes[at..end]);
    out
}

/// One game's text, from its first byte to its end, annotated.
pub fn annotate_game(bytes: &[u8], record: &GameRecord<'_>, a: &Annotation) -> Vec<u8> {
    let mut end = record.end.min(bytes.len());
    while end > record.offset && bytes[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    let mut out = splice(bytes, record.offset, end, inserts(bytes, record, a));
    out.push(b'\n');
    out
}

/// The annotation of a decided claim: the verdict in the tag and at the
/// claim point, the occurrences of the position, where the game ended.
pub fn claim_annotation(r: &ClaimReport) -> Annotation {
    let v = &r.verdict;
    let words = super::text::rule_words;
    let mut a = Annotation::default();
    let grounds: Vec<String> = v
        .grounds()
        .iter()
        .map(|g| format!("{} ({})", words(g.rule), g.article))
        .collect();
    a.tag = Some(if v.valid() {
        format!("valid: {}, {}", grounds.join("; "), r.rules)
    } else {
        format!("not valid, {}", r.rules)
    });
    let claimant = v.claimant.title();
    let at_claim: Vec<String> = if v.valid() {
        v.grounds()
            .iter()
            .map(|g| match (g.form, &r.written_label) {
                (Form::WrittenMove, Some(w)) => {
                    format!(
                        "{} claimable by {claimant} with {w} ({})",
                        words(g.rule),
                        g.article
                    )
                }
                _ => format!(
                    "{} claimable by {claimant} on the board ({})",
                    words(g.rule),
                    g.article
                ),
            })
            .collect()
    } else {
        let by = v.claimed_by.unwrap_or(v.claimant).title();
        let mut parts = vec![format!(
            "claim by {by} not valid ({}): {}",
            r.rules,
            v.reasons()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        )];
        parts.extend(
            v.penalty
                .as_ref()
                .map(|p| format!("what follows: {}", p.text)),
        );
        parts
    };
    if !v.wrong_side() {
        let occurrences = [
            (&v.repetitions, "the claimed position".to_owned()),
            (
                &v.repetitions_written,
                format!(
                    "the position after {}",
                    r.written_label.as_deref().unwrap_or("the written move")
                ),
            ),
        ];
        for (plies, what) in occurrences {
            if plies.len() < 2 {
                continue;
            }
            for (k, &q) in plies.iter().enumerate().filter(|&(_, &q)| q < v.ply) {
                a.comment(
                    q,
                    format!("{what}, occurrence {} of {}", k + 1, plies.len()),
                );
            }
        }
    }
    if let Some(over) = &v.game_over {
        a.comment(
            over.ply,
            format!(
                "the game ended here: {} ({})",
                over.reason.name(),
                over.article
            ),
        );
    }
    for c in at_claim {
        a.comment(v.ply, c);
    }
    a
}

/// The annotation of one scanned game: a comment per finding, the kinds in
/// the tag (most severe first).
fn scan_annotation<'a>(findings: impl Iterator<Item = &'a Placed>) -> Annotation {
    let mut a = Annotation::default();
    let mut kinds: Vec<(Severity, &'static str)> = Vec::new();
    for p in findings {
        let f = &p.finding;
        a.comment(f.ply, format!("{}: {}", f.kind.name(), f.message));
        let k = (f.kind.severity(), f.kind.name());
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    if kinds.is_empty() {
        return a;
    }
    let mut parts: Vec<String> = Vec::new();
    for sev in [Severity::Error, Severity::Warning, Severity::Info] {
        let names: Vec<&str> = kinds.iter().filter(|k| k.0 == sev).map(|k| k.1).collect();
        if !names.is_empty() {
            parts.push(format!("{}: {}", sev.name(), names.join(", ")));
        }
    }
    a.tag = Some(parts.join("; "));
    a
}

/// A scan chunk written back with its games annotated. `findings` are the
/// chunk's (games numbered from 1 within the chunk); those below `min` are
/// left out. Games the reader cannot read are copied unchanged.
pub fn annotate_chunk(
    bytes: &[u8],
    encoding: Encoding,
    findings: &[Placed],
    min: Severity,
) -> Vec<u8> {
    let mut reader = Reader::new(bytes, encoding);
    let mut ins = Vec::new();
    let mut game = 0;
    while let Some(rec) = reader.next_game() {
        game += 1;
        let Ok(rec) = rec else { continue };
        let a = scan_annotation(
            findings
                .iter()
                .filter(|p| p.game == game && p.finding.kind.severity() >= min),
        );
        ins.extend(inserts(bytes, &rec, &a));
    }
    splice(bytes, 0, bytes.len(), ins)
}

/// The scan printer for `--format pgn`: its hook writes each chunk back
/// annotated on the workers, with the findings at or above its severity;
/// it writes those texts as they come.
pub struct Pgn {
    hook: std::sync::Arc<Annotate>,
}

impl Pgn {
    pub fn new(min: Severity) -> Pgn {
        Pgn {
            hook: std::sync::Arc::new(Annotate(min)),
        }
    }
}

/// [`annotate_chunk`] as a chunk hook.
struct Annotate(Severity);

impl ChunkHook for Annotate {
    fn chunk(&self, bytes: &[u8], encoding: Encoding, findings: &[Placed]) -> Vec<u8> {
        annotate_chunk(bytes, encoding, findings, self.0)
    }
}

impl Printer for Pgn {
    fn needs(&self) -> Needs {
        Needs {
            boards: false,
            chunk: Some(self.hook.clone()),
            ..Needs::default()
        }
    }

    fn finding(&mut self, _row: &Row<'_>, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn chunk_text(&mut self, text: &[u8], out: &mut dyn Write) -> io::Result<()> {
        out.write_all(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_after_moves_and_tags_and_keeps_everything_else() {
        let src = "[White \"A\"]\n[Black \"B\"]\n\n1. e4!? {x} (1. d4) e5 $1 2. Nf3 *\n";
        let mut r = Reader::new(src.as_bytes(), Encoding::Utf8);
        let rec = r.next_game().unwrap().unwrap();
        let mut a = Annotation {
            tag: Some("valid \"x\"".into()),
            ..Annotation::default()
        };
        a.comment(0, "start");
        a.comment(1, "after e4 {a}");
        a.comment(3, "one");
        a.comment(3, "two");
        let out = String::from_utf8(annotate_game(src.as_bytes(), &rec, &a)).unwrap();
        assert_eq!(
            out,
            "[White \"A\"]\n[Black \"B\"]\n[VerifyClaim \"valid \\\"x\\\"\"]\n\n1. {verify-claim: start} e4!? {verify-claim: after e4 {a)} {x} (1. d4) e5 $1 2. Nf3 {verify-claim: one; two} *\n"
        );
    }

    #[test]
    fn a_game_without_tags_or_moves() {
        let src = "1-0";
        let mut r = Reader::new(src.as_bytes(), Encoding::Utf8);
        let rec = r.next_game().unwrap().unwrap();
        let mut a = Annotation {
            tag: Some("t".into()),
            ..Annotation::default()
        };
        a.comment(0, "c");
        let out = String::from_utf8(annotate_game(src.as_bytes(), &rec, &a)).unwrap();
        assert_eq!(out, "[VerifyClaim \"t\"]\n\n{verify-claim: c} 1-0\n");
    }
}
