// End-to-end test of parallel and multi-process `dpfl train` (docs/scaling.md) through the real
// binary on localhost, synthetic data, the tiny MLP (the CI budget: under 2 minutes):
//  * --workers 1, 2, 3: identical final weight bytes and transcript hashes; the certificate
//    records the worker count;
//  * 1 process vs 2 processes (scripts/launch-local.sh) vs 3 processes (torchrun's environment
//    variables, with a flag overriding one): identical weights and transcripts; the
//    multi-process certificate verifies and replays in one process; the traffic on the wire is
//    reported (CorBin-FL about 1 bit per parameter, vanilla 32);
//  * a client host killed with SIGKILL in round 2: rank 0 exits 4 naming the rank, writes no
//    certificate; --resume on every rank ends with the uninterrupted run's weights;
//  * a rank that never joins, and a host whose server never appears: exit 4 within the
//    rendezvous timeout, naming who is missing;
//  * bad execution flags and variables: exit 2 naming them.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <future>
#include <string>
#include <vector>

#include "testing/subprocess.hpp"

namespace {

namespace fs = std::filesystem;
using dpfl::testing::RunProgram;
using dpfl::testing::RunResult;

const std::string kDpfl = DPFL_BINARY;
const std::string kLaunch = DPFL_LAUNCH_LOCAL;

std::string Scratch() {
  static const std::string dir = dpfl::testing::ProcessScratchDir("dpfl_scale_e2e_");
  return dir;
}

std::string Read(const std::string& path) { return dpfl::testing::ReadFileBytes(path); }

// A TCP port nobody listens on now (the kernel's choice for port 0).
std::string FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    return "29517";
  ::close(fd);
  return std::to_string(ntohs(a.sin_port));
}

std::vector<std::string> Train(const std::string& mechanism, const std::string& out, int rounds = 3) {
  return {"train", "--dataset", "synthetic", "--synthetic-samples", "600", "--mechanism", mechanism, "--eps-p", "2",
          "--clients", "6", "--rounds", std::to_string(rounds), "--seed", "23", "--local-epochs", "2", "--out", out,
          "--quiet", "--no-plots"};
}

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

std::vector<std::string> Transcripts(const std::string& dir) {
  const auto cert = nlohmann::json::parse(Read(dir + "/certificate.json"));
  std::vector<std::string> t;
  for (const auto& r : cert.at("rounds")) t.push_back(r.at("transcript"));
  return t;
}

// `env` runs dpfl with extra environment variables.
RunResult RunEnv(const std::vector<std::string>& env, const std::vector<std::string>& args) {
  std::vector<std::string> all = env;
  all.push_back(kDpfl);
  all.insert(all.end(), args.begin(), args.end());
  return RunProgram("env", all, Scratch());
}

// Ranks 0..N-1 of one run, each `dpfl train args --world-size N --rank r --master-port P`,
// concurrently; `env[r]` extra variables for rank r.
std::vector<RunResult> RunRanks(int n, const std::vector<std::string>& args,
                                const std::vector<std::vector<std::string>>& env = {}) {
  const std::string port = FreePort();
  std::vector<std::future<RunResult>> ranks;
  for (int r = 0; r < n; ++r) {
    std::vector<std::string> a = With(args, {"--world-size", std::to_string(n), "--rank", std::to_string(r),
                                             "--master-port", port, "--workers", "1", "--rendezvous-timeout", "60"});
    std::vector<std::string> e = r < static_cast<int>(env.size()) ? env[r] : std::vector<std::string>{};
    ranks.push_back(std::async(std::launch::async, [e, a] { return RunEnv(e, a); }));
  }
  std::vector<RunResult> out;
  for (auto& f : ranks) out.push_back(f.get());
  return out;
}

