//! verify-claim decides draw claims and checks recorded results under the
//! rules of chess (the FIDE Laws, editions 2009 to 2023) and of Russian
//! column draughts.
//!
//! Three functions answer its three questions:
//!
//! - [`decide`]: was this claim correct? A record, the claim point and the
//!   written move in, a [`ClaimReport`] out (the verdict, its article and
//!   its evidence).
//! - [`scan_paths`], [`scan_reader`], [`scan_range`] and [`scan_bytes`]:
//!   what do the Laws say of every game of an archive? An iterator of
//!   [`FindingLine`]s, in input order; or [`scan_to`], which hands them to
//!   a [`Sink`] of yours.
//! - [`check_position`]: can either side still checkmate?
//!
//! # Deciding a claim
//!
//! ```
//! use verify_claim::{ClaimOptions, Edition, Laws, Rule, decide};
//!
//! // Both knights out and back twice: the start position stands for the
//! // third time after 4...Ng8, and White, to move, claims (9.2.2).
//! let pgn = b"[Event \"Club\"]\n[Date \"2024.03.01\"]\n\n\
//!             1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";
//! let report = decide("game.pgn", pgn, &ClaimOptions::default())?;
//! assert!(report.verdict.valid());
//! assert_eq!(report.rules, Laws::Fide(Edition::Fide2023));
//! assert_eq!(report.verdict.grounds()[0].rule, Rule::ThreefoldRepetition);
//! assert_eq!(report.verdict.repetitions, vec![0, 4, 8]);
//! // The same object as `verify-claim claim --format json`:
//! assert_eq!(report.to_json()["valid"], true);
//! # Ok::<(), verify_claim::Diagnostic>(())
//! ```
//!
//! A claim with a written move, made earlier in the game:
//!
//! ```
//! use verify_claim::{ClaimOptions, decide};
//!
//! // Black, after 4.Ng1, writes 4...Ng8 (the third start position) and
//! // claims (9.2.1); the record goes on with 4...e5.
//! let pgn = b"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 e5 *\n";
//! let opts = ClaimOptions {
//!     after: Some("4.Ng1".into()),
//!     written_move: Some("Ng8".into()),
//!     ..ClaimOptions::default()
//! };
//! let report = decide("game.pgn", pgn, &opts)?;
//! assert!(report.verdict.valid());
//! assert_eq!(report.verdict.repetitions_written, vec![0, 4, 8]);
//! # Ok::<(), verify_claim::Diagnostic>(())
//! ```
//!
//! Why a claim fails is a list of [`Reason`]s, each with its evidence (the
//! types behind a [`Verdict`]: [`Ground`], [`GameOver`], [`NearMiss`],
//! [`CountEvidence`], [`DeadCheck`], [`Penalty`] are all at the root):
//!
//! ```
//! use verify_claim::{ClaimOptions, Reason, decide};
//!
//! // White claims at the end: the start position has stood twice, not
//! // three times, and two moves are no fifty.
//! let pgn = b"1. Nf3 Nf6 2. Ng1 Ng8 *\n";
//! let report = decide("game.pgn", pgn, &ClaimOptions::default())?;
//! let mut said = Vec::new();
//! for reason in report.verdict.reasons() {
//!     match reason {
//!         Reason::TooFewRepetitions { on_board, needed, .. } => {
//!             said.push(format!("{on_board} of {needed} repetitions"));
//!         }
//!         Reason::CountShort { plies, needed, .. } => {
//!             said.push(format!("{plies} plies, not {needed}"));
//!         }
//!         Reason::GameOver(over) => said.push(format!("over at ply {}", over.ply)),
//!         Reason::WrongSide { article, .. } => said.push(format!("not to move ({article})")),
//!     }
//! }
//! assert_eq!(said[0], "2 of 3 repetitions");
//! assert!(said[1].starts_with("4 plies, not "));
//! # Ok::<(), verify_claim::Diagnostic>(())
//! ```
//!
//! Bad input is a [`Diagnostic`] with the file, line and column, and a
//! [`DiagnosticKind`] to act on (the message is for people):
//!
//! ```
//! use verify_claim::DiagnosticKind;
//!
//! let err = verify_claim::decide("g.pgn", b"1. e4 e5 2. Ke3 *\n", &Default::default())
//!     .unwrap_err();
//! assert_eq!(err.to_string().split(": error").next(), Some("g.pgn:1:13"));
//! assert_eq!(err.kind, DiagnosticKind::IllegalMove);
//! ```
//!
//! # Scanning an archive
//!
//! ```
//! use verify_claim::{ScanSettings, scan_bytes};
//!
//! let pgn = b"[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n\
//!             1. f3 e5 2. g4 Qh4# 1-0\n";
//! let findings: Vec<_> = scan_bytes("a.pgn", pgn, &ScanSettings::default())
//!     .collect::<Result<_, _>>()?;
//! let kinds: Vec<_> = findings.iter().map(|f| f.kind.name()).collect();
//! assert_eq!(kinds, ["checkmate", "result-mismatch"]);
//! // Each is one `--format jsonl` line:
//! let line = serde_json::to_string(&findings[1]).unwrap();
//! assert!(line.starts_with(r#"{"file":"a.pgn","game":1,"line":5,"ply":4,"kind":"result-mismatch""#));
//! # Ok::<(), verify_claim::Diagnostic>(())
//! ```
//!
//! [`scan_paths`] takes files and directories (compressed too) and runs on
//! every core (or [`ScanSettings::jobs`]), delivering the findings in the
//! same order whatever the number of threads. An input that cannot be read
//! is an `Err` item and the scan goes on; a stream that stops being
//! readable ends its input with one:
//!
//! ```
//! use verify_claim::{ScanSettings, scan_reader};
//!
//! let pgn = b"[Event \"1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n".repeat(3);
//! let settings = ScanSettings { jobs: Some(2), ..ScanSettings::default() };
//! let mut findings = scan_reader("games.pgn", std::io::Cursor::new(pgn), &settings);
//! let games: Vec<usize> = findings.by_ref().map(|f| f.map(|f| f.game)).collect::<Result<_, _>>()?;
//! assert_eq!(games, [1, 2, 3]);
//! assert_eq!(findings.summary().map(|s| (s.games, s.lines)), Some((3, 12)));
//! # Ok::<(), verify_claim::Diagnostic>(())
//! ```
//!
//! A distributed engine (Spark) cuts a large plain file into byte ranges:
//! [`scan_range`] scans the games that *start* in `[start, end)`, so ranges
//! that meet hold each game once; each range numbers its games and lines
//! from 1, and its [`Summary`]'s `games` and `lines` move the next range's
//! on. A multi-frame `.zst` (the lichess database's layout) is cut into runs
//! of frames the same way: [`scan_frames`] scans the games that start in
//! runs `[first, end)`. [`input_files`] lists the files a scan of some
//! paths covers, with their sizes and how they can be cut.
//!
//! Every kind of input is a [`Source`]; [`scan_to`] runs the scan on the
//! calling thread and hands each result to a [`Sink`] (the CLI's printers
//! are sinks: [`printer`] makes one for a [`ScanFormat`]):
//!
//! ```
//! use std::io;
//! use verify_claim::{Row, ScanSettings, Sink, Source, scan_to};
//!
//! #[derive(Default)]
//! struct Count(usize);
//! impl Sink for Count {
//!     fn finding(&mut self, row: &Row<'_>) -> io::Result<()> {
//!         self.0 += usize::from(row.kind().name() == "checkmate");
//!         Ok(())
//!     }
//! }
//! let source = Source::Reader {
//!     name: "a.pgn".into(),
//!     reader: Box::new(io::Cursor::new(b"1. f3 e5 2. g4 Qh4# 0-1\n".to_vec())),
//! };
//! let mut count = Count::default();
//! let summary = scan_to(source, &ScanSettings::default(), &mut count).unwrap();
//! assert_eq!((count.0, summary.games), (1, 1));
//! ```
//!
//! A panic in a worker (a bug) never hangs the scan: it ends with an error
//! naming the file and the game ([`Panicked`]).
//!
//! # Checking a position
//!
//! ```
//! use verify_claim::{PositionOptions, check_position};
//!
//! // King and bishop against king: nobody can mate.
//! let c = check_position("8/8/4k3/8/8/2B5/8/4K3 w - - 0 1", &PositionOptions::default())?;
//! assert_eq!(c.dead, Some(true));
//! # Ok::<(), verify_claim::Diagnostic>(())
//! ```
//!
//! # The engine
//!
//! The data flow is `input` → `record` → `game` → `claims` → `scan` →
//! a [`Sink`] (the printers of `report`); see ARCHITECTURE.md for the map.
//! This crate is the facade over the layers, each a crate of its own:
//! `verify-claim-rules` (records, games, the Laws, the claims, over bytes),
//! `verify-claim-scan` (inputs and the parallel scan) and
//! `verify-claim-report` (the printers); the watch, the desk and the
//! scoresheets are this crate's. The items here are the interface, the
//! command line (the `verify-claim` binary) included: it uses nothing else
//! ([`watching`], [`output`], [`html_printer`], [`chess_position`] are
//! its entry points).
#![forbid(unsafe_code)]
#![warn(unreachable_pub, unnameable_types)]
#![warn(missing_docs)]

