// fuzz_bnn_encoders — boundary fuzzer of the DPFL-BNN client encoders and the server's decoding
// (seed 004; STYLE.md "Fuzz targets", kind "boundary"; contract: dpfl/quant/randomized_response.hpp).
//
// FuzzedDataProvider turns the input into raw arguments of the public CPU API: γ as an arbitrary
// double (NaN, ±Inf, ±0, subnormals, raw bit patterns), a latent vector of arbitrary floats, the
// generator, stream addresses, buffer sizes, thread counts, counts and n. The ONLY acceptable
// outcomes are dpfl::InvalidArgument, or success with these invariants:
//   B1  the unused high bits of the last word are 0 and words past ⌈m/64⌉ are untouched (the
//       buffer is pre-filled with ones);
//   B2  determinism: the same call with threads = 1 gives the same words;
//   B3  saturation: StoSign is + for θ ≥ 1 and − for θ ≤ −1; Sign is + iff θ ≥ 0 (E17);
//   B4  RR with γ = 1/2 returns its input unchanged; the flip coins do not depend on the input,
//       so RR(b) and RR(¬b) differ in every message bit;
//   B5  DecodeBnnAverage of counts ≤ n is in [−1, 1]; a count > n, n = 0 or a size mismatch throw.
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
#include "dpfl/quant/randomized_response.hpp"

