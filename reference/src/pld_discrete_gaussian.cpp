// dpfl::ref::pld — the PLD of the discrete Gaussian mechanism of dpfl's gaussian baseline
// (pld_mechanisms.hpp DiscreteGaussianPld): P = N + Z, Q = Z, Z ~ N_Z(0, σ²) (Canonne, Kamath &
// Steinke 2020), N the grid sensitivity.
//
// The loss at y is log P(y)/Q(y) = (y² − (y − N)²)/(2σ²) = (2yN − N²)/(2σ²), increasing in y, so
// L ≤ s iff y ≤ Y(s) = ⌊(2σ²s + N²)/(2N)⌋ and F(s) = P(Z ≤ Y(s) − N) = P(Z ≥ N − Y(s)) by symmetry:
// one tail of the discrete Gaussian, enclosed by ref::DiscreteGaussianLaw (discrete_noise.hpp).
//
// Bin masses. The bin (s_i, s_{i+1}] holds z = y − N ∈ [a, b] = [Y(s_i) − N + 1, Y(s_{i+1}) − N].
//  * σ² < 2^20: Σ_{z=a}^{b} e^{−z²/(2σ²)} / C_G term by term in MPFI (the loss range holds at most
//    a few times 10^5 integers at this σ, whatever the grid step).
//  * σ² ≥ 2^20 (the production laws: σ ≈ 5·10^6 grid units at ε_p = 1): the midpoint rule. With
//    f(t) = e^{−t²/(2σ²)}, ∫_{z−1/2}^{z+1/2} f = f(z) + f''(ξ_z)/24 for some ξ_z, and
//    |f''(t)| = |u² − 1| e^{−u²/2}/σ² ≤ 1/σ² (u = t/σ; the maximum 1 is at u = 0, the other local
//    maximum is 2e^{−3/2} at u² = 3). So Σ_{z=a}^{b} f(z) = σ√(2π)·∫_α^β φ ± (b − a + 1)/(24σ²) with
//    α = (a − 1/2)/σ, β = (b + 1/2)/σ, and the mass is
//        r·∫_α^β φ ± (b − a + 1)·κ,   r = σ√(2π)/C_G,   κ = 1/(24σ²C_G),
//    r and κ enclosed once in MPFI (C_G from DiscreteGaussianLaw, r ≤ 1 by Poisson summation, which
//    the enclosure confirms rather than assumes), ∫φ by detail::NormalIntegralBounds over double
//    enclosures of α and β. Summed over all bins the error is ≤ (#integers)·κ ≈ 20σ·κ < 1/σ².
//
// Why the shift N is the worst case (the pair dominates every pair of inputs 0 ≤ k, k' ≤ N on the
// grid): the likelihood ratio of (Z + k, Z) is e^{(2yk − k²)/(2σ²)}, monotone in y, so the optimal
// tests of the pair are thresholds on y (Neyman–Pearson; randomized at one atom). At threshold t
// the type I error P(Z ≥ t) does not depend on k and the type II error P(Z < t − k) decreases in
// k; the trade-off curve is the piecewise-linear interpolation of these points at the same
// abscissae, so a larger shift gives a pointwise lower curve: (Z + N, Z) dominates (Z + k, Z),
// k ≤ N, hence (by shift invariance and the symmetry z ↦ −z) every pair (Z + k, Z + k').
// Randomized rounding to the grid would mix such pairs, which joint convexity of the
// hockey-stick divergence keeps dominated; production rounds deterministically (fl::GridPoint).
#include <cmath>

#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"
#include "dpfl/validate.hpp"
#include "pld_internal.hpp"
#include "pld_normal.hpp"

namespace dpfl::ref::pld {
namespace {

constexpr long kMidpointMinSigma2 = 1L << 20;

inline double Up(double v) { return std::nextafter(v, HUGE_VAL); }
inline double Dn(double v) { return std::nextafter(v, -HUGE_VAL); }

// Floor division of integers (denominator > 0).
Int FloorDiv(const Int& num, const Int& den) {
  Int q = num / den;  // truncates toward zero
  if (num < 0 && q * den != num) --q;
  return q;
}

class DiscreteGaussianShiftLaw final : public LossLaw {
 public:
  DiscreteGaussianShiftLaw(const Rational& sigma2, long shift, mpfr_prec_t prec)
      : sigma2_(sigma2), shift_(shift), law_(sigma2, std::max<mpfr_prec_t>(prec, 128)) {}

  Enclosure Cdf(const Rational& s, mpfr_prec_t prec) const override {
    (void)prec;  // the law's own precision (≥ 128 bits)
    return law_.UpperTail(Int(shift_ - Y(s)));
  }

  BinBounds BinMasses(std::int64_t k0, std::size_t n, const Rational& step, mpfr_prec_t prec) const override {
    return Bins(k0, n, step, prec, shift_);
  }

  // The Q side: Q = Z, so the bin's y ∈ [Y(s_i) + 1, Y(s_{i+1})] has Q-mass Σ P_Z(y) — the same sums
  // with z = y instead of y − N.
  std::optional<PairBinBounds> PairBinMasses(std::int64_t k0, std::size_t n, const Rational& step,
                                             mpfr_prec_t prec) const override {
    PairBinBounds out;
    out.p = Bins(k0, n, step, prec, shift_);
    out.q = Bins(k0, n, step, prec, 0);
    return out;
  }

