// Inputs of the encoder tests that compare two implementations of the same kernel word for word
// (tests/cuda: GPU vs CPU; tests/unit/cuda_emulator_test.cpp, cuda_emulator_rr_test.cpp: emulated
// kernel bodies vs CPU; tests/unit/rr_encoder_test.cpp: SIMD vs scalar loops): stream contexts
// from a seed, weights with the boundary values that break a wrong clip, and DPFL-BNN latents θ
// with those that break a wrong clip, floor, sign or head comparison.
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
#include "dpfl/quant/fast_encoders.hpp"
#include "dpfl/quant/rr_element.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::testing {

inline constexpr rng::Generator kGenerators[] = {rng::Generator::kChaCha20, rng::Generator::kPhilox4x32};

// The instruction sets of the CPU fast paths this machine can run (baseline always).
inline std::vector<quant::fast::Isa> SupportedIsas() {
  std::vector<quant::fast::Isa> isas = {quant::fast::Isa::kBaseline};
  const quant::fast::Isa best = quant::fast::BestIsa();
  if (best == quant::fast::Isa::kAvx2 || best == quant::fast::Isa::kAvx512) isas.push_back(quant::fast::Isa::kAvx2);
  if (best == quant::fast::Isa::kAvx512) isas.push_back(quant::fast::Isa::kAvx512);
  return isas;
}

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

// ---- DPFL-BNN latents (StoSign, seed 004 Alg. B) ----------------------------------------------

// θ values that break a wrong clip, floor, sign or head comparison: ±1 and their neighbours, ±0,
// denormals, |θ| > 1 up to ±FLT_MAX, and head-cell edges (multiples of 2^−15, among them ±1/2 and
// ±1/32768) with their neighbours.
inline std::vector<float> BoundaryLatents() {
  const float tiny = std::numeric_limits<float>::denorm_min();
  std::vector<float> v = {1.0f, -1.0f, std::nextafter(1.0f, 0.0f), std::nextafter(-1.0f, 0.0f),
                          std::nextafter(1.0f, 2.0f), std::nextafter(-1.0f, -2.0f), 0.0f, -0.0f, tiny, -tiny,
                          FLT_MIN / 2, -FLT_MIN / 2, FLT_MIN, -FLT_MIN, 1.5f, -1.5f, 1e30f, -1e30f, FLT_MAX, -FLT_MAX};
  for (int k : {-32768, -32767, -16384, -1, 1, 3, 12345, 16384, 32767}) {
    const float x = static_cast<float>(k) / 32768.0f;
    v.insert(v.end(), {x, std::nextafter(x, -2.0f), std::nextafter(x, 2.0f)});
  }
  return v;
}

// m latents: uniform on [−1.5, 1.5], about a sixth replaced by boundary values or random
// multiples of 2^−15; the boundary list also fills the message's last coordinates (the tail word).
// All finite (tests that need a NaN/±Inf put it in themselves).
inline std::vector<float> Latents(std::size_t m, std::uint64_t seed) {
  std::mt19937_64 mt(seed);
  std::uniform_real_distribution<float> u(-1.5f, 1.5f);
  const std::vector<float> special = BoundaryLatents();
  std::vector<float> theta(m);
  for (float& t : theta) t = u(mt);
  for (float& t : theta) {
    if (mt() % 6 != 0) continue;
    const float cell_edge = static_cast<float>(static_cast<int>(mt() % 65537) - 32768) / 32768.0f;  // k·2^−15
    t = mt() % 2 ? special[mt() % special.size()] : cell_edge;
  }
  for (std::size_t i = 0; i < special.size() && i < m; ++i) theta[m - 1 - i] = special[i];
  return theta;
}

// θ_j = (head_j − 2^15 + 1/2)/2^15 with head_j = rng::DecisionHead of coordinate j's StoSign
// stream (client `client` of `ctx`): then T(θ_j) >> 48 = head_j (⌊θ_j·2^15⌋ = head_j − 2^15), so
// every coordinate's heads tie and encoders take their exact tail path (rng::DecisionUniform64).
inline std::vector<float> TieLatents(std::size_t m, const quant::StreamContext& ctx, std::uint32_t client) {
  const rng::StreamAddress addr{ctx.round, client, rng::Purpose::kStoSign};
  std::vector<float> theta(m);
  for (std::size_t j = 0; j < m; ++j) {
    const std::uint32_t head = rng::DecisionHead(ctx.generator, ctx.key, addr, j, quant::kBnnHeadBits);
    theta[j] = (static_cast<float>(head) - 32768.0f + 0.5f) / 32768.0f;
  }
  return theta;
}

}  // namespace dpfl::testing
