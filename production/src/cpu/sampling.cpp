// See dpfl/quant/sampling.hpp.
#include "dpfl/quant/sampling.hpp"

#include <bit>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/cpu_encoders.hpp"  // internal: BitsInWord

namespace dpfl::quant {

std::uint64_t SplitMix64(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

rng::StreamKey SampleKeyFromSeed(std::uint64_t seed) {
  rng::StreamKey key{};
  std::uint64_t state = seed;
  for (int i = 0; i < 4; ++i) {
    const std::uint64_t word = SplitMix64(state);
    key.words[2 * i] = static_cast<std::uint32_t>(word);
    key.words[2 * i + 1] = static_cast<std::uint32_t>(word >> 32);
  }
  return key;
}

ChunkEncoder CpuChunkEncoder(SampledQuantizer quantizer, const BinaryLevels& levels, int d, int threads) {
  if (quantizer == SampledQuantizer::kRr || quantizer == SampledQuantizer::kStoSign)
    throw InvalidArgument("quantizer", "RR and StoSign draws take CpuBnnChunkEncoder");
  return [quantizer, levels, d, threads](const StreamContext& ctx, std::span<const float> w1, std::span<const float> w2,
                                         std::span<std::uint64_t> b1, std::span<std::uint64_t> b2) {
    switch (quantizer) {
      case SampledQuantizer::kLdpq:
        EncodeLdpq(levels, w1, ctx, 0, b1, threads);
        break;
      case SampledQuantizer::kCorBinQ:
        EncodeCorBinQPair(levels, w1, w2, d, ctx, 0, 0, 1, b1, b2, threads);
        break;
      case SampledQuantizer::kCoq:
        EncodeCoq(levels, w1, d, PairRole::kQ1, 0.5, ctx, 0, 0, b1, threads);
        EncodeCoq(levels, w2, d, PairRole::kQ2, 0.5, ctx, 0, 1, b2, threads);
        break;
      case SampledQuantizer::kRr:
      case SampledQuantizer::kStoSign:
        break;  // rejected above
    }
  };
}

ChunkEncoder CpuBnnChunkEncoder(SampledQuantizer quantizer, const RandomizedResponse& rr, int threads) {
  if (quantizer != SampledQuantizer::kRr && quantizer != SampledQuantizer::kStoSign)
    throw InvalidArgument("quantizer", "CpuBnnChunkEncoder draws RR or StoSign only");
  return [quantizer, rr, threads](const StreamContext& ctx, std::span<const float> w1, std::span<const float>,
                                  std::span<std::uint64_t> b1, std::span<std::uint64_t>) {
    if (quantizer == SampledQuantizer::kStoSign) {
      EncodeStoSign(w1, ctx, 0, b1, threads);
      return;
    }
    EncodeBnnUpload(Binarizer::kSign, &rr, w1, ctx, 0, b1, threads);
  };
}

SampleCounts DrawSampleCounts(SampledQuantizer quantizer, float w1, float w2, std::uint64_t n, StreamContext ctx,
                              const ChunkEncoder& encode) {
  if (n < 1 || n > kMaxSampleDraws)
    throw InvalidArgument("n", "must be an integer in [1, 2^48], got " + std::to_string(n));
  const bool pair = IsPairSampler(quantizer);
  const std::size_t chunk = static_cast<std::size_t>(n < kSampleChunk ? n : kSampleChunk);
  const std::vector<float> x1(chunk, w1), x2(pair ? chunk : 0, w2);
  std::vector<std::uint64_t> bits1(PackedWords(chunk)), bits2(pair ? bits1.size() : 0);
  SampleCounts counts;
  for (std::uint64_t done = 0, k = 0; done < n; done += chunk, ++k) {
    const std::size_t m = static_cast<std::size_t>(n - done < chunk ? n - done : chunk);
    ctx.round = static_cast<std::uint32_t>(k);
    const std::span<std::uint64_t> b1(bits1.data(), PackedWords(m)), b2(bits2.data(), pair ? PackedWords(m) : 0);
    encode(ctx, std::span<const float>(x1.data(), m), std::span<const float>(x2.data(), pair ? m : 0), b1, b2);
    for (std::size_t i = 0; i < b1.size(); ++i) {
      const std::size_t bits = detail::BitsInWord(m, i);  // the last word may be partial
      const std::uint64_t mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
      if (!pair) {
        counts.plus += static_cast<std::uint64_t>(std::popcount(b1[i] & mask));
        continue;
      }
      counts.joint[0] += static_cast<std::uint64_t>(std::popcount(~b1[i] & ~b2[i] & mask));
      counts.joint[1] += static_cast<std::uint64_t>(std::popcount(~b1[i] & b2[i] & mask));
      counts.joint[2] += static_cast<std::uint64_t>(std::popcount(b1[i] & ~b2[i] & mask));
      counts.joint[3] += static_cast<std::uint64_t>(std::popcount(b1[i] & b2[i] & mask));
    }
  }
  return counts;
}

}  // namespace dpfl::quant
