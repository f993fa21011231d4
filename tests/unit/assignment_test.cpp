// Per-round assignment (pairing, solo clients, dropout) and the CQ baseline.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/protocol/assignment.hpp"
#include "dpfl/quant/cq.hpp"

namespace dpfl::protocol {
namespace {

quant::StreamContext Context(std::uint32_t round) {
  quant::StreamContext ctx;
  for (int i = 0; i < 8; ++i) ctx.key.words[i] = 0xA5A5A5A5u ^ static_cast<std::uint32_t>(i * 977);
  ctx.round = round;
  return ctx;
}

TEST(DrawAssignment, EveryClientExactlyOnceWithTheRequestedSoloCount) {
  for (std::uint32_t n : {1u, 2u, 7u, 10u, 100u})
    for (double gamma : {0.0, 0.2, 0.5, 1.0}) {
      const Assignment a = DrawAssignment(n, gamma, Context(3));
      std::multiset<std::uint32_t> seen(a.solo.begin(), a.solo.end());
      for (const auto& [x, y] : a.pairs) {
        seen.insert(x);
        seen.insert(y);
      }
      ASSERT_EQ(seen.size(), n);
      for (std::uint32_t i = 0; i < n; ++i) EXPECT_EQ(seen.count(i), 1u);
      std::uint32_t expected_solo = static_cast<std::uint32_t>(std::llround(gamma * n));
      if ((n - expected_solo) % 2 == 1) ++expected_solo;
      EXPECT_EQ(a.solo.size(), expected_solo) << n << " " << gamma;
    }
  EXPECT_THROW(DrawAssignment(0, 0.0, Context(0)), InvalidArgument);
  EXPECT_THROW(DrawAssignment(4, 1.5, Context(0)), InvalidArgument);
  EXPECT_THROW(DrawAssignment(4, std::nan(""), Context(0)), InvalidArgument);
}

// The pairing of 4 clients is uniform over the 3 perfect matchings × role orders: chi-square
// over the 3 matchings (roles ignored) from 3000 rounds; α = 1e-4, df = 2 (critical value from
// Boost.Math at run time).
TEST(DrawAssignment, MatchingOfFourIsUniform) {
  std::map<std::set<std::set<std::uint32_t>>, int> counts;
  const int rounds = 3000;
  for (int t = 0; t < rounds; ++t) {
    const Assignment a = DrawAssignment(4, 0.0, Context(static_cast<std::uint32_t>(t)));
    std::set<std::set<std::uint32_t>> m;
    for (const auto& [x, y] : a.pairs) m.insert({x, y});
    ++counts[m];
  }
  ASSERT_EQ(counts.size(), 3u);
  double chi2 = 0;
  for (const auto& [m, k] : counts) chi2 += std::pow(k - rounds / 3.0, 2) / (rounds / 3.0);
  const double critical = boost::math::quantile(boost::math::complement(boost::math::chi_squared(2), 1e-4));
  EXPECT_LT(chi2, critical);
}

TEST(DrawPresence, RateAndDegradationToLdpq) {
  const std::uint32_t n = 20000;
  const std::vector<bool> present = DrawPresence(n, 0.3, Context(1));
  const double absent = static_cast<double>(std::count(present.begin(), present.end(), false));
  // Binomial(20000, 0.3): sd ≈ 64.8; |z| < 4.9 has false-alarm probability < 1e-6.
  EXPECT_LT(std::abs(absent - 0.3 * n) / std::sqrt(n * 0.3 * 0.7), 4.9);
  const Assignment planned{{{0, 1}, {2, 3}, {4, 5}}, {6}};
  const std::vector<bool> mask = {true, false, false, false, true, true, true};
  const EffectiveAssignment eff = ApplyDropout(planned, mask);
  EXPECT_EQ(eff.survivors, 4u);
  ASSERT_EQ(eff.assignment.pairs.size(), 1u);
  EXPECT_EQ(eff.assignment.pairs[0], std::make_pair(4u, 5u));
  EXPECT_EQ(std::set<std::uint32_t>(eff.assignment.solo.begin(), eff.assignment.solo.end()),
            (std::set<std::uint32_t>{6, 0}));
  EXPECT_THROW(DrawPresence(3, 1.0, Context(0)), InvalidArgument);
  EXPECT_THROW(DrawPresence(3, -0.1, Context(0)), InvalidArgument);
}

TEST(Cq, PermutationIsAPermutationAndUniformForThree) {
  std::map<std::vector<std::uint32_t>, int> counts;
  std::vector<std::uint32_t> perm(3);
  const int draws = 6000;
  for (int j = 0; j < draws; ++j) {
    quant::CqPermutation(3, static_cast<std::uint64_t>(j), Context(2), perm);
    ++counts[perm];
  }
  ASSERT_EQ(counts.size(), 6u);
  double chi2 = 0;
  for (const auto& [p, k] : counts) chi2 += std::pow(k - draws / 6.0, 2) / (draws / 6.0);
  EXPECT_LT(chi2, boost::math::quantile(boost::math::complement(boost::math::chi_squared(5), 1e-4)));
}

TEST(Cq, MarginalsMatchPAndTheMeanIsUnbiased) {
  // 4 clients, m = 20000 coordinates with the same inputs: each client's bit is Bernoulli(p_i)
  // (binomial z-test, |z| < 5: false alarm < 6e-7 per client), and the decoded mean is unbiased.
  const std::uint32_t n = 4;
  const std::size_t m = 20000;
  const quant::CqRange range = quant::MakeCqRange(0.0, 1.0);
  const float w[4] = {-0.5f, 0.25f, 0.9f, 2.0f /* clipped to 1 */};
  std::vector<float> weights(n * m);
  for (std::uint32_t i = 0; i < n; ++i) std::fill(weights.begin() + i * m, weights.begin() + (i + 1) * m, w[i]);
  std::vector<std::uint64_t> bits(n * quant::PackedWords(m));
  quant::EncodeCq(range, n, weights, m, Context(5), bits);
  for (std::uint32_t i = 0; i < n; ++i) {
    const double p = (std::min(w[i], 1.0f) + 1.0) / 2.0;
    double ones = 0;
    for (std::size_t j = 0; j < m; ++j) ones += static_cast<double>((bits[i * quant::PackedWords(m) + j / 64] >> (j % 64)) & 1u);
    if (p == 1.0) {
      EXPECT_EQ(ones, static_cast<double>(m));
    } else {
      EXPECT_LT(std::abs(ones - p * m) / std::sqrt(m * p * (1 - p)), 5.0) << i;
    }
  }
  // Exact law of the per-coordinate count of ones: enumerate the 4! strata assignments; given
  // the strata, bit i is Bernoulli(clamp(n·p_i − π(i), 0, 1)) independently. Exact rationals.
  using Q = boost::multiprecision::cpp_rational;
  const Q p_exact[4] = {Q(1, 4), Q(5, 8), Q(19, 20), Q(1)};
  std::vector<std::uint32_t> s = {0, 1, 2, 3};
  Q mean_exact = 0, second_exact = 0;
  int perms = 0;
  do {
    Q a[4], mean_s = 0, second_s = 0;
    for (int i = 0; i < 4; ++i) {
      Q x = 4 * p_exact[i] - static_cast<int>(s[static_cast<std::size_t>(i)]);
      a[i] = x < 0 ? Q(0) : (x > 1 ? Q(1) : x);
      mean_s += a[i];
    }
    second_s = mean_s * mean_s;
    for (int i = 0; i < 4; ++i) second_s += a[i] - a[i] * a[i];
    mean_exact += mean_s;
    second_exact += second_s;
    ++perms;
  } while (std::next_permutation(s.begin(), s.end()));
  mean_exact /= perms;
  second_exact /= perms;
  const double var_exact = static_cast<double>(Q(second_exact - mean_exact * mean_exact));
  double sum = 0, sum2 = 0, sum4 = 0;
  std::vector<int> counts(m);
  for (std::size_t j = 0; j < m; ++j) {
    int count = 0;
    for (std::uint32_t i = 0; i < n; ++i) count += static_cast<int>((bits[i * quant::PackedWords(m) + j / 64] >> (j % 64)) & 1u);
    counts[j] = count;
    sum += count;
  }
  const double mean_emp = sum / m;
  for (int c : counts) {
    sum2 += (c - mean_emp) * (c - mean_emp);
    sum4 += std::pow(c - mean_emp, 4);
  }
  const double var_emp = sum2 / m, mu4 = sum4 / m;
  // Unbiased mean: E count = Σ p_i exactly; |z| < 5 (false alarm < 6e-7).
  EXPECT_EQ(mean_exact, Q(113, 40));
  EXPECT_LT(std::abs(mean_emp - 113.0 / 40) / std::sqrt(var_exact / m), 5.0);
  // Variance of the count: z-test with sd ≈ sqrt((μ4 − σ⁴)/m), |z| < 5.
  EXPECT_LT(std::abs(var_emp - var_exact) / std::sqrt((mu4 - var_emp * var_emp) / m), 5.0)
      << var_emp << " vs exact " << var_exact;
  // Stratification lowers the variance below independent coins' Σ p(1−p) = 0.469375.
  EXPECT_LT(var_exact, 0.469375);
  EXPECT_THROW(quant::MakeCqRange(0.0, 0.0), InvalidArgument);
  std::vector<float> bad(weights);
  bad[3] = std::nanf("");
  EXPECT_THROW(quant::EncodeCq(range, n, bad, m, Context(5), bits), InvalidArgument);
}

}  // namespace
}  // namespace dpfl::protocol
