//! The watch's per-file state and polling loop, on made records.
use super::*;

fn kinds(w: &mut Watched, text: &str) -> Vec<(&'static str, usize)> {
    w.apply(text.as_bytes(), &ScanOptions::default(), Encoding::Utf8)
        .iter()
        .map(|e| (e.kind.name(), e.ply))
        .collect()
}

#[test]
fn each_event_once_and_again_only_when_new() {
    let mut w = Watched::new(PathBuf::from("live.pgn"));
    let mate = "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 2. g4 Qh4# *\n";
    assert_eq!(kinds(&mut w, mate), [("game-ended", 4)]);
    assert_eq!(kinds(&mut w, mate), []);
    // Unterminated and shorter: a write in progress, not a take-back.
    assert_eq!(
        kinds(&mut w, "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 "),
        []
    );
    let result = mate.replace(" *", " 1-0");
    assert_eq!(kinds(&mut w, &result), [("result-entered", 4)]);
    assert_eq!(kinds(&mut w, &result), []);
    // Taken back with a marker: said, and the mate again when replayed.
    assert_eq!(
        kinds(&mut w, "[White \"A\"]\n[Black \"B\"]\n\n1. f3 e5 2. g4 *\n"),
        [("record-changed", 3)]
    );
    assert_eq!(kinds(&mut w, mate), [("game-ended", 4)]);
    // A new start position: everything replayed from the start.
    let fen =
        "[White \"A\"]\n[Black \"B\"]\n[SetUp \"1\"]\n[FEN \"7k/8/8/8/8/8/8/K7 w - - 0 1\"]\n\n*\n";
    assert_eq!(
        kinds(&mut w, fen),
        [("record-changed", 0), ("game-ended", 0)]
    );
}

#[test]
fn boards_are_known_by_their_tags() {
    let mut w = Watched::new(PathBuf::from("live.pgn"));
    let a = "[Round \"1\"]\n[Board \"1\"]\n[White \"A\"]\n\n1. f3 e5 2. g4 Qh4# *\n";
    let b = "[Round \"1\"]\n[Board \"2\"]\n[White \"C\"]\n\n1. e4 *\n";
    assert_eq!(kinds(&mut w, &format!("{a}\n{b}")), [("game-ended", 4)]);
    // The same boards in the other order: nothing new.
    assert_eq!(kinds(&mut w, &format!("{b}\n{a}")), []);
    assert_eq!(w.boards.len(), 2);
}

#[test]
fn every_limit_is_said_once_naming_the_file() {
    let mut w = Watched::new(PathBuf::from("long.pgn"));
    let long = format!("{}*\n", "Nf3 Nf6 Ng1 Ng8 ".repeat(1001));
    let said = |evs: Vec<Event>| {
        evs.into_iter()
            .filter(|e| e.kind == EventKind::LimitReached)
            .map(|e| format!("{} {}", e.file, e.message))
            .collect::<Vec<_>>()
    };
    let opts = ScanOptions::default();
    assert_eq!(
        said(w.apply(long.as_bytes(), &opts, Encoding::Utf8)),
        ["long.pgn the record has 4004 plies: only the first 4000 are followed"]
    );
    assert!(said(w.apply(long.as_bytes(), &opts, Encoding::Utf8)).is_empty());
    let mut w = Watched::new(PathBuf::from("many.pgn"));
    let many = "1. e4 *\n\n".repeat(MAX_BOARDS + 2);
    assert_eq!(
        said(w.apply(many.as_bytes(), &opts, Encoding::Utf8)),
        [
            "many.pgn game 2001 is past the 2000 boards a file may have: it and the games after it are not followed"
        ]
    );
}

#[test]
fn deleted_files_give_their_place_up() {
    // Removed when the test ends, passed or not.
    let scratch = tempfile::Builder::new()
        .prefix("verify-claim-watch-limit-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let config = Config {
        paths: vec![dir.display().to_string()],
        interval: Duration::from_millis(10),
        options: ScanOptions::default(),
        encoding: Encoding::Utf8,
        low_time: None,
    };
    let mut watcher = Watcher::new(config, Arc::new(AtomicBool::new(false)));
    let poll = |w: &mut Watcher| {
        let mut out = Vec::new();
        w.poll(Instant::now(), &mut |e| {
            out.push(format!("{} {}", e.kind.name(), e.file))
        });
        out
    };
    for i in 0..MAX_FILES {
        std::fs::write(dir.join(format!("g{i:04}.pgn")), "1. e4 *\n").unwrap();
    }
    assert!(poll(&mut watcher).is_empty());
    for i in 0..MAX_FILES {
        std::fs::remove_file(dir.join(format!("g{i:04}.pgn"))).unwrap();
    }
    let mate = "1. f3 e5 2. g4 Qh4# *\n";
    std::fs::write(dir.join("new.pgn"), mate).unwrap();
    let new = dir.join("new.pgn").display().to_string();
    assert_eq!(poll(&mut watcher), [format!("game-ended {new}")]);
    for i in 0..MAX_FILES {
        std::fs::write(dir.join(format!("h{i:04}.pgn")), "1. e4 *\n").unwrap();
    }
    let last = dir
        .join(format!("h{:04}.pgn", MAX_FILES - 1))
        .display()
        .to_string();
    assert_eq!(poll(&mut watcher), [format!("limit-reached {last}")]);
    assert!(poll(&mut watcher).is_empty());
}

