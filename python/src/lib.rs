//! The native module `verify_claim._native`: thin wrappers over
//! [`engine`], which holds every call into the crate, and [`options`],
//! which checks the keyword arguments. Claims and positions cross as the
//! crate's own JSON text; findings as JSON lines (for `scan`'s dicts) or as
//! Arrow record batches built in Rust (`scan_arrow`, Spark), handed to
//! pyarrow through the Arrow C data interface (pyo3-arrow).
#![forbid(unsafe_code)]

mod batches;
mod engine;
mod errors;
mod games;
mod options;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

use arrow_array::{Array, ArrayRef, BinaryArray, LargeBinaryArray, LargeStringArray, StringArray};
use arrow_schema::{DataType, Field};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use pyo3_arrow::{PyArray, PyRecordBatch, PySchema};

use engine::{Error, Form, Msg, Record, Totals, What};
use verify_claim::{ScanSettings, Stop};

/// Batches in flight between a scan and its consumer: the scan waits when
/// the consumer does not keep up, so memory stays bounded.
const IN_FLIGHT: usize = 8;

/// How long a wait for Rust work lasts, with the GIL released, between two
/// looks for a signal (Ctrl-C): the interpreter runs its handlers only when
/// a thread holding the GIL asks.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Receives from `rx`, looking for signals between short waits: a signal
/// handler's exception (`KeyboardInterrupt`) stops `stop`'s work and is
/// returned; `Ok(None)`: the sender is gone.
fn recv_or_signal<T: Send>(
    py: Python<'_>,
    rx: &Mutex<Receiver<T>>,
    stop: &Stop,
) -> PyResult<Option<T>> {
    loop {
        let got = py.detach(|| match rx.lock() {
            Ok(r) => r.recv_timeout(SIGNAL_CHECK),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        });
        match got {
            Ok(v) => return Ok(Some(v)),
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    stop.stop();
                    return Err(e);
                }
            }
        }
    }
}

/// A count keyword (`game`, `ply`, `jobs`, `min_draw_moves`): a Python int
/// of any size; a negative one or one too large is a `ValueError` naming
/// the keyword (`ply=-1: ...`), not pyo3's `OverflowError` naming none.
fn count<T: TryFrom<u64>>(
    keyword: &str,
    value: Option<&Bound<'_, PyAny>>,
    negative: &str,
) -> PyResult<Option<T>> {
    let Some(v) = value else { return Ok(None) };
    if v.is_none() {
        return Ok(None);
    }
    match v.extract::<u64>() {
        Ok(n) => T::try_from(n)
            .map(Some)
            .map_err(|_| PyValueError::new_err(format!("{keyword}={n}: too large"))),
        // Not an int: pyo3's own `TypeError`, naming the argument.
        Err(e) if !v.is_instance_of::<pyo3::types::PyInt>() => Err(e),
        Err(_) if v.lt(0)? => Err(PyValueError::new_err(format!("{keyword}={v}: {negative}"))),
        Err(_) => Err(PyValueError::new_err(format!("{keyword}={v}: too large"))),
    }
}

/// The Python exception: chosen by the error's kind ([`errors`]).
fn to_py(py: Python<'_>, e: Error) -> PyErr {
    match e {
        Error::Usage(m) => PyValueError::new_err(m),
        Error::Failed(m) => PyRuntimeError::new_err(m),
        Error::Input {
            kind,
            file,
            line,
            column,
            message,
        } => errors::input_error(py, kind, file, line, column, message),
    }
}

/// `path` is a file to read (any path the OS takes: `str`, `bytes`,
/// path-like); otherwise `data` is the record, shown as `name`. The claim
/// runs on a thread of its own while this one waits, looking for signals:
/// Ctrl-C raises `KeyboardInterrupt` at once and stops the reading.
#[pyfunction]
#[pyo3(signature = (path, data, name, *, r#move=None, after=None, ply=None, game=None,
    claim="any", claimant=None, rules="auto", game_type="auto", column_rules="standard",
    encoding="auto", dead_search="full"))]
