// Tests of `dpfl check` (statistics.hpp).
#include "statistics.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/non_central_chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <numeric>
#include <sstream>

namespace dpfl::check {
namespace {

constexpr double kMinExpected = 5;

// Groups of cell indices, each with expected count ≥ 5 (cells of probability 0 excluded).
std::vector<std::vector<std::size_t>> Pool(const std::vector<double>& prob, std::uint64_t n) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < prob.size(); ++i)
    if (prob[i] > 0) order.push_back(i);
  std::sort(order.begin(), order.end(), [&prob](std::size_t a, std::size_t b) { return prob[a] < prob[b]; });
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::size_t> pending;
  double pending_expected = 0;
  for (std::size_t i : order) {
    const double e = prob[i] * static_cast<double>(n);
    if (pending.empty() && e >= kMinExpected) {
      groups.push_back({i});
      continue;
    }
    pending.push_back(i);
    pending_expected += e;
    if (pending_expected >= kMinExpected) {
      groups.push_back(pending);
      pending.clear();
      pending_expected = 0;
    }
  }
  if (!pending.empty()) {
    if (groups.empty()) {
      groups.push_back(pending);
    } else {  // merge the remainder into the smallest group
      auto& g = groups.front();
      g.insert(g.end(), pending.begin(), pending.end());
    }
  }
  return groups;
}

}  // namespace

int PooledGroups(const std::vector<double>& prob, std::uint64_t n) { return static_cast<int>(Pool(prob, n).size()); }

ChiSquare ChiSquareTest(const std::vector<std::uint64_t>& counts, const std::vector<double>& prob,
                        const std::vector<std::string>& names) {
  ChiSquare out;
  const std::uint64_t n = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
  if (n == 0) return out;
  const double nd = static_cast<double>(n);
  // The largest standardised cell discrepancies, for the report.
  std::vector<std::pair<double, std::size_t>> worst;
  for (std::size_t i = 0; i < prob.size(); ++i) {
    const double e = prob[i] * nd;
    if (prob[i] <= 0 && counts[i] > 0) out.impossible_output = true;
    const double z = e > 0 ? (static_cast<double>(counts[i]) - e) / std::sqrt(e) : (counts[i] ? 1e300 : 0);
    worst.emplace_back(-std::fabs(z), i);
  }
  std::sort(worst.begin(), worst.end());
  std::ostringstream detail;
  detail.precision(6);
  for (std::size_t k = 0; k < std::min<std::size_t>(3, worst.size()); ++k) {
    const std::size_t i = worst[k].second;
    detail << (k ? "; " : "") << names[i] << ": expected " << prob[i] << ", observed "
           << static_cast<double>(counts[i]) / nd;
  }
  out.detail = detail.str();
  if (out.impossible_output) {
    out.p_value = 0;
    out.statistic = INFINITY;
    out.detail = "an output of probability 0 at this input was seen; " + out.detail;
    return out;
  }
  const auto groups = Pool(prob, n);
  double stat = 0;
  for (const auto& g : groups) {
    double e = 0, o = 0;
    for (std::size_t i : g) {
      e += prob[i] * nd;
      o += static_cast<double>(counts[i]);
    }
    stat += (o - e) * (o - e) / e;
  }
  out.df = static_cast<int>(groups.size()) - 1;
  out.statistic = stat;
  if (out.df >= 1) out.p_value = boost::math::cdf(boost::math::complement(boost::math::chi_squared(out.df), stat));
  return out;
}

double TwoSidedNormal(double z) {
  if (!std::isfinite(z)) return 0;
  return std::erfc(std::fabs(z) / std::sqrt(2.0));
}

double StratifiedCorrelationZ(const std::vector<Stratum>& strata, int* used) {
  double sum = 0;
  int s = 0;
  for (const Stratum& st : strata) {
    const std::size_t m = std::min(st.a.size(), st.b.size());
    if (m < 3) continue;
    // Deviations from the first value, so that repeats of one value are exactly 0: a (nearly)
    // constant stratum must not turn the rounding of its mean into a correlation.
    const double a0 = st.a[0], b0 = st.b[0];
    double ma = 0, mb = 0;
    for (std::size_t i = 0; i < m; ++i) ma += st.a[i] - a0, mb += st.b[i] - b0;
    ma /= static_cast<double>(m);
    mb /= static_cast<double>(m);
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const double da = (st.a[i] - a0) - ma, db = (st.b[i] - b0) - mb;
      sab += da * db;
      saa += da * da;
      sbb += db * db;
    }
    if (!(saa > 0 && sbb > 0)) continue;
    sum += std::sqrt(static_cast<double>(m)) * sab / std::sqrt(saa * sbb);
    ++s;
  }
  if (used) *used = s;
  return s ? sum / std::sqrt(static_cast<double>(s)) : 0;
}

double LagCorrelationZ(const std::vector<std::vector<double>>& series, std::size_t lag, int* used) {
  double sum = 0;
  int s = 0;
  for (const std::vector<double>& x : series) {
    const std::size_t m = x.size();
    if (m < lag + 3) continue;
    const double x0 = x[0];
    double mean = 0;
    for (double v : x) mean += v - x0;
    mean /= static_cast<double>(m);
    double den = 0, num = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const double d = (x[i] - x0) - mean;
      den += d * d;
      if (i + lag < m) num += d * ((x[i + lag] - x0) - mean);
    }
    if (!(den > 0)) continue;
    sum += std::sqrt(static_cast<double>(m)) * num / den;  // Bartlett: √m r_L → N(0, 1) for iid runs
    ++s;
  }
  if (used) *used = s;
  return s ? sum / std::sqrt(static_cast<double>(s)) : 0;
}

std::vector<bool> WeightedHolm(const std::vector<double>& p, const std::vector<double>& w, double total_weight,
                               double alpha) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] * w[b] < p[b] * w[a]; });
  std::vector<bool> rejected(p.size(), false);
  double remaining = total_weight;
  for (std::size_t i : order) {
    if (!(p[i] <= alpha * w[i] / remaining)) break;
    rejected[i] = true;
    remaining -= w[i];
    if (remaining <= 0) remaining = w[i];  // every planned check rejected: the last divides by its own weight
  }
  return rejected;
}

double DetectableTv(int groups, double level, std::uint64_t n) {
  if (n == 0 || !(level > 0 && level < 1)) return 1;
  // One cell: the law is a point mass, and one output off it rejects (probability 0 at this
  // input); a deviation δ shows in n runs with probability 1 − (1 − δ)^n ≥ 0.99 once
  // δ ≥ 1 − 0.01^{1/n}.
  if (groups < 2) return -std::expm1(std::log(0.01) / static_cast<double>(n));
  const double df = groups - 1;
  const double crit = boost::math::quantile(boost::math::complement(boost::math::chi_squared(df), level));
  const double lambda = boost::math::non_central_chi_squared::find_non_centrality(df, crit, 0.01);
  return std::min(1.0, std::sqrt(lambda / (4.0 * static_cast<double>(n))));
}

double DetectableShift(double level, double sd, std::uint64_t n) {
  if (n == 0 || !(level > 0 && level < 1)) return INFINITY;
  const boost::math::normal z;
  const double k = boost::math::quantile(boost::math::complement(z, level / 2)) +
                   boost::math::quantile(boost::math::complement(z, 0.01));
  return k * sd / std::sqrt(static_cast<double>(n));
}

}  // namespace dpfl::check
