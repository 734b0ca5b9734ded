//! Scan throughput against a floor measured in the same run.
//!
//!     cargo bench --bench scan [-- --memory] [-- PATH ...]
//!
//! Three inputs by default, each one plain file in the temporary directory,
//! read from the page cache: (a) the TWIC and lichess files of
//! ../shared/corpus, 25 copies each, interleaved (about 50 MB); (b) the
//! TCEC files, decompressed and concatenated; (c) every file of
//! ../shared/corpus once, decompressed (distinct games: no cache across
//! identical games is rewarded). Given paths replace them.
//! `VC_RUNS` sets the rounds (7); `VC_NO_CALLGRIND` skips the instruction
//! counts. Contenders:
//!
//! - floor: pgn-reader + shakmaty replay of the same games (SAN to move,
//!   play), no claim checks: what any checker must at least do; on one
//!   thread, and on two taking pieces of about 1 MiB cut at game starts
//!   (the scaling the scan's two threads are compared with);
//! - scan --jobs 1 and --jobs 2: the real pipeline with every check, output
//!   to a sink;
//! - pgn-extract --repetition (if installed): the C tool most arbiters know.
//!
//! Each is run several times, interleaved; medians are printed, and the
//! ratios are medians of per-round ratios with their range (the machine is
//! shared and noisy). With valgrind installed, the floor and `scan --jobs 1`
//! also run under callgrind on the input's first 4 MB: instruction counts
//! do not move with the machine's load.
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

/// The floor on two threads: the file cut at game starts into pieces of
/// about 1 MiB (as the scan's segments are), each thread taking the next
/// piece, so that the floor's scaling is measured as the scan's is.
fn floor2(path: &Path, cuts: &[u64]) -> (u64, u64) {
    use std::io::{Read, Seek, SeekFrom};
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let one = || {
        let mut v = Replay {
            pos: Chess::default(),
            plies: 0,
            games: 0,
            bad: false,
        };
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let (Some(&start), Some(&end)) = (cuts.get(i), cuts.get(i + 1)) else {
                break;
            };
            let mut f = File::open(path).expect("open");
            f.seek(SeekFrom::Start(start)).expect("seek");
            let mut reader = pgn_reader::Reader::new(f.take(end - start));
            while let Ok(Some(())) = reader.read_game(&mut v) {}
        }
        (v.games, v.plies)
    };
    std::thread::scope(|s| {
        let a = s.spawn(one);
        let (g, p) = one();
        let (ga, pa) = a.join().expect("floor thread");
        (g + ga, p + pa)
    })
}

/// Offsets of `path` cut at game starts (a line `[` after a blank line)
/// about every MiB, from 0 to its length.
fn pieces(path: &Path) -> Vec<u64> {
    let bytes = std::fs::read(path).expect("read");
    let mut cuts = vec![0u64];
    let mut at = 0usize;
    loop {
        let from = at + (1 << 20);
        if from >= bytes.len() {
            break;
        }
        match bytes[from..].windows(3).position(|w| w == b"\n\n[") {
            Some(i) => {
                at = from + i + 2;
                cuts.push(at as u64);
            }
            None => break,
        }
    }
    cuts.push(bytes.len() as u64);
    cuts
}

