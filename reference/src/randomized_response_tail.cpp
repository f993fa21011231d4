// dpfl::ref — the exact DPFL-BNN privacy profile for large k by binomial tails (spec 004 §4.6,
// §7 item 7). The method and its rigor argument are in randomized_response.hpp; the notes here
// say which step each function proves.
#include <bit>
#include <cmath>
#include <map>
#include <string>

#include "dpfl/ref/randomized_response.hpp"
#include "dpfl/validate.hpp"

namespace dpfl::ref {
namespace {

// RAII MPFR scratch number.
class Mpfr {
 public:
  explicit Mpfr(mpfr_prec_t prec) { mpfr_init2(f_, prec); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
  ~Mpfr() { mpfr_clear(f_); }
  mpfr_ptr get() { return f_; }

 private:
  mpfr_t f_;
};

// ln n! = lnΓ(n + 1). n + 1 ≤ 2^40 + 1 is exact in 64 bits; mpfr_lngamma is correctly rounded in
// the requested direction, so [RNDD, RNDU] encloses it.
Enclosure LogFactorial(mpfr_prec_t w, unsigned long n) {
  Mpfr x(64), lo(w), hi(w);
  if (mpfr_set_ui(x.get(), n + 1, MPFR_RNDN) != 0) throw Undecidable("ln n!: n + 1 is not exact in 64 bits");
  mpfr_lngamma(lo.get(), x.get(), MPFR_RNDD);
  mpfr_lngamma(hi.get(), x.get(), MPFR_RNDU);
  Enclosure out = Enclosure::Uninitialized(w);
  mpfi_interv_fr(out.get(), lo.get(), hi.get());
  return out;
}

// The remainder bound of a walk (header, step iii): with `term` the last summed term (relative
// to the first) and `ratio` enclosing the ratio to the next one, the rest of the tail is at most
// term.hi · r/(1 − r), r = ratio.hi < 1, because the ratios only decrease along the walk. Returns
// true and that bound in `bound` (rounded up) once it is ≤ 2^−w (the relative sum is ≥ 1).
bool RemainderBound(const Enclosure& term, const Enclosure& ratio, mpfr_prec_t w, mpfr_ptr bound) {
  mpfr_srcptr t_hi = &term.get()->right;
  mpfr_srcptr r_hi = &ratio.get()->right;
  if (mpfr_cmp_ui_2exp(t_hi, 1, -(w - 8)) > 0) return false;  // cheap gate: far from 2^−w yet
  if (mpfr_cmp_ui(r_hi, 1) >= 0) return false;
  Mpfr slack(w);
  mpfr_ui_sub(slack.get(), 1, r_hi, MPFR_RNDD);  // 1 − r, rounded down (> 0 as r < 1)
  mpfr_mul(bound, t_hi, r_hi, MPFR_RNDU);
  mpfr_div(bound, bound, slack.get(), MPFR_RNDU);
  return mpfr_cmp_ui_2exp(bound, 1, -w) <= 0;
}

// w = precision + 64 + 2·bitlen(k) (header): ~4 roundings per walk step over ≤ 5·10^7 steps, and
// the absolute error of lnΓ(k + 1) ≈ k ln k, relative to 2^−w, before exponentiation.
mpfr_prec_t WorkingPrecision(int precision_bits, unsigned long k) {
  return precision_bits + 64 + 2 * static_cast<mpfr_prec_t>(std::bit_width(k));
}

}  // namespace

struct BnnTailProfile::Impl {
  Impl(const Rational& gamma, unsigned long k_in, int precision_bits)
      : k(k_in),
        p(Rational(1, 2) + gamma),
        kp(p * Rational(k_in)),
        w(WorkingPrecision(precision_bits, k_in)),
        trivial(gamma == 0),
        rho(w, Rational(p / (1 - p))),
        inv_rho(w, Rational((1 - p) / p)),
        ell(Log(rho)),
        log_p(LogQ(w, p)),
        log_q(LogQ(w, Rational(1 - p))),
        log_k_fact(LogFactorial(w, k_in)) {}

