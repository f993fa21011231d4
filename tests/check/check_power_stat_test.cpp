// The power statement of `dpfl check` holds (docs/check.md "Statistics"): an implementation whose
// law at every input is off by exactly the total variation the report says is detected with
// probability >= 0.99 (or whose first output is biased by exactly the reported bias) has that
// check rejected at at least 99 % of the inputs. LDPQ with q shifted by δ (toward 1/2 + the
// shift's sign): TV = δ on the two cells, bias = 2rα·δ.
//
// Statistics: T trials (run × design input) of one check each, independent (disjoint runs). If
// the power is >= 0.99 the misses are stochastically below Binomial(T, 0.01); the test fails if
// more than ceil(0.01 T + 5 sqrt(0.01 T)) + 5 are missed (false alarm < 1e-5 by the Chernoff
// bound). Fixed seeds. The same sampler without a shift is the negative control: it must not be
// rejected more often than α allows (0 rejections in these runs, false alarm of that assertion
// ≤ runs·α = 0.03).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <cstdio>
#include <random>

#include "conformance.hpp"

namespace dpfl::check {
namespace {

const std::map<std::string, std::string> kLdpq = {{"eps", "1"}, {"c", "0"}, {"r", "1"}};

Sampler Shifted(std::uint64_t seed, double delta) {
  auto rng = std::make_shared<std::mt19937_64>(seed);
  return [rng, delta](std::span<const double> x, std::uint64_t n) {
    const double e = std::exp(1.0), alpha = (e + 1) / (e - 1);
    const double w = std::clamp(x[0], -1.0, 1.0);
    const double q = std::clamp(0.5 + w / (2 * alpha) + delta, 0.0, 1.0);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<std::vector<double>> rows;
    for (std::uint64_t i = 0; i < n; ++i) rows.push_back({u(*rng) < q ? alpha : -alpha});
    return rows;
  };
}

CheckOptions Options(std::uint64_t seed) {
  CheckOptions o;
  o.samples = 4000;
  o.search_stages = 0;
  o.seed = seed;
  return o;
}

// Misses of `check` at inputs whose shifted q stays inside [0, 1] (the shift is then exact).
struct Tally {
  int trials = 0, misses = 0;
};

void Count(const CheckReport& r, const std::string& check, Tally& t) {
  for (const CheckResult& c : r.checks) {
    if (c.name != check || c.phase != "design") continue;
    ++t.trials;
    if (!c.rejected) ++t.misses;
  }
}

int AllowedMisses(int trials) {
  const double m = 0.01 * trials;
  return static_cast<int>(std::ceil(m + 5 * std::sqrt(m))) + 5;
}

TEST(CheckPower, ReportedTotalVariationIsDetected) {
  const double tv = RunCheck("ldpq", kLdpq, Shifted(1, 0), Options(1)).power.front().tv;
  ASSERT_GT(tv, 0.0);
  ASSERT_LT(tv, 0.1);
  Tally t;
  for (std::uint64_t s = 1; s <= 30; ++s) Count(RunCheck("ldpq", kLdpq, Shifted(100 + s, -tv), Options(s)), "law", t);
  EXPECT_GT(t.trials, 300);
  std::printf("law at TV %.4f: %d of %d trials missed (power %.4f)\n", tv, t.misses, t.trials,
              1.0 - static_cast<double>(t.misses) / t.trials);
  EXPECT_LE(t.misses, AllowedMisses(t.trials)) << t.misses << " of " << t.trials << " missed at TV " << tv;
}

TEST(CheckPower, ReportedBiasIsDetected) {
  const CheckReport base = RunCheck("ldpq", kLdpq, Shifted(1, 0), Options(1));
  double bias = 0;
  for (const InputPower& p : base.power) bias = std::max(bias, p.bias);
  const double e = std::exp(1.0), alpha = (e + 1) / (e - 1);
  Tally t;
  for (std::uint64_t s = 1; s <= 30; ++s)
    Count(RunCheck("ldpq", kLdpq, Shifted(200 + s, -bias / (2 * alpha)), Options(s)), "bias[0]", t);
  EXPECT_GT(t.trials, 300);
  std::printf("bias %.4f: %d of %d trials missed (power %.4f)\n", bias, t.misses, t.trials,
              1.0 - static_cast<double>(t.misses) / t.trials);
  EXPECT_LE(t.misses, AllowedMisses(t.trials)) << t.misses << " of " << t.trials << " missed at bias " << bias;
}

TEST(CheckPower, UnshiftedIsNotRejected) {
  for (std::uint64_t s = 1; s <= 30; ++s) {
    const CheckReport r = RunCheck("ldpq", kLdpq, Shifted(300 + s, 0), Options(s));
    EXPECT_TRUE(r.Conformant()) << "seed " << s << "\n" << ReportText(r);
  }
}

}  // namespace
}  // namespace dpfl::check
