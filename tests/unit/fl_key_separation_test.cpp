// Key separation in the FL protocol (label `unit`; docs/training.md "Threat model"): what the
// partner, the server, and both together can and cannot recompute, on the messages of real
// rounds (tests/testing/fl_round_harness.hpp: augcorbin-fl, n = 10, γ = 0.2, d = 3, dropout 0.2,
// rounds 0–2, three layers, so planned solo clients, lone dropout survivors and pairs all occur).
// The checks are exact (no statistics): each returns a verdict and a one-line account, which is
// printed. tests/mutants/fl_wiring_mutant_test.cpp runs the same checks with each FL wiring
// mutant planted (docs/mutants.md "FL wiring mutants").
//
// What the checks establish, precisely:
//  * The partner recomputes the pair's shared stream: PairKey(own secret, relayed announcement)
//    equals both clients' slot key; Z of layer l is at DeriveSubKey(pair key, "layer", l),
//    address {round, pair index, kSharedBits}; roles follow the pairing (first = Q1).
//  * Every bit of every message replays from the documented addresses (private coins at
//    DeriveSubKey(private_stream, "layer", l), {round, client, kPrivateCoin}), and the words at
//    those addresses are pairwise distinct across rounds, layers, clients and pairs: no two
//    encodings reuse uniforms.
//  * Nobody but the client recomputes its private coins: the public encoder run with any key
//    the partner, the server or another client holds gives a different message.
//  * The server cannot obtain a pair key: no PairKey computable from its view (SerializeView)
//    and its own key pairs equals it, and the view holds no secret or shared-stream word.
//  * Server + partner together recompute Z. Then, at the coordinates where z ≠ t1 (all but a
//    2^-d fraction), the Q1 bit is a deterministic function of z and the weight's cell. So the
//    per-message ε_p-PLDP guarantee holds against any observer who does not know Z (the server
//    alone, coalitions without the partner) but NOT against the server colluding with the
//    partner when d ≥ 1: conditional on Z the privacy loss is unbounded (exact, reference). The
//    private coins alone do not carry the guarantee. (docs/training.md's threat model lists the
//    honest-but-curious server alone; this coalition is outside it.)
#include <gtest/gtest.h>

#include <cstdio>

#include "testing/fl_round_harness.hpp"

namespace {

namespace fr = dpfl::testing::flround;

const fr::ProtocolFixture& Fixture() {
  static const fr::ProtocolFixture f = fr::MakeProtocolFixture();
  return f;
}

void Expect(const fr::ProtocolCheck& c) {
  std::printf("[key-separation] %s: %s -- %s\n", c.ok ? "PASS" : "FAIL", c.name.c_str(), c.detail.c_str());
  EXPECT_TRUE(c.ok) << c.name << ": " << c.detail;
}

TEST(FlKeySeparation, FixtureCoversPairsSoloClientsAndLoneSurvivors) {
  const fr::ProtocolFixture& f = Fixture();
  ASSERT_TRUE(f.error.empty()) << f.error;
  ASSERT_EQ(f.rounds.size(), 3u);
  std::size_t pairs = 0, planned_solo = 0, lone = 0, absent = 0;
  for (const fr::RoundRun& run : f.rounds) {
    const fr::Plan plan = fr::PlanOf(run.view);
    pairs += plan.pairs.size();
    absent += f.n - plan.present.size();
    for (std::uint32_t s : plan.solo) {
      const bool planned = std::find(run.view.pairing.solo.begin(), run.view.pairing.solo.end(), s) != run.view.pairing.solo.end();
      (planned ? planned_solo : lone) += 1;
    }
  }
  std::printf("[key-separation] fixture: %zu pairs, %zu planned solo, %zu lone survivors, %zu absent client-rounds\n", pairs,
              planned_solo, lone, absent);
  EXPECT_GT(pairs, 0u);
  EXPECT_GT(planned_solo, 0u);
  EXPECT_GT(lone, 0u);
  EXPECT_GT(absent, 0u);
}

TEST(FlKeySeparation, PartnerRecomputesTheSharedStream) { Expect(fr::CheckPartnerRecomputesSharedStream(Fixture())); }
TEST(FlKeySeparation, EveryBitReplaysFromDocumentedAddresses) {
  Expect(fr::CheckEveryBitReplaysFromDocumentedAddresses(Fixture()));
}
TEST(FlKeySeparation, OthersCannotRecomputePrivateCoins) { Expect(fr::CheckOthersCannotRecomputePrivateCoins(Fixture())); }
TEST(FlKeySeparation, ServerCannotObtainPairKey) { Expect(fr::CheckServerCannotObtainPairKey(Fixture())); }
TEST(FlKeySeparation, NoStreamWordsReused) { Expect(fr::CheckNoUniformsReused(Fixture())); }
TEST(FlKeySeparation, ServerWithPartnerLearnsTheCell) { Expect(fr::CheckCoalitionLearnsTheCell(Fixture())); }

}  // namespace
