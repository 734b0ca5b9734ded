"""The researcher's worked example, measured: one lichess-layout dump
scanned with the CLI, with Python into DuckDB, and with Spark on local[2].

    VENV=...  # a venv with verify-claim[spark], duckdb, polars installed
    PYSPARK_PYTHON=$VENV/bin/python $VENV/bin/python python/bench/worked_example.py \\
        --cli target/release/verify-claim /tmp/vc-dump/dump.pgn /tmp/vc-dump/dump.pgn.zst

Each input: the CLI (``--jobs 1`` and ``--jobs 2``, ``--format jsonl``
into a counter); ``scan_arrow`` into DuckDB (counts per kind); Spark
``scan_files`` on ``local[2]``: the session's start, the first (cold) run
and ``--warm`` more runs in the same session, with its partitions, and the
findings compared with the CLI's as a set. Throughput is the input's size
(as on disk) over the wall time. A benchmark, not a test: it prints, it
asserts nothing but the findings' equality.
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import time

KEY = ("file", "game", "line", "ply", "kind", "message")


def mb(path):
    return os.stat(path).st_size / 1e6


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def cli_findings(cli, path, jobs):
    def run():
        p = subprocess.run(
            [cli, "scan", "--format=jsonl", "--no-progress", f"--jobs={jobs}", path],
            capture_output=True,
        )
        assert p.returncode in (0, 1), p.stderr.decode()
        return p.stdout

    out, s = timed(run)
    rows = [json.loads(line) for line in out.splitlines() if line]
    return collections.Counter(tuple(r[k] for k in KEY) for r in rows), s


def duckdb_counts(path):
    import duckdb

    import verify_claim

    def run():
        reader = verify_claim.scan_arrow(path, jobs=2)
        return dict(duckdb.sql("select kind, count(*) from reader group by kind").fetchall())

    return timed(run)


def spark_session():
    from pyspark.sql import SparkSession

    # The Python workers must be one that has verify_claim: this one.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return (
        SparkSession.builder.master("local[2]")
        .appName("verify-claim-worked-example")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )


def spark_findings(spark, path):
    from verify_claim.spark import scan_files

    def run():
        df = scan_files(spark, path)
        parts = df.rdd.getNumPartitions()
        rows = df.select(*KEY).collect()
        return collections.Counter(tuple(r) for r in rows), parts

    return timed(run)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True, help="the release CLI")
    ap.add_argument("--warm", type=int, default=2, help="warm Spark runs per input")
    ap.add_argument("--no-spark", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    report = collections.defaultdict(dict)
    for path in a.paths:
        size = mb(path)
        print(f"== {path}: {size:.0f} MB", flush=True)
        for jobs in (1, 2):
            found, s = cli_findings(a.cli, path, jobs)
            print(f"CLI --jobs {jobs}: {sum(found.values())} findings, {s:.2f} s, {size / s:.0f} MB/s", flush=True)
            report[path][f"cli{jobs}"] = (found, s)
        counts, s = duckdb_counts(path)
        want = collections.Counter()
        for key, n in report[path]["cli2"][0].items():
            want[key[4]] += n
        print(f"scan_arrow -> DuckDB: {s:.2f} s, {size / s:.0f} MB/s; counts per kind equal the CLI's: {counts == dict(want)}", flush=True)
    if a.no_spark:
        return
    spark, start = timed(spark_session)
    spark.sparkContext.setLogLevel("ERROR")
    print(f"Spark session start: {start:.1f} s", flush=True)
    for path in a.paths:
        size = mb(path)
        cli_found, cli_s = report[path]["cli2"]
        for run in range(1 + a.warm):
            (found, parts), s = spark_findings(spark, path)
            which = "cold" if run == 0 else "warm"
            print(
                f"Spark local[2] {which} {path}: {parts} partitions, {s:.2f} s, {size / s:.0f} MB/s "
                f"({cli_s / s:.2f}x the CLI --jobs 2); findings equal the CLI's as a set: {found == cli_found}",
                flush=True,
            )
    spark.stop()


if __name__ == "__main__":
    main()
