"""scan against `verify-claim scan --format jsonl`: fixtures, corpus, text."""

import itertools
import time
from pathlib import Path

import pytest

import verify_claim
from verify_claim import InputError
from conftest import FIXTURES, jsonl, run


def cli_scan_any(cli, *args):
    _, out, _ = run(cli, "scan", "--format=jsonl", "--no-progress", *args)
    return jsonl(out)


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
    assert list(verify_claim.scan_text(data)) == want
    assert list(verify_claim.scan_text(data.decode("utf-8"), jobs=2)) == want
    for w in want:
        w["file"] = "sample.pgn"
    assert list(verify_claim.scan_text(data, name="sample.pgn")) == want


def test_a_string_is_a_path_never_a_record():
    with pytest.raises(FileNotFoundError) as e:
        verify_claim.scan("1. e4 e5 *\n")
    assert e.value.filename == "1. e4 e5 *\n"
    with pytest.raises(FileNotFoundError):  # bytes are a path, never a record
        verify_claim.scan(b"1. e4 e5 *\n")
    with pytest.raises(TypeError):
        verify_claim.scan(bytearray(b"1. e4 e5 *\n"))  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        verify_claim.scan([FIXTURES, "/nonexistent/none.pgn"])


SCAN_OPTIONS = [
    {"min_severity": "warning"},
    {"min_severity": "error", "jobs": 1},
    {"game_type": "chess"},
    {"game_type": "column-draughts"},
    {"column_rules": "rejump"},
    {"encoding": "latin1"},
    {"encoding": "utf8"},
    {"min_draw_moves": 30},
    {"follow": True},
    {"rules": "fide-2009", "dead_search": "full"},
]


def cli_args(kw):
    out = []
    for k, v in kw.items():
        flag = "--" + k.replace("_", "-")
        if v is True:
            out.append(flag)
        else:
            out.append(f"{flag}={v}")
    return out


@pytest.mark.parametrize("kw", SCAN_OPTIONS, ids=repr)
def test_every_scan_option_equals_cli(cli, kw):
    want = cli_scan(cli, str(FIXTURES), *cli_args(kw))
    assert list(verify_claim.scan(FIXTURES, **kw)) == want
    arrow = verify_claim.scan_arrow(FIXTURES, **kw).read_all().to_pylist()
    assert arrow == [{c: w.get(c) for c in arrow[0]} for w in want] if want else arrow == []


def test_the_scan_counts_what_it_read(cli):
    it = verify_claim.scan(FIXTURES / "scan")
    assert it.games is None
    list(it)
    assert it.games and it.games > 0 and it.lines and it.lines > it.games


def test_unreadable_input_raises_after_the_findings(cli, tmp_path):
    # A file that exists but cannot be read as records: a directory's
    # content that is not text (a .zst that is not zstd).
    bad = tmp_path / "broken.pgn.zst"
    bad.write_bytes(b"not zstd at all\n" * 10)
    it = verify_claim.scan([FIXTURES / "scan", bad])
    got = []
    with pytest.raises(InputError) as e:
        for f in it:
            got.append(f)
    assert got == cli_scan_any(cli, str(FIXTURES / "scan"))
    assert e.value.file == str(bad)
    status, _, err = run(cli, "scan", "--format=jsonl", "--no-progress", str(bad))
    assert status == 2 and e.value.message in err


def test_bad_options():
    bad = {"rules": "fide-1900", "dead_search": "deep", "game_type": "go", "column_rules": "x",
           "encoding": "ascii", "min_severity": "fatal", "jobs": 0}
    for key, value in bad.items():
        for call in (verify_claim.scan, verify_claim.scan_arrow):
            with pytest.raises(ValueError, match=f"^{key}=") as e:
                call(FIXTURES, **{key: value})
            assert "--" not in str(e.value)
        with pytest.raises(ValueError, match=f"^{key}="):
            verify_claim.scan_text("1. e4 *\n", **{key: value})
    with pytest.raises(TypeError):
        verify_claim.scan(FIXTURES, fail_on="error")  # the exit status: not an option here
    with pytest.raises(TypeError):
        verify_claim.scan_text("1. e4 *\n", follow=True)


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
    for scan, source in ((verify_claim.scan, path), (verify_claim.scan_text, path.read_bytes())):
        with pytest.raises(RuntimeError) as e:
            list(scan(source, jobs=2))
        assert "game 3: internal error" in str(e.value)
    with pytest.raises(RuntimeError) as e:
        list(verify_claim.scan(path, jobs=1))
    assert str(path) in str(e.value) and "game 3: internal error" in str(e.value)
