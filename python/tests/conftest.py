"""Shared helpers: the CLI to compare with, the fixtures, ../shared/corpus.

The CLI is `$VERIFY_CLAIM_BIN`, else the repository's target/release or
target/debug binary. Tests that need something absent print
`SKIPPED: ...`; with VERIFY_CLAIM_REQUIRE_ORACLE=1 and ../shared present
they fail instead.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"


def skip_or_fail(reason: str) -> None:
    if os.environ.get("VERIFY_CLAIM_REQUIRE_ORACLE") == "1" and SHARED.is_dir():
        pytest.fail(f"required but missing: {reason}")
    print(f"SKIPPED: {reason}")
    pytest.skip(f"SKIPPED: {reason}")


def cli_path() -> str:
    env = os.environ.get("VERIFY_CLAIM_BIN")
    if env:
        return env
    for profile in ("release", "debug"):
        p = REPO / "target" / profile / "verify-claim"
        if p.exists():
            return str(p)
    skip_or_fail("no verify-claim binary (set VERIFY_CLAIM_BIN or cargo build --release)")
    return ""


@pytest.fixture(scope="session")
def cli():
    return cli_path()


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.is_dir():
        skip_or_fail(f"{CORPUS} is absent")
    return CORPUS


DIAG = re.compile(r"^(?P<file>.*?):(?:(?P<line>\d+):(?P<col>\d+):)? error: (?P<msg>.*)$", re.S)


def run(cli: str, *args: str, stdin: bytes = None):
    """(status, stdout, stderr) of the CLI."""
    p = subprocess.run([cli, *args], input=stdin, capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def parse_diag(stderr: str):
    """(file, line, column, message) of the CLI's one error line."""
    m = DIAG.match(stderr.strip())
    assert m, stderr
    line = int(m["line"]) if m["line"] else None
    col = int(m["col"]) if m["col"] else None
    return m["file"], line, col, m["msg"]


def jsonl(stdout: str):
    return [json.loads(line) for line in stdout.splitlines() if line]
