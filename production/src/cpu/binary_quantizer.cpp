// CPU encoders of the binary quantizers (see dpfl/quant/binary_quantizer.hpp).
//
// Layout of the work: one packed word = 64 parameters = 8 ChaCha20 blocks (or 32 Philox
// blocks) per stream; words are split into contiguous ranges across threads, so the output is
// independent of the thread count.
#include "dpfl/quant/binary_quantizer.hpp"

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "dpfl/error.hpp"

namespace dpfl::quant {
namespace {

BinaryLevels Levels(double eps, double c, double r, bool alpha_as_printed) {
  if (!std::isfinite(eps) || !(eps > 0))
    throw InvalidArgument("eps", "privacy budget must be finite and > 0, got " + std::to_string(eps));
  if (!std::isfinite(c)) throw InvalidArgument("c", "center must be finite, got " + std::to_string(c));
  if (!std::isfinite(r) || !(r > 0))
    throw InvalidArgument("r", "radius must be finite and > 0, got " + std::to_string(r));
  const double e = std::exp(eps);
  double alpha = (e + 1.0) / (e - 1.0);  // seed-000 Alg. 1 l.1
  if (!std::isfinite(alpha) || !(alpha > 1.0))
    throw InvalidArgument("eps", "alpha(eps) = (e^eps+1)/(e^eps-1) must be > 1 in double precision; eps = " +
                                     std::to_string(eps) + " is too large");
  if (!std::isfinite(r * alpha) || !std::isfinite(c - r) || !std::isfinite(c + r))
    throw InvalidArgument("r", "c +- r*alpha overflows double");
  if (alpha_as_printed) alpha = -alpha;  // seed-000 E1 mutant only
  BinaryLevels k{};
  k.c = c;
  k.r = r;
  k.alpha = alpha;
  k.inv_two_r_alpha = 1.0 / (2.0 * r * alpha);
  k.lo = c - r;
  k.hi = c + r;
  return k;
}

// Runs fn(first_word, last_word) over [0, words) split across threads.
template <class Fn>
void ForWordRanges(std::size_t words, int threads, Fn&& fn) {
  if (threads <= 1 || words < 64) {
    fn(std::size_t{0}, words);
    return;
  }
  const std::size_t t = static_cast<std::size_t>(threads);
  std::vector<std::thread> pool;
  pool.reserve(t);
  for (std::size_t i = 0; i < t; ++i) {
    const std::size_t lo = words * i / t, hi = words * (i + 1) / t;
    pool.emplace_back([&fn, lo, hi] { fn(lo, hi); });
  }
  for (std::thread& th : pool) th.join();
}

// Fills u[0..63] with the uniforms of parameters 64·word … 64·word + 63 of one stream.
void UniformsForWord(const StreamContext& ctx, const rng::StreamAddress& addr, std::size_t word,
                     std::uint64_t u[64]) {
  if (ctx.generator == rng::Generator::kChaCha20) {
    for (int b = 0; b < 8; ++b) rng::ChaChaUniformBlock(ctx.key, addr, static_cast<std::uint32_t>(word * 8 + b), u + 8 * b);
  } else {
    for (int b = 0; b < 32; ++b) rng::PhiloxUniformBlock(ctx.key, addr, word * 32 + b, u + 2 * b);
  }
}

void CheckIndexRange(const StreamContext& ctx, std::size_t m) {
  if (ctx.generator == rng::Generator::kChaCha20 && m > rng::kChaChaMaxIndex)
    throw InvalidArgument("m", "ChaCha20 streams address at most 2^35 parameters");
}

}  // namespace

BinaryLevels MakeBinaryLevels(double eps, double c, double r) { return Levels(eps, c, r, false); }
BinaryLevels MakeBinaryLevelsAlphaAsPrinted(double eps, double c, double r) { return Levels(eps, c, r, true); }

void ValidateWeights(std::span<const float> w, std::size_t packed_words) {
  if (packed_words < PackedWords(w.size()))
    throw InvalidArgument("bits", "output holds " + std::to_string(packed_words) + " words, need " +
                                      std::to_string(PackedWords(w.size())));
  for (std::size_t j = 0; j < w.size(); ++j)
    if (!std::isfinite(w[j]))
      throw InvalidArgument("w", "weight w[" + std::to_string(j) + "] is " + std::to_string(w[j]) +
                                     " (NaN and +-Inf are rejected; finite values are clipped to [c - r, c + r])");
}

void ValidateSharedBits(int d) {
  if (d < 0 || d > 62) throw InvalidArgument("d", "shared bits per parameter must be in [0, 62], got " + std::to_string(d));
}

void EncodeLdpq(const BinaryLevels& levels, std::span<const float> w, const StreamContext& ctx, std::uint32_t client,
                std::span<std::uint64_t> bits, int threads) {
  ValidateWeights(w, bits.size());
  CheckIndexRange(ctx, w.size());
  const rng::StreamAddress addr{ctx.round, client, rng::Purpose::kPrivateCoin};
  const std::size_t m = w.size();
  ForWordRanges(PackedWords(m), threads, [&](std::size_t lo, std::size_t hi) {
    std::uint64_t u[64];
    for (std::size_t word = lo; word < hi; ++word) {
      UniformsForWord(ctx, addr, word, u);
      const std::size_t base = word * 64, n = m - base < 64 ? m - base : 64;
      std::uint64_t out = 0;
      for (std::size_t k = 0; k < n; ++k) out |= std::uint64_t{LdpqBit(w[base + k], u[k], levels)} << k;
      bits[word] = out;
    }
  });
}

void EncodeCorBinQ(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                   const StreamContext& ctx, std::uint32_t pair, std::uint32_t client,
                   std::span<std::uint64_t> bits, int threads) {
  ValidateWeights(w, bits.size());
  ValidateSharedBits(d);
  CheckIndexRange(ctx, w.size());
  const rng::StreamAddress shared_addr{ctx.round, pair, rng::Purpose::kSharedBits};
  const rng::StreamAddress private_addr{ctx.round, client, rng::Purpose::kPrivateCoin};
  const std::size_t m = w.size();
  ForWordRanges(PackedWords(m), threads, [&](std::size_t lo, std::size_t hi) {
    std::uint64_t shared[64], priv[64];
    for (std::size_t word = lo; word < hi; ++word) {
      UniformsForWord(ctx, shared_addr, word, shared);
      UniformsForWord(ctx, private_addr, word, priv);
      const std::size_t base = word * 64, n = m - base < 64 ? m - base : 64;
      std::uint64_t out = 0;
      if (role == PairRole::kQ1) {
        for (std::size_t k = 0; k < n; ++k)
          out |= std::uint64_t{Q1RoleBit(w[base + k], shared[k], priv[k], d, levels)} << k;
      } else {
        for (std::size_t k = 0; k < n; ++k)
          out |= std::uint64_t{Q2RoleBit(w[base + k], shared[k], priv[k], d, levels)} << k;
      }
      bits[word] = out;
    }
  });
}

void EncodeCoq(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role, double p_x,
               const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, std::span<std::uint64_t> bits,
               int threads) {
  if (!(p_x == 0.5))
    throw InvalidArgument("p_x", "the production CoQ-FL path supports the codebook bias p_x = 1/2 only, got " +
                                     std::to_string(p_x));
  // seed-001 §3.7 [DERIVED]: with p_x = 1/2 F(i) = i/2^d, so PerturbWeight's cells are the
  // CorBinQ cells and Alice/Bob are exactly the Q1/Q2 rules.
  EncodeCorBinQ(levels, w, d, role, ctx, pair, client, bits, threads);
}

void AccumulateBits(std::span<const std::uint64_t> bits, std::span<std::uint32_t> counts) {
  if (bits.size() < PackedWords(counts.size()))
    throw InvalidArgument("bits", "fewer packed words than counters");
  for (std::size_t j = 0; j < counts.size(); ++j) counts[j] += static_cast<std::uint32_t>((bits[j / 64] >> (j % 64)) & 1u);
}

void DecodeMean(const BinaryLevels& levels, std::span<const std::uint32_t> counts, std::uint32_t n,
                std::span<float> mean) {
  if (n == 0) throw InvalidArgument("n", "cannot average zero messages");
  if (mean.size() != counts.size()) throw InvalidArgument("mean", "size differs from counts");
  const double ra = levels.r * levels.alpha;
  for (std::size_t j = 0; j < counts.size(); ++j)
    mean[j] = static_cast<float>(levels.c + ra * (2.0 * counts[j] / n - 1.0));
}

}  // namespace dpfl::quant
