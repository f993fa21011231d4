// fuzz_quantizer_inputs — boundary fuzzer of the production binary quantizers
// (STYLE.md "Fuzz targets", kind "boundary"; contract: dpfl/quant/binary_quantizer.hpp).
//
// FuzzedDataProvider turns the input into raw arguments of the public CPU API: ε, c, r as
// arbitrary doubles (NaN, ±Inf, ±0, subnormals, ±DBL_MAX, raw bit patterns), d as any int, a
// weight vector of arbitrary floats, the generator, the role, stream addresses, buffer sizes and
// thread counts. The ONLY acceptable outcomes are
//   * dpfl::InvalidArgument, or
//   * success, after which these invariants must hold:
//       I1  levels: α finite and > 1; 1/(2rα) finite and > 0; lo = c − r ≤ hi = c + r, both
//           finite; c − rα and c + rα finite (the two output levels exist as doubles).
//       I2  the unused high bits of the last word are 0 (the output buffer is pre-filled with
//           ones, so "not written" is caught too); words past ⌈m/64⌉ are not touched.
//       I3  determinism: the same call with threads = 1 gives the same words.
//       I4  the documented identities: EncodeCorBinQPair = two EncodeCorBinQ calls (Q1, Q2);
//           EncodeCoq at p_x = 1/2 = EncodeCorBinQ.
//       I5  DecodeMean of the accumulated counts of the n encoded messages is finite and lies in
//           [float(c − rα), float(c + rα)] (DecodeMean rounds c + rα(2k/n − 1) to float; double
//           and float rounding are monotone, so this is the exact image of [−1, 1]); n = 0 and a
//           size mismatch throw InvalidArgument.
// Anything else — another exception type, a sanitizer report, a broken invariant — aborts.
#include <fuzzer/FuzzedDataProvider.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <span>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_quantizer.hpp"

