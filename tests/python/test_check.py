"""dpfl.check on Python callables: a correct LDPQ is conformant, a biased one is not, protocol
failures are reported with exit code 2, bad arguments raise ValueError/TypeError."""
import math
import random

import pytest

import dpfl


def ldpq(seed, shift=0.0, clip=True):
    rng = random.Random(seed)
    E = math.exp(1.0)
    alpha = (E + 1) / (E - 1)

    def fn(x, runs):
        w = min(max(x[0], -1.0), 1.0) if clip else x[0]
        q = 0.5 + w / (2 * alpha) + shift
        return [alpha if rng.random() < q else -alpha for _ in range(runs)]
    return fn


def test_correct_ldpq_is_conformant():
    r = dpfl.check.ldpq(ldpq(1), eps=1, c=0, r=1, samples=4000)
    assert r.conformant, r.text
    assert r.exit_code == 0
    assert r.json["verdict"] == "conformant"
    assert "<testsuite" in r.junit


def test_unclipped_ldpq_is_flagged():
    r = dpfl.check.ldpq(ldpq(1, clip=False), eps=1, c=0, r=1, samples=4000)
    assert r.exit_code == 1
    assert any(c["rejected"] for c in r.json["checks"])


def test_numpy_answers_and_pairs():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(3)
    E = math.exp(1.0)
    alpha = (E + 1) / (E - 1)

    def fn(x, runs):  # RR: keep with probability 1/2 + gamma
        keep = rng.random(runs) < 0.5 + 0.3
        return np.where(keep, x[0], -x[0])
    assert dpfl.check.rr(fn, rr_gamma=0.3, samples=4000).conformant


def test_protocol_errors_exit_2():
    def wrong_count(x, runs):
        return [1.0] * (runs - 1)
    r = dpfl.check.stosign(wrong_count, samples=1000)
    assert r.exit_code == 2 and "request 1" in r.json["protocol_error"]

    def raises(x, runs):
        raise RuntimeError("boom")
    r = dpfl.check.stosign(raises, samples=1000)
    assert r.exit_code == 2 and "boom" in r.json["protocol_error"]

    def not_numbers(x, runs):
        return ["a"] * runs
    assert dpfl.check.stosign(not_numbers, samples=1000).exit_code == 2

    def off_support(x, runs):
        return [0.5] * runs
    r = dpfl.check.stosign(off_support, samples=1000)
    assert r.exit_code == 2 and "support" in r.json["protocol_error"]


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="--eps"):
        dpfl.check.ldpq(ldpq(1), eps=-1, c=0, r=1)
    with pytest.raises(ValueError, match="--r"):
        dpfl.check.ldpq(ldpq(1), eps=1, c=0)
    with pytest.raises(ValueError, match="MECHANISM"):
        dpfl.check.run("nope", ldpq(1))
    with pytest.raises(TypeError):
        dpfl.check.ldpq(ldpq(1), eps=[1], c=0, r=1)
    with pytest.raises(TypeError):
        dpfl.check.ldpq(42, eps=1, c=0, r=1)
    with pytest.raises(ValueError, match="alpha"):
        dpfl.check.ldpq(ldpq(1), eps=1, c=0, r=1, alpha=2)
    with pytest.raises(ValueError):
        dpfl.check.ldpq(ldpq(1), eps=1, c=0, r=1, samples=-5)
