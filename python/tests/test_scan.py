"""scan against `verify-claim scan --format jsonl`: fixtures, corpus, text."""

import itertools
import time
from pathlib import Path

import pytest

import verify_claim
from verify_claim import InputError
from conftest import FIXTURES, jsonl, run


def cli_scan(cli, *args, stdin=None):
    status, out, err = run(cli, "scan", "--format=jsonl", "--no-progress", *args, stdin=stdin)
    assert status in (0, 1), err
    return jsonl(out)


def test_fixtures_equal_cli(cli):
    want = cli_scan(cli, str(FIXTURES))
    assert len(want) > 20
    assert list(verify_claim.scan(FIXTURES)) == want
    assert list(verify_claim.scan(str(FIXTURES), jobs=1)) == want
    # Every subdirectory, in the walk's order, as paths and strings mixed.
    dirs = sorted(p for p in FIXTURES.iterdir() if p.is_dir())
    mixed = [str(d) if i % 2 else d for i, d in enumerate(dirs)]
    assert len(dirs) >= 4
    assert list(verify_claim.scan(mixed)) == want


@pytest.mark.parametrize("rules,dead", [("fide-2014", "quick"), ("auto", "full")])
def test_options_equal_cli(cli, rules, dead):
    path = FIXTURES / "scan"
    want = cli_scan(cli, str(path), f"--rules={rules}", f"--dead-search={dead}")
    assert list(verify_claim.scan(path, rules=rules, dead_search=dead)) == want


def test_text_and_bytes_equal_cli_on_stdin(cli):
    path = FIXTURES / "chess/lichess-sample.pgn"
    data = path.read_bytes()
    want = cli_scan(cli, "-", stdin=data)
    for w in want:
        w["file"] = "<string>"
    assert want
    assert list(verify_claim.scan(data)) == want
    assert list(verify_claim.scan(data.decode("utf-8"), jobs=2)) == want


def test_unreadable_input_raises_after_the_findings(cli):
    it = verify_claim.scan([FIXTURES / "scan", Path("/nonexistent/none.pgn")])
    got = []
    with pytest.raises(InputError) as e:
        for f in it:
            got.append(f)
    assert got == cli_scan(cli, str(FIXTURES / "scan"))
    assert e.value.file == "/nonexistent/none.pgn"


def test_bad_options():
    with pytest.raises(ValueError, match="rules"):
        verify_claim.scan(FIXTURES, rules="fide-1900")
    with pytest.raises(ValueError, match="search"):
        verify_claim.scan(FIXTURES, dead_search="deep")


def test_corpus_equals_cli(cli, corpus):
    t = time.perf_counter()
    want = cli_scan(cli, str(corpus))
    cli_s = time.perf_counter() - t
    t = time.perf_counter()
    got = list(verify_claim.scan(corpus))
    py_s = time.perf_counter() - t
    print(f"corpus: {len(want)} findings; CLI {cli_s:.2f} s, verify_claim.scan {py_s:.2f} s")
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == w


def test_streams_and_stops_early(corpus):
    t = time.perf_counter()
    first = list(itertools.islice(verify_claim.scan(corpus), 3))
    assert len(first) == 3
    assert time.perf_counter() - t < 30


def test_a_worker_panic_raises_naming_file_and_game(tmp_path, monkeypatch):
    # The hidden debug switch: the game whose Event it names panics in a
    # worker; the scan ends with an error, never hangs.
    games = "".join(f'[Event "{i}"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n' for i in range(4))
    path = tmp_path / "panic.pgn"
    path.write_text(games.replace('[Event "2"]', '[Event "debug-panic-py"]'))
    monkeypatch.setenv("VERIFY_CLAIM_DEBUG_PANIC", "debug-panic-py")
    for source in (path, path.read_bytes()):
        with pytest.raises(RuntimeError) as e:
            list(verify_claim.scan(source, jobs=2))
        assert "game 3: internal error" in str(e.value)
    with pytest.raises(RuntimeError) as e:
        list(verify_claim.scan(path, jobs=1))
    assert str(path) in str(e.value) and "game 3: internal error" in str(e.value)
