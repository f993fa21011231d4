// 128 consecutive words of one counter-based stream from the 16-lane generators of the fast path
// (simd_generators.hpp), for sequential readers such as fl::NoiseStream (the exact discrete
// Laplace/Gaussian samplers), which otherwise compute one ChaCha20 block (8 words) or one Philox
// block (2 words) at a time. The words are rng::Uniform64(ctx.generator, ctx.key, addr, 128·group
// + w), w = 0…127, bit for bit: the generators are the same pure functions of the counter
// (tests/unit/discrete_noise_test.cpp reads the stream against rng::Uniform64 across buffers).
#include <cstring>

#include "dpfl/quant/fast_encoders.hpp"
#include "simd_generators.hpp"
#include "simd_vectors.hpp"

namespace dpfl::quant::fast {
namespace {

template <int kLanes>
DPFL_ALWAYS_INLINE void Words(const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t group,
                              std::uint64_t out[128]) {
  const StreamLanes lanes = MakeStreamLanes(ctx, addr);
  U64x8 raw[16];
  RawUniforms128<kLanes>(lanes, static_cast<std::size_t>(group), raw);
  std::memcpy(out, raw, sizeof(raw));
}

__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"), flatten)) void WordsAvx512(
    const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t group, std::uint64_t out[128]) {
  Words<16>(ctx, addr, group, out);
}
__attribute__((target("avx2,bmi2"))) void WordsAvx2(const StreamContext& ctx, const rng::StreamAddress& addr,
                                                   std::uint64_t group, std::uint64_t out[128]) {
  Words<8>(ctx, addr, group, out);
}
void WordsBaseline(const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t group,
                   std::uint64_t out[128]) {
  Words<4>(ctx, addr, group, out);
}

}  // namespace

void StreamWords128(const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t group,
                    std::uint64_t out[128], Isa isa) {
  switch (isa) {
    case Isa::kAvx512: WordsAvx512(ctx, addr, group, out); return;
    case Isa::kAvx2: WordsAvx2(ctx, addr, group, out); return;
    case Isa::kBaseline: WordsBaseline(ctx, addr, group, out); return;
  }
}

}  // namespace dpfl::quant::fast
