// dpfl::ref::pld — the event accountant (pld_accountant.hpp).
#include "dpfl/ref/pld_accountant.hpp"

#include <cmath>
#include <cstdint>

#include "dpfl/validate.hpp"

namespace dpfl::ref::pld {

DpEvent DpEvent::Gaussian(const Rational& sigma, const Rational& sensitivity) {
  ValidatePositive(sigma, "sigma");
  ValidatePositive(sensitivity, "sensitivity");
  DpEvent e;
  e.kind_ = Kind::kGaussian;
  e.a_ = sigma;
  e.b_ = sensitivity;
  return e;
}

DpEvent DpEvent::Laplace(const Rational& b, const Rational& sensitivity) {
  ValidatePositive(b, "b");
  ValidatePositive(sensitivity, "sensitivity");
  DpEvent e;
  e.kind_ = Kind::kLaplace;
  e.a_ = b;
  e.b_ = sensitivity;
  return e;
}

DpEvent DpEvent::DiscreteGaussian(const Rational& sigma2, long shift) {
  ValidatePositive(sigma2, "sigma2");
  if (shift < 1) throw InvalidArgument("shift", "must be an integer >= 1, got " + std::to_string(shift));
  DpEvent e;
  e.kind_ = Kind::kDiscreteGaussian;
  e.a_ = sigma2;
  e.shift_ = shift;
  return e;
}

DpEvent DpEvent::DiscreteLaplace(const Rational& t, long shift) {
  ValidatePositive(t, "t");
  if (shift < 1) throw InvalidArgument("shift", "must be an integer >= 1, got " + std::to_string(shift));
  DpEvent e;
  e.kind_ = Kind::kDiscreteLaplace;
  e.a_ = t;
  e.shift_ = shift;
  return e;
}

DpEvent DpEvent::RandomizedResponse(const Rational& p) {
  if (!(p > Rational(1, 2) && p < 1))
    throw InvalidArgument("p", "the keep probability must be in (1/2, 1), got " + EchoValue(p));
  DpEvent e;
  e.kind_ = Kind::kRandomizedResponse;
  e.a_ = p;
  return e;
}

DpEvent DpEvent::PoissonSampled(const Rational& q, const DpEvent& event) {
  Require("q", q, Domain::OpenClosed(0, 1), EchoValue);
  if (event.kind_ != Kind::kGaussian && event.kind_ != Kind::kLaplace)
    throw InvalidArgument("q", "Poisson sampling is supported for Gaussian and Laplace events, not " + event.Describe());
  DpEvent e;
  e.kind_ = Kind::kPoissonSampled;
  e.a_ = q;
  e.parts_ = {event};
  return e;
}

DpEvent DpEvent::SelfComposed(const DpEvent& event, std::uint64_t count) {
  if (count < 1) throw InvalidArgument("count", "must be >= 1");
  DpEvent e;
  e.kind_ = Kind::kSelfComposed;
  e.count_ = count;
  e.parts_ = {event};
  return e;
}

DpEvent DpEvent::Composed(std::vector<DpEvent> events) {
  if (events.empty()) throw InvalidArgument("events", "a composition needs at least one event");
  DpEvent e;
  e.kind_ = Kind::kComposed;
  e.parts_ = std::move(events);
  return e;
}

std::uint64_t DpEvent::Steps() const {
  switch (kind_) {
    case Kind::kSelfComposed: {  // saturating at 2^64 − 1 (nested counts multiply)
      const std::uint64_t inner = parts_[0].Steps();
      return inner > UINT64_MAX / count_ ? UINT64_MAX : count_ * inner;
    }
    case Kind::kComposed: {
      std::uint64_t n = 0;
      for (const DpEvent& e : parts_) {
        const std::uint64_t k = e.Steps();
        n = k > UINT64_MAX - n ? UINT64_MAX : n + k;
      }
      return n;
    }
    default:
      return 1;
  }
}

std::string DpEvent::Describe() const {
  switch (kind_) {
    case Kind::kGaussian:
      return "Gaussian(sigma=" + EchoValue(a_) + ", sensitivity=" + EchoValue(b_) + ")";
    case Kind::kLaplace:
      return "Laplace(b=" + EchoValue(a_) + ", sensitivity=" + EchoValue(b_) + ")";
    case Kind::kDiscreteGaussian:
      return "DiscreteGaussian(sigma2=" + EchoValue(a_) + ", shift=" + std::to_string(shift_) + ")";
    case Kind::kDiscreteLaplace:
      return "DiscreteLaplace(t=" + EchoValue(a_) + ", shift=" + std::to_string(shift_) + ")";
    case Kind::kRandomizedResponse:
      return "RandomizedResponse(p=" + EchoValue(a_) + ")";
    case Kind::kPoissonSampled:
      return "PoissonSampled(q=" + EchoValue(a_) + ", " + parts_[0].Describe() + ")";
    case Kind::kSelfComposed:
      return "SelfComposed(" + parts_[0].Describe() + ", " + std::to_string(count_) + ")";
    case Kind::kComposed: {
      std::string s = "Composed(";
      for (std::size_t i = 0; i < parts_.size(); ++i) s += (i ? ", " : "") + parts_[i].Describe();
      return s + ")";
    }
  }
  return "?";
}

PldPair DpEvent::Build(const GridOptions& grid, const ComposeOptions& compose) const {
  switch (kind_) {
    case Kind::kGaussian:
      return GaussianPld(a_, b_, grid);
    case Kind::kLaplace:
      return LaplacePld(a_, b_, grid);
    case Kind::kDiscreteGaussian:
      return DiscreteGaussianPld(a_, shift_, grid);
    case Kind::kDiscreteLaplace:
      return DiscreteLaplacePld(a_, shift_, grid);
    case Kind::kRandomizedResponse:
      return RandomizedResponsePld(a_, grid);
    case Kind::kPoissonSampled: {
      const DpEvent& inner = parts_[0];
      if (inner.kind_ == Kind::kGaussian) return SubsampledGaussianPld(inner.a_, inner.b_, a_, grid);
      return SubsampledLaplacePld(inner.a_, inner.b_, a_, grid);
    }
    case Kind::kSelfComposed:
      return SelfCompose(parts_[0].Build(grid, compose), count_, compose);
    case Kind::kComposed: {
      PldPair out = parts_[0].Build(grid, compose);
      for (std::size_t i = 1; i < parts_.size(); ++i) out = Compose(out, parts_[i].Build(grid, compose), compose);
      return out;
    }
  }
  throw InvalidArgument("events", "unknown event kind");
}

PldAccountant::PldAccountant(AccountantOptions options) : options_(std::move(options)) {
  if (!(options_.relative_width > 0 && options_.relative_width < 1))
    throw InvalidArgument("relative-width", "must be in (0, 1), got " + EchoValue(options_.relative_width));
}

PldAccountant& PldAccountant::Compose(const DpEvent& event, std::uint64_t count) {
  if (count < 1) throw InvalidArgument("count", "must be >= 1");
  events_.push_back(count == 1 ? event : DpEvent::SelfComposed(event, count));
  return *this;
}

AccountOptions PldAccountant::Options() const {
  AccountOptions o;
  o.relative_width = options_.relative_width;
  o.discretization = options_.discretization;
  o.max_passes = options_.max_passes;
  std::uint64_t steps = 0;
  for (const DpEvent& e : events_) steps += e.Steps();
  o.step_compositions = steps;
  return o;
}

PldPair PldAccountant::Build(const GridOptions& grid) const {
  if (events_.empty()) {
    PldPair identity;
    identity.forward = IdentityPld(grid.step);
    return identity;
  }
  return DpEvent::Composed(events_).Build(grid, grid.compose);
}

EpsilonBounds PldAccountant::GetEpsilonBounds(const Rational& delta) const {
  return EpsilonOfComposition([this](const GridOptions& g) { return Build(g); }, 1, delta, Options()).epsilon;
}

std::optional<Rational> PldAccountant::GetEpsilon(const Rational& delta) const { return GetEpsilonBounds(delta).hi; }

DeltaBounds PldAccountant::GetDeltaBounds(const Rational& epsilon) const {
  return DeltaOfComposition([this](const GridOptions& g) { return Build(g); }, 1, epsilon, Options()).delta;
}

Rational PldAccountant::GetDelta(const Rational& epsilon) const { return GetDeltaBounds(epsilon).hi; }

SigmaBracket CalibrateGaussianSigma(const Rational& epsilon, const Rational& delta, std::uint64_t steps,
                                    const Rational& q, const Rational& tolerance, const AccountantOptions& options) {
  ValidatePositive(epsilon, "epsilon");
  if (!(delta > 0 && delta < 1)) throw InvalidArgument("delta", "must be in (0, 1), got " + EchoValue(delta));
  Require("q", q, Domain::OpenClosed(0, 1), EchoValue);
  if (steps < 1) throw InvalidArgument("steps", "must be >= 1");
  if (!(tolerance > 0 && tolerance < 1))
    throw InvalidArgument("tolerance", "must be in (0, 1), got " + EchoValue(tolerance));
  SigmaBracket out;
  // -1: certainly above the target at σ (not (ε, δ)-DP), +1: certainly meets it, 0: undecided.
  // An undecided σ is asked once more at a tenth of the width.
  auto verdict = [&](const Rational& sigma) {
    AccountantOptions o = options;
    for (int attempt = 0; attempt < 2; ++attempt, o.relative_width /= 10) {
      ++out.evaluations;
      PldAccountant acc(o);
      const DpEvent g = DpEvent::Gaussian(sigma);
      acc.Compose(q == 1 ? g : DpEvent::PoissonSampled(q, g), steps);
      const EpsilonBounds e = acc.GetEpsilonBounds(delta);
      if (e.hi && *e.hi <= epsilon) return 1;
      if (!e.lo || *e.lo > epsilon) return -1;
    }
    return 0;
  };
  // Bracket: σ = 1, then doubling until a σ meets the target and halving until one fails (a σ
  // where the verdict is undecided moves neither end; at most 60 steps each way).
  Rational lo, hi;
  bool have_lo = false, have_hi = false;
  const int v = verdict(Rational(1));
  if (v > 0) {
    hi = 1;
    have_hi = true;
  } else if (v < 0) {
    lo = 1;
    have_lo = true;
  }
  Rational c = have_lo ? lo : Rational(1);
  for (int i = 0; !have_hi && i < 60; ++i) {
    c *= 2;
    const int w = verdict(c);
    if (w > 0) {
      hi = c;
      have_hi = true;
    } else if (w < 0) {
      lo = c;
      have_lo = true;
    }
  }
  if (!have_hi) throw InvalidArgument("epsilon", "no sigma up to 2^60 meets the target");
  c = hi;
  for (int i = 0; !have_lo && i < 60; ++i) {
    c /= 2;
    const int w = verdict(c);
    if (w < 0) {
      lo = c;
      have_lo = true;
    } else if (w > 0) {
      hi = c;
    }
  }
  if (!have_lo) throw InvalidArgument("epsilon", "every sigma down to 2^-60 meets the target (or none is decided)");
  // Bisection on the geometric scale; the midpoint rounded to 17 significant bits (a short dyadic).
  while ((hi - lo) > tolerance * hi) {
    const double m = std::sqrt(lo.convert_to<double>() * hi.convert_to<double>());
    const int e2 = std::ilogb(m) - 16;
    Rational mid(std::ldexp(std::round(std::ldexp(m, -e2)), e2));
    if (!(mid > lo && mid < hi)) mid = (lo + hi) / 2;
    const int w = verdict(mid);
    if (w > 0) {
      hi = mid;
    } else if (w < 0) {
      lo = mid;
    } else {
      out.undecided = true;
      break;
    }
  }
  out.lo = lo;
  out.hi = hi;
  return out;
}

}  // namespace dpfl::ref::pld
