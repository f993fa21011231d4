#!/usr/bin/env python3
"""The peer dpfl's round is benchmarked against (docs/benchmarks.md "Scaling"): the FedAvg loop
a seed author would write in PyTorch (Debian python3-torch), with the same model, data and
LDP-FL quantizer as `dpfl train --mechanism ldp-fl`, the quantizer in tensor ops.

  python3 scripts/fedavg_peer.py --max-samples 20000 --clients 100 --rounds 3 --local-epochs 2 \
      --lr 0.1 --eps-p 1 --threads 2

* Data: the first --max-samples of Fashion-MNIST (train then t10k IDX files, pixels / 255),
  shuffled with the seed, 64 % training (equal IID shares over the clients), 16 % validation,
  20 % test — the proportions of dpfl's split (not its permutation).
* Model: dpfl's "vgg": conv3x3(16)-ReLU-maxpool-conv3x3(32)-ReLU-maxpool-linear(10).
* Round: every client loads the global model, runs --local-epochs of SGD (batch 64, shuffled),
  and sends each layer through LDP-FL (seed-000 Alg. 1): c, r from the global layer's min/max
  (r = 1.25 (max - min) / 2, at least 1e-3), the weight clipped to [c - r, c + r], then
  c + r*alpha with probability 1/2 + (w - c) / (2 r alpha), else c - r*alpha, alpha =
  (e^eps + 1) / (e^eps - 1). The server averages the messages. torch's intra-op threads: --threads
  (PyTorch's default is every core).
* --style typical (default): written as FL research code usually is — a DataLoader over a
  TensorDataset per client (batch 64, shuffle), copy.deepcopy of the global model per client,
  the clients' quantized state_dicts stacked and averaged. --style lean: one model reused, the
  clients' tensors indexed directly, running sums instead of a stack — the same arithmetic with
  less Python around it (how far a careful author would go). The benchmark reports both.
* --quantizer tensor (default): the tensor-op LDP-FL above. --quantizer dpfl: each client's layer
  through `dpfl.quantizers.LDPQ` (the production encoder reading the tensor in place; layer l of
  client k in round t is stream (key --seed, round t, client k*L + l)), and the run's privacy
  from `dpfl.accounting`: per parameter, LDPQ at the clip ends is binary randomized response
  keeping w.p. e^eps/(1 + e^eps), composed over the rounds (the PLD accountant's enclosure).
  With --quantizer dpfl the tensor-op quantizer is also timed on the same tensors (its output
  discarded), so "quantize_seconds" holds both per round, measured in one run. Lean style only.
* Output: one JSON object on stdout: seconds per round, validation and test accuracy per round.
"""
import argparse
import copy
import gzip
import json
import math
import os
import struct
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def read_idx(path):
    for candidate in (path, path + ".gz"):
        if os.path.exists(candidate):
            opener = gzip.open if candidate.endswith(".gz") else open
            with opener(candidate, "rb") as f:
                data = f.read()
            break
    else:
        sys.exit(f"fedavg_peer: {path}[.gz] not found")
    ndim = data[3]
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    return torch.frombuffer(bytearray(data[4 + 4 * ndim:]), dtype=torch.uint8).reshape(dims)


def load(directory, max_samples):
    xs, ys = [], []
    for part in ("train", "t10k"):
        xs.append(read_idx(os.path.join(directory, f"{part}-images-idx3-ubyte")))
        ys.append(read_idx(os.path.join(directory, f"{part}-labels-idx1-ubyte")))
    x = torch.cat(xs).float().div_(255.0).unsqueeze(1)
    y = torch.cat(ys).long()
    if max_samples:
        x, y = x[:max_samples], y[:max_samples]
    return x, y


def make_model():
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 7 * 7, 10))


