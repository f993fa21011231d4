// fuzz_quantizer_bias — differential fuzzer: production samples vs the reference's exact law
// (STYLE.md "Fuzz targets", kind "differential", d ≤ 12).
//
// The fuzzer picks a point of a bounded rational grid and a stream address:
//   E = 1 + a/b (a, b ∈ 1..16), c = k/4 (k ∈ −8..8), r = j/4 (j ∈ 1..8),
//   w = c + r·i/8 (i ∈ −10..10: |i| > 8 lies outside [c − r, c + r] and exercises clipping),
//   d ∈ 0..12, generator, 256-bit key, round, pair and client ids (the two clients of a pair differ).
// Every grid weight is a multiple of 1/32 with |w| ≤ 4.5, hence exactly a float, and c, r are
// exact doubles; production gets ε = log(E) in double (the only inexact input).
//
// The production quantizer is sampled kSamples times at once: a weight vector of kSamples equal
// entries gives kSamples independent draws (one uniform per parameter index). Mechanisms:
//   0  LDPQ (EncodeLdpq)                       statistic: #"+"          vs ref::Ldpq q_plus
//   1  CorBinQ pair (EncodeCorBinQPair)        statistics: the 4 joint cells and both marginals
//   2  CoQ-FL at p_x = 1/2 (EncodeCoq, Alice = Q1 role, Bob = Q2 role) — same statistics; its
//      exact law is CorBinQ's (seed-001 §3.7 [DERIVED]: F(i) = i/2^d), taken from the reference.
// The oracle is ref::EvaluateCorBinQ / ref::Ldpq with the exact rational E and the clipped
// rational weights (Line14::kCorrected).
//
// Test (fixed sample size, two-sided Chernoff–Hoeffding): for a count K ~ Binomial(N, p),
// P(K ≥ N·x) ≤ exp(−N·D(x‖p)) for x ≥ p and P(K ≤ N·x) ≤ exp(−N·D(x‖p)) for x ≤ p, D the
// Bernoulli KL divergence. Each statistic is tested in both tails at level a = kFalseAlarm/12
// (Bonferroni over ≤ 6 statistics × 2 tails), so a correct quantizer aborts on a given input
// with probability ≤ kFalseAlarm = 1e-9 (≈ 0.04 expected false alarms in 10 h at 1000 execs/s).
// The bound holds for p = 0 or 1, where a single impossible outcome is significant.
// Production implements T/2^64 with T = ⌊q̃·2^64⌋, q̃ computed in double from ε = log(E) (relative
// error of α ≲ 17·4 ulp here), and a tie coin of resolution 2^−(64−d); every exact probability
// is therefore widened by kSlack = 1e-12 ≥ that error before testing.
// Power (N = kSamples = 16384, −ln a ≈ 23.2): a deviation |p̂ − p| ≳ sqrt(2·23.2·p(1−p)/N) ≈ 0.027
// at p = 1/2 is flagged on a single input — e.g. a threshold off by one whole cell at d ≤ 4, the
// seed-000 E3 line-14 erratum, swapped roles, reused shared bits or a dropped tie coin on most
// inputs where they matter; smaller biases need many inputs (the fuzzer supplies them).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
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
#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/ldpq.hpp"

