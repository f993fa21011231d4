#!/usr/bin/env python3
"""dpfl's PLD accountant next to Google's dp_accounting, in one run (docs/benchmarks.md "Accounting").

For each workload (a Poisson-sampled Gaussian composed K times, epsilon at delta) it runs
`dpfl-ref pld gaussian` and, when dp_accounting can be imported, dp_accounting's PLDAccountant
(pessimistic, connect-the-dots, value_discretization_interval 1e-4 by default), each in its own
process, and prints epsilon, seconds, peak RSS, dpfl's enclosure and its relative width, and the
time ratio dpfl / dp_accounting. Times: dpfl's is the whole process (start-up, discretization,
composition, query); dp_accounting's is compose + get_epsilon only (its imports are not counted).
RSS: each process's peak resident set (getrusage of the child).

dp_accounting is not a dependency of dpfl: install it (pip install dp-accounting), or point
--peer-path at the python/dp_accounting folder of a checkout of google/differential-privacy;
it needs numpy, scipy, attrs and absl-py (Debian: python3-numpy python3-scipy python3-attr
python3-absl), run with --peer-python (default: /usr/bin/python3 if it exists, else this python).

  scripts/bench-accounting.py [--dpfl-ref PATH] [--peer-path DIR] [--peer-python PY]
                              [--workloads table|kinds|smoke] [--relative-width W] [--json] [--check]

--check: exit 1 unless every row meets the targets (time ratio <= 1 where the peer ran, relative
width <= 0.2 %, RSS <= 300 MB). Exit 2 on bad arguments or a failed dpfl-ref run.
"""
import argparse
import json
import os
import subprocess
import sys
import time

# (name, q, sigma, steps, delta)
WORKLOADS = {
    # The three rows of the issue that asked for this comparison.
    "table": [
        ("Poisson Gaussian q=0.01 sigma=1 K=1000", "0.01", "1", 1000, "1e-5"),
        ("DP-SGD MNIST q=256/60000 sigma=1.1 K=14063", "256/60000", "1.1", 14063, "1e-5"),
        ("q=0.01 sigma=0.7 K=120", "0.01", "0.7", 120, "1e-5"),
    ],
    # Further points of the same kind (q 1e-4..1, sigma 0.5..20, K 1e2..1e6, delta 1e-5..1e-9).
    "kinds": [
        ("q=1 sigma=20 K=100", "1", "20", 100, "1e-5"),
        ("q=1 sigma=0.6 K=100 delta=1e-9", "1", "0.6", 100, "1e-9"),
        ("q=0.1 sigma=2 K=10000 delta=1e-7", "0.1", "2", 10000, "1e-7"),
        ("q=0.001 sigma=5 K=100000 delta=1e-6", "0.001", "5", 100000, "1e-6"),
        ("q=1e-4 sigma=0.5 K=1e6 delta=1e-9", "0.0001", "0.5", 1000000, "1e-9"),
    ],
    "smoke": [
        ("smoke q=0.01 sigma=1 K=50", "0.01", "1", 50, "1e-5"),
        ("smoke q=1 sigma=2 K=10", "1", "2", 10, "1e-6"),
    ],
}
WIDTH_TARGET, RSS_TARGET_MB = 0.002, 300.0

PEER_CODE = r"""
import json, sys, time
from fractions import Fraction
import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
q, sigma, steps, delta, interval = sys.argv[1:6]
q = float(Fraction(q))
event = dp_accounting.GaussianDpEvent(float(sigma))
if q < 1:
    event = dp_accounting.PoissonSampledDpEvent(q, event)
t0 = time.perf_counter()
acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=float(interval))
acc.compose(event, int(steps))
eps = acc.get_epsilon(float(delta))
print(json.dumps({"epsilon": eps, "seconds": time.perf_counter() - t0}))
"""


def run_measured(argv, env=None):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    # Read the pipes to the end first (a full pipe would block the child), then reap with wait4 for
    # this child's own peak RSS.
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    return p.returncode, out.decode(), err.decode(), wall, usage.ru_maxrss / 1024.0


