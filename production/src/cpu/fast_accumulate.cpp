// Aggregation of bit-packed messages on the CPU: counts[j] += Σ_i bit j of message i, 64
// counters per word in four 16-lane vectors, one version per instruction set chosen at run time
// (dpfl/quant/fast_encoders.hpp). Split from fast_encoders.cpp: it shares only the vector types.
#include <cstring>
#include <span>

#include "dpfl/quant/cpu_encoders.hpp"
#include "dpfl/quant/fast_encoders.hpp"
#include "simd_vectors.hpp"

namespace dpfl::quant::fast {
namespace {

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

}  // namespace dpfl::quant::fast
