"""dpfl.certificate — load and verify a run's certificate.json (docs/training.md "Certificate").

    v = dpfl.certificate.verify("out/demo/certificate.json", public_key="operator.key.pub")
    v.verified, v.problems, v.guarantees[0].epsilon_hi

`verify` runs `dpfl verify-certificate`'s checks in process: every privacy number recomputed with
the reference, the files' hashes, the monitor statistics, and the Ed25519 signature when a public
key is given. `replay=True` also re-runs the training bit for bit; that needs LibTorch, which this
module does not link, so it runs the `dpfl` binary (found through $DPFL, next to this package in
a build tree, or on PATH).
"""
import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import List, Optional

from . import _dpfl

__all__ = ["Guarantee", "Verification", "load", "verify"]


@dataclass(frozen=True)
class Guarantee:
    """One row of the certificate's privacy section (schema of DESIGN.md "Certificate (v2)")."""
    notion: str
    unit: str
    adjacency: str
    observer: str
    composition: str
    epsilon_lo: Optional[float]
    epsilon_hi: Optional[float]
    delta: Optional[float]
    applies: bool
    reason: str = ""


@dataclass
class Verification:
    verified: bool
    problems: List[str]
    checked: List[str] = field(default_factory=list)
    not_checked: List[str] = field(default_factory=list)
    authenticity: str = ""
    guarantees: List[Guarantee] = field(default_factory=list)
    replay: Optional[dict] = None


def _num(v, where):
    """A guarantee's number: null, a JSON number, or a decimal string ("inf" included)."""
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise ValueError(f"{where}: expected a number, got {type(v).__name__}")
    try:
        return float(v)
    except ValueError:
        raise ValueError(f"{where}: expected a number, got {v!r}") from None


def _guarantees(cert):
    """The privacy section's rows as Guarantee objects; a malformed section is a ValueError naming
    the field (the in-process verification has already reported it as a problem)."""
    privacy = cert.get("privacy")
    if privacy is None:
        return []
    if not isinstance(privacy, dict):
        raise ValueError(f"privacy: expected an object, got {type(privacy).__name__}")
    rows = privacy.get("guarantees") or []
    if not isinstance(rows, list):
        raise ValueError(f"privacy.guarantees: expected a list, got {type(rows).__name__}")
    out = []
    for i, r in enumerate(rows):
        where = f"privacy.guarantees[{i}]"
        if not isinstance(r, dict):
            raise ValueError(f"{where}: expected an object, got {type(r).__name__}")
        out.append(Guarantee(str(r.get("notion", "")), str(r.get("unit", "")), str(r.get("adjacency", "")),
                             str(r.get("observer", "")), str(r.get("composition", "")),
                             _num(r.get("epsilon_lo"), where + ".epsilon_lo"),
                             _num(r.get("epsilon_hi"), where + ".epsilon_hi"), _num(r.get("delta"), where + ".delta"),
                             bool(r.get("applies", False)), str(r.get("reason", ""))))
    return out


def _read(path, what):
    # A path, not a file descriptor: open(3) would read (and close) the caller's descriptor.
    if isinstance(path, bool) or not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"{what}: expected a path, got {type(path).__name__}")
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="strict")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{what}: cannot read '{path}': {e}") from None


def load(path):
    """The certificate as a dict (the depth limit and JSON checks of dpfl verify-certificate)."""
    text = _read(path, "path")
    r = _dpfl.certificate.verify(text, str(path), "", None, None, False)
    cert = json.loads(r["certificate"])
    if not isinstance(cert, dict):
        raise ValueError(f"path: '{path}' is not a certificate (its JSON is a {type(cert).__name__}, not an object)")
    return cert


def _dpfl_binary():
    env = os.environ.get("DPFL")
    if env:
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "production", "dpfl")
    return here if os.path.exists(here) else shutil.which("dpfl")


def verify(path, public_key=None, replay=False):
    text = _read(path, "path")
    sig_path = str(path) + ".sig"
    signature = _read(sig_path, "signature") if os.path.exists(sig_path) else None
    key = _read(public_key, "public_key") if public_key is not None else None
    r = _dpfl.certificate.verify(text, str(path), os.path.dirname(os.path.abspath(path)), signature, key, True)
    cert = json.loads(r["certificate"])
    if not isinstance(cert, dict):
        raise ValueError(f"path: '{path}' is not a certificate (its JSON is a {type(cert).__name__}, not an object)")
    v = Verification(bool(r["ok"]), list(r["problems"]), list(r["checked"]), list(r["not_checked"]),
                     str(r["authenticity"]), _guarantees(cert))
    if replay:
        binary = _dpfl_binary()
        if not binary:
            raise ValueError("replay: the dpfl binary was not found (set $DPFL)")
        args = [binary, "verify-certificate", str(path), "--replay", "--quiet"]
        if public_key is not None:
            args += ["--public-key", str(public_key)]
        out = subprocess.run(args, capture_output=True, text=True)
        try:
            v.replay = json.loads(out.stdout)
        except json.JSONDecodeError:
            v.replay = {"error": out.stderr.strip()}
        if out.returncode != 0:
            v.verified = False
            v.problems.append("replay: " + (out.stderr.strip() or f"exit {out.returncode}"))
    return v
