// CEPAM / layered RSUQ codec (production/include/dpfl/quant/cepam.hpp, seed 002 §3.2–3.10):
// the deterministic logarithm against MPFR, the candidate set M(U) and its rank against brute
// force and the spec's C_1(s), encoder/decoder consistency (T6: the decoder's Y equals the
// encoder's β(M + V_h) bit for bit; Y − x ∈ L(Ũ) always), the bitstream (bits = Golomb + index
// bits; truncation, corruption and trailing bits rejected), stream separation (no dither reused
// across rounds or clients), and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/cepam.hpp"
#include "dpfl/quant/cepam_codec.hpp"  // internal (dpfl_testing_internals)
#include "dpfl/ref/cepam.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "testing/encoder_inputs.hpp"

namespace dpfl::quant {
namespace {

using dpfl::testing::kGenerators;
using ref::Enclosure;
using ref::Rational;

StreamContext Context(rng::Generator gen, std::uint32_t seed, std::uint32_t round) {
  StreamContext ctx = dpfl::testing::Context(gen, seed);
  ctx.round = round;
  return ctx;
}

CepamConfig Config(CepamKind kind, int n, double scale, double clip, double c = 1.0, double rho = 0.0) {
  CepamConfig cfg;
  cfg.kind = kind;
  cfg.n = n;
  cfg.scale = scale;
  cfg.clip = clip;
  cfg.c = c;
  cfg.rho = rho;
  return cfg;
}

std::vector<CepamConfig> AllKinds(double clip) {
  return {Config(CepamKind::kSdq, 1, 0.25, clip),          Config(CepamKind::kSdq, 3, 0.1, clip),
          Config(CepamKind::kRsuq, 2, 0.5, clip, 1.0, 0.2), Config(CepamKind::kRsuq, 1, 0.5, clip, 1.0, 0.25),
          Config(CepamKind::kGaussian, 1, 0.3, clip),       Config(CepamKind::kGaussian, 2, 0.3, clip),
          Config(CepamKind::kGaussian, 3, 0.3, clip),       Config(CepamKind::kGaussian, 4, 0.3, clip),
          Config(CepamKind::kGaussian, 2, 0.3, clip, 1.5),  Config(CepamKind::kLaplace, 1, 0.2, clip),
          Config(CepamKind::kLaplace, 2, 0.2, clip),        Config(CepamKind::kLaplace, 1, 0.2, clip, 2.0)};
}

std::string Name(const CepamConfig& c) {
  const char* k[] = {"sdq", "rsuq", "gaussian", "laplace"};
  return std::string(k[static_cast<int>(c.kind)]) + " n=" + std::to_string(c.n) + " scale=" + std::to_string(c.scale) +
         " c=" + std::to_string(c.c);
}

// A vector of norm `norm` (direction from the seed).
std::vector<float> Update(std::size_t m, double norm, std::uint64_t seed) {
  std::mt19937_64 mt(seed);
  std::normal_distribution<double> g;
  std::vector<double> v(m);
  double n2 = 0;
  for (double& x : v) {
    x = g(mt);
    n2 += x * x;
  }
  std::vector<float> out(m);
  for (std::size_t i = 0; i < m; ++i) out[i] = static_cast<float>(v[i] * norm / std::sqrt(n2) * (1.0 - 1e-6));
  return out;
}

TEST(CepamDeterministicLog, WithinFourUlpOfTheMpfrLogarithm) {
  std::mt19937_64 mt(7);
  std::vector<double> xs = {1.0, 0x1p-53, 0x1p-1074, 0.5, 0.70710678118654752, 0.7071067811865476, 2.0, 1e300, 1e-300,
                            1.0 - 0x1p-53, 1.0 + 0x1p-52, 3.0, 10.0};
  for (int i = 0; i < 3000; ++i) xs.push_back(cepam::UnitOpenClosed(mt()));
  for (int i = 0; i < 500; ++i) xs.push_back(std::ldexp(cepam::UnitOpenClosed(mt()), static_cast<int>(mt() % 200) - 100));
  for (double x : xs) {
    const double got = cepam::DeterministicLog(x);
    if (x == 1.0) {
      EXPECT_EQ(got, 0.0);
      continue;
    }
    const double ulp = std::nextafter(std::fabs(got), INFINITY) - std::fabs(got);
    const Enclosure err = Enclosure(200, Rational(got)) - ref::LogQ(200, Rational(x));
    EXPECT_TRUE(ref::CertainlyLess(ref::Abs(err), Enclosure(200, Rational(4.0 * ulp))))
        << "x=" << x << " got " << got << " err " << err.MidDouble();
  }
}

// #{k : Σ (|k_i| − 1/2)₊² ≤ s²} by brute force, exact in rationals.
std::uint64_t BruteCount(int n, const Rational& s) {
  const long K = static_cast<long>(s.convert_to<double>()) + 2;
  std::uint64_t count = 0;
  std::vector<long> k(n, -K);
  for (;;) {
    Rational sum(0);
    for (long v : k) {
      const Rational a = Rational(v < 0 ? -v : v) - Rational(1, 2);
      if (a > 0) sum += a * a;
    }
    if (sum <= s * s) ++count;
    int i = 0;
    while (i < n && ++k[i] > K) k[i++] = -K;
    if (i == n) break;
  }
  return count;
}

TEST(CepamIndexSet, CountsMatchBruteForceAndTheSpecsC1) {
  for (double s : {0.1, 0.5, 0.75, 1.0, 1.4999, 1.5, 2.3, 3.7, 6.02}) {
    for (int n = 1; n <= 3; ++n) {
      const cepam::IndexSet set = cepam::MakeIndexSet(n, s);
      EXPECT_FALSE(set.box);
      EXPECT_EQ(static_cast<std::uint64_t>(set.count), BruteCount(n, Rational(s))) << "n=" << n << " s=" << s;
    }
    // §4.8: C_1(s) = 2⌊s + 1/2⌋ + 1.
    EXPECT_EQ(static_cast<double>(cepam::MakeIndexSet(1, s).count), 2 * std::floor(s + 0.5) + 1) << s;
  }
}

TEST(CepamIndexSet, RankIsABijectionOntoZeroToCountMinusOne) {
  for (int n = 1; n <= 3; ++n) {
    for (double s : {0.3, 1.7, 4.2}) {
      for (bool box : {false, true}) {
        cepam::IndexSet set = cepam::MakeIndexSet(n, s);
        if (box) {  // the bounding-box form used when the exact rank would be too costly
          set.box = true;
          set.count = 1;
          for (int i = 0; i < n; ++i) set.count *= static_cast<cepam::U128>(2 * set.K + 1);
        }
        std::vector<std::int64_t> k(n), back(n);
        for (cepam::U128 r = 0; r < set.count; ++r) {
          cepam::Unrank(set, r, k);
          cepam::U128 again = 0;
          ASSERT_TRUE(cepam::Rank(set, k, &again)) << "n=" << n << " s=" << s;
          ASSERT_EQ(static_cast<std::uint64_t>(again), static_cast<std::uint64_t>(r));
        }
        // A point just outside is rejected.
        std::fill(k.begin(), k.end(), 0);
        k[0] = set.K + 1;
        cepam::U128 r = 0;
        EXPECT_FALSE(cepam::Rank(set, k, &r));
      }
    }
  }
}

TEST(CepamCodec, DecoderReproducesTheEncodersReconstructionAndTheErrorLiesInTheLayer) {
  for (rng::Generator gen : kGenerators) {
    for (const CepamConfig& cfg : AllKinds(1.0)) {
      for (std::size_t m : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{300}}) {
        const StreamContext ctx = Context(gen, 11, 3);
        for (double norm : {0.0, 0.4, 1.0}) {
          const std::vector<float> x = Update(m, norm, m * 31 + static_cast<std::uint64_t>(norm * 10));
          CepamStats stats;
          const CepamMessage msg = CepamEncode(cfg, x, ctx, 5, &stats);
          EXPECT_EQ(msg.bits, stats.h_bits + stats.index_bits) << Name(cfg);
          EXPECT_EQ(stats.blocks, (m + cfg.n - 1) / cfg.n);
          if (CepamAlwaysAccepts(cfg)) {
            EXPECT_EQ(stats.h_bits, 0u);
            EXPECT_EQ(stats.trials, stats.blocks);
          }
          std::vector<double> y(m), y2(m);
          CepamDecode(cfg, msg, ctx, 5, y);
          CepamDecode(cfg, msg, ctx, 5, y2);
          EXPECT_EQ(y, y2);
          // Y − x ∈ L(Ũ) per block (checked in exact rationals up to the doubles' own rounding).
          for (std::size_t j = 0; j * cfg.n < m; ++j) {
            const cepam::Geometry g = cepam::BlockGeometry<NoCepamFaults>(cfg, CepamLayer(cfg, ctx, 5, j));
            double l2 = 0, l1 = 0, linf = 0;
            for (int l = 0; l < cfg.n && j * cfg.n + l < m; ++l) {
              const double e = y[j * cfg.n + l] - static_cast<double>(x[j * cfg.n + l]);
              l2 += e * e;
              l1 += std::fabs(e);
              linf = std::max(linf, std::fabs(e));
            }
            const double tol = 1e-12 * (1.0 + g.radius);
            switch (cfg.kind) {
              case CepamKind::kSdq: EXPECT_LE(linf, cfg.scale / 2 + tol) << Name(cfg); break;
              case CepamKind::kRsuq:
              case CepamKind::kGaussian: EXPECT_LE(std::sqrt(l2), g.radius + tol) << Name(cfg); break;
              case CepamKind::kLaplace: EXPECT_LE(l1, g.radius + tol) << Name(cfg); break;
            }
          }
        }
      }
    }
  }
}

TEST(CepamCodec, TheEncodersOwnReconstructionIsTheDecodersBitForBit) {
  // T6: recompute the encoder side from the transmitted (h, k) and the streams, independently
  // of the decoder's bit parsing: Δ_j(k + V_{j,h}) from the trial loop itself.
  const CepamConfig cfg = Config(CepamKind::kGaussian, 3, 0.2, 1.0);
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 4, 9);
  const std::size_t m = 301;
  const std::vector<float> x = Update(m, 0.9, 5);
  const CepamMessage msg = CepamEncode(cfg, x, ctx, 2);
  std::vector<double> y(m);
  CepamDecode(cfg, msg, ctx, 2, y);
  const std::uint64_t blocks = cepam::Blocks(m, cfg.n);
  for (std::uint64_t j = 0; j < blocks; ++j) {
    double xb[3] = {0, 0, 0}, u[3], yb[3];
    std::int64_t k[3];
    for (int l = 0; l < 3; ++l)
      if (j * 3 + l < m) xb[l] = x[j * 3 + l];
    const cepam::Geometry g = cepam::BlockGeometry<NoCepamFaults>(cfg, CepamLayer(cfg, ctx, 2, j));
    for (std::uint64_t h = 1;; ++h) {
      cepam::Dither<NoCepamFaults>(ctx, 2, blocks, 3, j, h, u);
      if (cepam::Trial(cfg, g, xb, u, k, yb)) break;
    }
    for (int l = 0; l < 3; ++l) {
      if (j * 3 + l < m) {
        ASSERT_EQ(y[j * 3 + l], yb[l]) << "block " << j;
      }
    }
  }
}