def ldp_fl(layer_weights, global_layer, eps, generator):
    lo, hi = global_layer.min(), global_layer.max()
    c = (hi + lo) / 2
    r = torch.clamp(1.25 * (hi - lo) / 2, min=1e-3)
    alpha = (math.exp(eps) + 1) / (math.exp(eps) - 1)
    w = torch.minimum(torch.maximum(layer_weights, c - r), c + r)
    p_plus = 0.5 + (w - c) / (2 * r * alpha)
    plus = torch.rand(w.shape, generator=generator) < p_plus
    return torch.where(plus, c + r * alpha, c - r * alpha)


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    correct = 0
    for i in range(0, len(x), 1000):
        correct += (model(x[i:i + 1000]).argmax(1) == y[i:i + 1000]).sum().item()
    return correct / len(x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--max-samples", type=int, default=20000)
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--local-epochs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--eps-p", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=0, help="torch intra-op threads (0: PyTorch's default)")
    ap.add_argument("--style", choices=("typical", "lean"), default="typical")
    ap.add_argument("--quantizer", choices=("tensor", "dpfl"), default="tensor")
    ap.add_argument("--delta", type=float, default=1e-5, help="delta of the reported epsilon (--quantizer dpfl)")
    a = ap.parse_args()
    if a.quantizer == "dpfl" and a.style != "lean":
        sys.exit("fedavg_peer: --quantizer dpfl runs with --style lean")
    if a.quantizer == "dpfl":
        import dpfl
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    x, y = load(a.data_dir, a.max_samples)
    perm = torch.randperm(len(x))
    x, y = x[perm], y[perm]
    n_test = len(x) // 5
    n_val = (len(x) - n_test) // 5
    x_test, y_test = x[:n_test], y[:n_test]
    x_val, y_val = x[n_test:n_test + n_val], y[n_test:n_test + n_val]
    x_train, y_train = x[n_test + n_val:], y[n_test + n_val:]
    share = len(x_train) // a.clients
    model = make_model()
    generator = torch.Generator().manual_seed(a.seed)
    out = {"peer": "PyTorch FedAvg + LDP-FL in tensor ops", "style": a.style, "torch": torch.__version__,
           "threads": torch.get_num_threads(), "clients": a.clients, "train_samples": share * a.clients,
           "round_seconds": [], "val_accuracy": [], "test_accuracy": []}
    if a.quantizer == "dpfl":
        out["peer"] = "PyTorch FedAvg + LDP-FL through dpfl.quantizers.LDPQ"
        out["quantize_seconds"] = {"dpfl": [], "tensor": []}
    shards = [(x_train[k * share:(k + 1) * share], y_train[k * share:(k + 1) * share]) for k in range(a.clients)]
    loaders = [DataLoader(TensorDataset(cx, cy), batch_size=a.batch, shuffle=True) for cx, cy in shards]
    for rnd in range(a.rounds):
        start = time.perf_counter()
        q_dpfl = q_tensor = 0.0
        if a.style == "typical":
            global_state = copy.deepcopy(model.state_dict())
            states = []
            for k in range(a.clients):
                local = copy.deepcopy(model)
                local.train()
                opt = torch.optim.SGD(local.parameters(), lr=a.lr)
                for _ in range(a.local_epochs):
                    for xb, yb in loaders[k]:
                        opt.zero_grad()
                        F.cross_entropy(local(xb), yb).backward()
                        opt.step()
                states.append({key: ldp_fl(v, global_state[key], a.eps_p, generator)
                               for key, v in local.state_dict().items()})
            model.load_state_dict({key: torch.stack([st[key] for st in states]).mean(0) for key in global_state})
        else:
            global_params = [p.detach().clone() for p in model.parameters()]
            sums = [torch.zeros_like(g) for g in global_params]
            for k in range(a.clients):
                with torch.no_grad():
                    for p, g in zip(model.parameters(), global_params):
                        p.copy_(g)
                model.train()
                opt = torch.optim.SGD(model.parameters(), lr=a.lr)
                cx, cy = shards[k]
                for _ in range(a.local_epochs):
                    order = torch.randperm(share)
                    for i in range(0, share, a.batch):
                        idx = order[i:i + a.batch]
                        opt.zero_grad()
                        F.cross_entropy(model(cx[idx]), cy[idx]).backward()
                        opt.step()
                with torch.no_grad():
                    for layer, (s, p, g) in enumerate(zip(sums, model.parameters(), global_params)):
                        if a.quantizer == "dpfl":
                            t0 = time.perf_counter()
                            lo, hi = g.min().item(), g.max().item()
                            q = dpfl.quantizers.LDPQ(a.eps_p, (hi + lo) / 2, max(1.25 * (hi - lo) / 2, 1e-3))
                            s += q.encode(p.detach(), key=a.seed, round=rnd,
                                          client=k * len(global_params) + layer).decode()
                            t1 = time.perf_counter()
                            ldp_fl(p.detach(), g, a.eps_p, generator)  # timed only, output discarded
                            q_dpfl += t1 - t0
                            q_tensor += time.perf_counter() - t1
                        else:
                            s += ldp_fl(p.detach(), g, a.eps_p, generator)
            with torch.no_grad():
                for p, s in zip(model.parameters(), sums):
                    p.copy_(s / a.clients)
        val = accuracy(model, x_val, y_val)
        test = accuracy(model, x_test, y_test)
        elapsed = time.perf_counter() - start
        if a.quantizer == "dpfl":
            out["quantize_seconds"]["dpfl"].append(q_dpfl)
            out["quantize_seconds"]["tensor"].append(q_tensor)
            elapsed -= q_tensor  # the round as dpfl ran it (the tensor-op timing is extra work)
        out["round_seconds"].append(elapsed)
        out["val_accuracy"].append(val)
        out["test_accuracy"].append(test)
    if a.quantizer == "dpfl":
        keep = math.exp(a.eps_p) / (1 + math.exp(a.eps_p))
        acc = dpfl.accounting.PLDAccountant().compose(dpfl.accounting.RandomizedResponseEvent(keep), a.rounds)
        lo, hi = acc.get_epsilon_bounds(a.delta)
        out["privacy"] = {"per_parameter_epsilon_lo": lo, "per_parameter_epsilon_hi": hi, "delta": a.delta,
                          "rounds": a.rounds, "per_round_epsilon": a.eps_p,
                          "accountant": "dpfl.accounting.PLDAccountant (randomized response per parameter)"}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
