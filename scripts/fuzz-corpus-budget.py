#!/usr/bin/env python3
"""Chooses a fuzz corpus within a size budget from a libFuzzer merge.

    fuzz/target/x86_64-unknown-linux-gnu/release/TARGET -merge=1 \
        -merge_control_file=TARGET.cf EMPTY_DIR MERGED_DIR
    scripts/fuzz-corpus-budget.py TARGET.cf OUT_DIR [--budget 150000]

Reads the control file's features per input (`FT` lines) and picks inputs
greedily by new features per byte (a 64-byte overhead per file, so that
tiny files are not free), until the budget is spent or nothing new is
left; copies them to OUT_DIR. Prints how many features of the merged set
the chosen inputs keep.
"""

import argparse
import shutil
import sys
from pathlib import Path


def read_control(path):
    lines = Path(path).read_text(errors="replace").splitlines()
    n = int(lines[0])
    files = lines[2:2 + n]
    features = {}
    for line in lines[2 + n:]:
        parts = line.split()
        if parts and parts[0] == "FT":
            features[int(parts[1])] = set(map(int, parts[2:]))
    return files, features


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("control")
    ap.add_argument("out")
    ap.add_argument("--budget", type=int, default=150_000)
    a = ap.parse_args()
    files, features = read_control(a.control)
    sizes = {i: Path(files[i]).stat().st_size for i in features}
    every = set().union(*features.values()) if features else set()
    have, chosen, spent = set(), [], 0
    left = dict(features)
    while left:
        def worth(i):
            return len(left[i] - have) / (sizes[i] + 64)
        best = max(left, key=worth)
        gain = left.pop(best) - have
        if not gain:
            break
        if spent + sizes[best] > a.budget:
            continue
        have |= gain
        chosen.append(best)
        spent += sizes[best]
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for i in chosen:
        shutil.copy(files[i], out / Path(files[i]).name)
    print(f"{len(chosen)} of {len(features)} inputs, {spent} bytes; "
          f"features kept: {len(have)} of {len(every)} ({100 * len(have) / max(len(every), 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
