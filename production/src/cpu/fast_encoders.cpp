// SIMD fast path of the CPU encoders (LDPQ, CorBinQ roles), bit-identical to the scalar
// reference loops in dpfl/quant/cpu_encoders.hpp (tests/unit/fast_encoder_test.cpp compares
// them word for word on both generators).
//
// Lazy randomness (dpfl/rng/streams.hpp, docs/production.md "Decision streams"): a decision
// "V < T" is taken from the bits of V that the streams' heads give (V's top 16, or top d + 8 for
// CorBinQ with 5 ≤ d < 8) whenever they differ from the same bits of T; only on a tie
// (probability 2^−13 … 2^−16) are the tails fetched and the scalar rule evaluated in full. So a
// parameter costs 1 or 2 bytes of keystream per stream instead of 8 (head widths:
// binary_element.hpp).
//
// Why it is bit-identical: the heads are the same pure functions of their addresses (ChaCha20 /
// Philox4x32-10 evaluated on 16 blocks / 64 counters at once), T >> 48 is computed by the same
// sequence of IEEE double operations as the scalar threshold (float→double, clip, subtract,
// multiply, add; then an exact scaling by 2^16 and a truncation instead of 2^64), and a tie
// re-evaluates the scalar rule itself. Vector lanes round exactly like scalar operations, and
// the build forbids FMA contraction (-ffp-contract=off).
//
// Work unit: 8 packed words = 512 parameters = the 16-bit heads in 16 ChaCha20 blocks or 64
// Philox blocks per stream (8-bit heads: half of that). Unaligned or partial groups fall back to
// the scalar loop. Three instruction-set versions (AVX-512 with intrinsics, AVX2 and baseline
// x86-64 with GCC vector extensions) share one loop and are chosen at run time.
#include "dpfl/quant/fast_encoders.hpp"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

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

typedef double F64x8 __attribute__((vector_size(64)));
typedef float F32x8 __attribute__((vector_size(32)));