TEST(CepamCodec, TruncatedCorruptOrPaddedBitstreamsAreRejectedNeverOverread) {
  const CepamConfig cfg = Config(CepamKind::kGaussian, 2, 0.3, 1.0);
  const StreamContext ctx = Context(rng::Generator::kPhilox4x32, 1, 1);
  const std::vector<float> x = Update(64, 0.8, 3);
  const CepamMessage msg = CepamEncode(cfg, x, ctx, 0);
  std::vector<double> y(64);
  for (std::uint64_t cut : {std::uint64_t{1}, std::uint64_t{7}, msg.bits / 2}) {
    CepamMessage t = msg;
    t.bits -= cut;
    t.words.resize((t.bits + 63) / 64);
    if (t.bits % 64) t.words.back() &= (std::uint64_t{1} << (t.bits % 64)) - 1;
    EXPECT_THROW(CepamDecode(cfg, t, ctx, 0, y), InvalidArgument) << "cut " << cut;
  }
  CepamMessage extra = msg;  // trailing bits
  extra.bits += 3;
  extra.words.resize((extra.bits + 63) / 64);
  EXPECT_THROW(CepamDecode(cfg, extra, ctx, 0, y), InvalidArgument);
  CepamMessage padded = msg;  // nonzero padding
  if (padded.bits % 64) {
    padded.words.back() |= std::uint64_t{1} << 63;
    EXPECT_THROW(CepamDecode(cfg, padded, ctx, 0, y), InvalidArgument);
  }
  CepamMessage words = msg;
  words.words.push_back(0);
  EXPECT_THROW(CepamDecode(cfg, words, ctx, 0, y), InvalidArgument);
  std::vector<double> wrong(63);
  EXPECT_THROW(CepamDecode(cfg, msg, ctx, 0, wrong), InvalidArgument);
  // Every single-bit corruption either throws InvalidArgument or decodes to finite values.
  for (std::uint64_t b = 0; b < msg.bits; ++b) {
    CepamMessage c = msg;
    c.words[b / 64] ^= std::uint64_t{1} << (b % 64);
    try {
      CepamDecode(cfg, c, ctx, 0, y);
      for (double v : y) EXPECT_TRUE(std::isfinite(v));
    } catch (const InvalidArgument&) {
    }
  }
}

