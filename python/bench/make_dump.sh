#!/usr/bin/env bash
# The worked example's dump (docs/python.md): the shared corpus's games (all
# but malformed/, .zst files decompressed) concatenated, repeated to at least
# 400 MB, and compressed as lichess does, in many frames (pzstd, Debian's zstd).
# Usage: python/bench/make_dump.sh [OUT_DIR]   (default /tmp/vc-dump)
set -euo pipefail
corpus="$(cd "$(dirname "$0")/../../../shared/corpus" && pwd)"
dir="${1:-/tmp/vc-dump}"
mkdir -p "$dir"
out="$dir/dump.pgn"
once="$dir/once.pgn"
: > "$once"
(cd "$corpus" && find . -path ./malformed -prune -o -type f \( -name '*.pgn' -o -name '*.pgn.zst' \) -print | LC_ALL=C sort) |
  while read -r f; do
    case "$f" in *.zst) zstd -dcq "$corpus/$f" ;; *) cat "$corpus/$f" ;; esac >> "$once"
    printf '\n\n' >> "$once"
  done
: > "$out"
while [ "$(stat -c %s "$out")" -lt 400000000 ]; do cat "$once" >> "$out"; done
rm -f "$once"
nice -n 10 pzstd -q -f -p 2 -3 "$out" -o "$out.zst"
ls -l "$dir"
