// SIMD fast path of the DPFL-BNN client encoders (StoSign, randomized response), bit-identical
// to the scalar loops of the internal rr_encoders.hpp (tests/unit/rr_encoder_test.cpp compares
// them word for word on both generators and every instruction set).
//
// Work unit: 8 packed words = 512 coordinates, whose 16-bit heads (rng::DecisionHead) are the
// raw uniforms of one RawUniforms128 call (16 ChaCha20 blocks or 64 Philox blocks, generated 16, 8
// or 4 lanes at a time by instruction set, simd_generators.hpp). A decision "V < T" is settled by
// the head h = V >> 48 unless h = T >> 48 (probability 2^−16); only then is the 48-bit tail read
// and the scalar rule evaluated in full. The decisions run on whole vectors: AVX-512 compares into
// mask registers (RrAvx512Ops), the portable path one native register at a time (RrGenericOps<W>).
// Three passes: StoSign, RR in place, and the whole upload RR(StoSign(θ)) in one pass (both
// streams' heads per group), whose bits are those of the first two run one after the other.
//
// Why it is bit-identical: the heads are the same pure functions of their addresses, and every
// comparison with the heads is exact.
//  * RR: T_flip is one integer per message; h < T_flip >> 48 decides "flip", h > … "keep".
//  * StoSign: T(θ) >> 48 = 2^15 + ⌊θ·2^15⌋ (rr_element.hpp; ⌊⌊x⌋/2^48⌋ = ⌊x/2^48⌋). With
//    a = h − 2^15 (an integer, exact in float) and x = clip(θ, −1, 1)·2^15 (a power-of-two scaling
//    of a float, exact): h < T >> 48 ⇔ a + 1 ≤ x, and h = T >> 48 ⇔ a ≤ x < a + 1. At θ ≥ 1
//    (x = 2^15 ≥ a + 1 for every head) the rule's unconditional "+" is reproduced, and at
//    θ ≤ −1 a tie (h = 0) goes to the exact rule, whose T is 0.
// So no rounding enters a decision, and vector lanes decide exactly as the scalar rule does.
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>

#include "dpfl/quant/fast_encoders.hpp"
#include "dpfl/quant/rr_encoders.hpp"
#include "simd_generators.hpp"
#include "simd_vectors.hpp"

