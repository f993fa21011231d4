// FL wiring mutants (label `mutants`; docs/mutants.md "FL wiring mutants").
//
// The quantizer catalog (mutant_test.cpp) plants faults in the quantizers; this one plants them
// in the code that wires the quantizers into a round: roles, pair and client keys, stream
// addresses per round/layer/client, aggregation. Each mutant is a one-line guarded block in
// production/src/fl/mechanisms.cpp or protocol.cpp, compiled only into the test-only library
// dpfl_fl_wiring_mutants (the same sources with DPFL_FL_WIRING_MUTANTS defined,
// tests/CMakeLists.txt), which only this executable links; production's dpfl_fl has no seam.
// The selector g_fl_wiring_mutant (tests/testing/fl_wiring_mutants.hpp) is defined here.
//
// For every mutant the harness of tests/testing/fl_round_harness.hpp runs once, unchanged:
// the statistical suite of fl_round_stat_test.cpp (α_suite = 1e-3, Holm over all its checks,
// N = 2^18 per per-layer check) and the six exact key-separation checks of
// fl_key_separation_test.cpp (K1–K6). Each test asserts that the detector that should catch
// its mutant does; UnmutatedWiringPassesEverything asserts that the real wiring passes the same
// checks. One row per mutant is printed for the docs table.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "testing/fl_round_harness.hpp"
#include "testing/fl_wiring_mutants.hpp"

// The selector read by the guarded blocks of the dpfl_fl_wiring_mutants library.
dpfl::testing::FlWiringMutant dpfl::testing::g_fl_wiring_mutant = dpfl::testing::FlWiringMutant::kNone;

