//! The command line: `verify-claim FILE [options]` decides a claim.
//!
//! The CLI parses options, picks the game and the claim point, runs the
//! claim engine and hands the result to a printer. Exit status: 0 valid,
//! 1 not valid, 2 the question could not be answered.

use clap::{Parser, ValueEnum};

use crate::claims::{self, ClaimKind, ClaimRequest, Replay};
use crate::diag::{Diagnostic, Place, place_of};
use crate::game::{Game, Search, Side, chess::ChessGame};
use crate::input::{self, Input};
use crate::laws::{Edition, Rulebook, TimeClass};
use crate::record::{Encoding, GameRecord, Reader};
use crate::report::{self, ClaimReport};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ClaimArg {
    /// Threefold repetition (9.2).
    #[value(alias = "repetition")]
    Threefold,
    /// The fifty-move rule (9.3); for column draughts, unchanged material (1.13.1).
    #[value(alias = "unchanged-material")]
    Fifty,
    /// Any ground.
    Any,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    White,
    Black,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    Auto,
    #[value(name = "fide-2009")]
    Fide2009,
    #[value(name = "fide-2014")]
    Fide2014,
    #[value(name = "fide-2018")]
    Fide2018,
    #[value(name = "fide-2023")]
    Fide2023,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeadSearchArg {
    /// A fast test that can prove a position dead, never that it is not.
    Quick,
    /// The full unwinnability search (helpmate or proof).
    Full,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    Utf8,
    Latin1,
}

/// Decide a draw claim from a recorded game.
#[derive(Parser, Debug)]
#[command(
    name = "verify-claim",
    version,
    about = "Decide a draw claim from a recorded game under the FIDE Laws of Chess",
    after_help = "Exit status: 0 the claim is valid, 1 it is not, 2 the question could not be answered."
)]
pub struct ClaimArgs {
    /// The record (PGN); `-` for standard input.
    pub file: String,
    /// The move the claimant wrote on the scoresheet and has not played (SAN,
    /// `g1-f3`, `0-0`, Russian piece letters).
    #[arg(long = "move", value_name = "MOVE")]
    pub written: Option<String>,
    /// The claim point: after this recorded move, e.g. `31...Kg8` or `32.Nf3`
    /// (default: after the last recorded move).
    #[arg(long, value_name = "MOVE", conflicts_with = "ply")]
    pub after: Option<String>,
    /// The claim point as plies played from the start position.
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Which game of a file with several (1-based).
    #[arg(long, value_name = "N")]
    pub game: Option<usize>,
    /// The rule claimed.
    #[arg(long, value_enum, default_value = "any")]
    pub claim: ClaimArg,
    /// Who made the claim (only the player having the move may).
    #[arg(long, value_enum)]
    pub claimant: Option<SideArg>,
    /// The edition of the Laws (auto: in force on the game's Date).
    #[arg(long, value_enum, default_value = "auto")]
    pub rules: RulesArg,
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// How to read tag values that are not UTF-8.
    #[arg(long, value_enum, default_value = "utf8")]
    pub encoding: EncodingArg,
    /// How hard to look for a dead position (full: the unwinnability search).
    #[arg(long, value_enum, default_value = "full")]
    pub dead_search: DeadSearchArg,
    /// The game (auto: from the GameType or Variant tag; chess otherwise).
    #[arg(long, value_enum, default_value = "auto")]
    pub game_type: GameTypeChoice,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_enum, default_value = "standard")]
    pub column_rules: ColumnRulesArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameTypeChoice {
    Auto,
    Chess,
    #[value(name = "column-draughts")]
    ColumnDraughts,
}

fn column_rules_of(arg: ColumnRulesArg) -> crate::game::column_draughts::Rules {
    match arg {
        ColumnRulesArg::Standard => crate::game::column_draughts::Rules::Standard,
        ColumnRulesArg::Rejump => crate::game::column_draughts::Rules::Rejump,
    }
}

/// A run's outcome: what to print on stdout and the exit status.
pub struct Outcome {
    pub stdout: String,
    pub status: i32,
}

