//! Requests: the routes, the access checks, and the event streams (one
//! thread each, bounded in number; a stream that cannot be written to
//! ends, and one that falls behind the ring is told what it lost).

use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::super::schema::to_json;
use super::MAX_STREAMS;
use super::http::{self, Method, Request};
use super::hub::Hub;
use super::page;

/// `event: reset`: the client's resume id is of another run.
#[derive(Serialize)]
struct Reset<'a> {
    run: &'a str,
    message: &'static str,
}

/// `event: lost`: events that fell out of the ring before the client
/// read them, and the id it goes on at.
#[derive(Serialize)]
struct Lost {
    missed: u64,
    resumed_at: u64,
}

/// What every request handler needs.
pub(super) struct Cx {
    pub hub: Arc<Hub>,
    pub token: Option<String>,
    pub port: u16,
    /// The address the server was bound to (its URL names it).
    pub bound: std::net::IpAddr,
    pub stop: Arc<AtomicBool>,
    pub streams: Arc<AtomicUsize>,
    pub page: String,
    /// The printable snapshot (`/print`).
    pub print: String,
    pub css: String,
    /// The arbiter's desk (`crate::desk`), and whether it is all that is
    /// served (`verify-claim desk`).
    pub desk: Arc<crate::desk::Desk>,
    pub desk_only: bool,
}

/// The Content-Security-Policy of every answer: nothing from elsewhere,
/// scripts and styles only from the tool itself.
pub(crate) const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn respond(rq: Request, status: u16, kind: &str, body: Vec<u8>) {
    rq.respond(
        status,
        &[
            ("Content-Type", kind),
            ("Content-Security-Policy", CSP),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
        ],
        &body,
    );
}

/// The value of a query parameter.
fn param<'a>(query: &'a str, name: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
}

/// Equal, in a time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Whether the request may read the boards: the token when there is one;
/// on loopback without one, a Host that names this machine: the address
/// bound (the printed URL's, `127.0.0.2:PORT` too), `127.0.0.1`,
/// `localhost` or `[::1]` (a page from elsewhere cannot read the boards
/// through a name that resolves here).
fn allowed(rq: &Request, query: &str, cx: &Cx) -> bool {
    if let Some(token) = &cx.token {
        let given = param(query, "token").or_else(|| {
            rq.header("Authorization")
                .and_then(|v| v.strip_prefix("Bearer "))
        });
        return given.is_some_and(|g| same(g, token));
    }
    let host = rq.header("Host").unwrap_or("");
    let port = cx.port;
    cx.bound.is_loopback()
        && [
            std::net::SocketAddr::new(cx.bound, port).to_string(),
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ]
        .iter()
        .any(|h| h.eq_ignore_ascii_case(host))
}

/// Answers one request.
pub(super) fn handle(rq: Request, cx: &Cx) {
    let url = rq.target.clone();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let path = if cx.desk_only && path == "/" {
        "/desk"
    } else {
        path
    };
    if let Some(private) = crate::desk::route(path) {
        if private && !allowed(&rq, query, cx) {
            return crate::desk::api::error(
                rq,
                403,
                "forbidden: the URL printed at start has the token",
            );
        }
        return crate::desk::handle(rq, path, query, &cx.desk);
    }
    if cx.desk_only {
        return respond(
            rq,
            404,
            "text/plain; charset=utf-8",
            b"not found\n".to_vec(),
        );
    }
    if !matches!(rq.method, Method::Get | Method::Head) {
        return respond(
            rq,
            405,
            "text/plain; charset=utf-8",
            b"read-only\n".to_vec(),
        );
    }
    let public = match path {
        "/app.js" => Some(("text/javascript; charset=utf-8", page::JS)),
        "/app.css" => Some(("text/css; charset=utf-8", cx.css.as_str())),
        _ => None,
    };
    if let Some((kind, body)) = public {
        return respond(rq, 200, kind, body.as_bytes().to_vec());
    }
    if !matches!(path, "/" | "/print" | "/events" | "/state") {
        return respond(
            rq,
            404,
            "text/plain; charset=utf-8",
            b"not found\n".to_vec(),
        );
    }
    if !allowed(&rq, query, cx) {
        return respond(
            rq,
            403,
            "text/plain; charset=utf-8",
            b"forbidden: the URL printed at start has the token\n".to_vec(),
        );
    }
    match path {
        "/" => respond(
            rq,
            200,
            "text/html; charset=utf-8",
            cx.page.as_bytes().to_vec(),
        ),
        "/print" => respond(
            rq,
            200,
            "text/html; charset=utf-8",
            cx.print.as_bytes().to_vec(),
        ),
        "/state" => respond(rq, 200, "application/json", cx.hub.snapshot().into_bytes()),
        _ => open_stream(rq, query, cx),
    }
}