fn scan(path: &Path, jobs: usize) -> usize {
    let settings = verify_claim::ScanSettings {
        jobs: Some(jobs),
        encoding: verify_claim::Encoding::Utf8,
        ..Default::default()
    };
    let mut sink = verify_claim::printer(verify_claim::ScanFormat::Jsonl, std::io::sink());
    let source = verify_claim::Source::Paths(vec![path.to_path_buf()]);
    verify_claim::scan_to(source, &settings, &mut sink)
        .expect("scan")
        .games
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

fn pgn_extract(exe: &str, path: &Path) -> Option<()> {
    let status = std::process::Command::new(exe)
        .args(["--repetition", "-s", "-o", "/dev/null"])
        .arg(path)
        .stderr(std::process::Stdio::null())
        .status()
        .ok()?;
    status.success().then_some(())
}

fn time<F: FnMut()>(mut f: F) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median of per-round ratios, and their range.
fn ratio(num: &[f64], den: &[f64]) -> (f64, f64, f64) {
    let r: Vec<f64> = num.iter().zip(den).map(|(a, b)| a / b).collect();
    spread(&r)
}

/// The median of `r`, and its range.
fn spread(r: &[f64]) -> (f64, f64, f64) {
    let lo = r.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = r.iter().copied().fold(0.0, f64::max);
    (median(r), lo, hi)
}

/// Input (a): the TWIC and lichess files of ../shared/corpus, 25 copies of
/// each, interleaved (about 50 MB).
fn mixed_input(corpus: &Path) -> Option<PathBuf> {
    let twic = std::fs::read(corpus.join("twic/twic1599_1000k.pgn")).ok()?;
    let lichess = std::fs::read(corpus.join("lichess/lichess_db_1000k.pgn")).ok()?;
    let path = std::env::temp_dir().join("verify-claim-bench-mixed.pgn");
    let mut out = BufWriter::new(File::create(&path).expect("create"));
    for _ in 0..25 {
        for part in [&twic, &lichess] {
            out.write_all(part).expect("write");
            out.write_all(b"\n\n").expect("write");
        }
    }
    out.flush().expect("flush");
    Some(path)
}

/// Input (b), or any files given: decompressed and concatenated.
fn concatenated(files: &[PathBuf], name: &str) -> Option<PathBuf> {
    if files.is_empty() {
        return None;
    }
    let path = std::env::temp_dir().join(name);
    let mut out = BufWriter::new(File::create(&path).expect("create"));
    for f in files {
        let mut r = open_decompressed(f);
        std::io::copy(&mut r, &mut out).expect("copy");
        out.write_all(b"\n\n").expect("write");
    }
    out.flush().expect("flush");
    Some(path)
}

/// The first `size` bytes of `path`, cut before a game's tags.
fn slice(path: &Path, size: usize) -> PathBuf {
    let bytes = std::fs::read(path).expect("read");
    let mut end = bytes.len().min(size);
    while end < bytes.len() && !bytes[..end].ends_with(b"\n\n[") {
        end += 1;
    }
    let end = end.saturating_sub(1).max(1).min(bytes.len());
    let out = PathBuf::from(format!("{}.slice", path.display()));
    std::fs::write(&out, &bytes[..end]).expect("write slice");
    out
}

/// Instructions executed by one stage (`VC_STAGE`) under callgrind.
fn callgrind(stage: &str, path: &Path) -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let out = std::process::Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(&exe)
        .arg(path)
        .env("VC_STAGE", stage)
        .stdout(std::process::Stdio::null())
        .output()
        .ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().parse().ok())
}

/// Every contender on one input, interleaved, `runs` rounds.
fn measure(name: &str, big: &Path, runs: usize) {
    let mb = std::fs::metadata(big).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    let (games, plies) = floor(big);
    println!(
        "\n== {name}: {mb:.1} MB, {games} games, {plies} plies ({})",
        big.display()
    );
    // Found, and run once to warm up, before the rounds.
    let extract = pgn_extract_exe().filter(|exe| pgn_extract(exe, big).is_some());
    let cuts = pieces(big);
    // Every move (a cut at a blank line and `[` that pgn-reader does not
    // take for a game start, as in a comment, can add one empty game).
    assert_eq!(floor2(big, &cuts).1, plies, "the pieces hold every move");
    let (mut tf, mut t1, mut t2, mut te) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut tf2 = Vec::new();
    for _ in 0..runs {
        tf.push(time(|| {
            std::hint::black_box(floor(big));
        }));
        tf2.push(time(|| {
            std::hint::black_box(floor2(big, &cuts));
        }));
        t1.push(time(|| {
            std::hint::black_box(scan(big, 1));
        }));
        t2.push(time(|| {
            std::hint::black_box(scan(big, 2));
        }));
        // In the same rounds, so that the machine's load changes alike.
        if let Some(exe) = extract {
            te.push(time(|| {
                std::hint::black_box(pgn_extract(exe, big));
            }));
        }
    }
    let line = |label: &str, t: &[f64]| {
        let m = median(t);
        println!(
            "{label:<40} {m:>7.3} s (median of {}) {:>8.0} games/s {:>7.1} MB/s",
            t.len(),
            games as f64 / m,
            mb / m
        )
    };
    line("floor (pgn-reader + shakmaty, 1 thread)", &tf);
    line("floor, 2 threads (1 MiB pieces)", &tf2);
    line("scan --jobs 1 (all checks)", &t1);
    line("scan --jobs 2 (all checks)", &t2);
    let (r, lo, hi) = ratio(&tf, &t1);
    println!("scan --jobs 1 / floor:    {r:.2} (rounds {lo:.2}-{hi:.2}; target >= 1.2)");
    let (r, lo, hi) = ratio(&t1, &t2);
    println!("scan --jobs 2 / --jobs 1: {r:.2} (rounds {lo:.2}-{hi:.2})");
    let (r, lo, hi) = ratio(&tf, &tf2);
    println!("floor 2 threads / 1:      {r:.2} (rounds {lo:.2}-{hi:.2})");
    let scaling: Vec<f64> = (0..t1.len())
        .map(|i| (t1[i] / t2[i]) / (tf[i] / tf2[i]))
        .collect();
    let (r, lo, hi) = spread(&scaling);
    println!("scan's scaling / floor's:  {r:.2} (rounds {lo:.2}-{hi:.2}; target >= 0.97)");
    if extract.is_some() {
        line("pgn-extract --repetition", &te);
        let (r1, ..) = ratio(&te, &t1);
        let (r, lo, hi) = ratio(&te, &t2);
        println!(
            "pgn-extract / scan --jobs 1: {r1:.1}x, / scan --jobs 2: {r:.1}x (rounds {lo:.1}-{hi:.1}; target >= 20)"
        );
    } else {
        println!("pgn-extract: not installed (apt-get install pgn-extract), not compared");
    }
    if std::env::var_os("VC_NO_CALLGRIND").is_none() {
        let cut = slice(big, 4_000_000);
        match (callgrind("floor", &cut), callgrind("scan1", &cut)) {
            (Some(f), Some(s)) => println!(
                "callgrind, first 4 MB: floor {:.0}M, scan --jobs 1 {:.0}M instructions: ratio {:.2}",
                f as f64 / 1e6,
                s as f64 / 1e6,
                f as f64 / s as f64
            ),
            _ => println!("callgrind: valgrind not available, no instruction counts"),
        }
        let _ = std::fs::remove_file(cut);
    }
}

