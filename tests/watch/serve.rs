//! `watch --serve` as an arbiter uses it: a writer rewrites a DGT LiveChess
//! export folder (eight boards, `game-M.pgn` and `games.pgn`, ePGN clock
//! comments, half-written moves) while event clients read `/events`; the
//! events must equal `--format jsonl` of the same run, arrive within a
//! second of their move, resume from `Last-Event-ID`, and the server must
//! refuse what it should. Only the CLI and HTTP are used.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::Scratch;

const FIXTURE: &str = "fixtures/watch/livechess";

/// A game of the fixture: its tags and its plies (each with its move
/// number and comments).
pub(crate) struct Game {
    tags: String,
    plies: Vec<String>,
}

pub(crate) fn games() -> Vec<Game> {
    (1..=8)
        .map(|m| {
            let text = std::fs::read_to_string(format!("{FIXTURE}/round-1/game-{m}.pgn")).unwrap();
            let (tags, movetext) = text.split_once("\n\n").unwrap();
            let mut plies: Vec<String> = Vec::new();
            let mut number = String::new();
            for part in movetext
                .trim_end()
                .trim_end_matches('*')
                .split_inclusive('}')
            {
                let part = part.trim();
                if let Some(rest) = part.strip_prefix('{') {
                    if let Some(last) = plies.last_mut() {
                        last.push_str(&format!(" {{{rest}"));
                    }
                    continue;
                }
                for word in part.split_whitespace() {
                    if word.starts_with('{') {
                        if let Some(last) = plies.last_mut() {
                            last.push(' ');
                            last.push_str(&part[part.find('{').unwrap()..]);
                        }
                        break;
                    } else if word.ends_with('.') {
                        number = format!("{word} ");
                    } else {
                        plies.push(format!("{}{word}", std::mem::take(&mut number)));
                    }
                }
            }
            Game {
                tags: tags.to_owned(),
                plies,
            }
        })
        .collect()
}

fn text(g: &Game, n: usize) -> String {
    format!("{}\n\n{} *\n", g.tags, g.plies[..n].join(" "))
}

/// Writes file `path` as LiveChess does (whole), in two halves when `cut`
/// is given (the first ends inside the last move); returns the moment
/// before the last write.
fn write(path: &Path, content: &str, cut: Option<usize>) -> Instant {
    let mut f = std::fs::File::create(path).unwrap();
    if let Some(c) = cut.filter(|c| content.is_char_boundary(*c)) {
        f.write_all(&content.as_bytes()[..c]).unwrap();
        f.flush().unwrap();
        std::thread::sleep(Duration::from_millis(60));
        let at = Instant::now();
        f.write_all(&content.as_bytes()[c..]).unwrap();
        return at;
    }
    let at = Instant::now();
    f.write_all(content.as_bytes()).unwrap();
    at
}

pub(crate) struct Watch {
    pub(crate) child: Child,
    pub(crate) url: String,
    pub(crate) lines: mpsc::Receiver<(Instant, String)>,
}

/// A test that fails leaves no watch running.
impl Drop for Watch {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub(crate) fn start(dir: &Path, extra: &[&str]) -> Watch {
    let mut child = Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .args([
            "watch",
            &dir.display().to_string(),
            "--format",
            "jsonl",
            "--interval",
            "25",
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL: {line}"))
        .to_owned();
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    let out = child.stdout.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send((Instant::now(), l));
        }
    });
    Watch { child, url, lines }
}

/// Waits (bounded) until `ok` holds.
pub(crate) fn until(limit: Duration, mut ok: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    ok()
}

pub(crate) fn host(url: &str) -> &str {
    url.trim_start_matches("http://").split('/').next().unwrap()
}

/// One GET; the status and the body.
pub(crate) fn get(url: &str, path: &str, headers: &str) -> (u16, String) {
    let mut s = TcpStream::connect(host(url)).unwrap();
    // Bounded: a server that never answers fails the test, not hangs it.
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{headers}\r\n",
        host(url)
    )
    .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = out.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_owned();
    (status, body)
}

