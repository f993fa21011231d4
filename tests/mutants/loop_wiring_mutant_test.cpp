// Loop wiring mutants of the update-based loops (label `mutants`; docs/mutants.md "Loop wiring
// mutants").
//
// Each mutant is a one-line guarded block in production/src/fl/qgauss_training.cpp (seed 003),
// cepam_training.cpp / cepam_uplink.cpp (seed 002) or bnn_training.cpp (seed 004), compiled only
// into the test-only library dpfl_fl_wiring_mutants (the same sources with DPFL_FL_WIRING_MUTANTS
// defined, tests/CMakeLists.txt), which only the mutant tests link; production's dpfl_fl has no
// seam (ctest dpfl_fl_has_no_wiring_seam). The selector g_fl_wiring_mutant
// (tests/testing/fl_wiring_mutants.hpp) is defined here.
//
// For every mutant the suite of its loop (tests/testing/loop_wiring_{qgauss,cepam,bnn}.hpp) runs
// once, unchanged, exactly as loop_wiring_stat_test.cpp runs it (α_suite = 1e-3, Holm over the
// loop's checks). Each test asserts that every detector named for its mutant rejects;
// UnmutatedLoopsPassEverything asserts that the same library with no mutant selected is not
// flagged. One table row per mutant is printed for docs/mutants.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "testing/fl_wiring_mutants.hpp"
#include "testing/loop_wiring_bnn.hpp"
#include "testing/loop_wiring_cepam.hpp"
#include "testing/loop_wiring_qgauss.hpp"

// The selector read by the guarded blocks of the dpfl_fl_wiring_mutants library.
dpfl::testing::FlWiringMutant dpfl::testing::g_fl_wiring_mutant = dpfl::testing::FlWiringMutant::kNone;

