// The per-thread body of the quantized Gaussian's rounding kernel (quantized_gaussian.cu; seed 003
// Alg. 1 line 9) as a DPFL_HD function, and its launch geometry. As for kernel_bodies.hpp and
// rr_kernel_bodies.hpp the kernel is a thin wrapper (it adds only blockIdx/threadIdx), so
// tests/unit/cuda_emulator_qgauss_test.cpp compiles this very body with the host compiler, runs it
// for every thread of the launch the host code makes, and compares the message bit for bit with the
// CPU's QgaussEncodeScalar.
//
// What runs on the device, and what does not. The mechanism's exact discrete Gaussian (CKS 2020
// Alg. 3; dpfl/fl/discrete_noise.hpp) is rejection sampling whose stream words depend on the
// chunk's earlier samples, with a GMP fallback for rare huge exponents: it runs on the host, which
// hands the device the noisy positions L/2 + q_j + Z_j (grid units; fl::QgaussNoisy plus L/2). The
// device does the per-coordinate part: the rounding coin (word j of the stream (round, client,
// kQgaussRounding)), saturation, the stochastic rounding rule and the packing.
//
// Work mapping: thread w writes packed word w of the message (b = index_bits bits per index, index
// j at bits [j·b, (j + 1)·b)). It evaluates every coordinate whose bits overlap its word (at most
// ⌈64/b⌉ + 1); an index that straddles two words is evaluated by both threads, each keeping its own
// bits — the same pure function of (position_j, coin_j), so the two halves agree. Every word is
// written by one thread and read by none: no atomics, no ordering.
//
// Decisions: fl::QgaussIndexRule<> (production/internal/dpfl/fl/qgauss_rules.hpp), the DPFL_HD
// function the CPU's scalar loop calls — integer arithmetic only.
#pragma once

#include <cstdint>

#include "dpfl/fl/qgauss_rules.hpp"
#include "dpfl/hd.hpp"
#include "dpfl/rng/streams.hpp"
#include "kernel_bodies.hpp"

namespace dpfl::quant::cuda_kernels {

// The integers of the grid the rule needs (fl::QgaussGrid without the doubles).
struct QgaussRounding {
  std::uint64_t m = 0;        // coordinates
  std::int64_t span = 0;      // L = (k − 1)·2^step_bits
  int step_bits = 0;          // m of the grid (2^m points per quantizer step)
  std::uint32_t levels = 2;   // k
  int index_bits = 1;         // b = ⌈log2 k⌉
};

DPFL_HD std::uint64_t QgaussMessageWords(const QgaussRounding& p) {
  return (p.m * static_cast<std::uint64_t>(p.index_bits) + 63) / 64;
}

// One launch <<<blocks, kBlockThreads>>>: a thread per message word, and the coin stream
// (ctx.round, client, kQgaussRounding) exactly as the CPU loops address it.
struct QgaussLaunch {
  std::uint64_t blocks;
  rng::StreamAddress coins;
};
inline QgaussLaunch MakeQgaussLaunch(const QgaussRounding& p, const StreamContext& ctx, std::uint32_t client) {
  return {(QgaussMessageWords(p) + kBlockThreads - 1) / kBlockThreads, {ctx.round, client, rng::Purpose::kQgaussRounding}};
}

// Body of thread w: packed word w of the message (0 for a thread past the message). position[j]
// is the noisy grid position L/2 + q_j + Z_j, saturated by the rule.
template <rng::Generator G>
DPFL_HD std::uint64_t QgaussWordOfThread(const std::int64_t* position, const QgaussRounding& p, const rng::StreamKey& key,
                                         const rng::StreamAddress& coins, std::uint64_t w) {
  const std::uint64_t b = static_cast<std::uint64_t>(p.index_bits);
  const std::uint64_t lo_bit = 64 * w, hi_bit = lo_bit + 64;
  if (w >= QgaussMessageWords(p)) return 0;
  // ChaCha20 gives 8 coins per block: compute each block once per thread.
  std::uint64_t block[8] = {};
  std::uint64_t cached = ~std::uint64_t{0};
  const auto coin = [&](std::uint64_t j) -> std::uint64_t {
    if constexpr (G == rng::Generator::kChaCha20) {
      if ((j >> 3) != cached) {
        cached = j >> 3;
        rng::ChaChaUniformBlock(key, coins, static_cast<std::uint32_t>(cached), block);
      }
      return block[j & 7];
    } else {
      return rng::Uniform64(G, key, coins, j);
    }
  };
  std::uint64_t word = 0;
  for (std::uint64_t j = lo_bit / b; j < p.m && j * b < hi_bit; ++j) {
    const std::uint64_t index = fl::QgaussIndexRule<>(position[j], coin(j), p.span, p.step_bits, p.levels);
    const std::uint64_t bit = j * b;
    word |= bit >= lo_bit ? index << (bit - lo_bit) : index >> (lo_bit - bit);
  }
  return word;
}

}  // namespace dpfl::quant::cuda_kernels
