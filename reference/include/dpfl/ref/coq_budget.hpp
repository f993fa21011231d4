// dpfl::ref — seed-001 §4.9 D10: privacy-budget equivalence of CoQ-FL vs independent LDP-FL
// (the draft's "only 50 % of the privacy budget" claim, E16). Needs logarithms: rigorous
// enclosures (enclosure.hpp).
//
// Matching the worst-case pair variance of independent LDP-FL at ε_ind requires the correlated
// scheme at ε_cor with sup_cor(α(ε_cor)) = 2r²α(ε_ind)²:
//   loose (the draft's bound α²r² vs 2α²r²):  α_cor = √2·α_ind;
//   exact sup (§4.6 d):  α_cor = √2·α_ind if 2α_ind² ≤ 4, else α_cor = 1 + α_ind²/2;
// and ε_cor = ln((α_cor + 1)/(α_cor − 1)).
#pragma once

#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::ref {

struct BudgetEquivalence {
  Interval alpha_ind;
  Interval eps_cor_loose, ratio_loose;  // ε_cor and ε_cor/ε_ind
  Interval eps_cor_exact, ratio_exact;
};

// eps_ind > 0 (exact rational); precision_bits ≥ 32. Throws InvalidArgument / Undecidable.
BudgetEquivalence CoqBudgetEquivalence(const Rational& eps_ind, int precision_bits = 256);

}  // namespace dpfl::ref
