//! The command line: clap subcommands over the library's front door.
//!
//! `verify-claim claim | scan | watch | desk | check-position | perft | completions | man`;
//! a first argument that is not a subcommand is a claim
//! (`verify-claim game.pgn --move Nf3`). Each subcommand's options and glue
//! live in its own file; no rule is decided here.

mod args;
mod claim;
mod desk;
mod man;
mod position;
mod scan;
mod sheet;
mod tools;
mod watch;

use clap::{CommandFactory, Parser, Subcommand};

use verify_claim::Diagnostic;

pub(crate) use args::*;

/// A run's outcome: what to print on stdout and the exit status.
pub(crate) struct Outcome {
    pub stdout: Vec<u8>,
    pub status: i32,
}

impl Outcome {
    fn print(stdout: impl Into<Vec<u8>>) -> Outcome {
        Outcome {
            stdout: stdout.into(),
            status: 0,
        }
    }
}

/// Decide chess and column-draughts draw claims, and check archives, under
/// the FIDE Laws of Chess and the rules of column draughts.
#[derive(Parser, Debug)]
#[command(
    name = "verify-claim",
    version,
    about = "Decide draw claims and check recorded results under the FIDE Laws of Chess and the rules of column draughts",
    long_about = None,
    after_help = "A first argument that is not a subcommand is a claim: `verify-claim game.pgn --move Nf3` is `verify-claim claim game.pgn --move Nf3`.",
    arg_required_else_help = true,
    subcommand_required = true
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Decide a draw claim from a recorded game (the default subcommand).
    Claim(claim::ClaimArgs),
    /// Read one or two handwritten scoresheets (any notation of Appendix C)
    /// and reconstruct the game through their slips.
    Reconstruct(sheet::ReconstructArgs),
    /// Scan archives for claimable draws, automatic draws and results the
    /// Laws contradict.
    Scan(scan::ScanArgs),
    /// Follow live files while the games are played: say when the Laws end
    /// a game, a claim becomes available, a move is illegal, a result is
    /// entered.
    Watch(watch::WatchArgs),
    /// The arbiter's desk in a browser: type the scoresheets, click the
    /// claim point, get the verdict and the appeal report.
    Desk(desk::DeskArgs),
    /// Can either side still checkmate? Dead positions (5.2.2) and
    /// unwinnable flag falls (6.9).
    CheckPosition(position::CheckPositionArgs),
    /// Count legal move sequences (perft) from a position.
    Perft(tools::PerftArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(tools::CompletionsArgs),
    /// Print a manual page (roff), or write them all with --dir.
    Man(man::ManArgs),
}

/// Whether a first argument names a subcommand: one of `Command`'s, as
/// clap's derive names them (no second list to keep, and no need to build
/// the whole command line to ask), or clap's own `help`.
fn is_subcommand(a: &str) -> bool {
    a == "help" || <Command as clap::Subcommand>::has_subcommand(a)
}

/// Inserts `claim` when the first argument is neither a subcommand nor a
/// top-level flag (`--help`, `--version`).
fn with_default_subcommand(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let first = args.get(1).and_then(|a| a.to_str());
    let is_top_level = |a: &str| is_subcommand(a) || a.starts_with("-") && a != "-";
    if first.is_some_and(|a| !is_top_level(a)) || args.get(1).is_some_and(|a| a.to_str().is_none())
    {
        args.insert(1, "claim".into());
    }
    args
}

/// The clap command, for completions and the man page.
pub(crate) fn command() -> clap::Command {
    Cli::command()
}

/// What a bare `verify-claim` says: the usage and the subcommands, one
/// line each, not the whole help.
fn short_usage() -> Diagnostic {
    let cmd = command();
    let width = cmd
        .get_subcommands()
        .map(|s| s.get_name().len())
        .max()
        .unwrap_or(0);
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| {
            let about = s.get_about().map(|a| a.to_string()).unwrap_or_default();
            let first = about.split(": ").next().unwrap_or("").trim_end_matches('.');
            format!("  {:width$}  {first}", s.get_name())
        })
        .collect();
    Diagnostic::new(
        verify_claim::DiagnosticKind::Option,
        "verify-claim",
        None,
        format!(
            "a subcommand or a record is needed\n\n\
             Usage: verify-claim <COMMAND> [OPTIONS]\n       \
             verify-claim FILE [OPTIONS]   (a claim: `verify-claim claim FILE`)\n\n\
             Commands:\n{}\n\n\
             `verify-claim --help` says more, `verify-claim help COMMAND` about one.",
            subs.join("\n")
        ),
    )
}

