//! Inputs: files, directories, standard input; decompression; and the
//! splitting of large inputs into chunks at game boundaries, so that one big
//! file can use every core.
//!
//! - [`read`]: a whole input into memory (claim mode: one game's file).
//! - [`walk`]: the files a scan covers, in a fixed order.
//! - [`open`]: a reader that decompresses by extension (or magic bytes).
//! - [`chunks`]: a stream cut into chunks that each hold whole games.
//! - [`ranges`]: a plain file cut by the workers themselves.

pub mod chunks;
pub mod open;
pub mod ranges;
pub mod walk;

use std::io::Read;

use crate::diag::Diagnostic;

/// One input's bytes and the name to show in messages.
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Reads a file (decompressing `.zst`, `.gz`, `.bz2`), or standard input for `-`.
pub fn read(path: &str) -> Result<Input, Diagnostic> {
    let name = if path == "-" {
        "<stdin>".to_owned()
    } else {
        path.to_owned()
    };
    let mut reader =
        open::open(path).map_err(|e| Diagnostic::new(&name, None, format!("cannot read: {e}")))?;
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| Diagnostic::new(&name, None, format!("cannot read: {e}")))?;
    Ok(Input { name, bytes })
}
