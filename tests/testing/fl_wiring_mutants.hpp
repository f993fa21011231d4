// Test-only selector of the FL wiring mutants (docs/mutants.md "FL wiring mutants").
//
// The FL layer (production/src/fl/mechanisms.cpp, protocol.cpp) holds a few one-line guarded
// blocks `#ifdef DPFL_FL_WIRING_MUTANTS … #endif` that read the selector below. The production
// library dpfl_fl never defines the macro, so its code has no seam and no reference to the
// selector (a ctest, `dpfl_fl_has_no_wiring_seam`, checks that the symbol is absent from
// libdpfl_fl.a). tests/CMakeLists.txt compiles the same sources once more, with the macro,
// into the test-only static library dpfl_fl_wiring_mutants, which only
// tests/mutants/fl_wiring_mutant_test.cpp links; that test defines the selector.
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
};

// Defined by the mutant test executable (tests/mutants/fl_wiring_mutant_test.cpp); kNone there
// unless a test selects a mutant.
extern FlWiringMutant g_fl_wiring_mutant;

inline bool FlWiringMutantIs(FlWiringMutant m) { return g_fl_wiring_mutant == m; }

}  // namespace dpfl::testing
