// INTERNAL to the dpfl libraries and their tests; not installed.
//
// The scalar loops of the DPFL-BNN client encoders (dpfl/quant/randomized_response.hpp),
// templated on the fault policy of rr_rules.hpp: production instantiates NoRrFaults (the public
// encoders, and the SIMD path's unaligned ends in src/cpu/fast_rr.cpp); tests/mutants instantiate
// planted faults. Every uniform is materialized in full (rng::DecisionUniform64 layout, 16-bit
// heads), so these loops are also the slow exact form the fast path must equal bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/cpu_encoders.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/quant/rr_rules.hpp"

namespace dpfl::quant::detail {

// The stream addresses of a client's coins; the reuse mutant drops the round (every round would
// then draw round 0's coins, and two rounds' uploads of the same latents would coincide).
template <class Faults = NoRrFaults>
rng::StreamAddress StoSignAddress(const StreamContext& ctx, std::uint32_t client) {
  return {Faults::kStreamReusedAcrossRounds ? 0u : ctx.round, client, rng::Purpose::kStoSign};
}
template <class Faults = NoRrFaults>
rng::StreamAddress RrAddress(const StreamContext& ctx, std::uint32_t client) {
  return {Faults::kStreamReusedAcrossRounds ? 0u : ctx.round, client, rng::Purpose::kRandomizedResponse};
}

// Mask of the valid bits of `word` in a message of m bits.
inline std::uint64_t WordMask(std::size_t m, std::size_t word) {
  const std::size_t n = BitsInWord(m, word);
  return n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

// The uniforms of one word; the E29 mutant reads coordinate 0's for all of them.
template <class Faults>
void RrUniformsForWord(const StreamContext& ctx, const rng::StreamAddress& addr, std::size_t word, std::uint64_t u[64]) {
  if (Faults::kOneCoinPerMessage) {
    const std::uint64_t first = rng::DecisionUniform64(ctx.generator, ctx.key, addr, 0, kBnnHeadBits);
    for (int k = 0; k < 64; ++k) u[k] = first;
    return;
  }
  UniformsForWord(ctx, addr, word, kBnnHeadBits, u);
}

template <class Faults>
void SignWords(std::span<const float> theta, std::span<std::uint64_t> bits, std::size_t lo, std::size_t hi) {
  for (std::size_t word = lo; word < hi; ++word) {
    const float* x = theta.data() + word * 64;
    std::uint64_t out = 0;
    for (std::size_t k = 0, n = BitsInWord(theta.size(), word); k < n; ++k) out |= std::uint64_t{SignRule<Faults>(x[k])} << k;
    bits[word] = out;
  }
}

template <class Faults>
void StoSignWords(std::span<const float> theta, const StreamContext& ctx, const rng::StreamAddress& addr,
                  std::span<std::uint64_t> bits, std::size_t lo, std::size_t hi) {
  std::uint64_t u[64];
  for (std::size_t word = lo; word < hi; ++word) {
    RrUniformsForWord<Faults>(ctx, addr, word, u);
    const float* x = theta.data() + word * 64;
    std::uint64_t out = 0;
    for (std::size_t k = 0, n = BitsInWord(theta.size(), word); k < n; ++k)
      out |= std::uint64_t{StoSignRule<Faults>(x[k], u[k])} << k;
    bits[word] = out;
  }
}

template <class Faults>
void RandomizeWords(std::uint64_t flip_threshold, std::size_t m, const StreamContext& ctx, const rng::StreamAddress& addr,
                    std::span<std::uint64_t> bits, std::size_t lo, std::size_t hi) {
  std::uint64_t u[64];
  for (std::size_t word = lo; word < hi; ++word) {
    RrUniformsForWord<Faults>(ctx, addr, word, u);
    const std::uint64_t in = bits[word];
    std::uint64_t out = 0;
    for (std::size_t k = 0, n = BitsInWord(m, word); k < n; ++k)
      out |= std::uint64_t{RrRule<Faults>(((in >> k) & 1u) != 0, u[k], flip_threshold)} << k;
    bits[word] = out;
  }
}

// Full encoders (validation included), for the mutants and the tests.
template <class Faults>
void EncodeSignT(std::span<const float> theta, std::span<std::uint64_t> bits, int threads) {
  ValidateLatents(theta, bits.size());
  ForWordRanges(PackedWords(theta.size()), threads,
                [&](std::size_t lo, std::size_t hi) { SignWords<Faults>(theta, bits, lo, hi); });
}

template <class Faults>
void EncodeStoSignT(std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
                    std::span<std::uint64_t> bits, int threads) {
  ValidateLatents(theta, bits.size());
  CheckIndexRange(ctx, theta.size());
  const rng::StreamAddress addr = StoSignAddress<Faults>(ctx, client);
  ForWordRanges(PackedWords(theta.size()), threads,
                [&](std::size_t lo, std::size_t hi) { StoSignWords<Faults>(theta, ctx, addr, bits, lo, hi); });
}

template <class Faults>
void ApplyRandomizedResponseT(const RandomizedResponse& rr, std::size_t m, const StreamContext& ctx,
                              std::uint32_t client, std::span<std::uint64_t> bits, int threads) {
  ValidateOutputSize(m, bits.size());
  CheckIndexRange(ctx, m);
  const std::uint64_t t = FlipThresholdRule<Faults>(rr.gamma);
  const rng::StreamAddress addr = RrAddress<Faults>(ctx, client);
  ForWordRanges(PackedWords(m), threads,
                [&](std::size_t lo, std::size_t hi) { RandomizeWords<Faults>(t, m, ctx, addr, bits, lo, hi); });
}

// A client's upload (Alg. 1' lines 13–14): binarize (Alg. B), then randomized response (Alg. C)
// unless rr is null. The kRrBeforeBinarization mutant swaps the two: each latent's sign is
// flipped with the RR coin, then the result is binarized (for StoSign the upload's law is the
// same, 1/2 + γ·clip(θ), since σ(−θ) = 1 − σ(θ); for Sign a tie θ = 0 then uploads "+" surely).
template <class Faults>
void EncodeBnnUploadT(Binarizer binarizer, const RandomizedResponse* rr, std::span<const float> theta,
                      const StreamContext& ctx, std::uint32_t client, std::span<std::uint64_t> bits, int threads) {
  auto binarize = [&](std::span<const float> x) {
    if (binarizer == Binarizer::kSign) {
      EncodeSignT<Faults>(x, bits, threads);
    } else {
      EncodeStoSignT<Faults>(x, ctx, client, bits, threads);
    }
  };
  if (Faults::kRrBeforeBinarization && rr != nullptr) {
    ValidateLatents(theta, bits.size());
    CheckIndexRange(ctx, theta.size());
    const std::uint64_t t = FlipThresholdRule<Faults>(rr->gamma);
    const rng::StreamAddress addr = RrAddress<Faults>(ctx, client);
    std::vector<float> flipped(theta.begin(), theta.end());
    for (std::size_t j = 0; j < flipped.size(); ++j)
      if (rng::DecisionUniform64(ctx.generator, ctx.key, addr, j, kBnnHeadBits) < t) flipped[j] = -flipped[j];
    binarize(flipped);
    return;
  }
  binarize(theta);
  if (rr != nullptr) ApplyRandomizedResponseT<Faults>(*rr, theta.size(), ctx, client, bits, threads);
}

template <class Faults>
void DecodeBnnAverageT(std::span<const std::uint32_t> counts, std::uint32_t n, std::span<float> mean) {
  if (n == 0) throw InvalidArgument("n", "cannot average zero uploads");
  if (mean.size() != counts.size()) throw InvalidArgument("mean", "size differs from counts");
  for (std::size_t j = 0; j < counts.size(); ++j) {
    if (counts[j] > n) throw InvalidArgument("counts", "count[" + std::to_string(j) + "] exceeds the number of uploads n");
    mean[j] = static_cast<float>(BnnAverageRule<Faults>(counts[j], n));
  }
}

}  // namespace dpfl::quant::detail