TEST(CepamCodec, NoDitherOrLayerIsSharedAcrossRoundsOrClients) {
  const CepamConfig cfg = Config(CepamKind::kGaussian, 1, 0.3, 1.0);
  const std::size_t m = 200;
  const std::vector<float> x = Update(m, 0.5, 8);
  auto errors = [&](std::uint32_t round, std::uint32_t client) {
    const StreamContext ctx = Context(rng::Generator::kChaCha20, 21, round);
    const CepamMessage msg = CepamEncode(cfg, x, ctx, client);
    std::vector<double> y(m);
    CepamDecode(cfg, msg, ctx, client, y);
    for (std::size_t i = 0; i < m; ++i) y[i] -= x[i];
    return y;
  };
  const std::vector<double> a = errors(1, 0);
  EXPECT_EQ(a, errors(1, 0));  // deterministic given the address
  for (const auto& other : {errors(2, 0), errors(1, 1)}) {
    std::size_t equal = 0;
    for (std::size_t i = 0; i < m; ++i) equal += a[i] == other[i];
    EXPECT_EQ(equal, 0u);
  }
  // The dither addresses of two rounds differ in the round field (reuse is impossible by construction).
  StreamContext r1 = Context(rng::Generator::kChaCha20, 21, 1), r2 = r1;
  r2.round = 2;
  EXPECT_NE(cepam::DitherAddress<NoCepamFaults>(r1, 0).round, cepam::DitherAddress<NoCepamFaults>(r2, 0).round);
}

