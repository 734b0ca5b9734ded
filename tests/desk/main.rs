//! The arbiter's desk (`verify-claim desk`, `/desk` on `watch --serve`) as
//! it is used: the real binary serves it; the API is asked over real
//! sockets and its answers compared with the CLI's on the same sheets; bad
//! bodies get a 4xx, never a 500; twenty decisions arrive at once; and the
//! page is driven in headless Chromium by Selenium (`desk.py`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::Scratch;
use common::harness::Need;

use crate::common;

/// A running `verify-claim desk` (or `watch --serve`), stopped when
/// dropped.
struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`
    base: String,
    /// The URL it printed.
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_verify-claim"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// `verify-claim desk ARGS`: its first line on stdout is the URL.
fn desk(args: &[&str]) -> Server {
    let mut child = bin()
        .arg("desk")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn verify-claim desk");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().to_owned();
    assert!(url.starts_with("http://"), "first line: {url:?}");
    let base = url[..url[7..].find('/').map_or(url.len(), |i| i + 7)].to_owned();
    Server { child, base, url }
}

/// One raw request; the status and the body.
fn raw(base: &str, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(base.trim_start_matches("http://")).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    // A refused body may be cut short by the server: what it answered is
    // still read.
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |p| p.1).to_owned();
    (status, body)
}

fn post(base: &str, path: &str, body: &str) -> (u16, Value) {
    let host = base.trim_start_matches("http://");
    let rq = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (status, text) = raw(base, rq.as_bytes());
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    (status, v)
}

/// Sheets a test decides: sheet 1, sheet 2, the written move, the claim
/// point.
type Case = (
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
);

/// The sheets the tests decide.
const CASES: &[Case] = &[
    // A clean sheet, the written move (9.2.1).
    (
        "1. Nf3 Nf6\n2. Ng1 Ng8\n3. Nf3 Nf6\n4. Ng1\n",
        None,
        Some("Ng8"),
        None,
    ),
    // A slip on White's sheet (2.Nh1), Black's clean: a repair and a
    // disagreement; the claim point clicked earlier than the end.
    (
        "1. Nf3 Nf6\n2. Nh1 Ng8\n3. Nf3 Nf6\n4. Ng1 e5\n",
        Some("1. Nf3 Nf6\n2. Ng1 Ng8\n3. Nf3 Nf6\n4. Ng1 e5\n"),
        Some("Ng8"),
        Some("4.Ng1"),
    ),
    // 7.Nd2: the b1 knight (the third occurrence) or the f3 knight (not),
    // two readings as good, two verdicts (depends).
    (
        "1. Nf3 Nf6\n2. d3 Nc6\n3. Nbd2 Nb8\n4. Nb1 Nc6\n5. Nbd2 Nb8\n6. Nb1 Nc6\n7. Nd2\n",
        None,
        None,
        None,
    ),
    // In Russian letters, no written move: not valid.
    ("1. Кf3 Кf6 2. Кg1 Кg8 3. Кf3\n", None, None, None),
    // Markup in the tags.
    (
        "[White \"<script>x=1</script>\"]\n[Black \"<img src=x onerror=x=2>\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8\n",
        None,
        None,
        None,
    ),
];

/// `claim --sheet sheet1 [--sheet sheet2] --format json` equals `POST
/// /api/claim`, and `reconstruct sheet1 [sheet2] --format json` equals
/// `POST /api/reconstruct`, on the same sheets.
fn api_answers_equal_the_cli() {
    let server = desk(&["127.0.0.1:0"]);
    let dir = Scratch::new("desk-cli");
    for (one, two, written, after) in CASES {
        std::fs::write(dir.join("sheet1"), one).unwrap();
        let mut sheets = vec![*one];
        let mut claim = vec!["claim", "--sheet", "sheet1"];
        let mut rec = vec!["reconstruct", "sheet1"];
        if let Some(two) = two {
            std::fs::write(dir.join("sheet2"), two).unwrap();
            sheets.push(two);
            claim.extend(["--sheet", "sheet2"]);
            rec.push("sheet2");
        }
        let mut body = json!({ "sheets": sheets });
        if let Some(m) = written {
            claim.extend(["--move", m]);
            body["move"] = json!(m);
        }
        if let Some(a) = after {
            claim.extend(["--after", a]);
            body["after"] = json!(a);
        }
        claim.extend(["--format", "json"]);
        rec.extend(["--format", "json"]);
        let cli = |args: &[&str]| -> Value {
            let out = bin().args(args).current_dir(&*dir).output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            serde_json::from_str(&text).unwrap_or_else(|e| {
                panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr))
            })
        };
        let (status, api) = post(&server.base, "/api/claim", &body.to_string());
        assert_eq!(status, 200, "{api}");
        assert_eq!(api, cli(&claim), "claim on {one:?}");
        let (status, api) = post(
            &server.base,
            "/api/reconstruct",
            &json!({ "sheets": sheets }).to_string(),
        );
        assert_eq!(status, 200, "{api}");
        assert_eq!(api, cli(&rec), "reconstruct of {one:?}");
    }
    // The slip is a repair and a disagreement, as the page shows them.
    let body = json!({ "sheets": [CASES[1].0, CASES[1].1], "move": "Ng8", "after": "4.Ng1" });
    let (_, v) = post(&server.base, "/api/claim", &body.to_string());
    assert_eq!(v["valid"], true);
    assert_eq!(v["reading"]["repairs"][0]["written"], "Nh1");
    assert_eq!(v["reading"]["discrepancies"][0]["ply"], 3);
    assert_eq!(v["depends_on_reading"], false);
    let body = json!({ "sheets": [CASES[2].0] });
    let (_, v) = post(&server.base, "/api/claim", &body.to_string());
    assert_eq!(v["depends_on_reading"], true, "{v}");
}

