//! The desk's API: the body read within bounds, the JSON checked, the
//! engine asked on a bounded number of workers, the answer or a JSON
//! error. Every input gets a 200 or a 4xx: a body that is not the JSON
//! asked for, or a sheet that cannot be read, is a 400 whose `error` says
//! why (with the sheet's line and column where it has them); a body over
//! [`MAX_BODY`] is a 413, known from its Content-Length before a byte of
//! it is kept.

use std::io::{Read, Write};
use std::net::Shutdown;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};

use super::engine::{self, ClaimInput};
use super::{Desk, MAX_BODY};
use crate::names;
use crate::watch::serve::http::Request;
use crate::{Diagnostic, Edition, Side};

/// A body must arrive within this.
const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// Answers with the headers every page of the server sends.
pub(crate) fn respond(rq: Request, status: u16, kind: &str, body: Vec<u8>) {
    rq.respond(
        status,
        &[
            ("Content-Type", kind),
            ("Content-Security-Policy", crate::watch::serve::CSP),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
        ],
        &body,
    );
}

fn answer(rq: Request, status: u16, value: &Value) {
    let mut body = value.to_string().into_bytes();
    body.push(b'\n');
    respond(rq, status, "application/json", body);
}

/// A JSON error: `{"error": message}`.
pub(crate) fn error(rq: Request, status: u16, message: &str) {
    answer(rq, status, &json!({ "error": message }));
}

/// A sheet that cannot be read: the error as the CLI prints it, and its
/// parts.
fn diagnostic(rq: Request, d: &Diagnostic) {
    let mut v = json!({ "error": d.to_string(), "file": d.file, "message": d.message });
    if let Some(p) = d.place {
        v["line"] = json!(p.line);
        v["col"] = json!(p.col);
    }
    answer(rq, 400, &v);
}

/// Why a body is refused: its status and words.
type Refusal = (u16, String);

/// Reads the body, at most [`MAX_BODY`] bytes, all of them within
/// [`BODY_TIMEOUT`].
fn body(rq: &mut Request) -> Result<Vec<u8>, Refusal> {
    if rq.header("Transfer-Encoding").is_some() {
        return Err((411, "send the body with a Content-Length".to_owned()));
    }
    let Some(given) = rq.header("Content-Length") else {
        return Err((411, "a Content-Length is needed".to_owned()));
    };
    let len: u64 = given
        .trim()
        .parse()
        .map_err(|_| (400, format!("Content-Length {given:?} is not a number")))?;
    if len > MAX_BODY as u64 {
        return Err((
            413,
            format!("the body has {len} bytes; at most {MAX_BODY} are read"),
        ));
    }
    // len <= MAX_BODY: it fits a usize and is the most ever kept.
    let len = len as usize;
    let mut out = std::mem::take(&mut rq.rest);
    out.truncate(len);
    let start = Instant::now();
    let mut chunk = [0u8; 16 * 1024];
    while out.len() < len {
        let left = BODY_TIMEOUT.saturating_sub(start.elapsed());
        if left.is_zero() || rq.stream.set_read_timeout(Some(left)).is_err() {
            return Err((408, "the body did not arrive in time".to_owned()));
        }
        let want = (len - out.len()).min(chunk.len());
        match rq.stream.read(&mut chunk[..want]) {
            Ok(0) => return Err((400, "the body ended before its Content-Length".to_owned())),
            Ok(n) => out.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err((408, "the body did not arrive in time".to_owned())),
        }
    }
    Ok(out)
}

/// Refuses a body: the answer, then what the client still sends is read
/// and dropped for a moment (bounded), so that closing the connection does
/// not reset it before the client has read the answer.
fn refuse(mut rq: Request, (status, message): Refusal) {
    let mut stream = match rq.stream.try_clone() {
        Ok(s) => s,
        Err(_) => return error(rq, status, &message),
    };
    rq.rest.clear();
    error(rq, status, &message);
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Write);
    let start = Instant::now();
    let mut chunk = [0u8; 16 * 1024];
    let mut drained = 0usize;
    while drained < 4 * MAX_BODY && start.elapsed() < Duration::from_secs(2) {
        let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// `POST /api/claim`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimBody {
    sheets: Vec<String>,
    #[serde(rename = "move", default)]
    written: Option<String>,
    #[serde(default)]
    after: Option<String>,
    #[serde(default)]
    notation: Option<String>,
    #[serde(default)]
    claimant: Option<String>,
    #[serde(default)]
    rules: Option<String>,
}

/// `POST /api/reconstruct`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReconstructBody {
    sheets: Vec<String>,
    #[serde(default)]
    notation: Option<String>,
    #[serde(default)]
    candidates: Option<usize>,
}

/// An optional text field: empty is none.
fn given(s: Option<String>) -> Option<String> {
    s.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
}

fn sheets(sheets: Vec<String>) -> Result<Vec<String>, String> {
    match sheets.len() {
        1 | 2 => Ok(sheets),
        n => Err(format!(
            "\"sheets\" holds {n} texts: give one or two (the claimant's or White's first)"
        )),
    }
}