TEST(CepamCodec, AcceptanceProbabilitiesMatchTheReference) {
  for (int n = 1; n <= 8; ++n) {
    for (double c : {1.0, 1.25, 2.0}) {
      const double p = CepamAcceptanceProbability(Config(CepamKind::kGaussian, n, 1.0, 1.0, c));
      const Enclosure exact = ref::GaussianAcceptance(n, Rational(c), 200);
      EXPECT_NEAR(p, exact.MidDouble(), 1e-15 * exact.MidDouble()) << "n=" << n << " c=" << c;
    }
  }
  EXPECT_EQ(CepamAcceptanceProbability(Config(CepamKind::kLaplace, 1, 1.0, 1.0, 2.0)), 0.5);
  EXPECT_TRUE(CepamAlwaysAccepts(Config(CepamKind::kGaussian, 1, 1.0, 1.0)));
  EXPECT_TRUE(CepamAlwaysAccepts(Config(CepamKind::kLaplace, 1, 1.0, 1.0)));
  EXPECT_FALSE(CepamAlwaysAccepts(Config(CepamKind::kGaussian, 2, 1.0, 1.0)));
  EXPECT_FALSE(CepamAlwaysAccepts(Config(CepamKind::kLaplace, 1, 1.0, 1.0, 1.5)));
}