/// Runs the tool on the given arguments (the first is the program name).
pub(crate) fn run(args: Vec<std::ffi::OsString>) -> Result<Outcome, Diagnostic> {
    if args.len() <= 1 {
        return Err(short_usage());
    }
    let cli = match Cli::try_parse_from(with_default_subcommand(args)) {
        Ok(cli) => cli,
        Err(e) => return parse_error(e),
    };
    match cli.command {
        Command::Claim(a) => claim::run(&a),
        Command::Reconstruct(a) => sheet::run(&a),
        Command::Scan(a) => scan::run(a),
        Command::Watch(a) => watch::run(&a),
        Command::Desk(a) => desk::run(&a),
        Command::CheckPosition(a) => position::run(&a),
        Command::Perft(a) => tools::perft(&a),
        Command::Completions(a) => Ok(Outcome::print(tools::completions(a.shell))),
        Command::Man(a) => man::man(&a).map(Outcome::print),
    }
}

/// Help and version are an outcome (stdout, status 0); errors a diagnostic
/// (status 2).
fn parse_error(e: clap::Error) -> Result<Outcome, Diagnostic> {
    let text = e.render().to_string();
    if e.use_stderr() {
        let message = text.trim_start_matches("error: ").trim_end().to_owned();
        return Err(Diagnostic::new(
            verify_claim::DiagnosticKind::Option,
            "verify-claim",
            None,
            message,
        ));
    }
    Ok(Outcome::print(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        let v = a.iter().map(|s| s.into()).collect();
        with_default_subcommand(v)
            .into_iter()
            .map(|s| s.into_string().unwrap_or_default())
            .collect()
    }

    #[test]
    fn a_file_is_a_claim() {
        assert_eq!(args(&["vc", "g.pgn", "--move", "Nf3"])[1], "claim");
        assert_eq!(args(&["vc", "-", "--move", "Nf3"])[1], "claim");
        assert_eq!(args(&["vc", "scan", "x"])[1], "scan");
        assert_eq!(args(&["vc", "--help"])[1], "--help");
        assert_eq!(args(&["vc", "help"])[1], "help");
        assert_eq!(
            args(&["vc", "check-position", "--fen", "x"])[1],
            "check-position"
        );
        assert_eq!(args(&["vc", "reconstruct", "s.txt"])[1], "reconstruct");
        assert_eq!(args(&["vc", "man"])[1], "man");
    }

    #[test]
    fn the_command_is_well_formed() {
        command().debug_assert();
    }

    /// The values of an option, with their help, as clap lists them.
    fn values(sub: &str, long: &str) -> Vec<(String, String)> {
        let cmd = command();
        let arg = cmd
            .find_subcommand(sub)
            .and_then(|s| s.get_arguments().find(|a| a.get_long() == Some(long)))
            .map(|a| a.get_possible_values())
            .unwrap_or_default();
        arg.iter()
            .map(|v| {
                let help = v.get_help().map(|h| h.to_string()).unwrap_or_default();
                (v.get_name().to_owned(), help)
            })
            .collect()
    }

    /// The options' values are the library's name tables, in their order
    /// and with the help the mirror enums had.
    #[test]
    fn option_values_are_the_library_names() {
        let names =
            |sub, long| -> Vec<String> { values(sub, long).into_iter().map(|v| v.0).collect() };
        let rules = ["auto", "fide-2009", "fide-2014", "fide-2018", "fide-2023"];
        assert_eq!(names("scan", "rules"), rules);
        assert_eq!(
            names("claim", "game-type"),
            ["auto", "chess", "column-draughts"]
        );
        assert_eq!(
            names("check-position", "game-type"),
            ["chess", "column-draughts"]
        );
        assert_eq!(names("check-position", "side"), ["white", "black"]);
        assert_eq!(names("scan", "min-severity"), ["info", "warning", "error"]);
        assert_eq!(names("claim", "encoding"), ["auto", "utf8", "latin1"]);
        let claim = values("claim", "claim");
        assert_eq!(claim[3], ("any".to_owned(), "Any ground".to_owned()));
        assert_eq!(claim.len(), 4);
        let search = values("watch", "dead-search");
        assert_eq!(
            search[1].1,
            "The full unwinnability search (helpmate or proof)"
        );
    }

    /// An alias of the table is read, and a value is the library's type.
    #[test]
    fn options_parse_into_the_library_types() {
        let parsed = Cli::try_parse_from(["vc", "claim", "g.pgn", "--claim", "repetition"]);
        let Ok(Cli {
            command: Command::Claim(a),
        }) = parsed
        else {
            panic!("--claim repetition is read");
        };
        assert_eq!(a.claim, verify_claim::ClaimKind::Repetition);
        assert_eq!(a.record.rules, None);
        let parsed = Cli::try_parse_from(["vc", "scan", "x", "--rules", "fide-2014"]);
        let Ok(Cli {
            command: Command::Scan(a),
        }) = parsed
        else {
            panic!("--rules fide-2014 is read");
        };
        assert_eq!(a.record.rules, Some(verify_claim::Edition::Fide2014));
        assert!(Cli::try_parse_from(["vc", "scan", "x", "--rules", "fide-2000"]).is_err());
    }
}