#[allow(clippy::too_many_arguments)]
fn decide(
    py: Python<'_>,
    path: Option<PathBuf>,
    data: Option<Vec<u8>>,
    name: String,
    r#move: Option<String>,
    after: Option<String>,
    ply: Option<&Bound<'_, PyAny>>,
    game: Option<&Bound<'_, PyAny>>,
    claim: &str,
    claimant: Option<&str>,
    rules: &str,
    game_type: &str,
    column_rules: &str,
    encoding: &str,
    dead_search: &str,
) -> PyResult<String> {
    let first = "games are counted from 1 (the first game of the file is game=1)";
    let opts = options::claim_options(options::ClaimArgs {
        written: r#move,
        after,
        ply: count("ply", ply, "expected 0 or more (plies from the start)")?,
        game: count("game", game, first)?,
        claim,
        claimant,
        rules,
        game_type,
        column_rules,
        encoding,
        dead_search,
    })
    .map_err(|e| to_py(py, e))?;
    let stop = Stop::default();
    let (tx, rx) = sync_channel(1);
    let stopper = stop.clone();
    std::thread::spawn(move || {
        let result = match (&path, &data) {
            (Some(p), _) => engine::decide(Record::Path(p), &opts, &stopper),
            (None, Some(bytes)) => {
                engine::decide(Record::Bytes { name: &name, bytes }, &opts, &stopper)
            }
            (None, None) => Err(Error::Usage("decide: no record".to_owned())),
        };
        let _ = tx.send(result);
    });
    match recv_or_signal(py, &Mutex::new(rx), &stop)? {
        Some(result) => result.map_err(|e| to_py(py, e)),
        None => Err(PyRuntimeError::new_err(
            "verify-claim: the claim's thread failed",
        )),
    }
}

/// `verify-claim reconstruct --format json` on in-memory sheets
/// (`(name, bytes)` each).
#[pyfunction]
#[pyo3(signature = (sheets, *, notation="auto", candidates=5, game_type="auto",
    column_rules="standard"))]
fn reconstruct(
    py: Python<'_>,
    sheets: Vec<(String, Vec<u8>)>,
    notation: &str,
    candidates: usize,
    game_type: &str,
    column_rules: &str,
) -> PyResult<String> {
    let opts =
        sheet_options(notation, candidates, game_type, column_rules).map_err(|e| to_py(py, e))?;
    py.detach(|| engine::reconstruct(&sheet_list(sheets), &opts))
        .map_err(|e| to_py(py, e))
}

/// `verify-claim claim --sheet ... --format json`.
#[pyfunction]
#[pyo3(signature = (sheets, *, notation="auto", candidates=5, r#move=None, after=None,
    ply=None, claim="any", claimant=None, rules="auto", game_type="auto",
    column_rules="standard", dead_search="full"))]
#[allow(clippy::too_many_arguments)]
fn decide_sheets(
    py: Python<'_>,
    sheets: Vec<(String, Vec<u8>)>,
    notation: &str,
    candidates: usize,
    r#move: Option<String>,
    after: Option<String>,
    ply: Option<usize>,
    claim: &str,
    claimant: Option<&str>,
    rules: &str,
    game_type: &str,
    column_rules: &str,
    dead_search: &str,
) -> PyResult<String> {
    let read =
        sheet_options(notation, candidates, game_type, column_rules).map_err(|e| to_py(py, e))?;
    let opts = options::claim_options(options::ClaimArgs {
        written: r#move,
        after,
        ply,
        game: None,
        claim,
        claimant,
        rules,
        game_type,
        column_rules,
        encoding: "auto",
        dead_search,
    })
    .map_err(|e| to_py(py, e))?;
    py.detach(|| engine::decide_sheets(&sheet_list(sheets), &read, &opts))
        .map_err(|e| to_py(py, e))
}

fn sheet_list(sheets: Vec<(String, Vec<u8>)>) -> Vec<verify_claim::Sheet> {
    sheets
        .into_iter()
        .map(|(name, text)| verify_claim::Sheet { name, text })
        .collect()
}

fn sheet_options(
    notation: &str,
    candidates: usize,
    game_type: &str,
    column_rules: &str,
) -> Result<verify_claim::ReconstructOptions, Error> {
    if candidates == 0 {
        return Err(Error::Usage("candidates: at least 1".to_owned()));
    }
    const CODES: [&str; 14] = [
        "auto", "en", "ru", "de", "fr", "es", "it", "nl", "pl", "cs", "hu", "sv", "figurine",
        "draughts",
    ];
    if !CODES.contains(&notation) {
        return Err(Error::Usage(format!(
            "notation: {notation:?} is not one of {}",
            CODES.join(", ")
        )));
    }
    Ok(verify_claim::ReconstructOptions {
        notation: Some(notation.to_owned()),
        candidates,
        game_type: options::game_type(game_type, true)?,
        column_rules: options::column_rules(column_rules)?,
        ..verify_claim::ReconstructOptions::default()
    })
}

#[pyfunction]
#[pyo3(signature = (fen, *, side=None, dead_search="full", game_type="chess",
    column_rules="standard"))]
