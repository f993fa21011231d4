// The central view of the binary mechanisms (reference/include/dpfl/ref/pld_central.hpp): the
// exact dominating envelope against the curves it must dominate (exact rationals, every
// breakpoint and points between), the single-client case against randomized response, the
// envelope's ε against brute force over the product space of a realisable configuration, RDP of
// pmf pairs against the RR closed form, and the AugCorBin-FL setting where no finite ε exists.
#include <gtest/gtest.h>

#include <random>

#include "dpfl/ref/pld_central.hpp"
#include "dpfl/ref/randomized_response.hpp"

namespace {

using dpfl::ref::Enclosure;
using dpfl::ref::Interval;
using dpfl::ref::Rational;
namespace pld = dpfl::ref::pld;

Rational R(const std::string& s) { return dpfl::ref::ParseRational(s, "test"); }

// A random pmf with small rational entries (denominator 60), some zeros.
std::vector<Rational> RandomPmf(std::mt19937_64& g, std::size_t n, bool allow_zero) {
  std::uniform_int_distribution<int> u(allow_zero ? 0 : 1, 9);
  std::vector<int> w(n);
  int total = 0;
  for (int& x : w) total += (x = u(g));
  if (total == 0) {
    w[0] = 1;
    total = 1;
  }
  std::vector<Rational> p;
  for (int x : w) p.push_back(Rational(x, total));
  return p;
}

std::vector<Rational> TestPoints(const std::vector<pld::PmfPair>& pairs) {
  std::vector<Rational> xs = {R("0"), R("1/1000"), R("1"), R("1000")};
  for (const auto& pr : pairs)
    for (std::size_t i = 0; i < pr.p.size(); ++i)
      if (pr.q[i] > 0) {
        const Rational r = pr.p[i] / pr.q[i];
        xs.push_back(r);
        xs.push_back(r * R("1.01"));
        xs.push_back(r * R("0.99"));
      }
  return xs;
}

TEST(PldEnvelope, DominatesEveryCurveAndEqualsTheirMaxAtBreakpoints) {
  std::mt19937_64 g(42);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<pld::PmfPair> pairs;
    const std::size_t n = 2 + trial % 4;
    for (int j = 0; j < 3; ++j) pairs.push_back({RandomPmf(g, n, true), RandomPmf(g, n, j == 0)});
    const pld::PmfPair env = pld::DominatingEnvelope(pairs);
    Rational sp = 0, sq = 0;
    for (std::size_t i = 0; i < env.p.size(); ++i) {
      sp += env.p[i];
      sq += env.q[i];
    }
    EXPECT_EQ(sp, 1);
    EXPECT_EQ(sq, 1);
    for (const Rational& x : TestPoints(pairs)) {
      Rational best = 0;
      for (const auto& pr : pairs) best = dpfl::ref::Max(best, pld::HockeyStick(pr, x));
      EXPECT_GE(pld::HockeyStick(env, x), best) << "trial " << trial << " x = " << dpfl::ref::ToExactString(x);
    }
    // At every breakpoint of the curves the envelope is their maximum exactly (chords meet there).
    for (const auto& pr : pairs)
      for (std::size_t i = 0; i < pr.p.size(); ++i)
        if (pr.p[i] > 0 && pr.q[i] > 0) {
          const Rational x = pr.p[i] / pr.q[i];
          Rational best = 0;
          for (const auto& other : pairs) best = dpfl::ref::Max(best, pld::HockeyStick(other, x));
          EXPECT_EQ(pld::HockeyStick(env, x), best);
        }
  }
}

TEST(PldEnvelope, OfOnePairIsTheSameCurve) {
  const pld::PmfPair pair{{R("1/2"), R("1/3"), R("1/6"), R("0")}, {R("1/4"), R("1/4"), R("0"), R("1/2")}};
  const pld::PmfPair env = pld::DominatingEnvelope({pair});
  for (const Rational& x : TestPoints({pair})) EXPECT_EQ(pld::HockeyStick(env, x), pld::HockeyStick(pair, x));
}

// One client, solo: the aggregate is its own LDPQ bit, a randomized response with keep
// probability E/(1+E) (both directions); the envelope's curve must be exactly that curve.
TEST(PldCentral, SingleSoloClientIsRandomizedResponse) {
  const Rational E = R("3");
  pld::CentralBinarySetting s;
  s.clients = 1;
  s.solo = 1;
  s.q_lo = 1 / (1 + E);
  s.q_hi = E / (1 + E);
  const pld::PmfPair env = pld::CentralCoordinatePair(s);
  const pld::PmfPair rr{{s.q_hi, s.q_lo}, {s.q_lo, s.q_hi}};
  for (const Rational& x : TestPoints({rr})) EXPECT_EQ(pld::HockeyStick(env, x), pld::HockeyStick(rr, x));
}

