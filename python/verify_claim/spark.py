"""verify-claim on Apache Spark: scans of archives that outgrow one machine.

- :func:`scan_files`: files (and, for plain PGN files, byte ranges cut at
  game starts; for multi-frame ``.zst`` files, runs of frames) spread over
  the executors; one row per finding, with the
  columns of ``verify-claim scan --format jsonl``, in the CLI's order.
- :func:`scan_games_files`: the per-game table (one row per game, the
  rows of ``verify-claim scan --per-game``), cut and run as
  :func:`scan_files` is.
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

__all__ = ["scan_files", "scan_column", "scan_games_files", "FINDING_DDL", "GAME_DDL",
           "SPLIT_BYTES"]

#: The JSON-lines columns, in their order in the CLI's output.
FINDING_DDL = (
    "file string, game long, line long, ply long, kind string, side string, "
    "move string, message string, severity string, column long, white string, "
    "black string, recorded string, expected string"
)
COLUMNS = [c.split()[0] for c in FINDING_DDL.split(", ")]

#: Plain files larger than this are cut into byte ranges of about this size
#: (multi-frame ``.zst`` files into runs of about this many compressed
#: bytes). Each piece is one Spark task; a task's start costs about 0.15 s
#: on local[2] (a Python worker round trip), so pieces are large: a piece
#: of a lichess ``.zst`` this size is seconds of one core's work.
SPLIT_BYTES = 512 << 20

_RAW_DDL = FINDING_DDL + ", _task long, _n long"

PathArg = Union[str, "os.PathLike[str]"]
#: A task: (number, path, start, end, frames, whole). ``start..end`` are
#: bytes of a plain file, or frame runs of a ``.zst`` when ``frames``;
#: ``whole``: the whole file (one decoder).
Task = Tuple[int, str, int, int, bool, bool]


#: Inputs at least this large are cut into at least the session's default
#: parallelism in tasks.
SPLIT_FLOOR = 64 << 20
#: No byte range smaller than this (a range costs a task's start).
MIN_RANGE = 1 << 20


def _pieces(cuttable: int, split_bytes: int, parallelism: int, total: int) -> int:
    """How many pieces the cuttable bytes are cut into: enough that none is
    larger than ``split_bytes``; for an input of ``SPLIT_FLOOR`` or more, a
    multiple of ``parallelism`` (pieces no smaller than ``MIN_RANGE`` for
    that), so that the pieces, of equal size, run in full waves: five equal
    pieces on two cores would leave one core idle for the fifth."""
    n = max(1, -(-cuttable // max(1, split_bytes)))
    if total >= SPLIT_FLOOR and cuttable > 0:
        p = max(1, parallelism)
        # Rounded up, but no piece under MIN_RANGE for it.
        n = max(n, min(p * -(-n // p), cuttable // MIN_RANGE))
    return n


def _tasks(
    paths: Sequence[str], split_bytes: int, parallelism: int = 1, follow: bool = False
) -> List[Tuple[Task, int]]:
    """One task per small file, and per compressed file that one decoder
    reads; byte ranges of equal size for plain files larger than the piece
    size, and runs of frames of about equal compressed size for multi-frame
    ``.zst`` files (the crate's range and frame scans hold the games that
    start in the range or the runs, so the pieces of one file meet exactly).
    Each with its size in (compressed) bytes."""
    files = _native.expand(list(paths), follow)
    total = sum(f[1] for f in files)
    cuttable = sum(size for _, size, plain, runs in files if plain or len(runs) > 1)
    step = -(-cuttable // _pieces(cuttable, split_bytes, parallelism, total)) if cuttable else 1
    tasks: List[Tuple[Task, int]] = []
    for path, size, plain, runs in files:
        k = -(-size // max(1, step))
        if k <= 1 or not (plain or len(runs) > 1):
            tasks.append(((len(tasks), path, 0, 0, False, True), size))
        elif plain:
            piece = -(-size // k)
            for start in range(0, size, piece):
                end = min(start + piece, size)
                tasks.append(((len(tasks), path, start, end, False, False), end - start))
        else:
            for first, end, bytes_ in _run_groups(runs, k):
                tasks.append(((len(tasks), path, first, end, True, False), bytes_))
    return tasks


def _run_groups(runs: Sequence[int], k: int) -> List[Tuple[int, int, int]]:
    """Consecutive frame runs in (at most) ``k`` groups of about equal
    compressed bytes: (first run, one past the last, bytes). A group ends
    at the first run where the running total reaches the next ``1/k`` of
    the whole (a run larger than that makes fewer groups)."""
    whole = max(1, sum(runs))
    groups: List[Tuple[int, int, int]] = []
    first, filled, closed = 0, 0, 0
    for i, size in enumerate(runs):
        filled += size
        if filled * k >= (len(groups) + 1) * whole or i == len(runs) - 1:
            groups.append((first, i + 1, filled - closed))
            first, closed = i + 1, filled
    return groups


def _partitions(
    tasks: List[Tuple[Task, int]], split_bytes: int, parallelism: int
) -> List[List[Task]]:
    """The tasks packed, in order, into partitions of about ``split_bytes``
    of input each, and into at least ``parallelism`` partitions whenever
    there are that many tasks. Each partition costs Spark a Python worker
    round trip and an Arrow exchange, far more than scanning a small file:
    an archive of many small files must not become as many partitions."""
    total = sum(size for _, size in tasks)
    target = max(1, min(split_bytes, total // max(1, parallelism)))
    groups: List[List[Task]] = []
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


def _scan_partitions(groups: List[List[Task]], options: Dict[str, Any], totals: Any) -> Any:
    """The function ``mapInArrow`` runs over ``spark.range(len(groups))``:
    partition ``i`` (one row, ``i``) scans the tasks of ``groups[i]``, and
    adds each task's games and lines to the accumulator ``totals``."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        settings = _native.Settings(**options)
        for batch in batches:
            for i in batch.column(0).to_pylist():
                for task in groups[i]:
                    yield from _scan_task(task, settings, totals)

    return run


