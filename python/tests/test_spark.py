"""verify_claim.spark in local mode (local[2]) against the CLI."""

import os
import sys
import re
import time

import pytest

import verify_claim
from conftest import FIXTURES, cli_path, jsonl, run, skip_or_fail

try:
    import pyarrow  # noqa: F401
    from pyspark.sql import SparkSession
except ImportError as e:  # pragma: no cover - depends on the environment
    SparkSession = None
    MISSING = str(e)

from verify_claim import spark as vcs

KEY = ("file", "game", "ply")


@pytest.fixture(scope="module")
def spark():
    if SparkSession is None:
        skip_or_fail(f"pyspark/pyarrow not installed: {MISSING}")
    # The workers run this interpreter, where verify_claim is installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    s = (
        SparkSession.builder.master("local[2]")
        .appName("verify-claim-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


def rows(df):
    return [r.asDict() for r in df.collect()]


def cli_scan(*args):
    status, out, err = run(cli_path(), "scan", "--format=jsonl", "--no-progress", *map(str, args))
    assert status in (0, 1), err
    return [{c: f.get(c) for c in vcs.COLUMNS} for f in jsonl(out)]


def ordered(findings):
    return sorted(findings, key=lambda f: tuple(f[k] for k in KEY) + (f["line"], f["kind"], f["message"]))


def test_fixtures_with_ranges(spark):
    want = cli_scan(FIXTURES)
    # Cut the larger plain files into ranges of about 16 kB: cuts fall
    # inside games and move to the next game boundary.
    got = rows(vcs.scan_files(spark, [FIXTURES], split_bytes=16384))
    assert got == want
    assert rows(vcs.scan_files(spark, FIXTURES)) == want


def multi_frame_zst(tmp_path):
    """A .zst of three zstd frames (as `cat a.zst b.zst c.zst` makes, and
    as lichess's pzstd files hold), each about 5 MB decoded and cut inside
    a game: three runs of frames for the crate."""
    import shutil
    import subprocess

    if shutil.which("zstd") is None:
        skip_or_fail("no zstd command (apt-get install zstd)")
    game = (FIXTURES / "chess/lichess-sample.pgn").read_bytes()
    text = (game + b"\n") * 120  # 15 MB
    cut = len(text) // 3 + 101
    out = tmp_path / "month.pgn.zst"
    with open(out, "wb") as f:
        for k in range(3):
            piece = tmp_path / f"piece{k}"
            piece.write_bytes(text[k * cut:(k + 1) * cut])
            f.write(subprocess.run(["zstd", "-1", "-q", "-c", str(piece)], check=True,
                                   capture_output=True).stdout)
    return out


def test_a_multi_frame_zst_is_cut_into_runs_of_frames(spark, tmp_path):
    zst = multi_frame_zst(tmp_path)
    want = cli_scan(zst)
    assert len(want) > 100
    tasks = vcs._tasks([str(zst)], 1, 2)
    assert [t[4] for t, _ in tasks] == [True, True, True]  # one task per run
    assert sum(size for _, size in tasks) == zst.stat().st_size
    df = vcs.scan_files(spark, zst, split_bytes=1)
    assert df.rdd.getNumPartitions() >= 2
    assert rows(df) == want  # the CLI's findings, numbers and order
    # The default: one task for a file this small (under 64 MiB).
    assert len(vcs._tasks([str(zst)], vcs.SPLIT_BYTES, 2)) == 1
    assert rows(vcs.scan_files(spark, zst)) == want


def plan(df):
    return df._jdf.queryExecution().executedPlan().toString()


def test_no_stage_scans_twice_and_nothing_stays_persisted(spark):
    # Whole files: no global sort (whose sampling job would run the scan a
    # second time), no exchange at all.
    df = vcs.scan_files(spark, FIXTURES)
    assert "Exchange" not in plan(df) and "rangepartitioning" not in plan(df)
    # Ranges: the scan runs once into a local checkpoint that Spark
    # releases with the DataFrame; nothing is cached by name.
    df = vcs.scan_files(spark, FIXTURES, split_bytes=16384)
    assert "rangepartitioning" not in plan(df)
    # Renumbered by literal arrays: no join, no broadcast job.
    assert "Join" not in plan(df) and "Exchange" not in plan(df)
    jsc = spark.sparkContext._jsc
    assert df.count() > 0
    del df
    import gc

    deadline = time.monotonic() + 60
    while jsc.getPersistentRDDs().size() > 0:
        assert time.monotonic() < deadline, "the checkpoint of a dropped scan was never released"
        gc.collect()
        spark.sparkContext._jvm.System.gc()
        time.sleep(0.2)


def test_options_reach_the_tasks(spark):
    for kw in ({"min_severity": "warning"}, {"rules": "fide-2014", "dead_search": "full"},
               {"game_type": "chess", "encoding": "latin1"}, {"column_rules": "rejump"}):
        flags = [f"--{k.replace('_', '-')}={v}" for k, v in kw.items()]
        want = cli_scan(FIXTURES, *flags)
        assert rows(vcs.scan_files(spark, FIXTURES, split_bytes=16384, **kw)) == want
    with pytest.raises(ValueError, match="^rules="):
        vcs.scan_files(spark, FIXTURES, rules="fide-1066")
    with pytest.raises(TypeError):
        vcs.scan_files(spark, FIXTURES, jobs=2)
    with pytest.raises(FileNotFoundError):
        vcs.scan_files(spark, "/nonexistent/x.pgn")


def test_corpus_equals_cli(spark, corpus):
    t = time.perf_counter()
    want = cli_scan(corpus)
    cli_s = time.perf_counter() - t
    t = time.perf_counter()
    got = rows(vcs.scan_files(spark, [str(corpus)], split_bytes=256 << 10))
    spark_s = time.perf_counter() - t
    print(f"corpus: {len(want)} findings; CLI {cli_s:.2f} s, Spark local[2] {spark_s:.2f} s")
    assert ordered(got) == ordered(want)
    assert got == want  # the CLI's order itself


def test_small_files_share_partitions():
    # 180 small files must not cost 180 Spark partitions; order is kept,
    # and every core still gets work.
    tasks = [((i, f"f{i}.pgn", 0, 0, True), 1000) for i in range(180)]
    groups = vcs._partitions(tasks, 128 << 20, 2)
    assert len(groups) == 2
    assert [t for g in groups for t in g] == [t for t, _ in tasks]
    big = [((i, "big.pgn", i, i + 1, False), 1 << 20) for i in range(8)]
    assert len(vcs._partitions(big, 1 << 20, 2)) == 8
    assert len(vcs._partitions(tasks[:1], 128 << 20, 2)) == 1
    # Uneven tasks still give every core a partition when there are enough.
    uneven = [((0, "a.pgn", 0, 0, True), 100 << 20), ((1, "b.pgn", 0, 0, True), 1 << 20)]
    assert len(vcs._partitions(uneven, 128 << 20, 2)) == 2


@pytest.mark.parametrize("parallelism", [2, 3, 8])
def test_a_large_input_gives_the_default_parallelism_in_tasks(tmp_path, parallelism):
    # 64 MiB or more: at least `parallelism` tasks and partitions, whatever
    # split_bytes says (here the default 512 MiB, larger than the file).
    big = tmp_path / "big.pgn"
    game = (FIXTURES / "chess/lichess-sample.pgn").read_bytes()
    with open(big, "wb") as f:
        while f.tell() < vcs.SPLIT_FLOOR:
            f.write(game + b"\n")
    sized = vcs._tasks([str(big)], vcs.SPLIT_BYTES, parallelism)
    assert len(sized) >= parallelism
    assert len(vcs._partitions(sized, vcs.SPLIT_BYTES, parallelism)) >= parallelism
    # In full waves of equal pieces: no core idles while one runs a last piece.
    assert len(sized) % parallelism == 0
    sizes = [size for _, size in sized]
    assert max(sizes) - min(sizes) < len(sizes)  # the last is shorter by the rounding
    # The ranges meet: together they are the file.
    assert sum(size for _, size in sized) == big.stat().st_size
    small = tmp_path / "small.pgn"
    small.write_bytes(game)
    assert len(vcs._tasks([str(small)], vcs.SPLIT_BYTES, parallelism)) == 1


def test_pieces_come_in_full_waves_of_equal_size():
    mib = 1 << 20
    # 5 pieces of at most 128 MiB would leave one of 2 cores idle for the
    # fifth: 6 of 107 MiB instead. Under 64 MiB, split_bytes alone.
    assert vcs._pieces(640 * mib, 128 * mib, 2, 640 * mib) == 6
    assert vcs._pieces(640 * mib, 128 * mib, 4, 640 * mib) == 8
    assert vcs._pieces(60 * mib, 16 * mib, 8, 60 * mib) == 4
    # Never pieces under MIN_RANGE for the waves' sake; an explicit small
    # split_bytes is kept.
    assert vcs._pieces(65 * mib, 512 * mib, 100, 65 * mib) == 65
    assert vcs._pieces(3 * mib, 16384, 2, 3 * mib) == 192
    # Frame runs in groups of about equal compressed size.
    runs = [5, 7, 6, 5, 6, 7, 5, 6, 7, 6]
    groups = vcs._run_groups(runs, 3)
    assert [g[2] for g in groups] == [23, 18, 19]
    assert [(a, b) for a, b, _ in groups] == [(0, 4), (4, 7), (7, 10)]
    assert vcs._run_groups([1, 100, 1], 3) == [(0, 2, 101), (2, 3, 1)]
    assert vcs._run_groups([3, 3], 5) == [(0, 1, 3), (1, 2, 3)]


def test_totals_never_count_a_task_twice(spark):
    # A task run again (a retry, a speculative copy, a recomputed
    # partition) sends the same entry: the driver's totals are unchanged.
    acc = vcs._accumulator(spark.sparkContext)
    for _ in range(2):
        acc.add({3: (10, 500)})
    acc.add({4: (1, 20)})
    assert acc.value == {3: (10, 500), 4: (1, 20)}
    assert vcs._offsets([(3, "a"), (4, "a"), (5, "b")], acc.value) == [(0, 0), (10, 500), (0, 0)]


def games_of(path):
    """The plain file cut by the crate's range scan into 512-byte ranges:
    nearly one game each (the games that start in the range); with each
    piece's first game number and line."""
    from verify_claim import _native

    settings = _native.Settings()
    data = path.read_bytes()
    line_starts = [0] + [m.end() for m in re.finditer(b"\n", data)]
    cuts, game, line = [], 1, 1
    for start in range(0, len(data), 512):
        native = _native.scan_range(str(path), start, min(start + 512, len(data)), settings, 0)
        for _ in native:
            pass
        games, lines = native.totals()
        if games:
            cuts.append((game, line, games))
        game += games
        line += lines
    pieces = []
    for k, (game, line, games) in enumerate(cuts):
        start = line_starts[line - 1]
        end = line_starts[cuts[k + 1][1] - 1] if k + 1 < len(cuts) else len(data)
        pieces.append((str(path), game, line, data[start:end].decode("utf-8", "replace"), games))
    return pieces


def test_scan_column_per_game(spark, corpus):
    files = [corpus / "lichess/lichess_db_1000k.pgn", corpus / "twic/twic1599_1000k.pgn",
             *sorted((corpus / "scalachess").glob("*.pgn"))]
    pieces = [p for f in files for p in games_of(f)]
    assert sum(1 for p in pieces if p[4] == 1) > 0.99 * len(pieces)
    df = spark.createDataFrame([p[:4] for p in pieces], "file string, first_game long, first_line long, pgn string")
    got = []
    for r in vcs.scan_column(df).collect():
        for f in r["findings"]:
            f = f.asDict()
            f["file"], f["game"], f["line"] = r["file"], f["game"] + r["first_game"] - 1, f["line"] + r["first_line"] - 1
            got.append(f)
    want = cli_scan(*files)
    assert ordered(got) == ordered(want)


def test_scan_column_rows_without_findings_and_bytes(spark):
    text = (FIXTURES / "scan/kinds.pgn").read_text()
    df = spark.createDataFrame([(1, "1. e4 e5 *\n"), (2, text), (3, None)], "id long, pgn string")
    out = {r["id"]: r["findings"] for r in vcs.scan_column(df).collect()}
    assert out[1] == [] and out[3] == []
    want = list(verify_claim.scan_text(text.encode()))
    assert [f.asDict() for f in out[2]] == [{c: w.get(c) for c in vcs.COLUMNS} for w in want]
