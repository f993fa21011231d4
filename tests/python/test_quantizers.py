"""dpfl.quantizers: zero copies (the encoder reads the caller's memory), the same bits as the C++
encoder behind `dpfl serve` for the same key and stream address, decode of the right shape and
kind, and bad arguments raising TypeError/ValueError (never a crash)."""
import os
import subprocess

import numpy as np
import pytest

import dpfl
from dpfl.quantizers import LDPQ, CorBinQ, CoQ, RandomizedResponse, StoSign


def test_numpy_is_read_in_place():
    a = np.linspace(-1, 1, 4096, dtype=np.float32)
    msg = LDPQ(1.0, 0.0, 1.0).encode(a, key=3)
    assert msg.source_address == a.__array_interface__["data"][0]
    assert msg.bits.dtype == np.uint8 and msg.bits.shape == (512,)
    out = msg.decode()
    assert out.shape == a.shape and out.dtype == np.float32


def test_torch_is_read_in_place():
    torch = pytest.importorskip("torch")
    t = torch.linspace(-1, 1, 1000).reshape(10, 100)
    msg = LDPQ(1.0, 0.0, 1.0).encode(t, key=3)
    assert msg.source_address == t.data_ptr()
    out = msg.decode()
    assert isinstance(out, torch.Tensor) and out.shape == t.shape
    with pytest.raises(TypeError):
        LDPQ(1.0, 0.0, 1.0).encode(t.double(), key=3)
    with pytest.raises(TypeError):
        LDPQ(1.0, 0.0, 1.0).encode(t.t(), key=3)  # not contiguous: no silent copy


def test_same_key_same_bits_and_threads_do_not_matter():
    a = np.random.default_rng(1).uniform(-1, 1, 100000).astype(np.float32)
    for q in (LDPQ(1, 0, 1), CorBinQ(1, 0, 1, 5), CoQ(2, 0, 1, 4)):
        m1 = q.encode(a, key=11, round=2, client=3)
        m2 = q.encode(a, key=11, round=2, client=3, threads=4)
        assert (m1.bits == m2.bits).all()
        assert not (q.encode(a, key=12, round=2, client=3).bits == m1.bits).all()
    k = bytes(range(32))
    assert (LDPQ(1, 0, 1).encode(a, key=k).bits == LDPQ(1, 0, 1).encode(a, key=k).bits).all()


@pytest.mark.skipif(not os.environ.get("DPFL"), reason="the dpfl binary not given (DPFL)")
@pytest.mark.parametrize("mech,flags,make", [
    ("ldpq", ["--eps", "1", "--c", "0", "--r", "1"], lambda: LDPQ(1, 0, 1)),
    ("stosign", [], lambda: StoSign()),
    ("rr", ["--rr-gamma", "0.3"], lambda: RandomizedResponse(0.3)),
])
def test_same_bits_as_the_cpp_encoder(mech, flags, make):
    """`dpfl serve M --seed 9` answers its first request with round 0, client 0 of key 9."""
    n, w = 5000, "1" if mech == "rr" else "0.25"
    out = subprocess.run([os.environ["DPFL"], "serve", mech, *flags, "--seed", "9"], input=f"{n} {w}\n",
                         capture_output=True, text=True, check=True).stdout.split()
    cli_plus = np.array([float(v) > (0 if mech != "ldpq" else 0.0) for v in out])
    x = np.full(n, float(w), dtype=np.float32)
    py_plus = make().encode(x, key=9, round=0, client=0).decode() > 0
    assert (cli_plus == py_plus).all()


def test_bad_arguments_raise():
    a = np.zeros(10, dtype=np.float32)
    for bad in (dict(key=-1), dict(key=2 ** 64), dict(key=b"short"), dict(key=1, round=-1),
                dict(key=1, threads=0), dict(key=1, generator="mt"), dict(key=1, role="x")):
        with pytest.raises((ValueError, TypeError)):
            LDPQ(1, 0, 1).encode(a, **bad)
    with pytest.raises(TypeError):
        LDPQ(1, 0, 1).encode([1.0, 2.0], key=1)
    with pytest.raises(TypeError):
        LDPQ(1, 0, 1).encode(a, key="seed")
    for args in ((0, 0, 1), (1, 0, -1), (float("nan"), 0, 1)):
        with pytest.raises(ValueError):
            LDPQ(*args)
    with pytest.raises(ValueError):
        LDPQ(1, 0, 1).encode(np.array([np.nan], dtype=np.float32), key=1)
    with pytest.raises(ValueError):
        RandomizedResponse(0.7)


def test_quantized_gaussian_and_cepam():
    from dpfl.quantizers import CEPAM, QuantizedGaussian
    x = np.random.default_rng(2).uniform(-0.05, 0.05, 1000).astype(np.float32)
    q = QuantizedGaussian(sigma=0.5, levels=16, clip=1.0)
    m = q.encode(x, key=5)
    assert m.source_address == x.__array_interface__["data"][0]
    y = m.decode()
    assert y.shape == x.shape and set(np.round(np.unique(y) * 7.5, 4)) <= set(np.arange(-15, 16, 2) / 2.0)
    assert q.implemented_sigma >= 0.5
    c = CEPAM("gaussian", 2, sigma=0.1, clip=1.0)
    e = c.encode(x, key=5)
    err = e.decode() - x
    assert err.shape == x.shape and abs(err.mean()) < 0.02 and 0.08 < err.std() < 0.12
    with pytest.raises(ValueError):
        CEPAM("gaussian", 2, b=0.1)
    with pytest.raises(ValueError):
        QuantizedGaussian(sigma=-1, levels=16, clip=1.0)
