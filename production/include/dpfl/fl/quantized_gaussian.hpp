// The quantized Gaussian mechanism of seed 003 (Kang et al.), Alg. 1 lines 7–9, on whole update
// vectors: ℓ2 clip to C/2, Gaussian noise, per-coordinate saturation to [−C, C] (E12), k-level
// stochastic rounding to B(r) = −C + r·δ_q, δ_q = 2C/(k − 1), packed ⌈log2 k⌉-bit indices.
//
// Exactness (docs/production.md "Quantized Gaussian on a noise grid"). Continuous noise sampled in
// floating point leaks through its low bits (Mironov 2012) and its law cannot be stated exactly,
// so the mechanism runs on a noise grid of step g = δ_q/M, M = 2^m grid points per quantizer
// step, where every level is a grid point and every step is integer arithmetic:
//   L = (k − 1)·M, g = 2C/L; m = 16, lowered while s² ≥ 2^62 (m ≥ 2, so L/4 is an integer)
//   s² = ⌈(σ/g)²⌉ (an integer ≥ 1): the noise is g·Z, Z ~ N_Z(0, s²) exact (CKS 2020, Alg. 3,
//        dpfl/fl/discrete_noise.hpp), so the implemented σ̃ = g·s ≥ σ (never less noise)
//   q = nearest integer to x̃/g, x̃ = update·min(1, (C/2)/‖update‖₂), and then ‖q‖₂ ≤ L/4 checked
//        in exact integer arithmetic (shrinking x̃ until it holds): the ℓ2 sensitivity between
//        two clients is ≤ L/2 grid units = C, exactly, whatever the float rounding did
//   n = clamp(L/2 + q + Z, 0, L); r = min(⌊n/M⌋, k − 2); f = n − rM ∈ [0, M]
//   index = r + [U < f], U = the top m bits of a 64-bit uniform (exactly uniform in [0, M))
// so the output law given q is exactly the one the reference computes
// (dpfl::ref::QuantizedGaussianGridPmf) and it differs from Lemma 2's continuous law at σ̃ by
// less than 1e−9 (tests/unit/quantized_gaussian_grid_test.cpp). The input's grid rounding moves it by
// at most g/2 = δ_q/2^17: the quantizer is unbiased for the grid point, not for x̃ (documented
// bias ≤ δ_q·2^−17 per coordinate).
//
// Privacy (what the certificate states): L/2 + q has ℓ2 sensitivity ≤ L/2 and N_Z(0, s²)^d is
// ½(Δ/s)²-concentrated DP for integer vectors (CKS 2020, Thm 14), so one round of one client is
// (α, α C²/(2σ̃²))-RDP for every α ≥ 1 under replace-one-client adjacency; clamping, rounding and
// the server's decoding are post-processing.
//
// Randomness (counter-based, dpfl/rng/streams.hpp), for client c in round t:
//  * noise: purpose kQgaussNoise, entity c; coordinates in chunks of 4096, chunk h reading the
//    stream's words from index h·2^20 on (a NoiseStream), so chunks are independent and can run
//    in parallel; a chunk needing more than 2^20 words (about 15 per sample are used) throws
//    std::overflow_error rather than change the law;
//  * rounding coin U_j: the top m bits of word j of purpose kQgaussRounding, entity c.
// Messages: index j at bits [j·b, (j + 1)·b) of the little-endian word array (b = ⌈log2 k⌉, b ≥ 1).
//
// Bad input: σ not finite and > 0, C ∉ [2^−64, 2^64] (the levels are decoded to float), k ∉ [2, 2^16], σ/δ_q too large (s² ≥ 2^62 at m = 2),
// NaN/±Inf in an update, more than 2^27 coordinates: InvalidArgument naming the parameter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dpfl/fl/discrete_noise.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/fast_encoders.hpp"

