#![forbid(unsafe_code)]
#![warn(unreachable_pub, unnameable_types)]

//! The `verify-claim` binary: the command line (clap, man pages,
//! completions, the progress bar) over the `verify_claim` library.

mod cli;

fn main() -> std::process::ExitCode {
    run_command_line()
}

/// Runs the `verify-claim` command line on this process's arguments: what
/// the binary's `main` does. Prints on stdout and stderr and returns the
/// exit status (0: done, nothing refused; 1: a claim refused or a finding
/// at the failing severity; 2: bad input or an error; a closed stdout
/// ends quietly with 0).
fn run_command_line() -> std::process::ExitCode {
    if let Err(e) = verify_claim::output::stdout_is_open() {
        return exit_code(verify_claim::output::failure_status(&e));
    }
    let status = match cli::run(std::env::args_os().collect()) {
        Ok(out) => match verify_claim::output::write_stdout(&out.stdout) {
            Ok(()) => out.status,
            Err(status) => status,
        },
        Err(diag) => {
            verify_claim::output::to_stderr(diag);
            2
        }
    };
    exit_code(status)
}

/// A status as the process's exit code (every status the CLI makes is
/// 0, 1 or 2).
fn exit_code(status: i32) -> std::process::ExitCode {
    u8::try_from(status).map_or(
        std::process::ExitCode::FAILURE,
        std::process::ExitCode::from,
    )
}
