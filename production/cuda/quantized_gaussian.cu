// CUDA kernel of the quantized Gaussian's saturation, stochastic rounding and packing (seed 003
// Alg. 1 line 9; dpfl/quant/cuda_quantizer.hpp, section "Quantized Gaussian"), bit-identical to
// the CPU's QgaussEncode given the same noisy positions. The per-thread body and the launch
// geometry are in qgauss_kernel_bodies.hpp (DPFL_HD), which tests/unit/cuda_emulator_qgauss_test.cpp
// runs on the host over every thread; the kernel adds only the thread index. The exact discrete
// Gaussian noise stays on the host (see qgauss_kernel_bodies.hpp for why).
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/quant/cuda_quantizer.hpp"
#include "dpfl/rng/streams.hpp"
#include "device_support.cuh"
#include "qgauss_kernel_bodies.hpp"

namespace dpfl::quant {
namespace {

using cuda_kernels::kBlockThreads;

template <rng::Generator G>
__global__ void __launch_bounds__(kBlockThreads)
    QgaussRoundKernel(const std::int64_t* __restrict__ position, cuda_kernels::QgaussRounding p, rng::StreamKey key,
                      rng::StreamAddress coins, std::uint64_t* __restrict__ words) {
  const std::uint64_t w = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (w >= cuda_kernels::QgaussMessageWords(p)) return;
  words[w] = cuda_kernels::QgaussWordOfThread<G>(position, p, key, coins, w);
}

cuda_kernels::QgaussRounding CheckedRounding(std::size_t m, std::int64_t span, int step_bits, std::uint32_t levels,
                                             int index_bits) {
  if (levels < 2 || levels > (1u << 16)) throw InvalidArgument("levels", "k must be in [2, 65536]");
  if (step_bits < 1 || step_bits > 40) throw InvalidArgument("step_bits", "must be in [1, 40]");
  if (span != (static_cast<std::int64_t>(levels) - 1) << step_bits)
    throw InvalidArgument("span", "must be (k - 1) * 2^step_bits, got " + std::to_string(span));
  int b = 1;
  while ((std::uint64_t{1} << b) < levels) ++b;
  if (index_bits != b) throw InvalidArgument("index_bits", "must be ceil(log2 k) = " + std::to_string(b));
  if (m > (std::size_t{1} << 27)) throw InvalidArgument("position", "more than 2^27 coordinates");
  return {m, span, step_bits, levels, index_bits};
}

void Launch(const std::int64_t* position, const cuda_kernels::QgaussRounding& p, const StreamContext& ctx,
            std::uint32_t client, std::uint64_t* words) {
  const cuda_kernels::QgaussLaunch launch = cuda_kernels::MakeQgaussLaunch(p, ctx, client);
  if (launch.blocks > static_cast<std::uint64_t>(INT_MAX)) throw InvalidArgument("position", "too many coordinates for one launch");
  const auto blocks = static_cast<unsigned>(launch.blocks);
  if (ctx.generator == rng::Generator::kChaCha20)
    QgaussRoundKernel<rng::Generator::kChaCha20><<<blocks, kBlockThreads>>>(position, p, ctx.key, launch.coins, words);
  else
    QgaussRoundKernel<rng::Generator::kPhilox4x32><<<blocks, kBlockThreads>>>(position, p, ctx.key, launch.coins, words);
  LaunchCheck();
}

}  // namespace

void CudaQgaussRoundPack(const std::int64_t* position, std::size_t m, std::int64_t span, int step_bits,
                         std::uint32_t levels, int index_bits, const StreamContext& ctx, std::uint32_t client,
                         std::uint64_t* words) {
  const cuda_kernels::QgaussRounding p = CheckedRounding(m, span, step_bits, levels, index_bits);
  if (m == 0) return;
  CheckDevicePointer(position, "position");
  CheckDevicePointer(words, "words");
  Launch(position, p, ctx, client, words);
}

void CudaQgaussRoundPack(std::span<const std::int64_t> position, std::int64_t span, int step_bits, std::uint32_t levels,
                         int index_bits, const StreamContext& ctx, std::uint32_t client, std::span<std::uint64_t> words) {
  const cuda_kernels::QgaussRounding p = CheckedRounding(position.size(), span, step_bits, levels, index_bits);
  const std::uint64_t n = cuda_kernels::QgaussMessageWords(p);
  if (words.size() != n)
    throw InvalidArgument("words", "must hold ceil(m * index_bits / 64) = " + std::to_string(n) + " words");
  if (position.empty()) return;
  DeviceBuffer<std::int64_t> position_dev(position.size());
  DeviceBuffer<std::uint64_t> words_dev(n);
  DPFL_CUDA_CHECK(cudaMemcpy(position_dev.get(), position.data(), position.size_bytes(), cudaMemcpyHostToDevice));
  Launch(position_dev.get(), p, ctx, client, words_dev.get());
  DPFL_CUDA_CHECK(cudaMemcpy(words.data(), words_dev.get(), n * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
}

}  // namespace dpfl::quant