def peer_available(python, path):
    env = dict(os.environ)
    if path:
        env["PYTHONPATH"] = path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    try:
        r = subprocess.run([python, "-c", "import dp_accounting.pld.pld_privacy_accountant"], env=env,
                           capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None, "cannot run " + python
    if r.returncode != 0:
        last = (r.stderr.decode().strip().splitlines() or ["?"])[-1]
        return None, "dp_accounting is not importable with " + python + " (" + last + ")"
    return env, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dpfl-ref", default=os.environ.get("DPFL_REF", "build/reference/dpfl-ref"))
    ap.add_argument("--peer-path", default=os.environ.get("DP_ACCOUNTING_PATH", ""),
                    help="folder to put on PYTHONPATH for dp_accounting (python/dp_accounting of a checkout)")
    ap.add_argument("--peer-python", default="/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable)
    ap.add_argument("--peer-interval", default="1e-4", help="dp_accounting value_discretization_interval")
    ap.add_argument("--workloads", default="table", help="table | kinds | smoke | all")
    ap.add_argument("--relative-width", default=str(WIDTH_TARGET), help="dpfl's target relative width")
    ap.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    ap.add_argument("--check", action="store_true", help="exit 1 unless every row meets the targets")
    a = ap.parse_args()
    names = ["table", "kinds"] if a.workloads == "all" else [a.workloads]
    if any(n not in WORKLOADS for n in names):
        print("bench-accounting: --workloads must be table, kinds, smoke or all", file=sys.stderr)
        return 2
    if not os.access(a.dpfl_ref, os.X_OK):
        print("bench-accounting: dpfl-ref not found at " + a.dpfl_ref + " (build it, or give --dpfl-ref)", file=sys.stderr)
        return 2
    peer_env, why = peer_available(a.peer_python, a.peer_path)
    if peer_env is None and not a.json:
        print("-- " + why + ": dpfl rows only", file=sys.stderr)
    rows = []
    for name, q, sigma, steps, delta in [w for n in names for w in WORKLOADS[n]]:
        argv = [a.dpfl_ref, "pld", "gaussian", "--sigma", sigma, "--compositions", str(steps), "--delta", delta,
                "--relative-width", a.relative_width]
        if q != "1":
            argv += ["--sampling-rate", q]
        rc, out, err, wall, rss = run_measured(argv)
        if rc != 0:
            print("bench-accounting: dpfl-ref failed on '" + name + "' (exit " + str(rc) + "): " + err.strip(), file=sys.stderr)
            return 2
        d = json.loads(out)
        lo, hi = d["epsilon_lo"], d["epsilon_hi"]
        row = {"workload": name, "q": q, "sigma": sigma, "steps": steps, "delta": delta,
               "dpfl": {"epsilon_lo": lo, "epsilon_hi": hi, "seconds": wall, "rss_mb": rss,
                        "grid_step": d.get("grid_step"), "passes": d.get("passes")}}
        lo_f, hi_f = float(lo), float(hi)
        row["dpfl"]["relative_width"] = (hi_f - lo_f) / hi_f if hi_f not in (0.0, float("inf")) else None
        if peer_env is not None:
            rc, out, err, pwall, prss = run_measured(
                [a.peer_python, "-c", PEER_CODE, q, sigma, str(steps), delta, a.peer_interval], env=peer_env)
            if rc == 0:
                p = json.loads(out)
                row["dp_accounting"] = {"epsilon": p["epsilon"], "seconds": p["seconds"], "process_seconds": pwall,
                                        "rss_mb": prss}
                row["time_ratio"] = wall / p["seconds"]
                row["peer_inside_enclosure"] = lo_f <= p["epsilon"] <= hi_f
            else:
                row["dp_accounting"] = {"error": (err.strip().splitlines() or ["?"])[-1]}
        w = row["dpfl"]["relative_width"]
        row["meets_targets"] = (w is not None and w <= WIDTH_TARGET and rss <= RSS_TARGET_MB and
                                row.get("time_ratio", 0.0) <= 1.0)
        rows.append(row)
        if not a.json:
            print_row(row)
    if a.json:
        print(json.dumps({"peer": why or "dp_accounting", "rows": rows}, indent=1))
    if a.check and not all(r["meets_targets"] for r in rows):
        return 1
    return 0


def print_row(r):
    d = r["dpfl"]
    w = d["relative_width"]
    text = "%s\n  dpfl          [%s, %s]  width %s  %.2f s  %.0f MB  (step %s, %s passes)" % (
        r["workload"], d["epsilon_lo"][:9], d["epsilon_hi"][:9], "%.3f %%" % (100 * w) if w is not None else "-",
        d["seconds"], d["rss_mb"], d["grid_step"], d["passes"])
    p = r.get("dp_accounting")
    if p and "epsilon" in p:
        text += "\n  dp_accounting %.6g  %.2f s (process %.2f s)  %.0f MB   ratio dpfl/peer %.2f  %s" % (
            p["epsilon"], p["seconds"], p["process_seconds"], p["rss_mb"], r["time_ratio"],
            "inside" if r["peer_inside_enclosure"] else "OUTSIDE the enclosure")
    elif p:
        text += "\n  dp_accounting failed: " + p["error"]
    text += "\n  targets: " + ("met" if r["meets_targets"] else "NOT met")
    print(text, flush=True)


if __name__ == "__main__":
    sys.exit(main())
