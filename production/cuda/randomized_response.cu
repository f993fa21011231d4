// CUDA kernels of the DPFL-BNN client encoders (dpfl/quant/cuda_quantizer.hpp, section
// "DPFL-BNN client encoders"): StoSign (seed 004 Alg. B) and randomized response on the ±1 bits
// (Alg. C), bit-identical to the CPU's EncodeStoSign / ApplyRandomizedResponse.
//
// Bit identity (docs/cuda.md "DPFL-BNN kernels"): the per-coordinate decisions call the CPU's
// DPFL_HD functions (StoSignThreshold, StoSignPlus, RrOutput of dpfl/quant/rr_element.hpp;
// ChaChaUniformBlock, PhiloxUniformBlock, HeadChunk, DecisionUniform64 of dpfl/rng/streams.hpp) on
// the streams the CPU loops address (detail::StoSignAddress / RrAddress). Everything is integer
// except StoSignThreshold's ⌊θ·2^63⌋, which is exact in double (float widening, power-of-two
// scaling, floor) and compiled with -fmad=false like every cuda/*.cu (production/CMakeLists.txt).
//
// The per-thread bodies and the launch geometry are in rr_kernel_bodies.hpp (DPFL_HD), so that
// tests/unit/cuda_emulator_rr_test.cpp runs them on the host over every thread index; the kernels
// below add only thread indices and the warp shuffle.
//
// The small host helpers (device buffer, pointer check, launch check, the non-finite scan) are
// those of binary_quantizer.cu, from device_support.cuh: internal linkage, so this translation
// unit has its own copy of the scan kernel (dpfl_cuda has no relocatable device code, so a
// __global__ function is launched only from the translation unit that defines it).
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/cpu_encoders.hpp"
#include "dpfl/quant/cuda_quantizer.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/quant/rr_element.hpp"
#include "dpfl/rng/streams.hpp"
#include "device_support.cuh"
#include "kernel_bodies.hpp"
#include "rr_kernel_bodies.hpp"

