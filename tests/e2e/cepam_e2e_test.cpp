// End-to-end test of `dpfl train --mechanism cepam-gaussian|cepam-laplace|fl-*` (seed 002) through
// the real binary, on the synthetic data set with the seed's MLP shape (cepam-mlp): the run is
// deterministic; the noise calibrated to a per-round (ε, δ) target meets it in Theorem 12 as
// printed; its certificate verifies and replays bit for bit; bits per parameter are measured from
// the bitstream (< 32, and equal to the sum of the rounds); the per-client guarantee against the
// server is weaker than the trusted-server one; forgeries are caught with a recomputed digest;
// the vacuous target of E-P3 and bad flags exit 2 naming the flag. Label e2e.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "testing/forgery.hpp"
#include "testing/subprocess.hpp"

namespace {

namespace fs = std::filesystem;
using dpfl::testing::RunProgram;
using json = nlohmann::json;

const std::string kDpfl = DPFL_BINARY;

std::string Scratch() {
  static const std::string dir = dpfl::testing::ProcessScratchDir("dpfl_cepam_e2e_");
  return dir;
}
std::string ReadBytes(const std::string& path) { return dpfl::testing::ReadFileBytes(path); }

// 1000 synthetic samples: 640 for training, K = 5 clients of n_k = 128.
std::vector<std::string> Train(const std::string& out, const std::vector<std::string>& extra, const std::string& rounds = "3") {
  std::vector<std::string> args = {"train", "--dataset", "synthetic", "--synthetic-samples", "1000", "--model", "cepam-mlp",
                                   "--clients", "5", "--rounds", rounds, "--seed", "7", "--out", out, "--quiet", "--no-plots",
                                   "--workers", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}
const std::vector<std::string> kGaussian = {"--mechanism", "cepam-gaussian", "--lattice-dim", "2", "--clip", "0.05",
                                            "--eps", "2", "--delta", "1e-6"};

const std::string& Genuine() {
  static const std::string dir = [] {
    const std::string d = Scratch() + "genuine";
    const auto r = RunProgram(kDpfl, Train(d, kGaussian), Scratch());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return d;
  }();
  return dir;
}

using dpfl::testing::Verdict;
Verdict Verify(const std::string& dir, const std::vector<std::string>& extra = {}) {
  return dpfl::testing::VerifyRun(kDpfl, dir, Scratch(), extra);
}

std::string Forged(const std::string& name, json cert) {
  return dpfl::testing::ForgedCopy(Genuine(), Scratch() + name, std::move(cert));
}

double Hi(const json& row) { return std::stod(row["epsilon_hi"].get<std::string>()); }
// strtod, not stod: a corrected δ can be far below the smallest double (it then reads as 0).
double Delta(const json& row) { return std::strtod(row["delta"].get<std::string>().c_str(), nullptr); }

TEST(CepamE2e, CalibratedRunVerifiesReplaysAndMeasuresBits) {
  const std::string again = Scratch() + "again";
  const auto r = RunProgram(kDpfl, Train(again, kGaussian), Scratch());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json summary = json::parse(r.out);
  EXPECT_EQ(summary["parameters"], 64 * 32 + 32 + 32 * 16 + 16 + 16 * 10 + 10);  // cepam-mlp on 1x8x8
  EXPECT_EQ(summary["n_k"], 128);
  EXPECT_EQ(summary["noise"], "calibrated");
  EXPECT_EQ(ReadBytes(again + "/final_weights.bin"), ReadBytes(Genuine() + "/final_weights.bin"));

  const json cert = json::parse(ReadBytes(Genuine() + "/certificate.json"));
  const json& comm = cert["communication"];
  const double bpp = comm["bits_per_parameter"].get<double>();
  EXPECT_GT(bpp, 1.0);
  EXPECT_LT(bpp, 32.0);
  std::uint64_t sum = 0;
  for (const auto& round : cert["rounds"]) sum += round["uplink_bits"].get<std::uint64_t>();
  EXPECT_EQ(sum, comm["uplink_bits_total"].get<std::uint64_t>());
  // n = 2 with c = 1: p_acc = π/4, so E[h] = 4/π ≈ 1.2732 trials per block. Over the run's 20,835
  // blocks the mean's sd is √((1 − p)/p²/20835) ≈ 0.0040, so the ±0.05 band is 12 sd wide (false alarm
  // < 10^−30); the mutants of docs/mutants.md that change p_acc (c < 1, α-scaled step) move E[h] by far more.
  EXPECT_NEAR(comm["mean_trials_per_block"].get<double>(), 1.2732, 0.05);
  EXPECT_GT(comm["h_bits"].get<std::uint64_t>(), 0u);

  const json& g = cert["privacy"]["guarantees"];
  ASSERT_EQ(g.size(), 6u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_TRUE(g[i]["applies"].get<bool>()) << g[i].dump();
    EXPECT_LE(Hi(g[i]), 2.0 * (g[i]["composition"].get<std::string>().rfind("T rounds", 0) == 0 ? 3 : 1) + 1e-12);
  }
  // The server holds the shared randomness (layer and dithers): with n = 2 no bound is computed.
  EXPECT_NE(g[5]["notion"].get<std::string>().find("shared randomness"), std::string::npos);
  EXPECT_FALSE(g[5]["applies"].get<bool>());
  EXPECT_NE(g[3]["observer"].get<std::string>().find("not the server"), std::string::npos);
  EXPECT_LE(Delta(g[0]), 1e-6);                  // the calibration target, in Theorem 12 as printed
  EXPECT_EQ(cert["privacy"]["target"]["calibration"], "printed");
  EXPECT_TRUE(cert["privacy"]["target"]["met"].get<bool>());
  EXPECT_LE(Delta(g[1]), Delta(g[0]));          // corrected (E-P2, E-P4) is tighter
  EXPECT_GT(Delta(g[3]), 100 * Delta(g[1]));    // per client vs the server: far weaker
  EXPECT_NEAR(Delta(g[4]), 3 * Delta(g[3]), 1e-9 * Delta(g[3]) + 1e-300);  // 3 rounds

  const Verdict v = Verify(Genuine(), {"--replay"});
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_TRUE(v.out["verified"].get<bool>());
  EXPECT_EQ(v.out["replay"]["rounds_matched"], 3);
  EXPECT_TRUE(v.out["replay"]["weights_match"].get<bool>());
}

TEST(CepamE2e, ForgeriesAreRejectedEvenWithARecomputedDigest) {
  const json cert = json::parse(ReadBytes(Genuine() + "/certificate.json"));
  {  // a smaller δ in a row
    json c = cert;
    c["privacy"]["guarantees"][3]["delta"] = "1e-12";
    const Verdict v = Verify(Forged("delta", c));
    EXPECT_EQ(v.exit_code, 1);
    EXPECT_NE(v.err.find("privacy"), std::string::npos) << v.err;
  }
  {  // a larger σ than was used (privacy recomputed consistently, so the calibration check catches it)
    json c = cert;
    c["configuration"]["sigma"] = c["configuration"]["sigma"].get<double>() * 2;
    c["privacy"]["sigma"] = c["configuration"]["sigma"];
    const Verdict v = Verify(Forged("sigma", c));
    EXPECT_EQ(v.exit_code, 1);
  }
  {  // a larger n_k (more amplification) than the data set gives
    json c = cert;
    c["configuration"]["n_k"] = 1000;
    const Verdict v = Verify(Forged("nk", c));
    EXPECT_EQ(v.exit_code, 1);
    EXPECT_NE(v.err.find("n_k"), std::string::npos) << v.err;
  }
  {  // the weights changed
    const std::string dir = Forged("weights", cert);
    std::string bytes = ReadBytes(dir + "/final_weights.bin");
    bytes[5] = static_cast<char>(bytes[5] ^ 1);
    dpfl::testing::WriteFileBytes(dir + "/final_weights.bin", bytes);
    const Verdict v = Verify(dir);
    EXPECT_EQ(v.exit_code, 1);
    EXPECT_NE(v.err.find("final_weights.bin"), std::string::npos) << v.err;
  }
}

TEST(CepamE2e, CalibrationRowsOrderTheNoise) {
  // The same (eps, delta) target met by three rows: corrected (Delta2 = 2 gamma/K, sigma/sqrt(K)) needs the least
  // noise, the server row (Delta2 = 2 gamma, sigma) more, the printed (16) (Delta2 = 2 tau gamma/K) the most here.
  std::map<std::string, double> sigma;
  for (const std::string mode : {"printed", "corrected", "server"}) {
    const std::string dir = Scratch() + "cal-" + mode;
    const auto r = RunProgram(kDpfl, Train(dir, {"--mechanism", "fl-gaussian", "--clip", "0.05", "--eps", "2", "--delta",
                                                 "1e-6", "--calibration", mode}, "1"), Scratch());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
    EXPECT_EQ(cert["privacy"]["target"]["calibration"], mode);
    EXPECT_TRUE(cert["privacy"]["target"]["met"].get<bool>()) << mode;
    sigma[mode] = cert["configuration"]["sigma"].get<double>();
    EXPECT_EQ(Verify(dir).exit_code, 0) << mode;
  }
  EXPECT_LT(sigma["corrected"], sigma["server"]);
  EXPECT_LT(sigma["server"], sigma["printed"]);
  // CEPAM against the server, which holds the shared randomness (n = 1): only the (0, delta) bound
  // p_s sqrt(2/pi) gamma sqrt(m)/sigma applies, so the server target needs far more noise.
  const std::string dir = Scratch() + "cal-cepam-server";
  const auto r = RunProgram(kDpfl, Train(dir, {"--mechanism", "cepam-gaussian", "--clip", "0.05", "--eps", "2", "--delta",
                                               "1e-6", "--calibration", "server"}, "1"), Scratch());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
  EXPECT_TRUE(cert["privacy"]["target"]["met"].get<bool>());
  EXPECT_NE(cert["privacy"]["target"]["row"].get<std::string>().find("shared randomness"), std::string::npos);
  EXPECT_GT(cert["configuration"]["sigma"].get<double>(), 1000 * sigma["server"]);
  EXPECT_EQ(Verify(dir).exit_code, 0);
}

TEST(CepamE2e, LaplaceAndBaselines) {
  {  // CEPAM-Laplace calibrated by the corrected scale b = 2 tau gamma sqrt(m)/eps~ (E-P5)
    const std::string dir = Scratch() + "laplace";
    const auto r = RunProgram(kDpfl, Train(dir, {"--mechanism", "cepam-laplace", "--eps", "8"}, "2"), Scratch());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
    const json& g = cert["privacy"]["guarantees"];
    ASSERT_EQ(g.size(), 5u);
    EXPECT_FALSE(g[0]["applies"].get<bool>());  // as printed: not a guarantee under l2 clipping
    EXPECT_LE(Hi(g[1]), 8.0);                    // the corrected row meets the target
    EXPECT_LE(Hi(g[2]), Hi(g[1]));
    // n = 1: the server, holding the shared randomness, gets only (0, p_s min(1, gamma sqrt(m)/b)).
    EXPECT_TRUE(g[4]["applies"].get<bool>());
    EXPECT_EQ(g[4]["epsilon_hi"], "0");
    const double p_s = std::stod(cert["privacy"]["p_s"].get<std::string>());
    const double bound = std::sqrt(cert["configuration"]["parameters"].get<double>()) / cert["configuration"]["b"].get<double>();
    EXPECT_NEAR(Delta(g[4]), p_s * std::min(1.0, bound), 1e-9);
    EXPECT_EQ(Verify(dir).exit_code, 0);
  }
  for (const std::string mech : {"fl", "fl-sdq", "fl-gaussian-sdq"}) {
    const std::string dir = Scratch() + mech;
    std::vector<std::string> extra = {"--mechanism", mech};
    if (mech == "fl-gaussian-sdq") extra.insert(extra.end(), {"--sigma", "0.01"});
    const auto r = RunProgram(kDpfl, Train(dir, extra, "1"), Scratch());
    ASSERT_EQ(r.exit_code, 0) << mech << r.err;
    const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
    const double bpp = cert["communication"]["bits_per_parameter"].get<double>();
    if (mech == "fl") {
      EXPECT_EQ(bpp, 32.0);
      EXPECT_EQ(cert["privacy"]["guarantees"][0]["notion"], "none");
    } else {
      EXPECT_LT(bpp, 32.0) << mech;
    }
    EXPECT_EQ(Verify(dir).exit_code, 0) << mech;
  }
}

TEST(CepamE2e, VacuousTargetAndBadFlagsExit2NamingTheFlag) {
  const std::string out = Scratch() + "bad";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      // E-P3: δ above Theorem 12's sigma -> 0 floor (p_s ≈ 0.11 here) would certify no noise.
      {Train(out, {"--mechanism", "cepam-gaussian", "--eps", "1", "--delta", "0.5"}), "--delta"},
      {Train(out, {"--mechanism", "cepam-gaussian"}), "--sigma"},
      {Train(out, {"--mechanism", "cepam-gaussian", "--sigma", "-1"}), "--sigma"},
      {Train(out, {"--mechanism", "cepam-gaussian", "--sigma", "0.1", "--lattice-dim", "4"}), "--lattice-dim"},
      {Train(out, {"--mechanism", "cepam-laplace", "--b", "0.1", "--lattice-dim", "2"}), "--lattice-dim"},
      {Train(out, {"--mechanism", "cepam-laplace", "--b", "0.1", "--sigma", "0.1"}), "--sigma"},
      {Train(out, {"--mechanism", "cepam-gaussian", "--sigma", "0.1", "--clip", "0"}), "--clip"},
      {Train(out, {"--mechanism", "cepam-gaussian", "--sigma", "0.1", "--eps-p", "1"}), "--eps-p"},
      {Train(out, {"--mechanism", "cepam-gaussian", "--sigma", "0.1", "--batch", "8"}), "--batch"},
      {Train(out, {"--mechanism", "fl", "--eps", "1"}), "--eps"},
      {Train(out, {"--mechanism", "cepam-gaussian", "--sigma", "0.1", "--calibration", "corrected"}), "--calibration"},
      {Train(out, {"--mechanism", "cepam-gaussian", "--eps", "1", "--calibration", "tight"}), "--calibration"},
      {Train(out, {"--mechanism", "cepam-gaussian", "--eps", "1", "--delta", "0.2", "--calibration", "server"}), "--delta"},
      {Train(out, {"--mechanism", "corbin-fl", "--clip", "1"}), "--clip"},
  };
  for (const auto& [args, flag] : cases) {
    const auto r = RunProgram(kDpfl, args, Scratch());
    EXPECT_EQ(r.exit_code, 2) << flag << "\n" << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out + "/certificate.json"));
  }
}

}  // namespace
