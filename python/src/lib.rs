//! The native module `verify_claim._native`: thin wrappers over
//! [`engine`], which holds every call into the crate. Results cross as the
//! crate's own JSON text; the Python package (`verify_claim/__init__.py`)
//! turns it into dicts.
#![forbid(unsafe_code)]

mod engine;

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, sync_channel};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use engine::{Claim, Error, Msg, Record, Totals};

/// Batches of JSON lines in flight between a scan and its consumer: the
/// scan waits when the consumer does not keep up, so memory stays bounded.
const IN_FLIGHT: usize = 8;

fn to_py(py: Python<'_>, e: Error) -> PyErr {
    match e {
        Error::Usage(m) => PyValueError::new_err(m),
        Error::Failed(m) => PyRuntimeError::new_err(m),
        Error::Input {
            file,
            line,
            column,
            message,
        } => match py
            .import("verify_claim._errors")
            .and_then(|m| m.getattr("InputError"))
            .and_then(|c| c.call1((message, file, line, column)))
        {
            Ok(v) => PyErr::from_value(v),
            Err(e) => e,
        },
    }
}

/// `path` is a file to read; otherwise `data` is the record, shown as `name`.
#[pyfunction]
#[pyo3(signature = (path, data, name, written, ply, after, game, claim, rules))]
#[allow(clippy::too_many_arguments)]
fn decide(
    py: Python<'_>,
    path: Option<String>,
    data: Option<&[u8]>,
    name: &str,
    written: Option<String>,
    ply: Option<usize>,
    after: Option<String>,
    game: Option<usize>,
    claim: &str,
    rules: &str,
) -> PyResult<String> {
    let c = Claim {
        written: written.as_deref(),
        ply,
        after: after.as_deref(),
        game,
        claim,
        rules,
    };
    let result = py.detach(|| match (&path, &data) {
        (Some(p), _) => engine::decide(Record::Path(p), &c),
        (None, Some(bytes)) => engine::decide(Record::Bytes { name, bytes }, &c),
        (None, None) => Err(Error::Usage("decide: no record".to_owned())),
    });
    result.map_err(|e| to_py(py, e))
}

#[pyfunction]
fn check_position(py: Python<'_>, fen: &str, search: &str) -> PyResult<String> {
    py.detach(|| engine::check_position(fen, search))
        .map_err(|e| to_py(py, e))
}

/// Findings of a running scan, as batches of JSON lines (`bytes`).
#[pyclass(module = "verify_claim._native")]
struct Scan {
    rx: Mutex<Receiver<Msg>>,
    totals: Option<Totals>,
}

#[pymethods]
impl Scan {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyBytes>>> {
        if self.totals.is_some() {
            return Ok(None);
        }
        let rx = &self.rx;
        let msg = py.detach(|| rx.lock().ok().and_then(|r| r.recv().ok()));
        match msg {
            Some(Msg::Lines(b)) => Ok(Some(PyBytes::new(py, &b).unbind())),
            Some(Msg::Done(Ok(t))) => {
                self.totals = Some(t);
                Ok(None)
            }
            Some(Msg::Done(Err(mut errors))) => {
                self.totals = Some(Totals::default());
                let n = errors.len();
                let mut first = errors.swap_remove(0);
                if n > 1
                    && let Error::Input { message, .. } = &mut first
                {
                    message.push_str(&format!(" (and {} more input(s) not read)", n - 1));
                }
                Err(to_py(py, first))
            }
            None => {
                self.totals = Some(Totals::default());
                Err(PyRuntimeError::new_err("verify-claim: the scan stopped"))
            }
        }
    }

    /// `(games, lines)` read, once the scan is over.
    fn totals(&self) -> Option<(u64, u64)> {
        self.totals.map(|t| (t.games, t.lines))
    }
}

fn spawn(job: impl FnOnce(std::sync::mpsc::SyncSender<Msg>) + Send + 'static) -> Scan {
    let (tx, rx) = sync_channel(IN_FLIGHT);
    std::thread::spawn(move || job(tx));
    Scan {
        rx: Mutex::new(rx),
        totals: None,
    }
}

fn jobs_or_all(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

#[pyfunction]
fn scan_paths(
    py: Python<'_>,
    paths: Vec<String>,
    jobs: Option<usize>,
    rules: &str,
    dead_search: &str,
) -> PyResult<Scan> {
    let opts = engine::scan_options(rules, dead_search).map_err(|e| to_py(py, e))?;
    let jobs = jobs_or_all(jobs);
    Ok(spawn(move |tx| engine::scan_paths(paths, jobs, opts, tx)))
}

#[pyfunction]
fn scan_bytes(
    py: Python<'_>,
    data: &[u8],
    name: String,
    jobs: Option<usize>,
    rules: &str,
    dead_search: &str,
) -> PyResult<Scan> {
    let opts = engine::scan_options(rules, dead_search).map_err(|e| to_py(py, e))?;
    let jobs = jobs_or_all(jobs);
    let data = data.to_vec();
    Ok(spawn(move |tx| {
        engine::scan_bytes(&name, data, jobs, opts, tx)
    }))
}

/// One Spark task over a whole file (decompressed), on the task's core.
#[pyfunction]
fn scan_file(py: Python<'_>, path: String, rules: &str, dead_search: &str) -> PyResult<Scan> {
    let opts = engine::scan_options(rules, dead_search).map_err(|e| to_py(py, e))?;
    Ok(spawn(move |tx| engine::scan_file(path, opts, tx)))
}

/// One Spark task over the games that start in bytes `start..end` of a
/// plain file.
#[pyfunction]
fn scan_range(
    py: Python<'_>,
    path: String,
    start: u64,
    end: u64,
    rules: &str,
    dead_search: &str,
) -> PyResult<Scan> {
    let opts = engine::scan_options(rules, dead_search).map_err(|e| to_py(py, e))?;
    Ok(spawn(move |tx| {
        engine::scan_range(&path, (start, end), opts, tx)
    }))
}

/// The JSON lines of each record of `texts` (one game each, typically).
#[pyfunction]
fn scan_texts(
    py: Python<'_>,
    texts: Vec<Bound<'_, PyBytes>>,
    name: &str,
    rules: &str,
    dead_search: &str,
) -> PyResult<Vec<Py<PyBytes>>> {
    let opts = engine::scan_options(rules, dead_search).map_err(|e| to_py(py, e))?;
    let texts: Vec<Vec<u8>> = texts.iter().map(|t| t.as_bytes().to_vec()).collect();
    let out = py
        .detach(|| engine::scan_texts(&texts, name, &opts))
        .map_err(|e| to_py(py, e))?;
    Ok(out.iter().map(|b| PyBytes::new(py, b).unbind()).collect())
}

#[pyfunction]
fn expand(py: Python<'_>, paths: Vec<String>) -> PyResult<Vec<(String, u64, bool)>> {
    py.detach(|| engine::expand(&paths))
        .map_err(|e| to_py(py, e))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decide, m)?)?;
    m.add_function(wrap_pyfunction!(check_position, m)?)?;
    m.add_function(wrap_pyfunction!(scan_paths, m)?)?;
    m.add_function(wrap_pyfunction!(scan_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(scan_file, m)?)?;
    m.add_function(wrap_pyfunction!(scan_range, m)?)?;
    m.add_function(wrap_pyfunction!(scan_texts, m)?)?;
    m.add_function(wrap_pyfunction!(expand, m)?)?;
    m.add_class::<Scan>()?;
    Ok(())
}
