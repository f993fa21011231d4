// End-to-end test of `dpfl train` / `dpfl verify-certificate` on the synthetic data set with the
// tiny MLP (docs/training.md): runs for corbin-fl and ldp-fl, determinism (identical final weight bytes),
// resume after kill -9 equals an uninterrupted run, certificate accepted and a tampered copy
// rejected, bad flags exit 2.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "testing/subprocess.hpp"

namespace {

namespace fs = std::filesystem;
using dpfl::testing::RunProgram;

const std::string kDpfl = DPFL_BINARY;

std::string Scratch() {
  static const std::string dir = dpfl::testing::ProcessScratchDir("dpfl_e2e_");
  return dir;
}

std::string ReadBytes(const std::string& path) { return dpfl::testing::ReadFileBytes(path); }

std::vector<std::string> TrainArgs(const std::string& mechanism, const std::string& out, int rounds,
                                   const std::string& samples = "600", int clients = 4) {
  return {"train", "--dataset", "synthetic", "--synthetic-samples", samples, "--mechanism", mechanism,
          "--eps-p", "2", "--clients", std::to_string(clients), "--rounds", std::to_string(rounds), "--seed", "11",
          "--out", out, "--quiet", "--no-plots", "--local-epochs", "2", "--workers", "1"};
}

TEST(TrainE2e, CorBinFlRunsIsDeterministicAndCertified) {
  const std::string a = Scratch() + "corbin_a", b = Scratch() + "corbin_b";
  const auto ra = RunProgram(kDpfl, TrainArgs("corbin-fl", a, 3), Scratch());
  ASSERT_EQ(ra.exit_code, 0) << ra.err;
  const auto rb = RunProgram(kDpfl, TrainArgs("corbin-fl", b, 3), Scratch());
  ASSERT_EQ(rb.exit_code, 0) << rb.err;
  const std::string wa = ReadBytes(a + "/final_weights.bin");
  ASSERT_FALSE(wa.empty());
  EXPECT_EQ(wa, ReadBytes(b + "/final_weights.bin")) << "same seed, same thread count: identical weights";
  const auto out = nlohmann::json::parse(ra.out);
  EXPECT_EQ(out.at("rounds"), 3);

  // The certificate verifies; changing one ε makes verification fail.
  const std::string cert = a + "/certificate.json";
  const auto ok = RunProgram(kDpfl, {"verify-certificate", "--file", cert}, Scratch());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  nlohmann::json j = nlohmann::json::parse(ReadBytes(cert));
  ASSERT_EQ(j["privacy"]["rounds"].size(), 3u);
  EXPECT_EQ(j["privacy"]["rounds"][0]["eps_p_intended"], "2");
  for (const auto& r : j["rounds"]) EXPECT_TRUE(r["monitor"]["passed"].get<bool>());
  j["privacy"]["rounds"][1]["eps_p_implemented"]["hi"] = "1.9";
  const std::string tampered = Scratch() + "tampered.json";
  std::ofstream(tampered) << j.dump(2);
  const auto bad = RunProgram(kDpfl, {"verify-certificate", "--file", tampered}, Scratch());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("eps_p_implemented"), std::string::npos) << bad.err;
  // Changing the configuration (ε_p) without the ledger is caught too.
  j = nlohmann::json::parse(ReadBytes(cert));
  j["configuration"]["eps_p"] = 1.5;
  std::ofstream(tampered) << j.dump(2);
  EXPECT_EQ(RunProgram(kDpfl, {"verify-certificate", "--file", tampered}, Scratch()).exit_code, 1);
}

TEST(TrainE2e, LdpFlRunsAndWritesOneMetricsRowPerRound) {
  const std::string dir = Scratch() + "ldp";
  const auto r = RunProgram(kDpfl, TrainArgs("ldp-fl", dir, 2), Scratch());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = nlohmann::json::parse(r.out);
  EXPECT_GE(out.at("final_test_accuracy").get<double>(), 0.0);
  const std::string metrics = ReadBytes(dir + "/metrics.csv");
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 3);  // header + 2 rounds
  // The directly timed mechanism work is the column before idle_clients and the wire bytes (0 in
  // one process), and it is part of the round.
  const std::string header = metrics.substr(0, metrics.find('\n'));
  EXPECT_TRUE(header.ends_with(",seconds,mechanism_seconds,idle_clients,wire_message_bytes,wire_broadcast_bytes")) << header;
  std::istringstream rows(metrics.substr(metrics.find('\n') + 1));
  for (std::string row; std::getline(rows, row);) {
    EXPECT_TRUE(row.ends_with(",0,0")) << "no bytes cross a process boundary in one process: " << row;
    for (int k = 0; k < 3; ++k) row = row.substr(0, row.rfind(','));  // drop idle_clients and the wire bytes
    const std::size_t last = row.rfind(','), before = row.rfind(',', last - 1);
    const double round_s = std::stod(row.substr(before + 1, last - before - 1)), mech_s = std::stod(row.substr(last + 1));
    EXPECT_GT(mech_s, 0.0) << row;
    EXPECT_LT(mech_s, round_s) << row;
  }
}