/// Parses arguments with clap; help and version are an outcome, errors a
/// diagnostic (exit status 2).
fn parse<P: Parser>(args: Vec<std::ffi::OsString>) -> Result<Result<P, Outcome>, Diagnostic> {
    match P::try_parse_from(args) {
        Ok(a) => Ok(Ok(a)),
        Err(e) => {
            let text = e.render().to_string();
            if e.use_stderr() {
                return Err(Diagnostic::new(
                    "verify-claim",
                    None,
                    text.trim_start_matches("error: ").trim_end().to_owned(),
                ));
            }
            Ok(Err(Outcome {
                stdout: text,
                status: 0,
            }))
        }
    }
}

/// Runs the tool on the given arguments (the first is the program name).
///
/// `verify-claim scan ...` scans archives; `verify-claim claim FILE ...` or
/// just `verify-claim FILE ...` decides a claim.
pub fn run(mut args: Vec<std::ffi::OsString>) -> Result<Outcome, Diagnostic> {
    let sub = args.get(1).and_then(|a| a.to_str()).map(str::to_owned);
    if sub.as_deref() == Some("scan") {
        args.remove(1);
        args[0] = "verify-claim scan".into();
        return match parse::<ScanArgs>(args)? {
            Ok(a) => scan(a),
            Err(o) => Ok(o),
        };
    }
    if sub.as_deref() == Some("check-position") {
        args.remove(1);
        args[0] = "verify-claim check-position".into();
        return match parse::<CheckPositionArgs>(args)? {
            Ok(a) => check_position(a),
            Err(o) => Ok(o),
        };
    }
    if sub.as_deref() == Some("perft") {
        args.remove(1);
        args[0] = "verify-claim perft".into();
        return match parse::<PerftArgs>(args)? {
            Ok(a) => perft(a),
            Err(o) => Ok(o),
        };
    }
    if sub.as_deref() == Some("claim") {
        args.remove(1);
    }
    match parse::<ClaimArgs>(args)? {
        Ok(a) => {
            let input = input::read(&a.file)?;
            claim(&a, &input)
        }
        Err(o) => Ok(o),
    }
}

fn place(input: &Input, offset: usize) -> Option<Place> {
    Some(place_of(&input.bytes, offset, Place { line: 1, col: 1 }))
}

fn diag(input: &Input, offset: usize, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(&input.name, place(input, offset), message)
}

/// Reads every game of the input and returns the one asked for.
fn select_game<'a>(
    args: &ClaimArgs,
    input: &'a Input,
) -> Result<(usize, GameRecord<'a>), Diagnostic> {
    if input.bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Diagnostic::new(
            &input.name,
            None,
            "empty input: no game in it",
        ));
    }
    let encoding = match args.encoding {
        EncodingArg::Utf8 => Encoding::Utf8,
        EncodingArg::Latin1 => Encoding::Latin1,
    };
    let mut reader = Reader::new(&input.bytes, encoding);
    let mut games = Vec::new();
    while let Some(g) = reader.next_game() {
        games.push(g);
    }
    let n = games.len();
    let index = match (args.game, n) {
        (Some(k), _) if k >= 1 && k <= n => k,
        (Some(k), _) => {
            return Err(Diagnostic::new(
                &input.name,
                None,
                format!("--game {k}: the file has {n} game(s)"),
            ));
        }
        (None, 1) => 1,
        (None, _) => {
            let mut msg = format!("the file has {n} games; choose one with --game N:");
            for (i, g) in games.iter().enumerate() {
                match g {
                    Ok(g) => msg.push_str(&format!(
                        "\n  {:>3}  {} – {}{}",
                        i + 1,
                        g.tag("White").unwrap_or("?"),
                        g.tag("Black").unwrap_or("?"),
                        g.tag("Round")
                            .map(|r| format!(", round {r}"))
                            .unwrap_or_default()
                    )),
                    Err(e) => {
                        msg.push_str(&format!("\n  {:>3}  (unreadable: {})", i + 1, e.message))
                    }
                }
            }
            return Err(Diagnostic::new(&input.name, None, msg));
        }
    };
    match games.swap_remove(index - 1) {
        Ok(g) => Ok((index, g)),
        Err(e) => Err(diag(input, e.offset, e.message)),
    }
}