namespace dpfl::quant::fast {
namespace {

// Which pass a body runs: StoSign alone, RR alone (in place), or the whole upload RR(StoSign(θ)) in
// one pass — both streams' heads per group, the StoSign word handed to RR in registers, the same
// bits as the two passes one after the other.
enum class Pass { kStoSign, kRr, kUpload };

struct RrJob {
  const StreamContext* ctx;
  rng::StreamAddress addr;       // StoSign's stream (kStoSign, kUpload) or RR's (kRr)
  rng::StreamAddress rr_addr;    // kUpload: RR's stream
  const float* theta;            // StoSign: the latents
  std::uint64_t flip_threshold;  // RR
  std::size_t m;
  std::atomic<bool>* non_finite;  // StoSign: a range met a NaN/±Inf (its words are zeroed)
};

template <bool kStoSign>
__attribute__((noinline, cold)) bool ExactDecision(const RrJob& job, const rng::StreamAddress& addr, std::size_t j,
                                                   std::uint32_t head, bool in_plus) {
  const std::uint64_t v = rng::DecisionUniformFromParts(
      head, rng::Uniform64(job.ctx->generator, job.ctx->key, rng::TailAddress(addr), j), kBnnHeadBits);
  if constexpr (kStoSign) return StoSignPlus(job.theta[j], v);
  return RrOutput(in_plus, v, job.flip_threshold);
}

// The 64 decisions of one packed word from its 64 heads: `below` holds StoSign's "+" (h < T >> 48)
// or RR's "flip" (h < T_flip >> 48), `ties` the lanes whose head equals T >> 48 (decided exactly).
struct WordMasks {
  std::uint64_t below, ties;
};

// Portable form (GCC vector extensions), compiled for AVX2 (W = 8) and baseline x86-64 (W = 4):
// one native register at a time (NativeVectors), the same float operations in the same order as
// the scalar rule (see the file comment).
template <int W>
struct RrGenericOps {
  using N = NativeVectors<W>;
  static DPFL_ALWAYS_INLINE WordMasks StoSign64(const float* theta, const void* heads) {
    WordMasks m{0, 0};
    const typename N::F32 lo = typename N::F32{} - 1.0f, hi = typename N::F32{} + 1.0f;
    for (int q = 0; q < 64 / W; ++q) {
      typename N::F32 t;
      std::memcpy(&t, theta + W * q, sizeof(t));
      t = t < lo ? lo : (t > hi ? hi : t);
      const typename N::F32 x = t * 32768.0f;
      const typename N::F32 a = __builtin_convertvector(
          HeadsW<W, false>(static_cast<const char*>(heads) + 2 * W * q) - 32768, typename N::F32);  // exact
      const typename N::I32 plus = a + 1.0f <= x, le = a <= x;
      m.below |= std::uint64_t{MaskBits<W>(plus)} << (W * q);
      m.ties |= std::uint64_t{MaskBits<W>(le & ~plus)} << (W * q);
    }
    return m;
  }
  static DPFL_ALWAYS_INLINE WordMasks Rr64(const void* heads, std::uint32_t t16) {
    WordMasks m{0, 0};
    const std::int32_t t = static_cast<std::int32_t>(t16);  // heads and t16 < 2^16: signed compare is exact
    for (int q = 0; q < 64 / W; ++q) {
      const typename N::I32 v = HeadsW<W, false>(static_cast<const char*>(heads) + 2 * W * q);
      m.below |= std::uint64_t{MaskBits<W>(v < t)} << (W * q);
      m.ties |= std::uint64_t{MaskBits<W>(v == t)} << (W * q);
    }
    return m;
  }
};

// AVX-512 form (intrinsics; inlined into the AVX-512 entry points by `flatten`). min/max equal the
// scalar clip's ternaries on the finite latents the body sees (a group with a NaN/±Inf is rejected
// before); the head conversions and a + 1 are exact.
#define DPFL_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw")))
struct RrAvx512Ops {
  DPFL_AVX512 static inline WordMasks StoSign64(const float* theta, const void* heads) {
    WordMasks m{0, 0};
    const __m512 lo = _mm512_set1_ps(-1.0f), hi = _mm512_set1_ps(1.0f), one = _mm512_set1_ps(1.0f),
                 scale = _mm512_set1_ps(32768.0f);
    const __m512i offset = _mm512_set1_epi32(32768);
    for (int q = 0; q < 4; ++q) {
      const __m512 t = _mm512_max_ps(lo, _mm512_min_ps(hi, _mm512_loadu_ps(theta + 16 * q)));
      const __m512 x = _mm512_mul_ps(t, scale);
      const __m512i h = _mm512_cvtepu16_epi32(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(static_cast<const char*>(heads) + 32 * q)));
      const __m512 a = _mm512_cvtepi32_ps(_mm512_sub_epi32(h, offset));
      const __mmask16 plus = _mm512_cmp_ps_mask(_mm512_add_ps(a, one), x, _CMP_LE_OQ);
      const __mmask16 le = _mm512_cmp_ps_mask(a, x, _CMP_LE_OQ);
      m.below |= std::uint64_t{plus} << (16 * q);
      m.ties |= std::uint64_t{static_cast<std::uint16_t>(le & ~plus)} << (16 * q);
    }
    return m;
  }
  DPFL_AVX512 static inline WordMasks Rr64(const void* heads, std::uint32_t t16) {
    const __m512i t = _mm512_set1_epi16(static_cast<short>(t16));
    const __m512i h0 = _mm512_loadu_si512(heads), h1 = _mm512_loadu_si512(static_cast<const char*>(heads) + 64);
    return {_mm512_cmplt_epu16_mask(h0, t) | (std::uint64_t{_mm512_cmplt_epu16_mask(h1, t)} << 32),
            _mm512_cmpeq_epu16_mask(h0, t) | (std::uint64_t{_mm512_cmpeq_epu16_mask(h1, t)} << 32)};
  }
};

// Head k (16 bits) of the 512 at `heads`.
DPFL_ALWAYS_INLINE std::uint32_t HeadAt(const void* heads, std::size_t k) {
  std::uint16_t v;
  std::memcpy(&v, static_cast<const char*>(heads) + 2 * k, sizeof(v));
  return v;
}

// The StoSign word of parameters first … first + 63 from their heads (ties decided exactly).
template <class Ops>
DPFL_ALWAYS_INLINE std::uint64_t StoSignWord(const RrJob& job, std::size_t first, const void* hd) {
  WordMasks m = Ops::StoSign64(job.theta + first, hd);
  for (std::uint64_t t = m.ties; t != 0; t &= t - 1) {
    const int k = __builtin_ctzll(t);
    const bool plus = ExactDecision<true>(job, job.addr, first + static_cast<std::size_t>(k), HeadAt(hd, static_cast<std::size_t>(k)), false);
    m.below = plus ? (m.below | (std::uint64_t{1} << k)) : (m.below & ~(std::uint64_t{1} << k));
  }
  return m.below;
}

// RR of the word `in` from the RR stream's heads at `addr`: `below` holds "flip", so a tie's exact
// outcome is stored as a flip.
template <class Ops>
DPFL_ALWAYS_INLINE std::uint64_t RrWord(const RrJob& job, const rng::StreamAddress& addr, std::size_t first,
                                        const void* hd, std::uint32_t t16, std::uint64_t in) {
  WordMasks m = Ops::Rr64(hd, t16);
  for (std::uint64_t t = m.ties; t != 0; t &= t - 1) {
    const int k = __builtin_ctzll(t);
    const bool in_plus = ((in >> k) & 1u) != 0;
    const bool out = ExactDecision<false>(job, addr, first + static_cast<std::size_t>(k), HeadAt(hd, static_cast<std::size_t>(k)), in_plus);
    m.below = out != in_plus ? (m.below | (std::uint64_t{1} << k)) : (m.below & ~(std::uint64_t{1} << k));
  }
  return in ^ m.below;
}

// Words [word_lo, word_hi), multiples of 8 and all full.
template <class Ops, int kLanes, Pass kPass>
DPFL_ALWAYS_INLINE void Body(const RrJob& job, std::uint64_t* bits, std::size_t word_lo, std::size_t word_hi) {
  constexpr bool kSto = kPass != Pass::kRr;
  const StreamLanes lanes = MakeStreamLanes(*job.ctx, job.addr);
  StreamLanes rr_lanes{};
  if constexpr (kPass == Pass::kUpload) rr_lanes = MakeStreamLanes(*job.ctx, job.rr_addr);
  const std::uint32_t t16 = static_cast<std::uint32_t>(job.flip_threshold >> 48);
  U64x8 raw[16];     // the group's 512 heads: little-endian 16-bit chunks, head k at byte 2k
  U64x8 rr_raw[16];  // kUpload: the RR stream's heads of the group
  for (std::size_t word = word_lo; word < word_hi; word += 8) {
    const std::size_t group = word / 8;
    if constexpr (kSto) {
      for (std::size_t line = 0; line < 512; line += 16) __builtin_prefetch(job.theta + group * 512 + line);
    }
    RawUniforms128<kLanes>(lanes, group, raw);
    if constexpr (kPass == Pass::kUpload) RawUniforms128<kLanes>(rr_lanes, group, rr_raw);
    if constexpr (kSto) {
      if (__builtin_expect(detail::AnyNonFinite(job.theta + group * 512, 512), 0)) {
        job.non_finite->store(true, std::memory_order_relaxed);
        std::fill(bits + word, bits + word + 8, std::uint64_t{0});
        continue;
      }
    }
    for (std::size_t h = 0; h < 8; ++h) {
      const std::size_t first = group * 512 + 64 * h;
      const void* hd = reinterpret_cast<const char*>(raw) + 128 * h;
      if constexpr (kPass == Pass::kStoSign) {
        bits[word + h] = StoSignWord<Ops>(job, first, hd);
      } else if constexpr (kPass == Pass::kRr) {
        bits[word + h] = RrWord<Ops>(job, job.addr, first, hd, t16, bits[word + h]);
      } else {
        const std::uint64_t sto = StoSignWord<Ops>(job, first, hd);
        bits[word + h] = RrWord<Ops>(job, job.rr_addr, first, reinterpret_cast<const char*>(rr_raw) + 128 * h, t16, sto);
      }
    }
  }
}

template <Pass kPass>
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"), flatten)) void BodyAvx512(const RrJob& job,
                                                                                       std::uint64_t* bits,
                                                                                       std::size_t lo, std::size_t hi) {
  Body<RrAvx512Ops, 16, kPass>(job, bits, lo, hi);
}
template <Pass kPass>
__attribute__((target("avx2,bmi2"))) void BodyAvx2(const RrJob& job, std::uint64_t* bits, std::size_t lo,
                                                   std::size_t hi) {
  Body<RrGenericOps<8>, 8, kPass>(job, bits, lo, hi);
}
template <Pass kPass>
void BodyBaseline(const RrJob& job, std::uint64_t* bits, std::size_t lo, std::size_t hi) {
  Body<RrGenericOps<4>, 4, kPass>(job, bits, lo, hi);
}

