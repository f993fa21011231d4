// Small, pure statistical helpers for tests/statistical and tests/mutants.
//
// DESIGN.md "Statistical testing conventions", STYLE.md "Statistical tests": goodness of fit of
// observed counts against an exact pmf (Pearson chi-square and G-test, with cells of small
// expected count pooled), critical values and p-values from Boost.Math, Holm–Bonferroni
// step-down over a suite, a two-sided z test for means, and the power of a chi-square test
// from the non-central chi-square law.
//
// The probabilities passed in are the reference's exact rationals converted to double: the
// conversion feeds only the test statistic (relative error 2^-53, far below any deviation a
// test with ≤ 2^24 samples can resolve); the oracle itself is exact.
#pragma once

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/complement.hpp>
#include <boost/math/distributions/non_central_chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>
#include <vector>

namespace dpfl::testing::stat {

// Result of a goodness-of-fit test.
struct GofResult {
  double statistic = 0;     // X² or G (after pooling); +inf if an impossible cell was observed
  int dof = 0;              // (pooled cells with positive probability) − 1
  double p_value = 1;       // P(χ²(dof) ≥ statistic); 0 if impossible; 1 if dof = 0 and possible
  bool impossible = false;  // a count > 0 in a cell of exact probability 0
  int pooled_cells = 0;     // number of cells after pooling
};

// Pooled (observed, expected) pairs; cells of probability exactly 0 are removed, and flagged if
// observed. Cells whose expected count is below `min_expected` are merged, smallest first, into
// one cell; if that cell is still below `min_expected` it absorbs the next smallest cell.
struct PooledCells {
  std::vector<double> observed, expected;
  bool impossible = false;
};

inline PooledCells PoolCells(std::span<const std::uint64_t> counts, std::span<const double> probs,
                             double min_expected) {
  if (counts.size() != probs.size()) throw std::invalid_argument("PoolCells: size mismatch");
  const double n = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}));
  struct Cell {
    double obs, exp;
  };
  std::vector<Cell> cells;
  PooledCells out;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (probs[i] < 0) throw std::invalid_argument("PoolCells: negative probability");
    if (probs[i] == 0) {
      if (counts[i] > 0) out.impossible = true;
      continue;
    }
    cells.push_back({static_cast<double>(counts[i]), n * probs[i]});
  }
  std::sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) { return a.exp < b.exp; });
  std::size_t k = 0;
  Cell pool{0, 0};
  while (k < cells.size() && (cells[k].exp < min_expected || (pool.exp > 0 && pool.exp < min_expected))) {
    pool.obs += cells[k].obs;
    pool.exp += cells[k].exp;
    ++k;
  }
  if (pool.exp > 0) {
    out.observed.push_back(pool.obs);
    out.expected.push_back(pool.exp);
  }
  for (; k < cells.size(); ++k) {
    out.observed.push_back(cells[k].obs);
    out.expected.push_back(cells[k].exp);
  }
  return out;
}

// Upper tail P(χ²(dof) ≥ x).
inline double ChiSquareUpperTail(int dof, double x) {
  if (dof <= 0) return 1.0;
  if (!std::isfinite(x)) return 0.0;
  if (x <= 0) return 1.0;
  return boost::math::cdf(boost::math::complement(boost::math::chi_squared(dof), x));
}

// Critical value c with P(χ²(dof) ≥ c) = a (STYLE.md: computed at run time, never hard-coded).
inline double ChiSquareCritical(int dof, double a) {
  return boost::math::quantile(boost::math::complement(boost::math::chi_squared(dof), a));
}

namespace detail {
template <class Term>
GofResult Gof(std::span<const std::uint64_t> counts, std::span<const double> probs, double min_expected,
              Term term) {
  const PooledCells cells = PoolCells(counts, probs, min_expected);
  GofResult r;
  r.pooled_cells = static_cast<int>(cells.observed.size());
  r.dof = std::max(0, r.pooled_cells - 1);
  if (cells.impossible) {
    r.impossible = true;
    r.statistic = std::numeric_limits<double>::infinity();
    r.p_value = 0.0;
    return r;
  }
  for (std::size_t i = 0; i < cells.observed.size(); ++i) r.statistic += term(cells.observed[i], cells.expected[i]);
  r.p_value = ChiSquareUpperTail(r.dof, r.statistic);
  return r;
}
}  // namespace detail

