//! The writer side of the watch test: games made into the successive
//! states of a live file, and the ways a state reaches the disk.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

pub const MOVE_DELAY: Duration = Duration::from_millis(40);
/// After a take-back or an illegal move: long enough that the watcher sees
/// the state before the next write.
pub const HOLD: Duration = Duration::from_millis(300);

/// How a step reaches the file.
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    /// Truncate and write the whole file.
    Rewrite,
    /// Append the new text.
    Append,
    /// Write a temporary file and rename it over the old one.
    Rename,
    /// Truncate, write up to this byte, pause, write the rest.
    Halves(usize),
}

pub struct Step {
    /// The whole file after the step.
    pub content: String,
    pub mode: Mode,
    pub pause: Duration,
}

pub struct Scenario {
    pub name: String,
    pub steps: Vec<Step>,
}

/// A record with these tags and moves (no move numbers: the reader does
/// not need them), ended by `result`.
pub fn render(tags: &[(String, String)], moves: &[String], result: &str) -> String {
    let mut s = String::new();
    for (k, v) in tags {
        let v = if k == "Result" { result } else { v };
        s.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    s.push('\n');
    for chunk in moves.chunks(12) {
        s.push_str(&chunk.join(" "));
        s.push('\n');
    }
    s.push_str(result);
    s.push('\n');
    s
}

pub struct Game {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub result: String,
}

/// The games of a fixture: tags, the moves as written, the Result tag.
/// Hand-written (a few lines) rather than the crate's reader, which is not
/// public, or pgn-reader, which reads chess only: the fixtures are plain
/// (tag lines, then movetext with comments, variations and NAGs).
pub fn games_of(text: &str) -> Vec<Game> {
    let mut out = Vec::new();
    let mut tags = Vec::new();
    let mut movetext = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let line = line.trim();
        if let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, value) = tag.split_once(' ').expect("a tag pair");
            tags.push((name.to_owned(), value.trim().trim_matches('"').to_owned()));
            continue;
        }
        movetext.push_str(line);
        movetext.push('\n');
        let next_is_tag = lines
            .peek()
            .is_some_and(|l| l.trim_start().starts_with('['));
        if (next_is_tag || lines.peek().is_none()) && !movetext.trim().is_empty() {
            out.push(game(
                std::mem::take(&mut tags),
                &std::mem::take(&mut movetext),
            ));
        }
    }
    out
}

/// `12.e4` and `12...e5` without their numbers; `12.` is empty.
fn without_move_number(token: &str) -> &str {
    match token.rfind('.') {
        Some(dot) if token[..dot].chars().all(|c| c.is_ascii_digit() || c == '.') => {
            &token[dot + 1..]
        }
        _ => token,
    }
}

/// One game from its tags and movetext.
fn game(tags: Vec<(String, String)>, movetext: &str) -> Game {
    let mut plain = String::new();
    let (mut brace, mut paren, mut semi) = (false, 0usize, false);
    for c in movetext.chars() {
        match c {
            '\n' if semi => semi = false,
            _ if semi => {}
            '{' => brace = true,
            '}' => brace = false,
            _ if brace => {}
            '(' => paren += 1,
            ')' => paren = paren.saturating_sub(1),
            _ if paren > 0 => {}
            ';' => semi = true,
            _ => plain.push(c),
        }
    }
    let results = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];
    let moves = plain
        .split_whitespace()
        .map(without_move_number)
        .filter(|t| !t.is_empty() && !t.starts_with('$') && !results.contains(t))
        .map(str::to_owned)
        .collect();
    let result = tags
        .iter()
        .find(|(n, _)| n == "Result")
        .map_or("*".to_owned(), |(_, v)| v.clone());
    Game {
        tags,
        moves,
        result,
    }
}

