"""scan_arrow: a pyarrow RecordBatchReader of findings, read by DuckDB and
Polars (both real, from pip), against the CLI's counts per kind."""

import collections

import pytest

import verify_claim
from verify_claim import InputError
from conftest import FIXTURES, jsonl, run, skip_or_fail

try:
    import duckdb
    import polars
    import pyarrow as pa
except ImportError as e:  # pragma: no cover - depends on the environment
    duckdb = None
    MISSING = str(e)


@pytest.fixture(scope="module")
def libs():
    if duckdb is None:
        skip_or_fail(f"duckdb/polars/pyarrow not installed: {MISSING}")


def cli_rows(cli, *args):
    status, out, err = run(cli, "scan", "--format=jsonl", "--no-progress", *map(str, args))
    assert status in (0, 1), err
    return jsonl(out)


def kinds(rows):
    return dict(collections.Counter(r["kind"] for r in rows))


def test_the_columns_are_typed(libs):
    reader = verify_claim.scan_arrow(FIXTURES / "scan")
    assert isinstance(reader, pa.RecordBatchReader)
    s = reader.schema
    assert s.names == ["file", "game", "line", "ply", "kind", "side", "move", "message", "severity",
                       "column", "white", "black", "recorded", "expected"]
    for name in ("game", "line", "ply", "column"):
        assert s.field(name).type == pa.int64()
    for name in ("file", "kind", "message", "severity", "white", "black"):
        assert s.field(name).type == pa.string() and not s.field(name).nullable
    for name in ("side", "move", "recorded", "expected"):
        assert s.field(name).nullable


def test_duckdb_counts_per_kind_equal_cli(libs, cli, corpus):
    want = kinds(cli_rows(cli, corpus))
    reader = verify_claim.scan_arrow(corpus)
    got = dict(duckdb.sql("select kind, count(*) from reader group by kind").fetchall())
    assert got == want


def test_polars_counts_per_kind_equal_cli(libs, cli, corpus):
    want = kinds(cli_rows(cli, corpus))
    df = polars.from_arrow(verify_claim.scan_arrow(corpus, jobs=2))
    got = dict(df.group_by("kind").len().iter_rows())
    assert got == want
    assert df.height == sum(want.values())


def test_rows_equal_cli_in_order(libs, cli):
    want = cli_rows(cli, FIXTURES)
    table = verify_claim.scan_arrow(FIXTURES).read_all()
    assert table.to_pylist() == [{c: w.get(c) for c in table.column_names} for w in want]


def test_empty_scan_has_the_schema(libs, tmp_path):
    p = tmp_path / "clean.pgn"
    p.write_text('[Event "x"]\n\n1. e4 e5 2. Nf3 *\n')
    table = verify_claim.scan_arrow(p).read_all()
    assert table.num_rows == 0 and table.num_columns == 14


def test_an_unreadable_input_raises_input_error(libs, tmp_path):
    bad = tmp_path / "broken.pgn.zst"
    bad.write_bytes(b"not zstd\n" * 10)
    with pytest.raises(InputError) as e:
        verify_claim.scan_arrow([FIXTURES / "scan", bad]).read_all()
    assert e.value.file == str(bad)
    with pytest.raises(FileNotFoundError):
        verify_claim.scan_arrow("/nonexistent/x.pgn")
