// Inputs of the encoder tests that compare two implementations of the same kernel word for word
// (tests/cuda: GPU vs CPU; tests/unit/cuda_emulator_test.cpp: emulated kernel bodies vs CPU):
// stream contexts from a seed, and weights with the boundary values that break a wrong clip.
// Test data from a fixed-seed std::mt19937_64, not DP randomness.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "dpfl/quant/binary_element.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::testing {

inline const char* Name(rng::Generator g) { return g == rng::Generator::kChaCha20 ? "ChaCha20" : "Philox4x32"; }

inline quant::StreamContext Context(rng::Generator gen, std::uint32_t seed) {
  quant::StreamContext ctx;
  ctx.generator = gen;
  std::mt19937_64 mt(seed);
  for (std::uint32_t& word : ctx.key.words) word = static_cast<std::uint32_t>(mt());
  ctx.round = seed % 1000;
  return ctx;
}

// Random weights over [c − 2r, c + 2r] (half of them clipped), with boundary inputs mixed in:
// exactly c ± r, c, neighbours of the clip bounds, ±0, denormals, huge finite values.
inline std::vector<float> Weights(std::size_t m, const quant::BinaryLevels& k, std::uint64_t seed) {
  std::mt19937_64 mt(seed);
  std::uniform_real_distribution<double> u(k.c - 2 * k.r, k.c + 2 * k.r);
  const float lo = static_cast<float>(k.lo), hi = static_cast<float>(k.hi);
  const std::vector<float> special = {lo,
                                      hi,
                                      static_cast<float>(k.c),
                                      std::nextafter(lo, -FLT_MAX),
                                      std::nextafter(lo, FLT_MAX),
                                      std::nextafter(hi, -FLT_MAX),
                                      std::nextafter(hi, FLT_MAX),
                                      0.0f,
                                      -0.0f,
                                      std::numeric_limits<float>::denorm_min(),
                                      -std::numeric_limits<float>::denorm_min(),
                                      FLT_MAX,
                                      -FLT_MAX,
                                      1e30f,
                                      -1e30f};
  std::vector<float> w(m);
  for (std::size_t j = 0; j < m; ++j) w[j] = static_cast<float>(u(mt));
  for (std::size_t j = 0; j < m; ++j)
    if (mt() % 8 == 0) w[j] = special[mt() % special.size()];
  if (m >= special.size())
    for (std::size_t i = 0; i < special.size(); ++i) w[m - 1 - i] = special[i];  // boundaries in the tail word
  return w;
}

// Weights that make nearly every Q1 decision's heads tie with T >> 48 (T+ >> 48 = V >> 48 for
// the pair (`pair`, `client`) of `ctx` with d shared bits), so that encoders take their exact
// tail path (rng::DecisionUniform64) for almost every parameter.
inline std::vector<float> TieWeights(std::size_t m, const quant::BinaryLevels& k, const quant::StreamContext& ctx,
                                     std::uint32_t pair, std::uint32_t client, int d) {
  const rng::StreamAddress sa{ctx.round, pair, rng::Purpose::kSharedBits};
  const rng::StreamAddress pa{ctx.round, client, rng::Purpose::kPrivateCoin};
  std::vector<float> w(m);
  for (std::size_t j = 0; j < m; ++j) {
    const std::uint64_t v =
        quant::MergeSharedPrivate(rng::DecisionUniform64(ctx.generator, ctx.key, sa, j, quant::SharedHeadBits(d)),
                                  rng::DecisionUniform64(ctx.generator, ctx.key, pa, j, quant::RolePrivateHeadBits(d)), d);
    const double q = (static_cast<double>(v >> 48) + 0.5) / 65536.0;
    w[j] = static_cast<float>(k.c + (q - 0.5) / k.inv_two_r_alpha);
  }
  return w;
}

}  // namespace dpfl::testing
