//! `verify-claim scan PATH...`: check whole archives. Exit status 1 when a
//! finding is at or above `--fail-on`, 2 when an input could not be read.

use std::io::IsTerminal;

use clap::{Args, ValueEnum};

use verify_claim::{Diagnostic, Row, ScanSettings, Search, Severity, Sink, Source, Summary};

use verify_claim::output::escape;

use super::{Outcome, RecordOptions, named};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ScanFormat {
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
pub(crate) enum FailOn {
    Error,
    Warning,
    Never,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Exit status: 1 if a finding is at or above --fail-on; 2 if an input could not be read, no input held a game, or the output could not be written; 0 otherwise, and when the output was closed by its reader (`| head`), which ends the scan quietly."
)]
pub(crate) struct ScanArgs {
    /// Files (.pgn, .pgn.zst, .pgn.gz, .pgn.bz2), directories (recursive), `-` for standard input.
    #[arg(required = true)]
    pub paths: Vec<std::path::PathBuf>,
    /// How the findings are written (default: text; with --per-game, jsonl).
    #[arg(long, value_enum)]
    pub format: Option<ScanFormat>,
    /// One row per game of the input (every game, unreadable ones too), in
    /// input order, instead of one per finding: its tags, the first
    /// claimable plies, how the Laws ended it, the clocks, its first error
    /// (--format jsonl or csv).
    #[arg(long)]
    pub per_game: bool,
    /// Worker threads (default: all cores; at most 256).
    #[arg(long, value_name = "N", value_parser = jobs_in_range())]
    pub jobs: Option<usize>,
    /// Exit with status 1 when a finding is at or above this severity.
    #[arg(long, value_enum, default_value = "error")]
    pub fail_on: FailOn,
    /// Print only findings at or above this severity (the exit status and
    /// the summary still count every finding). Default: info; warning for
    /// --format github, which then ends with a line saying what was left out.
    #[arg(long, value_parser = named::<Severity>())]
    pub min_severity: Option<Severity>,
    /// Report a draw agreed before this move with no claimable ground (Article 9.1.1).
    #[arg(long, value_name = "N")]
    pub min_draw_moves: Option<u32>,
    /// No progress bar, even on a terminal.
    #[arg(long)]
    pub no_progress: bool,
    /// `--format html`: draw the position of every finding, also of a game
    /// end the Laws make by themselves (checkmate, stalemate, ...).
    #[arg(long)]
    pub all_diagrams: bool,
    /// Follow symbolic links in directories (loops are detected and skipped).
    #[arg(long)]
    pub follow: bool,
    /// How hard to look for dead positions and unwinnable flag falls.
    #[arg(long, value_parser = named::<Search>(), default_value = "quick")]
    pub dead_search: Search,
    #[command(flatten)]
    pub record: RecordOptions,
}

/// The most worker threads a scan starts: more only cost memory (each has
/// its own stack and buffers), and far more cannot be started at all.
pub(super) const MAX_JOBS: u64 = verify_claim::MAX_JOBS as u64;

fn jobs_in_range() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(0..=MAX_JOBS)
}

impl ScanArgs {
    /// The format asked for, or the default: text, jsonl with --per-game.
    fn output(&self) -> ScanFormat {
        match self.format {
            Some(f) => f,
            None if self.per_game => ScanFormat::Jsonl,
            None => ScanFormat::Text,
        }
    }

    fn settings(&self) -> ScanSettings {
        ScanSettings {
            jobs: self.jobs,
            options: self
                .record
                .scan_options(self.dead_search, self.min_draw_moves),
            encoding: self.record.encoding,
            // The HTML page counts every finding and lists those at or
            // above the severity itself.
            min_severity: if self.output() == ScanFormat::Html {
                Severity::Info
            } else {
                self.min_severity()
            },
            follow: self.follow,
        }
    }

    /// The least severity printed: info, but warning for annotations
    /// (GitHub shows only a few per step, and notices would hide errors).
    fn min_severity(&self) -> Severity {
        match self.min_severity {
            Some(min) => min,
            None if self.output() == ScanFormat::Github => Severity::Warning,
            None => Severity::Info,
        }
    }

