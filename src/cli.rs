//! The command line: `verify-claim FILE [options]` decides a claim.
//!
//! The CLI parses options, picks the game and the claim point, runs the
//! claim engine and hands the result to a printer. Exit status: 0 valid,
//! 1 not valid, 2 the question could not be answered.

use clap::{Parser, ValueEnum};

use crate::claims::{self, ClaimKind, ClaimRequest, Replay};
use crate::diag::{Diagnostic, Place, place_of};
use crate::game::{Game, Side, chess::ChessGame};
use crate::input::{self, Input};
use crate::laws::{Edition, Rulebook, TimeClass};
use crate::record::{Encoding, GameRecord, Reader};
use crate::report::{self, ClaimReport};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ClaimArg {
    /// Threefold repetition (9.2).
    #[value(alias = "repetition")]
    Threefold,
    /// The fifty-move rule (9.3).
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
}

/// A run's outcome: what to print on stdout and the exit status.
pub struct Outcome {
    pub stdout: String,
    pub status: i32,
}

/// Runs the tool on the given arguments (the first is the program name).
pub fn run(args: Vec<std::ffi::OsString>) -> Result<Outcome, Diagnostic> {
    let args = match ClaimArgs::try_parse_from(args) {
        Ok(a) => a,
        Err(e) => {
            let status = if e.use_stderr() { 2 } else { 0 };
            let text = e.render().to_string();
            if status == 2 {
                return Err(Diagnostic::new(
                    "verify-claim",
                    None,
                    text.trim_start_matches("error: ").trim_end().to_owned(),
                ));
            }
            return Ok(Outcome {
                stdout: text,
                status,
            });
        }
    };
    let input = input::read(&args.file)?;
    claim(&args, &input)
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
    let (index, record) = select_game(args, input)?;
    decide::<ChessGame>(args, input, index, &record)
}

fn decide<G: Game>(
    args: &ClaimArgs,
    input: &Input,
    index: usize,
    record: &GameRecord<'_>,
) -> Result<Outcome, Diagnostic> {
    let (start, mut notes) =
        G::start_position(record).map_err(|(off, msg)| diag(input, off, msg))?;
    let replay =
        Replay::<G>::new(start, &record.moves).map_err(|e| diag(input, e.offset, e.message))?;

    let (edition, edition_note) = match args.rules {
        RulesArg::Auto => Edition::for_date(record.tag("Date")),
        RulesArg::Fide2009 => (Edition::Fide2009, None),
        RulesArg::Fide2014 => (Edition::Fide2014, None),
        RulesArg::Fide2018 => (Edition::Fide2018, None),
        RulesArg::Fide2023 => (Edition::Fide2023, None),
    };
    notes.extend(edition_note);
    let rules = Rulebook::fide(edition);
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
