import os
from typing import Any, Dict, Iterable, Iterator, Optional, Union

from ._errors import InputError as InputError

Record = Union[str, bytes, bytearray, memoryview, os.PathLike[str]]
Source = Union[Record, Iterable[Union[str, os.PathLike[str]]]]
TEXT_NAME: str

def decide(
    pgn: Record,
    move: Optional[str] = ...,
    ply: Optional[int] = ...,
    after: Optional[str] = ...,
    game: Optional[int] = ...,
    claim: str = ...,
    rules: str = ...,
) -> Dict[str, Any]: ...
def scan(
    source: Source,
    jobs: Optional[int] = ...,
    rules: str = ...,
    dead_search: str = ...,
) -> Iterator[Dict[str, Any]]: ...
def check_position(fen: str, search: str = ...) -> Dict[str, Any]: ...