/// Resolves `--after 31...Kg8` to the ply after that move.
fn resolve_after<G: Game>(replay: &Replay<G>, text: &str) -> Result<usize, String> {
    let t = text.trim();
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    let number: u32 = t[..digits].parse().map_err(|_| {
        format!("--after {text}: expected a numbered move such as 31...Kg8 or 32.Nf3")
    })?;
    let rest = &t[digits..];
    let dots = rest
        .chars()
        .take_while(|&c| c == '.' || c == '…')
        .collect::<String>();
    let side = match dots.as_str() {
        "." => Side::White,
        "..." | "…" | ".." => Side::Black,
        _ => {
            return Err(format!(
                "--after {text}: write 32.Nf3 for White's move or 31...Kg8 for Black's"
            ));
        }
    };
    let mv = rest[dots.len()..].trim();
    let mut seen = None;
    for p in 0..replay.len() {
        let pos = &replay.positions[p];
        if G::move_number(pos) == number && G::side_to_move(pos) == side {
            if let Ok(m) = G::parse_written(pos, mv)
                && m == replay.moves[p]
            {
                return Ok(p + 1);
            }
            seen = Some(replay.label(p + 1));
        }
    }
    Err(match seen {
        Some(l) => format!("--after {text}: the game has {l} there, not {mv}"),
        None => format!(
            "--after {text}: the game has no move {number} for {}",
            side.title()
        ),
    })
}

