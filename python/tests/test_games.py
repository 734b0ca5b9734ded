"""scan_games and spark.scan_games_files (issue 44): the per-game table as
Arrow, read by DuckDB and Polars; the same rows as ``verify-claim scan
--per-game``; tags, first claimable plies and clocks against python-chess;
progress; on a real local Spark, the same rows as a set."""

import collections
import os
import sys

import pytest

import verify_claim
from conftest import CORPUS, jsonl, run, skip_or_fail

try:
    import duckdb
    import polars
    import pyarrow as pa
except ImportError as e:  # pragma: no cover - depends on the environment
    duckdb = None
    MISSING = str(e)

COLUMNS = [
    "file", "game", "line", "site", "event", "date", "round", "white", "black", "white_elo",
    "black_elo", "time_control", "eco", "termination", "result", "plies", "laws_result",
    "ended_by", "ended_ply", "result_agrees", "first_threefold_claimable_ply",
    "first_fifty_claimable_ply", "plies_after_first_claimable", "clock_white", "clock_black",
    "error", "error_ply", "findings",
]


@pytest.fixture(scope="module")
def libs():
    if duckdb is None:
        skip_or_fail(f"duckdb/polars/pyarrow not installed: {MISSING}")


@pytest.fixture(scope="module")
def inputs(corpus):
    return [corpus / "lichess", corpus / "twic", corpus / "malformed"]


def cli_rows(cli, *args):
    status, out, err = run(cli, "scan", "--per-game", "--no-progress", *map(str, args))
    assert status in (0, 1), err
    return jsonl(out)


def repeated(tmp_path, name, size):
    """A plain PGN of at least ``size`` bytes: the lichess file again and again."""
    games = (CORPUS / "lichess" / "lichess_db_1000k.pgn").read_bytes()
    path = tmp_path / name
    with open(path, "wb") as f:
        for _ in range(-(-size // len(games))):
            f.write(games)
            f.write(b"\n")
    return path


def test_the_columns_are_named_and_typed(libs, inputs):
    reader = verify_claim.scan_games(inputs[0])
    assert isinstance(reader, pa.RecordBatchReader)
    s = reader.schema
    assert s.names == COLUMNS
    ints = ["game", "line", "white_elo", "black_elo", "plies", "ended_ply", "error_ply",
            "first_threefold_claimable_ply", "first_fifty_claimable_ply",
            "plies_after_first_claimable", "findings"]
    for name in ints:
        assert s.field(name).type == pa.int64(), name
    assert s.field("result_agrees").type == pa.bool_()
    assert s.field("clock_white").type == pa.float64()
    for name in ("file", "game", "line", "plies", "findings"):
        assert not s.field(name).nullable
    reader.read_all()


def test_rows_equal_the_cli_in_order(libs, cli, inputs):
    want = cli_rows(cli, *inputs)
    table = verify_claim.scan_games(inputs, jobs=2).read_all()
    assert table.to_pylist() == want
    assert sum(1 for r in want if r["error"]) >= 5


def test_duckdb_and_polars_read_it_directly(libs, cli, inputs):
    want = cli_rows(cli, *inputs)
    reader = verify_claim.scan_games(inputs)
    got = duckdb.sql(
        "select count(*), count(first_threefold_claimable_ply), count(error), "
        "sum(findings) from reader"
    ).fetchall()[0]
    assert got == (
        len(want),
        sum(r["first_threefold_claimable_ply"] is not None for r in want),
        sum(r["error"] is not None for r in want),
        sum(r["findings"] for r in want),
    )
    df = polars.from_arrow(verify_claim.scan_games(inputs))
    assert df.height == len(want)
    by = dict(df.group_by("ended_by").len().iter_rows())
    assert by == dict(collections.Counter(r["ended_by"] for r in want))


def test_tags_plies_and_clocks_agree_with_python_chess(libs, corpus):
    try:
        import chess
        import chess.pgn
    except ImportError:
        skip_or_fail("python-chess is not installed")
    path = corpus / "lichess" / "lichess_db_1000k.pgn"
    rows = verify_claim.scan_games(path, rules="fide-2023").read_all().to_pylist()
    with open(path, encoding="utf-8") as f:
        games = list(iter(lambda: chess.pgn.read_game(f), None))
    assert len(rows) == len(games)
    clocks = 0
    for row, game in zip(rows, games):
        h = game.headers
        assert (row["site"], row["white"], row["time_control"]) == (
            h["Site"], h["White"], h["TimeControl"])
        assert row["white_elo"] == int(h["WhiteElo"]) and row["black_elo"] == int(h["BlackElo"])
        nodes = list(game.mainline())
        assert row["plies"] == len(nodes)
        board = game.board()
        first = None
        for ply in range(len(nodes) + 1):
            if board.can_claim_threefold_repetition() or board.can_claim_fifty_moves():
                first = ply
                break
            if ply < len(nodes):
                board.push(nodes[ply].move)
        claimable = [p for p in (row["first_threefold_claimable_ply"],
                                 row["first_fifty_claimable_ply"]) if p is not None]
        assert (min(claimable) if claimable else None) == first, row["site"]
        if first is not None:
            seen = [(n.turn(), n.clock()) for n in nodes[:first] if n.clock() is not None]
            # turn(): the side to move after the move, so not the mover's.
            white = [c for turn, c in seen if turn == chess.BLACK]
            black = [c for turn, c in seen if turn == chess.WHITE]
            assert row["clock_white"] == (white[-1] if white else None)
            assert row["clock_black"] == (black[-1] if black else None)
            clocks += row["clock_white"] is not None
    assert clocks > 5


def test_progress_is_told_and_ends_at_the_total(libs, tmp_path):
    path = repeated(tmp_path, "fifty.pgn", 50 << 20)
    calls = []
    reader = verify_claim.scan_games(path, progress=lambda done, total: calls.append((done, total)))
    games = sum(b.num_rows for b in reader)
    size = os.path.getsize(path)
    assert len(calls) >= 2, calls
    assert calls[-1] == (size, size)
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))
    assert games > 20_000
    with pytest.raises(TypeError):
        verify_claim.scan_games(path, progress=3)
    # Nothing is told without progress=, and the reader streams.
    assert verify_claim.scan_games(path).read_next_batch().num_rows == 8192


