// SIMD fast path of the CPU encoders (src/cpu/fast_encoders.cpp), used by EncodeLdpq /
// EncodeCorBinQ / EncodeCoq. Bit-identical to the scalar loops of cpu_encoders.hpp for every
// instruction set; exposed so tests and benchmarks can pin the instruction set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "dpfl/quant/binary_quantizer.hpp"

namespace dpfl::quant::fast {

enum class Isa { kBaseline, kAvx2, kAvx512 };

// The widest instruction set this CPU supports.
Isa BestIsa();

void EncodeLdpqFast(const BinaryLevels& levels, std::span<const float> w, const StreamContext& ctx,
                    std::uint32_t client, std::span<std::uint64_t> bits, int threads, Isa isa);
// shared_ctx addresses the pair's shared bits Z (the pair key), ctx the client's private coins
// (the client's own key: the partner must not be able to recompute them).
void EncodeCorBinQFast(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                       const StreamContext& shared_ctx, const StreamContext& ctx, std::uint32_t pair,
                       std::uint32_t client, std::span<std::uint64_t> bits, int threads, Isa isa);

// DPFL-BNN (dpfl/quant/randomized_response.hpp): StoSign of θ, and RR in place on m packed bits
// with the flip threshold of a validated γ (bits ≥ m cleared).
void EncodeStoSignFast(std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
                       std::span<std::uint64_t> bits, int threads, Isa isa);
void ApplyRandomizedResponseFast(std::uint64_t flip_threshold, std::size_t m, const StreamContext& ctx,
                                 std::uint32_t client, std::span<std::uint64_t> bits, int threads, Isa isa);

// counts[j] += Σ_i bit j of messages[i] for j < counts.size() (see AccumulateMessages).
void AccumulateMessagesFast(std::span<const std::span<const std::uint64_t>> messages, std::span<std::uint32_t> counts,
                            int threads, Isa isa);

}  // namespace dpfl::quant::fast
