#!/usr/bin/env python3
"""Outside implementations for `dpfl check` (docs/check.md): each mechanism written from the
specs in plain Python, as a user would, and a catalog of faults — the papers' errata and the
classic implementation bugs — that `dpfl check` must flag (tests/check/CMakeLists.txt).

  implementations.py MECHANISM [--fault NAME] [--seed S] [the mechanism's parameters]

It speaks the line protocol: a request `N x_1 ... x_k` is answered by N lines of released values.
`--list` prints the catalog (mechanism, fault, what it does) as tab-separated lines.
"""
import argparse
import math
import random
import struct
import sys
import time

FAULTS = {
    # name: (mechanism, description)
    "e1-sign": ("ldpq", "seed-000 E1: q from the as-printed alpha = (1+e^eps)/(1-e^eps) (negative), levels c +- r|alpha|"),
    "no-clip": ("ldpq", "seed-001 E12: no clip to [c-r, c+r] before q (q leaves [0,1] only beyond c +- r*alpha)"),
    "seed-per-call": ("ldpq", "the generator re-seeded with the same seed at every request (a stream restarted per call)"),
    "float32": ("ldpq", "float32 arithmetic throughout: levels printed as float32 values (off the support by ~1e-8)"),
    "antithetic": ("ldpq", "runs 2j+1, 2j+2 share one uniform (U, then 1 - U): each run's law exact, neighbours dependent"),
    "lag2-copy": ("ldpq", "runs 4j+2, 4j+3 reuse the uniforms of runs 4j, 4j+1: each run's law exact, lag-2 copies"),
    "period-4096": ("ldpq", "uniforms from a table of 4096 values, cycled: each run's law nearly exact, period 4096"),
    "independent-z": ("corbinq", "each client of the pair draws its own Z (the shared randomness not shared)"),
    "e3-line14": ("corbinq", "seed-000 E3: Alg. 2 line 14 as printed ('else if T1 < Z')"),
    "e1-off-by-one": ("coq", "seed-001 E1: ProbabilityList as printed (inclusive prefix sums, index shifted by one)"),
    "flip-half-plus-gamma": ("rr", "RR flips with probability 1/2 + gamma (keeps with 1/2 - gamma)"),
    "time-seed": ("rr", "one seed per call: the generator seeded with int(time.time()) at every request"),
    "logistic": ("stosign", "StoSign with the logistic sigmoid 1/(1+e^-theta) instead of the hard sigmoid (seed-004 E13)"),
    "sign": ("bnn-upload", "seed-004 E13: deterministic Sign instead of StoSign before RR"),
    "round-nearest": ("qgauss", "round to the nearest level instead of stochastic rounding"),
    "variance-as-std": ("qgauss", "seed-003 E5: sigma taken as the variance (noise std sqrt(sigma))"),
    "diagonal-directions": ("cepam-gaussian", "the error's direction drawn among the diagonals (+-1, ..., +-1)/sqrt(n), not the sphere"),
    "layer-once": ("cepam-gaussian", "the CEPAM layer U (chi^2_{n+2}) drawn once per process, not per block (seed-002 Alg. 1 erratum)"),
    "exp-layer": ("cepam-laplace", "the Laplace layer drawn from Exp(1) instead of Gamma(2, 1) (seed-002 Lemma 15)"),
    "sigma2-as-sigma": ("gaussian", "the noise's standard deviation set to sigma2 (a variance read as a std)"),
    "double-zero": ("laplace", "sign times geometric without rejecting (-, 0): zero counted twice (CKS Alg. 2)"),
}


def to_f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mechanism", nargs="?")
    ap.add_argument("--fault", default="")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--list", action="store_true")
    for flag in ("eps", "c", "r", "rr-gamma", "sigma", "clip", "b", "px", "sigma2", "t"):
        ap.add_argument("--" + flag, type=float)
    for flag in ("d", "levels", "lattice-dim", "grid-steps"):
        ap.add_argument("--" + flag, type=int)
    a = ap.parse_args()
    if a.list:
        for name, (mech, what) in FAULTS.items():
            print(f"{mech}\t{name}\t{what}")
        return
    if a.fault and (a.fault not in FAULTS or FAULTS[a.fault][0] != a.mechanism):
        sys.exit(f"implementations.py: no fault '{a.fault}' for {a.mechanism}")
    rng = random.Random(a.seed)
    fault = a.fault
    run = make_mechanism(a, fault)
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        n, x = int(parts[0]), [float(t) for t in parts[1:]]
        if fault == "seed-per-call":
            rng = random.Random(a.seed)
        elif fault == "time-seed":
            rng = random.Random(int(time.time()))
        out = [run(x, rng) for _ in range(n)]
        sys.stdout.write("".join(" ".join(repr(v) for v in row) + "\n" for row in out))
        sys.stdout.flush()


