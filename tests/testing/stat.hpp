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
#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/special_functions/gamma.hpp>

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

// ---- continuous laws: Kolmogorov–Smirnov and Anderson–Darling ---------------------------------
// The caller supplies u_i = F(x_i), the exact CDF (the reference's enclosure midpoint) at each
// sample: the oracle is exact, the statistic is then computed in double.

// P(K > x) for the Kolmogorov limit law: 2 Σ_{k≥1} (−1)^{k−1} e^{−2k²x²} (x > 0.2; 1 below).
inline double KolmogorovUpperTail(double x) {
  if (x < 0.2) return 1.0;
  double sum = 0;
  for (int k = 1; k <= 100; ++k) {
    const double term = std::exp(-2.0 * k * k * x * x);
    sum += (k % 2 == 1 ? term : -term);
    if (term < 1e-300) break;
  }
  return std::clamp(2.0 * sum, 0.0, 1.0);
}

struct ContinuousTest {
  double statistic = 0, p_value = 1;
};

// One-sample KS from the CDF values (any order); p from the limit law at (√n + 0.12 + 0.11/√n)·D
// (Stephens' finite-n correction; accurate to a few per cent of p for n ≥ 35).
inline ContinuousTest KsFromCdf(std::vector<double> u) {
  std::sort(u.begin(), u.end());
  const double n = static_cast<double>(u.size());
  double d = 0;
  for (std::size_t i = 0; i < u.size(); ++i)
    d = std::max({d, (static_cast<double>(i) + 1.0) / n - u[i], u[i] - static_cast<double>(i) / n});
  const double rn = std::sqrt(n);
  return {d, KolmogorovUpperTail((rn + 0.12 + 0.11 / rn) * d)};
}

// Two-sample KS: p from the limit law at √(nm/(n+m))·D.
inline ContinuousTest KsTwoSample(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  std::size_t i = 0, j = 0;
  double d = 0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::fabs(static_cast<double>(i) / na - static_cast<double>(j) / nb));
  }
  const double ne = std::sqrt(na * nb / (na + nb));
  return {d, KolmogorovUpperTail((ne + 0.12 + 0.11 / ne) * d)};
}

// The limit law of the Anderson–Darling statistic for a fully specified F (Anderson & Darling
// 1954): P(A² ≤ z) = (√(2π)/z) Σ_j a_j (4j+1) e^{−(4j+1)²π²/(8z)} ∫_0^∞ e^{z/(8(w²+1)) − (4j+1)²π²w²/(8z)} dw,
// a_j = (−1)^j Γ(j + 1/2)/(Γ(1/2) j!); the integrals by exp-sinh quadrature. Its known upper
// points (A² = 1.933, 2.492, 3.857 at p = 0.10, 0.05, 0.01) are checked in stat_test.cpp.
inline double AndersonDarlingLimitCdf(double z) {
  if (z <= 0.0) return 0.0;
  if (z > 40.0) return 1.0;  // P(A² > 40) is far below any level used here
  constexpr double kPi = 3.14159265358979323846;
  boost::math::quadrature::exp_sinh<double> integrator;
  double sum = 0, aj = 1.0;  // a_0 = 1
  for (int j = 0; j < 60; ++j) {
    if (j > 0) aj *= -(static_cast<double>(j) - 0.5) / static_cast<double>(j);
    const double c = (4.0 * j + 1.0) * (4.0 * j + 1.0) * kPi * kPi / (8.0 * z);
    if (c > 700.0) break;
    const double integral =
        integrator.integrate([&](double w) { return std::exp(z / (8.0 * (w * w + 1.0)) - c * w * w); });
    sum += aj * (4.0 * j + 1.0) * std::exp(-c) * integral;
  }
  return std::clamp(std::sqrt(2.0 * kPi) / z * sum, 0.0, 1.0);
}

// A² = −n − (1/n) Σ (2i − 1)[ln u_(i) + ln(1 − u_(n+1−i))] from the CDF values; p from the limit
// law (the finite-n law is within 1% of it for n ≥ 5). A value u ∉ (0, 1) (a sample where the law
// has no mass) gives A² = +inf, p = 0.
inline ContinuousTest AndersonDarlingFromCdf(std::vector<double> u) {
  std::sort(u.begin(), u.end());
  const std::size_t n = u.size();
  if (n == 0) return {};
  if (!(u.front() > 0.0 && u.back() < 1.0)) return {std::numeric_limits<double>::infinity(), 0.0};
  double s = 0;
  for (std::size_t i = 0; i < n; ++i)
    s += (2.0 * static_cast<double>(i) + 1.0) * (std::log(u[i]) + std::log1p(-u[n - 1 - i]));
  const double a2 = -static_cast<double>(n) - s / static_cast<double>(n);
  return {a2, 1.0 - AndersonDarlingLimitCdf(a2)};
}

}  // namespace dpfl::testing::stat
