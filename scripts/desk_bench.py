"""Twenty decisions at once on a running desk: `verify-claim desk` prints
its URL; `python3 scripts/desk_bench.py URL` posts each body once alone,
then from 20 threads at once, and prints the times (docs/performance.md,
"The desk"). Standard library only."""

import json
import sys
import threading
import time
import urllib.request

BASE = sys.argv[1].split("/desk", 1)[0]
CASES = {
    "slip, two sheets": {
        "sheets": ["1. Nf3 Nf6\n2. Nh1 Ng8\n3. Nf3 Nf6\n4. Ng1 e5\n",
                   "1. Nf3 Nf6\n2. Ng1 Ng8\n3. Nf3 Nf6\n4. Ng1 e5\n"],
        "move": "Ng8", "after": "4.Ng1"},
    "clean, one sheet": {"sheets": ["1. Nf3 Nf6\n2. Ng1 Ng8\n3. Nf3 Nf6\n4. Ng1\n"], "move": "Ng8"},
}


def post(body):
    rq = urllib.request.Request(BASE + "/api/claim", data=json.dumps(body).encode(),
                                headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(rq, timeout=120) as r:
        return r.status


for name, body in CASES.items():
    t = time.monotonic()
    post(body)
    alone = time.monotonic() - t
    statuses = []
    threads = [threading.Thread(target=lambda: statuses.append(post(body))) for _ in range(20)]
    t = time.monotonic()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    print(f"{name}: one alone {alone:.2f} s; 20 at once all answered in "
          f"{time.monotonic() - t:.2f} s; statuses {sorted(set(statuses))}")
