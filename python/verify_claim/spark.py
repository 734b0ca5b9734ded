"""verify-claim on Apache Spark: scans of archives that outgrow one machine.

- :func:`scan_files`: files (and, for large plain PGN files, byte ranges
  cut at game starts) spread over the executors; one row per finding,
  with the columns of ``verify-claim scan --format jsonl``, in the CLI's
  order.
- :func:`scan_column`: tables holding one game's PGN per row (as lichess
  pipelines store the database in Parquet); the findings of each row are
  added as an array column.

Each partition runs the Rust scan (``mapInArrow``, with the GIL released);
the rows are the crate's own JSON lines read by Arrow's JSON reader. The
package must be installed on every executor (see docs/python.md#on-a-cluster), and the paths
given to :func:`scan_files` must be readable at the same path on each (a
shared file system; in local mode, any local path).
"""

import io
import os
from typing import Any, Iterator, List, Optional, Sequence, Tuple, Union

from . import _native

__all__ = ["scan_files", "scan_column", "FINDING_DDL"]

#: The JSON-lines columns, in their order in the CLI's output.
FINDING_DDL = (
    "file string, game long, line long, ply long, kind string, side string, "
    "move string, message string, severity string, column long, white string, "
    "black string, recorded string, expected string"
)
COLUMNS = [c.split()[0] for c in FINDING_DDL.split(", ")]

#: Plain files larger than this are cut into byte ranges of about this size.
SPLIT_BYTES = 128 << 20

_TASK_DDL = "_task long, path string, start long, end long, whole boolean"
_RAW_DDL = FINDING_DDL + ", _task long, _n long, _games long, _lines long"

PathArg = Union[str, "os.PathLike[str]"]


def _arrow_schema() -> Any:
    import pyarrow as pa

    types = {"string": pa.string(), "long": pa.int64()}
    return pa.schema([(c.split()[0], types[c.split()[1]]) for c in FINDING_DDL.split(", ")])


def _read_lines(data: bytes) -> Any:
    """The crate's JSON lines as an Arrow table of the finding columns."""
    import pyarrow as pa
    import pyarrow.json as pj

    schema = _arrow_schema()
    if not data:
        return schema.empty_table()
    opts = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    table = pj.read_json(
        io.BytesIO(data),
        read_options=pj.ReadOptions(block_size=max(1 << 20, len(data) + 1)),
        parse_options=opts,
    )
    return table.select(schema.names).cast(schema)


def _tasks(paths: Sequence[str], split_bytes: int) -> List[Tuple[Tuple[Any, ...], int]]:
    """One task per compressed or small file; byte ranges of about
    ``split_bytes`` for large plain ones (the crate's range scan holds the
    games that start in the range, so the ranges of one file meet exactly).
    Each with its size in bytes."""
    step = max(1, split_bytes)
    tasks: List[Tuple[Tuple[Any, ...], int]] = []
    for path, size, plain in _native.expand(list(paths)):
        if not plain or size <= split_bytes:
            tasks.append(((len(tasks), path, 0, 0, True), size))
            continue
        for start in range(0, size, step):
            end = min(start + step, size)
            tasks.append(((len(tasks), path, start, end, False), end - start))
    return tasks


