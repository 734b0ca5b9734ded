//! HTTP/1.1 for the live board, as little as a read-only local server
//! needs: one request per connection (every answer says `Connection:
//! close`), its head read by `httparse` (hyper's request parser), a
//! thread per connection, bounded in number.
//!
//! Not `tiny_http`, which served the board before: its 0.12 release (the
//! last) hands each connection to a pool whose `spawn` counts a thread that
//! is waking up as idle, so when two connections arrive together one can
//! wait in the pool's queue until some other connection ends; an event
//! stream never ends, so a browser's `/events` (which arrives together
//! with `/app.js` and `/app.css`) could wait for minutes. Measured: 200
//! clients at once, 45 of them still unanswered 3 s later.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A request head longer than this is refused (431).
pub const MAX_HEAD: usize = 16 * 1024;
/// A request head must arrive within this (a client that sends nothing
/// holds a thread no longer).
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// A client that reads nothing for this long is dropped.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// What the server tells apart among methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    /// The desk's API (`crate::desk`); the live board answers it 405.
    Post,
    Other,
}

/// One request, its head read; the connection to answer on.
pub struct Request {
    pub method: Method,
    /// The request target: path and query.
    pub target: String,
    headers: Vec<(String, String)>,
    /// The bytes read past the head: the start of a body, if any.
    pub rest: Vec<u8>,
    pub stream: TcpStream,
}

impl Request {
    /// The value of a header (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Answers with a whole body (for HEAD, only its length) and closes.
    pub fn respond(mut self, status: u16, headers: &[(&str, &str)], body: &[u8]) {
        let mut out = head(status, headers);
        out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        if self.method != Method::Head {
            out.extend_from_slice(body);
        }
        // A client that went away is no concern of the watch.
        let _ = self
            .stream
            .write_all(&out)
            .and_then(|()| self.stream.flush());
    }
}

/// The status line and the headers, without the blank line that ends them.
pub fn head(status: u16, headers: &[(&str, &str)]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status)).into_bytes();
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(b"Connection: close\r\n");
    out
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// Reads a request head from a new connection. A malformed or oversized
/// head is answered here (400, 431, 408) and gives `None`, as does a
/// client that closes first.
pub fn read(mut stream: TcpStream) -> Option<Request> {
    stream.set_nonblocking(false).ok()?;
    stream.set_read_timeout(Some(HEAD_TIMEOUT)).ok()?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT)).ok()?;
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    loop {
        match parse(&buf) {
            Parsed::Done(method, target, headers, len) => {
                return Some(Request {
                    method,
                    target,
                    headers,
                    rest: buf.get(len..).unwrap_or_default().to_vec(),
                    stream,
                });
            }
            Parsed::Bad(status) => return refuse(stream, status),
            Parsed::More if buf.len() >= MAX_HEAD => return refuse(stream, 431),
            Parsed::More => {}
        }
        match stream.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                return refuse(stream, 408);
            }
            Err(_) => return None,
        }
    }
}

enum Parsed {
    /// The head, and its length in bytes.
    Done(Method, String, Vec<(String, String)>, usize),
    More,
    Bad(u16),
}

fn parse(buf: &[u8]) -> Parsed {
    let mut slots = [httparse::EMPTY_HEADER; 64];
    let mut rq = httparse::Request::new(&mut slots);
    let len = match rq.parse(buf) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Parsed::More,
        Err(httparse::Error::TooManyHeaders) => return Parsed::Bad(431),
        Err(_) => return Parsed::Bad(400),
    };
    let method = match rq.method {
        Some("GET") => Method::Get,
        Some("HEAD") => Method::Head,
        Some("POST") => Method::Post,
        _ => Method::Other,
    };
    let headers = rq
        .headers
        .iter()
        .map(|h| {
            let value = String::from_utf8_lossy(h.value).into_owned();
            (h.name.to_owned(), value)
        })
        .collect();
    Parsed::Done(method, rq.path.unwrap_or("/").to_owned(), headers, len)
}

/// Answers `status` with no body and closes; no request to hand on.
pub fn refuse(mut stream: TcpStream, status: u16) -> Option<Request> {
    let mut out = head(status, &[("Content-Type", "text/plain; charset=utf-8")]);
    out.extend_from_slice(b"Content-Length: 0\r\n\r\n");
    let _ = stream.write_all(&out);
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_read_or_refused() {
        let ok = parse(b"GET /state?x=1 HTTP/1.1\r\nHost: a\r\nhOsT: b\r\n\r\n");
        let Parsed::Done(m, t, h, _) = ok else {
            panic!("not read")
        };
        assert_eq!((m, t.as_str(), h.len()), (Method::Get, "/state?x=1", 2));
        assert!(matches!(parse(b"GET / HTTP/1.1\r\nHost"), Parsed::More));
        assert!(matches!(
            parse(b"GET / HTTP/1.1\r\n\x01\r\n\r\n"),
            Parsed::Bad(400)
        ));
        assert!(matches!(
            parse(b"POST / HTTP/1.1\r\n\r\nbody"),
            Parsed::Done(Method::Post, _, _, 19)
        ));
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "A: b\r\n".repeat(65));
        assert!(matches!(parse(many.as_bytes()), Parsed::Bad(431)));
    }
}
