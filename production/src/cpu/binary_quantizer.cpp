// CPU encoders of the binary quantizers (see dpfl/quant/binary_quantizer.hpp).
//
// Layout of the work: packed words (64 parameters each) are split into contiguous ranges across
// threads, so the output is independent of the thread count; the SIMD path (fast_encoders.cpp)
// takes whole groups of 8 words, whose 16-bit random heads fill 16 ChaCha20 blocks (64 Philox
// blocks) per stream.
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/cpu_encoders.hpp"
#include "dpfl/quant/fast_encoders.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/validate.hpp"

namespace dpfl::quant {

BinaryLevels MakeBinaryLevels(double eps, double c, double r) {
  Require("eps", eps, Domain::Positive(), "seed-000 Alg. 1");
  Require("c", c, Domain::Finite());
  Require("r", r, Domain::Positive());
  const double e = std::exp(eps);
  const double alpha = (e + 1.0) / (e - 1.0);  // seed-000 Alg. 1 l.1
  if (!std::isfinite(alpha) || !(alpha > 1.0))
    throw InvalidArgument("eps", "alpha(eps) = (e^eps+1)/(e^eps-1) must be > 1 in double precision; eps = " +
                                     ShortestDouble(eps) + " is too large");
  // Every derived constant must be finite and non-degenerate, or privacy silently breaks
  // (found by fuzz_quantizer_inputs): a subnormal r makes 1/(2rα) infinite, q NaN and the
  // output deterministic; a huge r makes 1/(2rα) zero and q ≡ 1/2. The output levels c ± rα
  // must also be representable as floats, since decoded means are float32.
  const double two_r_alpha = 2.0 * r * alpha, inv = 1.0 / two_r_alpha;
  if (!std::isfinite(two_r_alpha) || !std::isfinite(inv) || !(inv > 0) || !std::isnormal(inv))
    throw InvalidArgument("r", "radius " + ShortestDouble(r) + " gives a degenerate 1/(2 r alpha); use |r| in about [1e-300, 1e300]");
  constexpr double kFloatMax = 3.4028234663852886e38;
  if (!(std::fabs(c) + r * alpha <= kFloatMax))
    throw InvalidArgument("c", "levels c +- r*alpha must lie within the float range (|c| + r*alpha <= 3.4e38)");
  BinaryLevels k{};
  k.c = c;
  k.r = r;
  k.alpha = alpha;
  k.inv_two_r_alpha = inv;
  k.lo = c - r;
  k.hi = c + r;
  return k;
}

void ValidateOutputSize(std::size_t m, std::size_t packed_words) {
  if (packed_words < PackedWords(m))
    throw InvalidArgument("bits", "output holds " + std::to_string(packed_words) + " words, need " +
                                      std::to_string(PackedWords(m)));
}

void ValidateWeights(std::span<const float> w, std::size_t packed_words) {
  ValidateOutputSize(w.size(), packed_words);
  if (!detail::AnyNonFinite(w.data(), w.size())) return;
  for (std::size_t j = 0; j < w.size(); ++j)
    if (!std::isfinite(w[j]))
      throw InvalidArgument("w", "weight w[" + std::to_string(j) + "] is " + std::to_string(w[j]) +
                                     " (NaN and +-Inf are rejected; finite values are clipped to [c - r, c + r])");
}

void ValidateSameGenerator(const StreamContext& shared_ctx, const StreamContext& private_ctx) {
  if (shared_ctx.generator != private_ctx.generator)
    throw InvalidArgument("generator", "shared and private streams must use the same generator");
}

void ValidateSharedBits(int d) {
  if (d < 0 || d > 62) throw InvalidArgument("d", "shared bits per parameter must be in [0, 62], got " + std::to_string(d));
}

// The public encoders run the SIMD fast path (bit-identical to the scalar loops; see
// fast_encoders.cpp and tests/unit/fast_encoder_test.cpp) on the widest instruction set.
namespace {
fast::Isa Isa() { return fast::ActiveIsa(); }
}  // namespace

void EncodeLdpq(const BinaryLevels& levels, std::span<const float> w, const StreamContext& ctx, std::uint32_t client,
                std::span<std::uint64_t> bits, int threads) {
  fast::EncodeLdpqFast(levels, w, ctx, client, bits, threads, Isa());
}

void EncodeCorBinQ(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                   const StreamContext& ctx, std::uint32_t pair, std::uint32_t client,
                   std::span<std::uint64_t> bits, int threads) {
  fast::EncodeCorBinQFast(levels, w, d, role, ctx, ctx, pair, client, bits, threads, Isa());
}

void EncodeCorBinQ(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                   const StreamContext& shared_ctx, const StreamContext& private_ctx, std::uint32_t pair,
                   std::uint32_t client, std::span<std::uint64_t> bits, int threads) {
  fast::EncodeCorBinQFast(levels, w, d, role, shared_ctx, private_ctx, pair, client, bits, threads, Isa());
}

void EncodeCoq(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role, double p_x,
               const StreamContext& shared_ctx, const StreamContext& private_ctx, std::uint32_t pair,
               std::uint32_t client, std::span<std::uint64_t> bits, int threads) {
  if (!(p_x == 0.5))
    throw InvalidArgument("p_x", "the production CoQ-FL path supports the codebook bias p_x = 1/2 only, got " +
                                     ShortestDouble(p_x));
  EncodeCorBinQ(levels, w, d, role, shared_ctx, private_ctx, pair, client, bits, threads);
}

void EncodeCorBinQPair(const BinaryLevels& levels, std::span<const float> w1, std::span<const float> w2, int d,
                       const StreamContext& ctx, std::uint32_t pair, std::uint32_t client1, std::uint32_t client2,
                       std::span<std::uint64_t> bits1, std::span<std::uint64_t> bits2, int threads) {
  if (w1.size() != w2.size()) throw InvalidArgument("w2", "both clients of a pair must send the same number of parameters");
  EncodeCorBinQ(levels, w1, d, PairRole::kQ1, ctx, pair, client1, bits1, threads);
  EncodeCorBinQ(levels, w2, d, PairRole::kQ2, ctx, pair, client2, bits2, threads);
}

void EncodeCoq(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role, double p_x,
               const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, std::span<std::uint64_t> bits,
               int threads) {
  if (!(p_x == 0.5))
    throw InvalidArgument("p_x", "the production CoQ-FL path supports the codebook bias p_x = 1/2 only, got " +
                                     ShortestDouble(p_x));
  // seed-001 §3.7 [DERIVED]: with p_x = 1/2 F(i) = i/2^d, so PerturbWeight's cells are the
  // CorBinQ cells and Alice/Bob are exactly the Q1/Q2 rules.
  EncodeCorBinQ(levels, w, d, role, ctx, pair, client, bits, threads);
}

void AccumulateBits(std::span<const std::uint64_t> bits, std::span<std::uint32_t> counts) {
  if (bits.size() < PackedWords(counts.size()))
    throw InvalidArgument("bits", "fewer packed words than counters");
  for (std::size_t j = 0; j < counts.size(); ++j) counts[j] += static_cast<std::uint32_t>((bits[j / 64] >> (j % 64)) & 1u);
}

void AccumulateMessages(std::span<const std::span<const std::uint64_t>> messages, std::span<std::uint32_t> counts,
                        int threads) {
  for (std::size_t i = 0; i < messages.size(); ++i)
    if (messages[i].size() < PackedWords(counts.size()))
      throw InvalidArgument("messages", "message " + std::to_string(i) + " holds fewer packed words than counters");
  fast::AccumulateMessagesFast(messages, counts, threads, Isa());
}

void DecodeMean(const BinaryLevels& levels, std::span<const std::uint32_t> counts, std::uint32_t n,
                std::span<float> mean) {
  detail::DecodeMeanT<NoFaults>(levels, counts, n, mean);
}

}  // namespace dpfl::quant