def _partitions(
    tasks: List[Tuple[Tuple[Any, ...], int]], split_bytes: int, parallelism: int
) -> List[List[Tuple[Any, ...]]]:
    """The tasks packed, in order, into partitions of about ``split_bytes``
    of input each, and into at least ``parallelism`` partitions when there
    are enough tasks. Each partition costs Spark a Python worker round trip
    and an Arrow exchange, far more than scanning a small file: an archive
    of many small files must not become as many partitions."""
    total = sum(size for _, size in tasks)
    target = max(1, min(split_bytes, total // max(1, parallelism)))
    groups: List[List[Tuple[Any, ...]]] = []
    filled = target
    for task, size in tasks:
        if filled + size > target and filled > 0:
            groups.append([])
            filled = 0
        groups[-1].append(task)
        filled += size
    return groups


def _scan_tasks(rules: str, dead_search: str) -> Any:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in batches:
            for t in batch.to_pylist():
                yield from _scan_task(t, rules, dead_search, pa)

    return run


def _scan_task(t: dict, rules: str, dead_search: str, pa: Any) -> Iterator[Any]:
    if t["whole"]:
        native = _native.scan_file(t["path"], rules, dead_search)
    else:
        native = _native.scan_range(t["path"], t["start"], t["end"], rules, dead_search)
    n = 0
    for data in native:
        table = _read_lines(data)
        rows = table.num_rows
        extra = {
            "_task": pa.array([t["_task"]] * rows, pa.int64()),
            "_n": pa.array(range(n, n + rows), pa.int64()),
            "_games": pa.nulls(rows, pa.int64()),
            "_lines": pa.nulls(rows, pa.int64()),
        }
        for name, col in extra.items():
            table = table.append_column(name, col)
        n += rows
        yield from table.to_batches()
    games, lines = native.totals()
    summary = {c: [None] for c in COLUMNS}
    summary.update({"_task": [t["_task"]], "_n": [None], "_games": [games], "_lines": [lines]})
    yield pa.RecordBatch.from_pydict(summary, schema=_raw_arrow_schema(pa))


def _raw_arrow_schema(pa: Any) -> Any:
    s = _arrow_schema()
    for name in ("_task", "_n", "_games", "_lines"):
        s = s.append(pa.field(name, pa.int64()))
    return s


def scan_files(
    spark: Any,
    paths: Union[PathArg, Sequence[PathArg]],
    rules: str = "auto",
    dead_search: str = "quick",
    split_bytes: int = SPLIT_BYTES,
) -> Any:
    """Scan files and directories on the cluster; a DataFrame of findings.

    :param spark: the ``SparkSession``.
    :param paths: a path or a list of paths: files (``.pgn``, ``.pdn``,
        ``.zst``, ``.gz``, ``.bz2``) and directories (recursive), as in
        ``verify-claim scan``.
    :param rules: ``"auto"`` or an edition such as ``"fide-2023"``.
    :param dead_search: ``"quick"`` or ``"full"``.
    :param split_bytes: plain files larger than this are cut into byte ranges
        of about this size, at game boundaries; compressed files are one task
        each.
    :returns: one row per finding with the JSON-lines columns
        (:data:`FINDING_DDL`), ordered as the CLI prints them. When files
        are cut into ranges, the scan's result is persisted (the game and
        line numbers of a range depend on the ranges before it).
    :raises InputError: on the driver, for a path that cannot be read.
    """
    from pyspark.sql import functions as F

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    plain = [os.fsdecode(os.fspath(p)) for p in paths]
    sized = _tasks(plain, split_bytes)
    tasks = [task for task, _ in sized]
    if not tasks:
        return spark.createDataFrame([], FINDING_DDL)
    sc = spark.sparkContext
    groups = _partitions(sized, split_bytes, sc.defaultParallelism)
    rdd = sc.parallelize(groups, len(groups)).flatMap(lambda group: group)
    raw = spark.createDataFrame(rdd, _TASK_DDL).mapInArrow(_scan_tasks(rules, dead_search), _RAW_DDL)
    findings = F.col("kind").isNotNull()
    if all(t[-1] for t in tasks):
        return raw.where(findings).orderBy("_task", "_n").select(*COLUMNS)
    raw = raw.persist()
    counts = {r["_task"]: (r["_games"], r["_lines"]) for r in raw.where(~findings).collect()}
    offsets, before, last = [], (0, 0), None
    for task, path, *_ in tasks:
        if path != last:
            before, last = (0, 0), path
        offsets.append((task, before[0], before[1]))
        games, lines = counts.get(task, (0, 0))
        before = (before[0] + games, before[1] + lines)
    offs = spark.createDataFrame(offsets, "_task long, _games_before long, _lines_before long")
    return (
        raw.where(findings)
        .join(F.broadcast(offs), "_task")
        .withColumn("game", F.col("game") + F.col("_games_before"))
        .withColumn("line", F.col("line") + F.col("_lines_before"))
        .orderBy("_task", "_n")
        .select(*COLUMNS)
    )


def _scan_rows(column: str, rules: str, dead_search: str, name: str) -> Any:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        struct = pa.struct(list(_arrow_schema()))
        for batch in batches:
            texts = batch.column(column).to_pylist()
            data = [t.encode("utf-8") if isinstance(t, str) else (t or b"") for t in texts]
            out = _native.scan_texts(data, name, rules, dead_search)
            offsets = [0]
            for lines in out:
                offsets.append(offsets[-1] + lines.count(b"\n"))
            table = _read_lines(b"".join(out))
            columns = [c.combine_chunks() for c in table.columns]
            values = pa.StructArray.from_arrays(columns, fields=list(struct))
            findings = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), values)
            yield pa.RecordBatch.from_arrays(
                list(batch.columns) + [findings],
                names=list(batch.schema.names) + ["findings"],
            )

    return run


def scan_column(
    df: Any,
    column: str = "pgn",
    rules: str = "auto",
    dead_search: str = "quick",
    name: str = "<string>",
) -> Any:
    """Add the findings of each row's PGN text (or bytes) as a column.

    :param df: a DataFrame with a string or binary column of PGN, typically
        one game per row.
    :param column: that column.
    :param name: the ``file`` of the findings.
    :returns: ``df`` with a column ``findings``: an array of structs with
        the JSON-lines fields (:data:`FINDING_DDL`); ``game`` and ``line``
        count within the row's text. A row with no findings gets ``[]``.
    """
    from pyspark.sql.types import ArrayType, StructField, StructType

    finding = StructType.fromDDL(FINDING_DDL)
    schema = StructType(df.schema.fields + [StructField("findings", ArrayType(finding), False)])
    return df.mapInArrow(_scan_rows(column, rules, dead_search, name), schema)
