"""verify-claim on Apache Spark: scans of archives that outgrow one machine.

- :func:`scan_files`: files (and, for plain PGN files, byte ranges cut at
  game starts; for multi-frame ``.zst`` files, runs of frames) spread over
  the executors; one row per finding, with the
  columns of ``verify-claim scan --format jsonl``, in the CLI's order.
- :func:`scan_column`: tables holding one game's PGN per row (as lichess
  pipelines store the database in Parquet); the findings of each row are
  added as an array column.

Each partition runs the Rust scan (``mapInArrow``, with the GIL released);
the findings leave Rust as Arrow record batches built there (no JSON in
between), and no stage runs the scan twice. The package must be installed
on every executor, with ``PYSPARK_PYTHON`` naming a Python that has it (see
docs/python.md, "On a cluster"); the paths given to :func:`scan_files`
must be readable at the same path on each (a shared file system; in local
mode, any local path).
"""

import os
from typing import Any, Dict, Iterator, List, Sequence, Tuple, Union

from . import _native
from . import _path

__all__ = ["scan_files", "scan_column", "FINDING_DDL", "SPLIT_BYTES"]

#: The JSON-lines columns, in their order in the CLI's output.
FINDING_DDL = (
    "file string, game long, line long, ply long, kind string, side string, "
    "move string, message string, severity string, column long, white string, "
    "black string, recorded string, expected string"
)
COLUMNS = [c.split()[0] for c in FINDING_DDL.split(", ")]

#: Plain files larger than this are cut into byte ranges of about this size.
SPLIT_BYTES = 128 << 20

_TASK_DDL = "_task long, path string, start long, end long, frames boolean, whole boolean"
_RAW_DDL = FINDING_DDL + ", _task long, _n long, _games long, _lines long"

PathArg = Union[str, "os.PathLike[str]"]


def _arrow_schema() -> Any:
    """The finding columns' Arrow schema (as Rust builds them)."""
    return _native.finding_schema(False)


#: Inputs at least this large are cut into at least the session's default
#: parallelism in tasks.
SPLIT_FLOOR = 64 << 20
#: No byte range smaller than this (a range costs a task's start).
MIN_RANGE = 1 << 20