// Pearson X² = Σ (O − E)²/E against `probs` (must sum to 1 up to rounding).
inline GofResult ChiSquareGof(std::span<const std::uint64_t> counts, std::span<const double> probs,
                              double min_expected = 5.0) {
  return detail::Gof(counts, probs, min_expected, [](double o, double e) { return (o - e) * (o - e) / e; });
}

// G = 2 Σ O ln(O/E) (likelihood-ratio statistic, asymptotically χ²(dof)).
inline GofResult GTestGof(std::span<const std::uint64_t> counts, std::span<const double> probs,
                          double min_expected = 5.0) {
  return detail::Gof(counts, probs, min_expected, [](double o, double e) { return o > 0 ? 2.0 * o * std::log(o / e) : 0.0; });
}

// Holm–Bonferroni step-down at family-wise level alpha: reject[i] for the hypotheses rejected.
inline std::vector<bool> HolmReject(std::span<const double> p_values, double alpha) {
  const std::size_t m = p_values.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p_values[a] < p_values[b]; });
  std::vector<bool> reject(m, false);
  for (std::size_t k = 0; k < m; ++k) {
    if (!(p_values[order[k]] <= alpha / static_cast<double>(m - k))) break;
    reject[order[k]] = true;
  }
  return reject;
}
inline bool AnyRejected(const std::vector<bool>& reject) {
  return std::any_of(reject.begin(), reject.end(), [](bool b) { return b; });
}

// Two-sided p-value of a standard normal statistic z.
inline double ZTwoSidedP(double z) {
  if (!std::isfinite(z)) return 0.0;
  return 2.0 * boost::math::cdf(boost::math::complement(boost::math::normal(), std::fabs(z)));
}
// Two-sided normal quantile z with P(|N(0,1)| ≥ z) = a.
inline double ZCritical(double a) {
  return boost::math::quantile(boost::math::complement(boost::math::normal(), a / 2.0));
}

// z test of a sample mean against mu0, with the standard error taken as sigma/√n (sigma
// exact, from the reference) or, if sigma is negative, from the sample variance.
struct MeanTest {
  double mean = 0, std_error = 0, z = 0, p_value = 1;
};
inline MeanTest ZTestMean(std::span<const double> x, double mu0, double sigma = -1.0) {
  MeanTest t;
  const double n = static_cast<double>(x.size());
  double s = 0;
  for (double v : x) s += v;
  t.mean = s / n;
  if (sigma < 0) {
    double ss = 0;
    for (double v : x) ss += (v - t.mean) * (v - t.mean);
    sigma = std::sqrt(ss / (n - 1));
  }
  t.std_error = sigma / std::sqrt(n);
  t.z = (t.mean - mu0) / t.std_error;
  t.p_value = ZTwoSidedP(t.z);
  return t;
}

// Power of the chi-square test: the smallest non-centrality λ such that a test at level `a`
// with `dof` degrees of freedom rejects with probability ≥ `power` (non-central χ²(dof, λ)
// approximation of Pearson's X² under a fixed alternative, λ = n Σ (p'_i − p_i)²/p_i).
inline double NoncentralityForPower(int dof, double a, double power) {
  const double crit = ChiSquareCritical(dof, a);
  return boost::math::non_central_chi_squared::find_non_centrality(static_cast<double>(dof), crit, 1.0 - power);
}
// Power of the test at non-centrality lambda.
inline double ChiSquarePower(int dof, double a, double lambda) {
  const double crit = ChiSquareCritical(dof, a);
  return boost::math::cdf(boost::math::complement(boost::math::non_central_chi_squared(dof, lambda), crit));
}
// Smallest effect size w = sqrt(Σ (p'_i − p_i)²/p_i) (Cohen's w) detected with probability
// ≥ power from n samples.
inline double MinDetectableEffect(int dof, double a, double power, double n) {
  return std::sqrt(NoncentralityForPower(dof, a, power) / n);
}

}  // namespace dpfl::testing::stat