/// Runs an event stream, if there is room.
fn open_stream(rq: Request, query: &str, cx: &Cx) {
    if rq.method == Method::Head {
        return respond(rq, 200, "text/event-stream", Vec::new());
    }
    // From the first event, the one after a resume id of this run, or
    // again from the first with `event: reset` for an id of another run.
    let from = rq
        .header("Last-Event-ID")
        .or_else(|| param(query, "after"))
        .map_or(Ok(1), |v| cx.hub.resume(v));
    let boards = param(query, "boards") == Some("1");
    if cx.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        cx.streams.fetch_sub(1, Ordering::SeqCst);
        return respond(
            rq,
            503,
            "text/plain; charset=utf-8",
            format!("at most {MAX_STREAMS} event streams at once\n").into_bytes(),
        );
    }
    // This is the connection's own thread: the stream runs on it.
    let _ = stream(rq.stream, &cx.hub, from, boards, &cx.stop);
    cx.streams.fetch_sub(1, Ordering::SeqCst);
}

/// Writes events from id `next` on until the watch ends or the client
/// goes away.
fn stream(
    mut w: TcpStream,
    hub: &Hub,
    from: Result<u64, ()>,
    boards: bool,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut start = http::head(
        200,
        &[
            ("Content-Type", "text/event-stream"),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", CSP),
        ],
    );
    start.extend_from_slice(b"\r\nretry: 1000\n\n");
    if from.is_err() {
        let reset = Reset {
            run: &hub.run,
            message: "the resume id is of another run of the watch (it was restarted): the events start again from the first",
        };
        start.extend_from_slice(format!("event: reset\ndata: {}\n\n", to_json(&reset)).as_bytes());
    }
    let mut next = from.unwrap_or(1);
    w.write_all(&start)?;
    w.flush()?;
    let mut seen = if boards { Some(0) } else { None };
    let mut quiet_since = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        let b = hub.wait(next, seen, Duration::from_millis(250));
        let mut out = String::new();
        if b.lost > 0 {
            let lost = Lost {
                missed: b.lost,
                resumed_at: next + b.lost,
            };
            out.push_str(&format!("event: lost\ndata: {}\n\n", to_json(&lost)));
        }
        if seen.is_some() {
            seen = Some(b.versions);
            for j in &b.boards {
                out.push_str(&format!("event: board\ndata: {j}\n\n"));
            }
        }
        for (id, json) in &b.events {
            out.push_str(&format!("id: {}-{id}\ndata: {json}\n\n", hub.run));
            next = id + 1;
        }
        if out.is_empty() && quiet_since.elapsed() >= Duration::from_secs(15) {
            out.push_str(": still here\n\n");
        }
        if !out.is_empty() {
            w.write_all(out.as_bytes())?;
            w.flush()?;
            quiet_since = Instant::now();
        }
        if b.closed {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream's own messages, byte for byte.
    #[test]
    fn reset_and_lost_messages() {
        let reset = Reset {
            run: "ab12",
            message: "again",
        };
        assert_eq!(to_json(&reset), r#"{"run":"ab12","message":"again"}"#);
        let lost = Lost {
            missed: 5,
            resumed_at: 10_006,
        };
        assert_eq!(to_json(&lost), r#"{"missed":5,"resumed_at":10006}"#);
    }
}
