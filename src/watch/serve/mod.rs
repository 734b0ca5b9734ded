//! `verify-claim watch --serve`: the arbiter's live board in a browser.
//!
//! One self-contained page (`/`, with `/app.js` and `/app.css`; a
//! Content-Security-Policy that allows nothing from elsewhere), `GET
//! /events` (Server-Sent Events of exactly the JSON objects `--format
//! jsonl` prints, each with an `id`; `Last-Event-ID` or `?after=ID`
//! resumes) and `GET /state` (every board, as JSON). Anything else is a
//! 404; no part of a request reaches the file system.
//!
//! HTTP by hand over `httparse` ([`http`] says why): no async runtime, a
//! thread per connection, bounded; the watch is thread-based too. Loopback
//! only unless another address is named, and then only with a token.

pub(crate) mod http;
mod hub;
mod page;
mod stream;

use std::collections::HashMap;
use std::io;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

pub use hub::Hub;
pub use stream::CSP;

use super::Watched;
use super::events::Event;
use super::view::{self, Sink};

/// The address served when `--serve` names none.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8040";
/// At most this many event streams at once (more get a 503).
pub const MAX_STREAMS: usize = 256;
/// At most this many connections at once, streams included (more get a
/// 503 at once); each has a thread until it is answered.
pub const MAX_CONNECTIONS: usize = MAX_STREAMS + 64;

/// Where and how to serve.
pub struct Options {
    pub addr: String,
    /// The access token; `Some("generate")` makes one.
    pub token: Option<String>,
}

/// The running server.
pub struct Server {
    pub url: String,
    pub hub: Arc<Hub>,
    /// The arbiter's desk (`/desk`), and the live boards' records it opens.
    pub desk: Arc<crate::desk::Desk>,
    thread: Option<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
}

/// A token of 128 random bits (std's hasher keys come from the OS).
fn generate_token() -> String {
    use std::hash::{BuildHasher, Hasher};
    let half = || {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.finish()
    };
    format!("{:016x}{:016x}", half(), half())
}

/// Binds the address; the error says why not, in words for the command
/// line.
pub fn start(options: &Options, stop: Arc<AtomicBool>) -> Result<Server, String> {
    start_as(options, stop, false)
}

/// The same server for `verify-claim desk`: the desk alone (at `/` and
/// `/desk`), no boards.
pub fn start_desk(options: &Options, stop: Arc<AtomicBool>) -> Result<Server, String> {
    start_as(options, stop, true)
}

fn start_as(options: &Options, stop: Arc<AtomicBool>, desk_only: bool) -> Result<Server, String> {
    let (what, default) = if desk_only {
        ("desk", crate::desk::DEFAULT_ADDR)
    } else {
        ("--serve", DEFAULT_ADDR)
    };
    let addr: SocketAddr = options.addr.parse().map_err(|_| {
        format!(
            "{what} {}: not an address and port such as {default} or [::1]:8040",
            options.addr
        )
    })?;
    let token = match options.token.as_deref() {
        Some("generate") => Some(generate_token()),
        Some(t)
            if t.len() < 16
                || !t
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            return Err(
                "--token: give at least 16 letters, digits, '-' or '_' (or 'generate')".to_owned(),
            );
        }
        t => t.map(str::to_owned),
    };
    if !addr.ip().is_loopback() && token.is_none() {
        let could = if desk_only {
            "use the desk"
        } else {
            "read the boards"
        };
        return Err(format!(
            "{what} {addr}: not a loopback address, so anyone who can reach it could {could}: add --token TOKEN (or --token generate for a random one, printed in the URL)"
        ));
    }
    let listener = TcpListener::bind(addr).map_err(|e| format!("{what} {addr}: {e}"))?;
    let port = listener.local_addr().map_or(addr.port(), |a| a.port());
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("{what} {addr}: {e}"))?;
    let shown = SocketAddr::new(addr.ip(), port);
    let path = if desk_only { "desk" } else { "" };
    let url = match &token {
        Some(t) => format!("http://{shown}/{path}?token={t}"),
        None => format!("http://{shown}/{path}"),
    };
    let hub = Arc::new(Hub::default());
    let desk = Arc::new(crate::desk::Desk::default());
    let cx = Arc::new(stream::Cx {
        hub: Arc::clone(&hub),
        token,
        port,
        loopback: addr.ip().is_loopback(),
        stop: Arc::clone(&stop),
        streams: Arc::new(AtomicUsize::new(0)),
        page: page::html(),
        css: page::css(),
        desk: Arc::clone(&desk),
        desk_only,
    });
    let connections = Arc::new(AtomicUsize::new(0));
    let thread = std::thread::Builder::new()
        .name("serve".to_owned())
        .spawn(move || {
            while !cx.stop.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((s, _)) => connection(s, &cx, &connections),
                    // Nothing waiting (the listener does not block, so
                    // that the loop sees the stop), or a passing error.
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        })
        .map_err(|e| format!("cannot start the server: {e}"))?;
    Ok(Server {
        url,
        hub,
        desk,
        thread: Some(thread),
        stop,
    })
}

