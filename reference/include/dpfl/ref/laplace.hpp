// dpfl::ref — the Laplace mechanism: pure ε and RDP.
//
// M(X) = f(X) + Lap(b) per coordinate with ℓ1 sensitivity Δ. Adjacency: any notion under which
// ‖f(X) − f(X')‖₁ ≤ Δ (add/remove or replace-one; the caller's Δ encodes which). Natural logs.
//  * Pure DP (Dwork & Roth 2014, Thm 3.6): ε = Δ/b, exact.
//  * RDP (Mironov 2017, Table II, Laplace row) with λ = b/Δ (the scale at unit sensitivity):
//      α > 1: D_α = (1/(α−1)) log( α/(2α−1) e^{(α−1)/λ} + (α−1)/(2α−1) e^{−α/λ} ),
//      α = 1 (KL): 1/λ + e^{−1/λ} − 1,   α = ∞: 1/λ.
//    Enclosed with MPFI (every operation outward rounded; see enclosure.hpp).
#pragma once

#include "dpfl/ref/gaussian.hpp"

namespace dpfl::ref {

// Δ/b, exact. Names "b" and "sensitivity".
Rational LaplacePureEpsilon(const Rational& b, const Rational& sensitivity = 1);
// Names "b", "order" (≤ 1), "sensitivity", "precision".
Interval LaplaceRdp(const Rational& b, const Rational& order, const Rational& sensitivity = 1,
                    int precision_bits = kDefaultAccountingPrecisionBits);
Enclosure LaplaceRdpEnclosure(const Rational& b, const Rational& order, const Rational& sensitivity, mpfr_prec_t prec);
Interval LaplaceKl(const Rational& b, const Rational& sensitivity = 1,
                   int precision_bits = kDefaultAccountingPrecisionBits);

}  // namespace dpfl::ref
