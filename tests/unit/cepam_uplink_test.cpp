// The seed-002 uplink (dpfl/fl/cepam_uplink.hpp): what each mechanism sends and what the server
// reconstructs. Exact properties (fl is lossless, clipping to γ, SDQ error within α/2, the noise
// and SDQ composition, stream separation, bad input) and the law of the reconstruction error of
// fl-gaussian, fl-laplace and cepam-gaussian/-laplace through the uplink: one-sample KS against the
// reference's exact CDF (tests/testing/cepam_harness.hpp MarginalCdf). Each KS test has false-alarm
// probability 10^-6 (4 tests: family-wise ≤ 4·10^-6, Bonferroni); n = 40,000 errors each, so the
// 10^-6 critical value is D ≈ 0.0134 and a 10 % error in the noise scale (D ≈ 0.024 for the
// Gaussian, ≈ 0.035 for the Laplace) is detected with probability > 0.999.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/fl/cepam_uplink.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "testing/cepam_harness.hpp"
#include "testing/stat.hpp"

namespace {

using dpfl::fl::CepamFlMechanism;
using dpfl::fl::CepamUplinkConfig;
using dpfl::fl::DecodeCepamUplink;
using dpfl::fl::EncodeCepamUplink;

const dpfl::rng::StreamKey kKey = dpfl::fl::DeriveKey(20261126, "cepam-uplink-test");

CepamUplinkConfig Config(CepamFlMechanism m) {
  CepamUplinkConfig c;
  c.mechanism = m;
  c.clip = 1.0;
  c.sigma = 0.05;
  c.b = 0.05;
  c.sdq_step = 0.01;
  return c;
}

std::vector<float> Ramp(std::size_t m, float scale) {
  std::vector<float> x(m);
  for (std::size_t i = 0; i < m; ++i) x[i] = scale * std::sin(0.37f * static_cast<float>(i) + 0.1f);
  return x;
}

double Norm(const std::vector<float>& x) {
  double s = 0;
  for (float v : x) s += static_cast<double>(v) * v;
  return std::sqrt(s);
}

TEST(CepamUplink, FlIsLosslessAndSends32BitsPerParameter) {
  const CepamUplinkConfig c = Config(CepamFlMechanism::kFl);
  const std::vector<float> x = Ramp(1000, 3.0f);  // far above any clip: fl does not clip
  dpfl::fl::CepamClientReport rep;
  const auto msg = EncodeCepamUplink(c, x, kKey, 3, 0, &rep);
  EXPECT_EQ(msg.Bits(), 32u * 1000);
  EXPECT_FALSE(rep.clipped);
  const auto y = DecodeCepamUplink(c, msg, kKey, 0, 1000);
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], static_cast<double>(x[i])) << i;
}

TEST(CepamUplink, SdqClipsAndErrsByAtMostHalfAStep) {
  const CepamUplinkConfig c = Config(CepamFlMechanism::kFlSdq);
  std::vector<float> x = Ramp(500, 1.0f);  // ‖x‖ ≈ 15.8 > γ = 1
  dpfl::fl::CepamClientReport rep;
  const auto msg = EncodeCepamUplink(c, x, kKey, 1, 2, &rep);
  EXPECT_TRUE(rep.clipped);
  EXPECT_NEAR(rep.update_norm, Norm(x), 1e-9 * Norm(x));
  EXPECT_LT(msg.Bits(), 32u * 500);
  EXPECT_FALSE(msg.bound_exponent.has_value());
  dpfl::quant::ClipToNorm(x, c.clip);
  const auto y = DecodeCepamUplink(c, msg, kKey, 2, 500);
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_LE(std::fabs(y[i] - x[i]), c.sdq_step / 2 * (1 + 1e-12)) << i;
}

TEST(CepamUplink, NoiseThenSdqIsTheNoisedUpdateWithinHalfAStep) {
  for (const auto& [noisy, quantized] : {std::pair{CepamFlMechanism::kFlGaussian, CepamFlMechanism::kFlGaussianSdq},
                                        std::pair{CepamFlMechanism::kFlLaplace, CepamFlMechanism::kFlLaplaceSdq}}) {
    const std::vector<float> x = Ramp(300, 0.02f);
    const auto a = EncodeCepamUplink(Config(noisy), x, kKey, 4, 7);
    const auto b = EncodeCepamUplink(Config(quantized), x, kKey, 4, 7);
    ASSERT_TRUE(b.bound_exponent.has_value());
    EXPECT_EQ(b.Bits(), b.coded.bits + 8);  // the norm-bound header
    const auto ya = DecodeCepamUplink(Config(noisy), a, kKey, 7, 300);
    const auto yb = DecodeCepamUplink(Config(quantized), b, kKey, 7, 300);
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_LE(std::fabs(ya[i] - yb[i]), 0.005 * (1 + 1e-9)) << i;
  }
}

TEST(CepamUplink, StreamsAreSeparatedByClientAndRoundAndReproducible) {
  for (CepamFlMechanism m : {CepamFlMechanism::kFlGaussian, CepamFlMechanism::kCepamGaussian}) {
    const CepamUplinkConfig c = Config(m);
    const std::vector<float> x = Ramp(64, 0.01f);
    const auto base = DecodeCepamUplink(c, EncodeCepamUplink(c, x, kKey, 1, 1), kKey, 1, 64);
    EXPECT_EQ(base, DecodeCepamUplink(c, EncodeCepamUplink(c, x, kKey, 1, 1), kKey, 1, 64));
    EXPECT_NE(base, DecodeCepamUplink(c, EncodeCepamUplink(c, x, kKey, 2, 1), kKey, 1, 64));
    EXPECT_NE(base, DecodeCepamUplink(c, EncodeCepamUplink(c, x, kKey, 1, 2), kKey, 2, 64));
  }
}

