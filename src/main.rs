#![forbid(unsafe_code)]

mod cli;

use verify_claim::output;

fn main() {
    if let Err(e) = output::stdout_is_open() {
        std::process::exit(output::failure_status(&e));
    }
    let status = match cli::run(std::env::args_os().collect()) {
        Ok(out) => match output::write_stdout(&out.stdout) {
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
