// dpfl::ref::pld — the PLDs of the mechanisms the project accounts for, and the accountant entry
// that picks the grid step for a target enclosure width.
//
// Each builder returns a PldPair: `forward` is the loss of (M(D), M(D')), `backward` that of
// (M(D'), M(D)) (empty for a symmetric pair). Natural logs. Every pair below is a dominating pair
// of its mechanism for the stated adjacency, so composition (also adaptive) is valid (pld.hpp).
//
//  * Gaussian, ℓ2 sensitivity Δ: (N(0, σ²), N(Δ, σ²)) — symmetric; L ~ N(μ²/2, μ²), μ = Δ/σ, so
//    F(t) = Φ((t − μ²/2)/μ). Adjacency is whatever relation Δ bounds the query's change under.
//  * Poisson-subsampled Gaussian, add/remove one record whose contribution has norm ≤ Δ (rate q):
//    forward "remove" (P = (1−q)N(0, σ²) + qN(Δ, σ²), Q = N(0, σ²)), backward "add" (Q, P) —
//    the pairs of Mironov, Talwar, Zhang 2019 and dp_accounting's REMOVE/ADD. The loss
//    L(x) = log(1 − q + q e^{(2xΔ − Δ²)/(2σ²)}) is increasing in x, so with
//    x(t) = (σ²/Δ) log((e^t − 1 + q)/q) + Δ/2:  F_remove(t) = (1−q)Φ(x(t)/σ) + qΦ((x(t) − Δ)/σ)
//    and F_add(t) = Φ(−x(−t)/σ) (where e^{±t} > 1 − q; else 0, resp. 1).
//  * Laplace, ℓ1 sensitivity Δ, scale b: (Lap(0, b), Lap(Δ, b)) — symmetric; L = Δ/b on x ≤ 0
//    (mass 1/2), −Δ/b on x ≥ Δ (mass e^{−Δ/b}/2), (Δ − 2x)/b between:
//    F(t) = e^{t/2 − Δ/(2b)}/2 on [−Δ/b, Δ/b), 0 below, 1 from Δ/b on.
//  * Poisson-subsampled Laplace (add/remove): as for the Gaussian with g(x) = (|x| − |x − Δ|)/b,
//    non-decreasing in x: L_remove = log(1 − q + q e^{g(x)}), X ~ (1−q)Lap(0) + qLap(Δ), and
//    L_add = −log(1 − q + q e^{g(x)}), X ~ Lap(0).
//  * Randomized response with keep probability p ∈ (1/2, 1): ((p, 1−p), (1−p, p)), replace-one.
//  * Binomial mechanism: Bin(N, p) + Δ vs Bin(N, p) (integer Δ ≥ 1; exact rational pmfs).
//  * Two exact pmfs (p, q): both directions; Poisson subsampling of the pair reads p as the law
//    with the record and q as the law without it: remove ((1−q)·Q + q·P, Q), add the reverse.
#pragma once

#include <functional>

#include "dpfl/ref/pld.hpp"
#include "dpfl/ref/quantized_gaussian.hpp"

