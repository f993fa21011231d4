// The statistical harness of the DPFL-BNN encoders (seed 004 Alg. B, C, D), shared by the
// statistical suite (tests/statistical/bnn_stat_test.cpp: the production encoders, both
// generators) and the planted-mutant catalog (tests/mutants/bnn_mutant_test.cpp: the faulty
// instantiations of the internal rr_encoders.hpp loops). Oracle: the exact rational laws of
// dpfl/ref/bnn_laws.hpp (the conversion to double feeds only the test statistics).
//
// Checks (each a p-value; the caller applies Holm over all of them):
//  * per instance (kInstances, N = 2^20 coordinates each, γ and θ exact dyadics, input ±1; θ = 0,
//    1 and −1 are forced into instances 2–4 so that Sign's tie and StoSign's clip edges are hit):
//    (a) RR marginal: counts of "+" after RR of N equal input bits vs 1/2 + γ·input;
//    (b) StoSign marginal vs clip((θ + 1)/2, 0, 1);
//    (c) the StoSign upload (Alg. 1' l. 13–14) vs 1/2 + γ·clip(θ);
//    (d) lag-1 independence of the RR output bits (pairs 2i, 2i + 1) vs the product of the exact
//        marginals;
//    (e) Sign marginal vs [θ ≥ 0] (E17: Sign(0) = +1; a point mass, so one wrong bit gives p = 0);
//    (f) the Sign upload vs 1/2 + γ·(2[θ ≥ 0] − 1);
//    (g) independence across rounds: the 2×2 table of the StoSign upload's bit j in rounds r and
//        r + 1 (same client, same latents) vs the product of the exact marginals;
//  * aggregate (kClients clients with distinct θ_i, m = 2^16 coordinates, one round):
//    (h) the histogram of the secure-aggregation count K over the coordinates vs the exact
//        Poisson-binomial pmf (§4.8);
//    (i) z test of the mean of the broadcast values vs the exact mean (1/n) Σ (2π_i − 1);
//    (j) z test of the mean squared deviation from the exact mean vs the exact variance
//        (1/n²) Σ 4π_i(1 − π_i) (standard error from the sample);
//  * (k) exact replay (ReplayCheck): every decision of Sign, StoSign, RR and both uploads at two
//    rounds ≠ 0 for latents that include ties and clip edges, recomputed from its 64-bit uniform
//    (rng::DecisionUniform64 at the address the spec assigns) and the *rational* threshold, and
//    the server's (2K − n)/n; p = 0 if any decision differs, else 1 (false-alarm probability 0).
//    It catches faults no law can see: RR before binarization leaves the StoSign upload's law
//    unchanged (σ(−θ) = 1 − σ(θ)) but not its decisions.
// All are Pearson χ² with cells of expected count < 5 pooled (an observation in a cell of exact
// probability 0 gives p = 0), or two-sided z tests.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/quant/rr_encoders.hpp"  // internal (dpfl_testing_internals)
#include "dpfl/ref/bnn_laws.hpp"
#include "dpfl/ref/numbers.hpp"
#include "dpfl/rng/streams.hpp"
#include "testing/bit_counts.hpp"
#include "testing/holm_report.hpp"
#include "testing/stat.hpp"