pub fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// Several boards in one file, rewritten after each move of any board
/// (the boards move in turn), then the results.
pub fn rewrite(name: &str, games: &[&Game], mode: Mode) -> Scenario {
    let file = |plies: &[usize], done: bool| {
        games
            .iter()
            .zip(plies)
            .map(|(g, &n)| render(&g.tags, &g.moves[..n], if done { &g.result } else { "*" }))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut plies = vec![0; games.len()];
    let mut steps = vec![Step {
        content: file(&plies, false),
        mode,
        pause: MOVE_DELAY,
    }];
    let longest = games.iter().map(|g| g.moves.len()).max().unwrap_or(0);
    for k in 1..=longest {
        for (i, g) in games.iter().enumerate() {
            if k <= g.moves.len() {
                plies[i] = k;
                steps.push(Step {
                    content: file(&plies, false),
                    mode,
                    pause: MOVE_DELAY,
                });
            }
        }
    }
    steps.push(Step {
        content: file(&plies, true),
        mode,
        pause: MOVE_DELAY,
    });
    Scenario {
        name: name.to_owned(),
        steps,
    }
}

/// One game appended to move by move: the tags first, then a move a line.
pub fn append(name: &str, g: &Game) -> Scenario {
    let mut content = render(&g.tags, &[], "*");
    content.truncate(content.len() - 2);
    let mut steps = vec![Step {
        content: content.clone(),
        mode: Mode::Rewrite,
        pause: MOVE_DELAY,
    }];
    for m in g.moves.iter().chain(std::iter::once(&g.result)) {
        content.push_str(m);
        content.push('\n');
        steps.push(Step {
            content: content.clone(),
            mode: Mode::Append,
            pause: MOVE_DELAY,
        });
    }
    Scenario {
        name: name.to_owned(),
        steps,
    }
}

/// A game whose record goes through these move lists in turn (moves taken
/// back, an illegal move corrected); each state is held long enough to
/// be seen.
pub fn edits(name: &str, tags: &[(&str, &str)], states: &[&[&str]]) -> Scenario {
    let tags: Vec<(String, String)> = tags
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let steps = states
        .iter()
        .map(|moves| {
            let moves: Vec<String> = moves.iter().map(|m| (*m).to_owned()).collect();
            Step {
                content: render(&tags, &moves, "*"),
                mode: Mode::Rewrite,
                pause: HOLD,
            }
        })
        .collect();
    Scenario {
        name: name.to_owned(),
        steps,
    }
}

/// Every step written in halves, cut where a reader would go wrong: in the
/// last move, in a comment, in the tags, and between two moves.
pub fn halves(mut s: Scenario, upto: usize) -> Scenario {
    for (k, step) in s.steps.iter_mut().enumerate().take(upto) {
        let c = &step.content;
        let movetext = c.find("\n\n").map_or(0, |i| i + 2);
        let text = &c[movetext..];
        let last_move = text
            .rfind(" {")
            .map(|end| text[..end].rfind("} ").map_or(0, |i| i + 2));
        let cut = match k % 4 {
            0 => last_move.map_or(9, |i| movetext + i + 1),
            1 => c[movetext..].find('{').map_or(5, |i| movetext + i + 3),
            2 => 9,
            _ => c[movetext..].find(' ').map_or(5, |i| movetext + i + 1),
        };
        let cut = cut.min(c.len() - 1);
        if c.is_char_boundary(cut) {
            step.mode = Mode::Halves(cut);
        }
    }
    s
}

/// The lichess sample's games with clock comments put back into the record,
/// so that a half-written file can be cut inside a comment.
pub fn with_comments(g: &Game) -> Game {
    Game {
        tags: g.tags.clone(),
        moves: g
            .moves
            .iter()
            .map(|m| format!("{m} {{ [%clk 0:05:00] }}"))
            .collect(),
        result: g.result.clone(),
    }
}

/// Writes one step and returns the moment just before its last write call
/// (the rename, the second half): no event about the step can come before
/// it. (Taken after the write, a watcher quicker than this thread's next
/// instruction would seem to answer before the move was made.)
pub fn write_step(dir: &Path, name: &str, step: &Step, previous: &str) -> Instant {
    let path = dir.join(name);
    match step.mode {
        Mode::Rewrite => {
            let at = Instant::now();
            std::fs::write(&path, &step.content).unwrap();
            at
        }
        Mode::Append => {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            let at = Instant::now();
            f.write_all(&step.content.as_bytes()[previous.len()..])
                .unwrap();
            at
        }
        Mode::Rename => {
            let tmp = dir.join(format!(".{name}.tmp"));
            std::fs::write(&tmp, &step.content).unwrap();
            let at = Instant::now();
            std::fs::rename(&tmp, &path).unwrap();
            at
        }
        Mode::Halves(cut) => {
            let mut f = std::fs::File::create(&path).unwrap();
            f.write_all(&step.content.as_bytes()[..cut]).unwrap();
            f.flush().unwrap();
            std::thread::sleep(Duration::from_millis(150));
            let at = Instant::now();
            f.write_all(&step.content.as_bytes()[cut..]).unwrap();
            at
        }
    }
}
