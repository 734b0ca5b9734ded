#![forbid(unsafe_code)]

use verify_claim::output;

fn main() {
    let status = match verify_claim::cli::run(std::env::args_os().collect()) {
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
