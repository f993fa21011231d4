// CUDA encoders of the binary quantizers (LDPQ, CorBinQ / CoQ-FL with p_x = 1/2) and bit
// aggregation, bit-identical to the CPU path of dpfl/quant/binary_quantizer.hpp.
//
// Plain C++ header (no CUDA types): it is included by host-only code and by the tests, which
// the host compiler builds. The implementation is production/cuda/binary_quantizer.cu, built
// into the library dpfl_cuda when CMake finds nvcc (DPFL_CUDA=AUTO|ON); consumers see the
// compile definition DPFL_HAVE_CUDA=1. Design and the bit-identity argument: docs/cuda.md.
//
// Contract (same as the CPU encoders unless stated):
//  * Output layout: bit j of a message is bit (j % 64) of word j / 64, 1 = "+" level; the
//    unused high bits of the last word are 0. Streams are addressed exactly as on the CPU
//    (private: (key, round, client, kPrivateCoin, j); shared: (key, round, pair, kSharedBits, j),
//    decision-stream layout of dpfl/rng/streams.hpp), so the GPU message equals the CPU message
//    word for word.
//  * Host-buffer overloads (std::span) validate with ValidateWeights / ValidateSharedBits before
//    anything touches the device, copy to the device, run the kernel and copy back.
//  * Device-buffer overloads (raw pointers into device or managed memory) check on the host:
//    pointers non-null and device-accessible (cudaPointerGetAttributes), d ∈ [0, 62], m within
//    the generator's index range; then a reduction kernel finds the first non-finite weight and
//    the call throws InvalidArgument naming w[i] before the encode kernel is launched.
//    Preconditions that cannot be checked: `bits` holds ⌈m/64⌉ words, `counts` holds m counters,
//    buffers do not overlap.
//  * All calls run on the default stream and return after the work has completed (synchronous);
//    they are not meant to be called concurrently from several host threads on one buffer.
//  * Errors: InvalidArgument for bad arguments (nothing is written), CudaError for a failing CUDA
//    runtime call (no device, out of memory, launch failure), with file and line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/randomized_response.hpp"

namespace dpfl {

// A failed CUDA runtime call on the host side. `code()` is the cudaError_t value as an int.
class CudaError : public std::runtime_error {
 public:
  CudaError(int code, const std::string& message, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + message),
        code_(code), file_(file), line_(line) {}
  int code() const noexcept { return code_; }
  const char* file() const noexcept { return file_; }
  int line() const noexcept { return line_; }

 private:
  int code_;
  const char* file_;
  int line_;
};

namespace cuda_detail {
// Throws CudaError if `code` (a cudaError_t) is not cudaSuccess; defined in the .cu, where
// cudaGetErrorString is available. `expr` is the failing call's text.
void ThrowIfCudaError(int code, const char* expr, const char* file, int line);
}  // namespace cuda_detail

}  // namespace dpfl

// DPFL_CUDA_CHECK(cudaMalloc(&p, n)) — throws dpfl::CudaError with file and line on failure.
// Host code only (device code never throws).
#define DPFL_CUDA_CHECK(call) ::dpfl::cuda_detail::ThrowIfCudaError(static_cast<int>(call), #call, __FILE__, __LINE__)