fn check_position(
    py: Python<'_>,
    fen: &str,
    side: Option<&str>,
    dead_search: &str,
    game_type: &str,
    column_rules: &str,
) -> PyResult<String> {
    let opts = options::position_options(side, dead_search, game_type, column_rules)
        .map_err(|e| to_py(py, e))?;
    py.detach(|| engine::check_position(fen, &opts))
        .map_err(|e| to_py(py, e))
}

/// A scan's options, checked once (`verify_claim.scan`'s keywords).
#[pyclass(module = "verify_claim._native", frozen)]
struct Settings(ScanSettings);

#[pymethods]
impl Settings {
    #[new]
    #[pyo3(signature = (*, jobs=None, rules="auto", game_type="auto", column_rules="standard",
        encoding="auto", dead_search="quick", min_severity="info", min_draw_moves=None,
        follow=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        jobs: Option<&Bound<'_, PyAny>>,
        rules: &str,
        game_type: &str,
        column_rules: &str,
        encoding: &str,
        dead_search: &str,
        min_severity: &str,
        min_draw_moves: Option<&Bound<'_, PyAny>>,
        follow: bool,
    ) -> PyResult<Settings> {
        let jobs = count("jobs", jobs, "expected at least 1 (None: every core)")?;
        let min_draw_moves = count(
            "min_draw_moves",
            min_draw_moves,
            "expected 0 or more (a move number)",
        )?;
        options::scan_settings(options::ScanArgs {
            jobs,
            rules,
            game_type,
            column_rules,
            encoding,
            dead_search,
            min_severity,
            min_draw_moves,
            follow,
        })
        .map(Settings)
        .map_err(|e| to_py(py, e))
    }
}

/// Findings of a running scan: batches of JSON lines (`bytes`) or
/// `pyarrow.RecordBatch`es.
#[pyclass(module = "verify_claim._native")]
struct Scan {
    rx: Mutex<Receiver<Msg>>,
    totals: Option<Totals>,
    /// Stops the scan's threads: when this is dropped (`del`, a closed
    /// Arrow reader) or interrupted.
    stop: Stop,
}

impl Drop for Scan {
    fn drop(&mut self) {
        self.stop.stop();
    }
}

