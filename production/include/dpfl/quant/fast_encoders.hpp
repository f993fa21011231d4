// SIMD fast path of the CPU encoders (src/cpu/fast_encoders.cpp), used by EncodeLdpq /
// EncodeCorBinQ / EncodeCoq. Bit-identical to the scalar loops of cpu_encoders.hpp for every
// instruction set; exposed so tests and benchmarks can pin the instruction set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/isa.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::quant::fast {

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
// The whole upload RR(StoSign(θ)) in one pass over θ: the same bits as EncodeStoSignFast followed by
// ApplyRandomizedResponseFast (both streams read per group; tested word for word).
void EncodeBnnUploadFast(std::span<const float> theta, std::uint64_t flip_threshold, const StreamContext& ctx,
                         std::uint32_t client, std::span<std::uint64_t> bits, int threads, Isa isa);

// out[w] = rng::Uniform64(ctx.generator, ctx.key, addr, 128·group + w) for w < 128, computed 16
// ChaCha20 blocks (64 Philox blocks) at a time (src/cpu/fast_stream_words.cpp). The caller keeps
// 128·group + 127 inside the stream (ChaCha20: below rng::kChaChaMaxIndex).
void StreamWords128(const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t group,
                    std::uint64_t out[128], Isa isa);

// The quantized Gaussian's saturation and stochastic rounding (seed 003; dpfl/fl/quantized_gaussian.hpp,
// src/cpu/fast_qgauss.cpp): index[j] = r + [coin_j >> (64 − m) < f] with n = clamp(position[j], 0, span),
// r = min(n >> m, levels − 2), f = n − r·2^m and coin_j = rng::Uniform64(coin_addr, first + j). Throws
// InvalidArgument for index.size() ≠ position.size() or an invalid grid (m ∉ [1, 62], levels < 2, span ≤ 0).
void QgaussRoundIndicesFast(const StreamContext& ctx, const rng::StreamAddress& coin_addr, std::uint64_t first,
                            std::span<const std::int64_t> position, std::int64_t span, int step_bits,
                            std::uint32_t levels, std::span<std::uint32_t> index, Isa isa);

// counts[j] += Σ_i bit j of messages[i] for j < counts.size() (see AccumulateMessages).
void AccumulateMessagesFast(std::span<const std::span<const std::uint64_t>> messages, std::span<std::uint32_t> counts,
                            int threads, Isa isa);

}  // namespace dpfl::quant::fast
