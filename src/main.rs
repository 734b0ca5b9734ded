#![forbid(unsafe_code)]

mod cli;

use std::io::Write;

fn main() {
    let status = match cli::run(std::env::args_os().collect()) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = stdout.write_all(out.stdout.as_bytes());
            let _ = stdout.flush();
            out.status
        }
        Err(diag) => {
            eprintln!("{diag}");
            2
        }
    };
    std::process::exit(status);
}