// Brute force: 3 solo clients, one configuration an adversary can realise (the two others at
// q_hi), composed K = 2 times: δ over the product space, exact in e^ε enclosed, must not exceed
// what the certified upper end allows, i.e. δ_config(ε_hi) ≤ δ, and δ_config(ε_lo) ≥ δ must fail
// to be contradicted (ε_lo is at most the configuration's own ε).
TEST(PldCentral, EnclosureIsConsistentWithBruteForceOverARealisableConfiguration) {
  const Rational E = R("2");
  pld::CentralBinarySetting s;
  s.clients = 3;
  s.solo = 3;
  s.q_lo = 1 / (1 + E);
  s.q_hi = E / (1 + E);
  s.coordinates = 2;
  s.rounds = 1;
  const Rational delta = R("0.01");
  const pld::CentralResult r = pld::CentralBinaryEpsilon(s, delta);
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi);
  // Configuration: others both at q_hi; target q_hi vs q_lo. Count of "+" in {0..3}.
  const std::vector<Rational> others = {(1 - s.q_hi) * (1 - s.q_hi), 2 * s.q_hi * (1 - s.q_hi), s.q_hi * s.q_hi};
  std::vector<Rational> P(4, Rational(0)), Q(4, Rational(0));
  for (int k = 0; k < 3; ++k) {
    P[k] += (1 - s.q_hi) * others[k];
    P[k + 1] += s.q_hi * others[k];
    Q[k] += (1 - s.q_lo) * others[k];
    Q[k + 1] += s.q_lo * others[k];
  }
  // δ of the configuration (both directions, K = 2, product space) with e^ε at one end of its
  // enclosure: the lower end of e^ε gives an upper bound of δ, the upper end a lower bound.
  auto delta_at = [&](const Rational& eps, bool upper_bound) {
    Rational worst = 0;
    const Interval e = dpfl::ref::ToInterval(dpfl::ref::ExpQ(128, eps));
    const Rational x = upper_bound ? e.lo() : e.hi();
    for (int dir = 0; dir < 2; ++dir) {
      const auto& A = dir == 0 ? P : Q;
      const auto& B = dir == 0 ? Q : P;
      Rational d = 0;
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
          const Rational t = A[i] * A[j] - x * B[i] * B[j];
          if (t > 0) d += t;
        }
      worst = dpfl::ref::Max(worst, d);
    }
    return worst;
  };
  // The certified upper end covers this configuration: δ_config(ε_hi) ≤ δ.
  EXPECT_LE(delta_at(*r.epsilon.hi, true), delta) << "the configuration violates the certified upper end";
  // The lower end comes from realisable configurations (this one and its mirror image), so it
  // cannot exceed this configuration's own ε: δ_config(ε_lo) ≥ δ.
  EXPECT_GE(delta_at(*r.epsilon.lo, false), delta) << "the lower end exceeds a realisable configuration's epsilon";
}

TEST(PldCentral, RenyiDivergenceOfAPairMatchesRandomizedResponseClosedForm) {
  const Rational p = R("0.7");
  const pld::PmfPair rr{{p, Rational(1 - p)}, {Rational(1 - p), p}};
  for (const char* a : {"1.5", "2", "7"}) {
    const Interval mine = dpfl::ref::ToInterval(*pld::RenyiDivergence(rr, R(a), 200));
    const Interval closed = dpfl::ref::RrRdp(p, R(a), 200);
    EXPECT_LE(mine.lo(), closed.hi()) << a;
    EXPECT_GE(mine.hi(), closed.lo()) << a;
  }
  const pld::PmfPair inf{{R("1/2"), R("1/2")}, {R("1"), R("0")}};
  EXPECT_FALSE(pld::RenyiDivergence(inf, R("2")).has_value());
}

// AugCorBin-FL with 10 clients, 2 solo, ε_p = 2, 4810 parameters, 2 rounds (the e2e setting):
// an adversary realises a per-coordinate infinite loss with probability (q_hi − 1/2)·q_hi², so no
// finite ε exists at δ = 1e-5 — and both ends say so.
TEST(PldCentral, AugCorBinFlAtTenClientsHasNoFiniteEpsilon) {
  const Rational E = R("7.389056");
  pld::CentralBinarySetting s;
  s.clients = 10;
  s.solo = 2;
  s.q_lo = 1 / (1 + E);
  s.q_hi = E / (1 + E);
  s.coordinates = 4810;
  s.rounds = 2;
  s.shared_bits = 16;
  const pld::CentralResult r = pld::CentralBinaryEpsilon(s, R("1e-5"));
  EXPECT_FALSE(r.epsilon.lo.has_value());
  EXPECT_FALSE(r.epsilon.hi.has_value());
  EXPECT_EQ(r.infinite_mass_upper, s.q_hi * s.q_hi);  // the envelope's atom: R at its top
}

TEST(PldCentral, BadSettingsAreNamed) {
  auto names = [](pld::CentralBinarySetting s, const std::string& arg) {
    try {
      pld::CentralCoordinatePair(s);
      ADD_FAILURE() << "no throw for " << arg;
    } catch (const dpfl::InvalidArgument& e) {
      EXPECT_EQ(e.argument(), arg);
    }
  };
  pld::CentralBinarySetting ok;
  ok.clients = 4;
  ok.solo = 4;
  ok.q_lo = R("1/4");
  ok.q_hi = R("3/4");
  auto with = [&](auto f) {
    pld::CentralBinarySetting s = ok;
    f(s);
    return s;
  };
  names(with([](auto& s) { s.clients = 0; }), "clients");
  names(with([](auto& s) { s.solo = 5; }), "solo");
  names(with([](auto& s) { s.q_lo = R("0.6"); }), "q_lo");
  names(with([](auto& s) { s.q_hi = R("1"); }), "q_hi");
  names(with([](auto& s) { s.clients = 200; s.solo = 101; }), "solo");
  names(with([](auto& s) { s.solo = 3; }), "solo");  // one paired client cannot exist
}

}  // namespace