namespace dpfl::ref::pld {

struct GridOptions {
  Rational step;           // h > 0
  double tail = 1e-18;     // single-mechanism tails cut at about this mass (pld.hpp FromLossLaw)
  mpfr_prec_t prec = 64;   // MPFI precision of the discretization (masses need ~1e-15 relative)
  // Honoured by every builder below: pmf pairs through PrepareAtoms/ConnectDots, loss laws through
  // FromLossLawConnectDots (each law here gives its bins' Q-masses).
  Discretization discretization = Discretization::kRounding;
  // How builders that compose inside (pld_accountant.hpp, pld compose) compose: the accountant
  // loop switches it to long double FFTs when the FFT's error bound nears δ.
  ComposeOptions compose{};
};

// Names "sigma", "sensitivity", "q" (∉ (0, 1]), "b", "p", "trials", "step".
PldPair GaussianPld(const Rational& sigma, const Rational& sensitivity, const GridOptions& grid);
PldPair SubsampledGaussianPld(const Rational& sigma, const Rational& sensitivity, const Rational& q,
                              const GridOptions& grid);
PldPair LaplacePld(const Rational& b, const Rational& sensitivity, const GridOptions& grid);
PldPair SubsampledLaplacePld(const Rational& b, const Rational& sensitivity, const Rational& q,
                             const GridOptions& grid);
PldPair RandomizedResponsePld(const Rational& p, const GridOptions& grid);
// Exact pmfs of the binomial mechanism (also used by the subsampled variant): P = Bin(N,p) + Δ,
// Q = Bin(N,p) on {0, …, N + Δ}. N ≤ 100000.
std::pair<std::vector<Rational>, std::vector<Rational>> BinomialMechanismPmfs(long trials, const Rational& p,
                                                                               long shift);
PldPair TwoPmfPld(const std::vector<Rational>& p, const std::vector<Rational>& q, const GridOptions& grid);
// q_sample ∈ (0, 1]: the add/remove pair above.
PldPair SubsampledTwoPmfPld(const std::vector<Rational>& p, const std::vector<Rational>& q,
                            const Rational& q_sample, const GridOptions& grid);

// The discrete Laplace mechanism of dpfl's laplace baseline: k + Z, Z ~ L_Z(t) (P(z) ∝ e^{−|z|/t}),
// shift `shift` ∈ ℤ (the grid sensitivity N), exact loss law from the discrete tails; symmetric,
// so one PLD serves both directions. Pure (N/t)-DP; the PLD gives the tight (ε, δ) under
// composition. Names "t" (≤ 0), "sensitivity" (< 1).
PldPair DiscreteLaplacePld(const Rational& t, long shift, const GridOptions& grid);

// The discrete Gaussian mechanism of dpfl's gaussian baseline: k + Z, Z ~ N_Z(0, σ²)
// (P(z) ∝ e^{−z²/(2σ²)}), integer shift `shift` (the grid sensitivity N; the pair dominates every
// shift 0..N, pld_discrete_gaussian.cpp), loss law from the discrete tails and bin masses by
// direct sums (σ² < 2^20) or the midpoint rule with its bounded error; symmetric, so one PLD
// serves both directions. Names "sigma2" (≤ 0), "sensitivity" (< 1).
PldPair DiscreteGaussianPld(const Rational& sigma2, long shift, const GridOptions& grid);

// Seed 003's quantized Gaussian (quantized_gaussian.hpp, Lemma 2): the pair (P_{C/2}, P_{−C/2}) of
// one coordinate, pmfs enclosed to 2^-80 relative. The levels are symmetric about 0, so the
// backward pair is a relabelling of the forward one and one PLD serves both directions. That pair
// is the spec's worst case over inputs (§4.2, E10: asserted by the paper and verified numerically
// for Rényi divergences, not proven), so its ε is a lower bound on the worst case; the
// unquantized Gaussian with sensitivity C is a proven upper bound (post-processing).
PldPair QuantizedGaussianPld(const QuantizedGaussianParams& params, const GridOptions& grid);

// ---- accountant ----------------------------------------------------------------------------
struct AccountOptions {
  std::optional<Rational> step;            // fixed grid step; otherwise chosen as below
  Rational relative_width = Rational(1, 100);  // target (ε_hi − ε_lo)/ε_hi
  int max_passes = 6;
  ComposeOptions compose;
  double tail = 1e-18;
  mpfr_prec_t prec = 64;
  // How many single-step roundings the composed PLD carries, for the step rule below (0: the
  // number of compositions). Builders that compose inside (a mixture of m-fold compositions,
  // composed T times) set m·T.
  std::uint64_t step_compositions = 0;
  // Passed to the builder through GridOptions, and it sets the step rule below.
  Discretization discretization = Discretization::kRounding;
  // If set, one more step composed onto the `compositions`-fold composition in every pass (for a
  // builder that returns a block of several steps: K = b·blocks + remainder).
  std::function<PldPair(const GridOptions&)> remainder;
  // If set, told one line per pass (step, grid points, the enclosure so far): for long runs.
  std::function<void(const std::string&)> progress;
};
struct AccountResult {
  EpsilonBounds epsilon;   // set by EpsilonOfComposition
  DeltaBounds delta;       // set by DeltaOfComposition
  Rational step;           // grid step of the final pass
  int passes = 0;
  std::size_t grid_points = 0;  // largest composed measure (upper, forward), for the record
};
// ε(δ) of `compositions` compositions of the pair built by `build(step)`. Without a fixed step:
// pass 1 at h = 1/64; each next pass aims at ρ' = 0.9·max(w, ρ/10) (ρ the previous pass's relative
// width (hi − lo)/hi) with h = ρ'·ε̂/K rounded down to 12 significant bits (ε̂ the previous lower
// end, or the upper end over 4 when that is 0; the width is about K·h) — with kConnectDots, whose
// width shrinks like h^a with a between 1 (few compositions, or few atoms far apart on the lower
// side) and 2, h·(ρ'/ρ)^{1/a} instead, a measured from the last two passes (1.5 before) — until ρ ≤ w or
// max_passes, or until a pass narrows the enclosure by less than 10% (the floating-point error floor,
// not the grid, then limits it). The intersection of all passes' enclosures is returned (each is valid).
AccountResult EpsilonOfComposition(const std::function<PldPair(const GridOptions&)>& build, std::uint64_t compositions,
                                   const Rational& delta, const AccountOptions& options = {});
// δ(ε), same step rule with ε̂ = ε, target (δ_hi − δ_lo) ≤ w·δ_hi.
AccountResult DeltaOfComposition(const std::function<PldPair(const GridOptions&)>& build, std::uint64_t compositions,
                                 const Rational& epsilon, const AccountOptions& options = {});

}  // namespace dpfl::ref::pld