fn claim_input(b: ClaimBody) -> Result<ClaimInput, String> {
    let claimant = match given(b.claimant).as_deref() {
        None => None,
        Some(name) => Some(
            names::parse::<Side>(name)
                .map_err(|e| format!("\"claimant\": {name:?} is not {}", one_of(&e.expected)))?,
        ),
    };
    let rules = match given(b.rules).as_deref() {
        None => None,
        Some(name) => names::auto_or::<Edition>(name)
            .map_err(|e| format!("\"rules\": {name:?} is not {}", one_of(&e.expected)))?,
    };
    Ok(ClaimInput {
        sheets: sheets(b.sheets)?,
        written: given(b.written),
        after: given(b.after),
        notation: given(b.notation),
        claimant,
        rules,
    })
}

/// Names as a sentence lists them: `a, b or c`.
fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The JSON body, as `T`; a 400 saying why not.
fn parse<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Refusal> {
    serde_json::from_slice(bytes)
        .map_err(|e| (400, format!("the body is not the JSON asked for: {e}")))
}

/// The POST routes.
pub(crate) fn post(mut rq: Request, path: &str, desk: &Desk) {
    let kind = rq.header("Content-Type").unwrap_or("").to_ascii_lowercase();
    if kind.split(';').next().map(str::trim) != Some("application/json") {
        // A page from elsewhere cannot send this type without the browser
        // asking first (CORS), and this server never says yes.
        return refuse(
            rq,
            (
                415,
                "send the body as Content-Type: application/json".to_owned(),
            ),
        );
    }
    let bytes = match body(&mut rq) {
        Ok(b) => b,
        Err(r) => return refuse(rq, r),
    };
    let answered = match path {
        "/api/reconstruct" => parse::<ReconstructBody>(&bytes).and_then(|b| {
            let sheets = sheets(b.sheets).map_err(|m| (400, m))?;
            let notation = given(b.notation);
            let n = b.candidates.unwrap_or(5).clamp(1, 20);
            Ok(desk.run(|| engine::reconstruct(&sheets, notation.as_deref(), n)))
        }),
        _ => parse::<ClaimBody>(&bytes).and_then(|b| {
            let input = claim_input(b).map_err(|m| (400, m))?;
            let page = path == "/api/decide";
            Ok(desk.run(|| {
                engine::claim(&input).map(|d| {
                    if page {
                        json!({ "claim": d.json, "report": d.html })
                    } else {
                        d.json
                    }
                })
            }))
        }),
    };
    match answered {
        Ok(Ok(v)) => answer(rq, 200, &v),
        Ok(Err(d)) => diagnostic(rq, &d),
        Err(r) => error(rq, r.0, &r.1),
    }
}

/// `GET /api/game?id=ID`: a live board's record, as PGN.
pub(crate) fn game(rq: Request, query: &str, desk: &Desk) {
    let id = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("id="))
        .map(decode);
    match id
        .as_deref()
        .and_then(|id| desk.record(id).map(|r| (id, r)))
    {
        Some((id, record)) => answer(rq, 200, &json!({ "id": id, "record": record })),
        None => error(rq, 404, "no such game on the live board"),
    }
}

/// Percent-decoding of a query value (`+` is a space); a bad escape stays
/// as it is.
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_decoded() {
        assert_eq!(decode("a%2Fb%23c+d"), "a/b#c d");
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz%4"), "%zz%4");
        assert_eq!(decode("%C3%A9"), "é");
    }

    #[test]
    fn bodies_are_checked() {
        let ok = parse::<ClaimBody>(br#"{"sheets":["1. e4 *"],"move":"","after":null}"#);
        let input = ok.map_err(|e| e.1).and_then(claim_input);
        assert!(input.is_ok_and(|i| i.written.is_none() && i.sheets.len() == 1));
        assert!(parse::<ClaimBody>(br#"{"sheets":"x"}"#).is_err());
        assert!(parse::<ClaimBody>(br#"{"sheets":[],"mvoe":"x"}"#).is_err());
        let three = parse::<ClaimBody>(br#"{"sheets":["a","b","c"]}"#);
        assert!(three.map_err(|e| e.1).and_then(claim_input).is_err());
        let side = parse::<ClaimBody>(br#"{"sheets":["a"],"claimant":"red"}"#);
        assert!(side.map_err(|e| e.1).and_then(claim_input).is_err());
    }

    /// The claimant and the rules are read by the library's name tables;
    /// a bad one is named with every name it could have been.
    #[test]
    fn claimant_and_rules_by_their_names() {
        let input = |body: &[u8]| {
            parse::<ClaimBody>(body)
                .map_err(|e| e.1)
                .and_then(claim_input)
        };
        let ok = input(br#"{"sheets":["a"],"claimant":"black","rules":"fide-2014"}"#);
        assert!(
            ok.is_ok_and(|i| i.claimant == Some(Side::Black) && i.rules == Some(Edition::Fide2014))
        );
        let auto = input(br#"{"sheets":["a"],"rules":"auto"}"#);
        assert!(auto.is_ok_and(|i| i.rules.is_none()));
        let side = input(br#"{"sheets":["a"],"claimant":"red"}"#).err();
        assert_eq!(
            side.as_deref(),
            Some("\"claimant\": \"red\" is not white or black")
        );
        let rules = input(br#"{"sheets":["a"],"rules":"fide-2000"}"#).err();
        assert_eq!(
            rules.as_deref(),
            Some(
                "\"rules\": \"fide-2000\" is not auto, fide-2009, fide-2014, fide-2018 or fide-2023"
            )
        );
    }
}
