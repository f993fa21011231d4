"""dpfl.accounting — events and a PLD accountant shaped like dp_accounting's, with enclosures.

    acc = dpfl.accounting.PLDAccountant()
    acc.compose(PoissonSampledEvent(0.01, GaussianEvent(1.1)), 1000)
    acc.get_epsilon(1e-5)             # the upper end of the enclosure: a guarantee
    acc.get_epsilon_bounds(1e-5)      # (lo, hi), lo <= true epsilon <= hi

Numbers may be floats (read as the decimal repr(x), like the CLI reads its flags), ints or
decimal/fraction strings ("1/3"), all exact. Adjacency and composition rules are those of
dpfl::ref::pld (reference/include/dpfl/ref/pld_accountant.hpp, docs/accounting.md).
"""
import numbers
import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from . import _dpfl

__all__ = ["GaussianEvent", "LaplaceEvent", "DiscreteGaussianEvent", "DiscreteLaplaceEvent",
           "RandomizedResponseEvent", "PoissonSampledEvent", "SelfComposedEvent", "ComposedEvent",
           "PLDAccountant", "RDPAccountant", "OpacusAccountant"]


def _num(v, name):
    """v as the exact decimal/fraction text the library reads: ints (and integer types such as
    numpy.int64) as digits, floats (and real types such as numpy.float32) as repr(float(v)), strings
    as given."""
    if isinstance(v, bool):
        raise TypeError(f"{name}: expected a number or a decimal string, got bool")
    if isinstance(v, str):
        return v
    if isinstance(v, numbers.Integral):
        return str(operator.index(v))
    if isinstance(v, numbers.Real):
        return repr(float(v))
    raise TypeError(f"{name}: expected a number or a decimal string, got {type(v).__name__}")


def _sensitivity(v):
    """The integer sensitivity of a discrete event (never truncated: 2.9 is an error, not 2)."""
    if isinstance(v, bool):
        raise TypeError("sensitivity: expected an integer, got bool")
    if isinstance(v, numbers.Integral):
        return operator.index(v)
    if isinstance(v, (numbers.Real, str)):
        try:
            f = Fraction(v)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"sensitivity: expected an integer, got {v!r}") from None
        if f.denominator == 1:
            return f.numerator
    raise ValueError(f"sensitivity: must be an integer for a discrete event, got {v!r}")


class DpEvent:
    def _tuple(self):
        raise NotImplementedError


@dataclass(frozen=True)
class GaussianEvent(DpEvent):
    noise_multiplier: object
    sensitivity: object = 1

    def _tuple(self):
        return ("gaussian", _num(self.noise_multiplier, "noise_multiplier"), _num(self.sensitivity, "sensitivity"))


@dataclass(frozen=True)
class LaplaceEvent(DpEvent):
    scale: object
    sensitivity: object = 1

    def _tuple(self):
        return ("laplace", _num(self.scale, "scale"), _num(self.sensitivity, "sensitivity"))


@dataclass(frozen=True)
class DiscreteGaussianEvent(DpEvent):
    sigma: object
    sensitivity: int = 1

    def _tuple(self):
        return ("discrete_gaussian", _square(_num(self.sigma, "sigma")), _sensitivity(self.sensitivity))


def _square(s):
    # sigma^2 as an exact fraction string from the exact decimal sigma.
    from fractions import Fraction
    f = Fraction(s)
    f = f * f
    return f"{f.numerator}/{f.denominator}"


@dataclass(frozen=True)
class DiscreteLaplaceEvent(DpEvent):
    scale: object
    sensitivity: int = 1

    def _tuple(self):
        return ("discrete_laplace", _num(self.scale, "scale"), _sensitivity(self.sensitivity))


@dataclass(frozen=True)
class RandomizedResponseEvent(DpEvent):
    """Binary randomized response keeping the input with probability ``keep_probability`` (> 1/2)."""
    keep_probability: object

    def _tuple(self):
        return ("randomized_response", _num(self.keep_probability, "keep_probability"))


