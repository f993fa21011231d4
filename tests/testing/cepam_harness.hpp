// The statistical harness of the CEPAM / layered-RSUQ codec (seed 002), shared by the
// statistical suite (tests/statistical/cepam_stat_test.cpp: the production codec, both
// generators) and the planted-mutant catalog (tests/mutants/cepam_mutant_test.cpp: the faulty
// instantiations of internal/dpfl/quant/cepam_codec.hpp). The seed's central claim (Props. 3 and
// 5, Lemmas 14/15) is that the reconstruction error is *exactly* the target law, independent of
// the input. Oracle: the exact CDFs of the reference (MPFR enclosures: ref::NormalCdf, the χ²_n
// cdf GaussianErrorNormCdfTarget, exp for the Laplace law; exact rationals for the uniform laws;
// ref::GaussianAcceptance for p_acc); the enclosure midpoints feed only the test statistics.
//
// Every case encodes, D times (kDraws; kMutantDraws for the mutant catalog), a message of B blocks all equal to the case's input x_b (so the
// layers and dithers of distinct blocks and draws are distinct stream addresses), at round
// d + 1 of client 3, decodes it, and records each block's error e = Y − x_b, its layer Ũ (the
// public CepamLayer) and the message's trial total. Checks per case (each a p-value; the caller
// applies Holm over all of them):
//  (a) KS and (b) Anderson–Darling of coordinate 0 of e against the exact marginal law
//      (N(0, σ²), Lap(0, b), Unif(−α/2, α/2]); RSUQ: the angle of e (n = 2) against Unif(−π, π];
//  (c) Gaussian: KS of ‖e‖²/σ² against χ²_n;
//  (d) the layer: KS of (‖e‖₂/r)^n (balls: Gaussian r = σ√Ũ, RSUQ r = ρ) or ‖e‖₁/(bŨ) (Laplace
//      n = 1) against Unif(0, 1) — the error is uniform on L(Ũ) given Ũ;
//  (e) the trial totals against NegBin(B, p_acc) (χ², tail pooled; the h of a block is
//      Geom(p_acc), independent across blocks); when p_acc = 1, every total must be B (p = 0
//      otherwise);
//  (f) per configuration, independence from the input: two-sample KS of coordinate 0 of e
//      between the first input (x = 0) and each other input;
//  (0) an exception from the codec is a rejection (p = 0): the fault-free codec never throws here.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <stdexcept>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dpfl/quant/cepam.hpp"
#include "dpfl/quant/cepam_codec.hpp"  // internal (dpfl_testing_internals)
#include "dpfl/ref/cepam.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/numbers.hpp"
#include "testing/holm_report.hpp"
#include "testing/stat.hpp"

