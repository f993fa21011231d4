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
           "PLDAccountant"]


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
