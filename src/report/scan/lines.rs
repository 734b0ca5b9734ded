//! The one-line formats' lines (jsonl, csv, github), made on the workers
//! ([`Needs::lines`]): the calling thread, which puts the findings in
//! order, only writes their bytes with the game and line numbers put in.
//! A row that comes without one (a sink that did not ask) is formatted
//! the same way where it is printed.

use std::io::{self, Write};
use std::sync::Arc;

use super::{FindingLine, compressed, csv_field, gh_escape, gh_level, side};
use crate::scan::{Formatted, Hole, LineHook, Needs, Row};

/// A format's line maker as the workers' hook.
struct Lines(fn(&Row<'_>) -> io::Result<Formatted>);

impl LineHook for Lines {
    fn line(&self, row: &Row<'_>) -> Option<Formatted> {
        (self.0)(row).ok()
    }
}

/// What a one-line format needs: its lines made on the workers.
pub(super) fn needs(make: fn(&Row<'_>) -> io::Result<Formatted>) -> Needs {
    Needs {
        lines: Some(Arc::new(Lines(make))),
        ..Needs::default()
    }
}

/// Writes `r`'s line: the one its worker made, else made here.
pub(super) fn write(
    r: &Row<'_>,
    make: fn(&Row<'_>) -> io::Result<Formatted>,
    out: &mut dyn Write,
) -> io::Result<()> {
    match r.formatted() {
        Some(line) => line.write_filled(r, out),
        None => make(r)?.write_filled(r, out),
    }
}

/// The JSON object with its game and line left as holes: serialized with
/// both 0, the object's head (file, game, line: the schema's first fields)
/// checked and cut at them.
pub(super) fn jsonl(r: &Row<'_>) -> io::Result<Formatted> {
    let mut line = FindingLine::new(r);
    line.game = 0;
    line.line = 0;
    let json = serde_json::to_vec(&line)?;
    let mut head = br#"{"file":"#.to_vec();
    serde_json::to_writer(&mut head, &line.file)?;
    head.extend_from_slice(br#","game":"#);
    let rest = json
        .strip_prefix(head.as_slice())
        .and_then(|r| r.strip_prefix(br#"0,"line":0"#))
        .ok_or_else(|| io::Error::other("a finding's JSON does not begin with its file"))?;
    let mut f = Formatted::default();
    f.write_all(&head)?;
    f.hole(Hole::Game);
    f.write_all(br#","line":"#)?;
    f.hole(Hole::Line);
    f.write_all(rest)?;
    writeln!(f)?;
    Ok(f)
}

pub(super) fn csv(r: &Row<'_>) -> io::Result<Formatted> {
    let mut out = Formatted::default();
    let f = &r.placed.finding;
    csv_field(&mut out, r.file)?;
    out.write_all(b",")?;
    out.hole(Hole::Game);
    out.write_all(b",")?;
    out.hole(Hole::Line);
    write!(
        out,
        ",{},{},{},{},{},",
        r.placed.place.col,
        f.ply,
        f.kind.name(),
        f.kind.severity().name(),
        side(r).unwrap_or("")
    )?;
    for field in [
        f.mv.as_deref(),
        f.recorded.as_deref(),
        f.expected.as_deref(),
    ] {
        csv_field(&mut out, field.unwrap_or(""))?;
        out.write_all(b",")?;
    }
    csv_field(&mut out, &f.message)?;
    out.write_all(b"\n")?;
    Ok(out)
}

pub(super) fn github(r: &Row<'_>) -> io::Result<Formatted> {
    let mut out = Formatted::default();
    let f = &r.placed.finding;
    let level = gh_level(f.kind.severity());
    let (file, kind) = (gh_escape(r.file, true), gh_escape(f.kind.name(), true));
    let message = gh_escape(&f.message, false);
    let col = r.placed.place.col;
    if compressed(r.file) {
        // A line of the decompressed text would point into the
        // compressed file: the annotation names the game instead.
        write!(out, "::{level} file={file},title={kind} in game ")?;
        out.hole(Hole::Game);
        out.write_all(b"::game ")?;
        out.hole(Hole::Game);
        write!(out, ", ply {} (line ", f.ply)?;
        out.hole(Hole::Line);
        writeln!(out, ", column {col} of the decompressed text): {message}")?;
        return Ok(out);
    }
    write!(out, "::{level} file={file},line=")?;
    out.hole(Hole::Line);
    write!(out, ",col={col},title={kind}::game ")?;
    out.hole(Hole::Game);
    writeln!(out, ", ply {}: {message}", f.ply)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::scan::{Finding, Kind};
    use crate::diag::Place;
    use crate::game::Side;
    use crate::scan::Placed;

    fn placed(kind: Kind, recorded: Option<&str>) -> Placed {
        Placed {
            game: 3,
            place: Place { line: 41, col: 7 },
            white: "Ann \"A\", Jr".into(),
            black: "=Bob".into(),
            finding: Finding {
                kind,
                ply: 12,
                offset: 0,
                side: Some(Side::White),
                mv: Some("Nf3".into()),
                message: "a, \"quoted\"\nline (9.2)".into(),
                recorded: recorded.map(Into::into),
                expected: recorded.map(|_| "1/2-1/2".into()),
            },
            result: String::new(),
            board: None,
            text: None,
        }
    }

    /// The line as the printers wrote it before their lines were made on
    /// the workers, numbers in place.
    fn in_order(r: &Row<'_>, make: fn(&Row<'_>) -> io::Result<Formatted>) -> Vec<u8> {
        let mut out = Vec::new();
        write(r, make, &mut out).unwrap();
        out
    }

    #[test]
    fn a_line_made_on_a_worker_is_the_line_made_in_order() {
        for kind in [Kind::ThreefoldClaimable, Kind::ResultMismatch] {
            let recorded = (kind == Kind::ResultMismatch).then_some("1-0");
            for file in ["a \"b\",c.pgn", "games.pgn.zst"] {
                let mut p = placed(kind, recorded);
                // On the worker: the game within the chunk, lines from its start.
                let worker = Row {
                    file,
                    game: 3,
                    placed: &p,
                };
                let made = [jsonl, csv, github].map(|make| make(&worker).unwrap());
                // In order: numbered in the input.
                p.place.line += 1000;
                for (make, line) in [jsonl, csv, github].into_iter().zip(made) {
                    let fresh = in_order(
                        &Row {
                            file,
                            game: 2003,
                            placed: &p,
                        },
                        make,
                    );
                    p.text = Some(line);
                    let filled = in_order(
                        &Row {
                            file,
                            game: 2003,
                            placed: &p,
                        },
                        make,
                    );
                    p.text = None;
                    assert_eq!(
                        String::from_utf8(filled).unwrap(),
                        String::from_utf8(fresh).unwrap()
                    );
                }
            }
        }
    }

    #[test]
    fn the_json_line_is_the_finding_line_serialized() {
        let p = placed(Kind::ResultMismatch, Some("1-0"));
        let r = Row {
            file: "x.pgn",
            game: 2003,
            placed: &p,
        };
        let mut want = serde_json::to_vec(&FindingLine::new(&r)).unwrap();
        want.push(b'\n');
        let got = in_order(&r, jsonl);
        assert_eq!(
            String::from_utf8(got).unwrap(),
            String::from_utf8(want).unwrap()
        );
        assert!(
            String::from_utf8(in_order(&r, csv))
                .unwrap()
                .starts_with("x.pgn,2003,41,7,")
        );
    }
}