namespace dpfl::quant {
namespace {

using cuda_kernels::kBlockThreads;

// ---- Kernels ----

// Thread g binarizes coordinates 32·g … 32·g + 31 (cuda_kernels::StoSignThreadBits); the two lanes
// of a word join their halves with one shuffle and the even lane writes the word.
template <rng::Generator G>
__global__ void __launch_bounds__(kBlockThreads)
    StoSignKernel(const float* __restrict__ theta, std::uint64_t m, rng::StreamKey key, rng::StreamAddress addr,
                  std::uint64_t* __restrict__ bits) {
  const std::uint64_t g = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t half = cuda_kernels::StoSignThreadBits<G>(theta, m, key, addr, g);
  // No early return before the shuffle: every lane of the warp takes part.
  std::uint64_t word = cuda_kernels::HalfInWord(half, threadIdx.x);
  word |= __shfl_xor_sync(0xffffffffu, word, 1);
  if (cuda_kernels::WritesWord(threadIdx.x, g, m)) bits[cuda_kernels::WordOfThread(g)] = word;
}

// Thread g decides the flips of coordinates 32·g … 32·g + 31 (cuda_kernels::RrFlipThreadBits);
// after the shuffle the even lane alone reads its word, applies the 64 flips, clears the bits
// ≥ m and writes it back (in place; no other thread touches that word).
template <rng::Generator G>
__global__ void __launch_bounds__(kBlockThreads)
    RandomizedResponseKernel(std::uint64_t flip_threshold, std::uint64_t m, rng::StreamKey key,
                             rng::StreamAddress addr, std::uint64_t* __restrict__ bits) {
  const std::uint64_t g = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t half = cuda_kernels::RrFlipThreadBits<G>(flip_threshold, m, key, addr, g);
  std::uint64_t flips = cuda_kernels::HalfInWord(half, threadIdx.x);
  flips |= __shfl_xor_sync(0xffffffffu, flips, 1);
  if (cuda_kernels::WritesWord(threadIdx.x, g, m)) {
    const std::uint64_t q = cuda_kernels::WordOfThread(g);
    bits[q] = cuda_kernels::RrOutputWord(bits[q], flips, m, q);
  }
}

// ---- Host helpers ----

// Throws InvalidArgument naming the first NaN/±Inf latent (ValidateLatents' text) before any
// encode kernel runs.
void ValidateDeviceLatents(const float* theta, std::size_t m) {
  const std::optional<NonFinite> bad = FirstNonFinite(theta, m);
  if (bad) throw cuda_kernels::NonFiniteLatentError(bad->index, bad->value);
}

// `rr` as MakeRandomizedResponse returns it. γ is range-checked before RrFlipThreshold is
// evaluated: outside [0, 1/2] its double → uint64 conversion can be out of range (undefined).
void ValidateRandomizedResponse(const RandomizedResponse& rr) {
  if (!(rr.gamma >= 0.0 && rr.gamma <= 0.5) || rr.flip_threshold != RrFlipThreshold(rr.gamma))
    throw InvalidArgument("rr", "not made by MakeRandomizedResponse (gamma outside [0, 1/2] or threshold does not "
                                "match gamma)");
}

unsigned GridBlocks(std::uint64_t blocks) {
  if (blocks > static_cast<std::uint64_t>(INT_MAX)) throw InvalidArgument("m", "too many parameters for one launch");
  return static_cast<unsigned>(blocks);
}

void LaunchStoSign(const float* theta, std::size_t m, const StreamContext& ctx, std::uint32_t client,
                   std::uint64_t* bits) {
  if (m == 0) return;
  const cuda_kernels::RrLaunch launch = cuda_kernels::MakeStoSignLaunch(m, ctx, client);
  if (ctx.generator == rng::Generator::kChaCha20)
    StoSignKernel<rng::Generator::kChaCha20>
        <<<GridBlocks(launch.blocks), kBlockThreads>>>(theta, m, ctx.key, launch.addr, bits);
  else
    StoSignKernel<rng::Generator::kPhilox4x32>
        <<<GridBlocks(launch.blocks), kBlockThreads>>>(theta, m, ctx.key, launch.addr, bits);
  LaunchCheck();
}

void LaunchRandomizedResponse(std::uint64_t flip_threshold, std::size_t m, const StreamContext& ctx,
                              std::uint32_t client, std::uint64_t* bits) {
  if (m == 0) return;
  const cuda_kernels::RrLaunch launch = cuda_kernels::MakeRandomizedResponseLaunch(m, ctx, client);
  if (ctx.generator == rng::Generator::kChaCha20)
    RandomizedResponseKernel<rng::Generator::kChaCha20>
        <<<GridBlocks(launch.blocks), kBlockThreads>>>(flip_threshold, m, ctx.key, launch.addr, bits);
  else
    RandomizedResponseKernel<rng::Generator::kPhilox4x32>
        <<<GridBlocks(launch.blocks), kBlockThreads>>>(flip_threshold, m, ctx.key, launch.addr, bits);
  LaunchCheck();
}

}  // namespace

// ---- Device buffers ----

void CudaEncodeStoSign(const float* theta, std::size_t m, const StreamContext& ctx, std::uint32_t client,
                       std::uint64_t* bits) {
  detail::CheckIndexRange(ctx, m);
  if (m == 0) return;
  CheckDevicePointer(theta, "theta");
  CheckDevicePointer(bits, "bits");
  ValidateDeviceLatents(theta, m);
  LaunchStoSign(theta, m, ctx, client, bits);
}

void CudaApplyRandomizedResponse(const RandomizedResponse& rr, std::size_t m, const StreamContext& ctx,
                                 std::uint32_t client, std::uint64_t* bits) {
  ValidateRandomizedResponse(rr);
  detail::CheckIndexRange(ctx, m);
  if (m == 0) return;
  CheckDevicePointer(bits, "bits");
  LaunchRandomizedResponse(rr.flip_threshold, m, ctx, client, bits);
}

// ---- Host buffers ----

void CudaEncodeStoSign(std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
                       std::span<std::uint64_t> bits) {
  ValidateLatents(theta, bits.size());
  detail::CheckIndexRange(ctx, theta.size());
  if (theta.empty()) return;
  const std::size_t words = PackedWords(theta.size());
  DeviceBuffer<float> theta_dev(theta.size());
  DeviceBuffer<std::uint64_t> bits_dev(words);
  DPFL_CUDA_CHECK(cudaMemcpy(theta_dev.get(), theta.data(), theta.size_bytes(), cudaMemcpyHostToDevice));
  LaunchStoSign(theta_dev.get(), theta.size(), ctx, client, bits_dev.get());
  DPFL_CUDA_CHECK(cudaMemcpy(bits.data(), bits_dev.get(), words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
}

void CudaApplyRandomizedResponse(const RandomizedResponse& rr, std::size_t m, const StreamContext& ctx,
                                 std::uint32_t client, std::span<std::uint64_t> bits) {
  ValidateRandomizedResponse(rr);
  ValidateOutputSize(m, bits.size());
  detail::CheckIndexRange(ctx, m);
  if (m == 0) return;
  const std::size_t words = PackedWords(m);
  DeviceBuffer<std::uint64_t> bits_dev(words);
  DPFL_CUDA_CHECK(cudaMemcpy(bits_dev.get(), bits.data(), words * sizeof(std::uint64_t), cudaMemcpyHostToDevice));
  LaunchRandomizedResponse(rr.flip_threshold, m, ctx, client, bits_dev.get());
  DPFL_CUDA_CHECK(cudaMemcpy(bits.data(), bits_dev.get(), words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
}

}  // namespace dpfl::quant