  // ln t_j, t_j = C(k,j) p^j q^{k−j} (header, step ii).
  Enclosure LogTerm(unsigned long j) const {
    return log_k_fact - LogFactorial(w, j) - LogFactorial(w, k - j) + Rational(j) * log_p + Rational(k - j) * log_q;
  }

  // Σ_{i≥0} t_{j0±i}/t_{j0}: upward over j0, …, k or downward over j0, …, 0, each term the previous
  // times the enclosed exact ratio; truncated with the remainder bound (header, step iii). The
  // caller guarantees the first ratio is < 1 (the walk leaves the mode), so the bound applies as
  // soon as the terms are small.
  Enclosure RelativeTail(unsigned long j0, bool upward) const {
    Enclosure sum(w, 1L), term(w, 1L);
    Enclosure ratio = Enclosure::Uninitialized(w);
    Mpfr bound(w);
    unsigned long j = j0;
    for (unsigned long steps = 0; upward ? j < k : j > 0; ++steps) {
      if (steps >= kBnnTailMaxTerms)
        throw InvalidArgument("k", "the binomial-tail walk exceeded " + std::to_string(kBnnTailMaxTerms) +
                                       " terms at k = " + std::to_string(k) + "; lower k or the precision");
      if (upward) {  // t_{j+1}/t_j = (k − j) p / ((j + 1) q)
        mpfi_mul_ui(ratio.get(), rho.get(), k - j);
        mpfi_div_ui(ratio.get(), ratio.get(), j + 1);
      } else {  // t_{j−1}/t_j = j q / ((k − j + 1) p)
        mpfi_mul_ui(ratio.get(), inv_rho.get(), j);
        mpfi_div_ui(ratio.get(), ratio.get(), k - j + 1);
      }
      if (RemainderBound(term, ratio, w, bound.get())) {
        Mpfr zero(w);
        mpfr_set_zero(zero.get(), 1);
        Enclosure rest = Enclosure::Uninitialized(w);
        mpfi_interv_fr(rest.get(), zero.get(), bound.get());
        mpfi_add(sum.get(), sum.get(), rest.get());
        return sum;
      }
      mpfi_mul(term.get(), term.get(), ratio.get());
      mpfi_add(sum.get(), sum.get(), term.get());
      j = upward ? j + 1 : j - 1;
    }
    return sum;  // the walk reached the end of the support: nothing is left out
  }

  // A = P[X ≥ J] and ln B, B = P[X ≤ k − J] = P[Bin(k,q) ≥ J], for 1 ≤ J ≤ k, X ~ Bin(k,p).
  struct Tails {
    Enclosure a, log_b;
  };
  const Tails& TailsAt(unsigned long J) {
    const auto it = cache.find(J);
    if (it != cache.end()) return it->second;
    // J > kp: the upward ratio at J is < 1 (kp − q < J). Else J − 1 < kp < (k+1)p: the downward
    // ratio at J − 1 is < 1; A = 1 − P[X ≤ J − 1] is then ≥ ~1/2, so the subtraction is benign.
    Enclosure a = Rational(J) > kp
                      ? Exp(LogTerm(J) + Log(RelativeTail(J, true)))
                      : Enclosure(w, 1L) - Exp(LogTerm(J - 1) + Log(RelativeTail(J - 1, false)));
    // k − J < k/2 ≤ kp: the downward ratio is < 1 from the first step.
    Enclosure log_b = LogTerm(k - J) + Log(RelativeTail(k - J, false));
    return cache.emplace(J, Tails{std::move(a), std::move(log_b)}).first->second;
  }