fn claim(args: &ClaimArgs, input: &Input) -> Result<Outcome, Diagnostic> {
    use crate::game::{GameType, column_draughts::ColumnDraughts};
    let (index, record) = select_game(args, input)?;
    let forced = match args.game_type {
        GameTypeChoice::Auto => None,
        GameTypeChoice::Chess => Some(GameType::Chess),
        GameTypeChoice::ColumnDraughts => Some(GameType::ColumnDraughts),
    };
    match crate::game::detect(&record, forced).map_err(|(off, msg)| diag(input, off, msg))? {
        GameType::Chess => {
            let (edition, note) = match edition_of(args.rules) {
                None => Edition::for_date(record.tag("Date")),
                Some(e) => (e, None),
            };
            decide::<ChessGame>(
                args,
                input,
                index,
                &record,
                (),
                Rulebook::fide(edition),
                note,
            )
        }
        GameType::ColumnDraughts => {
            let variant = column_rules_of(args.column_rules);
            decide::<ColumnDraughts>(
                args,
                input,
                index,
                &record,
                variant,
                Rulebook::column_draughts(),
                None,
            )
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn decide<G: Game>(
    args: &ClaimArgs,
    input: &Input,
    index: usize,
    record: &GameRecord<'_>,
    variant: G::Variant,
    rules: Rulebook,
    rules_note: Option<String>,
) -> Result<Outcome, Diagnostic> {
    let (start, mut notes) =
        G::start_position(record, variant).map_err(|(off, msg)| diag(input, off, msg))?;
    let replay =
        Replay::<G>::new(start, &record.moves).map_err(|e| diag(input, e.offset, e.message))?;
    notes.extend(rules_note);
    let time = TimeClass::from_tag(record.tag("TimeControl"));
    if let Some(t) = time {
        let class = match t {
            TimeClass::Standard => "standard",
            TimeClass::Rapid => "rapid",
            TimeClass::Blitz => "blitz",
        };
        notes.push(format!("{class} play, by the TimeControl tag"));
    }

    let ply = match (&args.after, args.ply) {
        (Some(a), _) => {
            resolve_after(&replay, a).map_err(|m| Diagnostic::new(&input.name, None, m))?
        }
        (None, Some(p)) if p <= replay.len() => p,
        (None, Some(p)) => {
            return Err(Diagnostic::new(
                &input.name,
                None,
                format!("--ply {p}: the game has only {} plies", replay.len()),
            ));
        }
        (None, None) => replay.len(),
    };
    let req = ClaimRequest {
        ply,
        written: args.written.as_deref(),
        kind: match args.claim {
            ClaimArg::Threefold => ClaimKind::Repetition,
            ClaimArg::Fifty => ClaimKind::Count,
            ClaimArg::Any => ClaimKind::Any,
        },
        claimant: args.claimant.map(|c| match c {
            SideArg::White => Side::White,
            SideArg::Black => Side::Black,
        }),
        dead_search: search_of(args.dead_search),
    };
    let verdict = claims::decide(&replay, &rules, time, &req).map_err(|e| {
        Diagnostic::new(
            &input.name,
            None,
            format!(
                "--move {}: {e} (position after {}: {})",
                args.written.as_deref().unwrap_or(""),
                if ply == 0 {
                    "the start".to_owned()
                } else {
                    replay.label(ply)
                },
                G::fen(&replay.positions[ply])
            ),
        )
    })?;
    let tags = (
        record.tag("White").unwrap_or("?").to_owned(),
        record.tag("Black").unwrap_or("?").to_owned(),
        record
            .tag("Event")
            .filter(|e| !e.is_empty() && *e != "?")
            .map(str::to_owned),
        record
            .tag("Round")
            .filter(|e| !e.is_empty() && *e != "?" && *e != "-")
            .map(str::to_owned),
    );
    let valid = verdict.valid;
    let report = ClaimReport::new(
        &input.name,
        index,
        rules.name,
        tags,
        &replay,
        verdict,
        notes,
    );
    let stdout = match args.format {
        FormatArg::Text => report::text::claim(&report),
        FormatArg::Json => format!("{}\n", report::json::claim(&report)),
    };
    Ok(Outcome {
        stdout,
        status: if valid { 0 } else { 1 },
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScanFormat {
    Text,
    Jsonl,
    Csv,
    Github,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Never,
}

/// Scan archives for claimable draws, automatic draws and results the Laws
/// contradict.
#[derive(Parser, Debug)]
#[command(
    name = "verify-claim scan",
    version,
    about = "Scan archives for claimable draws, automatic draws and results the Laws contradict",
    after_help = "Exit status: 1 if a finding is at or above --fail-on, 2 if an input could not be read, 0 otherwise."
)]
pub struct ScanArgs {
    /// Files (.pgn, .pgn.zst, .pgn.gz, .pgn.bz2), directories (recursive), `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: ScanFormat,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// The edition of the Laws (auto: in force on each game's Date).
    #[arg(long, value_enum, default_value = "auto")]
    pub rules: RulesArg,
    /// Exit with status 1 when a finding is at or above this severity.
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// Report a draw agreed before this move with no claimable ground (Article 9.1.1).
    #[arg(long, value_name = "N")]
    pub min_draw_moves: Option<u32>,
    /// How to read tag values that are not UTF-8.
    #[arg(long, value_enum, default_value = "utf8")]
    pub encoding: EncodingArg,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
    /// How hard to look for dead positions and unwinnable flag falls.
    #[arg(long, value_enum, default_value = "quick")]
    pub dead_search: DeadSearchArg,
    /// The game of every record (auto: from its GameType or Variant tag).
    #[arg(long, value_enum, default_value = "auto")]
    pub game_type: GameTypeChoice,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_enum, default_value = "standard")]
    pub column_rules: ColumnRulesArg,
}

fn search_of(arg: DeadSearchArg) -> Search {
    match arg {
        DeadSearchArg::Quick => Search::Quick,
        DeadSearchArg::Full => Search::Full,
    }
}

/// Decide whether a position is dead, and which sides can still checkmate.
#[derive(Parser, Debug)]
#[command(
    name = "verify-claim check-position",
    version,
    about = "Can either side still checkmate? Dead positions (5.2.2) and unwinnable flag falls (6.9)",
    after_help = "Exit status: 0 answered (even if undetermined), 2 bad FEN or options."
)]
pub struct CheckPositionArgs {
    /// The position.
    #[arg(long)]
    pub fen: String,
    /// Only this side: can it still checkmate?
    #[arg(long, value_enum)]
    pub side: Option<SideArg>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// How hard to look.
    #[arg(long, value_enum, default_value = "full")]
    pub dead_search: DeadSearchArg,
    /// The game the FEN is of (column draughts: the tower FEN).
    #[arg(long, value_enum, default_value = "chess")]
    pub game_type: GameTypeChoice,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_enum, default_value = "standard")]
    pub column_rules: ColumnRulesArg,
}

