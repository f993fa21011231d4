// INTERNAL to the dpfl libraries and their tests; not installed. Use only for testing outside
// production/src and production/cuda.
//
// The scalar CPU encoding loops of the binary quantizers, templated on the fault policy of
// binary_rules.hpp. Production instantiates NoFaults (src/cpu/binary_quantizer.cpp, and the SIMD
// path's unaligned ends in src/cpu/fast_encoders.cpp); tests/mutants instantiate planted faults,
// so the mutant catalog exercises these loops, stream addressing included.
//
// Work layout: one packed word = 64 parameters = 2 head blocks (1 with 8-bit heads) + 8 tail
// blocks of ChaCha20 (Philox: 8 (4) + 32) per stream; words are split into contiguous ranges
// across threads, so the output is independent of the thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/binary_rules.hpp"

namespace dpfl::quant::detail {

// Runs fn(first_word, last_word) over [0, words) split across threads.
inline constexpr int kMaxThreads = 256;

template <class Fn>
void ForWordRanges(std::size_t words, int threads, Fn&& fn) {
  if (threads < 1 || threads > kMaxThreads)
    throw InvalidArgument("threads", "must be in [1, 256], got " + std::to_string(threads));
  if (threads == 1 || words < 64) {
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

// u[0..n) = the raw 64-bit uniforms first … first + n − 1 of one stream (rng::Uniform64 layout),
// generated block by block; first is a multiple of 8 (ChaCha20) or 2 (Philox).
inline void RawUniforms(const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t first, int n,
                        std::uint64_t* u) {
  if (ctx.generator == rng::Generator::kChaCha20) {
    for (int b = 0; b < n / 8; ++b)
      rng::ChaChaUniformBlock(ctx.key, addr, static_cast<std::uint32_t>(first / 8 + static_cast<std::uint64_t>(b)), u + 8 * b);
  } else {
    for (int b = 0; b < n / 2; ++b) rng::PhiloxUniformBlock(ctx.key, addr, first / 2 + static_cast<std::uint64_t>(b), u + 2 * b);
  }
}

// u[0..63] = rng::DecisionUniform64(·, head_bits) of parameters 64·word … 64·word + 63 of one
// decision stream (all 64 bits materialized: the slow exact form that the mutants and the
// fallback paths use; the SIMD path draws the same heads and fetches a tail only on a tie).
// The 64 heads are raw uniforms 8·word … + 7 (8-bit) or 16·word … + 15 (16-bit).
inline void UniformsForWord(const StreamContext& ctx, const rng::StreamAddress& addr, std::size_t word, int head_bits,
                            std::uint64_t u[64]) {
  const int h = rng::ValidHeadBits(head_bits);
  std::uint64_t heads[16];  // 64 heads of h bits = h raw uniforms
  RawUniforms(ctx, addr, static_cast<std::uint64_t>(word) * static_cast<std::uint64_t>(h), h, heads);
  RawUniforms(ctx, rng::TailAddress(addr), static_cast<std::uint64_t>(word) * 64, 64, u);
  for (int k = 0; k < 64; ++k)
    u[k] = rng::DecisionUniformFromParts(rng::HeadChunk(heads, static_cast<std::uint64_t>(k), h), u[k], h);
}

// Shared uniforms for one word (head width SharedHeadBits(d)); the kReuseSharedBits mutant reads
// parameter 0's for all.
template <class Faults>
void SharedUniformsForWord(const StreamContext& ctx, const rng::StreamAddress& addr, std::size_t word, int d,
                           std::uint64_t u[64]) {
  if (Faults::kReuseSharedBits) {
    const std::uint64_t first = rng::DecisionUniform64(ctx.generator, ctx.key, addr, 0, SharedHeadBits(d));
    for (int k = 0; k < 64; ++k) u[k] = first;
    return;
  }
  UniformsForWord(ctx, addr, word, SharedHeadBits(d), u);
}

inline void CheckIndexRange(const StreamContext& ctx, std::size_t m) {
  if (ctx.generator == rng::Generator::kChaCha20 && m > rng::kChaChaMaxIndex)
    throw InvalidArgument("m", "ChaCha20 streams address at most 2^35 parameters");
}

// True iff one of w[0..n) is NaN or ±Inf: a float is non-finite iff its exponent bits are all
// ones. Branch-free, so it vectorizes (ValidateWeights, and the fast encoders per group/range).
inline bool AnyNonFinite(const float* w, std::size_t n) {
  std::uint32_t bad = 0;
  for (std::size_t j = 0; j < n; ++j) {
    std::uint32_t u;
    std::memcpy(&u, w + j, sizeof(u));
    bad |= static_cast<std::uint32_t>((u & 0x7f800000u) == 0x7f800000u);
  }
  return bad != 0;
}

// Splits the word range [lo, hi) between the SIMD fast paths and the scalar loops: the SIMD
// body gets the whole groups of 8 full words (512 parameters) aligned to multiples of 8 below
// full_words = m / 64, scalar(a, b) the words before and after them (or all of [lo, hi) when no
// whole group fits).
template <class Scalar, class Simd>
void SplitWordRange(std::size_t lo, std::size_t hi, std::size_t full_words, Scalar&& scalar, Simd&& simd) {
  const std::size_t simd_lo = (lo + 7) / 8 * 8;
  std::size_t simd_hi = hi < full_words ? hi : full_words;
  simd_hi = simd_hi > simd_lo ? simd_lo + (simd_hi - simd_lo) / 8 * 8 : simd_lo;
  if (simd_lo >= simd_hi) {
    scalar(lo, hi);
    return;
  }
  if (lo < simd_lo) scalar(lo, simd_lo);
  simd(simd_lo, simd_hi);
  if (simd_hi < hi) scalar(simd_hi, hi);
}

inline std::size_t BitsInWord(std::size_t m, std::size_t word) {
  const std::size_t base = word * 64;
  return m - base < 64 ? m - base : 64;
}

// The scalar loops over packed words [lo, hi): LDPQ on the private stream at `addr`, and the
// CorBinQ roles on the pair's shared stream and the client's private stream (their own contexts,
// so the deployed two-key form runs here too). Full encoders below and the SIMD path's
// unaligned ends (fast_encoders.cpp) both use them.
template <class Faults>
void EncodeLdpqWords(const BinaryLevels& levels, std::span<const float> w, const StreamContext& ctx,
                     const rng::StreamAddress& addr, std::span<std::uint64_t> bits, std::size_t lo, std::size_t hi) {
  std::uint64_t u[64];
  for (std::size_t word = lo; word < hi; ++word) {
    UniformsForWord(ctx, addr, word, kLdpqHeadBits, u);
    const float* x = w.data() + word * 64;
    std::uint64_t out = 0;
    for (std::size_t k = 0, n = BitsInWord(w.size(), word); k < n; ++k)
      out |= std::uint64_t{LdpqBit<Faults>(x[k], u[k], levels)} << k;
    bits[word] = out;
  }
}

template <class Faults>
void EncodeCorBinQWords(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                        const StreamContext& shared_ctx, const rng::StreamAddress& shared_addr,
                        const StreamContext& private_ctx, const rng::StreamAddress& private_addr,
                        std::span<std::uint64_t> bits, std::size_t lo, std::size_t hi) {
  std::uint64_t shared[64], priv[64];
  for (std::size_t word = lo; word < hi; ++word) {
    SharedUniformsForWord<Faults>(shared_ctx, shared_addr, word, d, shared);
    UniformsForWord(private_ctx, private_addr, word, RolePrivateHeadBits(d), priv);
    const float* x = w.data() + word * 64;
    const std::size_t n = BitsInWord(w.size(), word);
    std::uint64_t out = 0;
    if (role == PairRole::kQ1) {
      for (std::size_t k = 0; k < n; ++k) out |= std::uint64_t{Q1RoleBit<Faults>(x[k], shared[k], priv[k], d, levels)} << k;
    } else {
      for (std::size_t k = 0; k < n; ++k) out |= std::uint64_t{Q2RoleBit<Faults>(x[k], shared[k], priv[k], d, levels)} << k;
    }
    bits[word] = out;
  }
}

template <class Faults>
void EncodeLdpqT(const BinaryLevels& levels, std::span<const float> w, const StreamContext& ctx,
                 std::uint32_t client, std::span<std::uint64_t> bits, int threads) {
  ValidateWeights(w, bits.size());
  CheckIndexRange(ctx, w.size());
  const rng::StreamAddress addr{ctx.round, client, rng::Purpose::kPrivateCoin};
  ForWordRanges(PackedWords(w.size()), threads, [&](std::size_t lo, std::size_t hi) {
    EncodeLdpqWords<Faults>(levels, w, ctx, addr, bits, lo, hi);
  });
}

template <class Faults>
void EncodeCorBinQT(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                    const StreamContext& ctx, std::uint32_t pair, std::uint32_t client,
                    std::span<std::uint64_t> bits, int threads) {
  ValidateWeights(w, bits.size());
  ValidateSharedBits(d);
  CheckIndexRange(ctx, w.size());
  const rng::StreamAddress shared_addr{ctx.round, pair, rng::Purpose::kSharedBits};
  const rng::StreamAddress private_addr{ctx.round, client, rng::Purpose::kPrivateCoin};
  ForWordRanges(PackedWords(w.size()), threads, [&](std::size_t lo, std::size_t hi) {
    EncodeCorBinQWords<Faults>(levels, w, d, role, ctx, shared_addr, ctx, private_addr, bits, lo, hi);
  });
}

// Q2 role with Alg. 2 line 14 as printed (seed-000 E3): "−" if z < t2, else "+" if z > t1,
// else the private coin. It needs the partner's threshold T1 — which a real client never has —
// so it exists only for the pair-level encoder under the kLine14AsPrinted fault.
template <class Faults>
bool Q2RoleBitLine14AsPrinted(double w2, double w1, std::uint64_t shared, std::uint64_t priv, int d,
                              const BinaryLevels& k) {
  const std::uint64_t t_minus = MinusThreshold(ClipWeightRule<Faults>(w2, k), k);
  const std::uint64_t t_plus_partner = PlusThreshold(ClipWeightRule<Faults>(w1, k), k);
  const std::uint64_t v = MergeRule<Faults>(shared, priv, d);
  if (d == 0) return !(v < t_minus);  // no shared bits: every comparison is a tie
  const int low_bits = 64 - d;
  const std::uint64_t z = v >> low_bits, t2 = t_minus >> low_bits, t1 = t_plus_partner >> low_bits;
  if (z < t2) return false;
  if (z > t1) return true;
  const std::uint64_t low_mask = (std::uint64_t{1} << low_bits) - 1;
  return !((v & low_mask) < (t_minus & low_mask));  // line 17: "−" w.p. f2
}

// Both clients of one pair (simulation; each side uses only its own weights unless the
// kLine14AsPrinted fault is planted).
template <class Faults>
void EncodeCorBinQPairT(const BinaryLevels& levels, std::span<const float> w1, std::span<const float> w2, int d,
                        const StreamContext& ctx, std::uint32_t pair, std::uint32_t client1, std::uint32_t client2,
                        std::span<std::uint64_t> bits1, std::span<std::uint64_t> bits2, int threads) {
  if (w1.size() != w2.size()) throw InvalidArgument("w2", "both clients of a pair must send the same number of parameters");
  EncodeCorBinQT<Faults>(levels, w1, d, PairRole::kQ1, ctx, pair, client1, bits1, threads);
  if (!Faults::kLine14AsPrinted) {
    EncodeCorBinQT<Faults>(levels, w2, d, PairRole::kQ2, ctx, pair, client2, bits2, threads);
    return;
  }
  ValidateWeights(w2, bits2.size());
  const rng::StreamAddress shared_addr{ctx.round, pair, rng::Purpose::kSharedBits};
  const rng::StreamAddress private_addr{ctx.round, client2, rng::Purpose::kPrivateCoin};
  for (std::size_t word = 0; word < PackedWords(w2.size()); ++word) {
    std::uint64_t shared[64], priv[64];
    SharedUniformsForWord<Faults>(ctx, shared_addr, word, d, shared);
    UniformsForWord(ctx, private_addr, word, RolePrivateHeadBits(d), priv);
    std::uint64_t out = 0;
    for (std::size_t k = 0, n = BitsInWord(w2.size(), word); k < n; ++k)
      out |= std::uint64_t{Q2RoleBitLine14AsPrinted<Faults>(w2[word * 64 + k], w1[word * 64 + k], shared[k], priv[k], d,
                                                             levels)}
             << k;
    bits2[word] = out;
  }
}

// Mean of n decoded messages from the per-parameter counts of "+" bits, decoding each bit with
// DecodeBit<Faults> (c ± rα): mean = (count·plus + (n − count)·minus)/n. DecodeMean is
// DecodeMeanT<NoFaults>; the kDecodeZeroOne mutant runs through this same code.
template <class Faults>
void DecodeMeanT(const BinaryLevels& levels, std::span<const std::uint32_t> counts, std::uint32_t n,
                 std::span<float> mean) {
  if (n == 0) throw InvalidArgument("n", "cannot average zero messages");
  if (mean.size() != counts.size()) throw InvalidArgument("mean", "size differs from counts");
  const double plus = DecodeBit<Faults>(true, levels), minus = DecodeBit<Faults>(false, levels);
  for (std::size_t j = 0; j < counts.size(); ++j) {
    if (counts[j] > n) throw InvalidArgument("counts", "count[" + std::to_string(j) + "] exceeds the number of messages n");
    mean[j] = static_cast<float>((counts[j] * plus + (n - counts[j]) * minus) / n);
  }
}

}  // namespace dpfl::quant::detail
