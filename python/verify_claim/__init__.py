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
``column``, ``message`` and ``kind``; one the OS would not give is also the
``OSError`` of its errno (:class:`InputPermissionError` is a
``PermissionError``, ...); a bad option value raises ``ValueError``. The
classes are made by the native module, which picks each by the kind of the
engine's error. The work runs in Rust with the GIL released.
"""

import errno
import os
import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from . import _native
from ._errors import (
    InputError,
    InputFileNotFoundError,
    InputIsADirectoryError,
    InputNotADirectoryError,
    InputPermissionError,
)

__all__ = [
    "decide",
    "decide_text",
    "scan",
    "scan_text",
    "scan_arrow",
    "scan_games",
    "check_position",
    "reconstruct",
    "decide_sheets",
    "InputError",
    "InputFileNotFoundError",
    "InputPermissionError",
    "InputIsADirectoryError",
    "InputNotADirectoryError",
    "Scan",
    "__version__",
]

#: The crate's version (``verify-claim --version``).
__version__: str = _native.__version__

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
Paths = Union[PathArg, Iterable[PathArg]]
Text = Union[str, bytes, bytearray, memoryview]

#: The name in results and errors for a record given as text or bytes.
TEXT_NAME = "<string>"


def _path(p: Any, what: str = "path") -> str:
    """The path as ``os.fsdecode`` gives it: a name that is not UTF-8 keeps
    its bytes (as surrogates), which the native module encodes back."""
    if not isinstance(p, (str, bytes, os.PathLike)):
        raise TypeError(f"{what}: expected str, bytes or os.PathLike, not {type(p).__name__}")
    path = os.fsdecode(os.fspath(p))
    if path != "-" and not os.path.lexists(path):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
    return path


def _paths(paths: Paths) -> List[str]:
    if isinstance(paths, (str, bytes, os.PathLike)):
        return [_path(paths)]
    if isinstance(paths, (bytearray, memoryview)):
        raise TypeError("paths: expected paths, not bytes (records in memory: scan_text)")
    return [_path(p, "paths: item") for p in paths]


#: A byte that is not UTF-8 in a file name as findings give it.
_ESCAPED = re.compile(r"\\x([0-9A-F]{2})")


def _usable(name: str) -> str:
    """A file name as findings give it, with each byte that is not UTF-8
    written ``\\xHH`` (``caf\\xE9.pgn``), as a path the caller can open or
    pass back (``os.fsdecode`` of the bytes: ``'caf\\udce9.pgn'``) when
    that file exists; otherwise as it is."""
    raw = b"".join(
        bytes([int(part, 16)]) if i % 2 else part.encode("utf-8")
        for i, part in enumerate(_ESCAPED.split(name))
    )
    path = os.fsdecode(raw)
    return path if os.path.lexists(path) else name


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


SheetArg = Union[PathArg, bytes, Tuple[str, Text]]


def _sheets(sheets: Any) -> List[Tuple[str, bytes]]:
    """Each sheet as (name, bytes): a path is read; bytes are named
    ``sheet1``, ``sheet2``; a ``(name, text)`` pair is taken as it is."""
    if isinstance(sheets, (str, os.PathLike, bytes, bytearray, memoryview, tuple)):
        raise TypeError("sheets: expected a list of one or two sheets")
    out = []
    for i, s in enumerate(sheets, 1):
        if isinstance(s, tuple) and len(s) == 2 and isinstance(s[0], str):
            out.append((s[0], _bytes(s[1])))
        elif isinstance(s, (bytes, bytearray, memoryview)):
            out.append((f"sheet{i}", bytes(s)))
        else:
            path = _path(s, "sheets: item")
            with open(path, "rb") as fh:
                out.append((path, fh.read()))
    return out


def reconstruct(sheets: Any, **options: Any) -> Dict[str, Any]:
    """The game one or two handwritten scoresheets record, read through
    their slips; the object of ``verify-claim reconstruct --format json``.

    :param sheets: one or two sheets (the players' records of one game):
        each a path, ``bytes``, or a ``(name, text)`` pair.
    :param notation: ``"auto"`` (each sheet's own) or a code of Appendix
        C's table: ``en ru de fr es it nl pl cs hu sv figurine``.
    :param candidates: how many readings, best first (default 5).
    :param game_type: ``"auto"``, ``"chess"`` or ``"column-draughts"``.
    :param column_rules: ``"standard"`` or ``"rejump"``.
    :raises InputError: a sheet cannot be read (placed), or no game
        explains it.
    """
    return _json(_native.reconstruct(_sheets(sheets), **options))


def decide_sheets(sheets: Any, **options: Any) -> Dict[str, Any]:
    """A draw claim decided on the reading of the scoresheets; the object
    of ``verify-claim claim --sheet ... --format json`` (the claim's, with
    ``reading`` and ``depends_on_reading``). Keywords: those of
    :func:`reconstruct` and of :func:`decide` (but ``game`` and
    ``encoding``)."""
    return _json(_native.decide_sheets(_sheets(sheets), **options))


class Scan(Iterator[Dict[str, Any]]):
    """The findings of a running scan, one dict per finding (a
    ``verify-claim scan --format jsonl`` object). Once exhausted,
    :attr:`games` and :attr:`lines` hold what was read."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self._batch: Iterator[bytes] = iter(())
        self._names: Dict[str, str] = {}

    def __iter__(self) -> "Scan":
        return self

    def __next__(self) -> Dict[str, Any]:
        import json

        while True:
            for line in self._batch:
                if line:
                    finding = json.loads(line)
                    name = finding["file"]
                    if "\\x" in name:
                        if name not in self._names:
                            self._names[name] = _usable(name)
                        finding["file"] = self._names[name]
                    return finding
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