namespace dpfl::testing::cepam {

using quant::CepamConfig;
using quant::CepamKind;
using quant::CepamMessage;
using quant::CepamStats;
using quant::StreamContext;

inline constexpr int kDraws = 1024;        // the statistical suite; the mutant catalog uses kMutantDraws
inline constexpr int kMutantDraws = 512;
inline constexpr int kBlocks = 16;
inline constexpr int kPrec = 64;

struct Codec {
  std::function<CepamMessage(const CepamConfig&, std::span<const float>, const StreamContext&, std::uint32_t, CepamStats*)>
      encode;
  std::function<void(const CepamConfig&, const CepamMessage&, const StreamContext&, std::uint32_t, std::span<double>)>
      decode;
};

inline Codec ProductionCodec() {
  return {[](const auto& cfg, auto x, const auto& ctx, auto client, auto* stats) {
            return quant::CepamEncode(cfg, x, ctx, client, stats);
          },
          [](const auto& cfg, const auto& msg, const auto& ctx, auto client, auto y) {
            quant::CepamDecode(cfg, msg, ctx, client, y);
          }};
}

template <class Faults>
Codec FaultyCodec() {
  return {[](const auto& cfg, auto x, const auto& ctx, auto client, auto* stats) {
            return quant::cepam::Encode<Faults>(cfg, x, ctx, client, stats);
          },
          [](const auto& cfg, const auto& msg, const auto& ctx, auto client, auto y) {
            quant::cepam::Decode<Faults>(cfg, msg, ctx, client, y);
          }};
}

struct Check {
  std::string what;
  double statistic = 0, p_value = 1;
  std::size_t samples = 0;
};

struct Config {
  std::string name;
  CepamConfig cfg;
  std::vector<std::vector<double>> inputs;  // the first is x = 0
};

inline CepamConfig Make(CepamKind kind, int n, double scale, double c = 1.0, double rho = 0.0) {
  CepamConfig cfg;
  cfg.kind = kind;
  cfg.n = n;
  cfg.scale = scale;
  cfg.c = c;
  cfg.rho = rho;
  return cfg;
}

// Inputs: the origin (a lattice point and the centre of the cell for SDQ/RSUQ), a point at the
// clip scale or on a cell boundary, and one far away.
inline std::vector<Config> Configs() {
  return {
      {"gaussian n=1 sigma=1/2", Make(CepamKind::kGaussian, 1, 0.5), {{0.0}, {0.8}, {37.3}}},
      {"gaussian n=2 sigma=1/2", Make(CepamKind::kGaussian, 2, 0.5), {{0.0, 0.0}, {0.6, -0.8}, {30.0, -20.0}}},
      {"gaussian n=3 sigma=1/2", Make(CepamKind::kGaussian, 3, 0.5), {{0.0, 0.0, 0.0}, {0.3, 0.4, -0.5}, {10.0, 20.0, -30.0}}},
      {"gaussian n=2 sigma=1/2 c=3/2", Make(CepamKind::kGaussian, 2, 0.5, 1.5), {{0.0, 0.0}, {0.2, 0.1}}},
      {"laplace n=1 b=2/5", Make(CepamKind::kLaplace, 1, 0.4), {{0.0}, {1.0}, {41.7}}},
      {"laplace n=1 b=2/5 c=2", Make(CepamKind::kLaplace, 1, 0.4, 2.0), {{0.0}, {0.3}}},
      {"sdq n=1 alpha=3/10", Make(CepamKind::kSdq, 1, 0.3), {{0.0}, {0.15}, {0.37}}},
      {"rsuq n=2 alpha=1/2 rho=1/5", Make(CepamKind::kRsuq, 2, 0.5, 1.0, 0.2), {{0.0, 0.0}, {0.25, 0.25}, {1.13, -2.2}}},
  };
}

inline std::string Tag(rng::Generator gen, const Config& c, const std::vector<double>& x) {
  std::string t = std::string(gen == rng::Generator::kChaCha20 ? "ChaCha20 " : "Philox ") + c.name + " x=(";
  for (std::size_t i = 0; i < x.size(); ++i) t += (i ? "," : "") + ref::ToExactString(ref::Rational(static_cast<double>(static_cast<float>(x[i]))));
  return t + ")";
}

inline double Mid(const ref::Enclosure& e) { return e.MidDouble(); }

// The exact marginal CDF of one error coordinate (kinds with a coordinate law).
inline double MarginalCdf(const CepamConfig& cfg, double e) {
  const ref::Rational q(e), scale(cfg.scale);
  switch (cfg.kind) {
    case CepamKind::kGaussian:
      return Mid(ref::NormalCdf(ref::Enclosure(kPrec, q / scale)));
    case CepamKind::kLaplace: {
      const ref::Enclosure half_tail = ref::Exp(ref::Enclosure(kPrec, (q < 0 ? q : -q) / scale)) / ref::Rational(2);
      return q < 0 ? Mid(half_tail) : 1.0 - Mid(half_tail);
    }
    case CepamKind::kSdq: {  // Unif(−α/2, α/2]: (e + α/2)/α, exact in rationals
      const ref::Rational u = (q + scale / 2) / scale;
      return u.convert_to<double>();
    }
    case CepamKind::kRsuq:
      break;
  }
  return 0.5;
}

struct Samples {
  std::vector<std::vector<double>> e;  // per block sample: the error vector
  std::vector<double> layer;           // per block sample
  std::vector<std::uint64_t> trials;   // per message
};

inline Samples Draw(const Codec& codec, rng::Generator gen, const CepamConfig& base, const std::vector<double>& xb,
                    std::uint64_t seed, int draws) {
  CepamConfig cfg = base;
  const int n = cfg.n;
  std::vector<float> x(static_cast<std::size_t>(n * kBlocks));
  double norm2 = 0;
  for (int j = 0; j < kBlocks; ++j)
    for (int l = 0; l < n; ++l) {
      x[static_cast<std::size_t>(j * n + l)] = static_cast<float>(xb[static_cast<std::size_t>(l)]);
      norm2 += xb[static_cast<std::size_t>(l)] * xb[static_cast<std::size_t>(l)];
    }
  cfg.clip = std::max(std::sqrt(norm2), cfg.scale) * (1.0 + 0x1p-20);  // shapes only the bitstream
  StreamContext ctx;
  ctx.generator = gen;
  std::mt19937_64 mt(seed);
  for (auto& w : ctx.key.words) w = static_cast<std::uint32_t>(mt());
  Samples s;
  std::vector<double> y(x.size());
  for (int d = 0; d < draws; ++d) {
    ctx.round = static_cast<std::uint32_t>(d + 1);
    CepamStats stats;
    const CepamMessage msg = codec.encode(cfg, x, ctx, 3, &stats);
    codec.decode(cfg, msg, ctx, 3, y);
    s.trials.push_back(stats.trials);
    for (int j = 0; j < kBlocks; ++j) {
      std::vector<double> e(static_cast<std::size_t>(n));
      for (int l = 0; l < n; ++l)
        e[static_cast<std::size_t>(l)] =
            y[static_cast<std::size_t>(j * n + l)] - static_cast<double>(x[static_cast<std::size_t>(j * n + l)]);
      s.e.push_back(std::move(e));
      s.layer.push_back(quant::CepamLayer(cfg, ctx, 3, static_cast<std::uint64_t>(j)));
    }
  }
  return s;
}

inline Check Continuous(const std::string& what, const stat::ContinuousTest& t, std::size_t n) {
  return {what, t.statistic, t.p_value, n};
}

// The trial totals of B blocks against NegBin(B, p): P(T = t) = C(t − 1, B − 1) p^B (1 − p)^{t − B}.
inline Check TrialCheck(const std::string& what, const CepamConfig& cfg, const std::vector<std::uint64_t>& totals) {
  if (quant::CepamAlwaysAccepts(cfg)) {
    std::size_t bad = 0;
    for (std::uint64_t t : totals) bad += t != static_cast<std::uint64_t>(kBlocks);
    return {what + " (p_acc = 1: every total is B)", static_cast<double>(bad), bad ? 0.0 : 1.0, totals.size()};
  }
  double p = 0;
  switch (cfg.kind) {
    case CepamKind::kGaussian: p = Mid(ref::GaussianAcceptance(cfg.n, ref::Rational(cfg.c), kPrec)); break;
    case CepamKind::kLaplace: p = ref::LaplaceAcceptance(ref::Rational(cfg.c)).convert_to<double>(); break;
    case CepamKind::kRsuq:  // V_2 ρ²/α² (n = 2 here)
      p = Mid(ref::UnitBallVolume(cfg.n, kPrec) * ref::Pow(ref::Enclosure(kPrec, ref::Rational(cfg.rho) / ref::Rational(cfg.scale)), cfg.n));
      break;
    case CepamKind::kSdq: p = 1; break;
  }
  const int cells = kBlocks * 8;  // totals B … 9B − 1, then the tail
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(cells + 1), 0);
  std::vector<double> probs(static_cast<std::size_t>(cells + 1), 0.0);
  for (std::uint64_t t : totals) {
    if (t < static_cast<std::uint64_t>(kBlocks)) return {what + ": a total below B", 0, 0.0, totals.size()};
    const std::uint64_t k = t - static_cast<std::uint64_t>(kBlocks);
    ++counts[static_cast<std::size_t>(std::min<std::uint64_t>(k, static_cast<std::uint64_t>(cells)))];
  }
  double lp = static_cast<double>(kBlocks) * std::log(p), sum = 0;
  for (int k = 0; k < cells; ++k) {  // t = B + k: C(B + k − 1, k) p^B (1 − p)^k
    const double logc = std::lgamma(static_cast<double>(kBlocks + k)) - std::lgamma(static_cast<double>(k + 1)) -
                        std::lgamma(static_cast<double>(kBlocks));
    probs[static_cast<std::size_t>(k)] = std::exp(logc + lp + static_cast<double>(k) * std::log1p(-p));
    sum += probs[static_cast<std::size_t>(k)];
  }
  probs[static_cast<std::size_t>(cells)] = std::max(0.0, 1.0 - sum);
  const stat::GofResult g = stat::ChiSquareGof(counts, probs);
  return {what, g.statistic, g.p_value, totals.size()};
}

