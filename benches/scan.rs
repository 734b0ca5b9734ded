//! Scan throughput against a floor measured in the same run.
//!
//!     cargo bench --bench scan -- [PATH ...]        (default: ../shared/corpus)
//!
//! The inputs are decompressed and concatenated into one plain file (the
//! "single large file"); every contender reads that file from the page
//! cache. Contenders:
//!
//! - floor: pgn-reader + shakmaty replay of the same games (SAN to move,
//!   play), no claim checks: what any checker must at least do;
//! - scan --jobs 1 and --jobs 2: the real pipeline with every check, output
//!   to a sink;
//! - pgn-extract --repetition (if installed): the C tool most arbiters know.
//!
//! Each is run several times, interleaved, and the best time is kept (the
//! machine is shared and noisy); ratios matter, not absolute figures.
//! `--memory` also scans a 1 GB file made by repeating the input, as a
//! child process, and reports its peak resident memory.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use pgn_reader::{RawTag, SanPlus, Visitor};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

/// The floor: replay every game with pgn-reader and shakmaty.
struct Replay {
    pos: Chess,
    plies: u64,
    games: u64,
    bad: bool,
}

impl Visitor for Replay {
    type Tags = Option<Chess>;
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }
    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            *tags = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        self.pos = tags.unwrap_or_default();
        self.bad = false;
        ControlFlow::Continue(())
    }
    fn san(&mut self, _: &mut (), san: SanPlus) -> ControlFlow<Self::Output> {
        if !self.bad {
            match san.san.to_move(&self.pos) {
                Ok(m) => {
                    self.pos.play_unchecked(m);
                    self.plies += 1;
                }
                Err(_) => self.bad = true,
            }
        }
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: ()) -> Self::Output {
        self.games += 1;
    }
}

fn floor(path: &Path) -> (u64, u64) {
    let mut v = Replay {
        pos: Chess::default(),
        plies: 0,
        games: 0,
        bad: false,
    };
    let mut reader = pgn_reader::Reader::new(File::open(path).expect("open"));
    while let Ok(Some(())) = reader.read_game(&mut v) {}
    (v.games, v.plies)
}

fn scan(path: &Path, jobs: usize) -> usize {
    use verify_claim::claims::scan::ScanOptions;
    let config = verify_claim::scan::Config {
        paths: vec![path.display().to_string()],
        jobs,
        options: ScanOptions::default(),
        encoding: verify_claim::record::Encoding::Utf8,
        progress: false,
        follow: false,
    };
    let mut sink = std::io::sink();
    let mut printer = verify_claim::report::scan::Jsonl;
    verify_claim::scan::run(config, &mut printer, &mut sink)
        .expect("scan")
        .games
}

/// Stage costs, single thread, the whole file in memory: our reader alone;
/// reader + replay with hashes; the full per-game scan.
fn stages(bytes: &[u8], runs: usize) -> [f64; 3] {
    use verify_claim::claims::scan::ScanOptions;
    use verify_claim::game::{Game, chess::ChessGame};
    use verify_claim::record::{Encoding, Reader};
    let opts = ScanOptions::default();
    let read = best_of(runs, || {
        let mut r = Reader::new(bytes, Encoding::Utf8);
        let mut n = 0;
        while let Some(g) = r.next_game() {
            n += g.map_or(0, |g| g.moves.len());
        }
        std::hint::black_box(n);
    });
    let replay = best_of(runs, || {
        let mut r = Reader::new(bytes, Encoding::Utf8);
        while let Some(g) = r.next_game() {
            let Ok(g) = g else { continue };
            let Ok((mut pos, _)) = ChessGame::start_position(&g, ()) else {
                continue;
            };
            let mut h = ChessGame::hash(&pos);
            for m in &g.moves {
                let Ok(mv) = ChessGame::parse_recorded(&pos, m.text) else {
                    break;
                };
                h = ChessGame::play(&mut pos, &mv, h);
            }
            std::hint::black_box(h);
        }
    });
    let full = best_of(runs, || {
        let mut r = Reader::new(bytes, Encoding::Utf8);
        while let Some(g) = r.next_game() {
            let Ok(g) = g else { continue };
            std::hint::black_box(verify_claim::claims::scan::scan_record(&g, &opts));
        }
    });
    [read, replay, full]
}

