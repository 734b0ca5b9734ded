"""The package's exception types, created by the native module (Rust),
which raises each by the kind of the engine's error, never by its message
(a module of its own so that the native module, the package and the Spark
workers name the same classes).

- :class:`InputError` (a ``ValueError``): a record, file or position the
  tool could not read or answer for, with ``file``, ``line``, ``column``
  (1-based, or ``None``), ``message`` and ``kind`` (``"io"``,
  ``"syntax"``, ``"illegal-move"``, ``"option"``, ``"limit"``,
  ``"no-game"``); ``str()`` is the CLI's ``file:line:col: error: message``.
- An input the OS would not give is also the ``OSError`` of its errno
  (``errno``, ``strerror``, ``filename``): :class:`InputFileNotFoundError`
  (a ``FileNotFoundError``), :class:`InputPermissionError` (a
  ``PermissionError``), :class:`InputIsADirectoryError`,
  :class:`InputNotADirectoryError`; each is an :class:`InputError` too.
"""

from ._native import (
    InputError,
    InputFileNotFoundError,
    InputIsADirectoryError,
    InputNotADirectoryError,
    InputPermissionError,
)

__all__ = [
    "InputError",
    "InputFileNotFoundError",
    "InputPermissionError",
    "InputIsADirectoryError",
    "InputNotADirectoryError",
]
