// seed-001 D10 budget equivalence (see coq_budget.hpp).
#include "dpfl/ref/coq_budget.hpp"

namespace dpfl::ref {
namespace {
// ε = ln((α + 1)/(α − 1)) for α certainly > 1.
Enclosure EpsFromAlpha(const Enclosure& alpha) { return Log((alpha + Rational(1)) / (alpha - Rational(1))); }
}  // namespace

BudgetEquivalence CoqBudgetEquivalence(const Rational& eps_ind, int precision_bits) {
  ValidatePrecision(precision_bits);
  ValidatePositive(eps_ind, "eps");
  const mpfr_prec_t prec = precision_bits + 32;
  const Enclosure e = ExpQ(prec, eps_ind);
  const Enclosure alpha = (e + Rational(1)) / (e - Rational(1));  // α(ε_ind) = coth(ε/2)
  const Enclosure loose = Sqrt2(prec) * alpha;
  // Exact sup: the branch 2α² ≤ 4 ⇔ α ≤ √2 is decided on the enclosure (Undecidable at α = √2).
  const bool small_alpha = DecideGreaterEqual(Sqrt2(prec), alpha);
  const Enclosure exact = small_alpha ? loose : Rational(1) + Sqr(alpha) / Rational(2);
  BudgetEquivalence out;
  out.alpha_ind = ToInterval(alpha);
  const Enclosure eps_loose = EpsFromAlpha(loose), eps_exact = EpsFromAlpha(exact);
  out.eps_cor_loose = ToInterval(eps_loose);
  out.ratio_loose = ToInterval(eps_loose / eps_ind);
  out.eps_cor_exact = ToInterval(eps_exact);
  out.ratio_exact = ToInterval(eps_exact / eps_ind);
  return out;
}

}  // namespace dpfl::ref
