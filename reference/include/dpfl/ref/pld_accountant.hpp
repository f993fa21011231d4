// dpfl::ref::pld — a privacy accountant shaped like the ones users know (dp_accounting's
// PLDAccountant, Opacus' accountants): describe what was released as events, compose them, ask for
// ε(δ) or δ(ε). Unlike a point estimate, every answer is an enclosure lo ≤ true ≤ hi (pld.hpp), and
// GetEpsilon/GetDelta return its upper end — the value that is a guarantee.
//
//   pld::PldAccountant acc;                                   // relative width 0.2 %, connect-the-dots
//   acc.Compose(pld::DpEvent::PoissonSampled(q, pld::DpEvent::Gaussian(sigma)), steps);
//   pld::EpsilonBounds e = acc.GetEpsilonBounds(delta);      // [lo, hi]
//
// Events and their pairs (pld_mechanisms.hpp has the formulas and adjacencies):
//  * Gaussian(σ, Δ), Laplace(b, Δ): the continuous mechanisms, add/remove with sensitivity Δ;
//  * DiscreteGaussian(σ², N), DiscreteLaplace(t, N): dpfl's integer baselines, shift N;
//  * RandomizedResponse(p): keep probability p ∈ (1/2, 1), replace-one;
//  * PoissonSampled(q, e): e a Gaussian or Laplace event, add/remove with Poisson sampling at rate q;
//  * SelfComposed(e, k), Composed({e1, e2, …}): composition (adaptive composition is covered: every
//    pair is a dominating pair).
// Composing events of different adjacencies is the caller's responsibility (as in dp_accounting).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dpfl/ref/pld_mechanisms.hpp"

namespace dpfl::ref::pld {

class DpEvent {
 public:
  enum class Kind { kGaussian, kLaplace, kDiscreteGaussian, kDiscreteLaplace, kRandomizedResponse, kPoissonSampled,
                    kSelfComposed, kComposed };
  // Names "sigma", "sensitivity", "b", "sigma2", "t", "shift", "p", "q", "count", "events" (bad
  // values, or an event kind Poisson sampling does not support).
  static DpEvent Gaussian(const Rational& sigma, const Rational& sensitivity = 1);
  static DpEvent Laplace(const Rational& b, const Rational& sensitivity = 1);
  static DpEvent DiscreteGaussian(const Rational& sigma2, long shift = 1);
  static DpEvent DiscreteLaplace(const Rational& t, long shift = 1);
  static DpEvent RandomizedResponse(const Rational& p);
  static DpEvent PoissonSampled(const Rational& q, const DpEvent& event);
  static DpEvent SelfComposed(const DpEvent& event, std::uint64_t count);
  static DpEvent Composed(std::vector<DpEvent> events);

  Kind kind() const { return kind_; }
  // The number of single mechanisms the event composes (for the step rule and for display).
  std::uint64_t Steps() const;
  std::string Describe() const;
  // The event's PLD pair on a grid (self-compositions and compositions done on that grid).
  PldPair Build(const GridOptions& grid, const ComposeOptions& compose = {}) const;

 private:
  DpEvent() = default;
  Kind kind_ = Kind::kGaussian;
  Rational a_, b_;             // σ/b/σ²/t/p/q and the sensitivity
  long shift_ = 1;
  std::uint64_t count_ = 1;
  std::vector<DpEvent> parts_;  // the inner event(s)
};

struct AccountantOptions {
  Rational relative_width = Rational(1, 500);  // target (hi − lo)/hi of every answer
  Discretization discretization = Discretization::kConnectDots;
  int max_passes = 6;
};

class PldAccountant {
 public:
  explicit PldAccountant(AccountantOptions options = {});
  // Adds `count` (≥ 1) independent runs of the event. Names "count".
  PldAccountant& Compose(const DpEvent& event, std::uint64_t count = 1);
  // Both ends of the enclosure of ε(δ) (an empty end is +∞); names "delta" (∉ (0, 1)).
  EpsilonBounds GetEpsilonBounds(const Rational& delta) const;
  // The upper end: ε such that the composition is (ε, δ)-DP. Empty when that is +∞.
  std::optional<Rational> GetEpsilon(const Rational& delta) const;
  // Both ends of δ(ε); names "epsilon" (< 0).
  DeltaBounds GetDeltaBounds(const Rational& epsilon) const;
  Rational GetDelta(const Rational& epsilon) const;  // the upper end
  // What has been composed (one event per Compose call, with its count).
  const std::vector<DpEvent>& events() const { return events_; }

 private:
  AccountOptions Options() const;
  PldPair Build(const GridOptions& grid) const;
  AccountantOptions options_;
  std::vector<DpEvent> events_;
};

// The noise for a target: a bracket [lo, hi] of σ for the Gaussian mechanism of sensitivity 1 with
// noise σ, Poisson-sampled at rate q (q = 1: not sampled), composed `steps` times: at σ = hi it is
// (ε, δ)-DP (the enclosure's upper end ≤ ε, proven) and at σ = lo it is not (the lower end > ε,
// proven); ε decreases in σ, so the least σ that meets the target lies in [lo, hi]. Bisection on
// log σ until (hi − lo)/hi ≤ `tolerance`, or until ε itself falls inside the enclosure at the
// midpoint also at a tenth of the accountant's width (which then limits the bracket: `undecided`). Names "epsilon"
// (≤ 0), "delta" (∉ (0, 1)), "q" (∉ (0, 1]), "steps" (0), "tolerance" (∉ (0, 1)).
struct SigmaBracket {
  Rational lo, hi;
  int evaluations = 0;
  bool undecided = false;
};
SigmaBracket CalibrateGaussianSigma(const Rational& epsilon, const Rational& delta, std::uint64_t steps,
                                    const Rational& q = 1, const Rational& tolerance = Rational(1, 100),
                                    const AccountantOptions& options = {});

}  // namespace dpfl::ref::pld