@dataclass(frozen=True)
class PoissonSampledEvent(DpEvent):
    sampling_probability: object
    event: DpEvent

    def _tuple(self):
        return ("poisson_sampled", _num(self.sampling_probability, "sampling_probability"), _event(self.event))


@dataclass(frozen=True)
class SelfComposedEvent(DpEvent):
    event: DpEvent
    count: int

    def _tuple(self):
        return ("self_composed", _event(self.event), _count(self.count))


@dataclass(frozen=True)
class ComposedEvent(DpEvent):
    events: Sequence[DpEvent]

    def _tuple(self):
        return ("composed", [_event(e) for e in self.events])


def _event(e):
    if not isinstance(e, DpEvent):
        raise TypeError(f"expected a dpfl.accounting event, got {type(e).__name__}")
    return e._tuple()


def _count(c):
    """An integer count in [1, 1e9] (dpfl-ref pld --compositions' range)."""
    if isinstance(c, bool) or not isinstance(c, numbers.Integral):
        raise ValueError(f"count: must be an integer in [1, 1e9], got {c!r}")
    c = operator.index(c)
    if not 1 <= c <= 10 ** 9:
        raise ValueError(f"count: must be an integer in [1, 1e9], got {c!r}")
    return c


class PLDAccountant:
    """dp_accounting's PLDAccountant shape; answers are rigorous enclosures (upper end returned)."""

    def __init__(self, relative_width="1/500"):
        self._acc = _dpfl.accounting.PldAccountant(_num(relative_width, "relative_width"))

    def supports(self, event):
        """Whether compose() accepts the event (dp_accounting's PrivacyAccountant.supports)."""
        try:
            _event(event)
        except (TypeError, ValueError):
            return False
        return True

    def compose(self, event, count=1):
        """Adds `count` (an integer in [1, 1e9]) runs of the event; at most 1e9 compositions in all."""
        self._acc.compose(_event(event), _count(count))
        return self

    # Argument names as dp_accounting's (target_delta, target_epsilon), so keyword calls carry over.
    def get_epsilon_bounds(self, target_delta):
        return tuple(self._acc.epsilon_bounds(_num(target_delta, "delta")))

    def get_epsilon(self, target_delta):
        return self.get_epsilon_bounds(target_delta)[1]

    def get_delta_bounds(self, target_epsilon):
        return tuple(self._acc.delta_bounds(_num(target_epsilon, "epsilon")))

    def get_delta(self, target_epsilon):
        return self.get_delta_bounds(target_epsilon)[1]


def _sampled_gaussian(event):
    """(q, sigma) strings of a GaussianEvent or PoissonSampledEvent(q, GaussianEvent) of sensitivity 1."""
    q = "1"
    if isinstance(event, PoissonSampledEvent):
        q, event = _num(event.sampling_probability, "sampling_probability"), event.event
    if not isinstance(event, GaussianEvent) or Fraction(_num(event.sensitivity, "sensitivity")) != 1:
        raise ValueError("the RDP accountant composes Gaussian events of sensitivity 1, optionally Poisson-sampled")
    return q, _num(event.noise_multiplier, "noise_multiplier")


class RDPAccountant:
    """RDP accounting of (Poisson-sampled) Gaussians, orders 1.25..64, the improved conversion by
    default (dpfl::ref::Account); the enclosure's upper end is returned."""

    def __init__(self, conversion="improved"):
        if conversion not in ("improved", "classic"):
            raise ValueError(f"conversion: must be 'improved' or 'classic', got {conversion!r}")
        self._conversion = conversion
        self._parts = []

    def compose(self, event, count=1):
        q, sigma = _sampled_gaussian(event)
        self._parts.append((q, sigma, _count(count)))
        return self

    def supports(self, event):
        try:
            _sampled_gaussian(event)
        except (TypeError, ValueError):
            return False
        return True

    def get_epsilon_bounds(self, target_delta):
        delta = _num(target_delta, "delta")
        if not self._parts:  # nothing composed: epsilon 0, as dp_accounting answers
            return (0.0, 0.0)
        lo, hi, _ = _dpfl.accounting.rdp_epsilon(self._parts, delta, self._conversion)
        return (lo, hi)

    def get_epsilon(self, target_delta):
        return self.get_epsilon_bounds(target_delta)[1]