/// Every bad body is a 4xx with a JSON error, never a 500; a body over
/// 4 MB is a 413 known from its Content-Length.
fn bad_bodies_are_answered_400_or_413_never_500() {
    let server = desk(&["127.0.0.1:0"]);
    let host = server.base.trim_start_matches("http://").to_owned();
    let bodies: &[&[u8]] = &[
        b"",
        b"{",
        b"null",
        b"[]",
        b"{}",
        br#"{"sheets": "1. e4"}"#,
        br#"{"sheets": []}"#,
        br#"{"sheets": ["a", "b", "c"]}"#,
        br#"{"sheets": ["1. e4 e5"], "mvoe": "Nf3"}"#,
        br#"{"sheets": ["1. e4 e5"], "claimant": "red"}"#,
        br#"{"sheets": ["1. e4 e5"], "rules": "fide-1900"}"#,
        br#"{"sheets": [""]}"#,
        br#"{"sheets": ["\u0000\u0001\u0002"]}"#,
        br#"{"sheets": ["P-K4 P-K4"]}"#,
        br#"{"sheets": ["1. e4"], "after": "99.Kg8"}"#,
        br#"{"sheets": ["1. e4"], "move": "Qxh7"}"#,
        b"\xff\xfe\x00{\"sheets\":1}",
    ];
    for path in ["/api/claim", "/api/reconstruct", "/api/decide"] {
        for body in bodies {
            let mut rq = format!(
                "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            rq.extend_from_slice(body);
            let (status, text) = raw(&server.base, &rq);
            let shown = String::from_utf8_lossy(body);
            assert!(
                (400..500).contains(&status),
                "{path} {shown:?}: {status} {text}"
            );
            let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
            assert!(v["error"].is_string(), "{path} {shown:?}: {v}");
        }
    }
    // Over 4 MB: 413 from the head alone, and when the body is sent too.
    let head = |len: usize| {
        format!(
            "POST /api/claim HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n"
        )
    };
    assert_eq!(raw(&server.base, head(4 << 40).as_bytes()).0, 413);
    let mut big = head((4 << 20) + 1).into_bytes();
    big.extend(std::iter::repeat_n(b' ', (4 << 20) + 1));
    assert_eq!(raw(&server.base, &big).0, 413);
    let odd = [
        // No length, a chunked body, a length that is no number, another
        // type, a body shorter than its length.
        format!(
            "POST /api/claim HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\r\n"
        ),
        format!(
            "POST /api/claim HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        ),
        format!(
            "POST /api/claim HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n"
        ),
        format!(
            "POST /api/claim HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{{}}"
        ),
        format!("GET /api/claim HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        "POST /api/claim HTTP/1.1\r\nHost: evil.example:80\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
            .to_owned(),
    ];
    let mut shutdown = odd.map(|rq| {
        let mut s = TcpStream::connect(&host).unwrap();
        s.write_all(rq.as_bytes()).unwrap();
        s
    });
    // The short body: the client stops sending and closes its side.
    let mut short = TcpStream::connect(&host).unwrap();
    short
        .write_all(head(100).as_bytes())
        .and_then(|()| short.write_all(b"{\"sheets\""))
        .unwrap();
    short.shutdown(std::net::Shutdown::Write).unwrap();
    let statuses: Vec<u16> = shutdown
        .iter_mut()
        .chain(std::iter::once(&mut short))
        .map(|s| {
            let mut out = String::new();
            let _ = s.read_to_string(&mut out);
            out.split(' ')
                .nth(1)
                .and_then(|c| c.parse().ok())
                .unwrap_or(0)
        })
        .collect();
    assert_eq!(statuses, [411, 411, 400, 415, 405, 403, 400]);
}

/// Twenty decisions at once are all answered, each as when asked alone.
fn twenty_decisions_at_once_are_all_answered() {
    let server = desk(&["127.0.0.1:0"]);
    let body =
        json!({ "sheets": [CASES[1].0, CASES[1].1], "move": "Ng8", "after": "4.Ng1" }).to_string();
    let (_, alone) = post(&server.base, "/api/claim", &body);
    let start = Instant::now();
    let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..20)
            .map(|_| s.spawn(|| post(&server.base, "/api/claim", &body)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    // A figure for the note (not a condition: the test does not depend on
    // the machine's speed; docs/desk.md gives the release build's).
    eprintln!(
        "20 decisions at once: all answered in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    for (status, v) in answers {
        assert_eq!(status, 200);
        assert_eq!(v, alone);
    }
}

/// The URL is the first line; off loopback a token is needed, and then the
/// page and the API ask for it.
fn the_desk_prints_its_url_and_asks_for_the_token() {
    let out = bin().args(["desk", "0.0.0.0:0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a loopback address") && err.contains("--token"),
        "{err}"
    );
    let server = desk(&["127.0.0.1:0", "--token", "generate"]);
    let token = server
        .url
        .split_once("/desk?token=")
        .expect("the URL has the token")
        .1;
    assert_eq!(token.len(), 32);
    let host = server.base.trim_start_matches("http://");
    let get = |path: &str, auth: &str| {
        let rq = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{auth}\r\n");
        raw(&server.base, rq.as_bytes())
    };
    assert_eq!(get("/desk", "").0, 403);
    let (status, page) = get(&format!("/desk?token={token}"), "");
    assert_eq!(status, 200);
    assert!(page.contains("scoresheet") && page.contains("6.12.2"));
    assert_eq!(get("/desk.js", "").0, 200);
    // Nothing from elsewhere: the page's policy allows only its own origin.
    let mut s = TcpStream::connect(host).unwrap();
    let rq = format!("HEAD /desk?token={token} HTTP/1.1\r\nHost: {host}\r\n\r\n");
    s.write_all(rq.as_bytes()).unwrap();
    let mut head = String::new();
    s.read_to_string(&mut head).unwrap();
    assert!(
        head.contains("Content-Security-Policy: default-src 'none'; script-src 'self';"),
        "{head}"
    );
    let page_src = std::fs::read_to_string("crates/verify-claim/src/desk/desk.html").unwrap();
    assert!(!page_src.contains("http:") && !page_src.contains("https:"));
    let (status, _) = get(
        "/api/game?id=x",
        &format!("Authorization: Bearer {token}\r\n"),
    );
    assert_eq!(status, 404);
    let body = r#"{"sheets":["1. e4"]}"#;
    let rq = |auth: &str| {
        format!(
            "POST /api/reconstruct HTTP/1.1\r\nHost: {host}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    assert_eq!(raw(&server.base, rq("").as_bytes()).0, 403);
    let auth = format!("Authorization: Bearer {token}\r\n");
    assert_eq!(raw(&server.base, rq(&auth).as_bytes()).0, 200);
}

/// Chromium, Debian's chromedriver, and a Python with Selenium
/// (`DESK_PYTHON`, else `python3`; .ci/run makes a venv).
const SELENIUM: Need = Need {
    what: "Selenium",
    check: || {
        let python = desk_python();
        let ok = |c: &mut Command| c.output().is_ok_and(|o| o.status.success());
        if !ok(Command::new("chromium").arg("--version")) {
            return Err("no chromium (apt-get install chromium)".into());
        }
        if !ok(Command::new("chromedriver").arg("--version")) {
            return Err("no chromedriver (apt-get install chromium-driver)".into());
        }
        if !ok(Command::new(&python).args(["-c", "import selenium"])) {
            return Err(format!(
                "{python} has no selenium (set DESK_PYTHON; .ci/run installs one)"
            ));
        }
        Ok(())
    },
};

fn desk_python() -> String {
    std::env::var("DESK_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// The page as an arbiter uses it, in headless Chromium (`desk.py` says
/// what is done and checked); a live board's game opened in the desk.
fn the_desk_in_chromium() {
    let server = desk(&["127.0.0.1:0"]);
    let dir = Scratch::new("desk-browser");
    let live = dir.join("live");
    copy_dir(std::path::Path::new("fixtures/watch/livechess"), &live);
    let mut watch = bin()
        .args([
            "watch",
            &live.display().to_string(),
            "--serve",
            "127.0.0.1:0",
        ])
        .args(["--format", "jsonl"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(watch.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let live_url = line.trim().rsplit(' ').next().unwrap_or("").to_owned();
    // Screenshots stay, under fixed names, for a person to look at.
    let shots = std::env::temp_dir().join("verify-claim-desk-shots");
    std::fs::create_dir_all(&shots).unwrap();
    let out = Command::new(desk_python())
        .args(["tests/desk/desk.py", &server.url, &live_url])
        .arg(&shots)
        .arg("--sheets")
        .env("TMPDIR", &*dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let _ = watch.kill();
    let _ = watch.wait();
    let said = String::from_utf8_lossy(&out.stdout);
    eprintln!("{said}");
    assert!(
        out.status.success() && said.contains("\"done\": true"),
        "desk.py failed:\n{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!said.contains("PENDING"), "{said}");
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

crate::verify_claim_tests! {
    api_answers_equal_the_cli,
    bad_bodies_are_answered_400_or_413_never_500,
    twenty_decisions_at_once_are_all_answered,
    the_desk_prints_its_url_and_asks_for_the_token,
    the_desk_in_chromium: [SELENIUM],
}
