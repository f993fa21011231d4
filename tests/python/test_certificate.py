"""dpfl.certificate on a run made here with `dpfl train` (verified, as `dpfl verify-certificate`
says), a tampered copy (rejected), committed runs (the same verdict as the CLI), and malformed
files (ValueError, not a crash)."""
import glob
import json
import os
import subprocess

import pytest

import dpfl

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DPFL = os.environ.get("DPFL")


def cli_verified(path):
    out = subprocess.run([DPFL, "verify-certificate", path, "--quiet"], capture_output=True, text=True)
    return json.loads(out.stdout)["verified"] if out.stdout else False


@pytest.mark.skipif(not DPFL, reason="the dpfl binary not given (DPFL)")
def test_fresh_run_verifies_and_tamper_is_caught(tmp_path):
    out = tmp_path / "run"
    train = subprocess.run([DPFL, "train", "--dataset", "synthetic", "--mechanism", "ldp-fl", "--eps-p", "1",
                            "--clients", "4", "--rounds", "2", "--seed", "1", "--out", str(out)],
                           capture_output=True, text=True)
    if train.returncode != 0 and "LibTorch" in train.stderr:
        pytest.skip("dpfl built without LibTorch")
    assert train.returncode == 0, train.stderr
    cert = str(out / "certificate.json")
    v = dpfl.certificate.verify(cert)
    assert v.verified == cli_verified(cert) is True, v.problems
    assert v.guarantees and any(g.applies for g in v.guarantees)
    assert dpfl.certificate.load(cert)["format"]
    d = json.loads((out / "certificate.json").read_text())
    d["privacy"]["guarantees"][0]["epsilon_hi"] = 0.001
    (out / "certificate.json").write_text(json.dumps(d))
    bad = dpfl.certificate.verify(cert)
    assert not bad.verified and bad.problems
    assert cli_verified(cert) is False


@pytest.mark.skipif(not DPFL, reason="the dpfl binary not given (DPFL)")
def test_committed_runs_agree_with_the_cli():
    certs = sorted(glob.glob(os.path.join(ROOT, "docs", "**", "certificate.json"), recursive=True))[:3]
    for c in certs:
        assert dpfl.certificate.verify(c).verified == cli_verified(c)


def test_malformed_files_raise(tmp_path):
    for data in (b"", b"{", b"[" * 100 + b"]" * 100, b"\xff"):
        p = tmp_path / "c.json"
        p.write_bytes(data)
        with pytest.raises(ValueError):
            dpfl.certificate.verify(str(p))
    with pytest.raises(ValueError):
        dpfl.certificate.load(str(tmp_path / "missing.json"))
