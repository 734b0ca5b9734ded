import os
from typing import Any, Callable, Dict, Iterable, Iterator, List, Literal, Optional, Tuple, TypedDict, Union

from typing_extensions import NotRequired

from ._errors import InputError as InputError
from ._errors import InputFileNotFoundError as InputFileNotFoundError
from ._errors import InputIsADirectoryError as InputIsADirectoryError
from ._errors import InputNotADirectoryError as InputNotADirectoryError
from ._errors import InputPermissionError as InputPermissionError

__version__: str
TEXT_NAME: str

PathArg = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]
Paths = Union[PathArg, Iterable[PathArg]]
Text = Union[str, bytes, bytearray, memoryview]

Rules = Literal["auto", "fide-2009", "fide-2014", "fide-2018", "fide-2023"]
GameTypeAuto = Literal["auto", "chess", "column-draughts"]
GameType = Literal["chess", "column-draughts"]
ColumnRules = Literal["standard", "rejump"]
Encoding = Literal["auto", "utf8", "latin1"]
DeadSearch = Literal["quick", "full"]
SideName = Literal["white", "black"]
ClaimName = Literal["any", "threefold", "fifty", "unchanged-material"]
SeverityName = Literal["info", "warning", "error"]
KindName = Literal[
    "parse-error", "illegal-move", "threefold-claimable", "fifty-move-claimable",
    "unchanged-material-claimable", "fivefold-repetition", "seventy-five-move",
    "insufficient-material", "checkmate", "stalemate", "no-moves", "dead-position",
    "unwinnable-flag-fall", "unwinnable-resignation", "result-tag-mismatch",
    "result-mismatch", "moves-after-end", "early-draw-agreement", "no-moves-recorded",
]

class Ground(TypedDict):
    """A ground the claim stands on: the rule, its article, the plies."""
    rule: str
    article: str
    plies: List[int]
    form: str

class GameOver(TypedDict):
    reason: str
    ply: int
    article: str

class PlyMove(TypedDict):
    ply: int
    move: Optional[str]

class Count(TypedDict):
    plies: int
    from_start_position: int
    since_ply: int
    with_written_move: Optional[int]
    needed: int

class Helpmates(TypedDict):
    white: Optional[List[str]]
    black: Optional[List[str]]

class DeadCheck(TypedDict):
    search: DeadSearch
    dead: Optional[bool]
    white_can_win: Optional[bool]
    black_can_win: Optional[bool]
    helpmates: Helpmates

class ClockReading(TypedDict):
    clock: str
    ply: int
    move: str

class Clocks(TypedDict):
    white: Optional[ClockReading]
    black: Optional[ClockReading]
    source: str

class ClaimResult(TypedDict):
    """``verify-claim claim --format json`` (see the README's "JSON output")."""
    file: str
    game: int
    game_type: GameType
    rules: str
    ply: int
    claimant: SideName
    written_move: Optional[str]
    written_move_illegal: Optional[str]
    valid: bool
    grounds: List[Ground]
    game_over: Optional[GameOver]
    claimed_by: Optional[Any]
    reasons: List[str]
    repetitions: List[PlyMove]
    repetitions_with_written_move: List[PlyMove]
    near_misses: List[Any]
    count: Count
    written_move_ends_game: Optional[Any]
    penalty: Optional[Any]
    dead_check: DeadCheck
    fen: str
    notes: List[str]
    encoding: str
    not_checked: List[str]
    # Only when the record has [%clk] comments.
    clocks: NotRequired[Clocks]

class Repair(TypedDict):
    """A box not read as written."""
    ply: int
    sheet: int
    written: str
    read: str

class Discrepancy(TypedDict):
    """A ply where the two sheets say different moves."""
    ply: int
    sheet1: str
    sheet2: str

class Reading(TypedDict):
    moves: List[str]
    repairs: List[Repair]
    cost: int

class SearchInfo(TypedDict):
    states: int
    cut: bool

class Reconstruction(TypedDict):
    """``verify-claim reconstruct --format json``."""
    game_type: GameType
    notation: List[str]
    readings: List[Reading]
    discrepancies: List[Discrepancy]
    clear: bool
    search: SearchInfo

class SheetReading(TypedDict):
    repairs: List[Repair]
    discrepancies: List[Discrepancy]
    alternatives: int