def make_mechanism(a, fault):
    m = a.mechanism
    if m in ("ldpq", "corbinq", "coq"):
        return binary_family(a, fault)
    if m in ("rr", "stosign", "bnn-upload"):
        return bnn_family(a, fault)
    if m == "qgauss":
        return qgauss(a, fault)
    if m in ("cepam-gaussian", "cepam-laplace"):
        return cepam(a, fault)
    if m in ("gaussian", "laplace"):
        return grid_noise(a, fault)
    sys.exit(f"implementations.py: unknown mechanism {m}")


def binary_family(a, fault):
    c, r, eps = a.c, a.r, a.eps
    E = math.exp(eps)
    alpha = (E + 1) / (E - 1)
    lo, hi = c - r * alpha, c + r * alpha
    q_alpha = (1 + E) / (1 - E) if fault == "e1-sign" else alpha

    def q_of(w):  # seed-000 Alg. 1 line 2, after the clip of seed-001 E12
        if fault != "no-clip":
            w = min(max(w, c - r), c + r)
        return 0.5 + (w - c) / (2 * r * q_alpha)

    if a.mechanism == "ldpq":
        if fault == "float32":
            c32, r32, a32 = to_f32(c), to_f32(r), to_f32(alpha)
            lo32, hi32 = to_f32(c32 - to_f32(r32 * a32)), to_f32(c32 + to_f32(r32 * a32))
            return lambda x, rng: [hi32 if to_f32(rng.random()) < to_f32(q_of(x[0])) else lo32]
        if fault in ("antithetic", "lag2-copy", "period-4096"):
            state = {"i": 0, "kept": []}
            table = []

            def uniform(rng):  # the faulty sources of uniforms; every other path draws rng.random()
                i = state["i"]
                state["i"] += 1
                if fault == "period-4096":
                    if not table:
                        table.extend(rng.random() for _ in range(4096))
                    return table[i % 4096]
                if fault == "antithetic":  # pairs (1, 2), (3, 4), ... (0-based): U, then 1 - U
                    if i % 2 == 1:
                        state["kept"] = [rng.random()]
                        return state["kept"][0]
                    return 1.0 - state["kept"][0] if i > 0 else rng.random()
                if i % 4 < 2:  # lag2-copy
                    state["kept"] = (state["kept"] + [rng.random()])[-2:]
                    return state["kept"][-1]
                return state["kept"][i % 4 - 2]

            return lambda x, rng: [hi if uniform(rng) < q_of(x[0]) else lo]
        return lambda x, rng: [hi if rng.random() < q_of(x[0]) else lo]

    n = 1 << a.d
    if a.mechanism == "corbinq":
        def pair(x, rng):
            q1, q2 = q_of(x[0]), q_of(x[1])
            x1, x2 = n * q1, n * (1 - q2)
            t1, t2 = math.floor(x1), math.floor(x2)
            z = rng.randrange(n)
            z2 = rng.randrange(n) if fault == "independent-z" else z
            if z < t1:
                o1 = hi
            elif z > t1:
                o1 = lo
            else:
                o1 = hi if rng.random() < x1 - t1 else lo
            t_line14 = t1 if fault == "e3-line14" else t2
            if z2 < t2:
                o2 = lo
            elif z2 > t_line14:
                o2 = hi
            else:
                o2 = lo if rng.random() < x2 - t2 else hi
            return [o1, o2]
        return pair

    # CoQ-FL (seed 001 §3.6): codebook F of exclusive prefix sums, shared index I ~ p(i).
    px = 0.5 if a.px is None else a.px
    p = [px ** bin(i).count("1") * (1 - px) ** (a.d - bin(i).count("1")) for i in range(n)]
    F = [0.0]
    for v in p:
        F.append(F[-1] + v)
    F[-1] = 1.0
    if fault == "e1-off-by-one":  # the inclusive list of Alg. 3 l.12-15, read as exclusive
        F = [sum(p[: i + 1]) for i in range(n)] + [sum(p) + p[0]]

    def find(v):
        for k in range(n):
            if F[k] <= v < F[k + 1]:
                return k
        return n - 1

    def perturb(w_q, up, i, rng):
        v = w_q if up > 0 else 1 - w_q
        k = find(v)
        if i < k:
            u = up
        elif i > k:
            u = -up
        else:
            theta = (v - F[k]) / (F[k + 1] - F[k])
            u = up if rng.random() < theta else -up
        return hi if u > 0 else lo

    def coq_pair(x, rng):
        bits = [rng.random() < px for _ in range(a.d)]
        i = 0
        for b in bits:
            i = 2 * i + (1 if b else 0)
        return [perturb(q_of(x[0]), +1, i, rng), perturb(q_of(x[1]), -1, i, rng)]
    return coq_pair