using BodyFn = void (*)(const RrJob&, std::uint64_t*, std::size_t, std::size_t);

template <Pass kPass>
BodyFn Select(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return BodyAvx512<kPass>;
    case Isa::kAvx2: return BodyAvx2<kPass>;
    case Isa::kBaseline: return BodyBaseline<kPass>;
  }
  return BodyBaseline<kPass>;
}

// Whole groups of 8 full words through the SIMD body, the rest through the scalar loops.
template <Pass kPass>
void Run(const RrJob& job, std::span<std::uint64_t> bits, int threads, Isa isa) {
  const BodyFn simd = Select<kPass>(isa);
  const std::size_t full_words = job.m / 64;
  const auto scalar = [&](std::size_t a, std::size_t b) {
    if constexpr (kPass != Pass::kRr) {
      const std::size_t j_lo = 64 * a, j_hi = std::min(64 * b, job.m);
      if (detail::AnyNonFinite(job.theta + j_lo, j_hi - j_lo)) {
        job.non_finite->store(true, std::memory_order_relaxed);
        std::fill(bits.begin() + static_cast<std::ptrdiff_t>(a), bits.begin() + static_cast<std::ptrdiff_t>(b), 0);
        return;
      }
      detail::StoSignWords<NoRrFaults>({job.theta, job.m}, *job.ctx, job.addr, bits, a, b);
      if constexpr (kPass == Pass::kUpload)
        detail::RandomizeWords<NoRrFaults>(job.flip_threshold, job.m, *job.ctx, job.rr_addr, bits, a, b);
    } else {
      detail::RandomizeWords<NoRrFaults>(job.flip_threshold, job.m, *job.ctx, job.addr, bits, a, b);
    }
  };
  detail::ForWordRanges(PackedWords(job.m), threads, [&](std::size_t lo, std::size_t hi) {
    detail::SplitWordRange(lo, hi, full_words, scalar, [&](std::size_t a, std::size_t b) { simd(job, bits.data(), a, b); });
  });
}