#[pymethods]
impl Scan {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.totals.is_some() {
            return Ok(None);
        }
        let msg = recv_or_signal(py, &self.rx, &self.stop)?;
        match msg {
            Some(Msg::Lines(b)) => Ok(Some(PyBytes::new(py, &b).into_any())),
            Some(Msg::Batch(b)) => PyRecordBatch::new(b).into_pyarrow(py).map(Some),
            Some(Msg::Done(Ok(t))) => {
                self.totals = Some(t);
                Ok(None)
            }
            Some(Msg::Done(Err(mut errors))) => {
                self.totals = Some(Totals::default());
                let n = errors.len();
                if n == 0 {
                    return Err(PyRuntimeError::new_err("verify-claim: the scan failed"));
                }
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

fn spawn(what: What, settings: ScanSettings, form: Form) -> Scan {
    let (tx, rx) = sync_channel(IN_FLIGHT);
    let findings = engine::start(what, &settings);
    let stop = findings.stopper();
    std::thread::spawn(move || engine::drain(findings, form, tx));
    Scan {
        rx: Mutex::new(rx),
        totals: None,
        stop,
    }
}

fn form(arrow: bool) -> Form {
    if arrow { Form::Arrow(None) } else { Form::Json }
}

#[pyfunction]
fn scan_paths(paths: Vec<PathBuf>, settings: &Settings, arrow: bool) -> Scan {
    spawn(What::Paths(paths), settings.0, form(arrow))
}

#[pyfunction]
fn scan_bytes(data: Vec<u8>, name: String, settings: &Settings, arrow: bool) -> Scan {
    spawn(What::Bytes { name, data }, settings.0, form(arrow))
}

/// One Spark task over a whole file (decompressed), on the task's core:
/// Arrow batches with `_task` and `_n`.
#[pyfunction]
fn scan_file(path: String, settings: &Settings, task: i64) -> Scan {
    spark_task(What::File(path), settings, task)
}

/// One Spark task over the games that start in bytes `start..end` of a
/// plain file.
#[pyfunction]
fn scan_range(path: String, start: u64, end: u64, settings: &Settings, task: i64) -> Scan {
    spark_task(What::Range { path, start, end }, settings, task)
}

/// A Spark task's scan: on one core, Arrow batches with `_task` and `_n`.
fn spark_task(what: What, settings: &Settings, task: i64) -> Scan {
    let one = ScanSettings {
        jobs: Some(1),
        ..settings.0
    };
    spawn(what, one, Form::Arrow(Some(task)))
}

/// One Spark task over the games that start in frame runs `first..end` of
/// a multi-frame `.zst`.
#[pyfunction]
fn scan_frames(path: String, first: u64, end: u64, settings: &Settings, task: i64) -> Scan {
    spark_task(What::Frames { path, first, end }, settings, task)
}

/// The schema of the finding batches (`task`: with `_task` and `_n`).
#[pyfunction]
fn finding_schema(py: Python<'_>, task: bool) -> PyResult<Bound<'_, PyAny>> {
    PySchema::new(batches::schema(task)).into_pyarrow(py)
}

/// The records of an Arrow string or binary array (one game each, as
/// tables store them; nulls hold no game), each as bytes.
fn records(array: &ArrayRef) -> PyResult<Vec<Option<&[u8]>>> {
    let any = array.as_any();
    let out = if let Some(a) = any.downcast_ref::<StringArray>() {
        a.iter().map(|s| s.map(str::as_bytes)).collect()
    } else if let Some(a) = any.downcast_ref::<LargeStringArray>() {
        a.iter().map(|s| s.map(str::as_bytes)).collect()
    } else if let Some(a) = any.downcast_ref::<BinaryArray>() {
        a.iter().collect()
    } else if let Some(a) = any.downcast_ref::<LargeBinaryArray>() {
        a.iter().collect()
    } else {
        return Err(PyTypeError::new_err(format!(
            "the PGN column holds {}, not strings or binary",
            array.data_type()
        )));
    };
    Ok(out)
}

/// The findings of each record of an Arrow string or binary array, as a
/// `pyarrow.ListArray` of finding structs, one list per record.
#[pyfunction]
fn scan_array(
    py: Python<'_>,
    texts: PyArray,
    name: &str,
    settings: &Settings,
) -> PyResult<Py<PyAny>> {
    let (array, _) = texts.into_inner();
    let texts = records(&array)?;
    let one = ScanSettings {
        jobs: Some(1),
        ..settings.0
    };
    let list = py
        .detach(|| -> Result<ArrayRef, Error> {
            let (batch, offsets) = engine::scan_texts(&texts, name, &one)?;
            let values = arrow_array::StructArray::from(batch);
            let item = Field::new("item", DataType::Struct(values.fields().clone()), false);
            let offsets = arrow_buffer_offsets(offsets);
            arrow_array::ListArray::try_new(Arc::new(item), offsets, Arc::new(values), None)
                .map(|l| Arc::new(l) as ArrayRef)
                .map_err(|e| Error::Failed(e.to_string()))
        })
        .map_err(|e| to_py(py, e))?;
    let list = PyArray::from_array_ref(list);
    list.to_pyarrow(py).map(Bound::unbind)
}

/// List offsets from running counts (never decreasing, as built).
fn arrow_buffer_offsets(offsets: Vec<i32>) -> arrow_buffer::OffsetBuffer<i32> {
    arrow_buffer::OffsetBuffer::new(arrow_buffer::ScalarBuffer::from(offsets))
}

#[pyfunction]
#[pyo3(signature = (paths, follow=false))]
fn expand(py: Python<'_>, paths: Vec<String>, follow: bool) -> PyResult<Vec<engine::Listed>> {
    py.detach(|| engine::expand(&paths, follow))
        .map_err(|e| to_py(py, e))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", verify_claim::VERSION)?;
    errors::add(m)?;
    m.add_function(wrap_pyfunction!(decide, m)?)?;
    m.add_function(wrap_pyfunction!(check_position, m)?)?;
    m.add_function(wrap_pyfunction!(reconstruct, m)?)?;
    m.add_function(wrap_pyfunction!(decide_sheets, m)?)?;
    m.add_function(wrap_pyfunction!(scan_paths, m)?)?;
    m.add_function(wrap_pyfunction!(scan_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(scan_file, m)?)?;
    m.add_function(wrap_pyfunction!(scan_range, m)?)?;
    m.add_function(wrap_pyfunction!(scan_frames, m)?)?;
    m.add_function(wrap_pyfunction!(scan_array, m)?)?;
    m.add_function(wrap_pyfunction!(finding_schema, m)?)?;
    m.add_function(wrap_pyfunction!(expand, m)?)?;
    m.add_function(wrap_pyfunction!(games::scan_games_paths, m)?)?;
    m.add_function(wrap_pyfunction!(games::scan_games_task, m)?)?;
    m.add_function(wrap_pyfunction!(games::game_schema, m)?)?;
    m.add_class::<games::GameScan>()?;
    m.add_class::<Scan>()?;
    m.add_class::<Settings>()?;
    Ok(())
}
