//! The per-game table as Arrow record batches (`scan_games`, Spark's
//! `scan_games_files`): the crate's [`GameLine`]s, one row per game, built
//! into typed columns here as the scan delivers them, with the scan's
//! progress (bytes read of the total) sent between the batches.

use std::io;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use arrow_array::builder::{BooleanBuilder, Float64Builder, Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3_arrow::{PyRecordBatch, PySchema};
use verify_claim::{Diagnostic, GameLine, GameResult, Kind, Row, ScanSettings, Source};

use crate::batches::ROWS;
use crate::engine::{Error, Totals, What, unflagged};
use crate::{IN_FLIGHT, Settings, to_py};

/// What the per-game scan sends to the consumer.
enum Msg {
    Batch(RecordBatch),
    /// Bytes read, of the total (0: unknown).
    Progress(u64, u64),
    Done(Result<Totals, Vec<Error>>),
}

/// A column's type: string, integer, boolean or float.
#[derive(Clone, Copy)]
enum T {
    S,
    I,
    B,
    F,
}

/// `(name, type, nullable)`, in the CLI's `--per-game` order.
const COLUMNS: [(&str, T, bool); 28] = [
    ("file", T::S, false),
    ("game", T::I, false),
    ("line", T::I, false),
    ("site", T::S, true),
    ("event", T::S, true),
    ("date", T::S, true),
    ("round", T::S, true),
    ("white", T::S, true),
    ("black", T::S, true),
    ("white_elo", T::I, true),
    ("black_elo", T::I, true),
    ("time_control", T::S, true),
    ("eco", T::S, true),
    ("termination", T::S, true),
    ("result", T::S, true),
    ("plies", T::I, false),
    ("laws_result", T::S, true),
    ("ended_by", T::S, true),
    ("ended_ply", T::I, true),
    ("result_agrees", T::B, true),
    ("first_threefold_claimable_ply", T::I, true),
    ("first_fifty_claimable_ply", T::I, true),
    ("plies_after_first_claimable", T::I, true),
    ("clock_white", T::F, true),
    ("clock_black", T::F, true),
    ("error", T::S, true),
    ("error_ply", T::I, true),
    ("findings", T::I, false),
];

/// Spark's columns after the table's: the task, the row's place in it, and
/// the error's parts (its line moves on by the games before the task, as
/// `line` does; the driver writes `error` again from them).
const TASK_COLUMNS: [(&str, T); 5] = [
    ("_task", T::I),
    ("_n", T::I),
    ("_error_line", T::I),
    ("_error_column", T::I),
    ("_error_message", T::S),
];

fn data_type(t: T) -> DataType {
    match t {
        T::S => DataType::Utf8,
        T::I => DataType::Int64,
        T::B => DataType::Boolean,
        T::F => DataType::Float64,
    }
}

/// The schema of the batches; `task`: Spark's (every column nullable).
pub fn schema(task: bool) -> SchemaRef {
    let mut fields: Vec<Field> = COLUMNS
        .iter()
        .map(|(n, t, null)| Field::new(*n, data_type(*t), *null || task))
        .collect();
    if task {
        fields.extend(TASK_COLUMNS.map(|(n, t)| Field::new(n, data_type(t), true)));
    }
    Arc::new(Schema::new(fields))
}

fn int(v: usize) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// One column's builder.
enum Column {
    S(StringBuilder),
    I(Int64Builder),
    B(BooleanBuilder),
    F(Float64Builder),
}

impl Column {
    fn new(t: T) -> Column {
        match t {
            T::S => Column::S(StringBuilder::new()),
            T::I => Column::I(Int64Builder::new()),
            T::B => Column::B(BooleanBuilder::new()),
            T::F => Column::F(Float64Builder::new()),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Column::S(b) => Arc::new(b.finish()),
            Column::I(b) => Arc::new(b.finish()),
            Column::B(b) => Arc::new(b.finish()),
            Column::F(b) => Arc::new(b.finish()),
        }
    }
}

/// A value for a column.
enum V<'a> {
    S(Option<&'a str>),
    I(Option<i64>),
    B(Option<bool>),
    F(Option<f64>),
}

/// The row's values in [`COLUMNS`]' order.
fn values(g: &GameLine) -> [V<'_>; 28] {
    let i = |v: Option<usize>| V::I(v.map(int));
    [
        V::S(Some(&g.file)),
        i(Some(g.game)),
        V::I(Some(i64::from(g.line))),
        V::S(g.site()),
        V::S(g.event()),
        V::S(g.date()),
        V::S(g.round()),
        V::S(g.white()),
        V::S(g.black()),
        V::I(g.white_elo),
        V::I(g.black_elo),
        V::S(g.time_control()),
        V::S(g.eco()),
        V::S(g.termination()),
        V::S(g.result()),
        i(Some(g.plies)),
        V::S(g.laws_result.map(GameResult::name)),
        V::S(g.ended_by.map(Kind::name)),
        i(g.ended_ply),
        V::B(g.result_agrees),
        i(g.first_threefold_claimable_ply),
        i(g.first_fifty_claimable_ply),
        i(g.plies_after_first_claimable),
        V::F(g.clock_white),
        V::F(g.clock_black),
        V::S(g.error.as_deref()),
        i(g.error_ply),
        i(Some(g.findings)),
    ]
}

/// `file:line:col: message` taken apart (the file is the row's own).
fn error_parts<'a>(file: &str, error: &'a str) -> Option<(i64, i64, &'a str)> {
    let rest = error.strip_prefix(file)?.strip_prefix(':')?;
    let (line, rest) = rest.split_once(':')?;
    let (col, message) = rest.split_once(": ")?;
    Some((line.parse().ok()?, col.parse().ok()?, message))
}

