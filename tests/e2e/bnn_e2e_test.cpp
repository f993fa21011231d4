// End-to-end test of `dpfl train --mechanism dpfl-bnn` (seed 004) through the real binary, on the
// synthetic data set with the tiny binary network: the run is deterministic; its certificate
// verifies, replays bit for bit, and every guarantee row has its notion; forgeries are caught
// even with a recomputed digest (an ε, the RR bias, a client model); the no-noise baseline has
// no applicable guarantee; bad flags exit 2 naming the flag. Label e2e; kept under 2 minutes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
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
  static const std::string dir = dpfl::testing::ProcessScratchDir("dpfl_bnn_e2e_");
  return dir;
}
std::string ReadBytes(const std::string& path) { return dpfl::testing::ReadFileBytes(path); }

using dpfl::testing::Redigest;  // what a forger does (testing/forgery.hpp)

std::vector<std::string> Train(const std::string& out, const std::vector<std::string>& extra = {"--rr-gamma", "0.25"}) {
  std::vector<std::string> args = {"train", "--dataset", "synthetic", "--synthetic-samples", "600", "--mechanism",
                                   "dpfl-bnn", "--model", "bnn", "--clients", "4", "--rounds", "3", "--local-steps", "4",
                                   "--batch", "32", "--optimizer", "adam", "--lr", "0.01", "--seed", "5", "--eval-clients", "2",
                                   "--eval-samples", "100", "--out", out,
                                   "--quiet", "--no-plots"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

const std::string& Genuine() {
  static const std::string dir = [] {
    const std::string d = Scratch() + "genuine";
    const auto r = RunProgram(kDpfl, Train(d), Scratch());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return d;
  }();
  return dir;
}

using dpfl::testing::Verdict;
Verdict Verify(const std::string& dir, const std::vector<std::string>& extra = {}) {
  return dpfl::testing::VerifyRun(kDpfl, dir, Scratch(), extra);
}

// A copy of the genuine run whose certificate is `cert` (redigested, as a forger would).
std::string Forged(const std::string& name, json cert) {
  return dpfl::testing::ForgedCopy(Genuine(), Scratch() + name, std::move(cert));
}

TEST(BnnE2e, RunIsDeterministicAndItsCertificateVerifiesAndReplays) {
  const std::string again = Scratch() + "again";
  const auto r = RunProgram(kDpfl, Train(again), Scratch());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json summary = json::parse(r.out);
  EXPECT_EQ(summary["model"], "bnn-tiny");
  EXPECT_EQ(summary["latents"], 64 * 32 + 32 * 10);  // every binarized weight; BN stays local (E28)
  EXPECT_EQ(summary["communication"]["binarized_weights_per_client_per_round"], summary["latents"]);
  EXPECT_EQ(summary["communication"]["upload_bits_per_client_per_round"], 64 * 37);  // ⌈2368/64⌉ packed words
  EXPECT_EQ(ReadBytes(again + "/final_models.bin"), ReadBytes(Genuine() + "/final_models.bin"));

  const Verdict v = Verify(Genuine(), {"--replay"});
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_TRUE(v.out["verified"].get<bool>());
  EXPECT_EQ(v.out["replay"]["rounds_matched"], 3);
  EXPECT_TRUE(v.out["replay"]["models_match"].get<bool>());
  EXPECT_TRUE(v.out["replay"]["environment_differences"].empty());

  const json cert = json::parse(ReadBytes(Genuine() + "/certificate.json"));
  EXPECT_EQ(cert["rounds"][0]["evaluated_clients"], 2);  // --eval-clients; the last round: all 4
  EXPECT_EQ(cert["rounds"][2]["evaluated_clients"], 4);
  const json& g = cert["privacy"]["guarantees"];
  ASSERT_EQ(g.size(), 5u);
  EXPECT_FALSE(g[0]["applies"].get<bool>());  // Theorem 1 as printed (d = 1): E6
  EXPECT_TRUE(g[0]["epsilon_hi"].is_null());
  EXPECT_FALSE(g[0]["epsilon_as_printed"].is_null());
  for (std::size_t i = 1; i < g.size(); ++i) {
    EXPECT_TRUE(g[i]["applies"].get<bool>()) << g[i].dump();
    for (const char* key : {"notion", "unit", "adjacency", "observer", "composition", "epsilon_hi", "delta"})
      EXPECT_TRUE(g[i].contains(key)) << key;
  }
  // exact ≤ RDP-optimal ≤ Theorem 1 corrected, and exact ≤ pure (spec 004 §4.6 ordering).
  const double thm1 = std::stod(g[1]["epsilon_hi"].get<std::string>()), rdp = std::stod(g[2]["epsilon_hi"].get<std::string>());
  const double exact = std::stod(g[3]["epsilon_hi"].get<std::string>()), pure = std::stod(g[4]["epsilon_hi"].get<std::string>());
  EXPECT_LE(exact, rdp);
  EXPECT_LE(rdp, thm1);
  EXPECT_LE(exact, pure);
}

// A replay under other LibTorch kernels (ATen capped to its portable kernels, as on a CPU without
// AVX2) either matches or fails naming the environment difference as the likely cause; in both
// cases the verdict lists the difference. The certificate records the build's LibTorch version.
TEST(BnnE2e, ReplayUnderOtherKernelsNamesTheEnvironment) {
  const json cert = json::parse(ReadBytes(Genuine() + "/certificate.json"));
  ASSERT_TRUE(cert.contains("environment"));
  EXPECT_TRUE(cert["environment"]["libtorch"].is_string());
  EXPECT_TRUE(cert["environment"]["ATEN_CPU_CAPABILITY"].is_null());
  ASSERT_EQ(setenv("ATEN_CPU_CAPABILITY", "default", 1), 0);
  const Verdict v = Verify(Genuine(), {"--replay"});
  ASSERT_EQ(unsetenv("ATEN_CPU_CAPABILITY"), 0);
  ASSERT_TRUE(v.out.contains("replay")) << v.err;
  const json& d = v.out["replay"]["environment_differences"];
  ASSERT_EQ(d.size(), 1u) << d.dump();
  EXPECT_EQ(d[0], "ATEN_CPU_CAPABILITY null in the certificate, \"default\" here");
  if (v.out["replay"]["models_match"].get<bool>()) {
    EXPECT_EQ(v.exit_code, 0) << v.err;  // this CPU's widest kernels round as the portable ones do
  } else {
    EXPECT_EQ(v.exit_code, 1);
    EXPECT_NE(v.err.find("made in another environment (ATEN_CPU_CAPABILITY"), std::string::npos) << v.err;
  }
}

TEST(BnnE2e, ForgeriesAreRejectedEvenWithARecomputedDigest) {
  const json cert = json::parse(ReadBytes(Genuine() + "/certificate.json"));
  {  // a smaller ε
    json c = cert;
    c["privacy"]["guarantees"][3]["epsilon_hi"] = "1";
    const Verdict v = Verify(Forged("eps", c));
    EXPECT_EQ(v.exit_code, 1);
    EXPECT_NE(v.err.find("privacy"), std::string::npos) << v.err;
  }
  {  // a larger RR bias claimed in the configuration than the privacy section was computed for
    json c = cert;
    c["configuration"]["rr_gamma"] = 0.01;
    const Verdict v = Verify(Forged("gamma", c));
    EXPECT_EQ(v.exit_code, 1);
  }
  {  // one client's model changed
    const std::string dir = Forged("model", cert);
    std::string bytes = ReadBytes(dir + "/final_models.bin");
    bytes[7] = static_cast<char>(bytes[7] ^ 1);
    dpfl::testing::WriteFileBytes(dir + "/final_models.bin", bytes);
    const Verdict v = Verify(dir);
    EXPECT_EQ(v.exit_code, 1);
    EXPECT_NE(v.err.find("final_models.bin"), std::string::npos) << v.err;
  }
}

TEST(BnnE2e, BaselineWithoutRandomizedResponseHasNoGuarantee) {
  const std::string dir = Scratch() + "baseline";
  const auto r = RunProgram(kDpfl, Train(dir, {"--binarizer", "sign"}), Scratch());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
  ASSERT_EQ(cert["privacy"]["guarantees"].size(), 1u);
  EXPECT_EQ(cert["privacy"]["guarantees"][0]["notion"], "none");
  EXPECT_FALSE(cert["privacy"]["guarantees"][0]["applies"].get<bool>());
  EXPECT_EQ(Verify(dir).exit_code, 0);
}

TEST(BnnE2e, BadFlagsExit2NamingTheFlag) {
  const std::string out = Scratch() + "bad";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {Train(out, {"--rr-gamma", "0.7"}), "--rr-gamma"},
      {Train(out, {"--rr-gamma", "nan"}), "--rr-gamma"},
      {Train(out, {"--binarizer", "round"}), "--binarizer"},
      {Train(out, {"--mix-beta", "1.5"}), "--mix-beta"},
      {Train(out, {"--lr-schedule", "step:0:0.1"}), "--lr-schedule"},
      {Train(out, {"--eps-p", "1"}), "--eps-p"},
      {Train(out, {"--model", "vgg"}), "--model"},
      {Train(out, {"--eval-clients", "9"}), "--eval-clients"},
      {{"train", "--dataset", "synthetic", "--mechanism", "corbin-fl", "--rr-gamma", "0.1", "--out", out}, "--rr-gamma"},
  };
  for (const auto& [args, flag] : cases) {
    const auto r = RunProgram(kDpfl, args, Scratch());
    EXPECT_EQ(r.exit_code, 2) << flag << "\n" << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out + "/certificate.json"));
  }
}

}  // namespace
