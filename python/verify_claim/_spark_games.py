"""The per-game table on Spark: :func:`scan_games_files`, re-exported by
:mod:`verify_claim.spark`. The inputs are cut and packed into partitions
as :func:`verify_claim.spark.scan_files` cuts them; each partition runs
the Rust scan on an executor and sends its rows as Arrow batches built in
Rust; the driver only moves the game and line numbers of a cut file's
later pieces on by the pieces before them (their totals come back by an
accumulator)."""

import os
import threading
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Union

from . import _native
from . import _path

#: The per-game columns, in ``verify-claim scan --per-game``'s order.
GAME_DDL = (
    "file string, game long, line long, site string, event string, date string, "
    "round string, white string, black string, white_elo long, black_elo long, "
    "time_control string, eco string, termination string, result string, plies long, "
    "laws_result string, ended_by string, ended_ply long, result_agrees boolean, "
    "first_threefold_claimable_ply long, first_fifty_claimable_ply long, "
    "plies_after_first_claimable long, clock_white double, clock_black double, "
    "error string, error_ply long, findings long"
)
GAME_COLUMNS = [c.split()[0] for c in GAME_DDL.split(", ")]

_RAW_DDL = GAME_DDL + (
    ", _task long, _n long, _error_line long, _error_column long, _error_message string"
)

PathArg = Union[str, "os.PathLike[str]"]


def _scan_game_partitions(groups: List[List[Any]], options: Dict[str, Any], totals: Any) -> Any:
    """``mapInArrow``'s function: partition ``i`` scans the tasks of
    ``groups[i]`` and adds each task's games and lines to ``totals``."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        settings = _native.Settings(**options)
        for batch in batches:
            for i in batch.column(0).to_pylist():
                for number, path, start, end, frames, whole in groups[i]:
                    piece = "file" if whole else "frames" if frames else "range"
                    native = _native.scan_games_task(path, piece, start, end, settings, number)
                    for b in native:  # pyarrow batches built in Rust
                        if b.num_rows:
                            yield b
                    totals.add({number: native.totals()})

    return run


def _run_watched(
    action: Callable[[], Any], totals: Any, sizes: Dict[int, int], progress: Any
) -> Any:
    """Runs the Spark ``action`` on a thread of its own (PySpark's
    ``InheritableThread``, which keeps the session's local properties)
    while this thread tells ``progress`` the bytes of the tasks done, as
    their totals reach the driver's accumulator: ``(0, total)`` first, then
    as pieces end, the last call ``(total, total)``."""
    from pyspark import InheritableThread

    total = sum(sizes.values())
    out: Dict[str, Any] = {}

    def target() -> None:
        try:
            out["value"] = action()
        except BaseException as e:  # re-raised on the calling thread
            out["error"] = e

    progress(0, total)
    thread = InheritableThread(target=target, daemon=True)
    thread.start()
    done = 0
    while thread.is_alive():
        thread.join(0.1)
        now = sum(sizes.get(t, 0) for t in list(totals.value))
        if now != done and now < total:
            done = now
            progress(now, total)
    if "error" in out:
        raise out["error"]
    progress(total, total)
    return out["value"]


def scan_games_files(
    spark: Any,
    paths: Union[PathArg, Sequence[PathArg]],
    split_bytes: Optional[int] = None,
    *,
    progress: Optional[Callable[[int, int], Any]] = None,
    **options: Any,
) -> Any:
    """The per-game table of files and directories, scanned on the cluster:
    a DataFrame of the rows of ``verify-claim scan --per-game``
    (:data:`GAME_DDL`), every game of the inputs one row.

    :param spark: the ``SparkSession``.
    :param paths: as :func:`verify_claim.spark.scan_files`.
    :param split_bytes: as :func:`verify_claim.spark.scan_files` (the same
        cutting into byte ranges and frame runs, the same partitions).
    :param progress: a callable taking ``(bytes_done, bytes_total)``, called
        on the driver as the tasks end (their input's bytes), the last
        call ``(total, total)``; with it, the scan runs at once, as it
        does anyway when files are cut. Nothing is shown by default.
    :param options: the keywords of :func:`verify_claim.spark.scan_files`.
    :returns: rows in input order within each partition (each partition
        holds whole tasks in input order; no global sort). Game numbers,
        lines and the places in ``error`` count from the start of each
        file, however it was cut.
    """
    from pyspark.sql import functions as F

    from .spark import SPLIT_BYTES, _accumulator, _offsets, _partitions, _tasks

    if "jobs" in options:
        raise TypeError("scan_games_files() takes no 'jobs': each task runs on one core")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress: expected a callable, not {type(progress).__name__}")
    _native.Settings(**options)  # bad values fail here, not on an executor
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    split = SPLIT_BYTES if split_bytes is None else split_bytes
    sc = spark.sparkContext
    sized = _tasks([_path(p) for p in paths], split, sc.defaultParallelism,
                   bool(options.get("follow")))
    tasks = [task for task, _ in sized]
    if not tasks:
        if progress is not None:
            progress(0, 0)
        return spark.createDataFrame([], GAME_DDL)
    groups = _partitions(sized, split, sc.defaultParallelism)
    totals = _accumulator(sc)
    raw = spark.range(0, len(groups), 1, len(groups)).mapInArrow(
        _scan_game_partitions(groups, options, totals), _RAW_DDL
    )
    whole = all(t[-1] for t in tasks)
    if whole and progress is None:
        return raw.sortWithinPartitions("_task", "_n").select(*GAME_COLUMNS)
    if progress is None:
        raw = raw.localCheckpoint(eager=True)
    else:
        sizes = {task[0]: size for task, size in sized}
        raw = _run_watched(lambda: raw.localCheckpoint(eager=True), totals, sizes, progress)
    if whole:
        return raw.sortWithinPartitions("_task", "_n").select(*GAME_COLUMNS)
    offsets = _offsets(tasks, totals.value)
    games = ",".join(str(g) for g, _ in offsets)
    lines = ",".join(str(n) for _, n in offsets)
    error_line = F.expr(f"_error_line + array({lines})[_task]")
    error = F.when(
        F.col("_error_line").isNotNull(),
        F.concat_ws(
            ":", "file", error_line.cast("string"), F.col("_error_column").cast("string"),
            F.concat(F.lit(" "), F.col("_error_message")),
        ),
    ).otherwise(F.col("error"))
    return (
        raw.withColumn("game", F.expr(f"game + array({games})[_task]"))
        .withColumn("line", F.expr(f"line + array({lines})[_task]"))
        .withColumn("error", error)
        .sortWithinPartitions("_task", "_n")
        .select(*GAME_COLUMNS)
    )