// --lambda-grid runs the ten values λ ∈ {0.1, …, 1.0} as ordinary runs in <out>/lambda-K0 and
// reports the one with the best validation accuracy.
TEST(TrainE2e, LambdaGridRunsTenOrdinaryRunsAndKeepsTheBestValidation) {
  const std::string dir = Scratch() + "grid";
  std::vector<std::string> args = TrainArgs("corbin-fl", dir, 2);
  args.push_back("--lambda-grid");
  const auto r = RunProgram(kDpfl, args, Scratch());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto out = nlohmann::json::parse(r.out);
  const auto& grid = out.at("grid");
  ASSERT_EQ(grid.size(), 10u);
  double best_val = -1;
  std::size_t best_k = 0;
  for (std::size_t k = 0; k < grid.size(); ++k) {
    EXPECT_NEAR(grid[k].at("lambda").get<double>(), (k + 1) / 10.0, 1e-12);
    EXPECT_EQ(grid[k].at("out").get<std::string>(), dir + "/lambda-" + std::to_string(k + 1) + "0");
    EXPECT_TRUE(fs::exists(grid[k].at("certificate").get<std::string>()));
    const double val = grid[k].at("best_val_accuracy").get<double>();
    if (val > best_val) {
      best_val = val;
      best_k = k;
    }
  }
  EXPECT_EQ(out.at("best"), grid[best_k]);  // the first of the best, as documented
  // λ is really applied: the smoothed update differs between λ = 0.1 and λ = 1.
  EXPECT_NE(ReadBytes(dir + "/lambda-10/final_weights.bin"), ReadBytes(dir + "/lambda-100/final_weights.bin"));
  // A grid member is the ordinary run with that --lambda: same final weights, bit for bit.
  std::vector<std::string> single = TrainArgs("corbin-fl", Scratch() + "lambda-03", 2);
  single.insert(single.end(), {"--lambda", "0.3"});
  ASSERT_EQ(RunProgram(kDpfl, single, Scratch()).exit_code, 0);
  EXPECT_EQ(ReadBytes(Scratch() + "lambda-03/final_weights.bin"), ReadBytes(dir + "/lambda-30/final_weights.bin"));
  const auto v = RunProgram(kDpfl, {"verify-certificate", grid[best_k].at("certificate").get<std::string>()}, Scratch());
  EXPECT_EQ(v.exit_code, 0) << v.err;
}

TEST(TrainE2e, ResumeAfterKillMatchesUninterruptedRun) {
  const std::string full = Scratch() + "resume_full", cut = Scratch() + "resume_cut";
  const int kRounds = 8;
  const auto args_full = TrainArgs("corbin-fl", full, kRounds, "3000", 10);
  const auto r = RunProgram(kDpfl, args_full, Scratch());
  ASSERT_EQ(r.exit_code, 0) << r.err;

  const auto args_cut = TrainArgs("corbin-fl", cut, kRounds, "3000", 10);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(kDpfl.c_str()));
    for (const auto& a : args_cut) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int devnull = ::open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execv(kDpfl.c_str(), argv.data());
    _exit(127);
  }
  // Kill -9 as soon as round 2's checkpoint exists (the run is then inside round 3).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  bool killed_early = false;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string metrics = ReadBytes(cut + "/metrics.csv");
    if (std::count(metrics.begin(), metrics.end(), '\n') >= 3) {
      killed_early = !fs::exists(cut + "/final_weights.bin");
      kill(pid, SIGKILL);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(killed_early) << "the run finished before it could be killed; make rounds slower";
  ASSERT_TRUE(WIFSIGNALED(status));
  auto args_resume = args_cut;
  args_resume.push_back("--resume");
  const auto resumed = RunProgram(kDpfl, args_resume, Scratch());
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(ReadBytes(full + "/final_weights.bin"), ReadBytes(cut + "/final_weights.bin"));
  const std::string metrics = ReadBytes(cut + "/metrics.csv");
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), kRounds + 1);
}

TEST(TrainE2e, BadFlagsExitTwoWithOneLine) {
  const std::string out = Scratch() + "bad";
  const std::vector<std::vector<std::string>> cases = {
      {"train", "--dataset", "synthetic", "--mechanism", "corbin-fl", "--clients", "5", "--out", out},
      {"train", "--dataset", "synthetic", "--mechanism", "augcorbin-fl", "--gamma", "0.2", "--clients", "11", "--out", out},
      {"train", "--dataset", "synthetic", "--mechanism", "ldp-fl", "--eps-p", "0", "--out", out},
      {"train", "--dataset", "synthetic", "--mechanism", "ldp-fl", "--eps-p", "-1", "--out", out},
      {"train", "--dataset", "imagenet", "--out", out},
      {"train", "--dataset", "synthetic", "--mechanism", "dp-sgd", "--out", out},
      {"train", "--dataset", "synthetic", "--lambda", "0", "--out", out},
      {"train", "--dataset", "synthetic", "--lambda", "0.5", "--lambda-grid", "--out", out},
      {"train", "--dataset", "synthetic", "--dropout", "1", "--out", out},
      {"train", "--dataset", "synthetic"},
      {"train", "--dataset", "synthetic", "--out", out, "--resume", "--clients", "4"},
  };
  for (const auto& args : cases) {
    const auto r = RunProgram(kDpfl, args, Scratch());
    EXPECT_EQ(r.exit_code, 2) << args[4] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

}  // namespace