/// The dead-position checks' own cost: the final position of every game,
/// checked as the scan does (quick), and with the full search.
fn dead_checks(bytes: &[u8]) -> (usize, f64, f64, usize) {
    use verify_claim::game::{Game, Search, chess::ChessGame};
    use verify_claim::record::{Encoding, Reader};
    let mut finals = Vec::new();
    let mut r = Reader::new(bytes, Encoding::Utf8);
    while let Some(g) = r.next_game() {
        let Ok(g) = g else { continue };
        let Ok((mut pos, _)) = ChessGame::start_position(&g, ()) else {
            continue;
        };
        let mut ok = true;
        for m in &g.moves {
            match ChessGame::parse_recorded(&pos, m.text) {
                Ok(mv) => {
                    ChessGame::play(&mut pos, &mv, 0);
                }
                Err(_) => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            finals.push(pos);
        }
    }
    let mut dead = 0;
    let quick = best_of(3, || {
        dead = finals
            .iter()
            .filter(|p| ChessGame::is_dead(p, Search::Quick))
            .count();
    });
    let full = best_of(1, || {
        std::hint::black_box(
            finals
                .iter()
                .filter(|p| ChessGame::is_dead(p, Search::Full))
                .count(),
        );
    });
    (finals.len(), quick, full, dead)
}

/// The same analysis on pre-cut chunks in memory, on a rayon pool of
/// `threads`, with no reading, ordering or printing: what the machine
/// allows right now (on a shared host two cores rarely give 2x).
fn ceiling(chunks: &[verify_claim::input::chunks::Chunk], threads: usize) -> f64 {
    use rayon::prelude::*;
    use verify_claim::claims::scan::ScanOptions;
    let opts = ScanOptions::default();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    best_of(5, || {
        pool.install(|| {
            let n: usize = chunks
                .par_iter()
                .map(|c| {
                    verify_claim::scan::analyse_chunk(
                        c,
                        verify_claim::record::Encoding::Utf8,
                        &opts,
                    )
                    .0
                })
                .sum();
            std::hint::black_box(n);
        })
    })
}

/// pgn-extract on PATH, or where Debian installs it.
fn pgn_extract_exe() -> Option<&'static str> {
    ["pgn-extract", "/usr/games/pgn-extract"]
        .into_iter()
        .find(|exe| {
            std::process::Command::new(exe)
                .arg("--version")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok()
        })
}

fn pgn_extract(path: &Path) -> Option<()> {
    let status = std::process::Command::new(pgn_extract_exe()?)
        .args(["--repetition", "-s", "-o", "/dev/null"])
        .arg(path)
        .stderr(std::process::Stdio::null())
        .status()
        .ok()?;
    status.success().then_some(())
}