/// Column builders for one batch of rows.
pub struct Batch {
    schema: SchemaRef,
    task: Option<i64>,
    next: i64,
    columns: Vec<Column>,
    rows: usize,
}

impl Batch {
    pub fn new(task: Option<i64>) -> Batch {
        let schema = schema(task.is_some());
        let mut columns: Vec<Column> = COLUMNS.iter().map(|(_, t, _)| Column::new(*t)).collect();
        if task.is_some() {
            columns.extend(TASK_COLUMNS.iter().map(|(_, t)| Column::new(*t)));
        }
        Batch {
            schema,
            task,
            next: 0,
            columns,
            rows: 0,
        }
    }

    pub fn push(&mut self, g: &GameLine) {
        let mut vs: Vec<V<'_>> = values(g).into();
        if let Some(task) = self.task {
            let parts = g.error.as_deref().and_then(|e| error_parts(&g.file, e));
            vs.extend([
                V::I(Some(task)),
                V::I(Some(self.next)),
                V::I(parts.map(|p| p.0)),
                V::I(parts.map(|p| p.1)),
                V::S(parts.map(|p| p.2)),
            ]);
            self.next += 1;
        }
        for (c, v) in self.columns.iter_mut().zip(vs) {
            match (c, v) {
                (Column::S(b), V::S(v)) => b.append_option(v),
                (Column::I(b), V::I(v)) => b.append_option(v),
                (Column::B(b), V::B(v)) => b.append_option(v),
                (Column::F(b), V::F(v)) => b.append_option(v),
                // The two lists are written in the same order.
                _ => unreachable!("a column and its value differ in type"),
            }
        }
        self.rows += 1;
    }

    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        self.rows = 0;
        let columns = self.columns.iter_mut().map(Column::finish).collect();
        RecordBatch::try_new(self.schema.clone(), columns)
    }
}

/// The scan's sink: rows into batches, batches and progress to the
/// consumer (a consumer gone away is a broken pipe, which stops the scan).
struct Sink {
    tx: SyncSender<Msg>,
    batch: Batch,
    errors: Vec<Error>,
    /// The last progress sent, and how far it must move before the next.
    sent: u64,
    report: bool,
}

impl Sink {
    fn send(&self, msg: Msg) -> io::Result<()> {
        self.tx
            .send(msg)
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }

    fn flush(&mut self, last: bool) -> io::Result<()> {
        if self.batch.rows == 0 && !last {
            return Ok(());
        }
        let b = self.batch.finish().map_err(io::Error::other)?;
        self.send(Msg::Batch(b))
    }
}

impl verify_claim::Sink for Sink {
    fn needs(&self) -> verify_claim::Needs {
        verify_claim::Needs {
            games: true,
            ..Default::default()
        }
    }
    fn finding(&mut self, _row: &Row<'_>) -> io::Result<()> {
        Ok(())
    }
    fn game(&mut self, g: &GameLine) -> io::Result<()> {
        self.batch.push(g);
        if self.batch.rows >= ROWS {
            self.flush(false)?;
        }
        Ok(())
    }
    fn input_error(&mut self, d: &Diagnostic) -> io::Result<()> {
        self.errors.push(unflagged(d.clone()));
        Ok(())
    }
    /// Sent at most about 200 times a scan (each 0.5% of the bytes), and
    /// always at the end; the consumer calls `progress=` with it.
    fn progress(&mut self, done: u64, total: u64) {
        if self.report && (done >= self.sent + total / 200 || done == total) && done > self.sent {
            self.sent = done;
            let _ = self.tx.send(Msg::Progress(done, total));
        }
    }
}