TEST(ScaleE2e, WorkerCountDoesNotChangeWeightsOrTranscripts) {
  const std::string w1 = Scratch() + "w1";
  const auto r1 = RunProgram(kDpfl, With(Train("corbin-fl", w1), {"--workers", "1"}), Scratch());
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  for (const std::string w : {"2", "3"}) {
    const std::string dir = Scratch() + "w" + w;
    const auto r = RunProgram(kDpfl, With(Train("corbin-fl", dir), {"--workers", w}), Scratch());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(Read(dir + "/final_weights.bin"), Read(w1 + "/final_weights.bin")) << w << " workers";
    EXPECT_EQ(Transcripts(dir), Transcripts(w1)) << w << " workers";
    const auto cert = nlohmann::json::parse(Read(dir + "/certificate.json"));
    EXPECT_EQ(cert["configuration"]["workers"], std::stoi(w));
    EXPECT_EQ(nlohmann::json::parse(r.out)["execution"]["fleet"], "1 process, " + w + " workers");
    EXPECT_EQ(RunProgram(kDpfl, {"verify-certificate", dir + "/certificate.json"}, Scratch()).exit_code, 0);
  }
}

// The seed-002 (CEPAM) and seed-003 (quantized Gaussian) loops: the same weights and transcripts
// for 1, 2 and 3 workers; seed 004 (dpfl-bnn) refuses --workers > 1 (its loop is sequential).
TEST(ScaleE2e, Seed002And003LoopsGiveTheSameWeightsForEveryWorkerCount) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> loops = {
      {"qgauss", {"train", "--dataset", "synthetic", "--synthetic-samples", "800", "--clients", "5", "--rounds", "2",
                  "--seed", "5", "--mechanism", "qgauss", "--levels", "4", "--sigma", "0.5", "--clip", "1", "--quiet",
                  "--no-plots"}},
      {"cepam", {"train", "--dataset", "synthetic", "--synthetic-samples", "1000", "--model", "cepam-mlp", "--clients", "5",
                 "--rounds", "2", "--seed", "7", "--mechanism", "cepam-gaussian", "--lattice-dim", "2", "--clip", "0.05",
                 "--sigma", "0.02", "--quiet", "--no-plots"}},
  };
  for (const auto& [name, args] : loops) {
    const std::string w1 = Scratch() + name + "_w1";
    const auto r1 = RunProgram(kDpfl, With(args, {"--out", w1, "--workers", "1"}), Scratch());
    ASSERT_EQ(r1.exit_code, 0) << name << ": " << r1.err;
    for (const std::string w : {"2", "3"}) {
      const std::string dir = Scratch() + name + "_w" + w;
      const auto r = RunProgram(kDpfl, With(args, {"--out", dir, "--workers", w}), Scratch());
      ASSERT_EQ(r.exit_code, 0) << name << " " << w << ": " << r.err;
      EXPECT_EQ(Read(dir + "/final_weights.bin"), Read(w1 + "/final_weights.bin")) << name << ", " << w << " workers";
      EXPECT_EQ(Transcripts(dir), Transcripts(w1)) << name << ", " << w << " workers";
      EXPECT_EQ(nlohmann::json::parse(Read(dir + "/certificate.json"))["configuration"]["workers"], std::stoi(w));
      EXPECT_EQ(RunProgram(kDpfl, {"verify-certificate", dir + "/certificate.json"}, Scratch()).exit_code, 0) << name;
    }
  }
}

