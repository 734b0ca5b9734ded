//! Column draughts: the engine's move generator against a second one,
//! written only for this test and as plainly as possible (an 8x8 array of
//! stacks of characters, straight from the rules in the notes), by perft
//! from the start position and from positions counted by hand.

use crate::game::column_draughts::{Rules, fen, perft};

/// A square's stack, top first: "w", "W", "b", "B" characters.
#[derive(Clone, Copy)]
struct Stack {
    len: usize,
    p: [u8; 24],
}

impl Stack {
    const EMPTY: Stack = Stack { len: 0, p: [0; 24] };
    fn top(&self) -> Option<u8> {
        (self.len > 0).then(|| self.p[0])
    }
    fn pop(&mut self) -> u8 {
        let t = self.p[0];
        self.p.copy_within(1..self.len, 0);
        self.len -= 1;
        t
    }
    fn push_bottom(&mut self, c: u8) {
        self.p[self.len] = c;
        self.len += 1;
    }
}

/// A move: its path of squares and the squares it jumped.
type SimpleMove = (Vec<(i32, i32)>, Vec<(i32, i32)>);

#[derive(Clone, Copy)]
struct Board {
    sq: [[Stack; 8]; 8], // [file][rank]
    white_to_move: bool,
    rejump: bool,
}

fn white(c: u8) -> bool {
    c == b'w' || c == b'W'
}

fn king(c: u8) -> bool {
    c == b'W' || c == b'B'
}

fn on(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

const DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

impl Board {
    fn from_fen(text: &str, rules: Rules) -> Board {
        // Read our own FEN format by hand (independently of the engine).
        let fields: Vec<&str> = text.split(':').collect();
        let mut b = Board {
            sq: [[Stack::EMPTY; 8]; 8],
            white_to_move: fields[0] == "W",
            rejump: rules == Rules::Rejump,
        };
        for item in fields[1].split(',').filter(|s| !s.is_empty()) {
            let (sq, st) = item.split_once('=').unwrap();
            let f = (sq.as_bytes()[0] - b'a') as usize;
            let r = (sq.as_bytes()[1] - b'1') as usize;
            for c in st.bytes() {
                b.sq[f][r].push_bottom(c);
            }
        }
        b
    }

    fn mine(&self, c: u8) -> bool {
        white(c) == self.white_to_move
    }

    /// All moves as (path, jumped squares).
    fn moves(&self) -> Vec<SimpleMove> {
        let mut caps = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                if let Some(t) = self.sq[f as usize][r as usize].top()
                    && self.mine(t)
                {
                    let mut b = *self;
                    b.sq[f as usize][r as usize] = Stack::EMPTY; // the start square is empty during the capture
                    b.capture(f, r, king(t), &mut vec![(f, r)], &mut Vec::new(), &mut caps);
                }
            }
        }
        if !caps.is_empty() {
            return caps;
        }
        let mut quiet = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                let Some(t) = self.sq[f as usize][r as usize].top() else {
                    continue;
                };
                if !self.mine(t) {
                    continue;
                }
                for (df, dr) in DIRS {
                    let forward = if self.white_to_move { 1 } else { -1 };
                    if !king(t) && dr != forward {
                        continue;
                    }
                    let (mut x, mut y) = (f + df, r + dr);
                    while on(x, y) && self.sq[x as usize][y as usize].len == 0 {
                        quiet.push((vec![(f, r), (x, y)], vec![]));
                        if !king(t) {
                            break;
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
        }
        quiet
    }

    /// Can a capture be made from (f, r) on this board?
    fn can_capture(&self, f: i32, r: i32, is_king: bool, jumped: &[(i32, i32)]) -> bool {
        let mut found = Vec::new();
        let mut b = *self;
        b.capture(
            f,
            r,
            is_king,
            &mut vec![(f, r)],
            &mut jumped.to_vec(),
            &mut found,
        );
        // A finished sequence is recorded with its path; a path longer than
        // the square itself means a jump was possible.
        found.iter().any(|(p, _)| p.len() > 1)
    }

    fn capture(
        &mut self,
        f: i32,
        r: i32,
        is_king: bool,
        path: &mut Vec<(i32, i32)>,
        jumped: &mut Vec<(i32, i32)>,
        out: &mut Vec<SimpleMove>,
    ) {
        let start_len = jumped.len();
        let mut any = false;
        for (df, dr) in DIRS {
            // The enemy tower to jump: adjacent for a man; for a king the
            // first tower along the diagonal.
            let (mut x, mut y) = (f + df, r + dr);
            if is_king {
                while on(x, y) && self.sq[x as usize][y as usize].len == 0 {
                    x += df;
                    y += dr;
                }
            }
            if !on(x, y) {
                continue;
            }
            let Some(t) = self.sq[x as usize][y as usize].top() else {
                continue;
            };
            if self.mine(t) {
                continue;
            }
            let allowed = if self.rejump {
                jumped.last() != Some(&(x, y))
            } else {
                !jumped.contains(&(x, y))
            };
            if !allowed {
                continue;
            }
            let mut landings = Vec::new();
            let (mut lx, mut ly) = (x + df, y + dr);
            while on(lx, ly) && self.sq[lx as usize][ly as usize].len == 0 {
                landings.push((lx, ly));
                if !is_king {
                    break;
                }
                lx += df;
                ly += dr;
            }
            if landings.is_empty() {
                continue;
            }
            any = true;
            let far = if self.white_to_move { 7 } else { 0 };
            let mut after = *self;
            if self.rejump {
                after.sq[x as usize][y as usize].pop();
            }
            jumped.push((x, y));
            let cont: Vec<bool> = landings
                .iter()
                .map(|&(lx, ly)| after.can_capture(lx, ly, is_king || ly == far, jumped))
                .collect();
            let some = cont.iter().any(|&c| c);
            for (i, &(lx, ly)) in landings.iter().enumerate() {
                if some && !cont[i] {
                    continue;
                }
                path.push((lx, ly));
                let mut next = after;
                next.capture(lx, ly, is_king || ly == far, path, jumped, out);
                path.pop();
            }
            jumped.pop();
        }
        if !any && start_len > 0 {
            out.push((path.clone(), jumped.clone()));
        }
    }

    fn play(&self, path: &[(i32, i32)], jumped: &[(i32, i32)]) -> Board {
        let mut b = *self;
        let (f, r) = path[0];
        let mut t = b.sq[f as usize][r as usize];
        b.sq[f as usize][r as usize] = Stack::EMPTY;
        for &(x, y) in jumped {
            let c = b.sq[x as usize][y as usize].pop();
            t.push_bottom(c);
        }
        let far = if self.white_to_move { 7 } else { 0 };
        if path[1..].iter().any(|&(_, y)| y == far) {
            t.p[0] = t.p[0].to_ascii_uppercase();
        }
        let (tf, tr) = path[path.len() - 1];
        b.sq[tf as usize][tr as usize] = t;
        b.white_to_move = !b.white_to_move;
        b
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|(p, j)| self.play(p, j).perft(depth - 1))
            .sum()
    }
}