fn best_of<F: FnMut()>(runs: usize, mut f: F) -> f64 {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn inputs(args: &[String]) -> Vec<PathBuf> {
    let roots: Vec<String> = if args.is_empty() {
        vec!["../shared/corpus".into()]
    } else {
        args.to_vec()
    };
    let mut files = Vec::new();
    for item in verify_claim::input::walk::expand(&roots) {
        if let verify_claim::input::walk::Item::File(p) = item
            && !p.contains("malformed")
            && !p.contains("python-chess")
        {
            files.push(PathBuf::from(p));
        }
    }
    files
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let memory = args.iter().any(|a| a == "--memory");
    let args: Vec<String> = args.into_iter().filter(|a| a != "--memory").collect();
    // One stage on one file, once: for profilers and instruction counts
    // (valgrind --tool=callgrind), which are stable where timings are not.
    if let Ok(stage) = std::env::var("VC_STAGE") {
        let path = PathBuf::from(args.first().expect("VC_STAGE needs a plain PGN file"));
        let bytes = std::fs::read(&path).expect("read");
        match stage.as_str() {
            "floor" => drop(floor(&path)),
            "scan1" => drop(scan(&path, 1)),
            "stages" => drop(stages(&bytes, 1)),
            other => panic!("unknown VC_STAGE {other}"),
        }
        return;
    }
    let files = inputs(&args);
    if files.is_empty() {
        eprintln!("SKIPPED: no input (give paths, or have ../shared/corpus)");
        return;
    }
    let big = std::env::temp_dir().join("verify-claim-bench.pgn");
    {
        let mut out = BufWriter::new(File::create(&big).expect("create"));
        for f in &files {
            let mut r = verify_claim::input::open::open(&f.display().to_string()).expect("open");
            std::io::copy(&mut r, &mut out).expect("copy");
            out.write_all(b"\n\n").expect("write");
        }
    }
    let mb = std::fs::metadata(&big).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    let (games, plies) = floor(&big);
    println!(
        "input: {} files → {:.1} MB, {games} games, {plies} plies (one file: {})",
        files.len(),
        mb,
        big.display()
    );

    let runs = 9;
    let (mut t_floor, mut t1, mut t2) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    for _ in 0..runs {
        t_floor = t_floor.min(best_of(1, || {
            floor(&big);
        }));
        t1 = t1.min(best_of(1, || {
            scan(&big, 1);
        }));
        t2 = t2.min(best_of(1, || {
            scan(&big, 2);
        }));
    }
    let line = |name: &str, t: f64| {
        println!(
            "{name:<34} {:>8.3} s {:>9.0} games/s {:>7.1} MB/s",
            t,
            games as f64 / t,
            mb / t
        )
    };
    line("floor (pgn-reader + shakmaty, 1 thread)", t_floor);
    line("scan --jobs 1 (all checks)", t1);
    line("scan --jobs 2 (all checks)", t2);
    println!(
        "scan --jobs 1 / floor:   {:.2} (target >= 0.85)",
        t_floor / t1
    );
    println!("scan --jobs 2 / --jobs 1: {:.2} (target >= 1.8)", t1 / t2);
    let bytes = std::fs::read(&big).expect("read");
    let [read, replay, full] = stages(&bytes, 7);
    println!("stages, 1 thread, in memory:");
    line("  our reader alone", read);
    line("  reader + SAN + play + hashes", replay);
    line("  reader + full per-game scan", full);
    let (finals, dq, df, dead) = dead_checks(&bytes);
    println!(
        "dead-position checks of {finals} final positions: quick {dq:.3} s ({:.1}% of scan --jobs 1; {dead} dead), full {df:.3} s",
        100.0 * dq / t1
    );
    let mut chunker = verify_claim::input::chunks::Chunker::new(&bytes[..]);
    let mut chunks = Vec::new();
    while let Ok(Some(c)) = chunker.next_chunk() {
        chunks.push(c);
    }
    let (c1, c2) = (ceiling(&chunks, 1), ceiling(&chunks, 2));
    line("  analysis alone, 1 thread", c1);
    line("  analysis alone, 2 threads", c2);
    println!(
        "machine ceiling now, 2 threads / 1 thread: {:.2}; the pipeline reaches {:.0}% of it",
        c1 / c2,
        100.0 * (t1 / t2) / (c1 / c2)
    );
    drop(chunks);
    drop(bytes);
    if pgn_extract(&big).is_some() {
        let te = best_of(3, || {
            pgn_extract(&big);
        });
        line("pgn-extract --repetition", te);
        println!("scan --jobs 2 / pgn-extract: {:.1}x (target >= 6)", te / t2);
    } else {
        println!("pgn-extract: not installed (apt-get install pgn-extract), not compared");
    }
    if memory {
        peak_memory(&big);
    }
    let _ = std::fs::remove_file(&big);
}

/// Scans a file of about 1 GB (the input repeated) in a child process and
/// reports its peak resident memory (VmHWM).
fn peak_memory(big: &Path) {
    let gb = std::env::temp_dir().join("verify-claim-bench-1gb.pgn");
    {
        let chunk = std::fs::read(big).expect("read");
        let mut out = BufWriter::new(File::create(&gb).expect("create"));
        let mut written = 0usize;
        while written < 1_000_000_000 && !chunk.is_empty() {
            out.write_all(&chunk).expect("write");
            written += chunk.len();
        }
    }
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/verify-claim");
    let mut child = std::process::Command::new(&exe)
        .args(["scan", "--format", "jsonl", "--no-progress"])
        .arg(&gb)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run target/release/verify-claim (cargo build --release first)");
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    let t = Instant::now();
    while child.try_wait().ok().flatten().is_none() {
        if let Ok(s) = std::fs::read_to_string(&status)
            && let Some(kb) = s
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        {
            peak_kb = kb;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let size = std::fs::metadata(&gb).map(|m| m.len()).unwrap_or(0);
    println!(
        "memory: scan of {:.2} GB in {:.1} s, peak resident {:.1} MB (target < 100 MB)",
        size as f64 / 1e9,
        t.elapsed().as_secs_f64(),
        peak_kb as f64 / 1024.0
    );
    let _ = std::fs::remove_file(&gb);
}