/// Answers a new connection on a thread of its own, if there is room.
fn connection(s: TcpStream, cx: &Arc<stream::Cx>, count: &Arc<AtomicUsize>) {
    if count.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
        count.fetch_sub(1, Ordering::SeqCst);
        // On the accepting thread: a short wait at most.
        let _ = s.set_nonblocking(false);
        let _ = s.set_write_timeout(Some(Duration::from_millis(100)));
        http::refuse(s, 503);
        return;
    }
    let (cx, done) = (Arc::clone(cx), Arc::clone(count));
    let spawned = std::thread::Builder::new()
        .name("http".to_owned())
        .stack_size(256 << 10)
        .spawn(move || {
            if let Some(rq) = http::read(s) {
                stream::handle(rq, &cx);
            }
            done.fetch_sub(1, Ordering::SeqCst);
        });
    if spawned.is_err() {
        count.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.hub.close();
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The sink that feeds the server, then the chosen output.
pub struct Serving<'a> {
    inner: &'a mut dyn Sink,
    hub: Arc<Hub>,
    desk: Arc<crate::desk::Desk>,
    /// Per board id: the version and state last sent.
    sent: HashMap<String, (u64, String)>,
}

impl<'a> Serving<'a> {
    pub fn new(inner: &'a mut dyn Sink, server: &Server) -> Serving<'a> {
        Serving {
            inner,
            hub: Arc::clone(&server.hub),
            desk: Arc::clone(&server.desk),
            sent: HashMap::new(),
        }
    }
}

/// The page's id of a board: its file and label.
fn board_id(file: &str, label: Option<String>) -> String {
    format!("{file}#{}", label.unwrap_or_default())
}

impl Sink for Serving<'_> {
    fn event(&mut self, e: &Event, time: SystemTime) -> io::Result<()> {
        let json = view::json(e, time).to_string();
        let label = (e.game.index != 0).then(|| e.game.label());
        self.hub.push(&board_id(&e.file, label), json);
        self.inner.event(e, time)
    }

    fn refresh(&mut self, files: &[Watched], changed: bool) -> io::Result<()> {
        for w in files {
            for &i in &w.shown {
                let Some(b) = w.boards.get(i) else { continue };
                let id = board_id(&w.file, Some(b.id.label()));
                let state = b.state();
                if self
                    .sent
                    .get(&id)
                    .is_some_and(|(v, s)| *v == b.version && *s == state)
                {
                    continue;
                }
                self.sent.insert(id.clone(), (b.version, state.clone()));
                // The record the desk opens from this board's claim link.
                self.desk.keep(&id, b.record());
                let json = serde_json::json!({
                    "id": id,
                    "file": &*w.file,
                    "board": b.id.label(),
                    "round": b.id.round,
                    "white": b.id.white,
                    "black": b.id.black,
                    "plies": b.plies,
                    "state": state,
                    "look": &b.look,
                });
                self.hub.board(&id, json.to_string());
            }
        }
        self.inner.refresh(files, changed)
    }

    fn finish(&mut self, summary: &super::Summary) -> io::Result<()> {
        self.hub.close();
        self.inner.finish(summary)
    }
}
