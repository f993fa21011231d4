// fuzz_table_noise — the table sampler of the discrete Gaussian and Laplace laws
// (dpfl/fl/table_discrete_noise.hpp) on arbitrary parameters and words.
//
// FuzzedDataProvider turns the input into the law (Gaussian or Laplace), its rational parameter
// num/den as any 64-bit values (0, 1, 2^64 − 1 and everything between), a stream key and 64 first
// words, some forced into the tail region [A, A + R) and above it. The ONLY acceptable outcomes are
// dpfl::InvalidArgument from the construction, or success with these invariants:
//   T1  the table: A + R ≤ 2^64 (no wrapped area), A ≥ 2^63 (at most half the words are wasted),
//       a positive number of cells;
//   T2  every Sample returns: std::overflow_error, documented for a tail proposal with j ≥ 4096
//       (probability ≤ 2^−4096), is a failure here too (a review found an earlier bound that threw
//       with probability 2^−(61 − log2 c_t) per tail proposal);
//   T3  determinism: the same first word and the same stream give the same output and leave the
//       stream at the same index.
// Anything else — another exception type, a sanitizer report, a broken invariant — aborts.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "dpfl/error.hpp"
#include "dpfl/fl/table_discrete_noise.hpp"

namespace {

namespace fl = dpfl::fl;

[[noreturn]] void Fail(const char* what, bool gaussian, std::uint64_t num, std::uint64_t den) {
  std::fprintf(stderr, "fuzz_table_noise: invariant broken: %s (%s %llu/%llu)\n", what, gaussian ? "gaussian" : "laplace",
               static_cast<unsigned long long>(num), static_cast<unsigned long long>(den));
  std::abort();
}

std::uint64_t PickParameterPart(FuzzedDataProvider& p) {
  switch (p.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return p.ConsumeIntegralInRange<std::uint64_t>(0, 64);
    case 1: return p.ConsumeIntegralInRange<std::uint64_t>(0, std::uint64_t{1} << 40);
    case 2: return ~std::uint64_t{0} - p.ConsumeIntegralInRange<std::uint64_t>(0, 64);
    default: return p.ConsumeIntegral<std::uint64_t>();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider p(data, size);
  const bool gaussian = p.ConsumeBool();
  const std::uint64_t num = PickParameterPart(p), den = PickParameterPart(p);
  dpfl::quant::StreamContext ctx;
  ctx.generator = p.ConsumeBool() ? dpfl::rng::Generator::kChaCha20 : dpfl::rng::Generator::kPhilox4x32;
  for (auto& w : ctx.key.words) w = p.ConsumeIntegral<std::uint32_t>();
  const fl::Ratio128 param{num, den};
  try {
    const fl::TableDiscreteNoise t = gaussian ? fl::TableDiscreteNoise::Gaussian(param) : fl::TableDiscreteNoise::Laplace(param);
    const std::uint64_t a = t.staircase_area(), r = t.tail_area();
    if (r > ~std::uint64_t{0} - a) Fail("T1: staircase + tail area beyond 2^64", gaussian, num, den);
    if (a < (std::uint64_t{1} << 63)) Fail("T1: staircase below half of the words", gaussian, num, den);
    if (t.cells() <= 0) Fail("T1: no cells", gaussian, num, den);
    for (int i = 0; i < 64 && p.remaining_bytes() > 0; ++i) {
      std::uint64_t u = p.ConsumeIntegral<std::uint64_t>();
      switch (p.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: u = a + u % r; break;                 // the tail
        case 1:  // above the tail: a replaced word (none when the tail ends at 2^64, a + r wrapping to 0)
          if (a + r != 0) u = a + r + u % (std::uint64_t{0} - (a + r));
          break;
        default: break;
      }
      fl::NoiseStream s1(ctx, {1, 2, dpfl::rng::Purpose::kTableNoiseSlow}), s2 = s1;
      try {
        const std::int64_t z1 = t.Sample(u, s1), z2 = t.Sample(u, s2);
        if (z1 != z2 || s1.index() != s2.index()) Fail("T3: not deterministic", gaussian, num, den);
      } catch (const std::overflow_error&) {
        Fail("T2: a draw threw overflow_error", gaussian, num, den);
      }
    }
  } catch (const dpfl::InvalidArgument&) {
    return 0;
  }
  return 0;
}
