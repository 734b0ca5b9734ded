"""The per-game table from Python: :func:`scan_games` (re-exported by the
package), one row per game of the inputs as ``verify-claim scan --per-game``
writes them, streamed as a ``pyarrow.RecordBatchReader``."""

from typing import Any, Callable, Optional

from . import _native

#: ``progress=``: called with ``(bytes_done, bytes_total)``.
Progress = Callable[[int, int], Any]


def _progress(progress: Optional[Progress]) -> Optional[Progress]:
    if progress is not None and not callable(progress):
        raise TypeError(f"progress: expected a callable, not {type(progress).__name__}")
    return progress


def scan_games(paths: Any, *, progress: Optional[Progress] = None, **options: Any) -> Any:
    """One row per game of the inputs (every game, with or without
    findings, unreadable ones included), in input order: the rows of
    ``verify-claim scan --per-game``, as a ``pyarrow.RecordBatchReader``
    with typed columns (docs/python.md, "The per-game table").

    :param paths: as :func:`verify_claim.scan`.
    :param progress: a callable taking ``(bytes_done, bytes_total)``,
        called on the consumer's thread as the scan reads on (at most
        about 200 times, the last with ``bytes_done == bytes_total`` for
        plain and compressed files); nothing is shown by default.
    :param options: the keywords of :func:`verify_claim.scan`
        (``min_severity`` does not filter rows: ``findings`` counts every
        finding of the game).
    :raises FileNotFoundError: at once, for a path that does not exist.
    :raises InputError: when the reader reaches an input that could not
        be read.

    The batches are built in Rust as the scan goes (the GIL released):
    memory stays bounded however large the archive, and the scan waits
    while the consumer does not read. DuckDB, Polars and pandas read the
    reader directly.
    """
    import pyarrow as pa

    from . import _paths

    settings = _native.Settings(**options)
    native = _native.scan_games_paths(_paths(paths), settings, _progress(progress))
    return pa.RecordBatchReader.from_batches(_native.game_schema(False), native)
