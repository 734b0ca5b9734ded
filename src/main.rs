#![forbid(unsafe_code)]

mod cli;

use verify_claim::output;

fn main() {
    let status = match cli::run(std::env::args_os().collect()) {
        Ok(out) => match output::write_stdout(out.stdout.as_bytes()) {
            Ok(()) => out.status,
            Err(status) => status,
        },
        Err(diag) => {
            output::to_stderr(diag);
            2
        }
    };
    std::process::exit(status);
}
