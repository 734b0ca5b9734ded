"""What the per-game table costs over the findings: ``verify-claim scan
--per-game`` against ``scan --format jsonl`` on the same input, interleaved
run for run, the output to /dev/null; the medians of the wall time and of
the CPU time (user + system, which load on the machine changes less).

    python3 python/bench/per_game_cost.py --cli target/release/verify-claim \\
        --rounds 9 --jobs 1 /tmp/vc-bench/lichess-twic-100mb.pgn

With ``--callgrind FILE`` it also counts both runs' instructions under
valgrind on FILE (a few MB: callgrind is ~50x slower), the figure the
machine's load does not change.

A benchmark, not a test: it prints and asserts nothing.
"""

import argparse
import os
import re
import resource
import statistics
import subprocess
import tempfile
import time


def once(cli, args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([cli, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def instructions(cli, args):
    """Instructions executed (valgrind's callgrind, every thread)."""
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/cg", cli, *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    m = re.search(r"Collected : (\d+)", out.stderr)
    return int(m.group(1)) if m else None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--jobs", default="1")
    p.add_argument("--callgrind", metavar="FILE")
    p.add_argument("paths", nargs="+")
    a = p.parse_args()
    common = ["scan", "--no-progress", "--fail-on", "never", "--jobs", a.jobs, *a.paths]
    runs = {"jsonl": ["--format", "jsonl"], "per-game": ["--per-game"]}
    times = {k: [] for k in runs}
    once(a.cli, common + runs["jsonl"])  # warm the page cache
    for _ in range(a.rounds):
        for name, extra in runs.items():
            times[name].append(once(a.cli, common + extra))
    size = sum(os.path.getsize(x) for x in a.paths) / 1e6
    print(f"{size:.0f} MB, --jobs {a.jobs}, {a.rounds} rounds, interleaved; load {os.getloadavg()}")
    med = {}
    for name, ts in times.items():
        wall = statistics.median(t[0] for t in ts)
        cpu = statistics.median(t[1] for t in ts)
        med[name] = (wall, cpu)
        print(f"{name:9} wall median {wall:.3f} s (range {min(t[0] for t in ts):.3f}-"
              f"{max(t[0] for t in ts):.3f}), cpu median {cpu:.3f} s")
    print(f"per-game / jsonl: wall {med['per-game'][0] / med['jsonl'][0]:.3f}, "
          f"cpu {med['per-game'][1] / med['jsonl'][1]:.3f}")
    if a.callgrind:
        base = ["scan", "--no-progress", "--fail-on", "never", "--jobs", a.jobs, a.callgrind]
        ir = {k: instructions(a.cli, base + extra) for k, extra in runs.items()}
        print(f"callgrind on {a.callgrind}: jsonl {ir['jsonl']:,}, per-game {ir['per-game']:,} "
              f"instructions: ratio {ir['per-game'] / ir['jsonl']:.3f}")


if __name__ == "__main__":
    main()