namespace dpfl::quant {

// True iff the CUDA runtime reports at least one device. Never throws (a missing driver or
// runtime error counts as "no device").
bool CudaAvailable() noexcept;

// ---- Device buffers: w (m floats), bits (⌈m/64⌉ words), both device-accessible. ----

// LDP-FL client (Alg. 1), like EncodeLdpq.
void CudaEncodeLdpq(const BinaryLevels& levels, const float* w, std::size_t m, const StreamContext& ctx,
                    std::uint32_t client, std::uint64_t* bits);
// CorBin-FL client in role Q1 or Q2 of pair `pair`, like EncodeCorBinQ (also CoQ-FL at p_x = 1/2:
// Alice = kQ1, Bob = kQ2): the shared bits Z from `shared_ctx` (the pair's key), the private
// coins from `private_ctx` (the client's own key); both must use the same generator.
void CudaEncodeCorBinQ(const BinaryLevels& levels, const float* w, std::size_t m, int d, PairRole role,
                       const StreamContext& shared_ctx, const StreamContext& private_ctx, std::uint32_t pair,
                       std::uint32_t client, std::uint64_t* bits);
// Simulation form: one key for both streams (like the one-key EncodeCorBinQ).
void CudaEncodeCorBinQ(const BinaryLevels& levels, const float* w, std::size_t m, int d, PairRole role,
                       const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, std::uint64_t* bits);
// counts[j] += Σ_i bit j of message i, for j < m and i < n. Message i occupies words
// [i·⌈m/64⌉, (i+1)·⌈m/64⌉) of `bits` (messages stored back to back). Equal to n calls of the CPU
// AccumulateBits; counts wrap modulo 2^32 like the CPU (n < 2^32 avoids it).
void CudaAccumulateBits(const std::uint64_t* bits, std::size_t n, std::uint32_t* counts, std::size_t m);

// ---- Host buffers (convenience: validate, copy to the device, run, copy back). ----

void CudaEncodeLdpq(const BinaryLevels& levels, std::span<const float> w, const StreamContext& ctx,
                    std::uint32_t client, std::span<std::uint64_t> bits);
void CudaEncodeCorBinQ(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                       const StreamContext& shared_ctx, const StreamContext& private_ctx, std::uint32_t pair,
                       std::uint32_t client, std::span<std::uint64_t> bits);
void CudaEncodeCorBinQ(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                       const StreamContext& ctx, std::uint32_t pair, std::uint32_t client,
                       std::span<std::uint64_t> bits);
// `bits` holds n messages of ⌈counts.size()/64⌉ words each, back to back; its size must be
// exactly n·⌈counts.size()/64⌉.
void CudaAccumulateBits(std::span<const std::uint64_t> bits, std::size_t n, std::span<std::uint32_t> counts);

// Benchmark support (`dpfl bench quantizers --backend cuda`): parameters per second of `reps`
// encodes of m parameters held in device memory (weights 0.8·sin(0.001·j), as the CPU bench),
// after one warm-up, timed with cudaEvents around the launches. Rule: LDPQ, CorBinQ Q1 role, or
// the Q2 role (CoQ-FL Bob at p_x = 1/2); d shared bits. Throws CudaError without a device.
enum class CudaBenchRule { kLdpq, kQ1, kQ2 };
double CudaEncodeThroughput(CudaBenchRule rule, const BinaryLevels& levels, std::size_t m, int d,
                            rng::Generator generator, int reps);

// Device-to-device copy bandwidth in GB/s (10^9 bytes/s, counting read + write = 2·bytes per
// copy), timed with cudaEvents over several cudaMemcpy calls after a warm-up: the roofline
// baseline of the benchmarks. bytes > 0. Throws CudaError without a device.
double CudaCopyBandwidth(std::size_t bytes);

// ---- DPFL-BNN client encoders (seed 004 Alg. 1' lines 13–14; randomized_response.cu) ----
//
// StoSign (Alg. B) and randomized response on the ±1 bits (Alg. C), bit-identical to the CPU's
// EncodeStoSign / ApplyRandomizedResponse (dpfl/quant/randomized_response.hpp): same streams
// ((key, round, client, kStoSign, j) and (key, round, client, kRandomizedResponse, j), 16-bit
// heads), same exact decisions, same layout (bit j = bit j % 64 of word j / 64, 1 = +1). StoSign
// leaves the unused bits of the last word 0; RR clears them; words after ⌈m/64⌉ are never touched.
// Checks as for the encoders above, plus: `rr` must be what MakeRandomizedResponse returns
// (γ ∈ [0, 1/2] and flip_threshold = RrFlipThreshold(γ)), else InvalidArgument("rr") — on the
// GPU also for a γ outside [0, 1/2] whose threshold matches (the CPU checks only the match).

// Device buffers: theta (m floats), bits (⌈m/64⌉ words). A NaN/±Inf latent throws
// InvalidArgument naming theta[i] (the text of ValidateLatents), found by the reduction kernel
// before the encode kernel runs, so nothing is written.
void CudaEncodeStoSign(const float* theta, std::size_t m, const StreamContext& ctx, std::uint32_t client,
                       std::uint64_t* bits);
// In place on the ⌈m/64⌉ words of `bits`: bit j (j < m) flipped iff its RR uniform is below
// rr.flip_threshold; bits ≥ m of the last word cleared.
void CudaApplyRandomizedResponse(const RandomizedResponse& rr, std::size_t m, const StreamContext& ctx,
                                 std::uint32_t client, std::uint64_t* bits);

// Host buffers: ValidateLatents / ValidateOutputSize (and the `rr` and index-range checks) first,
// then copy in, run, copy the ⌈m/64⌉ message words back (`bits` may be longer, as on the CPU).
// On InvalidArgument nothing is written (the CPU's EncodeStoSign zeroes the message instead).
void CudaEncodeStoSign(std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
                       std::span<std::uint64_t> bits);
void CudaApplyRandomizedResponse(const RandomizedResponse& rr, std::size_t m, const StreamContext& ctx,
                                 std::uint32_t client, std::span<std::uint64_t> bits);

// ---- Quantized Gaussian (seed 003 Alg. 1 line 9; quantized_gaussian.cu) ----
//
// Saturation, stochastic rounding and packing of the quantized Gaussian (dpfl/fl/quantized_gaussian.hpp)
// on the GPU, bit-identical to the CPU's QgaussEncode for the same noise: position[j] is the noisy
// grid position L/2 + q_j + Z_j (fl::QgaussNoisy's values plus L/2), computed on the host by the
// exact discrete Gaussian sampler, which has no device version (docs/cuda.md); the coins are word j
// of the stream (ctx.round, client, kQgaussRounding), as on the CPU. span, step_bits, levels and
// index_bits are the fl::QgaussGrid's (span = (k − 1)·2^step_bits and index_bits = ⌈log2 k⌉ are
// checked, k ∈ [2, 65536], m ≤ 2^27: InvalidArgument naming the argument). The message is
// ⌈m·index_bits/64⌉ words, index j at bits [j·b, (j + 1)·b).
void CudaQgaussRoundPack(const std::int64_t* position, std::size_t m, std::int64_t span, int step_bits,
                         std::uint32_t levels, int index_bits, const StreamContext& ctx, std::uint32_t client,
                         std::uint64_t* words);
// Host buffers: words.size() must be the message's word count (InvalidArgument("words") otherwise).
void CudaQgaussRoundPack(std::span<const std::int64_t> position, std::int64_t span, int step_bits, std::uint32_t levels,
                         int index_bits, const StreamContext& ctx, std::uint32_t client, std::span<std::uint64_t> words);

}  // namespace dpfl::quant