class SheetClaimResult(ClaimResult):
    """``verify-claim claim --sheet ... --format json``."""
    reading: SheetReading
    depends_on_reading: bool

class PositionResult(DeadCheck):
    """``verify-claim check-position --format json``."""
    fen: str
    ending: Optional[str]

class _FindingBase(TypedDict):
    file: str
    game: int
    line: int
    ply: int
    kind: KindName
    side: Optional[SideName]
    move: Optional[str]
    message: str
    severity: SeverityName
    column: int
    white: str
    black: str

class Finding(_FindingBase, total=False):
    """One ``verify-claim scan --format jsonl`` line; ``recorded`` and
    ``expected`` only in result findings."""
    recorded: Optional[str]
    expected: Optional[str]

class Scan(Iterator[Finding]):
    def __iter__(self) -> "Scan": ...
    def __next__(self) -> Finding: ...
    @property
    def games(self) -> Optional[int]: ...
    @property
    def lines(self) -> Optional[int]: ...

def decide(
    path: PathArg,
    *,
    move: Optional[str] = ...,
    after: Optional[str] = ...,
    ply: Optional[int] = ...,
    game: Optional[int] = ...,
    claim: ClaimName = ...,
    claimant: Optional[SideName] = ...,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    encoding: Encoding = ...,
    dead_search: DeadSearch = ...,
) -> ClaimResult: ...
def decide_text(
    text: Text,
    *,
    name: str = ...,
    move: Optional[str] = ...,
    after: Optional[str] = ...,
    ply: Optional[int] = ...,
    game: Optional[int] = ...,
    claim: ClaimName = ...,
    claimant: Optional[SideName] = ...,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    encoding: Encoding = ...,
    dead_search: DeadSearch = ...,
) -> ClaimResult: ...
SheetArg = Union[PathArg, bytes, Tuple[str, Union[str, bytes]]]
Notation = Literal["auto", "en", "ru", "de", "fr", "es", "it", "nl", "pl", "cs", "hu", "sv", "figurine"]

def reconstruct(
    sheets: List[SheetArg],
    *,
    notation: Notation = ...,
    candidates: int = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
) -> Reconstruction: ...
def decide_sheets(
    sheets: List[SheetArg],
    *,
    notation: Notation = ...,
    candidates: int = ...,
    move: Optional[str] = ...,
    after: Optional[str] = ...,
    ply: Optional[int] = ...,
    claim: ClaimName = ...,
    claimant: Optional[SideName] = ...,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    dead_search: DeadSearch = ...,
) -> SheetClaimResult: ...
def check_position(
    fen: str,
    *,
    side: Optional[SideName] = ...,
    dead_search: DeadSearch = ...,
    game_type: GameType = ...,
    column_rules: ColumnRules = ...,
) -> PositionResult: ...
def scan(
    paths: Paths,
    *,
    jobs: Optional[int] = ...,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    encoding: Encoding = ...,
    dead_search: DeadSearch = ...,
    min_severity: SeverityName = ...,
    min_draw_moves: Optional[int] = ...,
    follow: bool = ...,
) -> Scan: ...
def scan_text(
    text: Text,
    *,
    name: str = ...,
    jobs: Optional[int] = ...,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    encoding: Encoding = ...,
    dead_search: DeadSearch = ...,
    min_severity: SeverityName = ...,
    min_draw_moves: Optional[int] = ...,
) -> Scan: ...
def scan_arrow(
    paths: Paths,
    *,
    jobs: Optional[int] = ...,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    encoding: Encoding = ...,
    dead_search: DeadSearch = ...,
    min_severity: SeverityName = ...,
    min_draw_moves: Optional[int] = ...,
    follow: bool = ...,
) -> Any:
    """A ``pyarrow.RecordBatchReader`` of findings (the JSON-lines columns)."""
def scan_games(
    paths: Paths,
    *,
    progress: Optional[Callable[[int, int], Any]] = ...,
    jobs: Optional[int] = ...,
    rules: Rules = ...,
    game_type: GameTypeAuto = ...,
    column_rules: ColumnRules = ...,
    encoding: Encoding = ...,
    dead_search: DeadSearch = ...,
    min_severity: SeverityName = ...,
    min_draw_moves: Optional[int] = ...,
    follow: bool = ...,
) -> Any:
    """A ``pyarrow.RecordBatchReader`` of the per-game table (``scan --per-game``)."""
