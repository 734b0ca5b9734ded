//! `verify-claim desk [ADDR]`: the arbiter's desk in a browser. Prints the
//! page's URL as its first line on standard output and serves until
//! Ctrl-C.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Args;

use verify_claim::Diagnostic;

use super::Outcome;

#[derive(Args, Debug)]
#[command(
    after_help = "Prints the page's URL, then serves until Ctrl-C (exit status 0; 2 for bad options or an address in use)."
)]
pub(crate) struct DeskArgs {
    /// The address and port to serve (port 0: any free port); another address than loopback needs --token.
    #[arg(value_name = "ADDR:PORT", default_value = verify_claim::watching::DESK_ADDR)]
    pub addr: String,
    /// The access token the page and the API ask for (?token= or a Bearer header);
    /// 'generate' makes a random one, printed in the URL.
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
}

pub(super) fn run(args: &DeskArgs) -> Result<Outcome, Diagnostic> {
    let fail = |m: String| {
        let kind = verify_claim::DiagnosticKind::Io(std::io::ErrorKind::Other);
        Diagnostic::new(kind, "verify-claim desk", None, m)
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .map_err(|e| fail(format!("cannot catch Ctrl-C: {e}")))?;
    let options = verify_claim::watching::ServeOptions {
        addr: args.addr.clone(),
        token: args.token.clone(),
    };
    let server = verify_claim::watching::serve_desk(&options, Arc::clone(&stop)).map_err(fail)?;
    let mut out = std::io::stdout().lock();
    // A reader that went away does not stop the desk.
    let _ = writeln!(out, "{}", server.url).and_then(|()| out.flush());
    drop(out);
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(server);
    Ok(Outcome {
        stdout: Vec::new(),
        status: 0,
    })
}
