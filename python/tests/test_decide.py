"""decide and check_position against the CLI on the fixtures."""

import pickle
import re
from pathlib import Path

import pytest

import verify_claim
from stub_fields import present, stub_fields
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
    (FIXTURES / "chess/fools-mate.pgn", {"after": "40.Kg8"}),
    (FIXTURES / "chess/fools-mate.pgn", {"after": "x"}),
    (FIXTURES / "chess/threefold-written.pgn", {"move": "Ng8", "claimant": "white"}),
    (FIXTURES / "chess/threefold-written.pgn", {"move": "Ng8", "dead_search": "quick"}),
    (FIXTURES / "chess/threefold-written.pgn", {"encoding": "latin1", "game_type": "chess"}),
    (FIXTURES / "chess/threefold-written.pgn", {"encoding": "utf8"}),
    (FIXTURES / "draughts/repetition.pdn", {"game_type": "column-draughts", "column_rules": "rejump"}),
    (FIXTURES / "draughts/material.pdn", {"claim": "unchanged-material"}),
    (FIXTURES / "draughts/game.pdn", {"column_rules": "rejump", "claim": "threefold"}),
]



def cli_args(kw):
    """The keywords as CLI options: the same name (`-` for `_`), the same value."""
    return [f"--{k.replace('_', '-')}={v}" for k, v in kw.items()]


FLAG = re.compile(r"--([a-z][a-z-]*)(?: (\S+?))?(?=[:\s)]|$)")


def unflag(message):
    """The CLI's message as the binding words it: keywords, not flags."""
    def keyword(m):
        name = m[1].replace("-", "_")
        if m[2] is None:
            return name
        return f"{name}={m[2]}" if m[2].isdigit() else f"{name}={m[2]!r}".replace("'", '"')
    return FLAG.sub(keyword, message)


def expect_error(err):
    file, line, col, msg = parse_diag(err)
    return ("<fen>" if file == "--fen" else file), line, col, unflag(msg)


@pytest.mark.parametrize("path,kw", CASES, ids=lambda c: str(c)[-40:] if isinstance(c, Path) else repr(c))
def test_decide_equals_cli(cli, path, kw):
    status, out, err = run(cli, "claim", str(path), "--format=json", *cli_args(kw))
    if status == 2:
        with pytest.raises(InputError) as e:
            verify_claim.decide(path, **kw)
        assert (e.value.file, e.value.line, e.value.column, e.value.message) == expect_error(err)
        assert "--" not in str(e.value)
        return
    want = __import__("json").loads(out)
    assert verify_claim.decide(path, **kw) == want
    assert verify_claim.decide(str(path), **kw) == want
    # The same record as text and as bytes: only the name differs.
    text = path.read_text(encoding="utf-8")
    want["file"] = "<string>"
    assert verify_claim.decide_text(text, **kw) == want
    assert verify_claim.decide_text(path.read_bytes(), **kw) == want
    assert list(verify_claim.decide_text(text, **kw)) == list(want), "field order"
    want["file"] = "game.pgn"
    assert verify_claim.decide_text(text, name="game.pgn", **kw) == want


def test_input_error_has_a_place():
    with pytest.raises(InputError) as e:
        verify_claim.decide_text("[Event \"x\"]\n\n1. e4 e5 2. Kxe8 *\n")
    err = e.value
    assert isinstance(err, ValueError)
    assert (err.file, err.line, err.column) == ("<string>", 3, 13)
    assert "Kxe8" in err.message
    assert str(err).startswith("<string>:3:13: error: ")
    again = pickle.loads(pickle.dumps(err))
    assert (again.file, again.line, again.column, again.message) == (err.file, 3, 13, err.message)


def test_a_path_is_never_read_as_a_record_nor_the_reverse(tmp_path):
    # A string is a path for decide, a record for decide_text: no guess.
    with pytest.raises(FileNotFoundError) as e:
        verify_claim.decide("/path/game.pgn")
    assert e.value.filename == "/path/game.pgn"
    with pytest.raises(FileNotFoundError):
        verify_claim.decide("1. e4 e5 *\n")
    with pytest.raises(FileNotFoundError):  # bytes are a path (os.fsencode'd), never a record
        verify_claim.decide(b"1. e4 e5 *\n")
    with pytest.raises(InputError) as e:
        verify_claim.decide_text(str(FIXTURES / "chess/fools-mate.pgn"))
    assert e.value.file == "<string>"