mod api;

pub use api::{
    ClaimOptions, DeadSearch, Findings, InputFile, LiveFile, PositionCheck, PositionOptions,
    ScanItem, ScanSettings, Stop, check_position, decide, decide_file, decide_file_pgn,
    decide_path, input_files, scan, scan_bytes, scan_frames, scan_paths, scan_range, scan_reader,
    scan_to,
};
pub use claims::scan::{Kind, RulesChoice, ScanOptions, Severity};
pub use claims::{
    ClaimKind, CountEvidence, Decision, Form, GameOver, GameOverReason, Ground, NearMiss, Reason,
    Verdict,
};
pub use diag::{Diagnostic, DiagnosticKind, Place};
/// The crate's version (`verify-claim --version`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The name tables of the vocabulary's enums (`Named`), which options,
/// JSON and text all read.
pub use column_draughts::names;
pub use game::column_draughts::Rules as ColumnRules;
pub use game::{DeadCheck, Ending, GameType, Search, Side, Win};
pub use laws::{Edition, GameResult, Laws, Penalty, Rule};
pub use record::Encoding;
pub use report::ClaimReport;
pub use report::clocks::{Clocks, Reading as ClockReading};
pub use report::scan::{FindingLine, ScanFormat, html_printer, printer};
pub use scan::{
    ChunkHook, DEBUG_PANIC, GameLine, MAX_JOBS, Needs, Panicked, Placed, Row, Sink, Source, Summary,
};
pub use sheet::{
    Discrepancy, Gap, Reading, ReconstructOptions, Reconstruction, Repair, Sheet, SheetClaim,
    decide_sheets, reconstruct,
};

