//! `verify-claim scan PATH...`: check whole archives. Exit status 1 when a
//! finding is at or above `--fail-on`, 2 when an input could not be read.

use std::io::IsTerminal;

use clap::{Args, ValueEnum};

use verify_claim::Diagnostic;
use verify_claim::claims::scan::Severity;
use verify_claim::report::scan as printers;
use verify_claim::scan::Summary;

use super::{DeadSearchArg, Outcome, RecordOptions};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScanFormat {
    Text,
    Jsonl,
    Csv,
    Github,
    /// The input games written back, a comment at each finding.
    Pgn,
    /// One page with a diagram per finding.
    Html,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MinSeverity {
    Info,
    Warning,
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Never,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 1 if a finding is at or above --fail-on; 2 if an input could not be read, no input held a game, or the output could not be written; 0 otherwise, and when the output was closed by its reader (`| head`), which ends the scan quietly."
)]
pub struct ScanArgs {
    /// Files (.pgn, .pgn.zst, .pgn.gz, .pgn.bz2), directories (recursive), `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: ScanFormat,
    /// Worker threads (default: all cores; at most 256).
    #[arg(long, value_name = "N", value_parser = jobs_in_range())]
    pub jobs: Option<usize>,
    /// Exit with status 1 when a finding is at or above this severity.
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// Print only findings at or above this severity (the exit status and
    /// the summary still count every finding). Default: info; warning for
    /// --format github, which then ends with a line saying what was left out.
    #[arg(long, value_enum)]
    pub min_severity: Option<MinSeverity>,
    /// Report a draw agreed before this move with no claimable ground (Article 9.1.1).
    #[arg(long, value_name = "N")]
    pub min_draw_moves: Option<u32>,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
    /// Follow symbolic links in directories (loops are detected and skipped).
    #[arg(long)]
    pub follow: bool,
    /// How hard to look for dead positions and unwinnable flag falls.
    #[arg(long, value_enum, default_value = "quick")]
    pub dead_search: DeadSearchArg,
    #[command(flatten)]
    pub record: RecordOptions,
}

/// The most worker threads a scan starts: more only cost memory (each has
/// its own stack and buffers), and far more cannot be started at all.
pub const MAX_JOBS: u64 = verify_claim::scan::MAX_JOBS as u64;

fn jobs_in_range() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_JOBS)
}

impl ScanArgs {
    fn config(&self) -> verify_claim::scan::Config {
        let jobs = self
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        verify_claim::scan::Config {
            paths: self.paths.clone(),
            jobs,
            options: self
                .record
                .scan_options(self.dead_search, self.min_draw_moves),
            encoding: self.record.encoding.encoding(),
            progress: !self.no_progress && std::io::stderr().is_terminal(),
            min_severity: self.min_severity(),
            annotate: self.format == ScanFormat::Pgn,
            boards: self.format == ScanFormat::Html,
            follow: self.follow,
        }
    }

    /// The least severity printed: info, but warning for annotations
    /// (GitHub shows only a few per step, and notices would hide errors).
    fn min_severity(&self) -> Severity {
        match self.min_severity {
            Some(MinSeverity::Info) => Severity::Info,
            Some(MinSeverity::Warning) => Severity::Warning,
            Some(MinSeverity::Error) => Severity::Error,
            None if self.format == ScanFormat::Github => Severity::Warning,
            None => Severity::Info,
        }
    }

    fn printer(&self, colour: bool) -> Box<dyn printers::Printer> {
        match self.format {
            ScanFormat::Text => Box::new(printers::Text::new(colour)),
            ScanFormat::Jsonl => Box::new(printers::Jsonl),
            ScanFormat::Csv => Box::new(printers::Csv::new()),
            ScanFormat::Github => Box::new(printers::Github),
            ScanFormat::Pgn => Box::new(verify_claim::report::pgn::Pgn::default()),
            ScanFormat::Html => Box::new(verify_claim::report::html_scan::Html::new()),
        }
    }

    /// 1 when a finding reaches `--fail-on`, 2 when an input failed.
    fn status(&self, summary: &Summary) -> i32 {
        let threshold = match self.fail_on {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Never => None,
        };
        if summary.failed_inputs > 0 {
            2
        } else if threshold.is_some_and(|t| summary.worst.is_some_and(|w| w >= t)) {
            1
        } else {
            0
        }
    }
}

pub fn run(args: ScanArgs) -> Result<Outcome, Diagnostic> {
    let stdout = std::io::stdout();
    let colour = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut printer = args.printer(colour);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let scanned = verify_claim::scan::run(args.config(), printer.as_mut(), &mut out);
    let summary = match scanned.and_then(|s| {
        if args.format == ScanFormat::Github {
            printers::github_summary(&s.by_kind, args.min_severity(), &mut out)?;
        }
        Ok(s)
    }) {
        Ok(s) => s,
        // A closed pipe: quietly, 0; any other write error: said, 2.
        Err(e) => {
            return Ok(Outcome {
                stdout: Vec::new(),
                status: verify_claim::output::failure_status(&e),
            });
        }
    };
    verify_claim::output::to_stderr(summary_line(&summary));
    Ok(Outcome {
        stdout: Vec::new(),
        status: args.status(&summary),
    })
}

/// "scanned N games (M plies) in S s: ... findings: kind n, ..."
fn summary_line(summary: &Summary) -> String {
    let kinds: Vec<String> = summary
        .by_kind
        .iter()
        .map(|(k, n)| format!("{} {n}", k.name()))
        .collect();
    let secs = summary.seconds.max(1e-9);
    format!(
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
    )
}
