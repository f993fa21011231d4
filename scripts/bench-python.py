#!/usr/bin/env python3
"""The cost of crossing into dpfl from Python (docs/python.md "Zero copies"): LDPQ on a float32
torch tensor of m parameters read in place, against the same call on a copy (what a binding that
copies through Python lists or numpy conversions pays at least), and against the tensor-op LDP-FL
of scripts/fedavg_peer.py — all in one process, best of --repeats, ratios printed.

  PYTHONPATH=build/python python3 scripts/bench-python.py --m 16777216 --threads 2
"""
import argparse
import json
import math
import os
import sys
import time

import torch

import dpfl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fedavg_peer import ldp_fl  # noqa: E402


def best(f, repeats):
    t = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        t = min(t, time.perf_counter() - t0)
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--m", type=int, default=1 << 24)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    if a.m < 1 or a.threads < 1 or a.repeats < 1:
        ap.error("--m, --threads and --repeats must be >= 1")
    torch.set_num_threads(a.threads)
    x = torch.empty(a.m).uniform_(-1, 1)
    q = dpfl.quantizers.LDPQ(1.0, 0.0, 1.0)
    g = torch.Generator().manual_seed(1)
    layer = torch.tensor([-0.8, 0.8])
    n_list = min(a.m, 1 << 20)  # the list copy is slow: timed on at most 2^20 parameters
    rows = {
        "dpfl encode, in place": best(lambda: q.encode(x, key=1, threads=a.threads), a.repeats),
        "dpfl encode of a copy (x.clone())": best(lambda: q.encode(x.clone(), key=1, threads=a.threads), a.repeats),
        f"dpfl encode of a list copy (first {n_list}, scaled to m)": best(
            lambda: q.encode(torch.tensor(x[:n_list].tolist()), key=1, threads=a.threads), a.repeats) * (a.m / n_list),
        "tensor-op LDP-FL (fedavg_peer.ldp_fl)": best(lambda: ldp_fl(x, layer, 1.0, g), a.repeats),
    }
    base = rows["dpfl encode, in place"]
    out = {"m": a.m, "threads": a.threads, "repeats": a.repeats, "torch": torch.__version__,
           "rows": [{"what": k, "seconds": v, "params_per_second": a.m / v, "ratio_to_in_place": v / base}
                    for k, v in rows.items()]}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
