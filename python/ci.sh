#!/usr/bin/env bash
# The Python package's CI: a fresh venv, `pip install ./python`, pytest.
# Called by .ci/run; runs from anywhere. With VERIFY_CLAIM_REQUIRE_ORACLE=1
# and ../shared present, a skipped test is a failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
cd "$repo"

# One target directory for the CLI and the wheel.
export CARGO_TARGET_DIR="$repo/target"
# The CLI the tests compare with: the debug build `cargo test` made (a fat
# LTO release build would double CI's time).
cargo build --quiet
export VERIFY_CLAIM_BIN="$CARGO_TARGET_DIR/debug/verify-claim"

venv="$(mktemp -d "${TMPDIR:-/tmp}/verify-claim-py.XXXXXX")"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet maturin pytest pyspark pyarrow "pandas<3" duckdb polars chess==1.11.2
"$venv/bin/pip" install --quiet "$repo/python"

# Outside the source tree, so the installed package is the one imported.
cd "$venv"
"$venv/bin/python" -c 'import verify_claim, verify_claim.spark; print("verify_claim imported from", verify_claim.__file__)'
set +e
"$venv/bin/python" -m pytest -p no:cacheprovider -rs --durations=8 "$here/tests" 2>&1 | tee "$venv/pytest.log"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -eq 5 ]; then
  echo "python/ci.sh: pytest collected no test"
  exit 1
fi
if [ "$status" -ne 0 ]; then
  exit "$status"
fi
if [ "${VERIFY_CLAIM_REQUIRE_ORACLE:-}" = 1 ] && [ -d "$repo/../shared" ] && grep -q "^SKIPPED" "$venv/pytest.log"; then
  echo "python/ci.sh: tests were skipped although VERIFY_CLAIM_REQUIRE_ORACLE=1"
  exit 1
fi
