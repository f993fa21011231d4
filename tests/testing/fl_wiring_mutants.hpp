// Test-only selector of the FL wiring mutants (docs/mutants.md "FL wiring mutants").
//
// The FL layer (production/src/fl/mechanisms.cpp, protocol.cpp, and the update-based loops
// qgauss_training.cpp, cepam_training.cpp, cepam_uplink.cpp, bnn_training.cpp) holds one-line guarded
// blocks `#ifdef DPFL_FL_WIRING_MUTANTS … #endif` that read the selector below. The production
// library dpfl_fl never defines the macro, so its code has no seam and no reference to the
// selector (a ctest, `dpfl_fl_has_no_wiring_seam`, checks that the symbol is absent from
// libdpfl_fl.a). tests/CMakeLists.txt compiles the same sources once more, with the macro,
// into the test-only static library dpfl_fl_wiring_mutants, which only the mutant tests
// tests/mutants/fl_wiring_mutant_test.cpp and loop_wiring_mutant_test.cpp link; each defines the
// selector.
#pragma once

namespace dpfl::testing {

enum class FlWiringMutant : int {
  kNone = 0,
  kBothRolesQ1,           // (i)    SlotFor: both clients of a pair get the Q1 role (comonotone pair)
  kLayerlessPairKey,      // (ii)   EncodeClient: shared bits keyed by the pair key itself in every layer
  kRoundNotInAddress,     // (iii)  EncodeClient: round 0 in every stream address (same uniforms every round)
  kRolesSwapped,          // (iv)   SlotFor: Q1/Q2 roles swapped relative to the pairing
  kCommonPrivateKey,      // (v)    EncodeClient: private coins keyed by one key shared by all clients
  kDivideByN,             // (vi)   ServerAggregate: (1/n) Σ over the messages, n = planned clients (E31)
  kPairKeyRoleOrder,      // (vii)  SlotFor: PairKey(…, self_is_q1 = true) on both sides of a pair
  kPrivateCoinsFromPairKey,  // (viii) EncodeClient: a paired client's private coins keyed by the pair key
  kLayerlessPrivateKey,   // (ix)   EncodeClient: private coins keyed by the layer-0 key in every layer
  kPairingNotPerRound,    // (x)    BeginRound: the server's pairing/dropout stream without the round
  // Loop wiring mutants of the update-based loops (tests/mutants/loop_wiring_mutant_test.cpp):
  // seed 003, production/src/fl/qgauss_training.cpp
  kQgaussRoundFixed,          // Q1 Encode: round 0 in the stream context (noise and coins repeat every round)
  kQgaussSharedClientKey,     // Q2 one client key for all clients (DeriveKey(seed, "qgauss-client", 0))
  kQgaussClientIndexDropped,  // Q3 Encode: entity 0 in every client's stream addresses
  kQgaussSamplingNotPerRound, // Q4 the Poisson sampling stream at round 0 in every round
  kQgaussOneSamplingCoin,     // Q5 one sampling word for all clients of a round (word 0)
  kQgaussDivideByK,           // Q6 W_{t+1} = W_t + (1/K) Σ x̂ over the participants (E13 as printed)
  kQgaussOneStreamForAll,     // Q7 Q2 and Q3 together: every client draws client 0's stream
  kQgaussOrderFromClientKey,  // Q8 the local order stream keyed by the client's mechanism key
  kQgaussParticipationsNotCounted,  // Q9 participations set to 1, not counted: max_participations understated
  // found by a review that planted its own faults (docs/mutants.md, loop wiring mutants, note 5)
  kQgaussMaxSkipsLastClient,  // Q10 max_participations over all clients but the last
  kQgaussTrainsNeighbourShard,  // Q11 client i trains client min(i + 1, K − 1)'s shard: one shard in two messages
  kQgaussClippedAgainstC,     // Q12 clipped_clients counts ‖h‖ > C instead of > C/2
  kQgaussBitsInBytes,         // Q13 the reported uplink size in bytes, not bits
  kCepamMinShardNominal,      // C10 n_k reported as N/K, not the smallest non-empty shard (E-P8)
  kCepamMeanOverTrained,      // C11 W_{t+1} = W_t + Σ X̂ / (clients with data), not 1/K
  kCepamClipToGammaSquared,   // C12 cepam_uplink.cpp: clip to γ² (a wrong bound; equal at γ = 1)
  kBnnTrainsNeighbourShard,   // B9 client i trains client i + 1's shard
  kDeriveKeySeed32,           // S1 stream_util.cpp: DeriveKey hashes uint32(seed)
  kShuffleCyclic,             // S2 stream_util.cpp: ShuffledPasses draws only cyclic permutations (Sattolo)
  // seed 002, production/src/fl/cepam_training.cpp and cepam_uplink.cpp
  kCepamRoundFixed,           // C1 encode and decode at round 0 (layers, dithers, noise repeat every round)
  kCepamSharedClientKey,      // C2 one client key for all clients (DeriveKey(seed, "cepam-client", 0))
  kCepamClientIndexDropped,   // C3 encode with entity 0 (the decode follows the message's entity)
  kCepamDecodeWrongRound,     // C4 the server decodes round t with round t + 1's shared randomness
  kCepamDecodeWrongClient,    // C5 the server decodes client i with client i + 1's key
  kCepamBaselineNoiseRoundFixed,  // C6 cepam_uplink.cpp: the baselines' noise address at round 0
  kCepamBaselineNoiseOverlap, // C7 cepam_uplink.cpp: Box–Muller words k, k + 1 for coordinate k (not 2k, 2k + 1)
  kCepamOneStreamForAll,      // C8 C2 and C3 together: every client draws client 0's layers and dithers
  kCepamSampleFromNoiseKey,   // C9 the local sample stream keyed by the baselines' noise key (same address: reuse)
  // seed 004, production/src/fl/bnn_training.cpp
  kBnnRoundFixed,             // B1 the clients' stream context keeps round 0
  kBnnSharedClientKey,        // B2 one client key for all clients (DeriveKey(seed, "bnn-client", 0))
  kBnnClientIndexDropped,     // B3 EncodeBnnUpload with entity 0 for every client
  kBnnUploadOnce,             // B4 the upload (StoSign + RR) drawn in round 0 only and re-sent
  kBnnCountsNotReset,         // B5 the secure-aggregate counts accumulate across rounds
  kBnnMixSwapped,             // B6 Alg. E with β and 1 − β swapped: β θ + (1 − β) W̃
  kBnnOneStreamForAll,        // B7 B2 and B3 together: every client draws client 0's StoSign and RR coins
  kBnnShuffleFromClientKey,   // B8 the local shuffle stream keyed by the client's mechanism key
};

// Defined by the mutant test executable (tests/mutants/fl_wiring_mutant_test.cpp); kNone there
// unless a test selects a mutant.
extern FlWiringMutant g_fl_wiring_mutant;

inline bool FlWiringMutantIs(FlWiringMutant m) { return g_fl_wiring_mutant == m; }

// Plants a mutant for the lifetime of the object (the mutant tests).
class PlantedFlWiringMutant {
 public:
  explicit PlantedFlWiringMutant(FlWiringMutant m) { g_fl_wiring_mutant = m; }
  ~PlantedFlWiringMutant() { g_fl_wiring_mutant = FlWiringMutant::kNone; }
  PlantedFlWiringMutant(const PlantedFlWiringMutant&) = delete;
  PlantedFlWiringMutant& operator=(const PlantedFlWiringMutant&) = delete;
};

}  // namespace dpfl::testing
