// The quantized Gaussian's CUDA rounding kernel (quantized_gaussian.cu) without a GPU: the grid
// emulator applied to production/cuda/qgauss_kernel_bodies.hpp. It runs the kernel's per-thread
// body for every thread of the launch the host code makes (MakeQgaussLaunch), writes a word only
// where the kernel does (w below the message's word count), and compares the message bit for bit
// with the CPU's QgaussEncodeScalar for the same client, round and key — the noisy positions
// handed to the body are the CPU's own (QgaussNoisy + L/2), as the host API expects. Both
// generators; k from 2 to 65,536 (index widths 1, 2, 4, 8, 16 and the straddling 3 and 9); sizes
// around the word boundaries. What it cannot show (timing, the device compiler, memory) is in
// docs/cuda.md.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "dpfl/fl/quantized_gaussian.hpp"
#include "qgauss_kernel_bodies.hpp"
#include "testing/encoder_inputs.hpp"

namespace dpfl::quant {
namespace {

namespace ck = cuda_kernels;
using dpfl::testing::Context;
using dpfl::testing::kGenerators;
using dpfl::testing::Name;

// Every thread of the launch runs the body; the kernel stores word w only for w < words.
std::vector<std::uint64_t> EmulateKernel(const std::vector<std::int64_t>& position, const ck::QgaussRounding& p,
                                         const StreamContext& ctx, std::uint32_t client) {
  const ck::QgaussLaunch launch = ck::MakeQgaussLaunch(p, ctx, client);
  const std::uint64_t words = ck::QgaussMessageWords(p);
  EXPECT_GE(launch.blocks * ck::kBlockThreads, words);
  if (words > 0) {
    EXPECT_LT((launch.blocks - 1) * ck::kBlockThreads, words);  // no idle block
  }
  std::vector<std::uint64_t> out(words, 0xA5A5A5A5A5A5A5A5ull);
  for (std::uint64_t w = 0; w < launch.blocks * ck::kBlockThreads; ++w) {
    const std::uint64_t word = ctx.generator == rng::Generator::kChaCha20
                                   ? ck::QgaussWordOfThread<rng::Generator::kChaCha20>(position.data(), p, ctx.key, launch.coins, w)
                                   : ck::QgaussWordOfThread<rng::Generator::kPhilox4x32>(position.data(), p, ctx.key, launch.coins, w);
    if (w < words) {
      out[w] = word;
    } else {
      EXPECT_EQ(word, 0u) << "a thread past the message computed a word";
    }
  }
  return out;
}

TEST(CudaEmulatorQgauss, KernelMessageEqualsTheCpuMessage) {
  struct Case {
    double sigma;
    std::uint32_t k;
    std::size_t size;
  };
  const Case cases[] = {{0.03, 2, 1},    {0.03, 2, 64},     {0.03, 2, 65},   {1.0, 4, 1000},  {0.3, 5, 333},
                        {0.03, 16, 4097}, {0.01, 256, 129}, {0.5, 300, 701}, {2.0, 65536, 97}, {0.03, 8, 64 * 3 + 1}};
  for (const rng::Generator gen : kGenerators) {
    StreamContext ctx = Context(gen, 17);
    ctx.round = 6;
    for (const Case& c : cases) {
      const fl::QgaussGrid grid = fl::MakeQgaussGrid({c.sigma, c.k, 1.0});
      std::vector<float> update(c.size);
      for (std::size_t j = 0; j < c.size; ++j) update[j] = static_cast<float>(std::cos(1.3 * static_cast<double>(j)));
      const std::vector<std::int64_t> q = fl::QgaussClipToGrid(grid, update);
      const std::uint32_t client = 11;
      std::vector<std::int64_t> position = fl::QgaussNoisy(grid, q, ctx, client, 1);
      for (std::int64_t& v : position) v += grid.span / 2;
      const ck::QgaussRounding p{c.size, grid.span, grid.step_bits, grid.levels, grid.index_bits};
      const std::vector<std::uint64_t> gpu = EmulateKernel(position, p, ctx, client);
      const fl::QgaussMessage cpu = fl::QgaussEncodeScalar(grid, q, ctx, client, 1);
      ASSERT_EQ(gpu, cpu.words) << Name(gen) << " k=" << c.k << " size=" << c.size;
    }
  }
}

// The emulated kernel is not trivially equal: another client's coins give another message.
TEST(CudaEmulatorQgauss, AnotherClientsCoinsGiveAnotherMessage) {
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 3);
  const fl::QgaussGrid grid = fl::MakeQgaussGrid({0.03, 16, 1.0});
  std::vector<float> update(2000, 0.001f);
  const std::vector<std::int64_t> q = fl::QgaussClipToGrid(grid, update);
  std::vector<std::int64_t> position = fl::QgaussNoisy(grid, q, ctx, 1, 1);
  for (std::int64_t& v : position) v += grid.span / 2;
  const ck::QgaussRounding p{q.size(), grid.span, grid.step_bits, grid.levels, grid.index_bits};
  EXPECT_NE(EmulateKernel(position, p, ctx, 2), fl::QgaussEncodeScalar(grid, q, ctx, 1, 1).words);
  EXPECT_EQ(EmulateKernel(position, p, ctx, 1), fl::QgaussEncodeScalar(grid, q, ctx, 1, 1).words);
}

}  // namespace
}  // namespace dpfl::quant