// One butterfly stage of a 16×16 transpose of 32-bit elements (rows = vectors): for the row
// pair (a, b) = (rows r, r + G), r with bit G clear, the G-wide column blocks with bit G set in a
// and clear in b are exchanged. After the stages G = 8, 4, 2, 1 the matrix is transposed.
template <int G>
DPFL_ALWAYS_INLINE void TransposeStage(U32x16& a, U32x16& b) {
  U32x16 na, nb;
  if constexpr (G == 8) {
    na = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
    nb = __builtin_shufflevector(a, b, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
  } else if constexpr (G == 4) {
    na = __builtin_shufflevector(a, b, 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
    nb = __builtin_shufflevector(a, b, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
  } else if constexpr (G == 2) {
    na = __builtin_shufflevector(a, b, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29);
    nb = __builtin_shufflevector(a, b, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
  } else {
    na = __builtin_shufflevector(a, b, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
    nb = __builtin_shufflevector(a, b, 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31);
  }
  a = na;
  b = nb;
}

template <int G>
DPFL_ALWAYS_INLINE void TransposeStages(U32x16 x[16]) {
  for (int r = 0; r < 16; ++r)
    if ((r & G) == 0) TransposeStage<G>(x[r], x[r + G]);
}

// One stream's generator input with everything that does not depend on the group laid out once
// per encode: the ChaCha20 rows as 16-lane vectors (lane b = block b of a group; row 12 holds
// the lane offset, the group's first block counter is added per group), the Philox key and the
// constant counter words. Built from scalar arrays, because GCC assembles `vector + scalar` lane
// by lane (16 dependent masked broadcasts per row), which made every group pay for rebuilding
// them (docs/benchmarks.md).
struct StreamLanes {
  rng::Generator generator;
  U32x16 chacha_rows[16];
  U64x8 philox_round, philox_entity;
  std::uint32_t philox_k0, philox_k1;
};

StreamLanes MakeStreamLanes(const StreamContext& ctx, const rng::StreamAddress& addr) {
  StreamLanes lanes{};
  lanes.generator = ctx.generator;
  std::uint32_t rows[16][16];
  const std::uint32_t constants[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};  // RFC 8439 §2.3
  for (std::uint32_t b = 0; b < 16; ++b) {
    for (int i = 0; i < 4; ++i) rows[i][b] = constants[i];
    for (int i = 0; i < 8; ++i) rows[4 + i][b] = ctx.key.words[i];
    rows[12][b] = b;
    rows[13][b] = addr.round;
    rows[14][b] = addr.entity;
    rows[15][b] = static_cast<std::uint32_t>(addr.purpose);
  }
  std::memcpy(lanes.chacha_rows, rows, sizeof(rows));
  std::uint64_t round[8], entity[8];
  std::fill(round, round + 8, std::uint64_t{addr.round});
  std::fill(entity, entity + 8, std::uint64_t{addr.entity});
  std::memcpy(&lanes.philox_round, round, sizeof(round));
  std::memcpy(&lanes.philox_entity, entity, sizeof(entity));
  lanes.philox_k0 = ctx.key.words[0] ^ static_cast<std::uint32_t>(addr.purpose);
  lanes.philox_k1 = ctx.key.words[1];
  return lanes;
}

// ChaCha20 blocks first_block … first_block + 15 (RFC 8439 §2.3), 16 blocks in the 16 lanes;
// out[b] = the 64 keystream bytes of block first_block + b, in order, i.e. the raw uniforms
// 8·(first_block + b) … + 7 of rng::ChaChaUniformBlock.
DPFL_ALWAYS_INLINE void ChaCha16Blocks(const StreamLanes& lanes, std::uint32_t first_block, U64x8 out[16]) {
  U32x16 x[16];
  for (int i = 0; i < 16; ++i) x[i] = lanes.chacha_rows[i];
  x[12] += first_block;
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
  for (int i = 0; i < 16; ++i) x[i] += lanes.chacha_rows[i];  // x[w] lane b = word w of block b
  x[12] += first_block;
  TransposeStages<8>(x);
  TransposeStages<4>(x);
  TransposeStages<2>(x);
  TransposeStages<1>(x);  // x[b] lane w = word w of block b
  std::memcpy(out, x, sizeof(x));
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

// Philox blocks first_block … first_block + 63 as 16 vectors of 8 consecutive raw uniforms
// 2·first_block … 2·first_block + 127 (rng::PhiloxUniformBlock: block b holds uniforms 2b, 2b + 1).
DPFL_ALWAYS_INLINE void Philox64Blocks(const StreamLanes& lanes, std::uint64_t first_block, U64x8 out[16]) {
  const U64x8 lane = U64x8{0, 1, 2, 3, 4, 5, 6, 7};
  for (int group = 0; group < 8; ++group) {
    const U64x8 block = lane + (first_block + static_cast<std::uint64_t>(8 * group));
    U64x8 c[4] = {block & 0xffffffffull, block >> 32, lanes.philox_round, lanes.philox_entity};
    Philox8(c, lanes.philox_k0, lanes.philox_k1);
    const U64x8 even = c[0] | (c[1] << 32), odd = c[2] | (c[3] << 32);  // uniforms 2b, 2b + 1
    out[2 * group] = __builtin_shufflevector(even, odd, 0, 8, 1, 9, 2, 10, 3, 11);
    out[2 * group + 1] = __builtin_shufflevector(even, odd, 4, 12, 5, 13, 6, 14, 7, 15);
  }
}

// The raw uniforms 128·i … 128·i + 127 of one stream (16 ChaCha20 blocks from 16·i, or 64 Philox
// blocks from 64·i) as 16 vectors of 8 consecutive uniforms. For a decision stream with 16-bit
// heads these are the heads of parameters 512·i … 512·i + 511 (rng::DecisionHead: head j is
// 16-bit chunk j % 4 of raw uniform j / 4), so vector v read as 32 little-endian 16-bit lanes is
// heads 512·i + 32·v + (0…31); with 8-bit heads they are the heads of parameters 1024·i … + 1023
// in byte order.
DPFL_ALWAYS_INLINE void RawUniforms128(const StreamLanes& lanes, std::size_t i, U64x8 out[16]) {
  if (lanes.generator == rng::Generator::kChaCha20) {
    ChaCha16Blocks(lanes, static_cast<std::uint32_t>(i * 16), out);
  } else {
    Philox64Blocks(lanes, static_cast<std::uint64_t>(i) * 64, out);
  }
}

typedef std::uint16_t U16x16 __attribute__((vector_size(32)));
typedef std::int32_t I32x8 __attribute__((vector_size(32)));
typedef std::int32_t I32x16 __attribute__((vector_size(64)));
typedef std::uint8_t U8x16 __attribute__((vector_size(16)));

// Which rule a message follows (binary_element.hpp): LDPQ "+" iff V < T+ with V = private; Q1
// role "+" iff V < T+; Q2 role "+" iff !(V < T−); V = merge(shared, private, d) for the roles.
// A template parameter of the loops, so each rule compiles to its own branch-free body.
enum class Rule { kLdpq, kQ1, kQ2 };

// Which streams have 8-bit heads (binary_element.hpp: SharedHeadBits, RolePrivateHeadBits); a
// template parameter of the loops, like Rule. LDPQ uses {false, false}.
struct HeadLayout {
  bool shared_bytes, private_bytes;
};

// Known head bits below T's decide "V < T", above decide "V ≥ T", equal ones need the tails.
// Each instruction-set policy below computes, for 16 consecutive parameters, the lane masks
// `below` (V16 >> c < T16 >> c) and `ties` (equal), where T16 = T >> 48 with
// T = ProbabilityToThreshold(0.5 ± (clip(w) − c)·inv), V16 = the top 16 bits of V as far as the
// heads give them (the rest zero), and c = the number of V16's low bits the heads do not give
// (EncodeJob::coarse: 8 − d for roles with 8-bit private heads and 5 ≤ d < 8, else 0). T16 is
// computed with the same IEEE double operations in the same order as ClipWeight /
// PlusThreshold / MinusThreshold. Since ⌊⌊q·2^64⌋/2^48⌋ = ⌊q·2^16⌋ (q·2^16 is exact), T16 is
// ⌊q·2^16⌋ for q ∈ (0, 1), 0 for q ≤ 0 and 0xffff for q ≥ 1 (T saturates at 2^64 − 1): a
// clamp of q·2^16 to [0, 65535] and a truncation give all three cases. The top 16 bits of
// V = merge(shared, private, d) (MergeSharedPrivate) are (sh & high) | (pr >> min(d, 16)),
// high = the top min(d, 16) of 16 bits, sh and pr = the 16-bit heads or the 8-bit ones as
// b << 8; for LDPQ V16 = pr.
struct LaneMasks {
  std::uint32_t below, ties;  // ties: lanes the caller must decide exactly (ExactDecision)
  std::uint32_t non_finite;   // lanes whose weight is NaN/±Inf (policies with kFlagsNonFinite)
};

// Single-precision screen of the head comparison (AVX-512 path). With Q = q·2^16 the double
// value the scalar path computes (q = 0.5 ± (clip(w) − c)·inv), T16 = T >> 48 = ⌊clamp(Q, 0,
// 65535)⌋, and V16 a multiple of S = 2^coarse (its low coarse bits are unknown, set to 0). The
// screen computes R = 32768 + (clip_f(w) − c_f)·s_f in float, 16 lanes per instruction instead
// of 8, with a proven bound |R − Q| ≤ e and 0 ≤ R ≤ 65536 (both below), and decides only when
// the margin m ≥ e + 2^−7 makes the answer certain:
//   R − (S + m) ≥ V16  ⇒  Q ≥ V16 + S, and V16 ≤ 65536 − 2S (as R ≤ 65536, V16 a multiple of S)
//                      ⇒  T16 ≥ V16 + S  ⇒  T16 >> coarse > V16 >> coarse  ⇒  V < T;
//   R + m < V16        ⇒  Q < V16, and V16 ≥ S (as R ≥ 0)  ⇒  T16 < V16  ⇒  T16 >> coarse
//                         < V16 >> coarse  ⇒  V ≥ T;
// (2^−7 covers the rounding of R ∓ (S + m), values below 2^17). So R needs no clamp of its
// own. Every other lane — probability about (S + 2m)/2^16 — is decided exactly. So the screen
// changes the cost, never a bit.
struct FloatScreen {
  bool usable = false;
  float lo = 0, hi = 0, c = 0, s = 0;  // clip bounds inside [c − r, c + r], center, ±2^16·inv
  float m = 0, step_plus_m = 0;        // margin, a multiple of 2^−10 (so S + m is exact)
};

// The error bound, term by term (u = 2^−24, one float rounding is ≤ u relative):
//  * clip: lo_f = the least float ≥ c − r, hi_f = the greatest float ≤ c + r, so the clipped
//    weights differ by ≤ e_clip = max(lo_f − lo, hi − hi_f); the center by |c − c_f|; both
//    scaled by |s|;
//  * the subtraction, s_f vs s and the product: ≤ 3u(1 + u)·P, P ≥ |(X_f − c_f)·s_f|;
//  * the addition of 32768: ≤ u·(32768 + P);
//  * the double path's own roundings of Q (three operations on values ≤ 1, scaled by 2^16):
//    ≤ 2^16·2^−51.
// m = 2e + 2^−6 rounded up to a multiple of 2^−10 (a factor 2 of slack); unusable if m > 1/4.
// The range of R: the computed product is at most P = a·|s|·(1 + 4u) in magnitude, a = the
// largest |X_f − c_f|, so R ∈ [(32768 − P)(1 − u), (32768 + P)(1 + u)]; the screen is usable only
// if that is inside [0, 65536]. For levels from MakeBinaryLevels P ≈ 32768/α, so this holds
// unless α is below about 1 + 6u (ε above about 15.5), where the exact comparison runs instead.
FloatScreen MakeFloatScreen(const BinaryLevels& k, bool minus, int coarse) {
  FloatScreen f;
  float lo = static_cast<float>(k.lo), hi = static_cast<float>(k.hi);
  if (static_cast<double>(lo) < k.lo) lo = std::nextafter(lo, std::numeric_limits<float>::infinity());
  if (static_cast<double>(hi) > k.hi) hi = std::nextafter(hi, -std::numeric_limits<float>::infinity());
  const double s = 65536.0 * k.inv_two_r_alpha;  // exact: a power-of-two scaling
  const float c = static_cast<float>(k.c), sf = static_cast<float>(minus ? -s : s);
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo <= hi) || !std::isfinite(c) || !std::isfinite(sf) ||
      !(std::fabs(sf) > 0))
    return f;
  constexpr double u = 0x1p-24;
  const double as = std::fabs(s);
  const double e_clip = std::max(static_cast<double>(lo) - k.lo, k.hi - static_cast<double>(hi));
  const double a = std::max(std::fabs(static_cast<double>(hi) - c), std::fabs(static_cast<double>(lo) - c));
  const double p = a * as * (1 + 4 * u);
  if (!((32768.0 + p) * (1 + u) <= 65536.0)) return f;  // then also 32768 − p ≥ 0
  const double e = as * (e_clip + std::fabs(k.c - static_cast<double>(c))) + 3 * u * (1 + u) * p +
                   u * (32768.0 + p) + 0x1p-35;
  const double m = std::ceil((2 * e + 0x1p-6) * 1024.0) / 1024.0;
  if (!(m <= 0.25)) return f;
  f.usable = true;
  f.lo = lo;
  f.hi = hi;
  f.c = c;
  f.s = sf;
  f.m = static_cast<float>(m);
  f.step_plus_m = static_cast<float>(std::ldexp(1.0, coarse) + m);
  return f;
}

// Portable form (GCC vector extensions), compiled for AVX2 and baseline x86-64.
struct GenericOps {
  static constexpr bool kFlagsNonFinite = false;  // EncodeBody scans each group first instead
  static DPFL_ALWAYS_INLINE I32x8 TopThreshold8(const BinaryLevels& k, const float* w, bool minus) {
    F32x8 wf;
    std::memcpy(&wf, w, sizeof(wf));
    F64x8 x = __builtin_convertvector(wf, F64x8);
    const F64x8 lo = F64x8{} + k.lo, hi = F64x8{} + k.hi;
    x = x < lo ? lo : (x > hi ? hi : x);
    const F64x8 prod = (x - k.c) * k.inv_two_r_alpha;
    F64x8 q16 = (minus ? 0.5 - prod : 0.5 + prod) * 65536.0;
    const F64x8 zero = F64x8{}, top = F64x8{} + 65535.0;
    q16 = q16 > zero ? q16 : zero;
    q16 = q16 < top ? q16 : top;
    return __builtin_convertvector(q16, I32x8);
  }
  // Bit i = lane i of an all-ones/all-zeros mask: narrow to bytes, then gather each byte's top
  // bit with the multiply trick ((x & 0x8040…01)·0x0101…01 collects bit i of byte i in the top
  // byte, carry-free).
  static DPFL_ALWAYS_INLINE std::uint32_t LaneBits(I32x16 m) {
    const U8x16 bytes = __builtin_convertvector(m, U8x16);
    std::uint64_t half[2];
    std::memcpy(half, &bytes, sizeof(half));
    constexpr std::uint64_t kPick = 0x8040201008040201ull, kSum = 0x0101010101010101ull;
    return static_cast<std::uint32_t>((((half[0] & kPick) * kSum) >> 56) |
                                      ((((half[1] & kPick) * kSum) >> 56) << 8));
  }
  // 16 heads as 32-bit lanes: 16-bit heads as they are, 8-bit heads as b << 8.
  template <bool kBytes>
  static DPFL_ALWAYS_INLINE U32x16 Heads16(const void* h) {
    if constexpr (kBytes) {
      U8x16 b;
      std::memcpy(&b, h, sizeof(b));
      return __builtin_convertvector(b, U32x16) << 8;
    } else {
      U16x16 b;
      std::memcpy(&b, h, sizeof(b));
      return __builtin_convertvector(b, U32x16);
    }
  }
  template <Rule kRule, HeadLayout kHeads>
  static DPFL_ALWAYS_INLINE LaneMasks Compare16(const BinaryLevels& k, const FloatScreen& /*screen: AVX-512 only*/,
                                                const float* w, const void* sh, const void* pr, std::uint32_t high,
                                                int shift, int coarse) {
    const U32x16 p = Heads16<kHeads.private_bytes>(pr);
    U32x16 v = p;
    if constexpr (kRule != Rule::kLdpq) v = (Heads16<kHeads.shared_bytes>(sh) & high) | (p >> shift);
    const I32x8 t_lo = TopThreshold8(k, w, kRule == Rule::kQ2), t_hi = TopThreshold8(k, w + 8, kRule == Rule::kQ2);
    U32x16 t = reinterpret_cast<U32x16>(
        __builtin_shufflevector(t_lo, t_hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    if constexpr (kHeads.private_bytes) {
      v >>= coarse;
      t >>= coarse;
    }
    return {LaneBits(reinterpret_cast<I32x16>(v < t)), LaneBits(reinterpret_cast<I32x16>(v == t)), 0};
  }
};

// AVX-512 form (intrinsics). The members carry the target attribute and are inlined into the
// AVX-512 entry point by `flatten` (GCC will not inline them into the shared, untargeted body
// before that). _mm512_max_pd / _mm512_min_pd equal the scalar ternaries here: no operand is NaN
// (weights are validated), and a ±0 difference is erased by the following subtraction or
// truncation.
#define DPFL_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw")))
struct Avx512Ops {
  // Compare16 classifies the 16 weights it loads (vfpclassps: QNaN, SNaN, ±Inf), so the encoder
  // needs no separate pass over the group; a flagged lane is never reported as a tie.
  static constexpr bool kFlagsNonFinite = true;
  DPFL_AVX512 static inline __m256i TopThreshold8(const BinaryLevels& k, const float* w, bool minus) {
    __m512d x = _mm512_cvtps_pd(_mm256_loadu_ps(w));
    x = _mm512_max_pd(_mm512_set1_pd(k.lo), _mm512_min_pd(_mm512_set1_pd(k.hi), x));
    const __m512d prod = _mm512_mul_pd(_mm512_sub_pd(x, _mm512_set1_pd(k.c)), _mm512_set1_pd(k.inv_two_r_alpha));
    const __m512d half = _mm512_set1_pd(0.5);
    __m512d q16 = _mm512_mul_pd(minus ? _mm512_sub_pd(half, prod) : _mm512_add_pd(half, prod), _mm512_set1_pd(65536.0));
    q16 = _mm512_min_pd(_mm512_max_pd(q16, _mm512_setzero_pd()), _mm512_set1_pd(65535.0));
    return _mm512_cvttpd_epi32(q16);
  }
  template <bool kBytes>
  DPFL_AVX512 static inline __m512i Heads16(const void* h) {
    if constexpr (kBytes) {
      return _mm512_slli_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128(static_cast<const __m128i*>(h))), 8);
    } else {
      return _mm512_cvtepu16_epi32(_mm256_loadu_si256(static_cast<const __m256i*>(h)));
    }
  }
  template <Rule kRule, HeadLayout kHeads>
  DPFL_AVX512 static inline LaneMasks Compare16(const BinaryLevels& k, const FloatScreen& screen, const float* w,
                                                const void* sh, const void* pr, std::uint32_t high, int shift,
                                                int coarse) {
    const __m512i p = Heads16<kHeads.private_bytes>(pr);
    __m512i v = p;
    if constexpr (kRule != Rule::kLdpq) {
      const __m512i s = Heads16<kHeads.shared_bytes>(sh);
      v = _mm512_or_si512(_mm512_and_si512(s, _mm512_set1_epi32(static_cast<int>(high))),
                          _mm512_srl_epi32(p, _mm_cvtsi32_si128(shift)));
    }
    const __m512 wf = _mm512_loadu_ps(w);
    const __mmask16 bad = _mm512_fpclass_ps_mask(wf, 0x01 | 0x08 | 0x10 | 0x80);  // QNaN, +Inf, −Inf, SNaN
    if (screen.usable) {  // FloatScreen: decide the certain lanes in single precision
      const __m512 x = _mm512_max_ps(_mm512_set1_ps(screen.lo), _mm512_min_ps(_mm512_set1_ps(screen.hi), wf));
      // R is not clamped to [0, 65535]: the comparisons below are sound for the unclamped value
      // too (see FloatScreen).
      const __m512 prod = _mm512_mul_ps(_mm512_sub_ps(x, _mm512_set1_ps(screen.c)), _mm512_set1_ps(screen.s));
      const __m512 r = _mm512_add_ps(prod, _mm512_set1_ps(32768.0f));
      const __m512 vf = _mm512_cvtepu32_ps(v);  // exact: V16 < 2^16
      const __mmask16 below =
          _mm512_cmp_ps_mask(_mm512_sub_ps(r, _mm512_set1_ps(screen.step_plus_m)), vf, _CMP_GE_OQ);
      const __mmask16 above = _mm512_cmp_ps_mask(_mm512_add_ps(r, _mm512_set1_ps(screen.m)), vf, _CMP_LT_OQ);
      return {below, static_cast<std::uint32_t>(~(below | above | bad)) & 0xffffu, bad};
    }
    __m512i t = _mm512_inserti64x4(_mm512_castsi256_si512(TopThreshold8(k, w, kRule == Rule::kQ2)),
                                   TopThreshold8(k, w + 8, kRule == Rule::kQ2), 1);
    if constexpr (kHeads.private_bytes) {
      const __m128i count = _mm_cvtsi32_si128(coarse);
      v = _mm512_srl_epi32(v, count);
      t = _mm512_srl_epi32(t, count);
    }
    return {_mm512_cmplt_epu32_mask(v, t), static_cast<std::uint32_t>(_mm512_mask_cmpeq_epi32_mask(~bad, v, t)), bad};
  }
};

// Everything the tie fallback needs to recompute one decision with all 64 bits.
struct EncodeJob {
  const BinaryLevels* levels;
  const float* w;
  const StreamContext* priv_ctx;
  const StreamContext* shared_ctx;
  rng::StreamAddress priv_addr, shared_addr;
  Rule rule;
  int d;               // shared bits (roles only)
  int coarse;          // low bits of V >> 48 that the heads do not give (RoleHeadUnknownBits)
  FloatScreen screen;  // AVX-512 single-precision screen (unusable → exact double comparison)
  // Set when a range met a NaN/±Inf weight (its words are then zeroed, never decided); the
  // entry point then reports the first such index. Checking as the weights stream through the
  // encoder saves the separate single-threaded pass over the input that ValidateWeights makes.
  std::atomic<bool>* non_finite;
};

// Words [lo, hi) met a NaN/±Inf weight: they are zeroed, never decided, and the entry point
// (RunJob) reports the first bad index (EncodeJob::non_finite).
inline void RejectWords(const EncodeJob& job, std::uint64_t* bits, std::size_t lo, std::size_t hi) {
  job.non_finite->store(true, std::memory_order_relaxed);
  std::fill(bits + lo, bits + hi, std::uint64_t{0});
}

// The exact decision of parameter j by the scalar rule, taken for the rare parameters whose
// heads tie with T. V's uniforms are rebuilt from the heads in hand and the tails
// (rng::DecisionUniformFromParts, the composition rng::DecisionUniform64 uses): the private
// tail always; the shared tail only when d exceeds the shared head width (MergeSharedPrivate
// reads only the top d shared bits, so below that the tail's bits never reach V); and for
// d ≥ 16, where the body draws no private heads, the whole private uniform.
__attribute__((noinline, cold)) bool ExactDecision(const EncodeJob& job, std::size_t j, std::uint32_t shared_head,
                                                   std::uint32_t private_head) {
  const rng::Generator gen = job.priv_ctx->generator;
  const bool ldpq = job.rule == Rule::kLdpq;
  const int private_bits = ldpq ? kLdpqHeadBits : RolePrivateHeadBits(job.d);
  const std::uint64_t priv =
      !ldpq && job.d >= 16
          ? rng::DecisionUniform64(gen, job.priv_ctx->key, job.priv_addr, j, private_bits)
          : rng::DecisionUniformFromParts(
                private_head, rng::Uniform64(gen, job.priv_ctx->key, rng::TailAddress(job.priv_addr), j), private_bits);
  if (ldpq) return LdpqBit(job.w[j], priv, *job.levels);
  const int shared_bits = SharedHeadBits(job.d);
  const std::uint64_t shared_tail =
      job.d > shared_bits ? rng::Uniform64(gen, job.shared_ctx->key, rng::TailAddress(job.shared_addr), j) : 0;
  const std::uint64_t shared = rng::DecisionUniformFromParts(shared_head, shared_tail, shared_bits);
  return job.rule == Rule::kQ2 ? Q2RoleBit(job.w[j], shared, priv, job.d, *job.levels)
                               : Q1RoleBit(job.w[j], shared, priv, job.d, *job.levels);
}

// Head i of 16 consecutive heads at h (8- or 16-bit).
template <bool kBytes>
DPFL_ALWAYS_INLINE std::uint32_t HeadAt(const void* h, int i) {
  if constexpr (kBytes) {
    return static_cast<const std::uint8_t*>(h)[i];
  } else {
    std::uint16_t v;
    std::memcpy(&v, static_cast<const char*>(h) + 2 * i, sizeof(v));
    return v;
  }
}

// 16 decisions, parameters first … first + 15 (bit i = parameter first + i); sh and pr point at
// their shared and private heads (8-bit ones per kHeads, read as b << 8 so that their bits sit
// where a 16-bit head's would). Lanes with a non-finite weight are or-ed into *non_finite (their
// bits are meaningless; the caller zeroes the group).
template <class Ops, Rule kRule, HeadLayout kHeads>
DPFL_ALWAYS_INLINE std::uint32_t Decide16(const EncodeJob& job, std::size_t first, const void* sh, const void* pr,
                                          std::uint32_t high, int shift, std::uint32_t* non_finite) {
  const LaneMasks m = Ops::template Compare16<kRule, kHeads>(*job.levels, job.screen, job.w + first, sh, pr, high,
                                                             shift, job.coarse);
  *non_finite |= m.non_finite;
  std::uint32_t bits = kRule == Rule::kQ2 ? (~m.below & 0xffffu) : m.below;
  for (std::uint32_t ties = m.ties; ties != 0; ties &= ties - 1) {
    const int i = __builtin_ctz(ties);
    const std::uint32_t one = 1u << i;
    const bool plus = ExactDecision(job, first + static_cast<std::size_t>(i), HeadAt<kHeads.shared_bytes>(sh, i),
                                    HeadAt<kHeads.private_bytes>(pr, i));
    bits = plus ? (bits | one) : (bits & ~one);
  }
  return bits;
}

// One stream's heads for the current group. With 16-bit heads a RawUniforms128 call holds one
// group's 512 heads; with 8-bit heads it holds two groups' (1024 bytes) and is kept for the
// second. `At(o)` is the head of parameter o of the group.
template <bool kBytes>
struct GroupHeads {
  U64x8 raw[16] = {};
  std::size_t held = ~std::size_t{0};  // RawUniforms128 index in raw
  std::size_t base = 0;                // byte offset of the group's first head in raw
  DPFL_ALWAYS_INLINE void Load(const StreamLanes& lanes, std::size_t group) {
    const std::size_t block = kBytes ? group / 2 : group;
    if (block != held) {
      RawUniforms128(lanes, block, raw);
      held = block;
    }
    base = kBytes ? 512 * (group % 2) : 0;
  }
  DPFL_ALWAYS_INLINE const void* At(std::size_t o) const {
    return reinterpret_cast<const char*>(raw) + base + (kBytes ? 1 : 2) * o;
  }
};

// Encodes packed words [word_lo, word_hi), both multiples of 8 (whole groups of 512 parameters).
template <class Ops, Rule kRule, HeadLayout kHeads>
DPFL_ALWAYS_INLINE void EncodeBody(const EncodeJob& job, std::uint64_t* bits, std::size_t word_lo,
                                   std::size_t word_hi) {
  const bool need_shared = kRule != Rule::kLdpq && job.d > 0, need_priv = kRule == Rule::kLdpq || job.d < 16;
  const int shift = job.d < 16 ? job.d : 16;
  const std::uint32_t high = (0xffffu << (16 - shift)) & 0xffffu;
  const StreamLanes priv_lanes = MakeStreamLanes(*job.priv_ctx, job.priv_addr),
                    shared_lanes = MakeStreamLanes(*job.shared_ctx, job.shared_addr);
  GroupHeads<kHeads.private_bytes> priv;
  GroupHeads<kHeads.shared_bytes> shared;
  for (std::size_t word = word_lo; word < word_hi; word += 8) {
    const std::size_t group = word / 8;
    // The group's 2 KiB of weights are requested before the heads are generated, so the loads
    // overlap the generator's arithmetic instead of stalling the decisions.
    for (std::size_t line = 0; line < 512; line += 16) __builtin_prefetch(job.w + group * 512 + line);
    if (need_priv) priv.Load(priv_lanes, group);
    if (need_shared) shared.Load(shared_lanes, group);
    // A group with a NaN/±Inf is never decided exactly (ExactDecision must not see one: either
    // the policy flags those lanes and keeps them out of the ties, or the group is scanned here,
    // after the heads, when the prefetched weights have arrived); its words are zeroed and the
    // caller reports the first bad index.
    if constexpr (!Ops::kFlagsNonFinite) {
      if (__builtin_expect(detail::AnyNonFinite(job.w + group * 512, 512), 0)) {
        RejectWords(job, bits, word, word + 8);
        continue;
      }
    }
    std::uint32_t non_finite = 0;
    for (std::size_t h = 0; h < 8; ++h) {  // word 8·group + h = parameters 512·group + 64h … + 63
      const std::size_t first = group * 512 + 64 * h;
      std::uint64_t out = 0;
      for (std::size_t q = 0; q < 4; ++q) {
        const std::size_t o = 64 * h + 16 * q;  // parameter offset in the group
        out |= std::uint64_t{Decide16<Ops, kRule, kHeads>(job, first + 16 * q, shared.At(o), priv.At(o), high, shift,
                                                          &non_finite)}
               << (16 * q);
      }
      bits[word + h] = out;
    }
    if (__builtin_expect(non_finite != 0, 0)) RejectWords(job, bits, word, word + 8);
  }
}

template <Rule kRule, HeadLayout kHeads>
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"), flatten)) void EncodeAvx512(const EncodeJob& job,
                                                                                          std::uint64_t* bits,
                                                                                          std::size_t lo,
                                                                                          std::size_t hi) {
  EncodeBody<Avx512Ops, kRule, kHeads>(job, bits, lo, hi);
}
template <Rule kRule, HeadLayout kHeads>
__attribute__((target("avx2,bmi2"))) void EncodeAvx2(const EncodeJob& job, std::uint64_t* bits, std::size_t lo,
                                                     std::size_t hi) {
  EncodeBody<GenericOps, kRule, kHeads>(job, bits, lo, hi);
}
template <Rule kRule, HeadLayout kHeads>
void EncodeBaseline(const EncodeJob& job, std::uint64_t* bits, std::size_t lo, std::size_t hi) {
  EncodeBody<GenericOps, kRule, kHeads>(job, bits, lo, hi);
}

using EncodeFn = void (*)(const EncodeJob&, std::uint64_t*, std::size_t, std::size_t);

template <Rule kRule, HeadLayout kHeads>
EncodeFn SelectForIsa(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return EncodeAvx512<kRule, kHeads>;
    case Isa::kAvx2: return EncodeAvx2<kRule, kHeads>;
    case Isa::kBaseline: return EncodeBaseline<kRule, kHeads>;
  }
  return EncodeBaseline<kRule, kHeads>;
}

// The role body for the head widths of d (SharedHeadBits, RolePrivateHeadBits).
template <Rule kRule>
EncodeFn SelectForRole(Isa isa, int d) {
  const bool shared_bytes = SharedHeadBits(d) == rng::kHeadBits8, private_bytes = RolePrivateHeadBits(d) == rng::kHeadBits8;
  if (shared_bytes && private_bytes) return SelectForIsa<kRule, HeadLayout{true, true}>(isa);
  if (shared_bytes) return SelectForIsa<kRule, HeadLayout{true, false}>(isa);
  if (private_bytes) return SelectForIsa<kRule, HeadLayout{false, true}>(isa);
  return SelectForIsa<kRule, HeadLayout{false, false}>(isa);
}

EncodeFn Select(Isa isa, Rule rule, int d) {
  switch (rule) {
    case Rule::kLdpq: return SelectForIsa<Rule::kLdpq, HeadLayout{false, false}>(isa);  // kLdpqHeadBits = 16
    case Rule::kQ1: return SelectForRole<Rule::kQ1>(isa, d);
    case Rule::kQ2: return SelectForRole<Rule::kQ2>(isa, d);
  }
  return SelectForIsa<Rule::kLdpq, HeadLayout{false, false}>(isa);
}

// Encodes words [lo, hi): the SIMD body handles whole groups of 8 full words (512 parameters);
// the scalar loop of cpu_encoders.hpp handles the rest (a misaligned start, the tail).
void EncodeRange(EncodeFn simd, const EncodeJob& job, std::size_t m, std::span<std::uint64_t> bits, std::size_t lo,
                 std::size_t hi) {
  const std::size_t full_words = m / 64;
  const std::size_t simd_lo = (lo + 7) / 8 * 8;
  std::size_t simd_hi = hi < full_words ? hi : full_words;
  simd_hi = simd_hi > simd_lo ? simd_lo + (simd_hi - simd_lo) / 8 * 8 : simd_lo;
  const auto scalar = [&](std::size_t a, std::size_t b) {
    const std::span<const float> w(job.w, m);
    const std::size_t j_lo = 64 * a, j_hi = std::min(64 * b, m);
    if (detail::AnyNonFinite(job.w + j_lo, j_hi - j_lo)) {
      RejectWords(job, bits.data(), a, b);
      return;
    }
    if (job.rule == Rule::kLdpq) {
      detail::EncodeLdpqWords<NoFaults>(*job.levels, w, *job.priv_ctx, job.priv_addr, bits, a, b);
    } else {
      detail::EncodeCorBinQWords<NoFaults>(*job.levels, w, job.d, job.rule == Rule::kQ1 ? PairRole::kQ1 : PairRole::kQ2,
                                           *job.shared_ctx, job.shared_addr, *job.priv_ctx, job.priv_addr, bits, a,
                                           b);
    }
  };
  if (simd_lo >= simd_hi) {
    scalar(lo, hi);
    return;
  }
  if (lo < simd_lo) scalar(lo, simd_lo);
  simd(job, bits.data(), simd_lo, simd_hi);
  if (simd_hi < hi) scalar(simd_hi, hi);
}

// Contract on a NaN/±Inf weight (binary_quantizer.hpp): InvalidArgument naming the first bad
// index, with every word of `bits` zeroed (no partial message is left behind).
void RunJob(EncodeJob job, std::size_t m, std::span<std::uint64_t> bits, int threads, Isa isa) {
  const EncodeFn simd = Select(isa, job.rule, job.d);
  std::atomic<bool> non_finite{false};
  job.non_finite = &non_finite;
  detail::ForWordRanges(PackedWords(m), threads,
                        [&](std::size_t lo, std::size_t hi) { EncodeRange(simd, job, m, bits, lo, hi); });
  if (non_finite.load()) {
    std::fill(bits.begin(), bits.begin() + static_cast<std::ptrdiff_t>(PackedWords(m)), std::uint64_t{0});
    ValidateWeights({job.w, m}, bits.size());  // throws, naming the first bad index
    throw std::logic_error("fast encoder: a range reported a non-finite weight that ValidateWeights did not find");
  }
}

// ---- Aggregation: counts[j] += Σ_i bit j of message i ----

// Words [lo, hi) of the counters: the 64 counters of a word are held in four 16-lane vectors
// while every message's word is added (bit k of the word → lane k % 16 of vector k / 16); the
// last, partial word is added lane by lane.
DPFL_ALWAYS_INLINE void AccumulateBody(std::span<const std::span<const std::uint64_t>> messages,
                                       std::span<std::uint32_t> counts, std::size_t lo, std::size_t hi) {
  const U32x16 lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  const std::size_t full_words = counts.size() / 64;
  for (std::size_t word = lo; word < hi; ++word) {
    std::uint32_t* c = counts.data() + 64 * word;
    if (word >= full_words) {  // partial last word
      for (const auto& msg : messages)
        for (std::size_t k = 0; 64 * word + k < counts.size(); ++k) c[k] += static_cast<std::uint32_t>((msg[word] >> k) & 1u);
      continue;
    }
    U32x16 acc[4];
    std::memcpy(acc, c, sizeof(acc));
    for (const auto& msg : messages) {
      const std::uint64_t x = msg[word];
      for (int q = 0; q < 4; ++q) acc[q] += ((U32x16{} + static_cast<std::uint32_t>(x >> (16 * q))) >> lane) & 1u;
    }
    std::memcpy(c, acc, sizeof(acc));
  }
}

__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))) void AccumulateAvx512(
    std::span<const std::span<const std::uint64_t>> messages, std::span<std::uint32_t> counts, std::size_t lo,
    std::size_t hi) {
  AccumulateBody(messages, counts, lo, hi);
}
__attribute__((target("avx2,bmi2"))) void AccumulateAvx2(std::span<const std::span<const std::uint64_t>> messages,
                                                         std::span<std::uint32_t> counts, std::size_t lo,
                                                         std::size_t hi) {
  AccumulateBody(messages, counts, lo, hi);
}
void AccumulateBaseline(std::span<const std::span<const std::uint64_t>> messages, std::span<std::uint32_t> counts,
                        std::size_t lo, std::size_t hi) {
  AccumulateBody(messages, counts, lo, hi);
}

}  // namespace

