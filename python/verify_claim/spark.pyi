import os
from typing import Any, List, Sequence, Union

FINDING_DDL: str
COLUMNS: List[str]
SPLIT_BYTES: int
PathArg = Union[str, os.PathLike[str]]

def scan_files(
    spark: Any,
    paths: Union[PathArg, Sequence[PathArg]],
    rules: str = ...,
    dead_search: str = ...,
    split_bytes: int = ...,
) -> Any: ...
def scan_column(
    df: Any,
    column: str = ...,
    rules: str = ...,
    dead_search: str = ...,
    name: str = ...,
) -> Any: ...
