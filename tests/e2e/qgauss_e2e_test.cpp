// End-to-end test of `dpfl train --mechanism qgauss|qgauss-gaussian|qgauss-vanilla` (seed 003)
// through the real binary, on the synthetic data set: the run is deterministic; its certificate
// verifies and replays bit for bit; the message size is ⌈log2 k⌉ bits per parameter, measured;
// the client-level ε is the one an independent computation gives (ρ = C²/(2σ̃²) per round, with
// σ̃ = σ here: σL/(2C) is an integer) and no larger than the Bun–Steinke conversion of T·ρ;
// Poisson client sampling lowers it; forgeries are caught with a recomputed digest; bad flags exit 2
// naming the flag. Label e2e.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "testing/forgery.hpp"
#include "testing/subprocess.hpp"

namespace {

using dpfl::testing::RunProgram;
using json = nlohmann::json;

const std::string kDpfl = DPFL_BINARY;

std::string Scratch() {
  static const std::string dir = dpfl::testing::ProcessScratchDir("dpfl_qgauss_e2e_");
  return dir;
}
std::string ReadBytes(const std::string& path) { return dpfl::testing::ReadFileBytes(path); }

std::vector<std::string> Train(const std::string& out, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"train", "--dataset", "synthetic", "--synthetic-samples", "800", "--clients", "4",
                                   "--rounds", "3", "--seed", "5", "--out", out, "--quiet", "--no-plots", "--workers", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}
// σ = 1/2, C = 1, k = 4: L = 3·2^16, σL/(2C) = 49152 exactly, so σ̃ = σ and ρ = C²/(2σ²) = 2.
const std::vector<std::string> kQgauss = {"--mechanism", "qgauss", "--levels", "4", "--sigma", "0.5", "--clip", "1"};

const std::string& Genuine() {
  static const std::string dir = [] {
    const std::string d = Scratch() + "genuine";
    const auto r = RunProgram(kDpfl, Train(d, kQgauss), Scratch());
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

TEST(QgaussE2e, RunVerifiesReplaysAndMeasuresBits) {
  const std::string again = Scratch() + "again";
  const auto r = RunProgram(kDpfl, Train(again, kQgauss), Scratch());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadBytes(again + "/final_weights.bin"), ReadBytes(Genuine() + "/final_weights.bin"));
  const json cert = json::parse(ReadBytes(Genuine() + "/certificate.json"));
  const double m = cert["configuration"]["parameters"].get<double>();
  // 2 bits per coordinate, packed into 64-bit words: ⌈2m/64⌉·64 bits per message.
  const double words = std::ceil(2 * m / 64);
  EXPECT_DOUBLE_EQ(cert["communication"]["bits_per_client_per_round"].get<double>(), 64 * words);
  EXPECT_EQ(cert["communication"]["messages"], 12);
  const json& g = cert["privacy"]["guarantees"];
  ASSERT_EQ(g.size(), 3u);
  EXPECT_TRUE(g[0]["applies"].get<bool>());
  EXPECT_EQ(cert["privacy"]["rho_per_round"], "2");
  // Bun–Steinke: ρ-zCDP ⇒ (ρ + 2√(ρ ln(1/δ)), δ)-DP; the improved RDP conversion is at most that.
  const double rho = 3 * 2.0, delta = 1e-5;
  const double bun_steinke = rho + 2 * std::sqrt(rho * std::log(1 / delta));
  EXPECT_LE(Hi(g[0]), bun_steinke);
  EXPECT_GT(Hi(g[0]), rho);  // and above the order-1 RDP value itself (δ = 10^−5 costs something)
  EXPECT_FALSE(g[2]["applies"].get<bool>());  // Theorem 2 is scalar
  const Verdict v = Verify(Genuine(), {"--replay"});
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_TRUE(v.out["verified"].get<bool>());
  EXPECT_EQ(v.out["replay"]["rounds_matched"], 3);
  EXPECT_TRUE(v.out["replay"]["weights_match"].get<bool>());
}

TEST(QgaussE2e, BaselinesAndPoissonSampling) {
  const json genuine = json::parse(ReadBytes(Genuine() + "/certificate.json"));
  {  // the Gaussian baseline at the same σ: the same guarantee, 32 bits per parameter
    const std::string dir = Scratch() + "gaussian";
    const auto r = RunProgram(kDpfl, Train(dir, {"--mechanism", "qgauss-gaussian", "--sigma", "0.5", "--clip", "1"}), Scratch());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
    EXPECT_EQ(cert["communication"]["bits_per_parameter"], 32.0);
    EXPECT_EQ(cert["privacy"]["rho_per_round"], "2");  // σL/(2C) = 2^16 at k = 2: σ̃ = σ again
    EXPECT_EQ(Verify(dir).exit_code, 0);
  }
  {  // vanilla: no guarantee
    const std::string dir = Scratch() + "vanilla";
    const auto r = RunProgram(kDpfl, Train(dir, {"--mechanism", "qgauss-vanilla"}), Scratch());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
    EXPECT_FALSE(cert["privacy"]["guarantees"][0]["applies"].get<bool>());
    EXPECT_EQ(Verify(dir, {"--replay"}).exit_code, 0);
  }
  {  // Poisson sampling q = 1/2: fewer messages, a smaller ε than full participation
    const std::string dir = Scratch() + "poisson";
    std::vector<std::string> extra = kQgauss;
    extra.insert(extra.end(), {"--client-sampling", "poisson:0.5"});
    const auto r = RunProgram(kDpfl, Train(dir, extra), Scratch());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
    EXPECT_LT(cert["communication"]["messages"].get<int>(), 12);
    EXPECT_LT(Hi(cert["privacy"]["guarantees"][0]), Hi(genuine["privacy"]["guarantees"][0]));
    EXPECT_EQ(cert["privacy"]["implemented_sampling_rate"], "0.5");
    const Verdict v = Verify(dir, {"--replay"});
    EXPECT_EQ(v.exit_code, 0) << v.err;
    EXPECT_TRUE(v.out["replay"]["weights_match"].get<bool>());
  }
}

TEST(QgaussE2e, ForgeriesAreRejectedEvenWithARecomputedDigest) {
  const json cert = json::parse(ReadBytes(Genuine() + "/certificate.json"));
  {  // a smaller ε in the main row
    json c = cert;
    c["privacy"]["guarantees"][0]["epsilon_hi"] = "1";
    EXPECT_EQ(Verify(Forged("eps", c)).exit_code, 1);
  }
  {  // a larger σ claimed, privacy recomputed consistently: the transcript h0 no longer matches
    json c = cert;
    c["configuration"]["sigma"] = 5.0;
    c["privacy"] = json();  // left stale on purpose: recomputation differs too
    EXPECT_EQ(Verify(Forged("sigma", c)).exit_code, 1);
  }
  {  // Poisson sampling claimed for a full-participation run
    json c = cert;
    c["configuration"]["client_sampling"] = "poisson:0.1";
    EXPECT_EQ(Verify(Forged("sampling", c)).exit_code, 1);
  }
  {  // the weights changed
    const std::string dir = Forged("weights", cert);
    std::string bytes = ReadBytes(dir + "/final_weights.bin");
    bytes[3] = static_cast<char>(bytes[3] ^ 1);
    dpfl::testing::WriteFileBytes(dir + "/final_weights.bin", bytes);
    const Verdict v = Verify(dir);
    EXPECT_EQ(v.exit_code, 1);
    EXPECT_NE(v.err.find("final_weights.bin"), std::string::npos) << v.err;
  }
}

TEST(QgaussE2e, BadFlagsExit2NamingTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--mechanism", "qgauss", "--levels", "4", "--clip", "1"}, "--sigma"},
      {{"--mechanism", "qgauss", "--levels", "1", "--sigma", "1"}, "--levels"},
      {{"--mechanism", "qgauss", "--levels", "70000", "--sigma", "1"}, "--levels"},
      {{"--mechanism", "qgauss", "--sigma", "0"}, "--sigma"},
      {{"--mechanism", "qgauss", "--sigma", "1", "--clip", "-1"}, "--clip"},
      {{"--mechanism", "qgauss", "--sigma", "1", "--client-sampling", "poisson:0"}, "--client-sampling"},
      {{"--mechanism", "qgauss", "--sigma", "1", "--client-sampling", "half"}, "--client-sampling"},
      {{"--mechanism", "qgauss", "--sigma", "1", "--eps-p", "1"}, "--eps-p"},
      {{"--mechanism", "qgauss", "--sigma", "1", "--delta", "2"}, "delta"},
      {{"--mechanism", "qgauss-gaussian", "--sigma", "1", "--levels", "4"}, "--levels"},
      {{"--mechanism", "qgauss-vanilla", "--sigma", "1"}, "--sigma"},
      {{"--mechanism", "corbin-fl", "--levels", "4"}, "--levels"},
      {{"--mechanism", "corbin-fl", "--client-sampling", "full"}, "--client-sampling"},
  };
  for (const auto& [extra, flag] : cases) {
    const auto r = RunProgram(kDpfl, Train(Scratch() + "bad", extra), Scratch());
    std::string shown;
    for (const auto& a : extra) shown += a + " ";
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << shown << "\n" << r.err;
  }
}

}  // namespace
