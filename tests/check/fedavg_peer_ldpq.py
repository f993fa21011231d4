#!/usr/bin/env python3
"""The LDP-FL quantizer of scripts/fedavg_peer.py (`ldp_fl`, tensor ops in PyTorch) behind the
line protocol of `dpfl check ldpq` (docs/check.md "Checking the PyTorch peer").

  fedavg_peer_ldpq.py --c C --r R --eps E [--seed S]

`ldp_fl(layer_weights, global_layer, eps, generator)` derives c and r from the global layer:
c = (max + min)/2, r = 1.25 (max - min)/2. So a request `N w` calls it on a layer of N copies of
w with a global layer [c - 0.8 r, c + 0.8 r] (float32, as the peer's tensors are), one call per
request, the generator seeded once. The c and r it then uses are float32 values; dpfl check is
given the decimal c and r, so any difference is the implementation's, and shows.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from fedavg_peer import ldp_fl  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--c", type=float, required=True)
    ap.add_argument("--r", type=float, required=True)
    ap.add_argument("--eps", type=float, required=True)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    generator = torch.Generator().manual_seed(a.seed)
    global_layer = torch.tensor([a.c - 0.8 * a.r, a.c + 0.8 * a.r], dtype=torch.float32)
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        n, w = int(parts[0]), float(parts[1])
        layer = torch.full((n,), w, dtype=torch.float32)
        out = ldp_fl(layer, global_layer, a.eps, generator)
        sys.stdout.write("".join(repr(v) + "\n" for v in out.double().tolist()))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