    fn format(&self, colour: bool) -> verify_claim::ScanFormat {
        use verify_claim::ScanFormat as F;
        match self.output() {
            ScanFormat::Text => F::Text { colour },
            ScanFormat::Jsonl => F::Jsonl,
            ScanFormat::Csv => F::Csv,
            ScanFormat::Github => F::Github(self.min_severity()),
            ScanFormat::Pgn => F::Pgn(self.min_severity()),
            ScanFormat::Html => F::Html,
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

/// The CLI's sink: the format's printer, with every input error and
/// warning also said on stderr, and the progress bar.
struct Terminal<'a> {
    printer: Box<dyn Sink + 'a>,
    progress: bool,
    bar: Option<indicatif::ProgressBar>,
    /// `--format pgn`: the games too large to hold, which are not in the
    /// text written back (said when met, and all together at the end).
    not_written: Option<Vec<String>>,
}

impl Sink for Terminal<'_> {
    fn needs(&self) -> verify_claim::Needs {
        self.printer.needs()
    }
    fn finding(&mut self, row: &Row<'_>) -> std::io::Result<()> {
        if let Some(list) = &mut self.not_written
            && row.not_read()
        {
            let (p, file) = (row.place(), escape::field(row.file()));
            verify_claim::output::to_stderr(format_args!(
                "{file}:{}:{}: warning: game {} is not written to the output: {}",
                p.line,
                p.col,
                row.game(),
                escape::text(row.message())
            ));
            list.push(format!("{file} game {}", row.game()));
        }
        self.printer.finding(row)
    }
    fn input_error(&mut self, d: &Diagnostic) -> std::io::Result<()> {
        verify_claim::output::to_stderr(d);
        self.printer.input_error(d)
    }
    fn input_warning(&mut self, file: &str, message: &str) -> std::io::Result<()> {
        verify_claim::output::to_stderr(format_args!(
            "{}: warning: {}",
            escape::field(file),
            escape::text(message)
        ));
        self.printer.input_warning(file, message)
    }
    fn chunk_text(&mut self, text: &[u8]) -> std::io::Result<()> {
        self.printer.chunk_text(text)
    }
    fn game(&mut self, game: &verify_claim::GameLine) -> std::io::Result<()> {
        self.printer.game(game)
    }
    fn progress(&mut self, done: u64, total: u64) {
        if self.progress {
            self.bar
                .get_or_insert_with(|| progress_bar(total))
                .set_position(done);
        }
    }
    fn totals(&mut self, summary: &Summary) {
        self.printer.totals(summary)
    }
    fn finish(&mut self) -> std::io::Result<()> {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        if let Some(list) = self.not_written.as_ref().filter(|l| !l.is_empty()) {
            let games = if list.len() == 1 { "game" } else { "games" };
            verify_claim::output::to_stderr(format_args!(
                "verify-claim: warning: {} {games} too large to hold not written to the output: {}",
                list.len(),
                list.join(", ")
            ));
        }
        self.printer.finish()
    }
}

impl Drop for Terminal<'_> {
    fn drop(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

fn progress_bar(total: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}, {eta})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// The HTML page, told what its header says.
fn html_page<'a, W: std::io::Write + 'a>(args: &ScanArgs, out: W) -> Box<dyn Sink + 'a> {
    use verify_claim::HtmlHead as Head;
    let head = Head {
        inputs: args
            .paths
            .iter()
            .map(|p| verify_claim::display_name(p))
            .collect(),
        rules: args.settings().options.rules,
        min: args.min_severity(),
        all_diagrams: args.all_diagrams,
        ..Head::default()
    };
    verify_claim::html_printer(head, out)
}

pub(super) fn run(args: ScanArgs) -> Result<Outcome, Diagnostic> {
    let stdout = std::io::stdout();
    let colour = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let format = args.output();
    let printer: Box<dyn Sink> = match format {
        ScanFormat::Jsonl | ScanFormat::Csv if args.per_game => {
            Box::new(verify_claim::PerGame::new(out, format == ScanFormat::Csv))
        }
        _ if args.per_game => {
            let name = format!("{format:?}").to_lowercase();
            return Err(Diagnostic::new(
                verify_claim::DiagnosticKind::Option,
                "verify-claim",
                None,
                format!("--per-game writes jsonl or csv, not --format {name}"),
            ));
        }
        ScanFormat::Html => html_page(&args, out),
        _ => verify_claim::printer(args.format(colour), out),
    };
    let mut sink = Terminal {
        printer,
        progress: !args.no_progress && std::io::stderr().is_terminal(),
        bar: None,
        not_written: (format == ScanFormat::Pgn).then(Vec::new),
    };
    let source = Source::Paths(args.paths.clone());
    let summary = match verify_claim::scan_to(source, &args.settings(), &mut sink) {
        Ok(s) => s,
        // A closed pipe: quietly, 0; any other error (a write, a
        // worker's panic): said, 2.
        Err(e) => {
            drop(sink);
            return Ok(Outcome {
                stdout: Vec::new(),
                status: verify_claim::output::failure_status(&e),
            });
        }
    };
    drop(sink);
    verify_claim::output::to_stderr(summary_line(&summary));
    Ok(Outcome {
        stdout: Vec::new(),
        status: args.status(&summary),
    })
}

/// "scanned N games (M plies) in S s: ... findings: kind n, ...": the
/// plies replayed, the rate in MB of text scanned per second (for
/// compressed input, the compressed MB read beside it).
fn summary_line(summary: &Summary) -> String {
    use verify_claim::words::count;
    let kinds: Vec<String> = summary
        .by_kind
        .iter()
        .map(|(k, n)| format!("{} {n}", k.name()))
        .collect();
    let secs = summary.seconds.max(1e-9);
    let compressed = if summary.bytes != summary.text_bytes && summary.bytes > 0 {
        format!(" ({:.1} MB compressed)", summary.bytes as f64 / 1e6)
    } else {
        String::new()
    };
    format!(
        "scanned {} ({}) in {:.2} s: {:.0} games/s, {:.1} MB/s of text{compressed}; findings: {}",
        count(summary.games, "game", "games"),
        count(summary.plies, "ply", "plies"),
        summary.seconds,
        summary.games as f64 / secs,
        summary.text_bytes as f64 / secs / 1e6,
        if kinds.is_empty() {
            "none".to_owned()
        } else {
            kinds.join(", ")
        }
    )
}
