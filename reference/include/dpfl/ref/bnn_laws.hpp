// dpfl::ref — the exact output laws of the DPFL-BNN client and server (spec 004 §2 "Useful exact
// facts", §4.8, §7.1 items 1 and 8), as rationals: what the production encoders
// (production/include/dpfl/quant/randomized_response.hpp) are held to by the statistical harness.
//
//  * RR (Def. 3, ±1 form, E16): P(RR_γ(b) = +1) = 1/2 + γ·b for b = ±1, γ ∈ [0, 1/2].
//  * StoSign (Alg. B, hard sigmoid [RECOMMENDED], E13): P(+1) = clip((θ + 1)/2, 0, 1).
//  * Both: P(RR_γ(StoSign(θ)) = +1) = 1/2 + γ·clip(θ, −1, 1) (§2 [DERIVED]); Sign instead of
//    StoSign gives 1/2 + γ for θ ≥ 0 and 1/2 − γ otherwise (E17: Sign(0) = +1).
//  * Server (Alg. D, §4.8): per coordinate the count K of "+" among n independent uploads with
//    P(+) = π_i is Poisson-binomial(π_1, …, π_n); the broadcast average (2K − n)/n (E9) has mean
//    (1/n) Σ (2π_i − 1) and variance (1/n²) Σ 4π_i(1 − π_i) (= (1/n²) Σ (1 − 4γ²θ_i²) with StoSign).
// Here γ may be 1/2 (no noise, the limit the spec excludes for privacy but uses for property 18).
#pragma once

#include <vector>

#include "dpfl/ref/numbers.hpp"

namespace dpfl::ref {

// Names "gamma" (∉ [0, 1/2]) and "input" (∉ {−1, +1}).
Rational RrPlusProbability(const Rational& gamma, int input);
Rational StoSignPlusProbability(const Rational& theta);
Rational SignPlusProbability(const Rational& theta);
// P(RR_γ(bin(θ)) = +1) for bin = StoSign (stochastic = true) or Sign.
Rational BnnUploadPlusProbability(const Rational& gamma, const Rational& theta, bool stochastic);

// pmf of K = Σ_i Bernoulli(π_i), k = 0..n, by exact convolution. Names "probs" (an entry ∉ [0, 1]).
std::vector<Rational> PoissonBinomialPmf(const std::vector<Rational>& probs);

struct BnnAverageMoments {
  Rational mean, variance;
};
// Of the broadcast average (1/n) Σ_i b̃_i with P(b̃_i = +1) = π_i (n ≥ 1).
BnnAverageMoments BnnAverageLaw(const std::vector<Rational>& probs);

}  // namespace dpfl::ref