TEST(CepamCodec, GolombCodeRoundTripsForEveryParameter) {
  for (std::uint64_t mg : {1u, 2u, 3u, 5u, 8u, 13u}) {
    cepam::BitWriter w;
    for (std::uint64_t v = 0; v < 100; ++v) cepam::PutGolomb(w, v, mg);
    CepamMessage msg;
    msg.bits = w.bits();
    msg.words = w.words();
    cepam::BitReader rd(msg);
    for (std::uint64_t v = 0; v < 100; ++v) ASSERT_EQ(cepam::GetGolomb(rd, mg, 1000), v) << "mg=" << mg;
    EXPECT_EQ(rd.position(), msg.bits);
  }
}

TEST(CepamCodec, BadInputIsRejectedWithTheArgumentNamed) {
  const StreamContext ctx = Context(rng::Generator::kChaCha20, 1, 1);
  const std::vector<float> x = {0.1f, 0.2f};
  auto arg = [&](const CepamConfig& cfg, const std::vector<float>& v) -> std::string {
    try {
      CepamEncode(cfg, v, ctx, 0);
    } catch (const InvalidArgument& e) {
      return e.argument();
    }
    return "";
  };
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 0, 1, 1), x), "lattice-dim");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 9, 1, 1), x), "lattice-dim");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 1, 0, 1), x), "sigma");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 1, -1, 1), x), "sigma");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 1, NAN, 1), x), "sigma");
  EXPECT_EQ(arg(Config(CepamKind::kLaplace, 1, 0, 1), x), "b");
  EXPECT_EQ(arg(Config(CepamKind::kSdq, 1, INFINITY, 1), x), "alpha");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 1, 1, 0), x), "clip");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 1, 1, 1, 0.99), x), "c");
  EXPECT_EQ(arg(Config(CepamKind::kRsuq, 1, 1, 1, 1, 0.6), x), "rho");
  EXPECT_EQ(arg(Config(CepamKind::kRsuq, 1, 1, 1, 1, 0), x), "rho");
  // Acceptance below 2^-16: over 65,536 expected trials per block.
  EXPECT_EQ(arg(Config(CepamKind::kRsuq, 2, 1, 1, 1, 1e-3), x), "rho");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 8, 1, 1, 3.0), x), "c");  // V_8/6^8 = 2.4e-6
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 8, 1, 1, 1.5), x), "");   // V_8/3^8 = 6.2e-4
  EXPECT_EQ(arg(Config(CepamKind::kLaplace, 4, 1, 1), x), "lattice-dim");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 1, 1, 1), {0.1f, NAN}), "x");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 1, 1, 1), {0.1f, INFINITY}), "x");
  EXPECT_EQ(arg(Config(CepamKind::kGaussian, 1, 1, 0.1), x), "x");  // norm above the clip
  std::vector<float> big = {3.0f, 4.0f};
  EXPECT_DOUBLE_EQ(ClipToNorm(big, 1.0), 5.0);
  EXPECT_LE(std::hypot(static_cast<double>(big[0]), static_cast<double>(big[1])), 1.0);
  EXPECT_NO_THROW(CepamEncode(Config(CepamKind::kGaussian, 2, 1, 1), big, ctx, 0));
  std::vector<float> nan = {NAN};
  EXPECT_THROW(ClipToNorm(nan, 1.0), InvalidArgument);
  EXPECT_THROW(ClipToNorm(big, 0.0), InvalidArgument);
  // Empty update: an empty message that decodes to nothing.
  const CepamMessage empty = CepamEncode(Config(CepamKind::kGaussian, 2, 1, 1), {}, ctx, 0);
  EXPECT_EQ(empty.bits, 0u);
  std::vector<double> none;
  EXPECT_NO_THROW(CepamDecode(Config(CepamKind::kGaussian, 2, 1, 1), empty, ctx, 0, none));
}

}  // namespace
}  // namespace dpfl::quant