TEST(ScaleE2e, TwoAndThreeProcessesGiveTheOneProcessWeights) {
  const std::string one = Scratch() + "p1";
  ASSERT_EQ(RunProgram(kDpfl, With(Train("corbin-fl", one), {"--workers", "1"}), Scratch()).exit_code, 0);

  // 2 processes through scripts/launch-local.sh.
  const std::string two = Scratch() + "p2";
  std::vector<std::string> launch = {"DPFL=" + kDpfl, "bash", kLaunch, "2"};
  const std::vector<std::string> args = With(Train("corbin-fl", two), {"--workers", "1"});
  launch.insert(launch.end(), args.begin() + 1, args.end());  // the script adds "train"
  const auto r2 = RunProgram("env", launch, Scratch());
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  EXPECT_EQ(Read(two + "/final_weights.bin"), Read(one + "/final_weights.bin"));
  EXPECT_EQ(Transcripts(two), Transcripts(one));
  const auto out2 = nlohmann::json::parse(r2.out);
  EXPECT_NE(out2["execution"]["fleet"].get<std::string>().find("2 processes (1 client host"), std::string::npos);
  // Traffic measured on the wire: CorBin-FL's messages are about 1 bit per parameter (bit words
  // padded to 64 per layer, plus a 28-byte frame per client); the round broadcast is reported.
  const double bits = out2["traffic"]["wire_bits_per_parameter"];
  EXPECT_GT(bits, 1.0);
  EXPECT_LT(bits, 1.2);
  EXPECT_GT(out2["traffic"]["broadcast_bytes_per_round"].get<double>(), 0);
  const auto host = nlohmann::json::parse(Read(two + "/launch/rank-1.json"));
  EXPECT_EQ(host["role"], "client host");
  EXPECT_EQ(host["rounds_served"], 3);
  // The certificate of the 2-process run verifies, records the world size, and replays in one process.
  const auto cert = nlohmann::json::parse(Read(two + "/certificate.json"));
  EXPECT_EQ(cert["configuration"]["world_size"], 2);
  const auto v = RunProgram(kDpfl, {"verify-certificate", two + "/certificate.json", "--replay", "--quiet"}, Scratch());
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;

  // 3 processes from torchrun's variables; --world-size 3 overrides WORLD_SIZE=9.
  const std::string three = Scratch() + "p3";
  const std::string port = FreePort();
  std::vector<std::future<RunResult>> ranks;
  for (int r = 0; r < 3; ++r)
    ranks.push_back(std::async(std::launch::async, [&, r] {
      return RunEnv({"WORLD_SIZE=9", "RANK=" + std::to_string(r), "MASTER_ADDR=127.0.0.1", "MASTER_PORT=" + port},
                    With(Train("corbin-fl", three), {"--workers", "1", "--world-size", "3"}));
    }));
  std::vector<RunResult> res;
  for (auto& f : ranks) res.push_back(f.get());
  for (int r = 0; r < 3; ++r) ASSERT_EQ(res[r].exit_code, 0) << "rank " << r << ": " << res[r].err;
  EXPECT_EQ(Read(three + "/final_weights.bin"), Read(one + "/final_weights.bin"));
  EXPECT_EQ(Transcripts(three), Transcripts(one));
  EXPECT_EQ(nlohmann::json::parse(res[2].out)["clients"], nlohmann::json::array({3, 5}));

  // Vanilla sends 32-bit floats: about 32 bits per parameter on the wire.
  const std::string vanilla = Scratch() + "vanilla2";
  const auto rv = RunRanks(2, Train("vanilla", vanilla, 1));
  ASSERT_EQ(rv[0].exit_code, 0) << rv[0].err;
  const double vbits = nlohmann::json::parse(rv[0].out)["traffic"]["wire_bits_per_parameter"];
  EXPECT_GT(vbits, 32.0);
  EXPECT_LT(vbits, 32.2);
}

TEST(ScaleE2e, AKilledHostFailsTheRoundClosedAndResumeCompletesTheRun) {
  const std::string ref = Scratch() + "kill_ref", dir = Scratch() + "kill";
  ASSERT_EQ(RunProgram(kDpfl, With(Train("corbin-fl", ref, 4), {"--workers", "1"}), Scratch()).exit_code, 0);
  const auto killed = RunRanks(2, Train("corbin-fl", dir, 4), {{}, {"DPFL_FAULT_KILL_HOST_AT_ROUND=2"}});
  EXPECT_EQ(killed[0].exit_code, 4) << killed[0].err;
  EXPECT_NE(killed[0].err.find("round 2: client host rank 1 (clients 0-5) failed"), std::string::npos) << killed[0].err;
  EXPECT_TRUE(killed[1].exit_code == -1 || killed[1].exit_code == 128 + 9) << "the host dies of SIGKILL: " << killed[1].exit_code;
  EXPECT_FALSE(fs::exists(dir + "/certificate.json"));
  EXPECT_FALSE(fs::exists(dir + "/final_weights.bin"));
  const auto resumed = RunRanks(2, With(Train("corbin-fl", dir, 4), {"--resume"}));
  ASSERT_EQ(resumed[0].exit_code, 0) << resumed[0].err;
  ASSERT_EQ(resumed[1].exit_code, 0) << resumed[1].err;
  EXPECT_EQ(nlohmann::json::parse(resumed[1].out)["rounds_served"], 3) << "rounds 2-4 after the checkpoint of round 1";
  EXPECT_EQ(Read(dir + "/final_weights.bin"), Read(ref + "/final_weights.bin"));
  EXPECT_EQ(Transcripts(dir), Transcripts(ref));
  EXPECT_EQ(RunProgram(kDpfl, {"verify-certificate", dir + "/certificate.json"}, Scratch()).exit_code, 0);
}

