"""Spark throughput in local mode: `scan_files(...).count()` twice in one
session (the first run also starts the executors and Python workers).

    PYSPARK_PYTHON=$VENV/bin/python $VENV/bin/python python/bench/spark_local.py ../shared/corpus [SPLIT_BYTES]
"""

import sys
import time

from pyspark.sql import SparkSession

from verify_claim.spark import SPLIT_BYTES, scan_files

path = sys.argv[1]
split = int(sys.argv[2]) if len(sys.argv) > 2 else SPLIT_BYTES
spark = (
    SparkSession.builder.master("local[2]")
    .appName("verify-claim-bench")
    .config("spark.ui.enabled", "false")
    .config("spark.ui.showConsoleProgress", "false")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
for run in range(2):
    t = time.perf_counter()
    n = scan_files(spark, [path], split_bytes=split).count()
    print(f"run {run}: {n} findings in {time.perf_counter() - t:.1f} s (split_bytes {split})", flush=True)
spark.stop()