void AccumulateMessagesFast(std::span<const std::span<const std::uint64_t>> messages, std::span<std::uint32_t> counts,
                            int threads, Isa isa) {
  const auto fn = isa == Isa::kAvx512 ? AccumulateAvx512 : isa == Isa::kAvx2 ? AccumulateAvx2 : AccumulateBaseline;
  detail::ForWordRanges(PackedWords(counts.size()), threads,
                        [&](std::size_t lo, std::size_t hi) { fn(messages, counts, lo, hi); });
}

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
  ValidateOutputSize(w.size(), bits.size());
  detail::CheckIndexRange(ctx, w.size());
  const EncodeJob job{&levels, w.data(), &ctx, &ctx, {ctx.round, client, rng::Purpose::kPrivateCoin}, {},
                      Rule::kLdpq, 0, 0, MakeFloatScreen(levels, false, 0), nullptr};
  RunJob(job, w.size(), bits, threads, isa);
}

void EncodeCorBinQFast(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                       const StreamContext& shared_ctx, const StreamContext& ctx, std::uint32_t pair,
                       std::uint32_t client, std::span<std::uint64_t> bits, int threads, Isa isa) {
  ValidateSameGenerator(shared_ctx, ctx);
  ValidateOutputSize(w.size(), bits.size());
  ValidateSharedBits(d);
  detail::CheckIndexRange(ctx, w.size());
  const EncodeJob job{&levels,
                      w.data(),
                      &ctx,
                      &shared_ctx,
                      {ctx.round, client, rng::Purpose::kPrivateCoin},
                      {shared_ctx.round, pair, rng::Purpose::kSharedBits},
                      role == PairRole::kQ1 ? Rule::kQ1 : Rule::kQ2,
                      d,
                      RoleHeadUnknownBits(d),
                      MakeFloatScreen(levels, role == PairRole::kQ2, RoleHeadUnknownBits(d)),
                      nullptr};
  RunJob(job, w.size(), bits, threads, isa);
}

}  // namespace dpfl::quant::fast
