// Per-round client assignment: pairing (CorBin-FL), solo clients (AugCorBin-FL, γ fraction),
// and dropout (each client absent with probability p; a pair with one survivor degrades to
// LDPQ for that client).
//
// seed-000 §3.3 Alg. 3 l.2 (uniform random pairing), §3.4 AugCorBin-FL [PAPER prose; selection
// rule RECOMMENDED: uniform at random each round], §3.5 dropout [PAPER prose; RECOMMENDED: a
// survivor whose partner vanished runs LDPQ], E31 (divide by the survivors), E43 (integrality).
// All draws come from the server's counter-based stream (purpose kPairing / kDropout), so an
// assignment is a pure function of (key, round, n, γ, p).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "dpfl/quant/binary_quantizer.hpp"

namespace dpfl::protocol {

struct Assignment {
  // (Q1-role client, Q2-role client); the first is also the "lead" that generates Z.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::vector<std::uint32_t> solo;  // LDPQ clients
};

// γ ∈ [0, 1]: round(γn) clients go solo (LDP-FL), chosen uniformly; if the rest is odd one more client
// goes solo (E43: CorBin-FL needs an even number of paired clients). The rest is matched by a
// uniformly random perfect matching (Fisher–Yates with unbiased bounded draws), roles included.
// Throws InvalidArgument for n = 0 or γ ∉ [0, 1].
Assignment DrawAssignment(std::uint32_t n, double gamma, const quant::StreamContext& ctx);
// The number of solo clients DrawAssignment picks: round(γn), plus one if the rest is odd (≤ n).
std::uint32_t SoloCount(std::uint32_t n, double gamma);

// present[i] = client i takes part this round; P(absent) = p_drop ∈ [0, 1), decided exactly by
// comparing a 64-bit uniform with ⌊p_drop·2^64⌋ (stream kDropout, entity = client).
std::vector<bool> DrawPresence(std::uint32_t n, double p_drop, const quant::StreamContext& ctx);

// The assignment actually run: pairs with both present stay pairs; a lone survivor of a pair
// becomes solo (LDPQ, seed-000 §3.5); absent clients disappear. `survivors` = number present.
struct EffectiveAssignment {
  Assignment assignment;
  std::uint32_t survivors = 0;
};
EffectiveAssignment ApplyDropout(const Assignment& planned, const std::vector<bool>& present);

// Unbiased integer in [0, bound) from the stream (Lemire's multiply-shift with rejection);
// `index` is advanced past every draw used. Exposed for tests.
std::uint64_t UniformBelow(std::uint64_t bound, const quant::StreamContext& ctx, const rng::StreamAddress& addr,
                           std::uint64_t& index);

}  // namespace dpfl::protocol
