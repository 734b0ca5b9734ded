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

mod heads;
pub(crate) mod http;
pub(crate) mod hub;
mod page;
mod stream;

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::SystemTime;

pub(crate) use hub::{BoardJson, Hub};
pub(crate) use stream::CSP;

use super::Watched;
use super::events::Event;
use super::schema::EventJson;
use super::view::Sink;

/// The address served when `--serve` names none.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8040";
/// At most this many event streams at once (more get a 503).
pub(crate) const MAX_STREAMS: usize = 256;
/// At most this many connections at once, streams included (more get a
/// 503 at once, unless a slow head can be closed to make room); each has
/// a thread until it is answered.
pub(crate) const MAX_CONNECTIONS: usize = MAX_STREAMS + 64;

/// Where and how to serve.
pub struct Options {
    /// `ADDR:PORT` (port 0: any free port).
    pub addr: String,
    /// The access token; `Some("generate")` makes one.
    pub token: Option<String>,
}

/// The running server.
pub struct Server {
    /// The URL to open: for a named address its own; for an unspecified
    /// one (`0.0.0.0`, `[::]`) the first of [`Server::urls`].
    pub url: String,
    /// Every URL the board answers at: for an unspecified address one per
    /// interface address of the machine (another device's first; IPv6
    /// link-local ones, which need a zone, left out), loopback last.
    pub urls: Vec<String>,
    /// The boards and the events the page is served.
    pub hub: Arc<Hub>,
    /// The arbiter's desk (`/desk`), and the live boards' records it opens.
    pub desk: Arc<crate::desk::Desk>,
    thread: Option<JoinHandle<()>>,
    stop: Arc<AtomicBool>,
}

/// 64 random bits in hex (std's hasher keys come from the OS).
fn random_hex() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{:016x}", h.finish())
}

/// A token of 128 random bits.
fn generate_token() -> String {
    format!("{}{}", random_hex(), random_hex())
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
    let path = if desk_only { "desk" } else { "" };
    let urls: Vec<String> = shown_addresses(addr.ip())
        .into_iter()
        .map(|ip| {
            let shown = SocketAddr::new(ip, port);
            match &token {
                Some(t) => format!("http://{shown}/{path}?token={t}"),
                None => format!("http://{shown}/{path}"),
            }
        })
        .collect();
    let url = urls.first().cloned().unwrap_or_default();
    // This run's id, in every event id: 32 random bits are plenty to tell
    // a restart apart.
    let hub = Arc::new(Hub::new(random_hex()[..8].to_owned()));
    let desk = Arc::new(crate::desk::Desk::default());
    let cx = Arc::new(stream::Cx {
        hub: Arc::clone(&hub),
        token,
        port,
        bound: addr.ip(),
        stop: Arc::clone(&stop),
        streams: Arc::new(AtomicUsize::new(0)),
        page: page::html(),
        print: page::print(),
        css: page::css(),
        desk: Arc::clone(&desk),
        desk_only,
    });
    let route: http::Route = Arc::new(move |rq| stream::handle(rq, &cx));
    let thread = http::serve(listener, MAX_CONNECTIONS, Arc::clone(&stop), route)
        .map_err(|e| format!("cannot start the server: {e}"))?;
    Ok(Server {
        url,
        urls,
        hub,
        desk,
        thread: Some(thread),
        stop,
    })
}

/// The addresses to print for a server bound to `ip`: `ip` itself, or for
/// an unspecified address the machine's interface addresses of that
/// family (both for `[::]`, which takes IPv4 too on Linux), loopback last.
fn shown_addresses(ip: IpAddr) -> Vec<IpAddr> {
    if !ip.is_unspecified() {
        return vec![ip];
    }
    let mut all: Vec<IpAddr> = if_addrs::get_if_addrs()
        .unwrap_or_default()
        .into_iter()
        .map(|i| i.ip())
        .filter(|a| ip.is_ipv6() || a.is_ipv4())
        .filter(|a| match a {
            IpAddr::V6(v6) => !v6.is_unicast_link_local(),
            IpAddr::V4(_) => true,
        })
        .collect();
    all.sort_by_key(|a| (a.is_loopback(), a.is_ipv6(), *a));
    all.dedup();
    if all.is_empty() {
        all.push(if ip.is_ipv4() {
            IpAddr::from([127, 0, 0, 1])
        } else {
            IpAddr::from(std::net::Ipv6Addr::LOCALHOST)
        });
    }
    all
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
    /// Feeds `server`, then hands every event on to `inner`.
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
        let label = (e.game.index != 0).then(|| e.game.label());
        self.hub
            .push(&board_id(&e.file, label), EventJson::of(e, time));
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
                self.hub.board(BoardJson {
                    id,
                    file: w.file.to_string(),
                    tournament: w.tournament.clone(),
                    board: b.id.label(),
                    round: b.id.round.clone(),
                    white: b.id.white.clone(),
                    black: b.id.black.clone(),
                    plies: b.plies,
                    state,
                    look: b.look.clone(),
                });
            }
        }
        self.inner.refresh(files, changed)
    }

    fn finish(&mut self, summary: &super::Summary) -> io::Result<()> {
        self.hub.close();
        self.inner.finish(summary)
    }
}
