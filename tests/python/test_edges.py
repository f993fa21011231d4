"""Edge cases of the bindings that once crashed the interpreter or answered wrongly (a review's
findings, each reproduced before the fix): counts beyond the CLI's cap, epsilon beyond the doubles,
non-integer sensitivities, decode after the source tensor changed, errors of the wrong type,
malformed certificates, dp_accounting's keyword names, Opacus state validation."""
import json
import math
import os

import numpy as np
import pytest

import dpfl
from dpfl.accounting import (DiscreteGaussianEvent, DiscreteLaplaceEvent, GaussianEvent, OpacusAccountant,
                             PLDAccountant, PoissonSampledEvent, RDPAccountant, SelfComposedEvent)


@pytest.mark.parametrize("make", [
    lambda: PLDAccountant().compose(GaussianEvent(10 ** 6), 2 ** 48),                             # once SIGFPE
    lambda: PLDAccountant().compose(SelfComposedEvent(SelfComposedEvent(GaussianEvent(1), 40000), 40000)),
    lambda: PLDAccountant().compose(SelfComposedEvent(GaussianEvent(1), 2 ** 70)),                 # once RuntimeError
    lambda: PLDAccountant().compose(GaussianEvent(1e6), 10 ** 9).compose(GaussianEvent(1e6), 1),
])
def test_composition_counts_are_capped_as_the_cli(make):
    with pytest.raises(ValueError, match="1e9"):
        make()


def test_rdp_epsilon_beyond_the_doubles_is_inf_not_a_crash():
    lo, hi = RDPAccountant().compose(GaussianEvent(1e-300)).get_epsilon_bounds(1e-5)  # once SIGFPE
    assert hi == math.inf and lo > 1e300
    assert RDPAccountant().get_epsilon(1e-5) == 0.0  # nothing composed, as dp_accounting


def test_discrete_sensitivity_is_never_truncated():
    two = PLDAccountant().compose(DiscreteGaussianEvent(2, 2)).get_epsilon(1e-5)
    assert PLDAccountant().compose(DiscreteGaussianEvent(2, 2.0)).get_epsilon(1e-5) == two
    assert PLDAccountant().compose(DiscreteGaussianEvent(2, np.int64(3))).get_epsilon(1e-5) > two
    for bad in (2.9, "1.9", True, 2 ** 70, 0):
        with pytest.raises((ValueError, TypeError)):
            PLDAccountant().compose(DiscreteLaplaceEvent(1.0, bad))


def test_dp_accounting_keywords_and_supports():
    acc = PLDAccountant().compose(PoissonSampledEvent(0.01, GaussianEvent(1.1)), 100)
    assert acc.get_epsilon(target_delta=1e-5) == acc.get_epsilon(1e-5)
    assert acc.get_delta(target_epsilon=1.0) == acc.get_delta(1.0)
    assert acc.supports(GaussianEvent(1)) and not acc.supports("gaussian")
    assert RDPAccountant().supports(GaussianEvent(1, "2/2")) and not RDPAccountant().supports(GaussianEvent(1, 2))


def test_opacus_state_and_steps_are_validated():
    acc = OpacusAccountant()
    acc.step(noise_multiplier=np.float32(1.5), sample_rate=np.float64(0.01))  # numpy scalars are numbers
    assert acc.history == [(1.5, 0.01, 1)] and acc.get_epsilon(1e-5) > 0
    with pytest.raises(TypeError):
        acc.step(noise_multiplier="x", sample_rate=0.01)
    with pytest.raises(ValueError):
        acc.step(noise_multiplier=1.0, sample_rate=0)
    for bad in ({}, None, {"history": [(1e6, 1, 2 ** 48)]}, {"history": [(1.0,)]}, {"history": [(-1, 0.5, 1)]}):
        with pytest.raises(ValueError):
            OpacusAccountant().load_state_dict(bad)


def test_decode_keeps_the_shape_of_encode_time():
    torch = pytest.importorskip("torch")
    q = dpfl.quantizers.LDPQ(eps=1.0, c=0.0, r=1.0)
    x = torch.zeros(6)
    msg = q.encode(x, key=7)
    x.unsqueeze_(0)                 # resized in place after encoding
    assert tuple(msg.decode().shape) == (6,)
    x.data = torch.zeros(10)        # replaced, as FedAvg loops do with param.data
    assert tuple(msg.decode().shape) == (6,)

    class Sub(torch.Tensor):
        pass
    s = torch.zeros(64).as_subclass(Sub)   # a subclass from the user's module is a tensor too
    assert q.encode(s, key=1).source_address == s.data_ptr()


def test_arguments_fail_early_with_python_errors():
    with pytest.raises(ValueError, match="p_x"):
        dpfl.quantizers.CoQ(eps=1, c=0, r=1, d=5, px=0.3)        # at construction, not at encode
    q = dpfl.quantizers.LDPQ(eps=1, c=0, r=1)
    x = np.zeros(8, dtype=np.float32)
    assert q.encode(x, key=1, round=np.int64(2)).size == 8    # numpy integers are integers
    with pytest.raises(ValueError, match=r"\[1, 256\]"):
        q.encode(x, key=1, threads=1024)
    with pytest.raises(ValueError, match="sigma"):
        dpfl.quantizers.CEPAM("gaussian", 2, sigma=1e-9).encode(np.full(4, 0.4, dtype=np.float32), key=1)


@pytest.mark.parametrize("text", ["[]", "1", "null", '{"privacy": "x"}', '{"privacy": {"guarantees": [1]}}',
                                  '{"privacy": {"guarantees": [{"epsilon_hi": "abc"}]}}'])
def test_malformed_certificates_are_value_errors(tmp_path, text):
    p = tmp_path / "certificate.json"
    p.write_text(text)
    with pytest.raises(ValueError):
        dpfl.certificate.verify(str(p))
    if not text.startswith("{"):
        with pytest.raises(ValueError):
            dpfl.certificate.load(str(p))


def test_certificate_path_must_be_a_path():
    r, w = os.pipe()
    try:
        with pytest.raises(TypeError):
            dpfl.certificate.load(r)   # a descriptor is not read, nor closed
        os.fstat(r)
    finally:
        os.close(r)
        os.close(w)