#[test]
fn early_warnings_from_the_board_and_the_clocks() {
    let mut w = Watched::new(PathBuf::from("w.pgn"));
    w.low_time = Some(60.0);
    let text = "1. Nf3 {[%clk 0:00:50]} Nf6 {[%clk 0:01:30]} 2. Ng1 {[%clk 0:00:00]} {[%emt 0:00:05]} Ng8 *\n";
    let got: Vec<(&str, usize, String)> = w
        .apply(text.as_bytes(), &ScanOptions::default(), Encoding::Utf8)
        .into_iter()
        .filter(|e| e.kind != EventKind::ClaimAvailable)
        .map(|e| (e.kind.name(), e.ply, e.message))
        .collect();
    assert_eq!(
        got,
        [
            ("low-time", 1, "White's clock shows 0:00:50 after 1.Nf3: under the 60 s of --low-time".to_owned()),
            ("clock-zero", 3, "White's clock read 0:00:00 after 2.Ng1, not confirmed: a flag fall once a later reading of it still shows zero, or the result is entered with no later move by White".to_owned()),
            ("repetition-warning", 4, "the position after 2...Ng8 stands the second time: a third occurrence can be claimed (9.2.2)".to_owned()),
        ]
    );
    let mut w = Watched::new(PathBuf::from("c.pgn"));
    let fen = "[SetUp \"1\"]\n[FEN \"7k/8/8/8/8/8/R7/K7 w - - 89 60\"]\n\n60. Ra3 *\n";
    let kinds: Vec<&str> = w
        .apply(fen.as_bytes(), &ScanOptions::default(), Encoding::Utf8)
        .iter()
        .map(|e| e.kind.name())
        .collect();
    assert_eq!(kinds, ["count-warning"]);
    assert_eq!(w.boards[0].look.clock_white, None);
}

/// A writer may add a move's `[%clk]` in a later write than the move: the
/// clock is read then, for the last move seen, and said once, before the
/// moves written after it (it was never read: the ply had been looked at).
#[test]
fn a_clock_written_after_its_move_is_read() {
    let mut w = Watched::new(PathBuf::from("late.pgn"));
    w.low_time = Some(60.0);
    let opts = ScanOptions::default();
    let mut said = |text: &str| -> Vec<(&'static str, usize)> {
        w.apply(text.as_bytes(), &opts, Encoding::Utf8)
            .into_iter()
            .filter(|e| e.kind != EventKind::ClaimAvailable)
            .map(|e| (e.kind.name(), e.ply))
            .collect()
    };
    assert!(said("1. Nf3 *\n").is_empty());
    assert_eq!(said("1. Nf3 {[%clk 0:00:50]} *\n"), [("low-time", 1)]);
    assert!(said("1. Nf3 {[%clk 0:00:50]} *\n").is_empty());
    // Black's move, then its clock with White's next move in one write.
    assert!(said("1. Nf3 {[%clk 0:00:50]} Nf6 *\n").is_empty());
    assert_eq!(
        said("1. Nf3 {[%clk 0:00:50]} Nf6 {[%clk 0:00:00]} 2. Ng1 {[%clk 0:00:49]} *\n"),
        [("clock-zero", 2)]
    );
}

