"""The exceptions: made by the native module and chosen by the kind of the
engine's error, never by the words of its message."""

import errno
import os
import pickle
import shutil
import tempfile

import pytest

import verify_claim
from verify_claim import InputError, InputFileNotFoundError, InputPermissionError

NOBODY = 65534


def test_a_file_gone_between_the_check_and_the_read_is_a_file_not_found_error(tmp_path):
    # A dangling link exists for the package's own check (os.path.lexists)
    # and fails in the engine's open: the native module raises it.
    link = tmp_path / "gone.pgn"
    link.symlink_to(tmp_path / "nowhere.pgn")
    for call in (
        lambda: verify_claim.decide(link),
        lambda: list(verify_claim.scan(link)),
    ):
        with pytest.raises(FileNotFoundError) as e:
            call()
        err = e.value
        assert type(err) is InputFileNotFoundError, type(err).__mro__
        assert isinstance(err, InputError) and isinstance(err, ValueError)
        assert err.errno == errno.ENOENT and err.filename == str(link)
        assert (err.file, err.line, err.column, err.kind) == (str(link), None, None, "io")
        again = pickle.loads(pickle.dumps(err))
        assert type(again) is InputFileNotFoundError and again.errno == errno.ENOENT
        assert (again.file, again.kind) == (str(link), "io")


def permission_denied(path: str) -> dict:
    """What `decide(path)` raises, as a dict of its class and attributes."""
    try:
        verify_claim.decide(path)
    except Exception as e:  # noqa: BLE001 - the test looks at whatever it is
        return {
            "classes": [c.__name__ for c in type(e).__mro__],
            "errno": getattr(e, "errno", None),
            "filename": getattr(e, "filename", None),
            "file": getattr(e, "file", None),
            "kind": getattr(e, "kind", None),
            "message": getattr(e, "message", None),
        }
    return {"classes": []}


def as_nobody(path: str) -> dict:
    """`permission_denied(path)` in a child that runs as `nobody` (root
    reads a file of mode 000: its children need not)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.write(write, repr(permission_denied(path)).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as r:
        got = r.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, got
    import ast

    return ast.literal_eval(got.decode())


def test_a_file_of_mode_000_is_a_permission_error():
    # A directory anyone can search (pytest's own is root's alone, and a
    # path that cannot be looked up is missing, not forbidden).
    folder = tempfile.mkdtemp(prefix="verify-claim-denied-")
    try:
        os.chmod(folder, 0o755)
        path = os.path.join(folder, "locked.pgn")
        with open(path, "w") as f:
            f.write("1. e4 e5 *\n")
        os.chmod(path, 0)
        got = as_nobody(path) if os.geteuid() == 0 else permission_denied(path)
    finally:
        shutil.rmtree(folder)
    assert got["classes"][:2] == ["InputPermissionError", "PermissionError"], got
    assert {"OSError", "InputError", "ValueError"} <= set(got["classes"]), got
    assert (got["errno"], got["filename"], got["file"], got["kind"]) == (
        errno.EACCES, path, path, "io"
    ), got
    assert got["message"].startswith("cannot read: "), got


def test_a_directory_read_as_a_record_is_an_is_a_directory_error(tmp_path):
    with pytest.raises(IsADirectoryError) as e:
        verify_claim.decide(tmp_path)
    assert isinstance(e.value, InputError) and e.value.kind == "io"
    assert e.value.errno == errno.EISDIR


def test_input_errors_say_their_kind_and_are_no_os_errors():
    cases = {
        "1. e4 e5 2. Ke3 *\n": "illegal-move",
        "1. e4 e5 2. Zz9 *\n": "syntax",
        '[Event "a"\n\n1. e4 *\n': "syntax",
        "": "no-game",
        "1. e4 *\n\n1. d4 *\n": "option",
    }
    for text, kind in cases.items():
        with pytest.raises(InputError) as e:
            verify_claim.decide_text(text)
        assert e.value.kind == kind, (text, e.value)
        assert type(e.value) is InputError and not isinstance(e.value, OSError)
        assert str(e.value).startswith("<string>:")
    with pytest.raises(InputError) as e:
        verify_claim.check_position("not a fen")
    assert (e.value.file, e.value.kind) == ("<fen>", "syntax")


def test_the_classes_are_the_native_modules():
    from verify_claim import _native

    for name in ("InputError", "InputFileNotFoundError", "InputPermissionError"):
        assert getattr(verify_claim, name) is getattr(_native, name)
        assert getattr(verify_claim, name).__module__ == "verify_claim"
    assert issubclass(InputError, ValueError)
    made = InputError("by hand")
    assert (str(made), made.file, made.line, made.kind) == ("by hand", "", None, "")
