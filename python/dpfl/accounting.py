"""dpfl.accounting — events and a PLD accountant shaped like dp_accounting's, with enclosures.

    acc = dpfl.accounting.PLDAccountant()
    acc.compose(PoissonSampledEvent(0.01, GaussianEvent(1.1)), 1000)
    acc.get_epsilon(1e-5)             # the upper end of the enclosure: a guarantee
    acc.get_epsilon_bounds(1e-5)      # (lo, hi), lo <= true epsilon <= hi

Numbers may be floats (read as the decimal repr(x), like the CLI reads its flags), ints or
decimal/fraction strings ("1/3"), all exact. Adjacency and composition rules are those of
dpfl::ref::pld (reference/include/dpfl/ref/pld_accountant.hpp, docs/accounting.md).
"""
from dataclasses import dataclass
from typing import Sequence

from . import _dpfl

__all__ = ["GaussianEvent", "LaplaceEvent", "DiscreteGaussianEvent", "DiscreteLaplaceEvent",
           "RandomizedResponseEvent", "PoissonSampledEvent", "SelfComposedEvent", "ComposedEvent",
           "PLDAccountant", "RDPAccountant", "OpacusAccountant"]


def _num(v, name):
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise TypeError(f"{name}: expected a number or a decimal string, got {type(v).__name__}")
    return repr(v) if isinstance(v, float) else str(v)


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
        return ("discrete_gaussian", _square(_num(self.sigma, "sigma")), int(self.sensitivity))


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
        return ("discrete_laplace", _num(self.scale, "scale"), int(self.sensitivity))


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
    if isinstance(c, bool) or not isinstance(c, int) or c < 1:
        raise ValueError(f"count: must be an integer >= 1, got {c!r}")
    return c


class PLDAccountant:
    """dp_accounting's PLDAccountant shape; answers are rigorous enclosures (upper end returned)."""

    def __init__(self, relative_width="1/500"):
        self._acc = _dpfl.accounting.PldAccountant(_num(relative_width, "relative_width"))

    def compose(self, event, count=1):
        self._acc.compose(_event(event), _count(count))
        return self

    def get_epsilon_bounds(self, delta):
        return tuple(self._acc.epsilon_bounds(_num(delta, "delta")))

    def get_epsilon(self, delta):
        return self.get_epsilon_bounds(delta)[1]

    def get_delta_bounds(self, epsilon):
        return tuple(self._acc.delta_bounds(_num(epsilon, "epsilon")))

    def get_delta(self, epsilon):
        return self.get_delta_bounds(epsilon)[1]


def _sampled_gaussian(event):
    """(q, sigma) strings of a GaussianEvent or PoissonSampledEvent(q, GaussianEvent) of sensitivity 1."""
    q = "1"
    if isinstance(event, PoissonSampledEvent):
        q, event = _num(event.sampling_probability, "sampling_probability"), event.event
    if not isinstance(event, GaussianEvent) or _num(event.sensitivity, "sensitivity") not in ("1", "1.0"):
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

    def get_epsilon_bounds(self, delta):
        lo, hi, _ = _dpfl.accounting.rdp_epsilon(self._parts, _num(delta, "delta"), self._conversion)
        return (lo, hi)

    def get_epsilon(self, delta):
        return self.get_epsilon_bounds(delta)[1]


class OpacusAccountant:
    """Opacus' accountant interface (``step``, ``get_epsilon``, ``__len__``, ``mechanism``,
    ``state_dict``/``load_state_dict``, ``get_optimizer_hook_fn``) over dpfl's PLD accountant:
    ``engine.accountant = dpfl.accounting.OpacusAccountant()``. ``get_epsilon`` returns the upper
    end of the enclosure, a guarantee (Opacus' own accountants return point estimates)."""

    def __init__(self, relative_width="1/500"):
        self.history = []  # [(noise_multiplier, sample_rate, steps)], as Opacus' accountants keep it
        self._relative_width = relative_width

    def step(self, *, noise_multiplier, sample_rate):
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
        if state_dict.get("mechanism", self.mechanism()) != self.mechanism():
            raise ValueError(f"state_dict of another accountant: {state_dict.get('mechanism')!r}")
        self.history = [tuple(h) for h in state_dict["history"]]

    def get_optimizer_hook_fn(self, sample_rate):
        """The hook Opacus' PrivacyEngine attaches to the DP optimizer: one step per optimizer step."""
        def hook(optim):
            self.step(noise_multiplier=optim.noise_multiplier,
                      sample_rate=sample_rate * getattr(optim, "accumulated_iterations", 1))
        return hook
