//! Findings as Arrow record batches, built here from the crate's
//! [`FindingLine`]s: the columns of `verify-claim scan --format jsonl`, in
//! its order, typed (numbers as `int64`, absent values null). Spark's tasks
//! add `_task` (which task) and `_n` (the finding's place in the task),
//! every column nullable (Spark's schema); a task's totals go back to the
//! driver by an accumulator, not as a row.

use std::sync::Arc;

use arrow_array::builder::{Int64Builder, StringBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};
use verify_claim::FindingLine;

/// Rows per batch: big enough that a batch's fixed cost (one crossing into
/// Python, one Spark Arrow message) is small against its rows.
pub const ROWS: usize = 8192;

/// `(name, type, nullable)` of the finding columns, in the JSON lines' order.
const COLUMNS: [(&str, DataType, bool); 14] = [
    ("file", DataType::Utf8, false),
    ("game", DataType::Int64, false),
    ("line", DataType::Int64, false),
    ("ply", DataType::Int64, false),
    ("kind", DataType::Utf8, false),
    ("side", DataType::Utf8, true),
    ("move", DataType::Utf8, true),
    ("message", DataType::Utf8, false),
    ("severity", DataType::Utf8, false),
    ("column", DataType::Int64, false),
    ("white", DataType::Utf8, false),
    ("black", DataType::Utf8, false),
    ("recorded", DataType::Utf8, true),
    ("expected", DataType::Utf8, true),
];

/// Spark's columns after the findings'.
const TASK_COLUMNS: [&str; 2] = ["_task", "_n"];

/// The schema of the batches; `task`: Spark's.
pub fn schema(task: bool) -> SchemaRef {
    let mut fields: Vec<Field> = COLUMNS
        .iter()
        .map(|(n, t, null)| Field::new(*n, t.clone(), *null || task))
        .collect();
    if task {
        fields.extend(TASK_COLUMNS.map(|n| Field::new(n, DataType::Int64, true)));
    }
    Arc::new(Schema::new(fields))
}

fn int(v: impl TryInto<i64>) -> i64 {
    // Game, line, ply and column numbers are far below i64::MAX.
    v.try_into().unwrap_or(i64::MAX)
}

/// Column builders for one batch.
pub struct Batch {
    schema: SchemaRef,
    task: Option<i64>,
    /// The `_n` of the next finding.
    next: i64,
    strings: [StringBuilder; 10],
    ints: [Int64Builder; 4],
    rows: usize,
}

impl Batch {
    /// Builders for findings; `task`: Spark's task number (adds the columns).
    pub fn new(task: Option<i64>) -> Batch {
        Batch {
            schema: schema(task.is_some()),
            task,
            next: 0,
            strings: std::array::from_fn(|_| StringBuilder::new()),
            ints: std::array::from_fn(|_| Int64Builder::new()),
            rows: 0,
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn push(&mut self, f: &FindingLine) {
        let [
            file,
            kind,
            side,
            mv,
            message,
            severity,
            white,
            black,
            recorded,
            expected,
        ] = &mut self.strings;
        let [game, line, ply, column] = &mut self.ints;
        file.append_value(&f.file);
        game.append_value(int(f.game));
        line.append_value(int(f.line));
        ply.append_value(int(f.ply));
        kind.append_value(f.kind.name());
        side.append_option(f.side.map(|s| s.name()));
        mv.append_option(f.mv.as_deref());
        message.append_value(&f.message);
        severity.append_value(f.severity.name());
        column.append_value(int(f.column));
        white.append_value(&f.white);
        black.append_value(&f.black);
        recorded.append_option(f.recorded.as_ref().and_then(|r| r.as_deref()));
        expected.append_option(f.expected.as_ref().and_then(|r| r.as_deref()));
        self.rows += 1;
    }

    /// The rows pushed since the last call, as one batch.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let [
            file,
            kind,
            side,
            mv,
            message,
            severity,
            white,
            black,
            recorded,
            expected,
        ] = &mut self.strings;
        let [game, line, ply, column] = &mut self.ints;
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(file.finish()),
            Arc::new(game.finish()),
            Arc::new(line.finish()),
            Arc::new(ply.finish()),
            Arc::new(kind.finish()),
            Arc::new(side.finish()),
            Arc::new(mv.finish()),
            Arc::new(message.finish()),
            Arc::new(severity.finish()),
            Arc::new(column.finish()),
            Arc::new(white.finish()),
            Arc::new(black.finish()),
            Arc::new(recorded.finish()),
            Arc::new(expected.finish()),
        ];
        if let Some(task) = self.task {
            let rows = int(self.rows);
            let tasks: Vec<i64> = vec![task; self.rows];
            let n: Vec<i64> = (self.next..self.next + rows).collect();
            self.next += rows;
            columns.push(Arc::new(arrow_array::Int64Array::from(tasks)));
            columns.push(Arc::new(arrow_array::Int64Array::from(n)));
        }
        self.rows = 0;
        RecordBatch::try_new(self.schema.clone(), columns)
    }
}