const START: &str = "W:a1=w,c1=w,e1=w,g1=w,b2=w,d2=w,f2=w,h2=w,a3=w,c3=w,e3=w,g3=w,b6=b,d6=b,f6=b,h6=b,a7=b,c7=b,e7=b,g7=b,b8=b,d8=b,f8=b,h8=b";

fn both(fen_text: &str, rules: Rules, depth: u32) -> (u64, u64) {
    let engine = perft(&fen::parse(fen_text, rules).unwrap(), depth);
    let simple = Board::from_fen(fen_text, rules).perft(depth);
    (engine, simple)
}

#[test]
fn start_position_to_depth_8() {
    // Depths 1-5 equal Russian draughts' (no tower has been jumped yet).
    let want = [7u64, 49, 302, 1469, 7482, 37908, 189912, 925868];
    for (i, &n) in want.iter().enumerate() {
        let depth = i as u32 + 1;
        let (engine, simple) = both(START, Rules::Standard, depth);
        assert_eq!((engine, simple), (n, n), "depth {depth}");
    }
}

#[test]
fn start_position_rejump_reading() {
    for depth in 1..=7 {
        let (engine, simple) = both(START, Rules::Rejump, depth);
        assert_eq!(engine, simple, "depth {depth}");
    }
}

#[test]
fn hand_counted_positions() {
    let cases: &[(&str, Rules, u64, &str)] = &[
        // A man takes two ways after its first jump: c3:e5:c7 and c3:e5:g7.
        (
            "W:c3=w,d4=b,d6=b,f6=b",
            Rules::Standard,
            2,
            "branching multi-capture",
        ),
        // Jumping a tower with a white piece under a black one releases it.
        (
            "W:c3=w,d4=bw",
            Rules::Standard,
            1,
            "tower released by a capture",
        ),
        // Promotion in the middle: b6:d8 crowns the man, which goes on as a
        // king over e7 and may land on f6, g5 or h4.
        (
            "W:b6=w,c7=b,e7=b",
            Rules::Standard,
            3,
            "promotion in the middle of a capture",
        ),
        // A king must land where the capture goes on: of d4..h8 only f6
        // continues (over e7 to d8): one move, not five.
        (
            "W:a1=W,c3=b,e7=b",
            Rules::Standard,
            1,
            "king landing choices",
        ),
        // Without a second piece to take, all five landings are moves.
        (
            "W:a1=W,c3=b",
            Rules::Standard,
            5,
            "king landings, none continuing",
        ),
        // A king jumps a tower of two black pieces: c3 then, in the re-jump
        // reading, can come back over it later (not right away).
        ("W:a1=W,c3=bb,f6=b,d8=b", Rules::Standard, 0, "see below"),
    ];
    for &(f, rules, n, what) in &cases[..5] {
        let (engine, simple) = both(f, rules, 1);
        assert_eq!((engine, simple), (n, n), "{what}: {f}");
    }
    // Towers a king may jump twice: the readings must differ, and both
    // generators agree on each.
    let f = cases[5].0;
    let (std_engine, std_simple) = both(f, Rules::Standard, 1);
    let (re_engine, re_simple) = both(f, Rules::Rejump, 1);
    assert_eq!(std_engine, std_simple);
    assert_eq!(re_engine, re_simple);
    assert_eq!(
        (std_engine, re_engine),
        (4, 8),
        "the two readings of the re-jump rule"
    );
    // Deeper, from each hand position, both readings.
    for &(f, _, _, what) in cases {
        for rules in [Rules::Standard, Rules::Rejump] {
            let (e, s) = both(f, rules, 4);
            assert_eq!(e, s, "{what}: {f} {rules:?}");
        }
    }
}

#[test]
fn tower_released_by_a_capture_stays_in_place() {
    use crate::game::{Game, column_draughts::ColumnDraughts};
    let mut p = fen::parse("W:c3=w,d4=bw", Rules::Standard).unwrap();
    let m = ColumnDraughts::parse_recorded(&p, "c3:e5").unwrap();
    ColumnDraughts::play(&mut p, &m, 0);
    assert_eq!(fen::write(&p), "B:d4=w,e5=wb:0:1");
}