TEST(ScaleE2e, ARankThatNeverJoinsTimesOutWithItsName) {
  const std::string port = FreePort();
  const auto t0 = std::chrono::steady_clock::now();
  const auto server = RunProgram(kDpfl, With(Train("corbin-fl", Scratch() + "alone"),
                                             {"--world-size", "3", "--rank", "0", "--master-port", port,
                                              "--rendezvous-timeout", "2"}),
                                 Scratch());
  EXPECT_EQ(server.exit_code, 4) << server.err;
  EXPECT_NE(server.err.find("ranks 1, 2 did not join within 2"), std::string::npos) << server.err;
  const auto host = RunProgram(kDpfl, With(Train("corbin-fl", Scratch() + "orphan"),
                                           {"--world-size", "2", "--rank", "1", "--master-port", FreePort(),
                                            "--rendezvous-timeout", "2"}),
                               Scratch());
  EXPECT_EQ(host.exit_code, 4) << host.err;
  EXPECT_NE(host.err.find("rank 1 cannot reach rank 0 at 127.0.0.1:"), std::string::npos) << host.err;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30.0);
}

TEST(ScaleE2e, BadExecutionFlagsExit2NamingThem) {
  const std::string out = Scratch() + "bad";
  struct Case {
    std::string mechanism;
    std::vector<std::string> extra;
    std::string name;
  };
  const std::vector<Case> cases = {
      {"corbin-fl", {"--workers", "-1"}, "--workers"},
      {"corbin-fl", {"--world-size", "2", "--rank", "2"}, "--rank"},
      {"corbin-fl", {"--world-size", "0"}, "--world-size"},
      {"corbin-fl", {"--world-size", "8", "--rank", "1"}, "more client hosts (7) than clients (6)"},
      {"corbin-fl", {"--world-size", "2", "--master-port", "70000"}, "--master-port"},
      {"corbin-fl", {"--world-size", "2", "--master-port", "0"}, "--master-port"},
      {"corbin-fl", {"--world-size", "2", "--rendezvous-timeout", "0"}, "--rendezvous-timeout"},
      {"corbin-fl", {"--world-size", "2", "--lambda-grid"}, "--lambda-grid"},
      {"dpfl-bnn", {"--model", "bnn-tiny", "--world-size", "2"}, "--world-size"},
      {"qgauss", {"--sigma", "1", "--world-size", "2"}, "--world-size"},
      {"dpfl-bnn", {"--model", "bnn-tiny", "--workers", "2"}, "--workers"},
  };
  for (const auto& [mechanism, extra, name] : cases) {
    const std::vector<std::string> base =
        mechanism == "corbin-fl" ? Train(mechanism, out, 1)
                                 : std::vector<std::string>{"train", "--dataset", "synthetic", "--mechanism", mechanism,
                                                            "--rounds", "1", "--out", out, "--quiet", "--no-plots"};
    const auto r = RunProgram(kDpfl, With(base, extra), Scratch());
    EXPECT_EQ(r.exit_code, 2) << name << ": " << r.err;
    EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
  }
  for (const std::string env : {"WORLD_SIZE=two", "RANK=-1", "MASTER_PORT=0"}) {
    const auto r = RunEnv({env, "WORLD_SIZE=" + std::string(env.rfind("WORLD", 0) == 0 ? "two" : "2")},
                          Train("corbin-fl", out, 1));
    EXPECT_EQ(r.exit_code, 2) << env << ": " << r.err;
    EXPECT_NE(r.err.find(env.substr(0, env.find('='))), std::string::npos) << r.err;
  }
}

}  // namespace