def _scan_task(task: Task, settings: Any, totals: Any) -> Iterator[Any]:
    number, path, start, end, frames, whole = task
    if whole:
        native = _native.scan_file(path, settings, number)
    elif frames:
        native = _native.scan_frames(path, start, end, settings, number)
    else:
        native = _native.scan_range(path, start, end, settings, number)
    for batch in native:  # pyarrow batches built in Rust
        if batch.num_rows:
            yield batch
    totals.add({number: native.totals()})


class _Totals:
    """The accumulator's merge (PySpark's ``AccumulatorParam`` protocol):
    task number -> (games, lines). A task run twice (a retry, a speculative
    copy, a recomputed partition) adds the same entry again: a dict's
    update, so the totals never count twice."""

    def zero(self, value: Any) -> Dict[int, Tuple[int, int]]:
        return {}

    def addInPlace(self, a: Dict[int, Tuple[int, int]], b: Dict[int, Tuple[int, int]]) -> Dict[int, Tuple[int, int]]:
        a.update(b)
        return a


def _accumulator(sc: Any) -> Any:
    """The tasks' totals, merged on the driver by the time the job ends."""
    return sc.accumulator({}, _Totals())


def _offsets(tasks: List[Task], counts: Dict[int, Tuple[int, int]]) -> List[Tuple[int, int]]:
    """Each task's games and lines before it in its file (tasks are numbered
    from 0, in order)."""
    offsets: List[Tuple[int, int]] = []
    before, last = (0, 0), None
    for task, path, *_ in tasks:
        if path != last:
            before, last = (0, 0), path
        offsets.append(before)
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
        compressed bytes; an input of 64 MiB or more into a multiple of
        the session's default parallelism of them, of equal size. Other
        compressed files are one task each.
    :param options: the keywords of :func:`verify_claim.scan` (``rules``,
        ``game_type``, ``column_rules``, ``encoding``, ``dead_search``,
        ``min_severity``, ``min_draw_moves``, ``follow``; ``jobs`` is not
        taken: a task runs on one core).
    :returns: one row per finding with the JSON-lines columns
        (:data:`FINDING_DDL`), in the CLI's order (each partition holds
        whole tasks in input order, sorted within the partition: no global
        sort). When files are cut, the scan runs at once, into a local
        checkpoint (a piece's game and line numbers depend on the pieces
        before it: their totals come back by an accumulator); Spark
        releases it with the DataFrame.
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
    totals = _accumulator(sc)
    # One row per partition, made in the JVM: the tasks themselves travel
    # in the function's closure, not through a Python RDD.
    raw = spark.range(0, len(groups), 1, len(groups)).mapInArrow(
        _scan_partitions(groups, options, totals), _RAW_DDL
    )
    if all(t[-1] for t in tasks):
        return raw.sortWithinPartitions("_task", "_n").select(*COLUMNS)
    raw = raw.localCheckpoint(eager=True)
    offsets = _offsets(tasks, totals.value)
    # Indexed by _task (0, 1, ...): a literal array (one expression parsed
    # once, not a py4j call per task), no join and no job.
    games = ",".join(str(g) for g, _ in offsets)
    lines = ",".join(str(n) for _, n in offsets)
    return (
        raw.withColumn("game", F.expr(f"game + array({games})[_task]"))
        .withColumn("line", F.expr(f"line + array({lines})[_task]"))
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


from ._spark_games import GAME_COLUMNS, GAME_DDL, scan_games_files  # noqa: E402
