"""Spark's throughput on local[2] against the CLI's --jobs 2, interleaved.

    PYSPARK_PYTHON=$VENV/bin/python $VENV/bin/python python/bench/spark_local.py \\
        --cli target/release/verify-claim [--rounds 7] FILE ...

For each file: the session's start and the first (cold) run, then
``--rounds`` rounds, each running the CLI (``scan --jobs 2 --format
jsonl`` into /dev/null) and then Spark, warm (``scan_files(...)``
grouped by kind and counted, the researcher's first question). Prints each
round and the median of the rounds' ratios (CLI time / Spark time: 1.0 is
as fast as the CLI) with their range, and checks once that Spark's findings
equal the CLI's as a set. A benchmark, not a test: the machine is shared,
only ratios within a round mean anything.
"""

import argparse
import collections
import os
import statistics
import subprocess
import time


def cli(binary, path):
    t = time.perf_counter()
    out = subprocess.run(
        [binary, "scan", "--format=jsonl", "--no-progress", "--jobs=2", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert out.returncode in (0, 1), out.returncode
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    from verify_claim.spark import scan_files

    from worked_example import KEY, cli_findings, spark_session  # this directory's

    t = time.perf_counter()
    spark = spark_session()
    spark.sparkContext.setLogLevel("ERROR")
    print(f"session start: {time.perf_counter() - t:.2f} s", flush=True)

    def counted(path):
        t = time.perf_counter()
        df = scan_files(spark, path)
        n = dict(df.groupBy("kind").count().collect())
        return df, n, time.perf_counter() - t

    for path in a.paths:
        mb = os.stat(path).st_size / 1e6
        df, _, cold = counted(path)
        print(f"== {path} ({mb:.0f} MB): {df.rdd.getNumPartitions()} partitions; cold {cold:.2f} s", flush=True)
        want, _ = cli_findings(a.cli, path, 2)
        got = collections.Counter(tuple(r) for r in df.select(*KEY).collect())
        print(f"findings equal the CLI's as a set: {got == want} ({sum(want.values())})", flush=True)
        ratios = []
        for r in range(a.rounds):
            c = cli(a.cli, path)
            _, _, s = counted(path)
            ratios.append(c / s)
            print(f"  round {r}: CLI --jobs 2 {c:.2f} s, Spark {s:.2f} s, ratio {c / s:.2f}", flush=True)
        print(
            f"{path}: Spark/CLI throughput {statistics.median(ratios):.2f} "
            f"({min(ratios):.2f}-{max(ratios):.2f}) over {a.rounds} rounds",
            flush=True,
        )
    spark.stop()


if __name__ == "__main__":
    main()
