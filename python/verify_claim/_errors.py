"""The package's exception type (a module of its own so that the native
module and the Spark workers raise the same class)."""

from typing import Optional


class InputError(ValueError):
    """A record, file or position the tool could not read or answer for.

    The same error the command line prints as ``file:line:col: error: ...``
    (and exits 2 for). ``line`` and ``column`` are 1-based, or ``None`` when
    the error has no place (a missing file, a ``ply`` beyond the game).
    """

    file: str
    line: Optional[int]
    column: Optional[int]
    message: str

    def __init__(
        self,
        message: str,
        file: str = "",
        line: Optional[int] = None,
        column: Optional[int] = None,
    ) -> None:
        super().__init__(message, file, line, column)
        self.message = message
        self.file = file
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if self.line is None:
            return f"{self.file}: error: {self.message}"
        return f"{self.file}:{self.line}:{self.column}: error: {self.message}"


def error_of(message: str, file: str, line: Optional[int], column: Optional[int]) -> Exception:
    """The exception for an error of the native module: a file that does
    not exist is a ``FileNotFoundError`` (with ``filename``), anything
    else an :class:`InputError`."""
    if line is None and message.endswith("(os error 2)"):
        import errno
        import os

        return FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), file)
    return InputError(message, file, line, column)
