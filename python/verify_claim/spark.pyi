import os
from typing import Any, Callable, List, Optional, Sequence, Union

from . import ColumnRules, DeadSearch, Encoding, GameTypeAuto, Rules, SeverityName

FINDING_DDL: str
COLUMNS: List[str]
GAME_DDL: str
GAME_COLUMNS: List[str]
SPLIT_BYTES: int
SPLIT_FLOOR: int
MIN_RANGE: int
PathArg = Union[str, os.PathLike[str]]

def scan_files(
    spark: Any,
    paths: Union[PathArg, Sequence[PathArg]],
    split_bytes: int = ...,
    *,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    encoding: Encoding = ...,
    dead_search: DeadSearch = ...,
    min_severity: SeverityName = ...,
    min_draw_moves: Optional[int] = ...,
    follow: bool = ...,
) -> Any: ...
def scan_column(
    df: Any,
    column: str = ...,
    name: str = ...,
    *,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    encoding: Encoding = ...,
    dead_search: DeadSearch = ...,
    min_severity: SeverityName = ...,
    min_draw_moves: Optional[int] = ...,
) -> Any: ...
def scan_games_files(
    spark: Any,
    paths: Union[PathArg, Sequence[PathArg]],
    split_bytes: Optional[int] = ...,
    *,
    progress: Optional[Callable[[int, int], Any]] = ...,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    encoding: Encoding = ...,
    dead_search: DeadSearch = ...,
    min_severity: SeverityName = ...,
    min_draw_moves: Optional[int] = ...,
    follow: bool = ...,
) -> Any: ...
