#!/usr/bin/env python3
"""A mutation campaign against the release binary (not run by CI).

Takes stretches of real records (`../shared/corpus/` and `fixtures/`),
damages them (byte flips, truncations, inserted PGN characters, line ends
turned to CR, CRLF or lone CR, byte order marks, huge tokens), and runs each
through `scan` with --jobs 1, 2, 3 and 8 and through claim mode. It fails
an input when

- a run panics or is killed by a signal (exit 101, 134, 139, or < 0);
- a run hangs (no exit within --timeout seconds);
- a run's peak resident memory is over --max-rss MB (each run's own peak,
  from wait4; `--load N` runs N busy loops beside the campaign, so the
  bound is checked with the machine busy: what waits for output must be
  bounded, not the machine's speed);
- an error line has no `file:line:col` place;
- a game is lost: the scan's game count differs from claim mode's count, or
  is below the number of game starts (a tag line after a blank line), or a
  finding names a game past the count;
- the scan's output (findings, messages, counts) depends on --jobs;
- the scan's game count is not the number of game starts (one more when
  text before the first start is a game);
- python-chess (--python, chess 1.11.2) reads games where the reader sees
  none, or none where the reader sees one, and no documented rule explains
  it (`count_rules`: a blank line does not end a game's movetext; tag lines
  after a blank line start a game; a game start ends an open comment).

    scripts/mutation-campaign.py [--inputs 1000] [--seed 1] [--keep DIR] [--load 2]

Failing inputs are written to --keep (default /tmp/mutation-campaign) with
what failed; the summary gives counts per check. Exit status 1 if any input
failed.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JOBS = (1, 2, 3, 8)
PLACED = re.compile(rb"^.+:\d+:\d+: error: ")
# The one error about the inputs as a whole, not a place in them (standard
# input or directories that hold no game; a file named that holds none is an
# error at its 1:1): docs/bad-input.md#inputs-pipes-and-output.
WHOLE_INPUT = re.compile(rb"^.+: error: nothing scanned: no game in any input")
# The scan summary's timing varies from run to run.
TIMING = re.compile(rb" in [0-9.]+ s: [0-9.]+ games/s, [0-9.]+ MB/s")
# A game start (`record::boundary`): a tag line after a blank line, or at the
# start of the input. CRLF is one line end.
EOL = rb"(?:\r\n|\r(?!\n)|\n)"
GAME_START = re.compile(rb"(?:^|" + EOL + rb"[ \t\x0b\x0c]*" + EOL + rb")[ \t]*\[[A-Za-z0-9_+-]+[ \t]*\"")
SCANNED = re.compile(rb"scanned (\d+) games")
CLAIM_COUNT = re.compile(rb"the file has (\d+) game")
INSERTS = [b"(", b")", b"{", b"}", b";", b"%", b"[", b"]", b"\"", b"$", b"*", b"1-0",
           b"\n", b"\r", b"\r\n", b"\n\n", b"\n\n[Event \"x\"]\n", b"\x00", b"\xff", b"\xe9",
           b"0-0", b"O-O-O", b"Kxe8", b"e8=Q", b"--", b"...", b"1."]

# python-chess's games: where each begins in the text as python-chess sees
# it (decoded as UTF-8 with replacement, universal newlines, no BOM).
PC_STARTS = r"""
import io, json, sys, chess.pgn
text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
h = io.StringIO(text, newline="")
starts = []
while True:
    at = h.tell()
    try:
        game = chess.pgn.read_game(h)
    except Exception as e:
        print(json.dumps({"error": repr(e)})); sys.exit()
    if game is None:
        break
    starts.append(at)
