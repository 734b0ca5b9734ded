//! `verify-claim watch PATH...`: follow live files while the games are
//! played. Runs until Ctrl-C, then prints a summary on stderr.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Args, ValueEnum};

use verify_claim::Diagnostic;
use verify_claim::watching as view;

use super::{Outcome, RecordOptions, named};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum WatchFormat {
    /// A live view on a terminal; elsewhere one line per event.
    Text,
    /// One JSON object per event.
    Jsonl,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Runs until Ctrl-C, then prints a summary on stderr (exit status 0; 2 for bad options)."
)]
pub(crate) struct WatchArgs {
    /// Files (they may appear later) and folders (every .pgn and .pdn below, new ones included).
    #[arg(required = true)]
    pub paths: Vec<String>,
    /// text: a live view on a terminal, a log elsewhere; jsonl: one JSON object per event
    /// (default: text on a terminal, jsonl elsewhere).
    #[arg(long, value_enum)]
    pub format: Option<WatchFormat>,
    /// How often to look at the files, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 200, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub interval: u64,
    /// No bell on a new alert.
    #[arg(long)]
    pub quiet: bool,
    /// Also serve the live board to a browser (one page; /events, /state) at ADDR:PORT
    /// (default 127.0.0.1:8040; another address than loopback needs --token).
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1, default_missing_value = verify_claim::watching::DEFAULT_ADDR)]
    pub serve: Option<String>,
    /// The access token the page and its endpoints ask for (?token= or a Bearer header);
    /// 'generate' makes a random one, printed in the URL.
    #[arg(long, value_name = "TOKEN", requires = "serve")]
    pub token: Option<String>,
    /// Say when a clock written in [%clk] falls under this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u32).range(1..=86_400))]
    pub low_time: Option<u32>,
    /// How hard to look for dead positions after each move.
    #[arg(long, value_parser = named::<verify_claim::Search>(), default_value = "quick")]
    pub dead_search: verify_claim::Search,
    #[command(flatten)]
    pub record: RecordOptions,
}

impl WatchArgs {
    fn config(&self) -> verify_claim::watching::Config {
        verify_claim::watching::Config {
            paths: self.paths.clone(),
            interval: std::time::Duration::from_millis(self.interval),
            options: self.record.scan_options(self.dead_search, None),
            encoding: self.record.encoding,
            low_time: self.low_time.map(f64::from),
        }
    }
}

pub(super) fn run(args: &WatchArgs) -> Result<Outcome, Diagnostic> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst)).map_err(|e| {
        Diagnostic::new(
            verify_claim::DiagnosticKind::Io(std::io::ErrorKind::Other),
            "verify-claim watch",
            None,
            format!("cannot catch Ctrl-C: {e}"),
        )
    })?;
    let terminal = std::io::stdout().is_terminal();
    // Written by a thread of its own through a bounded queue: output
    // nobody reads never stops the watch (verify_claim::watching::output_queue).
    let (out, drain) = verify_claim::watching::output_queue(std::io::stdout()).map_err(|e| {
        Diagnostic::new(
            verify_claim::DiagnosticKind::Io(e.kind()),
            "verify-claim watch",
            None,
            format!("cannot start the output: {e}"),
        )
    })?;
    let mut sink: Box<dyn view::Sink> = match (args.format, terminal) {
        (Some(WatchFormat::Jsonl), _) | (None, false) => Box::new(view::Lines::jsonl(out)),
        (Some(WatchFormat::Text), false) => Box::new(view::Lines::log(out)),
        (_, true) => Box::new(view::Live::new(out, args.quiet, terminal_size)),
    };
    let server = match &args.serve {
        None => None,
        Some(addr) => {
            let options = verify_claim::watching::ServeOptions {
                addr: addr.clone(),
                token: args.token.clone(),
            };
            let server =
                verify_claim::watching::serve(&options, Arc::clone(&stop)).map_err(|m| {
                    let kind = verify_claim::DiagnosticKind::Io(std::io::ErrorKind::Other);
                    Diagnostic::new(kind, "verify-claim watch", None, m)
                })?;
            eprintln!("verify-claim watch: the live board is at {}", server.url);
            for url in server.urls.iter().skip(1) {
                eprintln!("verify-claim watch: also at {url}");
            }
            Some(server)
        }
    };
    let ran = match &server {
        Some(s) => {
            let mut serving = verify_claim::watching::Serving::new(sink.as_mut(), s);
            verify_claim::watching::run(args.config(), &mut serving, &stop)
        }
        None => verify_claim::watching::run(args.config(), sink.as_mut(), &stop),
    };
    drop(server);
    // The output's queue is closed, then written if a reader takes it.
    drop(sink);
    let unwritten = drain.finish(std::time::Duration::from_secs(2));
    if unwritten > 0 {
        verify_claim::output::to_stderr(format!(
            "verify-claim watch: {unwritten} line(s) of output could not be written (standard output was not read)"
        ));
    }
    match ran {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            let kind = verify_claim::DiagnosticKind::Io(e.kind());
            return Err(Diagnostic::new(
                kind,
                "verify-claim watch",
                None,
                e.to_string(),
            ));
        }
    }
    Ok(Outcome {
        stdout: Vec::new(),
        status: 0,
    })
}

/// The terminal's columns and rows, for the live view.
fn terminal_size() -> Option<(usize, usize)> {
    terminal_size::terminal_size().map(|(w, h)| (usize::from(w.0), usize::from(h.0)))
}