class OpacusAccountant:
    """Opacus' accountant interface (``step``, ``get_epsilon``, ``__len__``, ``mechanism``,
    ``state_dict``/``load_state_dict``, ``get_optimizer_hook_fn``) over dpfl's PLD accountant:
    ``engine.accountant = dpfl.accounting.OpacusAccountant()``. ``get_epsilon`` returns the upper
    end of the enclosure, a guarantee (Opacus' own accountants return point estimates)."""

    def __init__(self, relative_width="1/500"):
        self.history = []  # [(noise_multiplier, sample_rate, steps)], as Opacus' accountants keep it
        self._relative_width = relative_width

    def step(self, *, noise_multiplier, sample_rate):
        noise_multiplier, sample_rate = _opacus_step(noise_multiplier, sample_rate)
        if self.history and self.history[-1][0] == noise_multiplier and self.history[-1][1] == sample_rate:
            n, q, s = self.history.pop()
            self.history.append((n, q, s + 1))
        else:
            self.history.append((noise_multiplier, sample_rate, 1))

    def get_epsilon(self, delta, **kwargs):
        if not self.history:
            return 0.0
        acc = PLDAccountant(self._relative_width)
        for sigma, q, steps in self.history:
            event = GaussianEvent(sigma) if q == 1 else PoissonSampledEvent(q, GaussianEvent(sigma))
            acc.compose(event, steps)
        return acc.get_epsilon(delta)

    def __len__(self):
        return sum(s for _, _, s in self.history)

    @classmethod
    def mechanism(cls):
        return "dpfl-pld"

    def state_dict(self, destination=None):
        d = {} if destination is None else destination
        d["history"] = list(self.history)
        d["mechanism"] = self.mechanism()
        return d

    def load_state_dict(self, state_dict):
        if not isinstance(state_dict, dict) or "history" not in state_dict:
            raise ValueError("state_dict: expected a dict with a 'history' list (from OpacusAccountant.state_dict)")
        if state_dict.get("mechanism", self.mechanism()) != self.mechanism():
            raise ValueError(f"state_dict of another accountant: {state_dict.get('mechanism')!r}")
        history = []
        for h in state_dict["history"]:
            if not isinstance(h, (tuple, list)) or len(h) != 3:
                raise ValueError(f"state_dict: history entries are (noise_multiplier, sample_rate, steps), got {h!r}")
            sigma, q = _opacus_step(h[0], h[1])
            history.append((sigma, q, _count(h[2])))
        if sum(s for _, _, s in history) > 10 ** 9:
            raise ValueError("state_dict: more than 1e9 steps in all")
        self.history = history

    def get_optimizer_hook_fn(self, sample_rate):
        """The hook Opacus' PrivacyEngine attaches to the DP optimizer: one step per optimizer step."""
        def hook(optim):
            self.step(noise_multiplier=optim.noise_multiplier,
                      sample_rate=sample_rate * getattr(optim, "accumulated_iterations", 1))
        return hook


def _opacus_step(noise_multiplier, sample_rate):
    """(sigma, q) as floats: sigma > 0 and q in (0, 1], real numbers (numpy scalars included)."""
    out = []
    for name, v in (("noise_multiplier", noise_multiplier), ("sample_rate", sample_rate)):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"{name}: expected a real number, got {type(v).__name__}")
        out.append(float(v))
    sigma, q = out
    if not sigma > 0 or sigma == float("inf"):
        raise ValueError(f"noise_multiplier: must be a positive finite number, got {noise_multiplier!r}")
    if not 0 < q <= 1:
        raise ValueError(f"sample_rate: must be in (0, 1], got {sample_rate!r}")
    return sigma, q