namespace dpfl::testing::bnn {

inline constexpr int kInstances = 12;
inline constexpr std::size_t kSamples = std::size_t{1} << 20;
inline constexpr std::uint32_t kClients = 10;
inline constexpr std::size_t kAggregateCoordinates = std::size_t{1} << 16;
inline constexpr std::uint64_t kInstanceSeed = 0xb1a5ed0000000004ULL;

// The encoders under test.
struct Encoders {
  std::function<void(std::span<const float>, const quant::StreamContext&, std::uint32_t, std::span<std::uint64_t>)>
      stosign;
  std::function<void(const quant::RandomizedResponse&, std::size_t, const quant::StreamContext&, std::uint32_t,
                     std::span<std::uint64_t>)>
      rr;
  std::function<void(std::span<const std::uint32_t>, std::uint32_t, std::span<float>)> decode;
  std::function<void(std::span<const float>, std::span<std::uint64_t>)> sign;
  std::function<void(quant::Binarizer, const quant::RandomizedResponse*, std::span<const float>,
                     const quant::StreamContext&, std::uint32_t, std::span<std::uint64_t>)>
      upload;
};

inline Encoders ProductionEncoders() {
  return {[](auto theta, const auto& ctx, auto client, auto bits) { quant::EncodeStoSign(theta, ctx, client, bits, 2); },
          [](const auto& rr, auto m, const auto& ctx, auto client, auto bits) {
            quant::ApplyRandomizedResponse(rr, m, ctx, client, bits, 2);
          },
          [](auto counts, auto n, auto mean) { quant::DecodeBnnAverage(counts, n, mean); },
          [](auto theta, auto bits) { quant::EncodeSign(theta, bits, 2); },
          [](auto binarizer, const auto* rr, auto theta, const auto& ctx, auto client, auto bits) {
            quant::EncodeBnnUpload(binarizer, rr, theta, ctx, client, bits, 2);
          }};
}

template <class Faults>
Encoders FaultyEncoders() {
  return {[](auto theta, const auto& ctx, auto client, auto bits) {
            quant::detail::EncodeStoSignT<Faults>(theta, ctx, client, bits, 2);
          },
          [](const auto& rr, auto m, const auto& ctx, auto client, auto bits) {
            quant::detail::ApplyRandomizedResponseT<Faults>(rr, m, ctx, client, bits, 2);
          },
          [](auto counts, auto n, auto mean) { quant::detail::DecodeBnnAverageT<Faults>(counts, n, mean); },
          [](auto theta, auto bits) { quant::detail::EncodeSignT<Faults>(theta, bits, 2); },
          [](auto binarizer, const auto* rr, auto theta, const auto& ctx, auto client, auto bits) {
            quant::detail::EncodeBnnUploadT<Faults>(binarizer, rr, theta, ctx, client, bits, 2);
          }};
}

struct Check {
  std::string what;
  double statistic = 0, p_value = 1;
  std::size_t samples = 0;
};

struct Instance {
  ref::Rational gamma, theta;  // exact dyadics: γ = a/2^10, θ = b/2^12
  int input = 1;
};

inline std::vector<Instance> MakeInstances() {
  std::mt19937_64 mt(kInstanceSeed);
  std::vector<Instance> out;
  for (int i = 0; i < kInstances; ++i) {
    Instance in;
    const long a = i == 0 ? 0 : (i == 1 ? 512 : static_cast<long>(mt() % 513));  // γ = 0 and 1/2 included
    in.gamma = ref::Rational(a, 1024);
    in.theta = ref::Rational(static_cast<long>(mt() % 10241) - 5120, 4096);  // [−1.25, 1.25]: some clipped
    if (i >= 2 && i <= 4) in.theta = ref::Rational(i == 2 ? 0 : (i == 3 ? 1 : -1));  // Sign's tie, StoSign's edges
    in.input = mt() % 2 ? 1 : -1;
    out.push_back(in);
  }
  return out;
}

inline double D(const ref::Rational& x) { return x.convert_to<double>(); }
inline std::uint64_t Ones(std::span<const std::uint64_t> b) {
  std::uint64_t n = 0;
  for (std::uint64_t w : b) n += static_cast<std::uint64_t>(std::popcount(w));
  return n;
}

inline quant::StreamContext Context(rng::Generator gen, std::uint64_t seed, std::uint32_t round) {
  quant::StreamContext ctx;
  ctx.generator = gen;
  std::mt19937_64 mt(seed);
  for (auto& w : ctx.key.words) w = static_cast<std::uint32_t>(mt());
  ctx.round = round;
  return ctx;
}

inline Check Gof(const std::string& what, std::span<const std::uint64_t> counts, std::span<const double> probs) {
  const stat::GofResult g = stat::ChiSquareGof(counts, probs);
  std::uint64_t n = 0;
  for (std::uint64_t c : counts) n += c;
  return {what, g.statistic, g.p_value, static_cast<std::size_t>(n)};
}

inline Check BinaryGof(const std::string& what, std::uint64_t plus, std::uint64_t n, const ref::Rational& p) {
  const std::array<std::uint64_t, 2> counts = {n - plus, plus};
  const std::array<double, 2> probs = {D(1 - p), D(p)};
  return Gof(what, counts, probs);
}

// ⌊x·2^64⌋ of an exact rational x ∈ [0, 1].
inline ref::Rational FloorTimes2To64(const ref::Rational& x) { return ref::Rational(ref::FloorInt(x * ref::Pow2(64))); }

// Latents for the replay: ties (±0), the clip edges (±1), beyond them, subnormals, and a spread.
inline std::vector<float> ReplayLatents(std::size_t m) {
  std::vector<float> theta = {0.0f, -0.0f, 1.0f, -1.0f, 1.25f, -1.25f, 1e-40f, -1e-40f, 0.5f, -0.5f, 3.0f, -3.0f};
  std::mt19937_64 mt(kInstanceSeed ^ 0x5e1);
  while (theta.size() < m) theta.push_back(std::uniform_real_distribution<float>(-1.2f, 1.2f)(mt));
  return theta;
}

// (k) Exact replay of every decision (see the file comment). Returns one check: statistic = the
// number of decisions that differ from the rational rule, p = 0 if any, else 1.
inline Check ReplayCheck(const Encoders& enc, rng::Generator gen) {
  constexpr std::size_t m = 4096;
  constexpr std::uint32_t client = 6;
  const std::vector<float> theta = ReplayLatents(m);
  const double gamma = 0.3;  // not a dyadic: the implemented γ̃ = ⌈γ·2^64⌉/2^64 is what is replayed
  const quant::RandomizedResponse rr = quant::MakeRandomizedResponse(gamma);
  const ref::Rational flip_t = FloorTimes2To64(ref::Rational(1, 2) - ref::Rational(gamma));
  std::uint64_t mismatches = 0, decisions = 0;
  auto bit = [](const std::vector<std::uint64_t>& b, std::size_t j) { return ((b[j / 64] >> (j % 64)) & 1u) != 0; };
  for (std::uint32_t round : {5u, 6u}) {
    const quant::StreamContext ctx = Context(gen, kInstanceSeed ^ 0x7e9, round);
    const rng::StreamAddress sa{round, client, rng::Purpose::kStoSign}, ra{round, client, rng::Purpose::kRandomizedResponse};
    std::vector<std::uint64_t> stosign(quant::PackedWords(m)), sign(stosign.size()), rr_bits(stosign.size()),
        up_stosign(stosign.size()), up_sign(stosign.size());
    enc.stosign(theta, ctx, client, stosign);
    enc.sign(theta, sign);
    std::mt19937_64 mt(round);
    for (std::uint64_t& w : rr_bits) w = mt();
    const std::vector<std::uint64_t> rr_in = rr_bits;
    enc.rr(rr, m, ctx, client, rr_bits);
    enc.upload(quant::Binarizer::kStoSign, &rr, theta, ctx, client, up_stosign);
    enc.upload(quant::Binarizer::kSign, &rr, theta, ctx, client, up_sign);
    for (std::size_t j = 0; j < m; ++j) {
      const ref::Rational x(static_cast<double>(theta[j]));
      const ref::Rational v(ref::Int(rng::DecisionUniform64(gen, ctx.key, sa, j, quant::kBnnHeadBits)));
      const bool sto = x >= 1 || (x > -1 && v < FloorTimes2To64((x + 1) / 2));
      const bool sgn = x >= 0;
      const ref::Rational u(ref::Int(rng::DecisionUniform64(gen, ctx.key, ra, j, quant::kBnnHeadBits)));
      const bool flip = u < flip_t;
      mismatches += (bit(stosign, j) != sto) + (bit(sign, j) != sgn) + (bit(rr_bits, j) != (bit(rr_in, j) != flip)) +
                    (bit(up_stosign, j) != (sto != flip)) + (bit(up_sign, j) != (sgn != flip));
      decisions += 5;
    }
  }
  // The server: (2K − n)/n for every K ∈ [0, n], as the float nearest to it (|error| ≤ 2^−24).
  constexpr std::uint32_t n = 37;
  std::vector<std::uint32_t> counts(n + 1);
  for (std::uint32_t k = 0; k <= n; ++k) counts[k] = k;
  std::vector<float> mean(counts.size());
  enc.decode(counts, n, mean);
  for (std::uint32_t k = 0; k <= n; ++k) {
    const ref::Rational exact(static_cast<long>(2 * k) - static_cast<long>(n), static_cast<long>(n));
    const ref::Rational err = ref::Rational(static_cast<double>(mean[k])) - exact;
    mismatches += (err > ref::Pow2(-24) || err < -ref::Pow2(-24)) ? 1 : 0;
    ++decisions;
  }
  const char* g = gen == rng::Generator::kChaCha20 ? "ChaCha20" : "Philox";
  return {std::string(g) + " exact replay (" + std::to_string(decisions) + " decisions; statistic = mismatches)",
          static_cast<double>(mismatches), mismatches == 0 ? 1.0 : 0.0, static_cast<std::size_t>(decisions)};
}

inline std::vector<Check> RunHarness(const Encoders& enc, rng::Generator gen) {
  std::vector<Check> checks;
  const char* g = gen == rng::Generator::kChaCha20 ? "ChaCha20" : "Philox";
  const std::vector<Instance> instances = MakeInstances();
  std::vector<std::uint64_t> bits(quant::PackedWords(kSamples));
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const Instance& in = instances[i];
    const quant::RandomizedResponse rr = quant::MakeRandomizedResponse(D(in.gamma));
    const float theta = static_cast<float>(D(in.theta));  // exact: b/2^12
    const std::vector<float> thetas(kSamples, theta);
    const quant::StreamContext ctx = Context(gen, kInstanceSeed + i, static_cast<std::uint32_t>(i));
    const std::string tag = std::string(g) + " #" + std::to_string(i) + " gamma=" + ref::ToExactString(in.gamma) +
                            " theta=" + ref::ToExactString(in.theta) + " input=" + std::to_string(in.input);
    // (a) RR of N equal input bits.
    std::fill(bits.begin(), bits.end(), in.input > 0 ? ~std::uint64_t{0} : 0);
    enc.rr(rr, kSamples, ctx, 3, bits);
    const ref::Rational p_rr = ref::RrPlusProbability(in.gamma, in.input);
    checks.push_back(BinaryGof("RR marginal " + tag, Ones(bits), kSamples, p_rr));
    // (d) lag-1 independence of those bits.
    const std::array<std::uint64_t, 4> lag = LagOneCounts(bits);
    const double pp = D(p_rr), pm = 1 - pp;
    const std::array<double, 4> lag_probs = {pm * pm, pm * pp, pp * pm, pp * pp};
    checks.push_back(Gof("RR lag-1 independence " + tag, lag, lag_probs));
    // (b) StoSign, (c) StoSign then RR (the client's upload).
    enc.stosign(thetas, ctx, 3, bits);
    checks.push_back(BinaryGof("StoSign marginal " + tag, Ones(bits), kSamples, ref::StoSignPlusProbability(in.theta)));
    enc.upload(quant::Binarizer::kStoSign, &rr, thetas, ctx, 3, bits);
    const ref::Rational p_up = ref::BnnUploadPlusProbability(in.gamma, in.theta, true);
    checks.push_back(BinaryGof("upload RR(StoSign) marginal " + tag, Ones(bits), kSamples, p_up));
    // (g) the same upload one round later: a 2×2 table against independence.
    std::vector<std::uint64_t> next(bits.size());
    quant::StreamContext ctx_next = ctx;
    ++ctx_next.round;
    enc.upload(quant::Binarizer::kStoSign, &rr, thetas, ctx_next, 3, next);
    std::array<std::uint64_t, 4> joint{};
    for (std::size_t w = 0; w < bits.size(); ++w) {
      const std::uint64_t a = bits[w], b = next[w];
      const std::uint64_t n11 = static_cast<std::uint64_t>(std::popcount(a & b));
      const std::uint64_t n10 = static_cast<std::uint64_t>(std::popcount(a & ~b)), n01 = static_cast<std::uint64_t>(std::popcount(~a & b));
      joint[3] += n11;
      joint[2] += n10;
      joint[1] += n01;
    }
    joint[0] = kSamples - joint[1] - joint[2] - joint[3];  // kSamples is a multiple of 64
    const double u = D(p_up), v = 1 - u;
    const std::array<double, 4> joint_probs = {v * v, v * u, u * v, u * u};
    checks.push_back(Gof("upload independence across rounds " + tag, joint, joint_probs));
    // (e) Sign, (f) the Sign upload.
    enc.sign(thetas, bits);
    checks.push_back(BinaryGof("Sign marginal " + tag, Ones(bits), kSamples, ref::SignPlusProbability(in.theta)));
    enc.upload(quant::Binarizer::kSign, &rr, thetas, ctx, 3, bits);
    checks.push_back(BinaryGof("upload RR(Sign) marginal " + tag, Ones(bits), kSamples,
                               ref::BnnUploadPlusProbability(in.gamma, in.theta, false)));
  }

