"""scripts/fedavg_peer.py --quantizer dpfl (the example docs/python.md tells users to copy): runs,
reports both quantizers' per-round times from one run, and the privacy of the rounds from
dpfl.accounting (an enclosure around rounds x eps for randomized response at small delta)."""
import json
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "fedavg_peer.py")


def test_dpfl_mode_runs_and_accounts():
    pytest.importorskip("torch")
    data = "/usr/share/datasets/fashion-mnist"
    if not os.path.exists(os.path.join(data, "train-images-idx3-ubyte")) and \
            not os.path.exists(os.path.join(data, "train-images-idx3-ubyte.gz")):
        pytest.skip("Fashion-MNIST not installed")
    out = subprocess.run([sys.executable, SCRIPT, "--max-samples", "1000", "--clients", "4", "--rounds", "2",
                          "--local-epochs", "1", "--threads", "1", "--style", "lean", "--quantizer", "dpfl"],
                         capture_output=True, text=True, env=dict(os.environ), check=True)
    r = json.loads(out.stdout)
    assert len(r["round_seconds"]) == 2
    assert len(r["quantize_seconds"]["dpfl"]) == 2 and len(r["quantize_seconds"]["tensor"]) == 2
    p = r["privacy"]
    assert p["per_parameter_epsilon_lo"] <= 2.0 <= p["per_parameter_epsilon_hi"] * (1 + 1e-9) or \
        p["per_parameter_epsilon_hi"] <= 2.0
    bad = subprocess.run([sys.executable, SCRIPT, "--quantizer", "dpfl", "--style", "typical"], capture_output=True,
                         text=True)
    assert bad.returncode != 0 and "lean" in bad.stderr


def test_bench_python_runs():
    """scripts/bench-python.py (docs/python.md "Zero copies, measured") at a small size: it runs
    and reports its four rows with ratios to the in-place call of the same run. Its timings are
    not asserted here (a timed unit test is no benchmark); the in-place reading itself is asserted
    by test_quantizers.py's source_address tests."""
    pytest.importorskip("torch")
    bench = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "bench-python.py")
    out = subprocess.run([sys.executable, bench, "--m", "65536", "--threads", "1", "--repeats", "1"],
                         capture_output=True, text=True, env=dict(os.environ), check=True)
    r = json.loads(out.stdout)
    assert r["m"] == 65536 and len(r["rows"]) == 4
    assert r["rows"][0]["ratio_to_in_place"] == 1.0
    assert all(row["seconds"] > 0 and row["params_per_second"] > 0 for row in r["rows"])
    bad = subprocess.run([sys.executable, bench, "--m", "0"], capture_output=True, text=True, env=dict(os.environ))
    assert bad.returncode == 2 and "--m" in bad.stderr