def bnn_family(a, fault):
    g = a.rr_gamma

    def stosign(theta, rng):
        if fault == "logistic":
            p = 1 / (1 + math.exp(-theta))
        else:
            p = min(max((theta + 1) / 2, 0.0), 1.0)
        return 1.0 if rng.random() < p else -1.0

    def rr(b, rng):
        keep = 0.5 - g if fault == "flip-half-plus-gamma" else 0.5 + g
        return b if rng.random() < keep else -b

    if a.mechanism == "rr":
        return lambda x, rng: [rr(x[0], rng)]
    if a.mechanism == "stosign":
        return lambda x, rng: [stosign(x[0], rng)]
    if fault == "sign":
        return lambda x, rng: [rr(1.0 if x[0] >= 0 else -1.0, rng)]
    return lambda x, rng: [rr(stosign(x[0], rng), rng)]


def qgauss(a, fault):
    C, K, sigma = a.clip, a.levels, a.sigma
    step = 2 * C / (K - 1)
    std = math.sqrt(sigma) if fault == "variance-as-std" else sigma

    def run(x, rng):
        v = min(max(x[0], -C / 2), C / 2) + rng.gauss(0.0, std)  # clip to C/2, then noise
        v = min(max(v, -C), C)                                   # saturate at the end levels
        t = (v + C) / step
        i = math.floor(t)
        if fault == "round-nearest":
            i = round(t)
        elif rng.random() < t - i:
            i += 1
        i = min(max(i, 0), K - 1)
        return [-C + i * step]
    return run


def cepam(a, fault):
    n = a.lattice_dim
    gaussian = a.mechanism == "cepam-gaussian"
    scale = a.sigma if gaussian else a.b
    state = {}

    def layer(rng):  # seed-002 Lemmas 14/15: U ~ chi^2_{n+2} (Gaussian) or Gamma(2, 1) (Laplace)
        if gaussian:
            return sum(rng.gauss(0, 1) ** 2 for _ in range(n + 2))
        return rng.expovariate(1.0) if fault == "exp-layer" else rng.gammavariate(2.0, 1.0)

    def run(x, rng):
        if fault == "layer-once":
            if "u" not in state:
                state["u"] = layer(rng)
            u = state["u"]
        else:
            u = layer(rng)
        if gaussian:  # uniform in the ball of radius sigma*sqrt(U)
            d = [rng.gauss(0, 1) for _ in range(n)]
            if fault == "diagonal-directions":
                d = [1.0 if rng.random() < 0.5 else -1.0 for _ in range(n)]
            norm = math.sqrt(sum(v * v for v in d))
            rad = scale * math.sqrt(u) * rng.random() ** (1.0 / n)
            return [x[i] + rad * d[i] / norm for i in range(n)]
        return [x[0] + scale * u * (2 * rng.random() - 1)]  # uniform on (-bU, bU)
    return run


def geometric(q, rng):  # P(G = k) = (1 - q) q^k, k >= 0
    return int(math.floor(math.log(1.0 - rng.random()) / math.log(q)))


def discrete_laplace(t, rng, fault=""):
    q = math.exp(-1.0 / t)
    if fault == "double-zero":
        y = geometric(q, rng)
        return y if rng.random() < 0.5 else -y
    return geometric(q, rng) - geometric(q, rng)  # the difference of two geometrics is L_Z(t)


def discrete_gaussian(s2, rng):  # CKS Alg. 3 with float acceptance probabilities
    t = math.floor(math.sqrt(s2)) + 1
    while True:
        y = discrete_laplace(t, rng)
        if rng.random() < math.exp(-((abs(y) - s2 / t) ** 2) / (2 * s2)):
            return y


def grid_noise(a, fault):  # seed-000 gaussian / laplace baselines on the grid c - r + n*2r/N
    c, r = a.c, a.r
    steps = a.grid_steps or (1 << 20)
    lo, g = c - r, 2 * r / steps

    def run(x, rng):
        w = min(max(x[0], c - r), c + r)
        k = min(max(math.floor((w - lo) / g + 0.5), 0), steps)
        if a.mechanism == "laplace":
            z = discrete_laplace(a.t, rng, fault)
        elif fault == "sigma2-as-sigma":
            z = round(rng.gauss(0.0, a.sigma2))
        else:
            z = discrete_gaussian(a.sigma2, rng)
        return [lo + (k + z) * g]
    return run


if __name__ == "__main__":
    main()
