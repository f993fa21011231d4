// End-to-end test of `dpfl audit lira` (issue: seed 003 + LiRA) through the real binary on the
// synthetic data set: the command with 4 shadows and a global variance finds the overfit
// vanilla model's membership (AUC's bootstrap lower bound > 0.5) and writes audit.json, roc.csv
// and the runs; a second call reuses the runs (resumable) with the same numbers; a noisy
// quantized-Gaussian audit is consistent (certified client-level ε ≥ the empirical lower bound);
// the seed-000/001 mechanisms are audited with the same local training and compared with the
// certificate's tightest row that covers an observer of the final model (LDP-FL: finite; CorBin-FL
// with 2 clients: the central row's ε = inf, a true "nothing guaranteed");
// bad flags exit 2 naming the flag. Label e2e; the whole file runs in well under 3 minutes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "testing/subprocess.hpp"

namespace {

using dpfl::testing::RunProgram;
using json = nlohmann::json;
namespace fs = std::filesystem;

const std::string kDpfl = DPFL_BINARY;

std::string Scratch() {
  static const std::string dir = dpfl::testing::ProcessScratchDir("dpfl_lira_e2e_");
  return dir;
}

// Runs an audit; *reused counts the runs it reported as reused on stderr ("…, reused").
json Audit(const std::string& dir, const std::vector<std::string>& extra, double* seconds = nullptr, int* reused = nullptr) {
  std::vector<std::string> args = {"audit", "lira", "--dataset", "synthetic", "--shadows", "4", "--out", dir};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = RunProgram(kDpfl, args, Scratch());
  if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (reused) {
    *reused = 0;
    for (std::size_t at = r.err.find(", reused"); at != std::string::npos; at = r.err.find(", reused", at + 1)) ++*reused;
  }
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

TEST(LiraE2e, VanillaMembershipIsFoundAndTheAuditResumes) {
  const std::string dir = Scratch() + "vanilla";
  double first = 0;
  int reused = -1;
  const json a = Audit(dir, {"--mechanism", "vanilla"}, &first, &reused);
  EXPECT_EQ(reused, 0);
  ASSERT_FALSE(a.is_null());
  const json file = json::parse(dpfl::testing::ReadFileBytes(dir + "/audit.json"));
  EXPECT_EQ(file, a);
  EXPECT_EQ(a["variance"], "global");  // 4 shadows: one pooled variance
  EXPECT_GT(a["offline"]["auc_ci95"][0].get<double>(), 0.5) << a["offline"].dump();
  EXPECT_TRUE(a["certified"]["epsilon"].is_null());  // vanilla certifies nothing
  EXPECT_TRUE(a["consistent"].get<bool>());
  for (int r = 0; r <= 4; ++r) EXPECT_TRUE(fs::exists(dir + "/run-" + std::to_string(r) + "/certificate.json")) << r;
  EXPECT_TRUE(fs::exists(dir + "/roc.csv"));
  EXPECT_LT(first, 180.0);  // the CI budget for this command (generous: about 5 s here)
  const json b = Audit(dir, {"--mechanism", "vanilla"}, nullptr, &reused);
  EXPECT_EQ(reused, 5);  // every run reused, with the same numbers
  EXPECT_EQ(b["offline"]["auc"], a["offline"]["auc"]);
  EXPECT_EQ(b["online"]["auc"], a["online"]["auc"]);
  // A changed training flag retrains every run: the runs' certificates then record it.
  const json c = Audit(dir, {"--mechanism", "vanilla", "--rounds", "3"}, nullptr, &reused);
  ASSERT_FALSE(c.is_null());
  EXPECT_EQ(reused, 0);
  const json cert = json::parse(dpfl::testing::ReadFileBytes(dir + "/run-2/certificate.json"));
  EXPECT_EQ(cert["configuration"]["rounds"], 3);
}

TEST(LiraE2e, CertifiedEpsilonIsNotBelowTheEmpiricalBound) {
  const json a = Audit(Scratch() + "qgauss", {"--mechanism", "qgauss", "--levels", "4", "--sigma", "0.5", "--clip", "1"});
  ASSERT_FALSE(a.is_null());
  ASSERT_TRUE(a["certified"]["epsilon"].is_number());
  EXPECT_GE(a["certified"]["epsilon"].get<double>(), a["empirical_epsilon_lower_bound"].get<double>());
  EXPECT_TRUE(a["consistent"].get<bool>());
  EXPECT_EQ(a["certified"]["delta"], 1e-5);
}

double Eps(const json& row) { return std::stod(row["epsilon_hi"].get<std::string>()); }

TEST(LiraE2e, SeedZeroMechanismsAreComparedWithTheRowCoveringTheFinalModel) {
  const std::string dir = Scratch() + "ldp";
  const json a = Audit(dir, {"--mechanism", "ldp-fl", "--eps-p", "1", "--rounds", "3", "--jobs", "2"});
  ASSERT_FALSE(a.is_null());
  const json& cfg = a["target"]["configuration"];
  EXPECT_EQ(cfg["mechanism"], "ldp-fl");
  EXPECT_EQ(cfg["optimizer"], "adam");  // the audit's local training, as for the seed-003 mechanisms
  EXPECT_EQ(cfg["model"], "mlp");
  EXPECT_EQ(cfg["batch"], 128);
  EXPECT_EQ(cfg["local_epochs"], 10);
  // LDP-FL's messages are independent: both the tight central row and the local whole-update row
  // over all rounds cover the final model; the audit uses the smaller ε.
  const json cert = json::parse(dpfl::testing::ReadFileBytes(dir + "/run-0/certificate.json"));
  double central = -1, local = -1;
  for (const json& g : cert["privacy"]["guarantees"]) {
    const std::string notion = g["notion"], unit = g.value("unit", std::string());
    if (notion.rfind("tight central", 0) == 0) central = Eps(g);
    if (unit.rfind("one client's whole update over all rounds", 0) == 0) local = Eps(g);
  }
  ASSERT_GT(central, 0);
  ASSERT_GT(local, 0);
  ASSERT_TRUE(a["certified"]["epsilon"].is_number()) << a["certified"].dump();
  EXPECT_DOUBLE_EQ(a["certified"]["epsilon"].get<double>(), std::min(central, local));
  EXPECT_TRUE(a["certified"]["bounded"].get<bool>());
  EXPECT_GE(a["certified"]["epsilon"].get<double>(), a["empirical_epsilon_lower_bound"].get<double>());
  EXPECT_TRUE(a["consistent"].get<bool>());

  // The Gaussian baseline of seed 000: the m·T local row's δ (m·T·δ_round) exceeds the audit's δ,
  // so the tight PLD row of the client's whole participation (δ = 10^−5) is the one used.
  const json g = Audit(Scratch() + "gauss", {"--mechanism", "gaussian", "--eps-p", "2", "--rounds", "2", "--jobs", "2"});
  ASSERT_FALSE(g.is_null());
  EXPECT_EQ(g["certified"]["row"].get<std::string>().rfind("tight (epsilon, delta) of a client's whole participation", 0), 0u)
      << g["certified"].dump();
  EXPECT_TRUE(g["certified"]["bounded"].get<bool>());
  EXPECT_TRUE(g["consistent"].get<bool>());

  // CorBin-FL, 2 clients (one pair, no solo client): the local row does not cover the server's view
  // of the pair, and the central row is infinite — reported as such, never as a finite number.
  const json b = Audit(Scratch() + "corbin", {"--mechanism", "corbin-fl", "--eps-p", "5", "--rounds", "3", "--jobs", "2"});
  ASSERT_FALSE(b.is_null());
  EXPECT_TRUE(b["certified"]["epsilon"].is_null()) << b["certified"].dump();
  EXPECT_EQ(b["certified"]["epsilon_hi"], "inf");
  EXPECT_FALSE(b["certified"]["bounded"].get<bool>());
  EXPECT_EQ(b["certified"]["row"].get<std::string>().rfind("tight central", 0), 0u);
  EXPECT_TRUE(b["consistent"].get<bool>());
}

TEST(LiraE2e, BadFlagsExit2NamingTheFlag) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"audit", "lira", "--mechanism", "vanilla", "--shadows", "1", "--out", Scratch() + "bad"}, "--shadows"},
      {{"audit", "lira", "--mechanism", "dpfl-bnn", "--out", Scratch() + "bad"}, "--mechanism"},
      {{"audit", "lira", "--mechanism", "corbin-fl", "--sigma", "1", "--out", Scratch() + "bad"}, "--sigma"},
      {{"audit", "lira", "--mechanism", "qgauss", "--eps-p", "1", "--sigma", "1", "--out", Scratch() + "bad"}, "--eps-p"},
      {{"audit", "lira", "--mechanism", "ldp-fl", "--levels", "4", "--out", Scratch() + "bad"}, "--levels"},
      {{"audit", "lira", "--mechanism", "vanilla", "--variance", "x", "--out", Scratch() + "bad"}, "--variance"},
      {{"audit", "lira", "--mechanism", "vanilla", "--dataset", "synthetic", "--pool", "5", "--out", Scratch() + "bad"}, "--pool"},
      {{"audit", "lira", "--mechanism", "qgauss", "--dataset", "synthetic", "--out", Scratch() + "bad"}, "--sigma"},
      {{"audit", "lira", "--mechanism", "vanilla"}, "--out"},
  };
  for (const auto& [args, flag] : cases) {
    const auto r = RunProgram(kDpfl, args, Scratch());
    EXPECT_EQ(r.exit_code, 2) << flag << "\n" << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << flag << "\n" << r.err;
  }
}

}  // namespace