namespace {

namespace q = dpfl::quant;

[[noreturn]] void Fail(const char* what, double gamma) {
  std::fprintf(stderr, "fuzz_bnn_encoders: invariant broken: %s (gamma=%a)\n", what, gamma);
  std::abort();
}

double PickGamma(FuzzedDataProvider& p) {
  using L = std::numeric_limits<double>;
  switch (p.ConsumeIntegralInRange<int>(0, 9)) {
    case 1: return L::quiet_NaN();
    case 2: return p.ConsumeBool() ? L::infinity() : -L::infinity();
    case 3: return p.ConsumeBool() ? 0.0 : -0.0;
    case 4: return L::denorm_min() * p.ConsumeIntegralInRange<int>(-4, 1 << 20);
    case 5: return std::bit_cast<double>(p.ConsumeIntegral<std::uint64_t>());
    case 6: return 0.5;
    case 7: return std::nextafter(0.5, p.ConsumeBool() ? 1.0 : 0.0);
    case 8: return std::ldexp(1.0, p.ConsumeIntegralInRange<int>(-1080, 2));
    default: return p.ConsumeFloatingPointInRange<double>(-0.25, 0.75);
  }
}

float PickLatent(FuzzedDataProvider& p) {
  using L = std::numeric_limits<float>;
  switch (p.ConsumeIntegralInRange<int>(0, 9)) {
    case 1: return L::quiet_NaN();
    case 2: return p.ConsumeBool() ? L::infinity() : -L::infinity();
    case 3: return (p.ConsumeBool() ? 1 : -1) * L::denorm_min();
    case 4: return (p.ConsumeBool() ? 1.0f : -1.0f) * std::nextafter(1.0f, p.ConsumeBool() ? 2.0f : 0.0f);
    case 5: return std::bit_cast<float>(p.ConsumeIntegral<std::uint32_t>());
    case 6: return static_cast<float>(p.ConsumeIntegralInRange<int>(-32768, 32768)) / 32768.0f;
    case 7: return p.ConsumeBool() ? 0.0f : -0.0f;
    default: return p.ConsumeFloatingPointInRange<float>(-1.5f, 1.5f);
  }
}

q::StreamContext PickContext(FuzzedDataProvider& p) {
  q::StreamContext ctx;
  ctx.generator = p.ConsumeBool() ? dpfl::rng::Generator::kPhilox4x32 : dpfl::rng::Generator::kChaCha20;
  for (std::uint32_t& word : ctx.key.words) word = p.ConsumeIntegral<std::uint32_t>();
  ctx.round = p.ConsumeIntegral<std::uint32_t>();
  return ctx;
}

bool Bit(const std::vector<std::uint64_t>& b, std::size_t j) { return ((b[j / 64] >> (j % 64)) & 1u) != 0; }

void CheckLayout(const std::vector<std::uint64_t>& bits, std::size_t m, double gamma) {
  const std::size_t words = q::PackedWords(m);
  if (m % 64 != 0 && words > 0 && (bits[words - 1] >> (m % 64)) != 0) Fail("B1 padding bits not 0", gamma);
  for (std::size_t w = words; w < bits.size(); ++w)
    if (bits[w] != ~std::uint64_t{0}) Fail("B1 a word past the message was written", gamma);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider p(data, size);
  const double gamma = PickGamma(p);
  const std::size_t m = p.ConsumeIntegralInRange<std::size_t>(0, 3000);
  const std::size_t extra = p.ConsumeIntegralInRange<std::size_t>(0, 2);
  const bool short_buffer = p.ConsumeIntegralInRange<int>(0, 15) == 0;
  const int threads = p.ConsumeIntegralInRange<int>(-1, 5);
  const q::StreamContext ctx = PickContext(p);
  const std::uint32_t client = p.ConsumeIntegral<std::uint32_t>();
  std::vector<float> theta(m);
  for (float& t : theta) t = PickLatent(p);
  std::size_t words = q::PackedWords(m) + extra;
  if (short_buffer && words > 0) words = q::PackedWords(m) - (q::PackedWords(m) > 0 ? 1 : 0);
  try {
    // StoSign and Sign.
    std::vector<std::uint64_t> sto(words, ~std::uint64_t{0}), one(words, ~std::uint64_t{0}), sgn(words, ~std::uint64_t{0});
    q::EncodeStoSign(theta, ctx, client, sto, threads);
    q::EncodeStoSign(theta, ctx, client, one, 1);
    if (sto != one) Fail("B2 StoSign depends on the thread count", gamma);
    CheckLayout(sto, m, gamma);
    q::EncodeSign(theta, sgn, threads);
    CheckLayout(sgn, m, gamma);
    for (std::size_t j = 0; j < m; ++j) {
      if (theta[j] >= 1.0f && !Bit(sto, j)) Fail("B3 StoSign(theta >= 1) is -", gamma);
      if (theta[j] <= -1.0f && Bit(sto, j)) Fail("B3 StoSign(theta <= -1) is +", gamma);
      if (Bit(sgn, j) != (theta[j] >= 0.0f)) Fail("B3 Sign", gamma);
    }
    // Randomized response on the StoSign bits and on their complement.
    const q::RandomizedResponse rr = q::MakeRandomizedResponse(gamma);
    if (!(gamma >= 0.0 && gamma <= 0.5)) Fail("MakeRandomizedResponse accepted gamma outside [0, 1/2]", gamma);
    std::vector<std::uint64_t> a = sto, b = sto, c = sto;
    for (std::size_t w = 0; w < q::PackedWords(m); ++w) c[w] = ~c[w];
    if (m % 64 != 0) c[q::PackedWords(m) - 1] &= (std::uint64_t{1} << (m % 64)) - 1;
    q::ApplyRandomizedResponse(rr, m, ctx, client, a, threads);
    q::ApplyRandomizedResponse(rr, m, ctx, client, b, 1);
    q::ApplyRandomizedResponse(rr, m, ctx, client, c, threads);
    if (a != b) Fail("B2 RR depends on the thread count", gamma);
    CheckLayout(a, m, gamma);
    for (std::size_t j = 0; j < m; ++j) {
      if (Bit(a, j) == Bit(c, j)) Fail("B4 RR of a bit and of its complement agree (coins not shared per index)", gamma);
      if (gamma == 0.5 && Bit(a, j) != Bit(sto, j)) Fail("B4 RR with gamma = 1/2 flipped a bit", gamma);
    }
    // Server decoding.
    const std::uint32_t n = p.ConsumeIntegralInRange<std::uint32_t>(0, 200);
    std::vector<std::uint32_t> counts(p.ConsumeIntegralInRange<std::size_t>(0, 64));
    for (std::uint32_t& k : counts) k = p.ConsumeIntegralInRange<std::uint32_t>(0, 210);
    std::vector<float> mean(counts.size() + (p.ConsumeIntegralInRange<int>(0, 15) == 0 ? 1 : 0));
    q::DecodeBnnAverage(counts, n, mean);
    for (float v : mean)
      if (!(v >= -1.0f && v <= 1.0f)) Fail("B5 broadcast average outside [-1, 1]", gamma);
  } catch (const dpfl::InvalidArgument&) {
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_bnn_encoders: unexpected exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
