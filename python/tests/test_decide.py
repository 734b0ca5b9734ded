"""decide and check_position against the CLI on the fixtures."""

import pickle
from pathlib import Path

import pytest

import verify_claim
from verify_claim import InputError
from conftest import FIXTURES, parse_diag, run

RECORDS = sorted(FIXTURES.glob("chess/*.pgn")) + sorted(FIXTURES.glob("draughts/*.pdn"))

# (fixture, keyword arguments, the same as CLI options)
CASES = [(p, {}) for p in RECORDS] + [
    (FIXTURES / "chess/threefold-written.pgn", {"move": "Ng8"}),
    (FIXTURES / "chess/threefold-written.pgn", {"move": "Nf3", "claim": "fifty"}),
    (FIXTURES / "chess/round5.pgn", {"game": 2}),
    (FIXTURES / "chess/round5.pgn", {"game": 1, "ply": 3, "rules": "fide-2014"}),
    (FIXTURES / "chess/lichess-sample.pgn", {"game": 1, "after": "1.e4"}),
    (FIXTURES / "draughts/repetition.pdn", {"ply": 7, "move": "e7-f8"}),
    (FIXTURES / "chess/fools-mate.pgn", {"ply": 99}),
    (FIXTURES / "chess/fools-mate.pgn", {"move": "Qxx9"}),
]

OPTION = {"move": "--move", "ply": "--ply", "after": "--after", "game": "--game",
          "claim": "--claim", "rules": "--rules"}


def cli_args(kw):
    return [f"{OPTION[k]}={v}" for k, v in kw.items()]


@pytest.mark.parametrize("path,kw", CASES, ids=lambda c: str(c)[-40:] if isinstance(c, Path) else repr(c))
def test_decide_equals_cli(cli, path, kw):
    status, out, err = run(cli, "claim", str(path), "--format=json", *cli_args(kw))
    if status == 2:
        with pytest.raises(InputError) as e:
            verify_claim.decide(path, **kw)
        assert (e.value.file, e.value.line, e.value.column, e.value.message) == parse_diag(err)
        return
    want = __import__("json").loads(out)
    assert verify_claim.decide(path, **kw) == want
    # The same record as text and as bytes: only the name differs.
    text = path.read_text(encoding="utf-8")
    want["file"] = "<string>"
    assert verify_claim.decide(text, **kw) == want
    assert verify_claim.decide(path.read_bytes(), **kw) == want
    assert list(verify_claim.decide(text, **kw)) == list(want), "field order"


def test_input_error_has_a_place():
    with pytest.raises(InputError) as e:
        verify_claim.decide("[Event \"x\"]\n\n1. e4 e5 2. Kxe8 *\n")
    err = e.value
    assert isinstance(err, ValueError)
    assert (err.file, err.line, err.column) == ("<string>", 3, 13)
    assert "Kxe8" in err.message
    assert str(err).startswith("<string>:3:13: error: ")
    again = pickle.loads(pickle.dumps(err))
    assert (again.file, again.line, again.column, again.message) == (err.file, 3, 13, err.message)


def test_missing_file_and_bad_options():
    with pytest.raises(InputError) as e:
        verify_claim.decide(Path("/nonexistent/x.pgn"))
    assert e.value.file == "/nonexistent/x.pgn" and e.value.line is None
    with pytest.raises(ValueError, match="claim"):
        verify_claim.decide("1. e4 *\n", claim="sixfold")
    with pytest.raises(ValueError, match="rules"):
        verify_claim.decide("1. e4 *\n", rules="fide-1999")
    with pytest.raises(TypeError):
        verify_claim.decide(42)  # type: ignore[arg-type]


FENS = [
    "8/8/3k4/1p1p1p1p/1P1P1P1P/3K4/8/8 w - - 0 1",
    "8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
]


@pytest.mark.parametrize("fen", FENS)
@pytest.mark.parametrize("search", ["full", "quick"])
def test_check_position_equals_cli(cli, fen, search):
    status, out, _ = run(cli, "check-position", f"--fen={fen}", "--format=json", f"--dead-search={search}")
    assert status == 0
    assert verify_claim.check_position(fen, search=search) == __import__("json").loads(out)


def test_check_position_bad_fen(cli):
    status, _, err = run(cli, "check-position", "--fen=not a fen", "--format=json")
    assert status == 2
    with pytest.raises(InputError) as e:
        verify_claim.check_position("not a fen")
    assert (e.value.file, e.value.line, e.value.column, e.value.message) == parse_diag(err)