/// The files under `roots`, the malformed and python-chess samples left out
/// (pgn-reader and we read them differently).
fn inputs(roots: &[String]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for root in roots {
        records_under(Path::new(root), &mut files);
    }
    files.retain(|p| {
        let p = p.to_string_lossy();
        !p.contains("malformed") && !p.contains("python-chess")
    });
    files
}

/// A named file, or the records below a directory (`.pgn`, `.pdn`, plain or
/// compressed), sorted by path as the scan walks them; links in directories
/// are not followed, as the scan does by default. Hand-written (a few lines
/// of std) so the benchmark needs only the crate's public API.
fn records_under(path: &Path, out: &mut Vec<PathBuf>) {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return;
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .expect("read a corpus directory")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for e in entries {
        let meta = std::fs::symlink_metadata(&e).expect("stat");
        if meta.is_dir() {
            records_under(&e, out);
        } else if meta.is_file() && is_record(&e) {
            out.push(e);
        }
    }
}

fn is_record(path: &Path) -> bool {
    let name = path.to_string_lossy().to_ascii_lowercase();
    let base = [".zst", ".zstd", ".gz", ".bz2"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(&name);
    base.ends_with(".pgn") || base.ends_with(".pdn")
}

/// A file's decompressed bytes, by its extension.
fn open_decompressed(path: &Path) -> Box<dyn std::io::Read> {
    let file = std::io::BufReader::new(File::open(path).expect("open"));
    let name = path.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".zst") || name.ends_with(".zstd") {
        Box::new(zstd::stream::read::Decoder::with_buffer(file).expect("zstd"))
    } else if name.ends_with(".gz") {
        Box::new(flate2::bufread::MultiGzDecoder::new(file))
    } else if name.ends_with(".bz2") {
        Box::new(bzip2::bufread::MultiBzDecoder::new(file))
    } else {
        Box::new(file)
    }
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
        match stage.as_str() {
            "floor" => drop(floor(&path)),
            "scan1" => drop(scan(&path, 1)),
            "scan2" => drop(scan(&path, 2)),
            "floor2" => drop(floor2(&path, &pieces(&path))),
            other => panic!("unknown VC_STAGE {other}"),
        }
        return;
    }
    let runs = std::env::var("VC_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(7);
    let mut made = Vec::new();
    if args.is_empty() {
        let corpus = Path::new("../shared/corpus");
        if let Some(p) = mixed_input(corpus) {
            made.push(("(a) TWIC + lichess, 25 copies each, interleaved", p));
        }
        let tcec = inputs(&["../shared/corpus/tcec".to_owned()]);
        if let Some(p) = concatenated(&tcec, "verify-claim-bench-tcec.pgn") {
            made.push(("(b) the TCEC files", p));
        }
        // No game twice (but for a few livechess files that repeat each
        // other): a cache across identical games gains nothing here.
        let all = inputs(&["../shared/corpus".to_owned()]);
        if let Some(p) = concatenated(&all, "verify-claim-bench-distinct.pgn") {
            made.push(("(c) every shared corpus once (distinct games)", p));
        }
    } else if let Some(p) = concatenated(&inputs(&args), "verify-claim-bench.pgn") {
        made.push(("the files given", p));
    }
    if made.is_empty() {
        eprintln!("SKIPPED: no input (give paths, or have ../shared/corpus)");
        return;
    }
    for (name, path) in &made {
        measure(name, path, runs);
    }
    if memory {
        peak_memory(&made[0].1);
    }
    for (_, path) in &made {
        let _ = std::fs::remove_file(path);
    }
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
        "memory: scan of {:.2} GB in {:.1} s, peak resident {:.1} MB (target < 16 MB)",
        size as f64 / 1e9,
        t.elapsed().as_secs_f64(),
        peak_kb as f64 / 1024.0
    );
    let _ = std::fs::remove_file(&gb);
}
