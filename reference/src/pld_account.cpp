// dpfl::ref::pld — the accountant loop: the grid step chosen pass by pass for a target enclosure
// width, and the switch to long double FFTs (pld_mechanisms.hpp, EpsilonOfComposition /
// DeltaOfComposition).
#include <algorithm>
#include <cmath>

#include "dpfl/format.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"

namespace dpfl::ref::pld {

// ---- accountant ----------------------------------------------------------------------------
namespace {

// x rounded down to 12 significant bits, as an exact dyadic rational (x > 0).
Rational RoundStep(double x) {
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m·2^e, m ∈ [0.5, 1)
  const double mant = std::floor(m * 4096.0);
  return Rational(static_cast<long>(mant)) * Pow2(e - 12);
}

// What a pass reports for the next step choice: scale ≤ 0 when done (target met, nothing to
// refine, or the pass did not narrow the enclosure: then the error floor, not the grid, limits it).
struct Refine {
  double scale = 0, width = 1;
  bool settled = false;  // the target is met, or no step can change the answer (ε = +∞ for sure)
  double delta = 0;      // the δ the query is about (for the FFT-precision switch in Run)
};

// Every pass's enclosure is valid, so their intersection is too.
EpsilonBounds Intersect(const EpsilonBounds& a, const EpsilonBounds& b) {
  EpsilonBounds out;
  if (a.lo && b.lo) out.lo = Max(*a.lo, *b.lo);  // an empty lo is +∞, the larger
  if (a.hi && b.hi) out.hi = Min(*a.hi, *b.hi);
  else if (a.hi) out.hi = a.hi;
  else if (b.hi) out.hi = b.hi;
  if (out.lo && out.hi && *out.lo > *out.hi) out.lo = out.hi;
  return out;
}

template <class Query>
AccountResult Run(const std::function<PldPair(const GridOptions&)>& build, std::uint64_t k,
                  const AccountOptions& o, const Query& query) {
  if (k < 1) throw InvalidArgument("compositions", "must be >= 1");
  if (!(o.relative_width > 0 && o.relative_width < 1))
    throw InvalidArgument("relative-width", "must be in (0, 1), got " + EchoValue(o.relative_width));
  AccountResult r;
  // The FFT's error bound goes to +∞ on the upper side and adds up over compositions (~K·1e-12 in
  // double). When a pass's +∞ mass exceeds a hundredth of the δ in question and the target is not
  // met, the next passes compose in long double with tails of 1e-21 (ComposeOptions::extended_fft).
  ComposeOptions compose = o.compose;
  bool switched = false;
  auto pass = [&](const Rational& step) {
    GridOptions g{step, o.tail, o.prec, o.discretization, compose};
    PldPair composed = SelfCompose(build(g), k, compose);
    if (o.remainder) composed = Compose(composed, o.remainder(g), compose);
    r.step = step;
    r.grid_points = composed.forward.upper.mass.size();
    ++r.passes;
    Refine next = query(composed, r);
    const double infinity = std::max(composed.forward.upper.infinity,
                                     composed.backward ? composed.backward->upper.infinity : 0.0);
    switched = false;
    if (!compose.extended_fft && !next.settled && infinity > 1e-2 * next.delta) {
      compose.extended_fft = true;
      compose.tail = std::min(compose.tail, 1e-21);
      switched = true;
      if (o.progress)
        o.progress("the upper side's mass at +inf (" + ShortestDouble(infinity) +
                   ", mostly the FFT's error bound) is over 1e-2 of delta: composing in long double from here");
    }
    if (o.progress) {
      const auto end = [](const std::optional<Rational>& e) { return e ? ShortestDouble(e->convert_to<double>()) : std::string("inf"); };
      const std::string bounds = r.epsilon.lo || r.epsilon.hi
                                     ? "epsilon in [" + end(r.epsilon.lo) + ", " + end(r.epsilon.hi) + "]"
                                     : "delta in [" + ShortestDouble(r.delta.lo.convert_to<double>()) + ", " +
                                           ShortestDouble(r.delta.hi.convert_to<double>()) + "]";
      o.progress("pass " + std::to_string(r.passes) + ": grid step " + ShortestDouble(step.convert_to<double>()) + ", " +
                 std::to_string(r.grid_points) + " points, " + bounds);
    }
    return next;
  };
  if (o.step) {
    pass(*o.step);
    if (switched) pass(*o.step);
    return r;
  }
  // Geometric refinement: each pass aims at a tenth of the previous relative width (never below
  // the target), from the scale the previous pass reports (its ε lower end), so the last pass,
  // the expensive one, is chosen from a good estimate.
  Rational step(1, 64);
  Refine next = pass(step);
  double prev_h = 0, prev_width = 0;  // the pass before, for the measured order of the width
  for (int i = 1; i < o.max_passes && (next.scale > 0 || switched); ++i) {
    if (switched && !(next.scale > 0)) {  // the error floor stopped it: the same step, precisely
      next = pass(step);
      continue;
    }
    const double w = o.relative_width.convert_to<double>();
    const double aim = 0.9 * std::max(w, next.width / 10);
    const double roundings = static_cast<double>(o.step_compositions > 0 ? o.step_compositions : k);
    const double h_now = step.convert_to<double>();
    Rational h;
    if (o.discretization == Discretization::kConnectDots) {
      double order = 1.5;
      if (prev_h > 0 && prev_width > next.width && next.width > 0)
        order = std::clamp(std::log(prev_width / next.width) / std::log(prev_h / h_now), 1.0, 2.0);
      h = RoundStep(std::max(h_now * std::pow(aim / next.width, 1 / order), 1e-9));
    } else {
      h = RoundStep(std::max(aim * next.scale / roundings, 1e-9));
    }
    if (h >= step) h = step / 2;
    prev_h = h_now;
    prev_width = next.width;
    step = h;
    next = pass(step);
  }
  return r;
}

}  // namespace

AccountResult EpsilonOfComposition(const std::function<PldPair(const GridOptions&)>& build, std::uint64_t compositions,
                                   const Rational& delta, const AccountOptions& options) {
  return Run(build, compositions, options, [&](const PldPair& pld, AccountResult& r) -> Refine {
    const EpsilonBounds fresh = EpsilonForDelta(pld, delta, options.prec);
    const std::optional<Rational> before =
        r.passes > 1 && r.epsilon.hi && r.epsilon.lo ? std::optional<Rational>(*r.epsilon.hi - *r.epsilon.lo) : std::nullopt;
    r.epsilon = r.passes > 1 ? Intersect(r.epsilon, fresh) : fresh;
    const double d = delta.convert_to<double>();
    if (!r.epsilon.hi) {
      // +∞ above, +∞ below too: the pair's own atom at +∞ exceeds δ (nothing to refine). A finite
      // lower end: the grid's error (mass pushed off the top) may be what made it +∞, so refine.
      // At most two such refinements: a guarantee that stays +∞ is printed as +∞.
      if (!r.epsilon.lo) return {0, 1, true, d};
      if (r.passes >= 3) return {0, 1, false, d};
      return {*r.epsilon.lo > 0 ? r.epsilon.lo->convert_to<double>() : 1.0, 1.0, false, d};
    }
    const Rational hi = *r.epsilon.hi, lo = r.epsilon.lo ? *r.epsilon.lo : Rational(0);
    if (hi == 0 || hi - lo <= options.relative_width * hi) return {0, 1, true, d};
    if (before && hi - lo >= *before * Rational(9, 10)) return {0, 1, false, d};  // no longer narrowing
    const double width = Rational((hi - lo) / hi).convert_to<double>();
    return {lo > 0 ? lo.convert_to<double>() : hi.convert_to<double>() / 4, width, false, d};
  });
}

AccountResult DeltaOfComposition(const std::function<PldPair(const GridOptions&)>& build, std::uint64_t compositions,
                                 const Rational& epsilon, const AccountOptions& options) {
  const double eps = epsilon.convert_to<double>();
  return Run(build, compositions, options, [&](const PldPair& pld, AccountResult& r) -> Refine {
    const DeltaBounds fresh = DeltaForEpsilon(pld, epsilon, options.prec);
    const Rational before = r.delta.hi - r.delta.lo;
    if (r.passes > 1) {
      r.delta.lo = Max(r.delta.lo, fresh.lo);
      r.delta.hi = Min(r.delta.hi, fresh.hi);
      if (r.delta.lo > r.delta.hi) r.delta.lo = r.delta.hi;
    } else {
      r.delta = fresh;
    }
    const double d = r.delta.hi.convert_to<double>();
    if (r.delta.hi == 0 || r.delta.hi - r.delta.lo <= options.relative_width * r.delta.hi) return {0, 1, true, d};
    if (r.passes > 1 && r.delta.hi - r.delta.lo >= before * Rational(9, 10)) return {0, 1, false, d};
    return {eps > 0 ? eps : 1.0, Rational((r.delta.hi - r.delta.lo) / r.delta.hi).convert_to<double>(), false, d};
  });
}

}  // namespace dpfl::ref::pld
