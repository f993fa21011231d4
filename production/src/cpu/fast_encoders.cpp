// SIMD fast path of the CPU encoders (LDPQ, CorBinQ roles), bit-identical to the scalar
// reference loops in dpfl/quant/cpu_encoders.hpp (tests/unit/fast_encoder_test.cpp compares
// them word for word on both generators).
//
// Why it is bit-identical: the random words are the same pure functions of their addresses
// (ChaCha20 / Philox4x32-10 evaluated on 16 counters at once, lane b = one block), and every
// decision is the same sequence of IEEE double operations (float→double, clip, subtract,
// multiply, add, scale by 2^64, truncate) followed by an integer comparison. Vector lanes round
// exactly like scalar operations, and the build forbids FMA contraction (-ffp-contract=off).
//
// Work unit: two packed words = 128 parameters = 16 ChaCha20 blocks or 64 Philox blocks per
// stream. Unaligned or partial words fall back to the scalar loop. Three instruction-set
// versions (AVX-512, AVX2, baseline x86-64) are compiled from one body and chosen at run time.
#include "dpfl/quant/fast_encoders.hpp"

#include <cstring>

#include "dpfl/quant/cpu_encoders.hpp"

namespace dpfl::quant::fast {
namespace {

typedef std::uint32_t U32x16 __attribute__((vector_size(64)));
typedef std::uint64_t U64x8 __attribute__((vector_size(64)));

#define DPFL_ALWAYS_INLINE inline __attribute__((always_inline))

DPFL_ALWAYS_INLINE U32x16 Rotl(U32x16 x, int n) { return (x << n) | (x >> (32 - n)); }

DPFL_ALWAYS_INLINE void QuarterRound(U32x16& a, U32x16& b, U32x16& c, U32x16& d) {
  a += b; d ^= a; d = Rotl(d, 16);
  c += d; b ^= c; b = Rotl(b, 12);
  a += b; d ^= a; d = Rotl(d, 8);
  c += d; b ^= c; b = Rotl(b, 7);
}

typedef std::uint32_t U32x8 __attribute__((vector_size(32)));
typedef double F64x8 __attribute__((vector_size(64)));
typedef float F32x8 __attribute__((vector_size(32)));
typedef std::int64_t I64x8 __attribute__((vector_size(64)));

// 8×8 transpose of 64-bit elements: in[k][b] → out[b][k] (three shuffle stages).
DPFL_ALWAYS_INLINE void Transpose8x8(const U64x8 in[8], U64x8 out[8]) {
  U64x8 s[8], u[8];
  for (int i = 0; i < 4; ++i) {
    s[2 * i] = __builtin_shufflevector(in[2 * i], in[2 * i + 1], 0, 8, 2, 10, 4, 12, 6, 14);
    s[2 * i + 1] = __builtin_shufflevector(in[2 * i], in[2 * i + 1], 1, 9, 3, 11, 5, 13, 7, 15);
  }
  for (int h = 0; h < 2; ++h) {  // k = 4h … 4h+3
    const int o = 4 * h;
    u[o + 0] = __builtin_shufflevector(s[o + 0], s[o + 2], 0, 1, 8, 9, 4, 5, 12, 13);
    u[o + 2] = __builtin_shufflevector(s[o + 0], s[o + 2], 2, 3, 10, 11, 6, 7, 14, 15);
    u[o + 1] = __builtin_shufflevector(s[o + 1], s[o + 3], 0, 1, 8, 9, 4, 5, 12, 13);
    u[o + 3] = __builtin_shufflevector(s[o + 1], s[o + 3], 2, 3, 10, 11, 6, 7, 14, 15);
  }
  for (int b = 0; b < 4; ++b) {
    out[b] = __builtin_shufflevector(u[b], u[b + 4], 0, 1, 2, 3, 8, 9, 10, 11);
    out[b + 4] = __builtin_shufflevector(u[b], u[b + 4], 4, 5, 6, 7, 12, 13, 14, 15);
  }
}

DPFL_ALWAYS_INLINE U64x8 Combine64(U32x8 lo, U32x8 hi) {
  return __builtin_convertvector(lo, U64x8) | (__builtin_convertvector(hi, U64x8) << 32);
}

// Uniforms of ChaCha20 blocks first_block … first_block + 15 (parameters 8·first_block …
// 8·first_block + 127) as 16 vectors of 8 consecutive parameters (RFC 8439 §2.3, the layout
// of rng::ChaChaUniformBlock: block b holds parameters 8b … 8b + 7, uniform k = words 2k, 2k+1).
DPFL_ALWAYS_INLINE void ChaCha16Blocks(const rng::StreamKey& key, const rng::StreamAddress& addr,
                                       std::uint32_t first_block, U64x8 out[16]) {
  U32x16 s[16] = {};
  const std::uint32_t constants[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};
  for (int i = 0; i < 4; ++i) s[i] = U32x16{} + constants[i];
  for (int i = 0; i < 8; ++i) s[4 + i] = U32x16{} + key.words[i];
  s[12] = U32x16{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15} + first_block;
  s[13] = U32x16{} + addr.round;
  s[14] = U32x16{} + addr.entity;
  s[15] = U32x16{} + static_cast<std::uint32_t>(addr.purpose);
  U32x16 x[16];
  for (int i = 0; i < 16; ++i) x[i] = s[i];
  for (int round = 0; round < 10; ++round) {
    QuarterRound(x[0], x[4], x[8], x[12]);
    QuarterRound(x[1], x[5], x[9], x[13]);
    QuarterRound(x[2], x[6], x[10], x[14]);
    QuarterRound(x[3], x[7], x[11], x[15]);
    QuarterRound(x[0], x[5], x[10], x[15]);
    QuarterRound(x[1], x[6], x[11], x[12]);
    QuarterRound(x[2], x[7], x[8], x[13]);
    QuarterRound(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; ++i) x[i] += s[i];
  for (int half = 0; half < 2; ++half) {  // blocks 8·half … 8·half + 7
    U64x8 by_k[8];
    for (int k = 0; k < 8; ++k) {
      const U32x8 lo = half == 0 ? __builtin_shufflevector(x[2 * k], x[2 * k], 0, 1, 2, 3, 4, 5, 6, 7)
                                 : __builtin_shufflevector(x[2 * k], x[2 * k], 8, 9, 10, 11, 12, 13, 14, 15);
      const U32x8 hi = half == 0 ? __builtin_shufflevector(x[2 * k + 1], x[2 * k + 1], 0, 1, 2, 3, 4, 5, 6, 7)
                                 : __builtin_shufflevector(x[2 * k + 1], x[2 * k + 1], 8, 9, 10, 11, 12, 13, 14, 15);
      by_k[k] = Combine64(lo, hi);  // lane b: uniform k of block 8·half + b
    }
    Transpose8x8(by_k, out + 8 * half);  // out[8·half + b] lane k: parameter 8(8·half + b) + k
  }
}

// Philox4x32-10 (Random123 round function and Weyl key schedule) on 8 counters per vector,
// 32-bit values held in 64-bit lanes so that the 32×32→64 products are single multiplies.
DPFL_ALWAYS_INLINE void Philox8(U64x8 c[4], std::uint32_t k0, std::uint32_t k1) {
  const U64x8 mask = U64x8{} + 0xffffffffull;
  for (int round = 0; round < 10; ++round) {
    // Operands masked to 32 bits so the compiler can use 32×32→64 multiplies (vpmuludq).
    const U64x8 p0 = (c[0] & mask) * 0xD2511F53ull, p1 = (c[2] & mask) * 0xCD9E8D57ull;
    const U64x8 n0 = (p1 >> 32) ^ c[1] ^ k0, n2 = (p0 >> 32) ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = p1 & mask;
    c[2] = n2;
    c[3] = p0 & mask;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

// Uniforms of Philox blocks first_block … first_block + 63 (parameters 2·first_block …
// 2·first_block + 127) as 16 vectors of 8 consecutive parameters (rng::PhiloxUniformBlock:
// block b holds parameters 2b, 2b + 1).
DPFL_ALWAYS_INLINE void Philox64Blocks(const rng::StreamKey& key, const rng::StreamAddress& addr,
                                       std::uint64_t first_block, U64x8 out[16]) {
  const std::uint32_t k0 = key.words[0] ^ static_cast<std::uint32_t>(addr.purpose), k1 = key.words[1];
  const U64x8 lane = U64x8{0, 1, 2, 3, 4, 5, 6, 7};
  for (int group = 0; group < 8; ++group) {
    const U64x8 block = lane + (first_block + static_cast<std::uint64_t>(8 * group));
    U64x8 c[4] = {block & 0xffffffffull, block >> 32, U64x8{} + addr.round, U64x8{} + addr.entity};
    Philox8(c, k0, k1);
    const U64x8 even = c[0] | (c[1] << 32), odd = c[2] | (c[3] << 32);  // parameters 2b, 2b + 1
    out[2 * group] = __builtin_shufflevector(even, odd, 0, 8, 1, 9, 2, 10, 3, 11);
    out[2 * group + 1] = __builtin_shufflevector(even, odd, 4, 12, 5, 13, 6, 14, 7, 15);
  }
}

DPFL_ALWAYS_INLINE void Uniforms128(const StreamContext& ctx, const rng::StreamAddress& addr, std::size_t word,
                                    U64x8 out[16]) {
  if (ctx.generator == rng::Generator::kChaCha20) {
    ChaCha16Blocks(ctx.key, addr, static_cast<std::uint32_t>(word * 8), out);
  } else {
    Philox64Blocks(ctx.key, addr, static_cast<std::uint64_t>(word) * 32, out);
  }
}

// The decision of binary_element.hpp for 8 consecutive parameters, as a byte (bit j =
// parameter j): bit = (V < T) with T = ProbabilityToThreshold(0.5 ± (clip(w) − c)·inv), the Q2
// role using T− and negating; V = merge(shared, priv, d) or priv. Same IEEE operations in the
// same order as PlusThreshold / MinusThreshold / ProbabilityToThreshold.
struct DecisionSpec {
  bool minus;       // T− (Q2 role) instead of T+
  bool negate;      // Q2: bit = !(V < T−)
  bool use_shared;  // CorBinQ roles
  int d;
};

// Returns a vector whose lane j is 2^j if parameter j's bit is 1, else 0.
DPFL_ALWAYS_INLINE U64x8 Decide8(const BinaryLevels& k, const float* w, U64x8 shared, U64x8 priv,
                                 const DecisionSpec& spec) {
  U64x8 v = priv;
  if (spec.use_shared && spec.d > 0) v = (shared & (~std::uint64_t{0} << (64 - spec.d))) | (priv >> spec.d);
  F32x8 wf;
  std::memcpy(&wf, w, sizeof(wf));
  F64x8 x = __builtin_convertvector(wf, F64x8);
  const F64x8 lo = F64x8{} + k.lo, hi = F64x8{} + k.hi;
  x = x < lo ? lo : (x > hi ? hi : x);
  const F64x8 prod = (x - k.c) * k.inv_two_r_alpha;
  const F64x8 q = spec.minus ? 0.5 - prod : 0.5 + prod;
  const I64x8 inside = (q > 0.0) & (q < 1.0);
  const F64x8 scaled = (inside ? q : F64x8{}) * 18446744073709551616.0;  // q·2^64 ∈ [0, 2^64), exact
  // Truncation to uint64 through the signed conversion: for scaled ≥ 2^63 subtract 2^63 first
  // (exact: doubles in [2^63, 2^64) are multiples of 2^11) and add it back as an integer.
  const I64x8 upper = scaled >= 9223372036854775808.0;
  const F64x8 shifted = upper ? scaled - 9223372036854775808.0 : scaled;
  U64x8 t = __builtin_convertvector(__builtin_convertvector(shifted, I64x8), U64x8) +
            (__builtin_convertvector(upper, U64x8) & (std::uint64_t{1} << 63));
  t = q >= 1.0 ? U64x8{} + ~std::uint64_t{0} : t;
  I64x8 below = v < t;
  if (spec.negate) below = ~below;
  return __builtin_convertvector(below, U64x8) & U64x8{1, 2, 4, 8, 16, 32, 64, 128};
}

DPFL_ALWAYS_INLINE std::uint64_t OrLanes(U64x8 a) {
  a |= __builtin_shufflevector(a, a, 4, 5, 6, 7, 0, 1, 2, 3);
  a |= __builtin_shufflevector(a, a, 2, 3, 0, 1, 6, 7, 4, 5);
  a |= __builtin_shufflevector(a, a, 1, 0, 3, 2, 5, 4, 7, 6);
  return a[0];
}

DPFL_ALWAYS_INLINE void EncodeBody(const BinaryLevels& k, const float* w, const StreamContext& ctx,
                                   const StreamContext& shared_ctx,
                                   const rng::StreamAddress& private_addr, const rng::StreamAddress* shared_addr,
                                   const DecisionSpec& spec, std::uint64_t* bits, std::size_t word_lo,
                                   std::size_t word_hi) {
  U64x8 priv[16], shared[16] = {};
  for (std::size_t word = word_lo; word < word_hi; word += 2) {
    Uniforms128(ctx, private_addr, word, priv);
    if (shared_addr != nullptr) Uniforms128(shared_ctx, *shared_addr, word, shared);
    for (int h = 0; h < 2; ++h) {
      U64x8 acc = U64x8{};
      for (int g = 0; g < 8; ++g)  // parameters 64·(word + h) + 8g … + 7 → bits 8g … 8g + 7
        acc |= Decide8(k, w + (word + static_cast<std::size_t>(h)) * 64 + 8 * g, shared[8 * h + g], priv[8 * h + g],
                       spec) << (8 * g);
      bits[word + static_cast<std::size_t>(h)] = OrLanes(acc);
    }
  }
}

__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) void EncodeAvx512(
    const BinaryLevels& k, const float* w, const StreamContext& ctx, const StreamContext& sctx,
    const rng::StreamAddress& pa, const rng::StreamAddress* sa, const DecisionSpec& spec, std::uint64_t* bits,
    std::size_t lo, std::size_t hi) {
  EncodeBody(k, w, ctx, sctx, pa, sa, spec, bits, lo, hi);
}
__attribute__((target("avx2,bmi2"))) void EncodeAvx2(const BinaryLevels& k, const float* w,
                                                     const StreamContext& ctx, const StreamContext& sctx,
                                                     const rng::StreamAddress& pa,
                                                     const rng::StreamAddress* sa, const DecisionSpec& spec,
                                                     std::uint64_t* bits, std::size_t lo, std::size_t hi) {
  EncodeBody(k, w, ctx, sctx, pa, sa, spec, bits, lo, hi);
}
void EncodeBaseline(const BinaryLevels& k, const float* w, const StreamContext& ctx, const StreamContext& sctx,
                    const rng::StreamAddress& pa, const rng::StreamAddress* sa, const DecisionSpec& spec,
                    std::uint64_t* bits, std::size_t lo, std::size_t hi) {
  EncodeBody(k, w, ctx, sctx, pa, sa, spec, bits, lo, hi);
}

using EncodeFn = void (*)(const BinaryLevels&, const float*, const StreamContext&, const StreamContext&,
                          const rng::StreamAddress&, const rng::StreamAddress*, const DecisionSpec&, std::uint64_t*,
                          std::size_t, std::size_t);

EncodeFn Select(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return EncodeAvx512;
    case Isa::kAvx2: return EncodeAvx2;
    case Isa::kBaseline: return EncodeBaseline;
  }
  return EncodeBaseline;
}

// Encodes words [lo, hi): the SIMD body handles aligned pairs of full words; the scalar
// reference loop handles the rest (an odd first word, the last partial word).
template <class ScalarFn>
void EncodeRange(EncodeFn simd, const BinaryLevels& k, std::span<const float> w, const StreamContext& ctx,
                 const StreamContext& sctx, const rng::StreamAddress& pa, const rng::StreamAddress* sa, const DecisionSpec& spec,
                 std::span<std::uint64_t> bits, std::size_t lo, std::size_t hi, ScalarFn&& scalar) {
  const std::size_t full_words = w.size() / 64;
  std::size_t simd_lo = lo + (lo % 2), simd_hi = hi < full_words ? hi : full_words;
  simd_hi = simd_lo + ((simd_hi > simd_lo ? simd_hi - simd_lo : 0) / 2) * 2;
  if (simd_lo >= simd_hi) {
    scalar(lo, hi);
    return;
  }
  if (lo < simd_lo) scalar(lo, simd_lo);
  simd(k, w.data(), ctx, sctx, pa, sa, spec, bits.data(), simd_lo, simd_hi);
  if (simd_hi < hi) scalar(simd_hi, hi);
}

}  // namespace

Isa BestIsa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw"))
    return Isa::kAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")) return Isa::kAvx2;
  return Isa::kBaseline;
}

void EncodeLdpqFast(const BinaryLevels& levels, std::span<const float> w, const StreamContext& ctx,
                    std::uint32_t client, std::span<std::uint64_t> bits, int threads, Isa isa) {
  ValidateWeights(w, bits.size());
  detail::CheckIndexRange(ctx, w.size());
  const rng::StreamAddress pa{ctx.round, client, rng::Purpose::kPrivateCoin};
  const DecisionSpec spec{false, false, false, 0};
  const EncodeFn simd = Select(isa);
  detail::ForWordRanges(PackedWords(w.size()), threads, [&](std::size_t lo, std::size_t hi) {
    EncodeRange(simd, levels, w, ctx, ctx, pa, nullptr, spec, bits, lo, hi, [&](std::size_t a, std::size_t b) {
      std::uint64_t u[64];
      for (std::size_t word = a; word < b; ++word) {
        detail::UniformsForWord(ctx, pa, word, u);
        std::uint64_t out = 0;
        for (std::size_t j = 0, n = detail::BitsInWord(w.size(), word); j < n; ++j)
          out |= std::uint64_t{LdpqBit(w[word * 64 + j], u[j], levels)} << j;
        bits[word] = out;
      }
    });
  });
}

void EncodeCorBinQFast(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                       const StreamContext& shared_ctx, const StreamContext& ctx, std::uint32_t pair,
                       std::uint32_t client, std::span<std::uint64_t> bits, int threads, Isa isa) {
  if (shared_ctx.generator != ctx.generator)
    throw InvalidArgument("generator", "shared and private streams must use the same generator");
  ValidateWeights(w, bits.size());
  ValidateSharedBits(d);
  detail::CheckIndexRange(ctx, w.size());
  const rng::StreamAddress pa{ctx.round, client, rng::Purpose::kPrivateCoin};
  const rng::StreamAddress sa{shared_ctx.round, pair, rng::Purpose::kSharedBits};
  const DecisionSpec spec = role == PairRole::kQ1 ? DecisionSpec{false, false, true, d} : DecisionSpec{true, true, true, d};
  const EncodeFn simd = Select(isa);
  detail::ForWordRanges(PackedWords(w.size()), threads, [&](std::size_t lo, std::size_t hi) {
    EncodeRange(simd, levels, w, ctx, shared_ctx, pa, &sa, spec, bits, lo, hi, [&](std::size_t a, std::size_t b) {
      std::uint64_t shared[64], priv[64];
      for (std::size_t word = a; word < b; ++word) {
        detail::UniformsForWord(shared_ctx, sa, word, shared);
        detail::UniformsForWord(ctx, pa, word, priv);
        std::uint64_t out = 0;
        for (std::size_t j = 0, n = detail::BitsInWord(w.size(), word); j < n; ++j) {
          const bool bit = role == PairRole::kQ1 ? Q1RoleBit(w[word * 64 + j], shared[j], priv[j], d, levels)
                                                 : Q2RoleBit(w[word * 64 + j], shared[j], priv[j], d, levels);
          out |= std::uint64_t{bit} << j;
        }
        bits[word] = out;
      }
    });
  });
}

}  // namespace dpfl::quant::fast
