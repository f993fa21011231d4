// The decision layer of the fast CPU path: which rule and head layout a loop compiles for, the
// per-lane comparison of the heads with T >> 48 (GenericOps<W> for AVX2/baseline, Avx512Ops; both
// with the proven single-precision screen), each reporting the ties that must be decided exactly.
//
// Private to the fast CPU path: included by fast_encoders.cpp (and the vector types by
// fast_accumulate.cpp) only. Everything is in an anonymous namespace on purpose — internal
// linkage keeps the 512-bit vector returns out of any ABI (GCC's -Wpsabi note) and leaves
// the inliner free, exactly as when these lived in one file; do not include this header from
// a second translation unit of the same binary expecting shared definitions.
#pragma once

#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "dpfl/quant/cpu_encoders.hpp"
#include "simd_vectors.hpp"

namespace dpfl::quant::fast {
namespace {  // NOLINT(google-build-namespaces): see above

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

// Single-precision screen of the head comparison (every instruction set). With Q = q·2^16 the double
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

// Portable form (GCC vector extensions), compiled for AVX2 (W = 8) and baseline x86-64 (W = 4):
// 16 lanes as 16/W native registers (NativeVectors). With a usable FloatScreen the certain lanes
// are decided in single precision, W per instruction, exactly as Avx512Ops does; otherwise the
// thresholds are computed in registers of W/2 doubles. Heads and thresholds lie in [0, 2^16), so
// signed 32-bit comparisons are exact.
template <int W>
struct GenericOps {
  using N = NativeVectors<W>;
  static constexpr bool kFlagsNonFinite = false;  // EncodeBody scans each group first instead
  // T >> 48 of W weights (see LaneMasks), W/2 at a time in double.
  static DPFL_ALWAYS_INLINE typename N::I32 TopThreshold(const BinaryLevels& k, const float* w, bool minus) {
    typename N::I32h half[2];
    for (int h = 0; h < 2; ++h) {
      typename N::F32h wf;
      std::memcpy(&wf, w + h * (W / 2), sizeof(wf));
      typename N::F64h x = __builtin_convertvector(wf, typename N::F64h);
      const typename N::F64h lo = typename N::F64h{} + k.lo, hi = typename N::F64h{} + k.hi;
      x = x < lo ? lo : (x > hi ? hi : x);
      const typename N::F64h prod = (x - k.c) * k.inv_two_r_alpha;
      typename N::F64h q16 = (minus ? 0.5 - prod : 0.5 + prod) * 65536.0;
      const typename N::F64h zero = typename N::F64h{}, top = typename N::F64h{} + 65535.0;
      q16 = q16 > zero ? q16 : zero;
      q16 = q16 < top ? q16 : top;
      half[h] = __builtin_convertvector(q16, typename N::I32h);
    }
    typename N::I32 t;
    std::memcpy(&t, half, sizeof(t));
    return t;
  }
  template <Rule kRule, HeadLayout kHeads>
  static DPFL_ALWAYS_INLINE LaneMasks Compare16(const BinaryLevels& k, const FloatScreen& screen, const float* w,
                                                const void* sh, const void* pr, std::uint32_t high, int shift,
                                                int coarse) {
    LaneMasks m{0, 0, 0};
    for (int c = 0; c < 16 / W; ++c) {
      const int head_bytes_p = kHeads.private_bytes ? 1 : 2, head_bytes_s = kHeads.shared_bytes ? 1 : 2;
      const typename N::I32 p = HeadsW<W, kHeads.private_bytes>(static_cast<const char*>(pr) + head_bytes_p * W * c);
      typename N::I32 v = p;
      if constexpr (kRule != Rule::kLdpq)
        v = (HeadsW<W, kHeads.shared_bytes>(static_cast<const char*>(sh) + head_bytes_s * W * c) &
             static_cast<std::int32_t>(high)) |
            (p >> shift);
      if (screen.usable) {  // FloatScreen, W lanes per instruction: the same proof as Avx512Ops
        typename N::F32 x;
        std::memcpy(&x, w + W * c, sizeof(x));
        const typename N::F32 lo = typename N::F32{} + screen.lo, hi = typename N::F32{} + screen.hi;
        x = x < lo ? lo : (x > hi ? hi : x);
        const typename N::F32 r = (x - screen.c) * screen.s + 32768.0f;
        const typename N::F32 vf = __builtin_convertvector(v, typename N::F32);  // exact: V16 < 2^16
        const typename N::I32 below = (r - screen.step_plus_m) >= vf, above = (r + screen.m) < vf;
        m.below |= MaskBits<W>(below) << (W * c);
        m.ties |= MaskBits<W>(~(below | above)) << (W * c);
        continue;
      }
      typename N::I32 t = TopThreshold(k, w + W * c, kRule == Rule::kQ2);
      if constexpr (kHeads.private_bytes) {
        v >>= coarse;
        t >>= coarse;
      }
      m.below |= MaskBits<W>(v < t) << (W * c);
      m.ties |= MaskBits<W>(v == t) << (W * c);
    }
    return m;
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

}  // namespace
}  // namespace dpfl::quant::fast