def test_missing_file_and_bad_options():
    with pytest.raises(FileNotFoundError) as e:
        verify_claim.decide(Path("/nonexistent/x.pgn"))
    assert e.value.filename == "/nonexistent/x.pgn"
    text = "1. e4 *\n"
    bad = {
        "claim": "sixfold", "rules": "fide-1999", "claimant": "red", "game_type": "go",
        "column_rules": "loose", "encoding": "ebcdic", "dead_search": "deep",
    }
    for key, value in bad.items():
        with pytest.raises(ValueError, match=f"^{key}=") as e:
            verify_claim.decide_text(text, **{key: value})
        assert not isinstance(e.value, InputError) and "--" not in str(e.value)
    # The names are the library's tables, in the CLI's order (no copy in
    # the binding): `repetition` is read, as an alias, but not listed.
    with pytest.raises(ValueError) as e:
        verify_claim.decide_text(text, claim="sixfold")
    assert str(e.value) == (
        'claim="sixfold": expected one of "threefold", "fifty", "unchanged-material", "any"'
    )
    with pytest.raises(ValueError) as e:
        verify_claim.decide_text(text, rules="fide-1999")
    assert str(e.value).endswith('"auto", "fide-2009", "fide-2014", "fide-2018", "fide-2023"')
    assert verify_claim.decide_text(text, claim="repetition")["valid"] is False
    with pytest.raises(ValueError, match="^game=0"):
        verify_claim.decide_text(text, game=0)
    with pytest.raises(TypeError):
        verify_claim.decide_text(text, format="json")  # not an option: results are objects
    with pytest.raises(TypeError):
        verify_claim.decide_text(42)  # type: ignore[arg-type]


def test_version_is_the_crates(cli):
    import importlib.metadata

    _, out, _ = run(cli, "--version")
    assert out.split() == ["verify-claim", verify_claim.__version__]
    assert importlib.metadata.version("verify-claim") == verify_claim.__version__


FENS = [
    "8/8/3k4/1p1p1p1p/1P1P1P1P/3K4/8/8 w - - 0 1",
    "8/8/3k4/8/3n4/8/3KN3/8 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
]
# Column draughts: tower FENs.
TOWER_FENS = [
    "W:a1=w,c3=wb,d6=B:0:1",
    "W:c1=W,g1=wb,f8=B,a7=bww:20:40",
    "B:c3=w,d4=b:0:12",
    "W:Wc3:Bf6",  # not a tower FEN: an InputError
]


@pytest.mark.parametrize("fen", FENS)
@pytest.mark.parametrize("kw", [{"dead_search": "full"}, {"dead_search": "quick"}, {"side": "white"},
                                {"side": "black", "dead_search": "quick"}])
def test_check_position_equals_cli(cli, fen, kw):
    status, out, _ = run(cli, "check-position", f"--fen={fen}", "--format=json", *cli_args(kw))
    assert status == 0
    assert verify_claim.check_position(fen, **kw) == __import__("json").loads(out)


@pytest.mark.parametrize("fen", TOWER_FENS)
@pytest.mark.parametrize("kw", [{}, {"column_rules": "rejump"}, {"side": "black", "dead_search": "quick"}])
def test_check_position_column_draughts_equals_cli(cli, fen, kw):
    kw = {"game_type": "column-draughts", **kw}
    status, out, err = run(cli, "check-position", f"--fen={fen}", "--format=json", *cli_args(kw))
    if status == 2:
        with pytest.raises(InputError) as e:
            verify_claim.check_position(fen, **kw)
        assert (e.value.file, e.value.line, e.value.column, e.value.message) == expect_error(err)
        return
    assert status == 0, err
    assert verify_claim.check_position(fen, **kw) == __import__("json").loads(out)


def test_check_position_bad_options():
    fen = FENS[0]
    for key, value in {"side": "red", "dead_search": "deep", "game_type": "auto", "column_rules": "x"}.items():
        with pytest.raises(ValueError, match=f"^{key}="):
            verify_claim.check_position(fen, **{key: value})


def test_check_position_bad_fen(cli):
    status, _, err = run(cli, "check-position", "--fen=not a fen", "--format=json")
    assert status == 2
    with pytest.raises(InputError) as e:
        verify_claim.check_position("not a fen")
    assert (e.value.file, e.value.line, e.value.column, e.value.message) == expect_error(err)
    assert e.value.file == "<fen>" and "--" not in str(e.value)


def test_the_stub_names_every_field_of_the_results():
    fields = stub_fields()
    claim = verify_claim.decide(FIXTURES / "chess/threefold-written.pgn", move="Ng8")
    assert present(fields["ClaimResult"], claim) == list(claim)
    timed = verify_claim.decide(FIXTURES / "chess/lichess-sample.pgn", game=1)
    assert "clocks" in timed and present(fields["ClaimResult"], timed) == list(timed)
    assert fields["Count"] == list(claim["count"])
    assert fields["DeadCheck"] == list(claim["dead_check"])
    assert fields["Ground"] == list(claim["grounds"][0])
    finding = next(f for f in verify_claim.scan(FIXTURES) if "expected" in f)
    assert fields["Finding"] == list(finding)