namespace {

using dpfl::quant::BinaryLevels;
using dpfl::quant::PairRole;
using dpfl::quant::StreamContext;

[[noreturn]] void Fail(const char* what, double eps, double c, double r) {
  std::fprintf(stderr, "fuzz_quantizer_inputs: invariant broken: %s (eps=%a c=%a r=%a)\n", what, eps, c, r);
  std::abort();
}

// Raw doubles, biased towards the values that break naive validation.
double PickDouble(FuzzedDataProvider& p) {
  using L = std::numeric_limits<double>;
  switch (p.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return L::quiet_NaN();
    case 1: return L::infinity();
    case 2: return -L::infinity();
    case 3: return 0.0;
    case 4: return -0.0;
    case 5: return (p.ConsumeBool() ? 1 : -1) * L::denorm_min() * p.ConsumeIntegralInRange<int>(1, 1 << 20);
    case 6: return (p.ConsumeBool() ? 1 : -1) * L::min();  // smallest normal
    case 7: return (p.ConsumeBool() ? 1 : -1) * L::max();
    case 8: return std::bit_cast<double>(p.ConsumeIntegral<std::uint64_t>());  // any bit pattern
    case 9: return p.ConsumeFloatingPoint<double>();                            // the whole range
    case 10: return std::ldexp(p.ConsumeBool() ? 1.0 : -1.0, p.ConsumeIntegralInRange<int>(-1080, 1030));
    case 11: return p.ConsumeIntegralInRange<int>(-64, 64) / 8.0;
    default: return p.ConsumeFloatingPointInRange<double>(-4.0, 4.0);
  }
}

// Raw floats; also values at and next to the clipping bounds c ± r. Case 0 (what an exhausted
// provider yields) is an ordinary value, so long vectors are not all NaN.
float PickFloat(FuzzedDataProvider& p, double c, double r) {
  using L = std::numeric_limits<float>;
  switch (p.ConsumeIntegralInRange<int>(0, 11)) {
    case 1: return L::quiet_NaN();
    case 2: return p.ConsumeBool() ? L::infinity() : -L::infinity();
    case 3: return (p.ConsumeBool() ? 1 : -1) * L::denorm_min();
    case 4: return (p.ConsumeBool() ? 1 : -1) * L::max();
    case 5: return std::bit_cast<float>(p.ConsumeIntegral<std::uint32_t>());
    case 6: return static_cast<float>(PickDouble(p));  // may overflow to ±Inf: also a valid test
    case 7: {
      const float edge = static_cast<float>(p.ConsumeBool() ? c + r : c - r);
      const int steps = p.ConsumeIntegralInRange<int>(-2, 2);
      float w = edge;
      for (int k = 0; k < (steps < 0 ? -steps : steps); ++k) w = std::nextafter(w, steps < 0 ? -L::infinity() : L::infinity());
      return w;
    }
    case 8: return static_cast<float>(c + r * p.ConsumeFloatingPointInRange<double>(-1.5, 1.5));
    default: return p.ConsumeFloatingPointInRange<float>(-4.0f, 4.0f);
  }
}

int PickInt(FuzzedDataProvider& p) {
  return p.ConsumeBool() ? p.ConsumeIntegral<int>() : p.ConsumeIntegralInRange<int>(-3, 66);
}

StreamContext PickContext(FuzzedDataProvider& p) {
  StreamContext ctx;
  ctx.generator = p.ConsumeBool() ? dpfl::rng::Generator::kPhilox4x32 : dpfl::rng::Generator::kChaCha20;
  for (std::uint32_t& word : ctx.key.words) word = p.ConsumeIntegral<std::uint32_t>();
  ctx.round = p.ConsumeIntegral<std::uint32_t>();
  return ctx;
}

void CheckLevels(const BinaryLevels& k, double eps, double c, double r) {
  if (!(std::isfinite(k.alpha) && k.alpha > 1.0)) Fail("I1: alpha not finite and > 1", eps, c, r);
  if (!(std::isfinite(k.inv_two_r_alpha) && k.inv_two_r_alpha > 0.0))
    Fail("I1: 1/(2 r alpha) not finite and > 0 (q(w) = 1/2 + (w - c)/(2 r alpha) is then NaN or constant)", eps, c, r);
  if (!(std::isfinite(k.lo) && std::isfinite(k.hi) && k.lo <= k.hi)) Fail("I1: clipping range", eps, c, r);
  const double ra = k.r * k.alpha;
  if (!(std::isfinite(k.c - ra) && std::isfinite(k.c + ra))) Fail("I1: output level c -+ r alpha not finite", eps, c, r);
}

// I2: bits of parameters ≥ m in word ⌈m/64⌉ − 1 are zero; words from ⌈m/64⌉ on keep `fill`.
void CheckPadding(std::span<const std::uint64_t> bits, std::size_t m, std::uint64_t fill, double eps, double c,
                  double r) {
  const std::size_t used = dpfl::quant::PackedWords(m);
  if (m % 64 != 0 && (bits[used - 1] >> (m % 64)) != 0) Fail("I2: padding bits of the last word are not 0", eps, c, r);
  for (std::size_t i = used; i < bits.size(); ++i)
    if (bits[i] != fill) Fail("I2: a word past ceil(m/64) was written", eps, c, r);
}

void CheckMean(const BinaryLevels& k, std::span<const std::uint32_t> counts, std::uint32_t n, double eps, double c,
               double r) {
  std::vector<float> mean(counts.size());
  dpfl::quant::DecodeMean(k, counts, n, mean);
  const double ra = k.r * k.alpha;
  const float lo = static_cast<float>(k.c - ra), hi = static_cast<float>(k.c + ra);
  for (float v : mean) {
    if (!std::isfinite(v)) Fail("I5: DecodeMean output not finite", eps, c, r);
    if (v < lo || v > hi) Fail("I5: DecodeMean output outside [c - r alpha, c + r alpha]", eps, c, r);
  }
  bool threw = false;
  try {
    dpfl::quant::DecodeMean(k, counts, 0, mean);
  } catch (const dpfl::InvalidArgument&) {
    threw = true;
  }
  if (!threw) Fail("I5: DecodeMean accepted n = 0", eps, c, r);
}

void RunOne(FuzzedDataProvider& p) {
  const double eps = PickDouble(p), c = PickDouble(p), r = PickDouble(p);
  const int mechanism = p.ConsumeIntegralInRange<int>(0, 3);  // LDPQ, CorBinQ, CorBinQ pair, CoQ
  const int d = PickInt(p);
  const PairRole role = p.ConsumeBool() ? PairRole::kQ2 : PairRole::kQ1;
  const StreamContext ctx = PickContext(p);
  const std::uint32_t pair = p.ConsumeIntegral<std::uint32_t>();
  const std::uint32_t client1 = p.ConsumeIntegral<std::uint32_t>(), client2 = p.ConsumeIntegral<std::uint32_t>();
  const double p_x = p.ConsumeIntegralInRange<int>(0, 3) == 0 ? PickDouble(p) : 0.5;
  const int threads = p.ConsumeIntegralInRange<int>(-2, 6);
  // Mostly short vectors; sometimes long enough (≥ 64 words) for the multi-threaded path.
  const std::size_t m = p.ConsumeIntegralInRange<int>(0, 15) == 0 ? p.ConsumeIntegralInRange<std::size_t>(0, 64 * 66)
                                                                    : p.ConsumeIntegralInRange<std::size_t>(0, 200);
  const int extra_words = p.ConsumeIntegralInRange<int>(-1, 1);  // short, exact or long output buffer
  const std::size_t m2 = p.ConsumeIntegralInRange<int>(0, 7) == 0 ? p.ConsumeIntegralInRange<std::size_t>(0, 200) : m;
  std::vector<float> w1(m), w2(m2);
  const bool constant = p.ConsumeBool();  // one value repeated (cheap long vectors)
  for (std::vector<float>* w : {&w1, &w2})
    for (std::size_t j = 0; j < w->size(); ++j) (*w)[j] = (constant && j > 0) ? (*w)[0] : PickFloat(p, c, r);

  const BinaryLevels k = dpfl::quant::MakeBinaryLevels(eps, c, r);
  CheckLevels(k, eps, c, r);

  const std::size_t words = dpfl::quant::PackedWords(m);
  const std::size_t buffer_words =
      extra_words < 0 ? (words == 0 ? 0 : words - 1) : words + static_cast<std::size_t>(extra_words);
  constexpr std::uint64_t kFill = ~std::uint64_t{0};
  std::vector<std::uint64_t> bits1(buffer_words, kFill), bits2(buffer_words, kFill);
  std::vector<std::uint64_t> again1(buffer_words, kFill), again2(buffer_words, kFill);
  std::uint32_t messages = 1;
  switch (mechanism) {
    case 0:
      dpfl::quant::EncodeLdpq(k, w1, ctx, client1, bits1, threads);
      dpfl::quant::EncodeLdpq(k, w1, ctx, client1, again1, 1);
      break;
    case 1:
      dpfl::quant::EncodeCorBinQ(k, w1, d, role, ctx, pair, client1, bits1, threads);
      dpfl::quant::EncodeCorBinQ(k, w1, d, role, ctx, pair, client1, again1, 1);
      break;
    case 2:
      dpfl::quant::EncodeCorBinQPair(k, w1, w2, d, ctx, pair, client1, client2, bits1, bits2, threads);
      // I4: identical to the two single-client calls.
      dpfl::quant::EncodeCorBinQ(k, w1, d, PairRole::kQ1, ctx, pair, client1, again1, 1);
      dpfl::quant::EncodeCorBinQ(k, w2, d, PairRole::kQ2, ctx, pair, client2, again2, 1);
      if (bits2 != again2) Fail("I4: EncodeCorBinQPair (Q2) differs from EncodeCorBinQ", eps, c, r);
      CheckPadding(bits2, m, kFill, eps, c, r);
      messages = 2;
      break;
    default:
      dpfl::quant::EncodeCoq(k, w1, d, role, p_x, ctx, pair, client1, bits1, threads);
      // I4: CoQ-FL at p_x = 1/2 is CorBinQ (it can only get here with p_x = 1/2).
      dpfl::quant::EncodeCorBinQ(k, w1, d, role, ctx, pair, client1, again1, 1);
      break;
  }
  if (bits1 != again1) Fail("I3/I4: output differs from the threads = 1 / single-client call", eps, c, r);
  CheckPadding(bits1, m, kFill, eps, c, r);

  std::vector<std::uint32_t> counts(m, 0);
  dpfl::quant::AccumulateBits(bits1, counts);
  if (messages == 2) dpfl::quant::AccumulateBits(bits2, counts);
  for (std::uint32_t count : counts)
    if (count > messages) Fail("AccumulateBits counted more bits than messages", eps, c, r);
  CheckMean(k, counts, messages, eps, c, r);
  if (m > 0) {
    std::vector<float> wrong_size(m - 1);
    bool threw = false;
    try {
      dpfl::quant::DecodeMean(k, counts, messages, wrong_size);
    } catch (const dpfl::InvalidArgument&) {
      threw = true;
    }
    if (!threw) Fail("DecodeMean accepted an output of the wrong size", eps, c, r);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider provider(data, size);
  try {
    RunOne(provider);
  } catch (const dpfl::InvalidArgument&) {
    // The documented rejection: fine.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_quantizer_inputs: unexpected exception (not dpfl::InvalidArgument): %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz_quantizer_inputs: unexpected non-std exception\n");
    std::abort();
  }
  return 0;
}
