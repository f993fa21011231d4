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
