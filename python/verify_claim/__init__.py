"""verify-claim from Python: decide chess and column-draughts draw claims,
and scan archives for claimable draws, automatic draws and results the Laws
contradict.

Paths and records are never guessed from each other:

- :func:`decide` (a path) and :func:`decide_text` (a record as ``str`` or
  ``bytes``) return the object of ``verify-claim claim --format json``;
- :func:`scan` (paths) and :func:`scan_text` (records) yield the objects of
  ``verify-claim scan --format jsonl``, one per finding, in the same order;
- :func:`scan_arrow` (paths) streams the same findings as a
  ``pyarrow.RecordBatchReader`` (DuckDB, Polars, pandas take it directly);
- :func:`scan_games` (paths) streams one row per game instead, the rows of
  ``verify-claim scan --per-game``, as a ``pyarrow.RecordBatchReader``;
- :func:`check_position` returns the object of
  ``verify-claim check-position --format json``.

Every option of the command line is a keyword argument of the same name
(``_`` for ``-``) and the same values. A path that does not exist raises
``FileNotFoundError``; a record, file or position that cannot be read
raises :class:`InputError` (a ``ValueError``) with ``file``, ``line``,
``column`` and ``message``; a bad option value raises ``ValueError``. The
work runs in Rust with the GIL released.
"""

import errno
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from . import _native
from ._errors import InputError

__all__ = [
    "decide",
    "decide_text",
    "scan",
    "scan_text",
    "scan_arrow",
    "scan_games",
    "check_position",
    "InputError",
    "Scan",
    "__version__",
]

#: The crate's version (``verify-claim --version``).
__version__: str = _native.__version__

PathArg = Union[str, "os.PathLike[str]"]
Paths = Union[PathArg, Iterable[PathArg]]
Text = Union[str, bytes, bytearray, memoryview]

#: The name in results and errors for a record given as text or bytes.
TEXT_NAME = "<string>"


def _path(p: Any, what: str = "path") -> str:
    if not isinstance(p, (str, os.PathLike)):
        raise TypeError(f"{what}: expected str or os.PathLike, not {type(p).__name__}")
    path = os.fsdecode(os.fspath(p))
    if path != "-" and not os.path.lexists(path):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    return path


def _paths(paths: Paths) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [_path(paths)]
    if isinstance(paths, (bytes, bytearray, memoryview)):
        raise TypeError("paths: expected paths, not bytes (records in memory: scan_text)")
    return [_path(p, "paths: item") for p in paths]


def _bytes(text: Any) -> bytes:
    if isinstance(text, str):
        return text.encode("utf-8")
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text)
    raise TypeError(f"text: expected str or bytes, not {type(text).__name__}")


def _json(raw: str) -> Any:
    import json

    return json.loads(raw)


def decide(path: PathArg, **options: Any) -> Dict[str, Any]:
    """Decide a draw claim in the record at ``path``; the object of
    ``verify-claim claim --format json``.

    :param path: the file (PGN, or PDN for column draughts; ``.zst``,
        ``.gz``, ``.bz2`` decompressed; ``"-"`` standard input).
    :param move: the move written on the scoresheet and not played.
    :param after: the claim point as a recorded move, ``"31...Kg8"``.
    :param ply: the claim point as plies from the start.
    :param game: which game of several (1-based).
    :param claim: ``"any"``, ``"threefold"``, ``"fifty"`` or
        ``"unchanged-material"`` (column draughts).
    :param claimant: ``"white"`` or ``"black"`` (default: the player to move).
    :param rules: ``"auto"`` or an edition: ``"fide-2009"`` ... ``"fide-2023"``.
    :param game_type: ``"auto"`` (from the tags), ``"chess"`` or ``"column-draughts"``.
    :param column_rules: ``"standard"`` or ``"rejump"``.
    :param encoding: ``"auto"``, ``"utf8"`` or ``"latin1"``.
    :param dead_search: ``"full"`` (default) or ``"quick"``.
    :raises FileNotFoundError: ``path`` does not exist.
    :raises InputError: the record cannot be read, or the claim cannot be
        decided (an illegal written move, a ``ply`` beyond the game, ...).
    :raises ValueError: a bad option value.
    """
    return _json(_native.decide(_path(path), None, TEXT_NAME, **options))


def decide_text(text: Text, *, name: str = TEXT_NAME, **options: Any) -> Dict[str, Any]:
    """:func:`decide` on a record held in memory (``str`` or ``bytes``),
    named ``name`` in the result and errors; the same keywords."""
    return _json(_native.decide(None, _bytes(text), name, **options))


