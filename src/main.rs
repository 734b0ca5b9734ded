#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    verify_claim::run_command_line()
}
