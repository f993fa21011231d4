"""The argument conversion of `import dpfl` under random garbage (fixed seed, 3000 calls): every
call either works or raises ValueError/TypeError/ArithmeticError — never another exception, never
a crash of the interpreter (a crash fails the whole pytest process)."""
import math
import random

import numpy as np
import pytest

import dpfl
from dpfl import accounting, quantizers

GARBAGE = [0, 1, -1, 2 ** 64, -2 ** 63, 0.5, -0.0, 1e308, -1e308, math.inf, -math.inf, math.nan, 1e-320, "1", "1/3",
           "nan", "", "x", "1e999", b"", b"\x00" * 32, None, True, [], [1.0], {}, object(), np.float32(1.0),
           np.array([1.0], dtype=np.float32), np.zeros((0,), dtype=np.float32), np.zeros(3, dtype=np.float64),
           np.zeros((2, 2), dtype=np.float32)[:, 0]]
OK = (ValueError, TypeError, ArithmeticError, OverflowError)


def pick(rng):
    return rng.choice(GARBAGE)


def call(f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except OK:
        pass


def test_random_arguments_never_crash():
    rng = random.Random(20261129)
    fn = lambda x, n: [1.0] * n  # noqa: E731
    for _ in range(500):
        a = [pick(rng) for _ in range(6)]
        call(lambda: quantizers.LDPQ(a[0], a[1], a[2]).encode(a[3], key=a[4], round=a[5]))
        call(lambda: quantizers.CorBinQ(a[0], a[1], a[2], a[3]).encode(np.zeros(8, np.float32), key=a[4]))
        call(lambda: quantizers.StoSign(a[0]).encode(a[1], key=a[2], client=a[3]))
        call(lambda: quantizers.QuantizedGaussian(a[0], a[1], a[2]).encode(a[3], key=a[4]))
        call(lambda: quantizers.CEPAM("gaussian", a[0], sigma=a[1], clip=a[2]).encode(a[3], key=a[4]))
        call(lambda: accounting.PLDAccountant(a[0]).compose(accounting.GaussianEvent(a[1], a[2]), a[3])
             .get_epsilon(a[4]))
        call(lambda: dpfl.check.run(str(a[0]), fn, samples=100, search_stages=0, eps=a[1], c=a[2], r=a[3]))
