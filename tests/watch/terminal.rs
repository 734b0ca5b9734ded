//! `watch` in a terminal: the live view through script(1), 60 columns
//! wide, on `round5.pgn`: one line per board, the newest alert
//! highlighted, events wrapped, a bell unless quiet, redrawn in place.

use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What is wrong with a frame of the live view of `round5.pgn`, if
/// anything: three boards, the checkmate highlighted, events wrapped at
/// the width, the written-move claim among them.
fn frame_problem(f: &str) -> Option<String> {
    let table = f.split("Recent events:").next().unwrap_or("");
    let boards: Vec<&str> = table
        .lines()
        .filter(|l| l.contains("round5.pgn "))
        .collect();
    if boards.len() != 3 {
        return Some(format!("{} boards: {f}", boards.len()));
    }
    // The checkmate on board 5.1 is the only alert: highlighted.
    if !boards[0].starts_with("\x1b[7m> round5.pgn") {
        return Some(format!("5.1 not highlighted: {f}"));
    }
    // Event text is wrapped at the width, not cut.
    let plain = |l: &str| {
        l.replace("\x1b[7m", "")
            .replace("\x1b[0m", "")
            .replace("\x1b[1m", "")
            .replace("\x1b[1;31m", "")
    };
    let recent: Vec<String> = f
        .split("Recent events:")
        .nth(1)
        .unwrap_or("")
        .lines()
        .map(|l| plain(l).trim_end_matches('\r').to_owned())
        .collect();
    if !recent.iter().all(|l| l.chars().count() <= 60) {
        return Some(format!("wider than 60: {recent:?}"));
    }
    // Every line of the view fits the 60 columns (issue 39: the title was
    // 88): wrapped, not cut. The frame's first line follows the title's
    // start, by which the frames were split.
    for (i, l) in f.lines().enumerate() {
        let shown = strip(l).chars().count() + if i == 0 { 21 } else { 0 };
        if shown > 60 {
            return Some(format!("a line of {shown} columns: {l:?}"));
        }
    }
    let joined = recent
        .iter()
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join(" ");
    let claim = "Black can claim a draw by writing 4...Ng8 (threefold repetition, 9.2.1)";
    (!joined.contains(claim)).then(|| format!("no '{claim}' in: {joined}"))
}

/// A line as the terminal shows it: escape sequences, CR and the bell
/// left out.
fn strip(l: &str) -> String {
    let mut out = String::new();
    let mut chars = l.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => {
                if chars.peek() == Some(&'[') {
                    chars.next();
                    for d in chars.by_ref() {
                        if d.is_ascii_alphabetic() {
                            break;
                        }
                    }
                }
            }
            '\r' | '\x07' => {}
            c => out.push(c),
        }
    }
    out
}

/// The live view: one line per board, the newest alert highlighted, a bell
/// unless quiet, redrawn in place.
pub(crate) fn live_view_draws_one_line_per_board() {
    // Removed when the test ends, passed or not.
    let dir = crate::common::Scratch::new("live");
    std::fs::copy("fixtures/chess/round5.pgn", dir.join("round5.pgn")).unwrap();
    for quiet in [false, true] {
        // A terminal 60 columns wide, through script(1): the CLI only.
        let command = format!(
            "stty cols 60 rows 40; exec {} watch {} --interval 25{}",
            env!("CARGO_BIN_EXE_verify-claim"),
            dir.display(),
            if quiet { " --quiet" } else { "" }
        );
        let mut child = Command::new("script")
            .args(["-qfec", &command, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut stdout, &mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        // Until a frame after the first (the view redraws every second)
        // shows what the engine has said: a condition, not a time.
        let mut out = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut problem = String::from("no second frame");
        loop {
            let text = String::from_utf8_lossy(&out).into_owned();
            let frames: Vec<&str> = text.split("verify-claim watch · ").skip(1).collect();
            // The last frame may still be arriving: only whole ones.
            let whole = frames.len().saturating_sub(1);
            let newest = (whole >= 2).then(|| frame_problem(frames[whole - 1]));
            match newest {
                Some(None) => break,
                Some(Some(p)) => problem = p,
                None => {}
            }
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(b) => out.extend(b),
                Err(_) => panic!("{problem}\n{text:?}"),
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        let out = String::from_utf8_lossy(&out).into_owned();
        // The second frame goes back up over the first.
        assert!(out.contains("A\r\x1b[J"), "{out:?}");
        assert_eq!(out.contains('\x07'), !quiet);
    }
}