/// Runs the per-game scan of `what`, blocking until it is over: batches of
/// rows (`task`: Spark's, with its columns) and, when `progress`, the
/// bytes read, then one `Done`.
fn scan(
    what: What,
    settings: &ScanSettings,
    task: Option<i64>,
    progress: bool,
    tx: SyncSender<Msg>,
) {
    let source = match what {
        What::Paths(paths) => Source::Paths(paths),
        What::Bytes { name, data } => Source::Reader {
            name,
            reader: Box::new(io::Cursor::new(data)),
        },
        What::File(path) => Source::File(path),
        What::Range { path, start, end } => Source::Range { path, start, end },
        What::Frames { path, first, end } => Source::Frames { path, first, end },
    };
    let mut sink = Sink {
        tx,
        batch: Batch::new(task),
        errors: Vec::new(),
        sent: 0,
        report: progress,
    };
    let done = match verify_claim::scan_to(source, settings, &mut sink) {
        Ok(s) if sink.errors.is_empty() => Ok(Totals {
            games: s.games as u64,
            lines: s.lines,
        }),
        Ok(_) => Err(std::mem::take(&mut sink.errors)),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return,
        Err(e) => Err(vec![Error::Failed(e.to_string())]),
    };
    if sink.flush(true).is_ok() {
        let _ = sink.tx.send(Msg::Done(done));
    }
}

/// The rows of a running per-game scan: `pyarrow.RecordBatch`es; the
/// progress callback is called (on the consumer's thread, with the GIL)
/// as the bytes read move on.
#[pyclass(module = "verify_claim._native")]
pub struct GameScan {
    rx: Mutex<Receiver<Msg>>,
    totals: Option<Totals>,
    progress: Option<Py<PyAny>>,
}

#[pymethods]
impl GameScan {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        loop {
            if self.totals.is_some() {
                return Ok(None);
            }
            let rx = &self.rx;
            let msg = py.detach(|| rx.lock().ok().and_then(|r| r.recv().ok()));
            match msg {
                Some(Msg::Batch(b)) => return PyRecordBatch::new(b).into_pyarrow(py).map(Some),
                Some(Msg::Progress(done, total)) => {
                    if let Some(f) = &self.progress {
                        f.call1(py, (done, total))?;
                    }
                }
                Some(Msg::Done(Ok(t))) => self.totals = Some(t),
                Some(Msg::Done(Err(mut errors))) => {
                    self.totals = Some(Totals::default());
                    if errors.is_empty() {
                        return Err(PyRuntimeError::new_err("verify-claim: the scan failed"));
                    }
                    let n = errors.len();
                    let mut first = errors.swap_remove(0);
                    if n > 1
                        && let Error::Input { message, .. } = &mut first
                    {
                        message.push_str(&format!(" (and {} more input(s) not read)", n - 1));
                    }
                    return Err(to_py(py, first));
                }
                None => {
                    self.totals = Some(Totals::default());
                    return Err(PyRuntimeError::new_err("verify-claim: the scan stopped"));
                }
            }
        }
    }

    /// `(games, lines)` read, once the scan is over.
    fn totals(&self) -> Option<(u64, u64)> {
        self.totals.map(|t| (t.games, t.lines))
    }
}

fn spawn(
    what: What,
    settings: ScanSettings,
    task: Option<i64>,
    progress: Option<Py<PyAny>>,
) -> GameScan {
    let (tx, rx) = sync_channel(IN_FLIGHT);
    let report = progress.is_some();
    std::thread::spawn(move || scan(what, &settings, task, report, tx));
    GameScan {
        rx: Mutex::new(rx),
        totals: None,
        progress,
    }
}

/// `scan_games`: files and directories, walked as `scan` walks them.
#[pyfunction]
#[pyo3(signature = (paths, settings, progress=None))]
pub fn scan_games_paths(
    paths: Vec<std::path::PathBuf>,
    settings: &Settings,
    progress: Option<Py<PyAny>>,
) -> GameScan {
    spawn(What::Paths(paths), settings.0, None, progress)
}

/// A Spark task's per-game scan, on one core: a whole file (`first`,
/// `end` unused), bytes `first..end` of a plain file (`range`), or frame
/// runs `first..end` of a multi-frame `.zst` (`frames`).
#[pyfunction]
pub fn scan_games_task(
    path: String,
    piece: &str,
    first: u64,
    end: u64,
    settings: &Settings,
    task: i64,
) -> PyResult<GameScan> {
    let what = match piece {
        "file" => What::File(path),
        "range" => What::Range {
            path,
            start: first,
            end,
        },
        "frames" => What::Frames { path, first, end },
        other => {
            let m = format!("scan_games_task: no piece {other:?}");
            return Err(pyo3::exceptions::PyValueError::new_err(m));
        }
    };
    let one = ScanSettings {
        jobs: Some(1),
        ..settings.0
    };
    Ok(spawn(what, one, Some(task), None))
}

/// The schema of the per-game batches (`task`: with Spark's columns).
#[pyfunction]
pub fn game_schema(py: Python<'_>, task: bool) -> PyResult<Bound<'_, PyAny>> {
    PySchema::new(schema(task)).into_pyarrow(py)
}