fn check_position(args: CheckPositionArgs) -> Result<Outcome, Diagnostic> {
    use crate::game::column_draughts::{ColumnDraughts, fen};
    let bad = |m: String| Diagnostic::new("--fen", None, m);
    if args.game_type == GameTypeChoice::ColumnDraughts {
        let pos = fen::parse(&args.fen, column_rules_of(args.column_rules)).map_err(bad)?;
        return Ok(check_position_of::<ColumnDraughts>(&pos, &args));
    }
    let pos = crate::game::chess::unwinnable::position_from_fen(&args.fen).map_err(bad)?;
    Ok(check_position_of::<ChessGame>(&pos, &args))
}

fn check_position_of<G: Game>(pos: &G::Position, args: &CheckPositionArgs) -> Outcome {
    use crate::game::{DeadCheck, Ending, Win};

    let search = search_of(args.dead_search);
    let side_wanted = |c: SideArg| args.side.is_none_or(|s| s == c);
    let can = |c: SideArg, s: Side| match side_wanted(c) {
        true => G::can_mate(pos, s, search),
        false => Win::Undetermined,
    };
    let check = DeadCheck {
        search,
        white: can(SideArg::White, Side::White),
        black: can(SideArg::Black, Side::Black),
    };
    let ending = G::ending(pos);
    let over = matches!(
        ending,
        Some(Ending::Checkmate | Ending::Stalemate | Ending::NoMoves)
    );
    let ending = ending.map(|e| e.name());
    let dead = if over { Some(false) } else { check.dead() };
    let number = G::move_number(pos);
    let to_move = G::side_to_move(pos);
    let (mate, done, goal) = G::TYPE.win_words();
    let article = match G::TYPE {
        crate::game::GameType::Chess => "5.2.2",
        crate::game::GameType::ColumnDraughts => "1.11",
    };
    let stdout = match args.format {
        FormatArg::Json => {
            let mut v = report::json::dead_check(&check);
            v["dead"] = serde_json::json!(dead);
            v["fen"] = serde_json::json!(G::fen(pos));
            v["ending"] = serde_json::json!(ending);
            format!("{v}\n")
        }
        FormatArg::Text => {
            let mut s = format!("Position: {}\n", G::fen(pos));
            s.push_str(&match (ending, dead) {
                (Some(e), _) => format!("The position is {e}: not a dead position, the game is over as such.\n"),
                (None, _) if args.side.is_some() => String::new(),
                (None, Some(true)) => format!("Dead: no sequence of legal moves leads to {goal}, for either side ({article}).\n"),
                (None, Some(false)) => "Not dead.\n".to_owned(),
                (None, None) => "Dead or not: undetermined (nothing is assumed).\n".to_owned(),
            });
            for (name, win, wanted) in [
                ("White", &check.white, side_wanted(SideArg::White)),
                ("Black", &check.black, side_wanted(SideArg::Black)),
            ] {
                if !wanted {
                    continue;
                }
                s.push_str(&match win {
                    Win::Yes { helpmate } if helpmate.is_empty() => {
                        format!("  {name} has {done}.\n")
                    }
                    Win::Yes { helpmate } => format!(
                        "  {name} can {mate}: {} (a helpmate)\n",
                        report::numbered_line(number, to_move, helpmate)
                    ),
                    Win::No => {
                        format!("  {name} cannot {mate} by any sequence of legal moves.\n")
                    }
                    Win::Undetermined => format!(
                        "  {name}: undetermined{}.\n",
                        if search == Search::Quick {
                            " (the quick search only proves impossibility; try --dead-search full)"
                        } else {
                            ""
                        }
                    ),
                });
            }
            s
        }
    };
    Outcome { stdout, status: 0 }
}

fn edition_of(arg: RulesArg) -> Option<Edition> {
    match arg {
        RulesArg::Auto => None,
        RulesArg::Fide2009 => Some(Edition::Fide2009),
        RulesArg::Fide2014 => Some(Edition::Fide2014),
        RulesArg::Fide2018 => Some(Edition::Fide2018),
        RulesArg::Fide2023 => Some(Edition::Fide2023),
    }
}