/// A reading at zero is a flag fall only when confirmed: by a later
/// reading still at zero, or by the result with no later move by that
/// player; a later reading above zero was a glitch (issue 39: a DGT
/// board read 0:00:00 once, then 0:16:15).
#[test]
fn a_zero_reading_is_a_flag_fall_only_when_confirmed() {
    let kinds = |text: &str| -> Vec<(&'static str, usize, String)> {
        let mut w = Watched::new(PathBuf::from("z.pgn"));
        w.apply(text.as_bytes(), &ScanOptions::default(), Encoding::Utf8)
            .into_iter()
            .filter(|e| matches!(e.kind, EventKind::FlagFall | EventKind::ClockZero))
            .map(|e| (e.kind.name(), e.ply, e.message))
            .collect()
    };
    let glitch = "1. e4 {[%clk 0:00:00]} e5 {[%clk 0:16:20]} 2. Nf3 {[%clk 0:16:15]} Nc6 *\n";
    let got = kinds(glitch);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "clock-zero");
    let again = "1. e4 {[%clk 0:00:00]} e5 2. Nf3 {[%clk 0:00:00]} *\n";
    assert_eq!(
        kinds(again),
        [
            ("clock-zero", 1, "White's clock read 0:00:00 after 1.e4, not confirmed: a flag fall once a later reading of it still shows zero, or the result is entered with no later move by White".to_owned()),
            ("flag-fall", 1, "White's clock showed 0:00:00 after 1.e4 and still shows 0:00:00 after 2.Nf3: the flag fell and Black can still checkmate: White loses (6.9)".to_owned()),
        ]
    );
    // The result entered later: the same board, a second read.
    let mut w = Watched::new(PathBuf::from("r.pgn"));
    let opts = ScanOptions::default();
    let first = w.apply(
        b"1. e4 e5 2. Nf3 {[%clk 0:00:00]} *\n",
        &opts,
        Encoding::Utf8,
    );
    assert!(first.iter().all(|e| e.kind != EventKind::FlagFall));
    let then: Vec<&'static str> = w
        .apply(
            b"1. e4 e5 2. Nf3 {[%clk 0:00:00]} 0-1\n",
            &opts,
            Encoding::Utf8,
        )
        .iter()
        .map(|e| e.kind.name())
        .collect();
    assert!(then.contains(&"flag-fall"), "{then:?}");
}

/// Column draughts: a flag fall loses (1.12) even where the opponent
/// cannot win; chess's 6.9 is not applied.
#[test]
fn a_draughts_flag_fall_loses_by_its_own_rules() {
    let mut w = Watched::new(PathBuf::from("d.pdn"));
    let text = "[GameType \"column draughts\"]\n[FEN \"B:c3=w,e5=b,f6=b,g7=b:0:1\"]\n\n1... e5-d4 {[%clk 0:00:00]} 0-1\n";
    let got: Vec<(&str, Option<&str>, String)> = w
        .apply(text.as_bytes(), &ScanOptions::default(), Encoding::Utf8)
        .into_iter()
        .filter(|e| e.kind == EventKind::FlagFall)
        .map(|e| (e.kind.name(), e.article, e.message))
        .collect();
    assert_eq!(
        got,
        [(
            "flag-fall",
            Some("1.12"),
            "Black's clock showed 0:00:00 after 1...e5-d4, confirmed by the result entered with no later move by Black: the flag fell: Black loses on time (1.12)".to_owned()
        )]
    );
}

/// A claim by writing a move, then the same player's claim on the board
/// two plies later: both are said (issue 39: the second was not).
#[test]
fn a_claim_on_the_board_after_one_by_writing_is_said() {
    let mut w = Watched::new(PathBuf::from("r.pgn"));
    let text = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 *\n";
    let got: Vec<(usize, String)> = w
        .apply(text.as_bytes(), &ScanOptions::default(), Encoding::Utf8)
        .into_iter()
        .filter(|e| e.kind == EventKind::ClaimAvailable)
        .map(|e| (e.ply, e.message))
        .collect();
    assert_eq!(
        got,
        [
            (
                7,
                "Black can claim a draw by writing 4...Ng8 (threefold repetition, 9.2.1)"
                    .to_owned()
            ),
            (
                8,
                "White can claim a draw: threefold repetition on the board (9.2.2)".to_owned()
            ),
            (
                9,
                "Black can claim a draw: threefold repetition on the board (9.2.2)".to_owned()
            ),
        ]
    );
}

/// A record-changed event's ply is the ply its words name.
#[test]
fn a_change_is_said_at_the_ply_it_names() {
    let mut w = Watched::new(PathBuf::from("c.pgn"));
    let opts = ScanOptions::default();
    w.apply(b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n", &opts, Encoding::Utf8);
    let e = w.apply(b"1. e4 e5 2. Nf3 Nc6 3. Bc4 *\n", &opts, Encoding::Utf8);
    let changed = e
        .iter()
        .find(|e| e.kind == EventKind::RecordChanged)
        .unwrap();
    assert_eq!(changed.ply, 4);
    assert!(
        changed
            .message
            .starts_with("the record changed after ply 4: "),
        "{}",
        changed.message
    );
}