namespace {

using dpfl::ref::Rational;

constexpr std::size_t kSamples = 16384;
constexpr double kFalseAlarm = 1e-9;
constexpr int kTailTests = 12;  // 6 statistics × 2 tails (LDPQ uses 1 × 2: still within budget)
constexpr double kSlack = 1e-12;

struct Input {
  int mechanism;
  int a, b, ck, rj, i1, i2, d;
  dpfl::quant::StreamContext ctx;
  std::uint32_t pair, client1, client2;
};

Input Decode(FuzzedDataProvider& p) {
  Input in{};
  in.mechanism = p.ConsumeIntegralInRange<int>(0, 2);
  in.a = p.ConsumeIntegralInRange<int>(1, 16);
  in.b = p.ConsumeIntegralInRange<int>(1, 16);
  in.ck = p.ConsumeIntegralInRange<int>(-8, 8);
  in.rj = p.ConsumeIntegralInRange<int>(1, 8);
  in.i1 = p.ConsumeIntegralInRange<int>(-10, 10);
  in.i2 = p.ConsumeIntegralInRange<int>(-10, 10);
  in.d = p.ConsumeIntegralInRange<int>(0, 12);
  in.ctx.generator = p.ConsumeBool() ? dpfl::rng::Generator::kPhilox4x32 : dpfl::rng::Generator::kChaCha20;
  for (std::uint32_t& word : in.ctx.key.words) word = p.ConsumeIntegral<std::uint32_t>();
  in.ctx.round = p.ConsumeIntegral<std::uint32_t>();
  in.pair = p.ConsumeIntegral<std::uint32_t>();
  in.client1 = p.ConsumeIntegral<std::uint32_t>();
  in.client2 = in.client1 + 1 + p.ConsumeIntegralInRange<std::uint32_t>(0, 1000);  // ≠ client1 (mod 2^32)
  return in;
}

// Bernoulli KL divergence D(x‖p) in nats; +∞ where x > 0 = p or x < 1 = p.
double Kl(double x, double p) {
  const double inf = std::numeric_limits<double>::infinity();
  double d = 0;
  if (x > 0) d += p > 0 ? x * std::log(x / p) : inf;
  if (x < 1) d += p < 1 ? (1 - x) * std::log((1 - x) / (1 - p)) : inf;
  return d;
}

// True iff k successes in n trials reject "success probability within kSlack of p" in either
// tail at level exp(−log_inv_level) (Chernoff–Hoeffding bound; see the file comment).
bool Significant(std::uint64_t k, std::uint64_t n, double p, double log_inv_level) {
  const double x = static_cast<double>(k) / static_cast<double>(n);
  const double hi = std::min(1.0, p + kSlack), lo = std::max(0.0, p - kSlack);
  if (x > hi) return static_cast<double>(n) * Kl(x, hi) > log_inv_level;
  if (x < lo) return static_cast<double>(n) * Kl(x, lo) > log_inv_level;
  return false;
}

[[noreturn]] void ReportBias(const Input& in, const char* statistic, std::uint64_t k, double p) {
  std::fprintf(stderr,
               "fuzz_quantizer_bias: significant bias in %s (mechanism %d): observed %llu of %zu, exact p = %.17g "
               "(expected %.1f)\n  E = 1 + %d/%d, c = %d/4, r = %d/4, w1 = c + r*%d/8, w2 = c + r*%d/8, d = %d, "
               "generator %u, round %u, pair %u, clients %u %u, key %08x %08x %08x %08x %08x %08x %08x %08x\n",
               statistic, in.mechanism, static_cast<unsigned long long>(k), kSamples, p, p * kSamples, in.a, in.b,
               in.ck, in.rj, in.i1, in.i2, in.d, static_cast<unsigned>(in.ctx.generator), in.ctx.round, in.pair,
               in.client1, in.client2, in.ctx.key.words[0], in.ctx.key.words[1], in.ctx.key.words[2],
               in.ctx.key.words[3], in.ctx.key.words[4], in.ctx.key.words[5], in.ctx.key.words[6],
               in.ctx.key.words[7]);
  std::abort();
}

void Check(const Input& in, const char* statistic, std::uint64_t k, const Rational& exact) {
  static const double log_inv_level = std::log(kTailTests / kFalseAlarm);
  const double p = exact.convert_to<double>();
  if (Significant(k, kSamples, p, log_inv_level)) ReportBias(in, statistic, k, p);
}

Rational Clip(const Rational& w, const Rational& c, const Rational& r) {
  const Rational lo = c - r, hi = c + r;
  return w < lo ? lo : (w > hi ? hi : w);
}

void RunOne(const Input& in) {
  const Rational E = Rational(1) + Rational(in.a, in.b);
  const Rational c(in.ck, 4), r(in.rj, 4);
  const Rational w1 = c + r * Rational(in.i1, 8), w2 = c + r * Rational(in.i2, 8);
  const float w1f = static_cast<float>(w1.convert_to<double>()), w2f = static_cast<float>(w2.convert_to<double>());
  if (Rational(w1f) != w1 || Rational(w2f) != w2) {
    std::fprintf(stderr, "fuzz_quantizer_bias: grid weight not exact in float (harness bug)\n");
    std::abort();
  }
  const double eps = std::log1p(static_cast<double>(in.a) / static_cast<double>(in.b));
  const dpfl::quant::BinaryLevels levels =
      dpfl::quant::MakeBinaryLevels(eps, c.convert_to<double>(), r.convert_to<double>());

  const std::vector<float> x1(kSamples, w1f), x2(kSamples, w2f);
  std::vector<std::uint64_t> bits1(dpfl::quant::PackedWords(kSamples)), bits2(bits1.size());

  if (in.mechanism == 0) {
    dpfl::quant::EncodeLdpq(levels, x1, in.ctx, in.client1, bits1);
    std::uint64_t plus = 0;
    for (std::uint64_t word : bits1) plus += static_cast<std::uint64_t>(std::popcount(word));
    const dpfl::ref::LdpqLaw<Rational> law = dpfl::ref::Ldpq(E, c, r, Clip(w1, c, r));
    Check(in, "LDPQ P(+)", plus, law.q_plus);
    return;
  }
  if (in.mechanism == 1) {
    dpfl::quant::EncodeCorBinQPair(levels, x1, x2, in.d, in.ctx, in.pair, in.client1, in.client2, bits1, bits2);
  } else {
    dpfl::quant::EncodeCoq(levels, x1, in.d, dpfl::quant::PairRole::kQ1, 0.5, in.ctx, in.pair, in.client1, bits1);
    dpfl::quant::EncodeCoq(levels, x2, in.d, dpfl::quant::PairRole::kQ2, 0.5, in.ctx, in.pair, in.client2, bits2);
  }
  std::uint64_t pp = 0, pm = 0, mp = 0, mm = 0;
  for (std::size_t i = 0; i < bits1.size(); ++i) {  // kSamples is a multiple of 64: no padding
    pp += static_cast<std::uint64_t>(std::popcount(bits1[i] & bits2[i]));
    pm += static_cast<std::uint64_t>(std::popcount(bits1[i] & ~bits2[i]));
    mp += static_cast<std::uint64_t>(std::popcount(~bits1[i] & bits2[i]));
    mm += static_cast<std::uint64_t>(std::popcount(~bits1[i] & ~bits2[i]));
  }
  const dpfl::ref::CorBinQResult<Rational> law = dpfl::ref::EvaluateCorBinQ(
      E, c, r, Clip(w1, c, r), Clip(w2, c, r), in.d, dpfl::ref::Line14::kCorrected);
  Check(in, "P(Q1=+)", pp + pm, law.joint.Q1Plus());
  Check(in, "P(Q2=+)", pp + mp, law.joint.Q2Plus());
  Check(in, "P(+,+)", pp, law.joint.pp);
  Check(in, "P(+,-)", pm, law.joint.pm);
  Check(in, "P(-,+)", mp, law.joint.mp);
  Check(in, "P(-,-)", mm, law.joint.mm);
}

static_assert(kSamples % 64 == 0, "whole words only");

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider provider(data, size);
  const Input in = Decode(provider);
  try {
    RunOne(in);
  } catch (const std::exception& e) {
    // Every grid point is valid: any exception (InvalidArgument included) is a bug.
    std::fprintf(stderr, "fuzz_quantizer_bias: unexpected exception on a valid grid point: %s\n", e.what());
    std::abort();
  }
  return 0;
}
