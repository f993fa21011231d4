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
// the scalar loop. Three instruction-set versions (AVX-512 with intrinsics and 16 ChaCha20 lanes;
// AVX2 and baseline x86-64 with GCC vector extensions on one native register at a time, 8 and 4
// ChaCha20 lanes) share one loop and are chosen at run time (dpfl/quant/isa.hpp: ActiveIsa).
//
// Files: simd_vectors.hpp (vector types), simd_generators.hpp (16-lane ChaCha20 / Philox),
// simd_decisions.hpp (rules, head layouts, per-ISA comparison policies, the float screen), this
// file (the encode loop, the exact tie path, dispatch and the public encoders), and
// fast_accumulate.cpp (aggregation of bit-packed messages).
#include "dpfl/quant/fast_encoders.hpp"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include "dpfl/quant/cpu_encoders.hpp"
#include "simd_decisions.hpp"
#include "simd_generators.hpp"
#include "simd_vectors.hpp"

namespace dpfl::quant::fast {
namespace {

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
  FloatScreen screen;  // single-precision screen (unusable → exact double comparison)
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
template <bool kBytes, int kLanes>
struct GroupHeads {
  U64x8 raw[16] = {};
  std::size_t held = ~std::size_t{0};  // RawUniforms128 index in raw
  std::size_t base = 0;                // byte offset of the group's first head in raw
  DPFL_ALWAYS_INLINE void Load(const StreamLanes& lanes, std::size_t group) {
    const std::size_t block = kBytes ? group / 2 : group;
    if (block != held) {
      RawUniforms128<kLanes>(lanes, block, raw);
      held = block;
    }
    base = kBytes ? 512 * (group % 2) : 0;
  }
  DPFL_ALWAYS_INLINE const void* At(std::size_t o) const {
    return reinterpret_cast<const char*>(raw) + base + (kBytes ? 1 : 2) * o;
  }
};

// Encodes packed words [word_lo, word_hi), both multiples of 8 (whole groups of 512 parameters);
// kLanes: the generator's ChaCha20 lanes per pass (RawUniforms128).
template <class Ops, int kLanes, Rule kRule, HeadLayout kHeads>
DPFL_ALWAYS_INLINE void EncodeBody(const EncodeJob& job, std::uint64_t* bits, std::size_t word_lo,
                                   std::size_t word_hi) {
  const bool need_shared = kRule != Rule::kLdpq && job.d > 0, need_priv = kRule == Rule::kLdpq || job.d < 16;
  const int shift = job.d < 16 ? job.d : 16;
  const std::uint32_t high = (0xffffu << (16 - shift)) & 0xffffu;
  const StreamLanes priv_lanes = MakeStreamLanes(*job.priv_ctx, job.priv_addr),
                    shared_lanes = MakeStreamLanes(*job.shared_ctx, job.shared_addr);
  GroupHeads<kHeads.private_bytes, kLanes> priv;
  GroupHeads<kHeads.shared_bytes, kLanes> shared;
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
  EncodeBody<Avx512Ops, 16, kRule, kHeads>(job, bits, lo, hi);
}
template <Rule kRule, HeadLayout kHeads>
__attribute__((target("avx2,bmi2"))) void EncodeAvx2(const EncodeJob& job, std::uint64_t* bits, std::size_t lo,
                                                     std::size_t hi) {
  EncodeBody<GenericOps<8>, 8, kRule, kHeads>(job, bits, lo, hi);
}
template <Rule kRule, HeadLayout kHeads>
void EncodeBaseline(const EncodeJob& job, std::uint64_t* bits, std::size_t lo, std::size_t hi) {
  EncodeBody<GenericOps<4>, 4, kRule, kHeads>(job, bits, lo, hi);
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
  detail::SplitWordRange(lo, hi, m / 64, scalar, [&](std::size_t a, std::size_t b) { simd(job, bits.data(), a, b); });
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

}  // namespace

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