inline std::vector<Check> RunHarness(const Codec& codec, rng::Generator gen, int draws = kDraws) {
  std::vector<Check> checks;
  std::uint64_t seed = 0xce9a0002;
  for (const Config& c : Configs()) {
    std::vector<double> first_coord0;
    for (std::size_t xi = 0; xi < c.inputs.size(); ++xi) {
      const std::vector<double>& xb = c.inputs[xi];
      const std::string tag = Tag(gen, c, xb);
      Samples s;
      try {
        s = Draw(codec, gen, c.cfg, xb, ++seed, draws);
      } catch (const std::exception& e) {
        // The codec's own consistency checks fired (e.g. a candidate set out of range): a
        // rejection with p = 0, since the fault-free codec never throws on these inputs.
        checks.push_back({"(0) the codec failed: " + std::string(e.what()) + " " + tag,
                          std::numeric_limits<double>::infinity(), 0.0, 0});
        continue;
      }
      const std::size_t N = s.e.size();
      std::vector<double> coord0(N);
      for (std::size_t i = 0; i < N; ++i) coord0[i] = s.e[i][0];
      const int n = c.cfg.n;
      if (c.cfg.kind == CepamKind::kRsuq) {
        std::vector<double> angle(N);
        for (std::size_t i = 0; i < N; ++i)  // Unif(−π, π]: (θ + π)/(2π)
          angle[i] = (std::atan2(s.e[i][1], s.e[i][0]) + 3.14159265358979323846) / (2.0 * 3.14159265358979323846);
        checks.push_back(Continuous("(a) KS angle vs Unif(-pi, pi] " + tag, stat::KsFromCdf(angle), N));
        checks.push_back(Continuous("(b) AD angle vs Unif(-pi, pi] " + tag, stat::AndersonDarlingFromCdf(angle), N));
      } else {
        std::vector<double> u(N);
        for (std::size_t i = 0; i < N; ++i) u[i] = MarginalCdf(c.cfg, coord0[i]);
        checks.push_back(Continuous("(a) KS coordinate 0 " + tag, stat::KsFromCdf(u), N));
        checks.push_back(Continuous("(b) AD coordinate 0 " + tag, stat::AndersonDarlingFromCdf(u), N));
      }
      if (c.cfg.kind == CepamKind::kGaussian) {
        std::vector<double> u(N);
        for (std::size_t i = 0; i < N; ++i) {
          ref::Rational s2(0);
          for (double v : s.e[i]) s2 += ref::Rational(v) * ref::Rational(v);
          u[i] = Mid(ref::GaussianErrorNormCdfTarget(n, s2 / (ref::Rational(c.cfg.scale) * ref::Rational(c.cfg.scale)), kPrec));
        }
        checks.push_back(Continuous("(c) KS |e|^2/sigma^2 vs chi2_n " + tag, stat::KsFromCdf(u), N));
      }
      if (c.cfg.kind != CepamKind::kSdq && !(c.cfg.kind == CepamKind::kLaplace && n > 1)) {
        std::vector<double> u(N);
        for (std::size_t i = 0; i < N; ++i) {
          double l2 = 0, l1 = 0;
          for (double v : s.e[i]) {
            l2 += v * v;
            l1 += std::fabs(v);
          }
          double r = c.cfg.rho;
          if (c.cfg.kind == CepamKind::kGaussian) r = c.cfg.scale * std::sqrt(s.layer[i]);
          if (c.cfg.kind == CepamKind::kLaplace) r = c.cfg.scale * s.layer[i];
          u[i] = c.cfg.kind == CepamKind::kLaplace ? l1 / r : std::pow(std::sqrt(l2) / r, n);
          u[i] = std::min(u[i], 1.0 + 1e-9);  // > 1 only if the error left the layer: then KS sees it
        }
        checks.push_back(Continuous("(d) KS error within its layer vs Unif(0,1) " + tag, stat::KsFromCdf(u), N));
      }
      checks.push_back(TrialCheck("(e) trial totals vs NegBin(B, p_acc) " + tag, c.cfg, s.trials));
      if (xi == 0) {
        first_coord0 = coord0;
      } else if (!first_coord0.empty()) {
        checks.push_back(Continuous("(f) two-sample KS coordinate 0, x=0 vs " + tag, stat::KsTwoSample(first_coord0, coord0), N));
      }
    }
  }
  return checks;
}

// Holm over `checks` at family-wise level alpha (testing/holm_report.hpp).
inline int HolmRejections(const std::vector<Check>& checks, double alpha, bool print) {
  return ReportHolm(checks, alpha, print);
}

}  // namespace dpfl::testing::cepam
