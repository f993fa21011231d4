// The central view with many solo clients (pld_central.hpp "Many solo clients"): the Hoeffding
// split of the solo count against the exact law, the fair-coin bound against every end
// configuration's exact hockey-stick value, and the enclosure above kCentralMaxSolo without
// dropout against the exact bottom-end configuration from both sides.
#include <gtest/gtest.h>

#include "dpfl/ref/pld_central.hpp"

namespace {

using dpfl::ref::Interval;
using dpfl::ref::Rational;
namespace pld = dpfl::ref::pld;

Rational R(const std::string& s) { return dpfl::ref::ParseRational(s, "test"); }

// e^ε enclosed; `for_upper_bound_of_delta` takes its lower end (δ is decreasing in x).
Rational ExpEnd(const Rational& eps, bool for_upper_bound_of_delta) {
  const Interval e = dpfl::ref::ToInterval(dpfl::ref::ExpQ(128, eps));
  return for_upper_bound_of_delta ? e.lo() : e.hi();
}

// The split at the Hoeffding floor L never moves mass to more solo clients: for CorBin-FL with
// n = 2002, p = 1/2 the exact law of the other solo count (Bin(1000, 1/2)) gives, per role,
// weight("at least L") ≤ w·P(X ≥ L) and weight("at least L") + weight(remainder) = w·P(X > 48).
TEST(PldCentralDropout, HoeffdingSplitIsBelowTheExactLaw) {
  pld::CentralBinarySetting st;
  st.clients = 2002;
  st.solo = 0;
  st.dropout = R("1/2");
  std::vector<Rational> exact(1001);  // P(X = i), X ~ Bin(1000, 1/2): lone survivors of 1000 pairs
  Rational c = dpfl::ref::Pow2(-1000);
  for (long i = 0; i <= 1000; ++i) {
    exact[static_cast<std::size_t>(i)] = c;
    c = c * Rational(1000 - i, i + 1);
  }
  auto at_least = [&](long l) {
    Rational t = 0;
    for (long i = std::max(0L, l); i <= 1000; ++i) t += exact[static_cast<std::size_t>(i)];
    return t;
  };
  int checked = 0;
  for (bool solo : {true, false}) {
    const Rational w = R("1/4");  // present (1/2) × partner absent / present (1/2)
    Rational big = 0, rest = 0;
    long floor_l = 0, ceil_u = 0;
    for (const pld::DropoutPattern& pt : pld::DropoutPatterns(st)) {
      if (!pt.present || pt.solo != solo || !pt.or_more) continue;
      if (pt.other_solo > pld::kDropoutExactSolo + 1) {
        big = pt.weight;
        floor_l = pt.other_solo;
        ceil_u = pt.at_most;
      } else {
        rest = pt.weight;
      }
    }
    ASSERT_GT(floor_l, 192) << solo;
    EXPECT_LE(big, w * at_least(floor_l)) << solo;
    EXPECT_EQ(big + rest, w * at_least(pld::kDropoutExactSolo + 1)) << solo;
    // The lower end's ceiling: the mass above it is below 2^-64 of the role's.
    EXPECT_LE(at_least(ceil_u + 1), pld::kManySoloTail) << solo;
    EXPECT_LE(Rational(1) - at_least(floor_l), pld::kManySoloTail) << solo;
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// The fair-coin bound dominates every configuration of the other solo clients' inputs at the ends
// (R_a = Bin(a, q_hi) + Bin(L − a, q_lo)), for both roles: its upper δ(ε) is at least each
// configuration's exact hockey-stick value (L = 300, ε_p = 1; pld_central.hpp "Many solo clients").
TEST(PldCentralDropout, ManySoloPairDominatesEveryEndConfiguration) {
  const pld::QuantizedEnds ends = pld::EndsForEpsilon(R("1"));
  const long L = 300;
  const pld::GridOptions grid{R("1/65536"), 1e-18, 64};
  auto bin = [](long k, const Rational& q) {
    std::vector<Rational> b(static_cast<std::size_t>(k + 1));
    Rational c = 1;
    for (long i = 0; i < k; ++i) c *= (1 - q);
    const Rational r = q / (1 - q);
    for (long i = 0; i <= k; ++i) {
      b[static_cast<std::size_t>(i)] = c;
      if (i < k) c = c * Rational(k - i, i + 1) * r;
    }
    return b;
  };
  auto conv = [](const std::vector<Rational>& a, const std::vector<Rational>& b) {
    std::vector<Rational> c(a.size() + b.size() - 1, Rational(0));
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i] != 0)
        for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
    return c;
  };
  for (bool solo : {true, false}) {
    const pld::Pld bound = pld::ManySoloPairPld(solo, L, ends.q_lo, ends.q_hi, grid);
    for (long a : {0L, L / 2, L}) {
      const std::vector<Rational> r = conv(bin(a, ends.q_hi), bin(L - a, ends.q_lo));
      const std::vector<Rational> p0 = solo ? std::vector<Rational>{Rational(1 - ends.q_hi), ends.q_hi}
                                            : std::vector<Rational>{Rational(0), Rational(1)};
      const std::vector<Rational> q0 = solo ? std::vector<Rational>{Rational(1 - ends.q_lo), ends.q_lo}
                                            : std::vector<Rational>{Rational(1), Rational(0)};
      const pld::PmfPair pair{conv(p0, r), conv(q0, r)};
      for (const char* e : {"0.02", "0.1", "0.2", "0.3"}) {
        const Rational truth = pld::HockeyStick(pair, ExpEnd(R(e), false));  // e^ε rounded up: δ rounded down
        const pld::DeltaBounds b = pld::DeltaForEpsilon(bound, R(e));
        EXPECT_GE(b.hi, truth) << (solo ? "solo" : "paired") << " a " << a << " eps " << e;
      }
    }
  }
}

// Above kCentralMaxSolo without dropout (LDP-FL, n = s = 600, m = 1; 599 others: the fair-coin
// bound with K* = 206 coins, not the last level's envelope): the enclosure against the
// exact configuration "every other client at q_lo", which is both the lower end's pair and one of
// the worst-case candidates: δ_config(ε_hi) ≤ δ ≤ δ_config(ε_lo), with e^ε rounded so that each
// comparison is conservative.
TEST(PldCentralDropout, ManySoloWithoutDropoutEnclosesTheBottomEndConfiguration) {
  const pld::QuantizedEnds ends = pld::EndsForEpsilon(R("1"));
  pld::CentralBinarySetting s;
  s.clients = 600;
  s.solo = 600;
  s.q_lo = ends.q_lo;
  s.q_hi = ends.q_hi;
  const Rational delta = R("1e-5");
  const pld::CentralResult r = pld::CentralBinaryEpsilon(s, delta);
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi);
  EXPECT_GT(*r.epsilon.lo, 0);
  EXPECT_LE(*r.epsilon.lo, *r.epsilon.hi);
  std::vector<Rational> noise(600);  // Bin(599, q_lo) by the ratio recurrence
  noise[0] = 1;
  for (int i = 0; i < 599; ++i) noise[0] *= 1 - ends.q_lo;
  for (long i = 0; i < 599; ++i) noise[static_cast<std::size_t>(i + 1)] =
      noise[static_cast<std::size_t>(i)] * Rational(599 - i, i + 1) * ends.q_lo / (1 - ends.q_lo);
  pld::PmfPair config;
  config.p.assign(noise.size() + 1, Rational(0));
  config.q.assign(noise.size() + 1, Rational(0));
  for (std::size_t j = 0; j < noise.size(); ++j) {
    config.p[j] += noise[j] * (1 - ends.q_hi);
    config.p[j + 1] += noise[j] * ends.q_hi;
    config.q[j] += noise[j] * (1 - ends.q_lo);
    config.q[j + 1] += noise[j] * ends.q_lo;
  }
  EXPECT_LE(pld::HockeyStick(config, ExpEnd(*r.epsilon.hi, true)), delta) << "the upper end is below a configuration";
  EXPECT_GE(pld::HockeyStick(config, ExpEnd(*r.epsilon.lo, false)), delta) << "the lower end is not realised";
}

}  // namespace