  unsigned long k;
  Rational p, kp;  // keep probability 1/2 + γ; the mean k·p
  mpfr_prec_t w;   // working precision
  bool trivial;    // γ = 0: p = q and δ ≡ 0 for ε ≥ 0
  Enclosure rho, inv_rho, ell, log_p, log_q, log_k_fact;
  std::map<unsigned long, Tails> cache;
};

namespace {

unsigned long ValidateTailK(const Rational& k) {
  ValidatePositiveInteger(k, "k");
  if (k > kBnnExactMaxBits)
    throw InvalidArgument("k", "exact profile supports k = T*h <= 2^40, got " + EchoValue(k));
  return static_cast<unsigned long>(boost::multiprecision::numerator(k));
}

}  // namespace

BnnTailProfile::BnnTailProfile(const Rational& gamma, const Rational& k, int precision_bits) {
  ValidatePrecision(precision_bits);
  Require("gamma", gamma, Domain::ClosedOpen(0, 0.5), EchoValue);
  const unsigned long kk = ValidateTailK(k);
  if (gamma > 0) {
    // A-priori cost (a double estimate of the work, never a privacy decision): a walk from the
    // mode needs ~σ√(2 w ln 2) terms for the Gaussian bulk (doubled for skew) plus ~w geometric
    // ones. Checked before any lnΓ is evaluated at the working precision.
    const double pd = 0.5 + static_cast<double>(gamma);
    const double sigma = std::sqrt(static_cast<double>(kk) * pd * (1 - pd));
    const double w = static_cast<double>(WorkingPrecision(precision_bits, kk));
    const double estimate = 2 * sigma * std::sqrt(2 * std::log(2.0) * w) + 4 * w + 64;
    if (estimate > static_cast<double>(kBnnTailMaxTerms))
      throw InvalidArgument("k", "the binomial-tail method would need about " +
                                     std::to_string(static_cast<long>(estimate)) + " terms per tail at k = " +
                                     std::to_string(kk) + " and " + std::to_string(precision_bits) + " bits (budget " +
                                     std::to_string(kBnnTailMaxTerms) + "); lower k or the precision");
  }
  impl_ = std::make_unique<Impl>(gamma, kk, precision_bits);
}
BnnTailProfile::BnnTailProfile(BnnTailProfile&&) noexcept = default;
BnnTailProfile& BnnTailProfile::operator=(BnnTailProfile&&) noexcept = default;
BnnTailProfile::~BnnTailProfile() = default;

Enclosure BnnTailProfile::Delta(const Rational& eps) {
  Impl& m = *impl_;
  if (eps < 0) throw InvalidArgument("eps", "must be >= 0, got " + EchoValue(eps));
  Enclosure out(m.w, 0L);  // D(k + 1) = 0 is one of the candidates: δ ≥ 0
  if (m.trivial) return out;
  // j* = ⌊x⌋ + 1, x = (k + ε/ℓ)/2, bracketed from an enclosure of x (header, step i).
  const Enclosure e(m.w, eps);
  const Interval x = ToInterval((Rational(m.k) + e / m.ell) / Rational(2));
  const Int k_int(m.k);
  const Int floor_lo = FloorInt(x.lo()), floor_hi = FloorInt(x.hi());
  if (floor_lo >= k_int) return out;  // j* > k certainly: δ = 0 (ε ≥ kℓ)
  const unsigned long j_lo = floor_lo.convert_to<unsigned long>() + 1;
  const unsigned long j_hi = floor_hi >= k_int ? m.k : floor_hi.convert_to<unsigned long>() + 1;
  if (j_hi - j_lo > 3) throw Undecidable("exact delta: j* not resolved at this precision; increase it");
  for (unsigned long J = j_lo; J <= j_hi; ++J) {
    const Impl::Tails& t = m.TailsAt(J);
    out = Max(out, t.a - Exp(e + t.log_b));  // D(J) = A − e^ε B, with e^ε B = exp(ε + ln B)
  }
  return out;
}

Interval BnnExactDeltaTail(const Rational& eps, const Rational& gamma, const Rational& k, int precision_bits) {
  Require("eps", eps, Domain::Closed(0, 1e6), EchoValue);
  BnnTailProfile profile(gamma, k, precision_bits);
  const Enclosure d = profile.Delta(eps);
  // A δ below 2^−65536 would otherwise become a rational with a denominator of up to 2^(2^30).
  mpfr_srcptr hi = &d.get()->right;
  if (!mpfr_zero_p(hi) && mpfr_cmp_ui_2exp(hi, 1, -65536) <= 0) return Interval(Rational(0), Pow2(-65536));
  return ToInterval(d);
}

}  // namespace dpfl::ref
