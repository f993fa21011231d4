// Seed 003 §7.3 exact properties of the quantized Gaussian mechanism, checked with RapidCheck on
// rigorous enclosures (a property fails only when the enclosures certainly violate it):
//  * D_α non-decreasing in the order (Lemma 1): KL ≤ D_α1 ≤ D_α2 ≤ D_∞ for 1 < α1 < α2;
//  * data processing against the Gaussian: D_α ≤ α (x − x')²/(2σ²), in particular the worst case
//    ε(α) ≤ α C²/(2σ²), and KL(k levels) < C²/(2σ²) strictly (computed here from the formula);
//  * the pmf sums to 1 and is mirror symmetric; nested grids (k − 1) | (k' − 1) give D^(k) ≤ D^(k').
// Plus seed 002: the capped (16) never exceeds the uncapped one nor p_s; ε(ε̃(ε)) = ε.
// Inputs: σ/C ∈ [1/5, 3], C ∈ {1/2, 1, 3}, k ≤ 33, rational orders in (1, 20].
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <utility>
#include <vector>

#include "dpfl/ref/cepam.hpp"
#include "dpfl/ref/quantized_gaussian.hpp"

namespace dpfl::ref {
namespace {

constexpr int kBits = 64;

struct Setting {
  QuantizedGaussianParams p;
  Rational x, xp;
};

// σ = C·a/b with a/b ∈ [1/5, 3]; x, x' ∈ [−C/2, C/2] on a 1/16 grid of the half-range.
rc::Gen<Setting> GenSetting(long k_max = 33) {
  return rc::gen::exec([k_max] {
    const Rational clip = *rc::gen::element(Rational(1, 2), Rational(1), Rational(3));
    const long num = *rc::gen::inRange(4L, 61L);  // ratio num/20 ∈ [1/5, 3]
    const long k = *rc::gen::inRange(2L, k_max + 1);
    const long i = *rc::gen::inRange(-8L, 9L), j = *rc::gen::inRange(-8L, 9L);
    return Setting{{clip * Rational(num, 20), k, clip}, clip * Rational(i, 16), clip * Rational(j, 16)};
  });
}

rc::Gen<Rational> GenOrder() {
  return rc::gen::map(rc::gen::inRange(1L, 191L), [](long n) { return Rational(1) + Rational(n, 10); });
}

Rational Hi(const Enclosure& e) { return ToInterval(e).hi(); }
Rational Lo(const Enclosure& e) { return ToInterval(e).lo(); }

RC_GTEST_PROP(QuantizedGaussianProp, RdpNonDecreasingInTheOrder, ()) {
  const Setting s = *GenSetting();
  Rational a1 = *GenOrder(), a2 = *GenOrder();
  if (a2 < a1) std::swap(a1, a2);
  const Enclosure kl = QuantizedGaussianDivergence(s.p, s.x, s.xp, RenyiOrder::Kl(), kBits);
  const Enclosure d1 = QuantizedGaussianDivergence(s.p, s.x, s.xp, RenyiOrder::Finite(a1), kBits);
  const Enclosure d2 = QuantizedGaussianDivergence(s.p, s.x, s.xp, RenyiOrder::Finite(a2), kBits);
  const Enclosure dinf = QuantizedGaussianDivergence(s.p, s.x, s.xp, RenyiOrder::Infinity(), kBits);
  RC_ASSERT(Lo(kl) <= Hi(d1));
  RC_ASSERT(Lo(d1) <= Hi(d2));
  RC_ASSERT(Lo(d2) <= Hi(dinf));
  RC_ASSERT(Hi(kl) >= 0);
}

RC_GTEST_PROP(QuantizedGaussianProp, RdpBelowGaussianRdp, ()) {
  const Setting s = *GenSetting();
  const Rational a = *GenOrder();
  // Gaussian RDP at the same pair: α (x − x')²/(2σ²), exact.
  const Rational dx = s.x - s.xp;
  const Rational gauss = a * dx * dx / (2 * s.p.sigma * s.p.sigma);
  RC_ASSERT(Lo(QuantizedGaussianDivergence(s.p, s.x, s.xp, RenyiOrder::Finite(a), kBits)) <= gauss);
  // Worst case per coordinate vs α C²/(2σ²): strict (quantization loses information).
  const Rational worst = *GaussianRdpExact(s.p.sigma, s.p.clip, RenyiOrder::Finite(a));
  RC_ASSERT(Hi(QuantizedGaussianRdp(s.p, RenyiOrder::Finite(a), kBits)) < worst);
}

RC_GTEST_PROP(QuantizedGaussianProp, KlBelowGaussianKl, ()) {
  const Setting s = *GenSetting();
  const Rational gauss_kl = s.p.clip * s.p.clip / (2 * s.p.sigma * s.p.sigma);
  RC_ASSERT(Hi(QuantizedGaussianRdp(s.p, RenyiOrder::Kl(), kBits)) < gauss_kl);
}

RC_GTEST_PROP(QuantizedGaussianProp, PmfSumsToOneAndIsMirrorSymmetric, ()) {
  const Setting s = *GenSetting();
  const std::vector<Enclosure> p = QuantizedGaussianPmf(s.p, s.x, kBits);
  const std::vector<Enclosure> m = QuantizedGaussianPmf(s.p, Rational(-s.x), kBits);
  Enclosure total(kBits, 0L);
  for (size_t r = 0; r < p.size(); ++r) {
    RC_ASSERT(Lo(p[r]) > 0);
    total += p[r];
    const Interval diff = ToInterval(p[r] - m[p.size() - 1 - r]);
    RC_ASSERT(diff.lo() <= 0 && diff.hi() >= 0);
  }
  RC_ASSERT(ToInterval(total).Contains(Rational(1)));
}

RC_GTEST_PROP(QuantizedGaussianProp, NestedGridsAreMonotone, ()) {
  // (k − 1) | (k' − 1): the coarse grid is a post-processing of the fine one (spec §7.3 item 8).
  const Setting s = *GenSetting(9);
  const long factor = *rc::gen::inRange(2L, 4L);
  QuantizedGaussianParams fine = s.p;
  fine.levels = (s.p.levels - 1) * factor + 1;
  const RenyiOrder order = *rc::gen::element(RenyiOrder::Kl(), RenyiOrder::Finite(2), RenyiOrder::Infinity());
  const Enclosure coarse_d = QuantizedGaussianDivergence(s.p, s.x, s.xp, order, kBits);
  const Enclosure fine_d = QuantizedGaussianDivergence(fine, s.x, s.xp, order, kBits);
  RC_ASSERT(Lo(coarse_d) <= Hi(fine_d));
}

RC_GTEST_PROP(CepamProp, CappedBoundIsTighterAndRoundTrip, ()) {
  const long n_k = *rc::gen::inRange(50L, 3000L);
  const long tau = *rc::gen::inRange(1L, 16L);
  const Rational sigma = Rational(*rc::gen::inRange(1L, 400L), 100);
  const Rational eps_tilde = Rational(*rc::gen::inRange(1L, 100L), 10);
  const Thm12Result r = Theorem12({sigma, eps_tilde, tau, 30, Rational(1), n_k}, Thm12Variant::kAsPrinted, kBits);
  RC_ASSERT(Lo(r.delta_capped) <= Hi(r.delta));
  RC_ASSERT(Lo(r.delta_capped) <= r.p_s);
  const Enclosure back = BaseEpsilon(ToInterval(r.epsilon).Mid(), r.p_s, kBits);
  RC_ASSERT(ToInterval(back - eps_tilde).lo() <= Pow2(-40));
  RC_ASSERT(ToInterval(back - eps_tilde).hi() >= -Pow2(-40));
}

}  // namespace
}  // namespace dpfl::ref