namespace {

namespace lw = dpfl::testing::loopwiring;
using dpfl::testing::FlWiringMutant;
using lw::Kind;

enum class Loop { kQgauss, kCepam, kBnn };

lw::SuiteResult RunSuite(Loop loop) {
  switch (loop) {
    case Loop::kQgauss: return lw::RunQgaussLoopSuite();
    case Loop::kCepam: return lw::RunCepamLoopSuite();
    case Loop::kBnn: return lw::RunBnnLoopSuite();
  }
  return {};
}

struct Mutant {
  const char* id;
  FlWiringMutant mutant;
  Loop loop;
  const char* breaks;
  std::vector<Kind> caught_by;  // every one of these detectors must reject
};

const std::vector<Mutant>& Catalog() {
  static const std::vector<Mutant> catalog = {
      {"Q1 `kQgaussRoundFixed`", FlWiringMutant::kQgaussRoundFixed, Loop::kQgauss, "noise and rounding coins repeat every round",
       {Kind::kRounds, Kind::kReplay}},
      {"Q2 `kQgaussSharedClientKey`", FlWiringMutant::kQgaussSharedClientKey, Loop::kQgauss,
       "one key for all clients (addresses still differ by entity)", {Kind::kKeys, Kind::kReplay}},
      {"Q3 `kQgaussClientIndexDropped`", FlWiringMutant::kQgaussClientIndexDropped, Loop::kQgauss,
       "entity 0 in every client's addresses (not the documented derivation)", {Kind::kReplay}},
      {"Q4 `kQgaussSamplingNotPerRound`", FlWiringMutant::kQgaussSamplingNotPerRound, Loop::kQgauss,
       "the same participants every round", {Kind::kParticipation, Kind::kReplay}},
      {"Q5 `kQgaussOneSamplingCoin`", FlWiringMutant::kQgaussOneSamplingCoin, Loop::kQgauss,
       "all clients in or all out together", {Kind::kParticipation, Kind::kReplay}},
      {"Q6 `kQgaussDivideByK`", FlWiringMutant::kQgaussDivideByK, Loop::kQgauss, "E13: mean over K, not |S_t|",
       {Kind::kServer}},
      {"Q7 `kQgaussOneStreamForAll`", FlWiringMutant::kQgaussOneStreamForAll, Loop::kQgauss,
       "every client draws client 0's noise and coins", {Kind::kClients, Kind::kKeys, Kind::kReplay}},
      {"Q8 `kQgaussOrderFromClientKey`", FlWiringMutant::kQgaussOrderFromClientKey, Loop::kQgauss,
       "a training stream keyed like the mechanism (a key shared across purposes)", {Kind::kKeys}},
      {"Q9 `kQgaussParticipationsNotCounted`", FlWiringMutant::kQgaussParticipationsNotCounted, Loop::kQgauss,
       "the certificate composes fewer rounds than a client took part in", {Kind::kCertificate}},
      {"Q10 `kQgaussMaxSkipsLastClient`", FlWiringMutant::kQgaussMaxSkipsLastClient, Loop::kQgauss,
       "max_participations ignores the last client: too few rounds composed", {Kind::kCertificate}},
      {"Q11 `kQgaussTrainsNeighbourShard`", FlWiringMutant::kQgaussTrainsNeighbourShard, Loop::kQgauss,
       "one client's data in two messages per round (twice the sensitivity)", {Kind::kServer}},
      {"Q12 `kQgaussClippedAgainstC`", FlWiringMutant::kQgaussClippedAgainstC, Loop::kQgauss,
       "clipped_clients under-reported for norms in (C/2, C]", {Kind::kCertificate}},
      {"Q13 `kQgaussBitsInBytes`", FlWiringMutant::kQgaussBitsInBytes, Loop::kQgauss, "uplink size reported 8x too small",
       {Kind::kCertificate}},
      {"S1 `kDeriveKeySeed32`", FlWiringMutant::kDeriveKeySeed32, Loop::kQgauss,
       "seeds equal in their low 32 bits share every stream", {Kind::kReplay}},
      {"S2 `kShuffleCyclic`", FlWiringMutant::kShuffleCyclic, Loop::kQgauss, "local passes are cyclic permutations only",
       {Kind::kSampling}},
      {"C1 `kCepamRoundFixed`", FlWiringMutant::kCepamRoundFixed, Loop::kCepam, "layers, dithers and noise repeat every round",
       {Kind::kRounds, Kind::kReplay}},
      {"C2 `kCepamSharedClientKey`", FlWiringMutant::kCepamSharedClientKey, Loop::kCepam,
       "one key for all clients (addresses still differ by entity)", {Kind::kKeys, Kind::kReplay}},
      {"C3 `kCepamClientIndexDropped`", FlWiringMutant::kCepamClientIndexDropped, Loop::kCepam,
       "entity 0 in every client's addresses (not the documented derivation)", {Kind::kReplay}},
      {"C4 `kCepamDecodeWrongRound`", FlWiringMutant::kCepamDecodeWrongRound, Loop::kCepam,
       "the server decodes with round t+1's shared randomness", {Kind::kLaw, Kind::kServer}},
      {"C5 `kCepamDecodeWrongClient`", FlWiringMutant::kCepamDecodeWrongClient, Loop::kCepam,
       "the server decodes client i with client i+1's key", {Kind::kLaw, Kind::kServer}},
      {"C6 `kCepamBaselineNoiseRoundFixed`", FlWiringMutant::kCepamBaselineNoiseRoundFixed, Loop::kCepam,
       "the baselines' noise repeats every round", {Kind::kRounds}},
      {"C7 `kCepamBaselineNoiseOverlap`", FlWiringMutant::kCepamBaselineNoiseOverlap, Loop::kCepam,
       "neighbouring coordinates share a Box-Muller uniform", {Kind::kCoordinates}},
      {"C8 `kCepamOneStreamForAll`", FlWiringMutant::kCepamOneStreamForAll, Loop::kCepam,
       "every client draws client 0's layers, dithers and noise", {Kind::kClients, Kind::kKeys, Kind::kReplay}},
      {"C9 `kCepamSampleFromNoiseKey`", FlWiringMutant::kCepamSampleFromNoiseKey, Loop::kCepam,
       "sample indices drawn from the baselines' noise words (a key shared across purposes)", {Kind::kKeys}},
      {"C10 `kCepamMinShardNominal`", FlWiringMutant::kCepamMinShardNominal, Loop::kCepam,
       "n_k overstated under unequal shards: epsilon understated (E-P8)", {Kind::kCertificate}},
      {"C11 `kCepamMeanOverTrained`", FlWiringMutant::kCepamMeanOverTrained, Loop::kCepam,
       "p_k = 1/K broken when a shard is empty", {Kind::kServer}},
      {"C12 `kCepamClipToGammaSquared`", FlWiringMutant::kCepamClipToGammaSquared, Loop::kCepam,
       "updates clipped to gamma^2: sensitivity gamma^2", {Kind::kServer, Kind::kCertificate}},
      {"B1 `kBnnRoundFixed`", FlWiringMutant::kBnnRoundFixed, Loop::kBnn, "StoSign and RR coins repeat every round",
       {Kind::kRounds, Kind::kReplay}},
      {"B2 `kBnnSharedClientKey`", FlWiringMutant::kBnnSharedClientKey, Loop::kBnn,
       "one key for all clients (addresses still differ by entity)", {Kind::kKeys, Kind::kReplay}},
      {"B3 `kBnnClientIndexDropped`", FlWiringMutant::kBnnClientIndexDropped, Loop::kBnn,
       "entity 0 in every client's addresses (not the documented derivation)", {Kind::kReplay}},
      {"B4 `kBnnUploadOnce`", FlWiringMutant::kBnnUploadOnce, Loop::kBnn, "round 0's upload re-sent every round",
       {Kind::kLaw, Kind::kRounds, Kind::kReplay}},
      {"B5 `kBnnCountsNotReset`", FlWiringMutant::kBnnCountsNotReset, Loop::kBnn, "secure-aggregate counts carried over",
       {Kind::kServer}},
      {"B6 `kBnnMixSwapped`", FlWiringMutant::kBnnMixSwapped, Loop::kBnn, "Alg. E mixes beta theta + (1 - beta) W~",
       {Kind::kServer}},
      {"B7 `kBnnOneStreamForAll`", FlWiringMutant::kBnnOneStreamForAll, Loop::kBnn, "every client draws client 0's coins",
       {Kind::kClients, Kind::kKeys, Kind::kReplay}},
      {"B8 `kBnnShuffleFromClientKey`", FlWiringMutant::kBnnShuffleFromClientKey, Loop::kBnn,
       "a training stream keyed like the mechanism (a key shared across purposes)", {Kind::kKeys}},
      {"B9 `kBnnTrainsNeighbourShard`", FlWiringMutant::kBnnTrainsNeighbourShard, Loop::kBnn,
       "client i trains client i+1's shard", {Kind::kServer}},
  };
  return catalog;
}

lw::SuiteResult RunWith(FlWiringMutant m, Loop loop, const std::string& name, const std::string& breaks) {
  lw::SuiteResult r;
  {
    const dpfl::testing::PlantedFlWiringMutant planted(m);
    r = RunSuite(loop);
  }
  // Table row: mutant | breaks | rejected (of m) by kind | strongest check | p | time
  const lw::Check* s = r.Strongest();
  std::printf("| %s | %s | %zu of %zu: %s | %s (%s) | %.3g | %.2f s |\n", name.c_str(), breaks.c_str(), r.RejectedCount(), r.checks.size(),
              r.RejectedByKind().c_str(), s ? lw::KindName(s->kind) : "-", s ? s->what.c_str() : "-", s ? s->p_value : 1.0,
              r.seconds);
  for (const lw::Check& c : r.checks)
    if (c.rejected) std::printf("    rejected %s: %s (p %.3g)\n", lw::KindName(c.kind), c.what.c_str(), c.p_value);
  if (!r.error.empty()) std::printf("    the suite stopped on an exception: %s\n", r.error.c_str());
  return r;
}

TEST(LoopWiringMutants, UnmutatedLoopsPassEverything) {
  for (Loop loop : {Loop::kQgauss, Loop::kCepam, Loop::kBnn}) {
    const lw::SuiteResult r = RunWith(FlWiringMutant::kNone, loop, "none (production wiring)", "-");
    ASSERT_TRUE(r.error.empty()) << r.loop << ": " << r.error;
    EXPECT_EQ(r.RejectedCount(), 0u) << r.loop << ": " << r.RejectedByKind();
  }
}

class LoopWiringMutant : public ::testing::TestWithParam<std::size_t> {};

TEST_P(LoopWiringMutant, IsCaughtByItsDetectors) {
  const Mutant& m = Catalog().at(GetParam());
  const lw::SuiteResult r = RunWith(m.mutant, m.loop, m.id, m.breaks);
  // An exception from the loop under a mutant would also be a finding, but each of these runs to
  // the end: the detectors, not a crash, must catch them.
  ASSERT_TRUE(r.error.empty()) << m.id << ": " << r.error;
  for (Kind k : m.caught_by) EXPECT_GT(r.Rejected(k), 0u) << m.id << " not caught by " << lw::KindName(k);
}

INSTANTIATE_TEST_SUITE_P(Catalog, LoopWiringMutant, ::testing::Range(std::size_t{0}, Catalog().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           std::string id = Catalog()[info.param].id;
                           return id.substr(0, id.find(' '));
                         });

}  // namespace