namespace dpfl::fl {

inline constexpr int kQgaussStepBits = 16;
inline constexpr int kQgaussMinStepBits = 2;
inline constexpr std::uint32_t kQgaussMaxLevels = 1u << 16;
inline constexpr std::size_t kQgaussChunk = 4096;                    // coordinates per noise chunk
inline constexpr std::uint64_t kQgaussChunkWords = std::uint64_t{1} << 20;  // stream words per chunk
inline constexpr std::size_t kQgaussMaxCoordinates = std::size_t{1} << 27;  // 2^35 words / 2^20 · 4096

struct QgaussConfig {
  double sigma = 1.0;          // σ: noise standard deviation (seed 003 eq. 10; E5: a std)
  std::uint32_t levels = 16;   // k
  double clip = 1.0;           // C_q: levels span [−C, C]; updates are clipped to ℓ2 norm C/2
};

// The integer parameters of the implemented law.
struct QgaussGrid {
  std::uint32_t levels = 2;
  int step_bits = kQgaussStepBits;  // m
  std::int64_t span = 0;            // L = (k − 1)·2^m
  std::int64_t radius = 0;          // L/4: the ℓ2 radius C/2 in grid units
  double clip = 1.0;                // C
  double unit = 0.0;                // g = 2C/L (in double; for decoding and reports)
  Ratio128 sigma2;                  // s² (an integer: den = 1)
  double implemented_sigma = 0.0;   // σ̃ = g·s (double, for reports)
  int index_bits = 1;               // b = ⌈log2 k⌉
};

// Throws InvalidArgument naming "sigma", "levels" or "clip" (see the file comment).
QgaussGrid MakeQgaussGrid(const QgaussConfig& config);

// ℓ2 clip to C/2 and rounding to the grid, with the exact integer check ‖q‖₂ ≤ L/4. Throws
// InvalidArgument("update") on NaN/±Inf or more than kQgaussMaxCoordinates coordinates.
std::vector<std::int64_t> QgaussClipToGrid(const QgaussGrid& grid, std::span<const float> update);

struct QgaussMessage {
  std::size_t size = 0;              // coordinates
  std::vector<std::uint64_t> words;  // packed indices
};
std::size_t QgaussMessageWords(const QgaussGrid& grid, std::size_t size);

// Noise, saturation and stochastic rounding of the grid input q (|q_j| ≤ L/4) for client
// `client` in round ctx.round; `threads` ≥ 1 chunks run in parallel (same message for any value).
// QgaussEncode takes the fast path at the CPU's widest instruction set (QgaussEncodeFast: scalar
// noise, vectorized rounding coins and rule); QgaussEncodeScalar is the plain loop. All return the
// same message bit for bit (tests/unit/qgauss_fast_test.cpp).
QgaussMessage QgaussEncode(const QgaussGrid& grid, std::span<const std::int64_t> q, const quant::StreamContext& ctx,
                           std::uint32_t client, int threads = 1);
QgaussMessage QgaussEncodeFast(const QgaussGrid& grid, std::span<const std::int64_t> q, const quant::StreamContext& ctx,
                               std::uint32_t client, int threads, quant::fast::Isa isa);
QgaussMessage QgaussEncodeScalar(const QgaussGrid& grid, std::span<const std::int64_t> q, const quant::StreamContext& ctx,
                                 std::uint32_t client, int threads = 1);

// The Gaussian baseline (Alg. 1 without line 9): q_j + Z_j in grid units, unsaturated, with the
// very noise QgaussEncode draws for the same (ctx, client); the value is (q_j + Z_j)·g.
std::vector<std::int64_t> QgaussNoisy(const QgaussGrid& grid, std::span<const std::int64_t> q,
                                      const quant::StreamContext& ctx, std::uint32_t client, int threads = 1);

// The level index of coordinate j.
std::uint32_t QgaussIndex(const QgaussGrid& grid, const QgaussMessage& message, std::size_t j);
// B(i) = −C + i·2C/(k − 1) in double.
double QgaussLevel(const QgaussGrid& grid, std::uint32_t index);
// out[j] = float(B(index_j)); out.size() must equal message.size (InvalidArgument "message").
void QgaussDecode(const QgaussGrid& grid, const QgaussMessage& message, std::span<float> out);

}  // namespace dpfl::fl
