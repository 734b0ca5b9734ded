//! Inputs: files and standard input, read into memory for claim mode.

use std::io::Read;

use crate::diag::Diagnostic;

/// One input's bytes and the name to show in messages.
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Reads a file, or standard input for `-`.
pub fn read(path: &str) -> Result<Input, Diagnostic> {
    let (name, bytes) = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).map_err(|e| {
            Diagnostic::new("<stdin>", None, format!("cannot read standard input: {e}"))
        })?;
        ("<stdin>".to_owned(), buf)
    } else {
        let bytes = std::fs::read(path)
            .map_err(|e| Diagnostic::new(path, None, format!("cannot read: {e}")))?;
        (path.to_owned(), bytes)
    };
    Ok(Input { name, bytes })
}