def _range_size(plain_total: int, split_bytes: int, parallelism: int, total: int) -> int:
    """The size of the byte ranges plain files are cut into: at most
    ``split_bytes``; and, for an input of ``SPLIT_FLOOR`` or more, small
    enough that there are at least ``parallelism`` ranges."""
    step = max(1, split_bytes)
    if total >= SPLIT_FLOOR and plain_total > 0:
        step = min(step, max(MIN_RANGE, -(-plain_total // max(1, parallelism))))
    return step


def _tasks(
    paths: Sequence[str], split_bytes: int, parallelism: int = 1, follow: bool = False
) -> List[Tuple[Tuple[Any, ...], int]]:
    """One task per small file, and per compressed file that one decoder
    reads; byte ranges for plain files larger than the range size, and runs
    of frames for multi-frame ``.zst`` files (the crate's range and frame
    scans hold the games that start in the range or the runs, so the pieces
    of one file meet exactly). Each with its size in (compressed) bytes."""
    files = _native.expand(list(paths), follow)
    total = sum(f[1] for f in files)
    cuttable = sum(size for _, size, plain, runs in files if plain or len(runs) > 1)
    step = _range_size(cuttable, split_bytes, parallelism, total)
    tasks: List[Tuple[Tuple[Any, ...], int]] = []
    for path, size, plain, runs in files:
        if size <= step or not (plain or len(runs) > 1):
            tasks.append(((len(tasks), path, 0, 0, False, True), size))
        elif plain:
            for start in range(0, size, step):
                end = min(start + step, size)
                tasks.append(((len(tasks), path, start, end, False, False), end - start))
        else:
            for first, end, bytes_ in _run_groups(runs, step):
                tasks.append(((len(tasks), path, first, end, True, False), bytes_))
    return tasks


def _run_groups(runs: Sequence[int], step: int) -> List[Tuple[int, int, int]]:
    """Consecutive frame runs in groups of about ``step`` compressed bytes:
    (first run, one past the last, bytes)."""
    groups: List[Tuple[int, int, int]] = []
    first, filled = 0, 0
    for k, size in enumerate(runs):
        filled += size
        if filled >= step or k == len(runs) - 1:
            groups.append((first, k + 1, filled))
            first, filled = k + 1, 0
    return groups


def _partitions(
    tasks: List[Tuple[Tuple[Any, ...], int]], split_bytes: int, parallelism: int
) -> List[List[Tuple[Any, ...]]]:
    """The tasks packed, in order, into partitions of about ``split_bytes``
    of input each, and into at least ``parallelism`` partitions whenever
    there are that many tasks. Each partition costs Spark a Python worker
    round trip and an Arrow exchange, far more than scanning a small file:
    an archive of many small files must not become as many partitions."""
    total = sum(size for _, size in tasks)
    target = max(1, min(split_bytes, total // max(1, parallelism)))
    groups: List[List[Tuple[Any, ...]]] = []
    filled = target
    for k, (task, size) in enumerate(tasks):
        left = len(tasks) - k
        short = max(0, parallelism - len(groups))
        if (filled + size > target and filled > 0) or (0 < left <= short):
            groups.append([])
            filled = 0
        groups[-1].append(task)
        filled += size
    return groups


def _scan_tasks(options: Dict[str, Any]) -> Any:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        settings = _native.Settings(**options)
        schema = _native.finding_schema(True)
        for batch in batches:
            for t in batch.to_pylist():  # the task rows: a few per partition
                yield from _scan_task(t, settings, schema, pa)

    return run


def _scan_task(t: dict, settings: Any, schema: Any, pa: Any) -> Iterator[Any]:
    if t["whole"]:
        native = _native.scan_file(t["path"], settings, t["_task"])
    elif t["frames"]:
        native = _native.scan_frames(t["path"], t["start"], t["end"], settings, t["_task"])
    else:
        native = _native.scan_range(t["path"], t["start"], t["end"], settings, t["_task"])
    for batch in native:  # pyarrow batches built in Rust
        if batch.num_rows:
            yield batch
    games, lines = native.totals()
    summary = {name: [None] for name in schema.names}
    summary.update({"_task": [t["_task"]], "_games": [games], "_lines": [lines]})
    yield pa.RecordBatch.from_pydict(summary, schema=schema)


def _offsets(tasks: List[Tuple[Any, ...]], counts: Dict[int, Tuple[int, int]]) -> List[Tuple[int, int, int]]:
    """Each task's games and lines before it in its file."""
    offsets, before, last = [], (0, 0), None
    for task, path, *_ in tasks:
        if path != last:
            before, last = (0, 0), path
        offsets.append((task, before[0], before[1]))
        games, lines = counts.get(task, (0, 0))
        before = (before[0] + games, before[1] + lines)
    return offsets


def scan_files(
    spark: Any,
    paths: Union[PathArg, Sequence[PathArg]],
    split_bytes: int = SPLIT_BYTES,
    **options: Any,
) -> Any:
    """Scan files and directories on the cluster; a DataFrame of findings.

    :param spark: the ``SparkSession``.
    :param paths: a path or a list of paths: files (``.pgn``, ``.pdn``,
        ``.zst``, ``.gz``, ``.bz2``) and directories (recursive), as in
        ``verify-claim scan``.
    :param split_bytes: plain files are cut into byte ranges of at most
        this size, at game boundaries, and multi-frame ``.zst`` files (the
        lichess database's layout) into runs of frames of about this many
        compressed bytes; an input of 64 MiB or more into at
        least the session's default parallelism of them. Other compressed
        files are one task each.
    :param options: the keywords of :func:`verify_claim.scan` (``rules``,
        ``game_type``, ``column_rules``, ``encoding``, ``dead_search``,
        ``min_severity``, ``min_draw_moves``, ``follow``; ``jobs`` is not
        taken: a task runs on one core).
    :returns: one row per finding with the JSON-lines columns
        (:data:`FINDING_DDL`), in the CLI's order (each partition holds
        whole tasks in input order, sorted within the partition: no global
        sort). When files are cut into ranges, the scan runs once into a
        local checkpoint (a range's game and line numbers depend on the
        ranges before it); Spark releases it with the DataFrame.
    :raises FileNotFoundError: on the driver, for a path that does not exist.
    :raises InputError: on the driver, for a path that cannot be read.
    :raises ValueError: a bad option value (checked on the driver).
    """
    from pyspark.sql import functions as F

    if "jobs" in options:
        raise TypeError("scan_files() takes no 'jobs': each task runs on one core")
    _native.Settings(**options)  # bad values fail here, not on an executor
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    plain = [_path(p) for p in paths]
    sc = spark.sparkContext
    sized = _tasks(plain, split_bytes, sc.defaultParallelism, bool(options.get("follow")))
    tasks = [task for task, _ in sized]
    if not tasks:
        return spark.createDataFrame([], FINDING_DDL)
    groups = _partitions(sized, split_bytes, sc.defaultParallelism)
    rdd = sc.parallelize(groups, len(groups)).flatMap(lambda group: group)
    raw = spark.createDataFrame(rdd, _TASK_DDL).mapInArrow(_scan_tasks(options), _RAW_DDL)
    findings = F.col("kind").isNotNull()
    if all(t[-1] for t in tasks):
        return raw.where(findings).sortWithinPartitions("_task", "_n").select(*COLUMNS)
    raw = raw.localCheckpoint(eager=True)
    summaries = raw.where(~findings).select("_task", "_games", "_lines").collect()
    counts = {r["_task"]: (r["_games"], r["_lines"]) for r in summaries}
    offs = spark.createDataFrame(
        _offsets(tasks, counts), "_task long, _games_before long, _lines_before long"
    )
    return (
        raw.where(findings)
        .join(F.broadcast(offs), "_task")
        .withColumn("game", F.col("game") + F.col("_games_before"))
        .withColumn("line", F.col("line") + F.col("_lines_before"))
        .sortWithinPartitions("_task", "_n")
        .select(*COLUMNS)
    )


def _scan_rows(column: str, options: Dict[str, Any], name: str) -> Any:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        settings = _native.Settings(**options)
        for batch in batches:
            findings = _native.scan_array(batch.column(column), name, settings)
            yield pa.RecordBatch.from_arrays(
                list(batch.columns) + [findings],
                names=list(batch.schema.names) + ["findings"],
            )

    return run


def scan_column(df: Any, column: str = "pgn", name: str = "<string>", **options: Any) -> Any:
    """Add the findings of each row's PGN text (or bytes) as a column.

    :param df: a DataFrame with a string or binary column of PGN, typically
        one game per row.
    :param column: that column.
    :param name: the ``file`` of the findings.
    :param options: the keywords of :func:`verify_claim.scan` but ``jobs``
        and ``follow``.
    :returns: ``df`` with a column ``findings``: an array of structs with
        the JSON-lines fields (:data:`FINDING_DDL`); ``game`` and ``line``
        count within the row's text. A row with no findings (or a null
        one) gets ``[]``. The rows go to Rust as Arrow arrays, the findings
        come back as one Arrow list array per batch: no per-row Python.
    """
    from pyspark.sql.types import ArrayType, StructField, StructType

    for key in ("jobs", "follow"):
        if key in options:
            raise TypeError(f"scan_column() got an unexpected keyword argument {key!r}")
    _native.Settings(**options)
    finding = StructType.fromDDL(FINDING_DDL)
    schema = StructType(df.schema.fields + [StructField("findings", ArrayType(finding), False)])
    return df.mapInArrow(_scan_rows(column, options, name), schema)
