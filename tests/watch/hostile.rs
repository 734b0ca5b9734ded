//! `watch --serve` and `watch` under hostile clients and readers (issue
//! 40): slow request heads, a client resuming with an id of an earlier
//! run, a loopback address other than 127.0.0.1, an output nobody reads,
//! control bytes in records, a folder tree too deep to list. The real
//! binary, real sockets on loopback only, real pipes and signals; every
//! loop is bounded in count and time.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::serve::{get, host, start, stop, temp, until};

/// The number of boards `/state` shows.
fn boards(url: &str) -> usize {
    let (_, state) = get(url, "/state", "");
    serde_json::from_str::<Value>(&state)
        .ok()
        .and_then(|v| v["boards"].as_array().map(Vec::len))
        .unwrap_or(0)
}

/// How a slow client's connection ended, and when.
#[derive(Debug, Clone, Copy, PartialEq)]
enum End {
    Status(u16),
    Closed,
}

/// 80 clients send a request line and then a byte every 500 ms: each gets
/// 408 within the head deadline however it drips (one deadline for the
/// whole head, not one per read); a new connection finds room, closing a
/// slow head of its address past 32; normal requests are answered all
/// along. Bounded: 80 sockets, at most 16 s.
pub fn slow_heads_get_408_and_leave_room() {
    let dir = temp("slow");
    let w = start(&dir, &["--serve", "127.0.0.1:0"]);
    let h = host(&w.url).to_owned();
    let opened = Instant::now();
    let mut drips: Vec<(TcpStream, Option<(End, Duration)>)> = (0..80)
        .map(|_| {
            let mut s = TcpStream::connect(&h).unwrap();
            s.write_all(b"GET /state HTTP/1.1\r\n").unwrap();
            s.set_nonblocking(true).unwrap();
            (s, None)
        })
        .collect();
    let mut normal = 0;
    let end = opened + Duration::from_secs(16);
    while Instant::now() < end && drips.iter().any(|(_, e)| e.is_none()) {
        for (s, ended) in drips.iter_mut().filter(|(_, e)| e.is_none()) {
            let mut buf = [0u8; 512];
            *ended = match s.read(&mut buf) {
                Ok(0) => Some((End::Closed, opened.elapsed())),
                Ok(n) => {
                    let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                    let code = text.split_whitespace().nth(1).and_then(|c| c.parse().ok());
                    Some((End::Status(code.unwrap_or(0)), opened.elapsed()))
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    let _ = s.write_all(b"X");
                    None
                }
                Err(_) => Some((End::Closed, opened.elapsed())),
            };
        }
        // Normal requests meanwhile: each answered, at once.
        for _ in 0..10 {
            let asked = Instant::now();
            assert_eq!(get(&w.url, "/state", "").0, 200, "a normal request");
            assert!(asked.elapsed() < Duration::from_secs(3));
            normal += 1;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let ends: Vec<Option<(End, Duration)>> = drips.iter().map(|(_, e)| *e).collect();
    stop(w);
    // Closed to make room for the normal requests, before the head
    // deadline (10 s) closed the rest.
    let early = ends
        .iter()
        .filter(|e| e.is_some_and(|(_, at)| at < Duration::from_secs(9)))
        .count();
    println!("{normal} normal requests answered; {early} slow heads closed in the first 9 s");
    for (i, e) in ends.iter().enumerate() {
        let (how, at) = e.unwrap_or_else(|| panic!("slow client {i} still open after 16 s"));
        assert!(
            at <= Duration::from_secs(14),
            "slow client {i}: {how:?} after {at:?}"
        );
    }
    let said = ends
        .iter()
        .filter(|e| matches!(e, Some((End::Status(408), _))))
        .count();
    assert!(said >= 40, "{said} of 80 were told 408: {ends:?}");
    assert!(
        early >= 80 - 32,
        "only {early} slow heads closed before 9 s"
    );
}

/// The lines of an event stream until its first event (or the bound).
fn stream_head(url: &str, last: &str) -> Vec<String> {
    let h = host(url).to_owned();
    let mut s = TcpStream::connect(&h).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET /events HTTP/1.1\r\nHost: {h}\r\nLast-Event-ID: {last}\r\n\r\n"
    )
    .unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(s).lines().take(200) {
        let Ok(line) = line else { break };
        let first = line.starts_with("id: ");
        lines.push(line);
        if first {
            break;
        }
    }
    lines
}

/// A restarted watch: a client resuming with an id of the earlier run (or
/// a bare number past this run's) is told to start again and gets this
/// run's events from the first, not silence.
pub fn a_restarted_watch_tells_old_clients_to_start_again() {
    let dir = temp("restart");
    std::fs::write(dir.join("round-1/game-1.pgn"), "1. f3 e5 2. g4 Qh4# *\n").unwrap();
    let state = |url: &str| -> Value { serde_json::from_str(&get(url, "/state", "").1).unwrap() };
    let w = start(&dir, &["--serve", "127.0.0.1:0"]);
    assert!(until(
        Duration::from_secs(10),
        || state(&w.url)["last_event_id"] == 1
    ));
    let first = state(&w.url)["run"].as_str().unwrap().to_owned();
    stop(w);
    let w = start(&dir, &["--serve", "127.0.0.1:0"]);
    assert!(until(
        Duration::from_secs(10),
        || state(&w.url)["last_event_id"] == 1
    ));
    let run = state(&w.url)["run"].as_str().unwrap().to_owned();
    assert_ne!(run, first);
    for old in [
        format!("{first}-1013"),
        format!("{first}-1"),
        "1013".to_owned(),
    ] {
        let lines = stream_head(&w.url, &old);
        assert!(
            lines.iter().any(|l| l == "event: reset"),
            "{old}: {lines:?}"
        );
        assert_eq!(
            lines.last().map(String::as_str),
            Some(format!("id: {run}-1").as_str()),
            "{old}: {lines:?}"
        );
    }
    // This run's own id resumes after it.
    let lines = stream_head(&w.url, &format!("{run}-0"));
    assert!(!lines.iter().any(|l| l == "event: reset"), "{lines:?}");
    stop(w);
}

/// `--serve 127.0.0.2:P`: the printed URL works (its Host is this
/// machine's).
pub fn another_loopback_address_is_served() {
    let dir = temp("lo2");
    let w = start(&dir, &["--serve", "127.0.0.2:0"]);
    assert!(w.url.starts_with("http://127.0.0.2:"), "{}", w.url);
    assert_eq!(get(&w.url, "/state", "").0, 200);
    assert_eq!(get(&w.url, "/", "").0, 200);
    stop(w);
}

/// A record that makes events: a fivefold repetition with its warnings
/// and claims, on board `n`.
fn busy(n: usize) -> String {
    format!(
        "[Round \"1\"]\n[Board \"{n}\"]\n[White \"W{n}\"]\n[Black \"B{n}\"]\n\n{} *\n",
        "Nf3 Nf6 Ng1 Ng8 ".repeat(5)
    )
}

/// `watch --format jsonl --serve` into a pipe nobody reads, 60 files of
/// events (well over the pipe's 64 KiB): the watch goes on following (all
/// boards in `/state`, a file written later too), Ctrl-C ends it, and
/// what could not be written is said.
pub fn an_unread_output_never_stops_the_watch() {
    let dir = temp("unread");
    for n in 1..=60 {
        std::fs::write(dir.join(format!("round-1/b{n:02}.pgn")), busy(n)).unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .args(["watch", &dir.display().to_string(), "--format", "jsonl"])
        .args(["--interval", "25", "--serve", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Held open, never read.
    let _unread = child.stdout.take().unwrap();
    let (tx, err) = mpsc::channel::<String>();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for l in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });
    let first = err.recv_timeout(Duration::from_secs(20)).unwrap();
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_owned();
    let followed = until(Duration::from_secs(30), || boards(&url) == 60);
    std::fs::write(dir.join("round-1/b61.pgn"), busy(61)).unwrap();
    let later = followed && until(Duration::from_secs(10), || boards(&url) == 61);
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let ended = until(Duration::from_secs(15), || {
        child.try_wait().ok().flatten().is_some()
    });
    if !ended {
        let _ = child.kill();
    }
    let status = child.wait().unwrap();
    let said: Vec<String> = err.try_iter().collect();
    assert!(followed, "/state did not reach 60 boards: {}", boards(&url));
    assert!(later, "a file written later was not followed");
    assert!(ended, "Ctrl-C did not end the watch");
    assert!(status.success(), "{status:?}");
    assert!(
        said.iter()
            .any(|l| l.contains("line(s) of output could not be written")),
        "{said:?}"
    );
}

/// `--format text` off a terminal: control bytes from tags and move
/// tokens are shown escaped, never written raw.
pub fn text_output_escapes_control_bytes() {
    let dir = temp("ctl");
    let record = "[White \"A\x01\x07\x08B\"]\n[Black \"C\x1b[31mD\x0e\x1f\"]\n\n1. f3 e5 2. g4 Qh4# 3. K\x1bf2 *\n";
    std::fs::write(dir.join("round-1/c.pgn"), record).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_verify-claim"))
        .args(["watch", &dir.display().to_string(), "--format", "text"])
        .args(["--interval", "25"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut r = BufReader::new(out);
        let mut line = Vec::new();
        while r.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
            let _ = tx.send(std::mem::take(&mut line));
        }
    });
    let mut got = Vec::new();
    let end = Instant::now() + Duration::from_secs(20);
    while !String::from_utf8_lossy(&got).contains("illegal-move") {
        match rx.recv_timeout(end.saturating_duration_since(Instant::now())) {
            Ok(l) => got.extend(l),
            Err(_) => break,
        }
    }
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let _ = child.wait();
    let text = String::from_utf8_lossy(&got).into_owned();
    assert!(text.contains("illegal-move"), "{text:?}");
    assert!(text.contains(r"'K\x1bf2'"), "{text:?}");
    let raw: Vec<u8> = got
        .iter()
        .copied()
        .filter(|b| *b < 0x20 && *b != b'\n')
        .collect();
    assert!(raw.is_empty(), "raw control bytes {raw:?} in {text:?}");
    assert!(
        text.contains(r"A\x01\x07\x08B - C\x1b[31mD\x0e\x1f"),
        "{text}"
    );
}

/// A folder tree 5,000 deep (made with python3's `dir_fd`: no path that
/// long can be named): what cannot be listed is said, not skipped.
pub fn a_folder_too_deep_is_said() {
    let dir = temp("deep");
    let made = Command::new("python3")
        .arg("-c")
        .arg(
            "import os,sys\nfd=os.open(sys.argv[1],os.O_RDONLY)\nfor i in range(5000):\n os.mkdir('d',dir_fd=fd); n=os.open('d',os.O_RDONLY,dir_fd=fd); os.close(fd); fd=n\nf=os.open('g.pgn',os.O_WRONLY|os.O_CREAT,dir_fd=fd); os.write(f,b'1. e4 *\\n')",
        )
        .arg(dir.join("round-1"))
        .status()
        .unwrap();
    assert!(made.success());
    let w = start(&dir, &["--serve", "127.0.0.1:0"]);
    let end = Instant::now() + Duration::from_secs(20);
    let mut said = None;
    while let Ok((_, l)) = w
        .lines
        .recv_timeout(end.saturating_duration_since(Instant::now()))
    {
        let v: Value = serde_json::from_str(&l).unwrap();
        if v["kind"] == "record-error" {
            said = Some(v);
            break;
        }
    }
    stop(w);
    let v = said.expect("no record-error for the folder that cannot be listed");
    let message = v["message"].as_str().unwrap();
    assert!(message.contains("File name too long"), "{message}");
    assert!(message.contains("not followed"), "{message}");
    // The scratch folder (5,000 deep) is removed by rm, which walks it
    // without long paths.
    let _ = Command::new("rm")
        .arg("-rf")
        .arg(dir.join("round-1"))
        .status();
    assert!(!Path::new(&dir.join("round-1")).exists());
}

/// A spawned watch whose stderr is read whole after Ctrl-C.
pub(crate) fn stderr_after_ctrl_c(mut child: Child) -> String {
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for l in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(l.clone());
        }
    });
    let first = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let _ = child.wait();
    reader.join().unwrap();
    let mut all = vec![first];
    all.extend(rx.try_iter());
    all.join("\n")
}