namespace {

namespace fr = dpfl::testing::flround;
using dpfl::testing::FlWiringMutant;
using fr::Kind;

struct Outcome {
  fr::SuiteResult stat;
  std::vector<fr::ProtocolCheck> protocol;  // K1..K6 in RunProtocolChecks order
  std::string fixture_error;
  double seconds = 0;
  bool ProtocolFails(std::size_t k) const { return !protocol.at(k - 1).ok; }  // k = 1..6
  std::string FailingProtocol() const {
    std::string s;
    for (std::size_t k = 0; k < protocol.size(); ++k)
      if (!protocol[k].ok) s += (s.empty() ? "K" : ", K") + std::to_string(k + 1);
    return s.empty() ? "none" : s;
  }
};

Outcome RunWith(FlWiringMutant m, const char* name, const char* breaks) {
  const auto t0 = std::chrono::steady_clock::now();
  Outcome o;
  {
    const dpfl::testing::PlantedFlWiringMutant planted(m);
    o.stat = fr::RunRoundSuite();
    const fr::ProtocolFixture f = fr::MakeProtocolFixture();
    o.fixture_error = f.error;
    o.protocol = fr::RunProtocolChecks(f);
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Table row: mutant | breaks | statistical rejections (of m) by kind | failing exact checks |
  // strongest statistical check | statistic | p | N | time
  const fr::Check* s = o.stat.Strongest();
  std::printf("| %s | %s | %zu of %zu: %s | %s | %s (%s) | %.4g | %.3g | %zu | %.1f s |\n", name, breaks, o.stat.rejected,
              o.stat.checks.size(), o.stat.RejectedByKind().c_str(), o.FailingProtocol().c_str(),
              s ? fr::KindName(s->kind) : "-", s ? s->what.c_str() : "-", s ? s->statistic : 0.0, s ? s->p_value : 1.0,
              s ? s->n : std::size_t{0}, o.seconds);
  for (std::size_t k = 0; k < o.protocol.size(); ++k)
    if (!o.protocol[k].ok) std::printf("    K%zu fails: %s -- %s\n", k + 1, o.protocol[k].name.c_str(), o.protocol[k].detail.c_str());
  if (!o.stat.error.empty()) std::printf("    statistical suite stopped by an exception: %s\n", o.stat.error.c_str());
  return o;
}

void PrintStrongest(const Outcome& o, Kind k) {
  if (const fr::Check* c = o.stat.Strongest(k))
    std::printf("    strongest %s: %s, statistic %.4g, dof %d, p = %.3g, N = %zu (%zu of %zu rejected)\n", fr::KindName(k),
                c->what.c_str(), c->statistic, c->dof, c->p_value, c->n, o.stat.Rejected(k), o.stat.Count(k));
}

TEST(FlWiringMutants, UnmutatedWiringPassesEverything) {
  const Outcome o = RunWith(FlWiringMutant::kNone, "none (production wiring)", "-");
  ASSERT_TRUE(o.stat.error.empty()) << o.stat.error;
  ASSERT_TRUE(o.fixture_error.empty()) << o.fixture_error;
  ASSERT_TRUE(o.stat.dropout_precondition);
  EXPECT_EQ(o.stat.rejected, 0u) << o.stat.RejectedByKind();
  for (const fr::ProtocolCheck& c : o.protocol) EXPECT_TRUE(c.ok) << c.name << ": " << c.detail;
}

// (i) Both clients of a pair use the Q1 rule: the antithetic coupling becomes comonotone (an
// MSE above LDP-FL's); marginals stay LDPQ, so only joint-level checks can see it.
TEST(FlWiringMutants, BothRolesQ1IsCaught) {
  const Outcome o = RunWith(FlWiringMutant::kBothRolesQ1, "(i) `kBothRolesQ1`", "antithetic pair made comonotone");
  PrintStrongest(o, Kind::kPairJoint);
  PrintStrongest(o, Kind::kAggregateMse);
  EXPECT_GT(o.stat.Rejected(Kind::kPairJoint), 0u);
  EXPECT_GT(o.stat.Rejected(Kind::kAggregateMse), 0u);
  EXPECT_TRUE(o.ProtocolFails(1));
}

// (ii) The pair key is not derived per layer: every layer reuses the same Z.
TEST(FlWiringMutants, LayerlessPairKeyIsCaught) {
  const Outcome o = RunWith(FlWiringMutant::kLayerlessPairKey, "(ii) `kLayerlessPairKey`", "same Z in every layer");
  PrintStrongest(o, Kind::kLayerIndependence);
  EXPECT_GT(o.stat.Rejected(Kind::kLayerIndependence), 0u);
  EXPECT_TRUE(o.ProtocolFails(1));
  EXPECT_TRUE(o.ProtocolFails(2));
}

// (iii) The round is not in the stream addresses: the same uniforms every round.
TEST(FlWiringMutants, RoundNotInAddressIsCaught) {
  const Outcome o = RunWith(FlWiringMutant::kRoundNotInAddress, "(iii) `kRoundNotInAddress`", "same uniforms every round");
  PrintStrongest(o, Kind::kRoundIndependence);
  EXPECT_GT(o.stat.Rejected(Kind::kRoundIndependence), 0u);
  EXPECT_TRUE(o.ProtocolFails(2));
  EXPECT_TRUE(o.ProtocolFails(5));
}

// (iv) Q1/Q2 roles swapped relative to the pairing (consistently on both sides). The pair's
// law is unchanged (spec 000 §3.3 [DERIVED]; asserted exactly below), so no statistical test
// can see it: the exact checks do (roles do not follow the pairing; Q1's determined bits break).
TEST(FlWiringMutants, RolesSwappedIsCaughtByTheExactChecks) {
  // Law equivalence, exactly: joint(w1, w2) = transpose(joint(w2, w1)) for every pair of suite
  // weights and every d of the suite.
  const auto er = fr::SuiteExactRanges();
  for (int d : {3, 4, 5})
    for (std::size_t l : {std::size_t{0}, std::size_t{2}})
      for (std::size_t a = 0; a < fr::kU64.size(); ++a)
        for (std::size_t b = 0; b < fr::kU64.size(); ++b) {
          const auto& u = l == 0 ? fr::kU64 : fr::kV64;
          auto w = [&](std::size_t i) {
            return dpfl::testing::ClipExact(er[l].c + er[l].r * dpfl::ref::Rational(u[i], 64), er[l].c, er[l].r);
          };
          const auto x = dpfl::ref::EvaluateCorBinQ<dpfl::ref::Rational>(fr::SuiteE(), er[l].c, er[l].r, w(a), w(b), d,
                                                                         dpfl::ref::Line14::kCorrected);
          const auto y = dpfl::ref::EvaluateCorBinQ<dpfl::ref::Rational>(fr::SuiteE(), er[l].c, er[l].r, w(b), w(a), d,
                                                                         dpfl::ref::Line14::kCorrected);
          ASSERT_TRUE(x.joint.pp == y.joint.pp && x.joint.mm == y.joint.mm && x.joint.pm == y.joint.mp &&
                      x.joint.mp == y.joint.pm)
              << "d=" << d << " layer " << l << " clients " << a << "," << b;
        }
  const Outcome o = RunWith(FlWiringMutant::kRolesSwapped, "(iv) `kRolesSwapped`", "Q1/Q2 not the pairing's (law unchanged)");
  EXPECT_EQ(o.stat.rejected, 0u) << "a law-equivalent mutant flagged: " << o.stat.RejectedByKind();
  EXPECT_TRUE(o.ProtocolFails(1));
  EXPECT_TRUE(o.ProtocolFails(2));
}

// (v) One private-coin key shared by all clients: the law is unchanged (the addresses still
// differ by client), but anyone can recompute every client's coins.
TEST(FlWiringMutants, CommonPrivateKeyIsCaught) {
  const Outcome o = RunWith(FlWiringMutant::kCommonPrivateKey, "(v) `kCommonPrivateKey`", "private coins not secret");
  EXPECT_TRUE(o.ProtocolFails(3));
  EXPECT_TRUE(o.ProtocolFails(2));
}

// (vi) The server divides by n instead of the number of messages under dropout (Alg. 3 l.23 as
// printed; seed-000 E31).
TEST(FlWiringMutants, DivideByNIsCaught) {
  const Outcome o = RunWith(FlWiringMutant::kDivideByN, "(vi) `kDivideByN`", "E31: mean scaled by N/n under dropout");
  PrintStrongest(o, Kind::kAggregateBias);
  ASSERT_TRUE(o.stat.dropout_precondition);
  EXPECT_GT(o.stat.Rejected(Kind::kAggregateBias), 0u);
  for (const fr::Check& c : o.stat.checks) {  // only the dropout configuration has N < n
    if (c.rejected && c.kind == Kind::kAggregateBias) {
      EXPECT_NE(c.what.find("dropout"), std::string::npos) << c.what;
    }
  }
}

// (vii) Pair key hashed with the wrong role order on one side (self_is_q1 = true for both):
// the two clients get different keys, so Z is independent between them.
TEST(FlWiringMutants, PairKeyRoleOrderIsCaught) {
  const Outcome o = RunWith(FlWiringMutant::kPairKeyRoleOrder, "(vii) `kPairKeyRoleOrder`", "partners disagree on Z");
  PrintStrongest(o, Kind::kPairJoint);
  EXPECT_GT(o.stat.Rejected(Kind::kPairJoint), 0u);
  EXPECT_TRUE(o.ProtocolFails(1));
}

// (viii) A paired client's private coins keyed by the pair key: the partner can recompute them.
TEST(FlWiringMutants, PrivateCoinsFromPairKeyIsCaught) {
  const Outcome o = RunWith(FlWiringMutant::kPrivateCoinsFromPairKey, "(viii) `kPrivateCoinsFromPairKey`",
                        "partner recomputes the tie coins");
  EXPECT_TRUE(o.ProtocolFails(3));
}

// (ix) The private-coin key not derived per layer: a solo client's layers reuse the same coins.
TEST(FlWiringMutants, LayerlessPrivateKeyIsCaught) {
  const Outcome o = RunWith(FlWiringMutant::kLayerlessPrivateKey, "(ix) `kLayerlessPrivateKey`", "same private coins in every layer");
  PrintStrongest(o, Kind::kLayerIndependence);
  EXPECT_GT(o.stat.Rejected(Kind::kLayerIndependence), 0u);
  EXPECT_TRUE(o.ProtocolFails(2));
  EXPECT_TRUE(o.ProtocolFails(5));
}

// (x) The server's pairing/dropout stream without the round: the same pairing and the same
// absent clients every round.
TEST(FlWiringMutants, PairingNotPerRoundIsCaught) {
  const Outcome o = RunWith(FlWiringMutant::kPairingNotPerRound, "(x) `kPairingNotPerRound`", "same pairing and dropout every round");
  PrintStrongest(o, Kind::kPairingLaw);
  PrintStrongest(o, Kind::kPresenceLaw);
  EXPECT_GT(o.stat.Rejected(Kind::kPairingLaw), 0u);
  EXPECT_GT(o.stat.Rejected(Kind::kPresenceLaw), 0u);
}

}  // namespace
