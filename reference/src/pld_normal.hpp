// dpfl::ref::pld (internal) — Gaussian masses in double precision with explicit error bounds, for
// the Gaussian PLDs (pld_mechanisms.cpp): every function returns a lower and an upper bound that
// enclose the exact real, by the arguments written at each definition (pld_normal.cpp).
#pragma once

#include <utility>

#include "dpfl/ref/pld.hpp"

namespace dpfl::ref::pld::detail {

// Masses ∫_{y_i}^{y_i + d} φ for y_i = y0 + i·d, i < n (exact rationals; d ≤ 1/32 and
// (max |y_i| + 1)·d ≤ 1/2 required, which the caller checks).
LossLaw::BinBounds GaussianBins(const Rational& y0, const Rational& d, std::size_t n, mpfr_prec_t prec);

// φ(c) for a double c: {lo, hi}.
std::pair<double, double> NormalPdfBounds(double c);

// ∫_a^b φ over every [a, b] with a ∈ [a_lo, a_hi], b ∈ [b_lo, b_hi]: lo bounds the smallest such
// integral (0 if the intervals overlap), hi the largest. Doubles, a_lo ≤ a_hi, b_lo ≤ b_hi.
std::pair<double, double> NormalIntegralBounds(double a_lo, double a_hi, double b_lo, double b_hi);

}  // namespace dpfl::ref::pld::detail
