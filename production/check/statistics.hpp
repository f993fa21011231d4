// The tests behind `dpfl check` (docs/check.md "Statistics"): chi-square goodness of fit with
// pooling, two-sided z tests, a stratified correlation test, weighted Holm, and the power
// statements. p-values and quantiles come from Boost.Math in double: the exact part of the check
// is the law the counts are compared with, not the tail probabilities of the test statistics.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dpfl::check {

struct ChiSquare {
  double statistic = 0, p_value = 1;
  int df = 0;
  bool impossible_output = false;  // an output of exact probability 0 was seen: p = 0
  std::string detail;              // the largest discrepancies: cell, expected and observed frequency
};
// Pearson's chi-square of `counts` against `prob` (exact, summing to 1); cells with expected
// count < 5 pooled (smallest first) until every group has ≥ 5.
ChiSquare ChiSquareTest(const std::vector<std::uint64_t>& counts, const std::vector<double>& prob,
                        const std::vector<std::string>& names);
// Number of groups the pooling forms (the df + 1 the power statement uses).
int PooledGroups(const std::vector<double>& prob, std::uint64_t n);

// P(|Z| ≥ |z|) for a standard normal Z.
double TwoSidedNormal(double z);

// Paired scalars of one stratum (their observed means are used, so only dependence rejects).
struct Stratum {
  std::vector<double> a, b;
};
// Σ_s √m_s r_s / √S over strata with non-degenerate variance (r_s: Pearson's correlation of the
// m_s pairs); ≈ N(0, 1) under independence. Returns 0 when no stratum has variance.
double StratifiedCorrelationZ(const std::vector<Stratum>& strata, int* used);
// Σ_s √m_s r_L(s) / √S over series (one per request): r_L the lag-L sample autocorrelation with
// overlapping pairs (i, i + L), so both phases of a pairing show; for iid runs √m r_L → N(0, 1)
// (Bartlett). Series with variance 0 or fewer than L + 3 values are skipped.
double LagCorrelationZ(const std::vector<std::vector<double>>& series, std::size_t lag, int* used);

// Weighted Holm at family-wise level alpha: p-values with planned weights (total planned weight
// `total_weight`, including checks that never ran). Returns which are rejected.
std::vector<bool> WeightedHolm(const std::vector<double>& p, const std::vector<double>& w, double total_weight,
                               double alpha);

// Smallest total variation (on `groups` cells) that a chi-square test at level `level` detects
// with probability ≥ 0.99 from n runs: δ = √(λ/(4n)), λ the noncentrality of power 0.99, since
// λ = n Σ (q − p)²/p ≥ n (Σ|q − p|)² = 4nδ² (Cauchy–Schwarz). A point mass (one cell): 1 − 0.01^{1/n}.
double DetectableTv(int groups, double level, std::uint64_t n);
// Smallest |bias| a two-sided z test at `level` detects with probability ≥ 0.99: (z_{1−level/2} + z_{0.99}) sd/√n.
double DetectableShift(double level, double sd, std::uint64_t n);

}  // namespace dpfl::check