@pytest.fixture(scope="module")
def spark():
    try:
        from pyspark.sql import SparkSession
    except ImportError as e:
        skip_or_fail(f"pyspark not installed: {e}")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    s = (
        SparkSession.builder.master("local[2]")
        .appName("verify-claim-games")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def as_set(rows):
    return collections.Counter(tuple(r[c] for c in COLUMNS) for r in rows)


def test_spark_gives_the_same_rows_as_a_set(libs, spark, inputs):
    from verify_claim import spark as vcs

    want = verify_claim.scan_games(inputs).read_all().to_pylist()
    # Cut into small ranges: the game numbers, lines and error places of
    # later pieces move on by the pieces before them.
    for split in (None, 256 << 10):
        df = vcs.scan_games_files(spark, inputs, split_bytes=split)
        assert df.columns == COLUMNS
        got = [r.asDict() for r in df.collect()]
        assert as_set(got) == as_set(want), split


def test_spark_cuts_64_mb_into_partitions_and_tells_progress(libs, spark, tmp_path):
    from verify_claim import spark as vcs

    path = repeated(tmp_path, "big.pgn", 64 << 20)
    calls = []
    df = vcs.scan_games_files(spark, path, progress=lambda d, t: calls.append((d, t)))
    assert df.rdd.getNumPartitions() >= 2
    size = os.path.getsize(path)
    assert calls[-1] == (size, size) and len(calls) >= 2, calls
    got = as_set(r.asDict() for r in df.toLocalIterator())
    want = as_set(verify_claim.scan_games(path).read_all().to_pylist())
    assert got == want