/// An event client: its (id, data) pairs as they come, until `n` events
/// or `until`; with `drop_after`, it vanishes mid-stream.
pub(crate) fn client(
    url: String,
    last: Option<String>,
    n: usize,
    drop_after: Option<usize>,
) -> std::thread::JoinHandle<Vec<(u64, String)>> {
    std::thread::spawn(move || {
        let mut s = TcpStream::connect(host(&url)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let resume = last.map_or(String::new(), |id| format!("Last-Event-ID: {id}\r\n"));
        write!(
            s,
            "GET /events HTTP/1.1\r\nHost: {}\r\n{resume}\r\n",
            host(&url)
        )
        .unwrap();
        let mut got = Vec::new();
        let mut id = None;
        for line in BufReader::new(s).lines() {
            let Ok(line) = line else { break };
            if let Some(v) = line.strip_prefix("id: ") {
                // RUN-N: the run of the watch, the event's number.
                id = v.rsplit('-').next().and_then(|n| n.parse().ok());
            } else if let Some(d) = line.strip_prefix("data: ") {
                if let Some(i) = id.take() {
                    got.push((i, d.to_owned()));
                }
                if got.len() >= n || drop_after.is_some_and(|k| got.len() >= k) {
                    break;
                }
            }
        }
        got
    })
}

pub(crate) fn stop(mut w: Watch) {
    let _ = Command::new("kill")
        .args(["-INT", &w.child.id().to_string()])
        .status();
    let status = w.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

/// A LiveChess folder (`tournament.json`, an empty `round-1`) in a scratch
/// directory removed when the guard is dropped (test runs leave nothing in
/// the temporary directory).
pub(crate) fn temp(name: &str) -> Scratch {
    let dir = Scratch::new(&format!("serve-{name}"));
    std::fs::create_dir_all(dir.join("round-1")).unwrap();
    std::fs::copy(
        format!("{FIXTURE}/tournament.json"),
        dir.join("tournament.json"),
    )
    .unwrap();
    dir
}

/// Plays the eight games into `dir` as LiveChess writes them, one ply of
/// one board every 40 ms; per (board, ply), the moment of its last write.
pub(crate) fn play(dir: &Path, games: &[Game]) -> Vec<Vec<Instant>> {
    let mut done = vec![0; games.len()];
    let mut at: Vec<Vec<Instant>> = games.iter().map(|_| Vec::new()).collect();
    let longest = games.iter().map(|g| g.plies.len()).max().unwrap_or(0);
    for round in 0..longest {
        for (b, g) in games.iter().enumerate() {
            if round >= g.plies.len() {
                continue;
            }
            done[b] = round + 1;
            let one = text(g, done[b]);
            let cut = (round % 3 == 0).then(|| one.len() - 4);
            let t1 = write(&dir.join(format!("round-1/game-{}.pgn", b + 1)), &one, cut);
            let all: Vec<String> = games.iter().zip(&done).map(|(g, n)| text(g, *n)).collect();
            let t2 = write(&dir.join("round-1/games.pgn"), &all.join("\n"), None);
            at[b].push(t1.min(t2));
            std::thread::sleep(Duration::from_millis(40));
        }
    }
    at
}

/// Other paths are not found, and a foreign Host may not read the boards;
/// nothing reaches the files.
fn refusals(url: &str) {
    assert_eq!(get(url, "/nope", "").0, 404);
    assert_eq!(get(url, "/../tournament.json", "").0, 404);
    assert_eq!(get(url, "/state", "").0, 200);
    assert_eq!(get(url, "/state", "X: y\r\n").0, 200);
    let (status, _) = {
        let mut s = TcpStream::connect(host(url)).unwrap();
        write!(
            s,
            "GET /state HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        (out.split_whitespace().nth(1).unwrap_or("").to_owned(), ())
    };
    assert_eq!(
        status, "403",
        "a page from elsewhere may not read the boards"
    );
}

pub fn serve_gives_the_jsonl_events_and_the_boards_of_a_livechess_folder() {
    let dir = temp("live");
    let games = games();
    let w = start(&dir, &["--serve", "127.0.0.1:0", "--low-time", "896"]);
    refusals(&w.url);
    // 200 clients: half vanish after their first event.
    let readers: Vec<_> = (0..200)
        .map(|i| client(w.url.clone(), None, usize::MAX, (i % 2 == 1).then_some(1)))
        .collect();
    let main = client(w.url.clone(), None, usize::MAX, None);
    let writes = play(&dir, &games);
    // Every event of the run, as --format jsonl prints it.
    let mut lines: Vec<(Instant, String)> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(3);
    while let Ok(l) = w
        .lines
        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        lines.push(l);
    }
    let events: Vec<Value> = lines
        .iter()
        .map(|(_, l)| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = events
        .iter()
        .map(|v| v["kind"].as_str().unwrap_or(""))
        .collect();
    for k in [
        "game-ended",
        "claim-available",
        "illegal-move",
        "repetition-warning",
        "low-time",
    ] {
        assert!(kinds.contains(&k), "no {k}: {kinds:?}");
    }
    // One board per game: each game's events come from one file.
    for round in 1..=8 {
        let label = format!("1.{round}");
        let files: std::collections::BTreeSet<&str> = events
            .iter()
            .filter(|v| v["board"] == label.as_str())
            .map(|v| v["file"].as_str().unwrap_or(""))
            .collect();
        assert!(files.len() <= 1, "board {label} in {files:?}");
    }
    // Within a second of the write that completed the move.
    for ((arrived, _), v) in lines.iter().zip(&events) {
        let board: usize = v["board"]
            .as_str()
            .and_then(|b| b.strip_prefix("1."))
            .and_then(|b| b.parse().ok())
            .unwrap();
        let ply = v["ply"].as_u64().unwrap() as usize;
        let written = writes[board - 1][ply.max(1) - 1];
        let late = arrived.saturating_duration_since(written);
        assert!(
            late <= Duration::from_secs(1),
            "{v} came {late:?} after its move"
        );
    }
    // /state: eight boards, each drawn at its last move.
    let (_, state) = get(&w.url, "/state", "");
    let state: Value = serde_json::from_str(&state).unwrap();
    let boards = state["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 8, "{state}");
    for b in boards {
        let last = b["look"]["last_moves"]
            .as_array()
            .and_then(|m| m.last())
            .and_then(Value::as_str)
            .unwrap_or("");
        assert!(
            b["look"]["svg"]
                .as_str()
                .unwrap()
                .contains(&format!("the position after {last}")),
            "{b}"
        );
        assert!(b["look"]["clock_black"].is_string(), "{b}");
        // The tournament, from the export's tournament.json.
        assert_eq!(b["tournament"], "Watch test", "{b}");
    }
    let n = lines.len();
    stop_after(w, main, readers, n, &lines);
}

/// The streams against the printed lines, a resume, and the end.
fn stop_after(
    w: Watch,
    main: std::thread::JoinHandle<Vec<(u64, String)>>,
    readers: Vec<std::thread::JoinHandle<Vec<(u64, String)>>>,
    n: usize,
    lines: &[(Instant, String)],
) {
    let (_, state) = get(&w.url, "/state", "");
    let state: Value = serde_json::from_str(&state).unwrap();
    let run = state["run"].as_str().unwrap().to_owned();
    let resumed = client(w.url.clone(), Some(format!("{run}-{}", n - 3)), 3, None)
        .join()
        .unwrap();
    let ids: Vec<u64> = resumed.iter().map(|(i, _)| *i).collect();
    assert_eq!(ids, [n as u64 - 2, n as u64 - 1, n as u64]);
    let rss = std::fs::read_to_string(format!("/proc/{}/status", w.child.id())).unwrap_or_default();
    stop(w);
    let main = main.join().unwrap();
    let printed: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    let streamed: Vec<&str> = main.iter().map(|(_, d)| d.as_str()).collect();
    assert_eq!(streamed, printed, "/events differs from --format jsonl");
    assert_eq!(
        main.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
        (1..=n as u64).collect::<Vec<_>>()
    );
    for (i, r) in readers.into_iter().enumerate() {
        let got = r.join().unwrap();
        assert_eq!(got.len(), if i % 2 == 1 { 1 } else { n }, "client {i}");
    }
    let kb: u64 = rss
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    println!("{n} events; memory {kb} kB with 200 clients");
    assert!(kb < 200_000, "{kb} kB");
}

/// The status line of a raw request, or what went wrong.
pub(crate) fn raw(url: &str, request: &[u8]) -> String {
    let mut s = TcpStream::connect(host(url)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(request);
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

/// Many clients at once are all answered, whatever arrives together (the
/// HTTP crate used before left some waiting behind the streams that never
/// end), and broken or oversized request heads get their status.
pub fn connections_arriving_together_are_all_answered() {
    let dir = temp("together");
    let w = start(&dir, &["--serve", "127.0.0.1:0"]);
    let h = host(&w.url).to_owned();
    let streams: Vec<_> = (0..200)
        .map(|i| {
            let h = h.clone();
            std::thread::spawn(move || {
                let mut s = TcpStream::connect(&h).unwrap();
                let path = ["/events", "/app.js", "/app.css", "/state"][i % 4];
                write!(s, "GET {path} HTTP/1.1\r\nHost: {h}\r\n\r\n").unwrap();
                // Waits for the answer (not a fixed time): a client left
                // waiting fails at the timeout.
                s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
                let mut line = String::new();
                let _ = BufReader::new(&s).read_line(&mut line);
                (i, line, s)
            })
        })
        .collect();
    let mut held = Vec::new();
    for t in streams {
        let (i, line, s) = t.join().unwrap();
        assert!(line.starts_with("HTTP/1.1 200 "), "client {i}: {line:?}");
        held.push(s);
    }
    let head = raw(
        &w.url,
        format!("HEAD /state HTTP/1.1\r\nHost: {h}\r\n\r\n").as_bytes(),
    );
    assert!(
        head.starts_with("HTTP/1.1 200 ") && head.ends_with("\r\n\r\n"),
        "{head:?}"
    );
    assert!(!head.contains("Content-Length: 0"), "{head:?}");
    let bad = raw(&w.url, b"GET / HTTP/1.1\r\n\x01\r\n\r\n");
    assert!(bad.starts_with("HTTP/1.1 400 "), "{bad:?}");
    let long = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "y".repeat(20_000));
    assert!(raw(&w.url, long.as_bytes()).starts_with("HTTP/1.1 431 "));
    let post = raw(
        &w.url,
        format!("POST /state HTTP/1.1\r\nHost: {h}\r\n\r\n").as_bytes(),
    );
    assert!(post.starts_with("HTTP/1.1 405 "), "{post:?}");
    drop(held);
    stop(w);
}

pub fn another_address_than_loopback_needs_a_token() {
    let dir = temp("token");
    let out = Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .args(["watch", &dir.display().to_string(), "--serve", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a loopback address") && err.contains("--token"),
        "{err}"
    );
    let w = start(&dir, &["--serve", "0.0.0.0:0", "--token", "generate"]);
    assert!(w.url.contains("?token="), "{}", w.url);
    let port = host(&w.url).rsplit(':').next().unwrap().to_owned();
    let local = format!("http://127.0.0.1:{port}/");
    assert_eq!(get(&local, "/state", "").0, 403);
    let token = w.url.split("token=").nth(1).unwrap().to_owned();
    assert_eq!(get(&local, &format!("/state?token={token}"), "").0, 200);
    assert_eq!(
        get(
            &local,
            "/state",
            &format!("Authorization: Bearer {token}\r\n")
        )
        .0,
        200
    );
    stop(w);
}
