"""Issue 40, the Python package's edges: Ctrl-C with real signals, an
abandoned scan stops its threads, paths that are not UTF-8, negative
counts."""

import gc
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import verify_claim

# A game with no finding: an endless stream of them keeps a scan (and a
# claim, which counts the games) waiting for ever, with nothing to yield.
QUIET = b'[Event "x"]\n\n1. e4 e5 *\n\n'
MATE = b'[Event "m"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n'
# A hang, not slowness: every wait below ends as soon as its condition holds.
LIMIT = 120


class Feeder:
    """Writes `first`, then QUIET games for ever, into a FIFO, until its
    reader closes it: `closed` is set then (the reading stopped)."""

    def __init__(self, path: Path, first: bytes = b""):
        os.mkfifo(path)
        self.path = path
        self.first = first
        self.closed = threading.Event()
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        try:
            with open(self.path, "wb") as f:
                self.opened.set()
                f.write(self.first)
                block = QUIET * 4096
                while True:
                    f.write(block)
        except (BrokenPipeError, OSError):
            self.closed.set()


def main_thread_sleeps(pid: int) -> bool:
    """Whether the process's main thread is blocked (state S): in a wait."""
    try:
        stat = Path(f"/proc/{pid}/task/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] == "S"


def wait_for(condition, what: str):
    deadline = time.monotonic() + LIMIT
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {LIMIT} s"
        time.sleep(0.02)


CHILD = r"""
import sys, time, verify_claim
fifo, what = sys.argv[1], sys.argv[2]
try:
    if what == "scan":
        s = verify_claim.scan(fifo, jobs=2)
        print("ready", flush=True)
        next(s)  # no finding ever comes
    else:
        print("ready", flush=True)
        verify_claim.decide(fifo)
    print("returned", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SKIPPED: /proc and FIFOs")
@pytest.mark.parametrize("what", ["scan", "decide"])
def test_ctrl_c_interrupts_a_waiting_call_and_stops_the_work(tmp_path, what):
    """40.11: SIGINT while `scan`'s iterator or `decide` waits for Rust
    work raises KeyboardInterrupt, and the Rust work stops (the FIFO it
    read is closed). Before, the wait ignored signals until it returned."""
    feeder = Feeder(tmp_path / "endless.pgn")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(feeder.path), what],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        # The signal must come while the main thread waits in the call.
        wait_for(lambda: main_thread_sleeps(child.pid), "wait in the call")
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=LIMIT)
    finally:
        child.kill()
    assert out.strip() == "interrupted", (out, err)
    wait_for(feeder.closed.is_set, "stop of the reading")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SKIPPED: FIFOs")
def test_a_dropped_or_closed_scan_stops_its_threads(tmp_path):
    """40.12: `del s` (or closing a scan_arrow reader) stops the scan's
    threads: the FIFO they read is closed. Before, a scan with nothing to
    yield read its input to the end, using CPU, after it was dropped."""
    # Nothing to yield: only the stop can end the reading.
    feeder = Feeder(tmp_path / "a.pgn")
    s = verify_claim.scan(feeder.path, jobs=2)
    wait_for(feeder.opened.is_set, "scan reading")
    del s
    gc.collect()
    wait_for(feeder.closed.is_set, "stop after del")
    feeder = Feeder(tmp_path / "b.pgn")
    reader = verify_claim.scan_arrow(feeder.path, jobs=2)
    wait_for(feeder.opened.is_set, "scan reading")
    reader.close()
    del reader
    gc.collect()
    wait_for(feeder.closed.is_set, "stop after close")


def test_paths_that_are_not_utf8(tmp_path):
    """40.13: a name that is not UTF-8 (from Path.iterdir(), as bytes, as
    os.fsdecode gives it) is read; the findings give back a usable path."""
    raw = os.fsencode(str(tmp_path)) + b"/caf\xe9.pgn"
    with open(raw, "wb") as f:
        f.write(MATE)
    (p,) = list(tmp_path.iterdir())
    assert verify_claim.decide(p)["game_over"]["reason"] == "checkmate"
    assert verify_claim.decide(raw)["game_over"]["reason"] == "checkmate"
    assert verify_claim.decide(os.fsdecode(raw))["game_over"]["reason"] == "checkmate"
    for given in (p, raw, tmp_path):
        (mate,) = [f for f in verify_claim.scan(given) if f["kind"] == "checkmate"]
        assert os.path.exists(mate["file"]), mate["file"]
        assert os.fsencode(mate["file"]) == raw
        assert verify_claim.decide(mate["file"])["game_over"]["reason"] == "checkmate"
    table = verify_claim.scan_arrow([p]).read_all()
    assert "checkmate" in table.column("kind").to_pylist()


def test_negative_counts_are_value_errors_naming_the_keyword(tmp_path):
    """40.14: a negative count is a ValueError naming its keyword, as
    game=0 is (before: OverflowError naming none)."""
    path = tmp_path / "g.pgn"
    path.write_bytes(MATE)
    for call, key, value in [
        (verify_claim.decide, "game", -1),
        (verify_claim.decide, "ply", -1),
        (verify_claim.scan, "jobs", -1),
        (verify_claim.scan, "min_draw_moves", -5),
        (verify_claim.scan_arrow, "jobs", -2),
        (verify_claim.decide, "ply", 2**70),
        (verify_claim.scan, "jobs", -(2**70)),
    ]:
        with pytest.raises(ValueError, match=f"^{key}={value}: ") as e:
            call(path, **{key: value})
        assert not isinstance(e.value, OverflowError)
    with pytest.raises(ValueError, match="^game=-1: games are counted from 1"):
        verify_claim.decide_text(MATE, game=-1)
    with pytest.raises(TypeError):
        verify_claim.decide(path, ply="3")