mod desk;
mod sheet;
mod watch;

#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;

// The layers below, under the names their modules had in one crate: the
// rules core (crates/verify-claim-rules), the scan (crates/verify-claim-scan)
// and the printers (crates/verify-claim-report).
use verify_claim_report::report;
use verify_claim_rules::{claims, diag, game, laws, record};
use verify_claim_scan::{input, scan};

/// Counts with their nouns, as an arbiter writes them ("1 move", "2
/// times"), as every message of the engine counts.
pub use verify_claim_rules::words;
/// Writing output as the command line does: a closed pipe ends the run
/// quietly, any other failed write is said on stderr, and every text meant
/// for a terminal has its control characters shown, not obeyed
/// ([`output::escape`]).
pub use verify_claim_scan::output;

pub use game::chess::unwinnable::position_from_fen as chess_position;
pub use input::walk::display_name;
pub use report::games::PerGame;
pub use report::html_scan::Head as HtmlHead;

/// The engine of `verify-claim watch` and `verify-claim desk`: following
/// live files (`run`, with its `Config`), the views of its events (JSON
/// lines, a log, the live terminal view), the output's queue, and the
/// server of the live board and the arbiter's desk. [`LiveFile`] is the
/// same engine for a file's successive states, without a clock.
pub mod watching {
    pub use crate::desk::DEFAULT_ADDR as DESK_ADDR;
    pub use crate::watch::queue::{Drain, Queued, start as output_queue};
    pub use crate::watch::serve::{
        DEFAULT_ADDR, Options as ServeOptions, Server, Serving, start as serve,
        start_desk as serve_desk,
    };
    pub use crate::watch::view::{Lines, Live, Sink};
    pub use crate::watch::{Config, Summary, run};
    // The types the items above take or give, nameable (`unnameable_types`).
    pub use crate::desk::Desk;
    pub use crate::watch::Watched;
    pub use crate::watch::events::{Board, Context};
    pub use crate::watch::look::{Look, Twice};
    pub use crate::watch::schema::{Event, EventJson, EventKind, GameId};
    pub use crate::watch::serve::hub::{Batch, BoardJson, Hub};
}
#[cfg(test)]
mod tests;