fn scan(args: ScanArgs) -> Result<Outcome, Diagnostic> {
    use std::io::{IsTerminal, Write};

    use crate::claims::scan::{RulesChoice, ScanOptions, Severity};
    use crate::report::scan as printers;

    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = crate::scan::Config {
        paths: args.paths.clone(),
        jobs,
        options: ScanOptions {
            rules: edition_of(args.rules).map_or(RulesChoice::Auto, RulesChoice::Fixed),
            min_draw_moves: args.min_draw_moves,
            dead_search: search_of(args.dead_search),
            column_rules: column_rules_of(args.column_rules),
            game_type: match args.game_type {
                GameTypeChoice::Auto => None,
                GameTypeChoice::Chess => Some(crate::game::GameType::Chess),
                GameTypeChoice::ColumnDraughts => Some(crate::game::GameType::ColumnDraughts),
            },
        },
        encoding: match args.encoding {
            EncodingArg::Utf8 => Encoding::Utf8,
            EncodingArg::Latin1 => Encoding::Latin1,
        },
        progress: !args.no_progress && std::io::stderr().is_terminal(),
    };
    let stdout = std::io::stdout();
    let colour = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut printer: Box<dyn printers::Printer> = match args.format {
        ScanFormat::Text => Box::new(printers::Text::new(colour)),
        ScanFormat::Jsonl => Box::new(printers::Jsonl),
        ScanFormat::Csv => Box::new(printers::Csv::new()),
        ScanFormat::Github => Box::new(printers::Github),
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let summary = match crate::scan::run(config, printer.as_mut(), &mut out) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            return Ok(Outcome {
                stdout: String::new(),
                status: 0,
            });
        }
        Err(e) => return Err(Diagnostic::new("verify-claim scan", None, e.to_string())),
    };
    let _ = out.flush();
    let kinds: Vec<String> = summary
        .by_kind
        .iter()
        .map(|(k, n)| format!("{} {n}", k.name()))
        .collect();
    let secs = summary.seconds.max(1e-9);
    eprintln!(
        "scanned {} games ({} plies) in {:.2} s: {:.0} games/s, {:.1} MB/s; findings: {}",
        summary.games,
        summary.plies,
        summary.seconds,
        summary.games as f64 / secs,
        summary.bytes as f64 / secs / 1e6,
        if kinds.is_empty() {
            "none".to_owned()
        } else {
            kinds.join(", ")
        }
    );
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Never => None,
    };
    let status = if summary.failed_inputs > 0 {
        2
    } else if threshold.is_some_and(|t| summary.worst.is_some_and(|w| w >= t)) {
        1
    } else {
        0
    };
    Ok(Outcome {
        stdout: String::new(),
        status,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameTypeArg {
    Chess,
    #[value(name = "column-draughts")]
    ColumnDraughts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColumnRulesArg {
    /// A tower may be jumped once per move (jumped towers stay, blocking).
    Standard,
    /// Captures take effect at once; a tower may be jumped again.
    Rejump,
}

/// Count the legal move sequences of a given length: the standard check of
/// a move generator.
#[derive(Parser, Debug)]
#[command(
    name = "verify-claim perft",
    version,
    about = "Count legal move sequences (perft) from a position"
)]
pub struct PerftArgs {
    /// Plies.
    pub depth: u32,
    #[arg(long, value_enum, default_value = "chess")]
    pub game_type: GameTypeArg,
    /// The position (chess FEN, or the tower FEN for column draughts); the
    /// start position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// Column draughts: the reading of the re-jump rule.
    #[arg(long, value_enum, default_value = "standard")]
    pub column_rules: ColumnRulesArg,
}

fn perft(args: PerftArgs) -> Result<Outcome, Diagnostic> {
    use crate::game::column_draughts as cd;
    let n = match args.game_type {
        GameTypeArg::Chess => {
            let pos = match &args.fen {
                Some(f) => crate::game::chess::unwinnable::position_from_fen(f)
                    .map_err(|m| Diagnostic::new("--fen", None, m))?,
                None => shakmaty::Chess::default(),
            };
            shakmaty::perft(&pos, args.depth)
        }
        GameTypeArg::ColumnDraughts => {
            let rules = column_rules_of(args.column_rules);
            let pos = match &args.fen {
                Some(f) => {
                    cd::fen::parse(f, rules).map_err(|m| Diagnostic::new("--fen", None, m))?
                }
                None => cd::Position::start(rules),
            };
            cd::perft(&pos, args.depth)
        }
    };
    Ok(Outcome {
        stdout: format!("{n}\n"),
        status: 0,
    })
}
