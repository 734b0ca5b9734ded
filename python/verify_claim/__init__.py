"""verify-claim from Python: decide chess and column-draughts draw claims,
and scan archives for claimable draws, automatic draws and results the Laws
contradict.

Every result is exactly what the command line prints as JSON, parsed:

- :func:`decide` returns the object of ``verify-claim claim --format json``;
- :func:`scan` yields the objects of ``verify-claim scan --format jsonl``,
  one per finding, in the same order;
- :func:`check_position` returns the object of
  ``verify-claim check-position --format json``.

Bad input raises :class:`InputError` (a ``ValueError``) with ``file``,
``line``, ``column`` and ``message``; a bad option value raises
``ValueError``. The work runs in Rust with the GIL released.
"""

import json
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from . import _native
from ._errors import InputError

__all__ = ["decide", "scan", "check_position", "InputError"]

Record = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]"]
Source = Union[Record, Iterable[Union[str, "os.PathLike[str]"]]]

#: The name in results and errors for a record given as text or bytes.
TEXT_NAME = "<string>"


def decide(
    pgn: Record,
    move: Optional[str] = None,
    ply: Optional[int] = None,
    after: Optional[str] = None,
    game: Optional[int] = None,
    claim: str = "any",
    rules: str = "auto",
) -> Dict[str, Any]:
    """Decide a draw claim; the same object as ``verify-claim claim --format json``.

    :param pgn: the record: PGN/PDN text (``str``) or bytes, or a path-like
        (``pathlib.Path``) to read (``.zst``, ``.gz``, ``.bz2`` decompressed).
    :param move: the move written on the scoresheet and not played (``--move``).
    :param ply: the claim point as plies from the start (``--ply``).
    :param after: the claim point as a recorded move, ``"31...Kg8"`` (``--after``).
    :param game: which game of several (1-based, ``--game``).
    :param claim: ``"any"``, ``"threefold"`` or ``"fifty"`` (``--claim``).
    :param rules: ``"auto"`` or an edition such as ``"fide-2018"`` (``--rules``).
    :raises InputError: the record cannot be read, or the claim cannot be
        decided (an illegal written move, a ``ply`` beyond the game, ...).
    """
    if isinstance(pgn, os.PathLike):
        path: Optional[str] = os.fsdecode(os.fspath(pgn))
        data: Optional[bytes] = None
    elif isinstance(pgn, str):
        path, data = None, pgn.encode("utf-8")
    elif isinstance(pgn, (bytes, bytearray, memoryview)):
        path, data = None, bytes(pgn)
    else:
        raise TypeError(f"pgn: expected str, bytes or a path-like, not {type(pgn).__name__}")
    raw = _native.decide(path, data, TEXT_NAME, move, ply, after, game, claim, rules)
    return json.loads(raw)


def _paths(source: Source) -> Optional[List[str]]:
    """The paths in `source`, or None when it is PGN text or bytes."""
    if isinstance(source, os.PathLike):
        return [os.fsdecode(os.fspath(source))]
    if isinstance(source, str):
        return None if ("\n" in source or "\r" in source) else [source]
    if isinstance(source, (bytes, bytearray, memoryview)):
        return None
    paths = []
    for p in source:
        if not isinstance(p, (str, os.PathLike)):
            raise TypeError(f"source: expected paths, not {type(p).__name__}")
        paths.append(os.fsdecode(os.fspath(p)))
    return paths


def _lines(native: Any) -> Iterator[Dict[str, Any]]:
    for batch in native:
        for line in batch.split(b"\n"):
            if line:
                yield json.loads(line)


def scan(
    source: Source,
    jobs: Optional[int] = None,
    rules: str = "auto",
    dead_search: str = "quick",
) -> Iterator[Dict[str, Any]]:
    """Scan records for findings; each item is one ``verify-claim scan --format jsonl`` line.

    :param source: a path (``str`` without a line break, or path-like), a
        list of paths (files, directories scanned recursively, ``.zst``,
        ``.gz``, ``.bz2`` files), or PGN text (a ``str`` with a line break)
        or bytes (named ``"<string>"`` in the findings).
    :param jobs: worker threads (default: all cores).
    :param rules: ``"auto"`` (each game's ``Date``) or an edition.
    :param dead_search: ``"quick"`` or ``"full"``.
    :raises InputError: after the last finding, when an input could not be
        read (the command line exits 2 then).
    :raises RuntimeError: when the scan itself failed (an internal error in
        a worker, named with its file and game; the command line exits 2).

    The scan runs on Rust threads with the GIL released and streams: the
    findings of an archive are never all held in memory, and the scan waits
    while the consumer does not take them.
    """
    paths = _paths(source)
    if paths is not None:
        native = _native.scan_paths(paths, jobs, rules, dead_search)
    else:
        data = source.encode("utf-8") if isinstance(source, str) else bytes(source)  # type: ignore[arg-type]
        native = _native.scan_bytes(data, TEXT_NAME, jobs, rules, dead_search)
    return _lines(native)


def check_position(fen: str, search: str = "full") -> Dict[str, Any]:
    """Can either side still checkmate? The object of ``verify-claim check-position --format json``.

    :param fen: the position (FEN).
    :param search: ``"full"`` (helpmate or proof) or ``"quick"`` (can only
        prove that a side cannot mate).
    :raises InputError: a bad FEN.
    """
    return json.loads(_native.check_position(fen, search))