  // Aggregate: kClients uploads, the server's counts and broadcast values.
  const ref::Rational gamma(3, 16);
  const quant::RandomizedResponse rr = quant::MakeRandomizedResponse(D(gamma));
  std::vector<ref::Rational> pi;
  std::vector<std::vector<std::uint64_t>> uploads(kClients, std::vector<std::uint64_t>(quant::PackedWords(kAggregateCoordinates)));
  const quant::StreamContext ctx = Context(gen, kInstanceSeed ^ 0xa99, 77);
  for (std::uint32_t c = 0; c < kClients; ++c) {
    const ref::Rational theta(static_cast<long>(c * 53 % 29) * 4 - 44, 64);  // −0.6875 … 1.0625 (one clipped), mean ≠ 0
    pi.push_back(ref::BnnUploadPlusProbability(gamma, theta, true));
    const std::vector<float> thetas(kAggregateCoordinates, static_cast<float>(D(theta)));
    enc.upload(quant::Binarizer::kStoSign, &rr, thetas, ctx, c, uploads[c]);
  }
  std::vector<std::span<const std::uint64_t>> views(uploads.begin(), uploads.end());
  std::vector<std::uint32_t> counts(kAggregateCoordinates, 0);
  quant::AccumulateMessages(views, counts);
  std::vector<std::uint64_t> histogram(kClients + 1, 0);
  for (std::uint32_t k : counts) ++histogram[k];
  const std::vector<ref::Rational> pmf = ref::PoissonBinomialPmf(pi);
  std::vector<double> pmf_d;
  for (const auto& p : pmf) pmf_d.push_back(D(p));
  checks.push_back(Gof(std::string(g) + " aggregate: count K vs Poisson-binomial", histogram, pmf_d));
  std::vector<float> mean(kAggregateCoordinates);
  enc.decode(counts, kClients, mean);
  const ref::BnnAverageMoments law = ref::BnnAverageLaw(pi);
  std::vector<double> x(mean.begin(), mean.end()), sq;
  const stat::MeanTest bias = stat::ZTestMean(x, D(law.mean), std::sqrt(D(law.variance)));
  checks.push_back({std::string(g) + " aggregate: mean of the broadcast average", bias.z, bias.p_value, x.size()});
  for (double v : x) sq.push_back((v - D(law.mean)) * (v - D(law.mean)));
  const stat::MeanTest var = stat::ZTestMean(sq, D(law.variance));
  checks.push_back({std::string(g) + " aggregate: variance of the broadcast average", var.z, var.p_value, sq.size()});
  checks.push_back(ReplayCheck(enc, gen));
  return checks;
}

// Holm over `checks` at family-wise level alpha (testing/holm_report.hpp).
inline int HolmRejections(const std::vector<Check>& checks, double alpha, bool print) {
  return ReportHolm(checks, alpha, print);
}

}  // namespace dpfl::testing::bnn