print(json.dumps({"starts": starts}))
"""


def text_of(data):
    """The input as python-chess reads it, to compare places with it."""
    text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    return text.lstrip("\ufeff")


def first_line(text, at):
    """Where python-chess's game that it began reading at `at` has its first
    line: past blank lines and `%`/`;` lines."""
    while at < len(text):
        end = text.find("\n", at)
        end = len(text) if end < 0 else end + 1
        line = text[at:end]
        if not (line.isspace() or line.startswith("%") or line.startswith(";")):
            return at
        at = end
    return at


TEXT_START = re.compile(r"(?:^|\n[ \t\x0b\x0c]*\n)([ \t]*)\[[A-Za-z0-9_+-]+[ \t]*\"")


def count_rules(text, pc_starts):
    """The differences between python-chess's games and the reader's game
    starts, each with the documented rule that explains it, and those no rule
    explains. Returns (explained: {rule: n}, unexplained: [detail])."""
    ours = {m.start(1) for m in TEXT_START.finditer(text)}
    theirs = {first_line(text, a) for a in pc_starts}
    explained, unexplained = {}, []

    def note(rule):
        explained[rule] = explained.get(rule, 0) + 1

    lead = first_line(text, 0)
    for at in sorted(theirs - ours):
        if at == lead and not text[at:].lstrip(" \t").startswith("["):
            continue  # a game with no tags at the start: both read it
        if at >= len(text):
            note("python-chess: an empty game at the end of the input")
        elif not text[at:].lstrip(" \t").startswith("["):
            note("a blank line does not end a game's movetext (python-chess starts a game there)")
        elif at > 0 and not text[:at].endswith("\n"):
            unexplained.append(f"python-chess game at {at} mid-line")
        else:
            note("a tag line with no blank line before it starts no game")
    for at in sorted(ours - theirs):
        before = text[:at].rstrip()
        last = before[before.rfind("\n") + 1:].lstrip(" \t")
        if text[at:at + 1] in (" ", "\t"):
            note("an indented tag line after a blank line starts a game (python-chess: movetext)")
        elif last.startswith("["):
            note("tag lines after a blank line start a game (python-chess reads a '[' line as a tag line, "
                 "even a damaged one, and allows one blank line between tag lines)")
        elif before.count("{") > before.count("}"):
            note("a game start ends an open comment (python-chess reads on to its '}')")
        else:
            unexplained.append(f"reader's game start at {at} ({text[at:at + 30]!r}) is no python-chess game")
    return explained, unexplained


def sources():
    roots = [ROOT.parent / "shared" / "corpus", ROOT / "fixtures"]
    files = []
    for r in roots:
        if r.is_dir():
            files += sorted(p for p in r.rglob("*") if p.suffix in (".pgn", ".pdn") and p.is_file())
    if not files:
        sys.exit("no records found under ../shared/corpus or fixtures")
    return files


def stretch(rng, files):
    """Some games of a record: up to 40 KB from a game start."""
    data = Path(rng.choice(files)).read_bytes()
    if len(data) <= 40_000:
        return data
    starts = [m.start() for m in GAME_START.finditer(data, 0, len(data) - 1000)] or [0]
    a = rng.choice(starts)
    while a < len(data) and data[a:a + 1] in b"\r\n \t":
        a += 1
    return data[a:a + rng.randint(500, 40_000)]


def mutate(rng, data):
    kind = rng.choice(["flip", "truncate", "insert", "eol", "bom", "huge", "delete", "several"])
    return mutate_as(rng, data, kind), kind


def mutate_as(rng, data, kind):
    d = bytearray(data)
    n = max(len(d), 1)
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(n)
            if i < len(d):
                d[i] ^= 1 << rng.randrange(8)
    elif kind == "truncate":
        d = d[:rng.randrange(n)]
    elif kind == "insert":
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(n)
            d[i:i] = rng.choice(INSERTS)
    elif kind == "eol":
        text = bytes(d).replace(b"\r\n", b"\n")
        eol = rng.choice([b"\r", b"\r\n", b"\n"])
        if rng.random() < 0.3:
            # Mixed: each line end chosen alone.
            parts = text.split(b"\n")
            text = b"".join(p + rng.choice([b"\r", b"\r\n", b"\n"]) for p in parts[:-1]) + parts[-1]
        else:
            text = text.replace(b"\n", eol)
        d = bytearray(text)
    elif kind == "bom":
        bom = b"\xef\xbb\xbf"
        d = bytearray(bom + bytes(d)) if rng.random() < 0.7 else bytearray(bom)
    elif kind == "huge":
        i = rng.randrange(n)
        token = rng.choice([b"e", b"{", b"(", b"1", b"[A \"", b";", b"x"]) * rng.randint(10_000, 300_000)
        d[i:i] = token
    elif kind == "delete":
        i = rng.randrange(n)
        del d[i:i + rng.randint(1, 200)]
    else:
        for _ in range(rng.randint(2, 4)):
            d = bytearray(mutate_as(rng, bytes(d), rng.choice(["flip", "insert", "delete", "eol"])))
    return bytes(d)


# The largest peak resident memory of any run (KB), and the bound (MB).
PEAK = {"kb": 0, "run": ""}
MAX_RSS_MB = [512]


def run(binary, args, timeout):
    """(status, stdout, stderr) of one run; its peak memory is checked by
    `check` through PEAK["last"] (wait4 gives each child's own peak)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([binary, *args], stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        waited = {}
        t = threading.Thread(target=lambda: waited.update(r=os.wait4(p.pid, 0)), daemon=True)
        t.start()
        t.join(timeout)
        if t.is_alive():
            p.kill()
            t.join()
            p.returncode = -9
            return "timeout", b"", b""
        _, status, usage = waited["r"]
        p.returncode = os.waitstatus_to_exitcode(status)
        PEAK["last"] = usage.ru_maxrss
        if usage.ru_maxrss > PEAK["kb"]:
            PEAK.update(kb=usage.ru_maxrss, run=" ".join(map(str, args)))
        out.seek(0)
        err.seek(0)
        return p.returncode, out.read(), err.read()


def check(binary, path, data, timeout, rng, python=None):
    """The failures of one input: a list of (check, detail)."""
    fails = []
    outputs = {}
    games = None

    def crashed(label, code):
        if code == "timeout":
            fails.append(("hang", label))
            return True
        if PEAK.get("last", 0) > MAX_RSS_MB[0] * 1024:
            fails.append(("memory", f"{label}: peak {PEAK['last'] // 1024} MB"))
        if code in (101, 134, 139) or (isinstance(code, int) and code < 0):
            fails.append(("crash", f"{label}: exit {code}"))
            return True
        return False

    def placeless(label, err):
        for line in err.splitlines():
            if b"error:" in line and not PLACED.match(line) and not WHOLE_INPUT.match(line):
                fails.append(("no-place", f"{label}: {line[:200]!r}"))

    for jobs in JOBS:
        label = f"scan --jobs {jobs}"
        code, out, err = run(binary, ["scan", str(path), "--format", "jsonl", "--jobs", str(jobs)], timeout)
        if crashed(label, code):
            continue
        placeless(label, err)
        outputs[jobs] = (code, out, TIMING.sub(b"", err))
        m = SCANNED.search(err)
        if m and games is None:
            games = int(m.group(1))
        for line in out.splitlines():
            try:
                g = json.loads(line).get("game", 0)
            except ValueError:
                fails.append(("bad-json", f"{label}: {line[:200]!r}"))
                continue
            if m and g > int(m.group(1)):
                fails.append(("game-lost", f"{label}: finding for game {g} of {m.group(1)}"))
    if len(set(outputs.values())) > 1:
        fails.append(("jobs-differ", " / ".join(str(j) for j in outputs)))

    # Claim mode: the listing counts the games as the scan does.
    code, out, err = run(binary, [str(path), "--dead-search", "quick"], timeout)
    if not crashed("claim", code):
        placeless("claim", err)
        m = CLAIM_COUNT.search(err)
        claim_games = int(m.group(1)) if m else None
        if claim_games is None and code in (0, 1):
            claim_games = 1
        if claim_games is not None and games is not None and claim_games != games:
            fails.append(("game-lost", f"claim mode counts {claim_games} games, scan {games}"))
        if games:
            k = rng.randint(1, games)
            code, out, err = run(binary, [str(path), "--game", str(k), "--dead-search", "quick"], timeout)
            if not crashed(f"claim --game {k}", code):
                placeless(f"claim --game {k}", err)
    starts = len(GAME_START.findall(data.removeprefix(b"\xef\xbb\xbf")))
    if games is not None and games < starts:
        fails.append(("game-lost", f"scan counts {games} games, the input has {starts} game starts"))
    if games is not None and games > starts + 1:
        fails.append(("game-split", f"scan counts {games} games, the input has {starts} game starts"))
    if python:
        compare_with_python_chess(python, path, data, timeout, fails)
    return fails


EXPLAINED = {}


def compare_with_python_chess(python, path, data, timeout, fails):
    try:
        p = subprocess.run([python, "-c", PC_STARTS, str(path)], capture_output=True, timeout=timeout)
        answer = json.loads(p.stdout.decode().strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, ValueError, IndexError):
        EXPLAINED["python-chess did not answer"] = EXPLAINED.get("python-chess did not answer", 0) + 1
        return
    if "error" in answer:
        EXPLAINED["python-chess raised"] = EXPLAINED.get("python-chess raised", 0) + 1
        return
    explained, unexplained = count_rules(text_of(data), answer["starts"])
    for rule, n in explained.items():
        EXPLAINED[rule] = EXPLAINED.get(rule, 0) + n
    for d in unexplained:
        fails.append(("count-differs", d))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--binary", default=str(ROOT / "target" / "release" / "verify-claim"))
    ap.add_argument("--keep", default="/tmp/mutation-campaign")
    ap.add_argument("--python", default="/tmp/verify-claim-oracle/bin/python",
                    help="a Python with chess 1.11.2, to compare game counts ('' to skip)")
    ap.add_argument("--max-rss", type=int, default=512,
                    help="a run's peak resident memory above this many MB fails the input")
    ap.add_argument("--load", type=int, default=0,
                    help="busy loops to run beside the campaign (a competing CPU load)")
    a = ap.parse_args()
    MAX_RSS_MB[0] = a.max_rss
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(a.load)]
    try:
        return campaign(a)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def campaign(a):
    rng = random.Random(a.seed)
    files = sources()
    keep = Path(a.keep)
    keep.mkdir(parents=True, exist_ok=True)
    counts, kinds, failed = {}, {}, 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.inputs):
            data, kind = mutate(rng, stretch(rng, files))
            kinds[kind] = kinds.get(kind, 0) + 1
            ext = rng.choice([".pgn", ".pgn", ".pdn"])
            path = Path(tmp) / f"m{i}{ext}"
            path.write_bytes(data)
            fails = check(a.binary, path, data, a.timeout, rng, a.python if a.python and Path(a.python).exists() else None)
            os.unlink(path)
            if fails:
                failed += 1
                (keep / f"m{i}{ext}").write_bytes(data)
                (keep / f"m{i}.why").write_text("\n".join(f"{c}: {d}" for c, d in fails) + "\n")
                for c, _ in fails:
                    counts[c] = counts.get(c, 0) + 1
            if (i + 1) % 100 == 0:
                print(f"{i + 1} inputs, {failed} failed", file=sys.stderr, flush=True)
    print(f"inputs: {a.inputs} (seed {a.seed}); mutations: {dict(sorted(kinds.items()))}")
    print(f"runs per input: scan --jobs {'/'.join(map(str, JOBS))}, claim mode listing, claim --game K")
    print(f"failed inputs: {failed}; by check: {dict(sorted(counts.items())) or 'none'}")
    print(f"peak memory of a run: {PEAK['kb'] / 1024:.1f} MB ({PEAK['run']}); bound {a.max_rss} MB;"
          f" competing busy loops: {a.load}")
    print("game counts against python-chess, differences a documented rule explains:")
    for rule, n in sorted(EXPLAINED.items(), key=lambda kv: -kv[1]):
        print(f"  {n:6}  {rule}")
    if failed:
        print(f"kept in {keep}/ (mN.pgn and mN.why)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
