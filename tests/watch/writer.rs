//! The writer side of the watch test: games made into the successive
//! states of a live file, and the ways a state reaches the disk.

use std::io::Write;
use std::ops::ControlFlow;
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

/// The games of a fixture, read by pgn-reader (the test needs no reader
/// of the crate's own): tags, the moves as written, the Result tag.
pub fn games_of(text: &str) -> Vec<Game> {
    let mut reader = pgn_reader::Reader::new(text.as_bytes());
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut Collect).expect("fixture reads") {
        out.push(g);
    }
    out
}

/// A pgn-reader visitor keeping what `Game` holds.
struct Collect;

impl pgn_reader::Visitor for Collect {
    type Tags = Vec<(String, String)>;
    type Movetext = Game;
    type Output = Game;

    fn begin_tags(&mut self) -> ControlFlow<Game, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }
    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: pgn_reader::RawTag<'_>,
    ) -> ControlFlow<Game> {
        let name = String::from_utf8_lossy(name).into_owned();
        tags.push((name, value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Game, Game> {
        let result = tags
            .iter()
            .find(|(n, _)| n == "Result")
            .map_or("*".to_owned(), |(_, v)| v.clone());
        ControlFlow::Continue(Game {
            tags,
            moves: Vec::new(),
            result,
        })
    }
    fn san(&mut self, game: &mut Game, san: pgn_reader::SanPlus) -> ControlFlow<Game> {
        game.moves.push(san.to_string());
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, game: Game) -> Game {
        game
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