// Errors X̂ − X̃ of `m` coordinates (X̃ = the clipped update as the client encodes it).
std::vector<double> Errors(const CepamUplinkConfig& c, std::size_t m) {
  std::vector<float> x = Ramp(m, 0.004f);  // ‖x‖ ≈ 0.57 ≤ γ: not clipped
  const auto y = DecodeCepamUplink(c, EncodeCepamUplink(c, x, kKey, 9, 3), kKey, 3, m);
  std::vector<double> e(m);
  for (std::size_t i = 0; i < m; ++i) e[i] = y[i] - static_cast<double>(x[i]);
  return e;
}

TEST(CepamUplink, ReconstructionErrorsFollowTheExactLaws) {
  constexpr double kAlpha = 1e-6;
  constexpr std::size_t kN = 40000;
  struct Case {
    CepamFlMechanism mechanism;
    int n;
    dpfl::quant::CepamKind law;
  };
  for (const Case& k : {Case{CepamFlMechanism::kFlGaussian, 1, dpfl::quant::CepamKind::kGaussian},
                        Case{CepamFlMechanism::kFlLaplace, 1, dpfl::quant::CepamKind::kLaplace},
                        Case{CepamFlMechanism::kCepamGaussian, 3, dpfl::quant::CepamKind::kGaussian},
                        Case{CepamFlMechanism::kCepamLaplace, 1, dpfl::quant::CepamKind::kLaplace}}) {
    CepamUplinkConfig c = Config(k.mechanism);
    c.lattice_dim = k.n;
    dpfl::quant::CepamConfig law;
    law.kind = k.law;
    law.scale = k.law == dpfl::quant::CepamKind::kGaussian ? c.sigma : c.b;
    std::vector<double> u;
    for (double e : Errors(c, kN)) u.push_back(dpfl::testing::cepam::MarginalCdf(law, e));
    const auto ks = dpfl::testing::stat::KsFromCdf(u);
    EXPECT_GT(ks.p_value, kAlpha) << dpfl::fl::CepamFlMechanismName(k.mechanism) << " D = " << ks.statistic;
    // Teeth: the same errors against a law 10 % too wide are rejected.
    law.scale *= 1.1;
    u.clear();
    for (double e : Errors(c, kN)) u.push_back(dpfl::testing::cepam::MarginalCdf(law, e));
    EXPECT_LT(dpfl::testing::stat::KsFromCdf(u).p_value, kAlpha) << dpfl::fl::CepamFlMechanismName(k.mechanism);
  }
}

TEST(CepamUplink, BadInputIsRejected) {
  const CepamUplinkConfig g = Config(CepamFlMechanism::kCepamGaussian);
  std::vector<float> x = Ramp(10, 0.01f);
  x[4] = std::nanf("");
  EXPECT_THROW(EncodeCepamUplink(g, x, kKey, 0, 0), dpfl::InvalidArgument);
  const auto msg = EncodeCepamUplink(g, Ramp(10, 0.01f), kKey, 0, 0);
  EXPECT_THROW(DecodeCepamUplink(g, msg, kKey, 0, 11), dpfl::InvalidArgument);  // wrong m
  auto truncated = msg;
  truncated.coded.words.resize(0);
  EXPECT_THROW(DecodeCepamUplink(g, truncated, kKey, 0, 10), dpfl::InvalidArgument);
  auto headed = msg;
  headed.bound_exponent = 3;  // a header this mechanism never sends
  EXPECT_THROW(DecodeCepamUplink(g, headed, kKey, 0, 10), dpfl::InvalidArgument);
  const auto q = EncodeCepamUplink(Config(CepamFlMechanism::kFlGaussianSdq), Ramp(10, 0.01f), kKey, 0, 0);
  auto headless = q;
  headless.bound_exponent.reset();
  EXPECT_THROW(DecodeCepamUplink(Config(CepamFlMechanism::kFlGaussianSdq), headless, kKey, 0, 10), dpfl::InvalidArgument);

  const auto rejects = [](CepamUplinkConfig c, const std::string& flag) {
    try {
      dpfl::fl::ValidateCepamUplink(c);
      ADD_FAILURE() << "accepted, expected " << flag;
    } catch (const dpfl::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
  };
  CepamUplinkConfig c = g;
  c.sigma = -1;
  rejects(c, "--sigma");
  c = Config(CepamFlMechanism::kCepamLaplace);
  c.b = std::nan("");
  rejects(c, "--b");
  c = Config(CepamFlMechanism::kCepamLaplace);
  c.lattice_dim = 2;
  rejects(c, "--lattice-dim");
  c = g;
  c.lattice_dim = 4;
  rejects(c, "--lattice-dim");
  c = g;
  c.clip = 0;
  rejects(c, "--clip");
  c = Config(CepamFlMechanism::kFlSdq);
  c.sdq_step = INFINITY;
  rejects(c, "--sdq-step");
  EXPECT_THROW(dpfl::fl::ParseCepamFlMechanism("cepam"), dpfl::InvalidArgument);
}

}  // namespace
