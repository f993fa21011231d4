// dpfl::ref::pld — the PLD of the discrete Laplace mechanism of dpfl's laplace baseline
// (pld_mechanisms.hpp DiscreteLaplacePld): P = N + Z, Q = Z, Z ~ L_Z(t), N the grid sensitivity.
#include <algorithm>

#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"
#include "pld_internal.hpp"

namespace dpfl::ref::pld {
namespace {

// The discrete Laplace L_Z(t) shifted by N ∈ ℤ (P = N + Z, Q = Z): the loss at y is
// (|y| − |y − N|)/t, −N/t for y ≤ 0, (2y − N)/t in between, N/t for y ≥ N; it is at most s iff
// y ≤ ⌊(s t + N)/2⌋, so the distribution function is one tail of L_Z(t) (discrete_noise.hpp).
class DiscreteLaplaceLaw final : public LossLaw {
 public:
  DiscreteLaplaceLaw(Rational t, long shift) : t_(std::move(t)), shift_(shift) {}
  Enclosure Cdf(const Rational& s, mpfr_prec_t prec) const override {
    const Rational eps0 = Rational(shift_) / t_;
    if (s < -eps0) return Enclosure(prec, 0L);
    if (s >= eps0) return Enclosure(prec, 1L);
    const Int y_max = FloorInt(Rational((s * t_ + shift_) / 2));  // in [0, N − 1]
    return Rational(1) - DiscreteLaplaceUpperTail(t_, Int(y_max - shift_ + 1), prec);
  }
  std::pair<double, double> Range(double) const override {
    const double e0 = (Rational(shift_) / t_).convert_to<double>();
    return {-e0 - 1e-9, e0 + 1e-9};
  }

  // Bin (s, s + h] holds y ∈ [⌊(st + N)/2⌋ + 1, ⌊((s + h)t + N)/2⌋] (every y ≤ 0 has the loss of y = 0,
  // every y ≥ N that of y = N): P-mass P(Z ∈ [a − N, b − N]) (P = N + Z), Q-mass P(Z ∈ [a, b]) (Q = Z),
  // each a difference of two upper tails at 128 bits.
  std::optional<PairBinBounds> PairBinMasses(std::int64_t k0, std::size_t n, const Rational& step,
                                             mpfr_prec_t prec) const override {
    const mpfr_prec_t p = std::max<mpfr_prec_t>(prec, 128);
    PairBinBounds out;
    for (auto* b : {&out.p.lo, &out.p.hi, &out.q.lo, &out.q.hi}) b->resize(n);
    auto y_at = [&](const Rational& s) { return FloorInt(Rational((s * t_ + shift_) / 2)); };
    // P(Z ≥ a), with a = −∞ (1) and a = +∞ (0) at the blocks' ends.
    auto tail = [&](const std::optional<Int>& a) {
      return a ? DiscreteLaplaceUpperTail(t_, *a, p) : Enclosure(p, 1L);
    };
    Int y_prev = y_at(Rational(step * k0));
    for (std::size_t i = 0; i < n; ++i) {
      const Int y_next = y_at(Rational(step * (k0 + static_cast<std::int64_t>(i) + 1)));
      const Int first = y_prev + 1, last = y_next;
      y_prev = y_next;
      if (last < first || last < 0 || first > shift_) continue;  // no atom here (masses 0)
      const bool low_block = first <= 0, high_block = last >= shift_;
      auto mass = [&](long z_shift) {
        const Enclosure upper = low_block ? Enclosure(p, 1L) : tail(Int(first - z_shift));
        const Enclosure beyond = high_block ? Enclosure(p, 0L) : tail(Int(last + 1 - z_shift));
        return upper - beyond;
      };
      const Enclosure mp = mass(shift_), mq = mass(0);
      out.p.lo[i] = std::max(0.0, mp.LoDouble());
      out.p.hi[i] = std::max(0.0, mp.HiDouble());
      out.q.lo[i] = std::max(0.0, mq.LoDouble());
      out.q.hi[i] = std::max(0.0, mq.HiDouble());
    }
    return out;
  }

 private:
  Rational t_;
  long shift_;
};

}  // namespace

PldPair DiscreteLaplacePld(const Rational& t, long shift, const GridOptions& grid) {
  if (!(t > 0)) throw InvalidArgument("t", "must be > 0, got " + EchoValue(t));
  if (shift < 1) throw InvalidArgument("sensitivity", "must be an integer >= 1, got " + std::to_string(shift));
  const DiscreteLaplaceLaw law(t, shift);  // symmetric: the backward pair is a relabelling
  PldPair out;
  out.forward = detail::LawDirection(law, grid);
  return out;
}

}  // namespace dpfl::ref::pld
