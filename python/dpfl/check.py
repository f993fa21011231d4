"""dpfl.check — hold a Python implementation of a mechanism to its exact law (docs/check.md).

The implementation is a callable ``fn(inputs: list[float], runs: int)`` returning ``runs`` rows
(numbers, sequences of numbers, or a numpy array of shape (runs,) / (runs, k)): the released
values of ``runs`` independent runs at ``inputs``, exactly what a request of ``dpfl check`` asks
a process for. The report is the CLI's: ``report.conformant``, ``report.exit_code`` (0, 1, 2),
``report.text``, ``report.json`` (a dict), ``report.junit`` (XML).

    report = dpfl.check.ldpq(fn, eps=1, c=0, r=1)
    assert report.conformant, report.text
"""
import json as _json
from dataclasses import dataclass

from . import _dpfl

__all__ = ["Report", "run", "mechanisms"] + [m.replace("-", "_") for m in _dpfl.check.mechanisms()]


@dataclass(frozen=True)
class Report:
    exit_code: int
    text: str
    json: dict
    junit: str

    @property
    def conformant(self):
        return self.exit_code == 0

    def __str__(self):
        return self.text


def _number(v, name):
    if isinstance(v, bool):
        raise TypeError(f"{name}: expected a number, got bool")
    if isinstance(v, (int, float, str)):
        return str(v) if not isinstance(v, float) else repr(v)
    raise TypeError(f"{name}: expected a number or a decimal string, got {type(v).__name__}")


def mechanisms():
    return list(_dpfl.check.mechanisms())


def run(mechanism, fn, *, alpha=1e-3, samples=20000, seed=1, budget_seconds=0.0, tolerance=1e-9,
        search_stages=4, random_inputs=8, **params):
    """Runs the check of ``mechanism`` (a name of ``mechanisms()``) on ``fn``; ``params`` are the
    mechanism's flags with ``_`` for ``-`` (``rr_gamma``, ``lattice_dim``, ``grid_steps``)."""
    if not callable(fn):
        raise TypeError("fn: expected a callable fn(inputs, runs)")
    flags = {k.replace("_", "-"): _number(v, k) for k, v in params.items()}
    for name, value in (("samples", samples), ("seed", seed), ("search_stages", search_stages),
                        ("random_inputs", random_inputs)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name}: expected a non-negative integer, got {value!r}")
    out = _dpfl.check.run(mechanism, flags, fn, float(alpha), samples, seed, float(budget_seconds),
                          float(tolerance), search_stages, random_inputs)
    return Report(out["exit_code"], out["text"], _json.loads(out["json"]), out["junit"])


def _bind(name):
    def check(fn, **kwargs):
        return run(name, fn, **kwargs)
    check.__name__ = name.replace("-", "_")
    check.__doc__ = f"dpfl.check.run('{name}', fn, **kwargs)"
    return check


for _m in _dpfl.check.mechanisms():
    globals()[_m.replace("-", "_")] = _bind(_m)