 private:
  // Σ P_Z(y − z_shift) over each bin's y-range.
  BinBounds Bins(std::int64_t k0, std::size_t n, const Rational& step, mpfr_prec_t prec, long z_shift) const {
    // Y(s_i) = ⌊(A + i·B)/D⌋ with s_i = (k0 + i)·h: (2σ²s + N²)/(2N) = (2σ²h k0 + N²)/(2N) + i·σ²h/N.
    const Rational a_r = (2 * sigma2_ * step * k0 + Rational(shift_) * shift_) / (2 * shift_);
    const Rational b_r = sigma2_ * step / shift_;
    const Int den = Int(boost::multiprecision::denominator(a_r)) * Int(boost::multiprecision::denominator(b_r));
    const Int a_num = Int(boost::multiprecision::numerator(a_r)) * Int(boost::multiprecision::denominator(b_r));
    const Int b_num = Int(boost::multiprecision::numerator(b_r)) * Int(boost::multiprecision::denominator(a_r));
    BinBounds out;
    out.lo.resize(n);
    out.hi.resize(n);
    Int num = a_num;
    Int y_prev = FloorDiv(num, den);
    const bool midpoint = sigma2_ >= kMidpointMinSigma2;
    Scale scale;
    if (midpoint) scale = MakeScale(prec);
    for (std::size_t i = 0; i < n; ++i) {
      num += b_num;
      const Int y_next = FloorDiv(num, den);
      const Int first = y_prev + 1 - z_shift, last = y_next - z_shift;  // z ∈ [first, last]
      y_prev = y_next;
      if (last < first) {
        out.lo[i] = out.hi[i] = 0.0;
        continue;
      }
      if (midpoint) {
        MidpointMass(scale, first, last, out.lo[i], out.hi[i]);
      } else {
        Enclosure sum(law_.prec(), 0L);
        for (Int z = first; z <= last; ++z) sum += law_.Weight(z);
        const Enclosure m = sum / law_.Normalizer();
        out.lo[i] = std::max(0.0, m.LoDouble());
        out.hi[i] = m.HiDouble();
      }
    }
    return out;
  }


 public:
  // L = N²/(2σ²) + N(y − N)/σ², y − N ~ N_Z(0, σ²): about μ ± z·N/σ.
  std::pair<double, double> Range(double tail) const override {
    const double sigma = std::sqrt(sigma2_.convert_to<double>()), n = static_cast<double>(shift_);
    const double z = std::sqrt(2.0 * std::log(1.0 / std::max(tail, 1e-300))) + 1.0;
    const double mu = n * n / (2 * sigma * sigma);
    return {mu - z * n / sigma, mu + z * n / sigma};
  }

 private:
  struct Scale {
    double inv_sigma_lo = 0, inv_sigma_hi = 0;  // 1/σ
    double r_lo = 0, r_hi = 0;                  // σ√(2π)/C_G
    double kappa = 0;                           // ≥ 1/(24σ²C_G)
  };

  Int Y(const Rational& s) const { return FloorInt(Rational((2 * sigma2_ * s + Rational(shift_) * shift_) / (2 * shift_))); }

  Scale MakeScale(mpfr_prec_t prec) const {
    const mpfr_prec_t p = std::max<mpfr_prec_t>(prec, 128);
    const Enclosure sigma = SqrtQ(p, sigma2_);
    const Enclosure inv = Rational(1) / sigma;
    const Enclosure r = sigma * Sqrt(Enclosure(p, 2L) * Pi(p)) / law_.Normalizer();
    const Enclosure kappa = Rational(1) / (Rational(24) * sigma2_ * law_.Normalizer());
    return {inv.LoDouble(), inv.HiDouble(), std::max(0.0, r.LoDouble()), r.HiDouble(), kappa.HiDouble()};
  }

  // [lo, hi] of P(first ≤ Z ≤ last) by the midpoint rule (header comment).
  static void MidpointMass(const Scale& s, const Int& first, const Int& last, double& lo, double& hi) {
    // first − 1/2 and last + 1/2 are exact doubles while |z| < 2^51 (the loss range keeps |z| far
    // below that; beyond it the bin's bounds fall back to [0, 1]).
    const double a = first.convert_to<double>() - 0.5, b = last.convert_to<double>() + 0.5;
    const Int count = last - first + 1;
    if (!(std::abs(a) < 0x1p51 && std::abs(b) < 0x1p51) || count > Int(1LL << 52)) {
      lo = 0.0;
      hi = 1.0;
      return;
    }
    // u·(1/σ) enclosed: the product of doubles is within half an ulp of fl(·), so one nextafter
    // each way covers it; the sign of u picks which end of 1/σ gives the smaller product.
    auto scaled = [&](double u) -> std::pair<double, double> {
      const double p1 = u * s.inv_sigma_lo, p2 = u * s.inv_sigma_hi;
      return {Dn(std::min(p1, p2)), Up(std::max(p1, p2))};
    };
    const auto [al, ah] = scaled(a);
    const auto [bl, bh] = scaled(b);
    const auto [i_lo, i_hi] = detail::NormalIntegralBounds(al, ah, bl, bh);
    const double err = Up(count.convert_to<double>() * s.kappa * (1 + 0x1p-50));
    hi = std::min(1.0, Up(Up(s.r_hi * i_hi * (1 + 0x1p-52)) + err));
    lo = std::max(0.0, Dn(Dn(s.r_lo * i_lo * (1 - 0x1p-52)) - err));
  }

  Rational sigma2_;
  long shift_;
  DiscreteGaussianLaw law_;
};

}  // namespace

PldPair DiscreteGaussianPld(const Rational& sigma2, long shift, const GridOptions& grid) {
  ValidatePositive(sigma2, "sigma2");
  if (shift < 1) throw InvalidArgument("sensitivity", "must be an integer >= 1, got " + std::to_string(shift));
  const DiscreteGaussianShiftLaw law(sigma2, shift, grid.prec);  // symmetric: one direction serves both
  PldPair out;
  out.forward = detail::LawDirection(law, grid);
  return out;
}

}  // namespace dpfl::ref::pld
