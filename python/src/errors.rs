//! The package's exceptions, made here and chosen by the crate's
//! [`DiagnosticKind`], never by a message's words.
//!
//! - `InputError` (a `ValueError`): a record, file or position the tool
//!   could not read or answer for, with `file`, `line`, `column`,
//!   `message` and `kind`; `str()` is the CLI's `file:line:col: error: ...`.
//! - An input the OS would not give (`DiagnosticKind::Io` of a kind with an
//!   `errno`): `InputFileNotFoundError` and its siblings, each both the
//!   `OSError` subclass of that errno (`errno`, `strerror`, `filename`) and
//!   an `InputError` (as every unreadable input was before).
//! - A worker's panic (`DiagnosticKind::Panic`): `RuntimeError`.

use std::io::ErrorKind;

use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use verify_claim::DiagnosticKind;

create_exception!(
    verify_claim,
    InputError,
    PyValueError,
    "A record, file or position the tool could not read or answer for.\n\n\
     The same error the command line prints as ``file:line:col: error: ...``\n\
     (and exits 2 for): ``str()`` is that line. ``line`` and ``column`` are\n\
     1-based, or ``None`` when the error has no place (an option, a file that\n\
     cannot be read); ``kind`` says what went wrong (``\"io\"``, ``\"syntax\"``,\n\
     ``\"illegal-move\"``, ``\"option\"``, ``\"limit\"``, ``\"no-game\"``): match\n\
     on it, not on ``message``."
);

/// The input errors that are also the `OSError` of their errno: the
/// class's name, the builtin it extends, the errno's name (in `errno`).
const OS_ERRORS: [(ErrorKind, &str, &str, &str); 4] = [
    (
        ErrorKind::NotFound,
        "InputFileNotFoundError",
        "FileNotFoundError",
        "ENOENT",
    ),
    (
        ErrorKind::PermissionDenied,
        "InputPermissionError",
        "PermissionError",
        "EACCES",
    ),
    (
        ErrorKind::IsADirectory,
        "InputIsADirectoryError",
        "IsADirectoryError",
        "EISDIR",
    ),
    (
        ErrorKind::NotADirectory,
        "InputNotADirectoryError",
        "NotADirectoryError",
        "ENOTDIR",
    ),
];

/// Adds `InputError` and the `OSError` ones to the module. The `OSError`
/// base comes first, so that its `__new__`, `__init__` and `__str__`
/// (`[Errno 2] No such file or directory: 'x.pgn'`) are the class's.
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let input = py.get_type::<InputError>();
    // What an `InputError` made by hand (`InputError("...")`) holds.
    input.setattr("file", "")?;
    input.setattr("line", py.None())?;
    input.setattr("column", py.None())?;
    input.setattr("message", "")?;
    input.setattr("kind", "")?;
    m.add("InputError", &input)?;
    let builtins = py.import("builtins")?;
    let make = builtins.getattr("type")?;
    for (_, name, base, _) in OS_ERRORS {
        let dict = PyDict::new(py);
        dict.set_item("__module__", "verify_claim")?;
        dict.set_item(
            "__doc__",
            format!(
                "An input the OS would not give: a ``{base}`` (``errno``, ``strerror``, \
                 ``filename``) and an :class:`InputError`."
            ),
        )?;
        let bases = PyTuple::new(py, [builtins.getattr(base)?, input.clone().into_any()])?;
        m.add(name, make.call1((name, bases, dict))?)?;
    }
    Ok(())
}

/// The exception for an input error of `kind`.
pub fn input_error(
    py: Python<'_>,
    kind: DiagnosticKind,
    file: String,
    line: Option<u32>,
    column: Option<u32>,
    message: String,
) -> PyErr {
    let shown = match (line, column) {
        (Some(l), Some(c)) => format!("{file}:{l}:{c}: error: {message}"),
        _ => format!("{file}: error: {message}"),
    };
    if kind == DiagnosticKind::Panic {
        return PyRuntimeError::new_err(shown);
    }
    let made = match os_error(py, kind, &file) {
        Some(e) => e,
        None => py.get_type::<InputError>().call1((shown,)),
    };
    let set = |e: &Bound<'_, PyAny>| -> PyResult<()> {
        e.setattr("file", &file)?;
        e.setattr("line", line)?;
        e.setattr("column", column)?;
        e.setattr("message", &message)?;
        e.setattr("kind", kind.name())
    };
    match made.and_then(|e| set(&e).map(|()| e)) {
        Ok(e) => PyErr::from_value(e),
        Err(e) => e,
    }
}

/// The `OSError` class of an I/O kind that has one, made as `OSError`
/// makes its own: `(errno, os.strerror(errno), filename)`.
fn os_error<'py>(
    py: Python<'py>,
    kind: DiagnosticKind,
    file: &str,
) -> Option<PyResult<Bound<'py, PyAny>>> {
    let DiagnosticKind::Io(io) = kind else {
        return None;
    };
    let (_, name, _, errno) = OS_ERRORS.iter().find(|e| e.0 == io)?;
    Some((|| {
        let errno = py.import("errno")?.getattr(*errno)?;
        let strerror = py.import("os")?.getattr("strerror")?.call1((&errno,))?;
        let class = py.import("verify_claim._native")?.getattr(*name)?;
        class.call1((errno, strerror, file))
    })())
}
