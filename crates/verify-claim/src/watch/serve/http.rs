//! HTTP/1.1 for the live board, as little as a read-only local server
//! needs: one request per connection (every answer says `Connection:
//! close`), its head read by `httparse` (hyper's request parser), a
//! thread per connection, bounded in number. An application gives
//! [`serve`] its listener and one routing function, `Fn(Request)`, called
//! on the connection's own thread once the head is read; it answers with
//! [`Request::respond`] or takes the socket over (an event stream).
//!
//! Slow clients: the whole head must arrive within [`HEAD_TIMEOUT`] (one
//! deadline, not one per `read`), and the heads still arriving are bounded
//! per client address with room kept for new ones ([`super::heads`]).
//!
//! Not `tiny_http`, which served the board before: its 0.12 release (the
//! last) hands each connection to a pool whose `spawn` counts a thread that
//! is waking up as idle, so when two connections arrive together one can
//! wait in the pool's queue until some other connection ends; an event
//! stream never ends, so a browser's `/events` (which arrives together
//! with `/app.js` and `/app.css`) could wait for minutes. Measured: 200
//! clients at once, 45 of them still unanswered 3 s later.

use std::io::{self, Read, Write};
use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::heads::{Heads, Slot};

/// A request head longer than this is refused (431).
pub(crate) const MAX_HEAD: usize = 16 * 1024;
/// A whole request head must arrive within this (a client that sends
/// nothing, or a byte now and then, holds a thread no longer).
pub(crate) const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// A client that reads nothing for this long is dropped.
pub(crate) const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// What the server tells apart among methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Head,
    /// The desk's API (`crate::desk`); the live board answers it 405.
    Post,
    Other,
}

/// One request, its head read; the connection to answer on.
pub(crate) struct Request {
    pub method: Method,
    /// The request target: path and query.
    pub target: String,
    headers: Vec<(String, String)>,
    /// The bytes read past the head: the start of a body, if any.
    pub rest: Vec<u8>,
    pub stream: TcpStream,
    /// The client's address.
    pub peer: Option<IpAddr>,
}

impl Request {
    /// The value of a header (names compared without case).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Answers with a whole body (for HEAD, only its length) and closes.
    pub(crate) fn respond(mut self, status: u16, headers: &[(&str, &str)], body: &[u8]) {
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
pub(crate) fn head(status: u16, headers: &[(&str, &str)]) -> Vec<u8> {
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

/// The routing function of an application: answers one request (on the
/// connection's own thread).
pub(crate) type Route = Arc<dyn Fn(Request) + Send + Sync>;

/// Accepts connections on `listener` until `stop` is set, each on a thread
/// of its own (at most `max` at once; more get a 503 unless a slow head
/// can be closed to make room), and hands each request to `route`.
pub(crate) fn serve(
    listener: TcpListener,
    max: usize,
    stop: Arc<AtomicBool>,
    route: Route,
) -> io::Result<JoinHandle<()>> {
    listener.set_nonblocking(true)?;
    let count = Arc::new(AtomicUsize::new(0));
    let heads = Arc::new(Heads::default());
    std::thread::Builder::new()
        .name("serve".to_owned())
        .spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((s, peer)) => connection(s, peer.ip(), max, &count, &heads, &route),
                    // Nothing waiting (the listener does not block, so
                    // that the loop sees the stop), or a passing error.
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        })
}

/// Answers a new connection on a thread of its own, if there is room.
fn connection(
    s: TcpStream,
    ip: IpAddr,
    max: usize,
    count: &Arc<AtomicUsize>,
    heads: &Arc<Heads>,
    route: &Route,
) {
    let full = count.load(Ordering::SeqCst) >= max;
    let slot = if heads.make_room(ip, full) {
        heads.admit(&s, ip)
    } else {
        None
    };
    let Some(slot) = slot else {
        // On the accepting thread: a short wait at most.
        let _ = s.set_nonblocking(false);
        let _ = s.set_write_timeout(Some(Duration::from_millis(100)));
        refuse(s, 503);
        return;
    };
    count.fetch_add(1, Ordering::SeqCst);
    let (route, done) = (Arc::clone(route), Arc::clone(count));
    let spawned = std::thread::Builder::new()
        .name("http".to_owned())
        .stack_size(256 << 10)
        .spawn(move || {
            if let Some(mut rq) = read(s, &slot) {
                drop(slot);
                rq.peer = Some(ip);
                route(rq);
            }
            done.fetch_sub(1, Ordering::SeqCst);
        });
    if spawned.is_err() {
        count.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Reads a request head from a new connection, within [`HEAD_TIMEOUT`]
/// for the whole head. A malformed or oversized head is answered here
/// (400, 431, 408; 408 too for a head closed to make room) and gives
/// `None`, as does a client that closes first.
pub(crate) fn read(mut stream: TcpStream, slot: &Slot) -> Option<Request> {
    stream.set_nonblocking(false).ok()?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT)).ok()?;
    let deadline = Instant::now() + HEAD_TIMEOUT;
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
                    peer: None,
                });
            }
            Parsed::Bad(status) => return refuse(stream, status),
            Parsed::More if buf.len() >= MAX_HEAD => return refuse(stream, 431),
            Parsed::More => {}
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return refuse(stream, 408);
        }
        match stream.read(&mut chunk) {
            Ok(0) if slot.closed() => return refuse(stream, 408),
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

#[cfg(any(test, feature = "fuzzing"))]
/// The fuzz target's entry (`crate::fuzzing::http_head`): parses `bytes`
/// as a request head, as [`read`] does with what has arrived; the method,
/// target and header count when whole, the status when refused.
pub(crate) fn parse_head(bytes: &[u8]) -> Result<Option<(Method, String, usize)>, u16> {
    match parse(bytes) {
        Parsed::Done(m, t, h, _) => Ok(Some((m, t, h.len()))),
        Parsed::More => Ok(None),
        Parsed::Bad(status) => Err(status),
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
pub(crate) fn refuse(mut stream: TcpStream, status: u16) -> Option<Request> {
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