// StoSign and the upload: a non-finite latent zeroes the message and is reported by index.
template <Pass kPass>
void RunStoSign(const RrJob& job, std::span<const float> theta, std::span<std::uint64_t> bits, int threads, Isa isa) {
  Run<kPass>(job, bits, threads, isa);
  if (job.non_finite->load()) {
    std::fill(bits.begin(), bits.begin() + static_cast<std::ptrdiff_t>(PackedWords(theta.size())), std::uint64_t{0});
    ValidateLatents(theta, bits.size());  // throws, naming the first bad index
    throw std::logic_error("fast StoSign: a range reported a non-finite latent that ValidateLatents did not find");
  }
}

}  // namespace

void EncodeStoSignFast(std::span<const float> theta, const StreamContext& ctx, std::uint32_t client,
                       std::span<std::uint64_t> bits, int threads, Isa isa) {
  ValidateOutputSize(theta.size(), bits.size());
  detail::CheckIndexRange(ctx, theta.size());
  std::atomic<bool> non_finite{false};
  const RrJob job{&ctx, detail::StoSignAddress(ctx, client), {}, theta.data(), 0, theta.size(), &non_finite};
  RunStoSign<Pass::kStoSign>(job, theta, bits, threads, isa);
}

void ApplyRandomizedResponseFast(std::uint64_t flip_threshold, std::size_t m, const StreamContext& ctx,
                                 std::uint32_t client, std::span<std::uint64_t> bits, int threads, Isa isa) {
  ValidateOutputSize(m, bits.size());
  detail::CheckIndexRange(ctx, m);
  const RrJob job{&ctx, detail::RrAddress(ctx, client), {}, nullptr, flip_threshold, m, nullptr};
  Run<Pass::kRr>(job, bits, threads, isa);
}

void EncodeBnnUploadFast(std::span<const float> theta, std::uint64_t flip_threshold, const StreamContext& ctx,
                         std::uint32_t client, std::span<std::uint64_t> bits, int threads, Isa isa) {
  ValidateOutputSize(theta.size(), bits.size());
  detail::CheckIndexRange(ctx, theta.size());
  std::atomic<bool> non_finite{false};
  const RrJob job{&ctx, detail::StoSignAddress(ctx, client), detail::RrAddress(ctx, client), theta.data(),
                  flip_threshold, theta.size(), &non_finite};
  RunStoSign<Pass::kUpload>(job, theta, bits, threads, isa);
}

}  // namespace dpfl::quant::fast