def check_position(fen: str, **options: Any) -> Dict[str, Any]:
    """Can either side still checkmate (chess, 5.2.2 / 6.9) or still win
    (column draughts, 1.11)? The object of ``verify-claim check-position
    --format json``.

    :param fen: the position (chess FEN, or the tower FEN for column draughts).
    :param side: ``"white"`` or ``"black"``: only that side.
    :param dead_search: ``"full"`` (helpmate or proof, default) or ``"quick"``.
    :param game_type: ``"chess"`` (default) or ``"column-draughts"``.
    :param column_rules: ``"standard"`` or ``"rejump"``.
    :raises InputError: a bad FEN (``file`` is ``"<fen>"``).
    :raises ValueError: a bad option value.
    """
    if not isinstance(fen, str):
        raise TypeError(f"fen: expected str, not {type(fen).__name__}")
    return _json(_native.check_position(fen, **options))


class Scan(Iterator[Dict[str, Any]]):
    """The findings of a running scan, one dict per finding (a
    ``verify-claim scan --format jsonl`` object). Once exhausted,
    :attr:`games` and :attr:`lines` hold what was read."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self._batch: Iterator[bytes] = iter(())

    def __iter__(self) -> "Scan":
        return self

    def __next__(self) -> Dict[str, Any]:
        import json

        while True:
            for line in self._batch:
                if line:
                    return json.loads(line)
            self._batch = iter(next(self._native).split(b"\n"))

    def _totals(self) -> Tuple[Optional[int], Optional[int]]:
        t = self._native.totals()
        return (None, None) if t is None else t

    @property
    def games(self) -> Optional[int]:
        """Games read, once the scan is over (``None`` before)."""
        return self._totals()[0]

    @property
    def lines(self) -> Optional[int]:
        """Lines read, once the scan is over (``None`` before)."""
        return self._totals()[1]


def scan(paths: Paths, **options: Any) -> Scan:
    """Scan files and directories for findings; each item is one
    ``verify-claim scan --format jsonl`` line, in the CLI's order.

    :param paths: a path (``str`` or path-like) or an iterable of them:
        files (``.pgn``, ``.pdn``, ``.zst``, ``.gz``, ``.bz2``),
        directories (recursive), ``"-"`` for standard input.
    :param jobs: worker threads (default: every core).
    :param rules: ``"auto"`` (each game's Date) or an edition.
    :param game_type: ``"auto"``, ``"chess"`` or ``"column-draughts"``.
    :param column_rules: ``"standard"`` or ``"rejump"``.
    :param encoding: ``"auto"``, ``"utf8"`` or ``"latin1"``.
    :param dead_search: ``"quick"`` (default) or ``"full"``.
    :param min_severity: ``"info"`` (default), ``"warning"`` or ``"error"``:
        the findings below are not yielded.
    :param min_draw_moves: report a draw agreed before this move (the event's
        regulations: chess 9.1.1 lets them set a minimum; column draughts
        1.13.1 sets none).
    :param follow: follow symbolic links in directories.
    :raises FileNotFoundError: at once, for a path that does not exist.
    :raises InputError: after the last finding, when an input could not be
        read (the command line exits 2 then).
    :raises RuntimeError: when the scan itself failed (an internal error in
        a worker, named with its file and game; the command line exits 2).

    The scan runs on Rust threads with the GIL released and streams: the
    findings of an archive are never all held in memory, and the scan waits
    while the consumer does not take them.
    """
    settings = _native.Settings(**options)
    return Scan(_native.scan_paths(_paths(paths), settings, False))


def scan_text(text: Text, *, name: str = TEXT_NAME, **options: Any) -> Scan:
    """:func:`scan` over records held in memory (``str`` or ``bytes``, any
    number of games), named ``name`` in the findings; the same keywords
    but ``follow``."""
    if "follow" in options:
        raise TypeError("scan_text() got an unexpected keyword argument 'follow'")
    settings = _native.Settings(**options)
    return Scan(_native.scan_bytes(_bytes(text), name, settings, False))


def scan_arrow(paths: Paths, **options: Any) -> Any:
    """:func:`scan` as a ``pyarrow.RecordBatchReader``: the JSON-lines
    columns, typed (``game``, ``line``, ``ply``, ``column`` as ``int64``;
    ``side``, ``move``, ``recorded``, ``expected`` nullable strings), in
    batches built in Rust as the scan goes. DuckDB
    (``duckdb.sql("select kind, count(*) from reader group by kind")``),
    Polars (``polars.from_arrow(reader)``) and pandas
    (``reader.read_pandas()``) read it directly. The same keywords as
    :func:`scan`; needs ``pyarrow``. An input that cannot be read raises
    :class:`InputError` when the reader reaches it.
    """
    import pyarrow as pa

    settings = _native.Settings(**options)
    native = _native.scan_paths(_paths(paths), settings, True)
    return pa.RecordBatchReader.from_batches(_native.finding_schema(False), native)


from ._games import scan_games  # noqa: E402 (needs _paths above)
