// The certificate's trust checks (docs/training.md "Threat model") end to end, through the real
// `dpfl` binary: forged certificates are rejected field by field (the forger recomputes the
// unkeyed digest, as anyone can), a genuine signed certificate verifies, --replay accepts a
// genuine run and rejects changed configuration or weights, an inapplicable UCDP theorem is never
// certified, the Dirichlet input that used to hang finishes, and file-system / number errors are
// one clear line with exit 2.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sodium.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <sstream>

#include "testing/forgery.hpp"
#include "testing/subprocess.hpp"

namespace {

namespace fs = std::filesystem;
using dpfl::testing::RunProgram;
using nlohmann::json;

const std::string kDpfl = DPFL_BINARY;

std::string Scratch() {
  static const std::string dir = dpfl::testing::ProcessScratchDir("dpfl_trust_");
  return dir;
}

std::string ReadBytes(const std::string& path) { return dpfl::testing::ReadFileBytes(path); }


using dpfl::testing::Redigest;  // what a forger does (testing/forgery.hpp)

std::vector<std::string> Train(const std::string& mechanism, const std::string& out, int clients = 4, int rounds = 3) {
  return {"train", "--dataset", "synthetic", "--synthetic-samples", "600", "--mechanism", mechanism, "--eps-p", "2",
          "--clients", std::to_string(clients), "--rounds", std::to_string(rounds), "--seed", "11", "--out", out,
          "--quiet", "--no-plots", "--workers", "1"};
}

// One signed genuine run shared by the tests below (trained once).
struct SignedRun {
  std::string dir, key;
};
const SignedRun& Genuine() {
  static const SignedRun run = [] {
    SignedRun r{Scratch() + "genuine", Scratch() + "operator.key"};
    const auto k = RunProgram(kDpfl, {"keygen", "--out", r.key}, Scratch());
    EXPECT_EQ(k.exit_code, 0) << k.err;
    auto args = Train("corbin-fl", r.dir);
    args.insert(args.end(), {"--signing-key", r.key});
    const auto t = RunProgram(kDpfl, args, Scratch());
    EXPECT_EQ(t.exit_code, 0) << t.err;
    return r;
  }();
  return run;
}

// A copy of the genuine run directory whose certificate.json is `cert` (redigested).
std::string Forged(const std::string& name, json cert, bool redigest = true) {
  return dpfl::testing::ForgedCopy(Genuine().dir, Scratch() + name, std::move(cert), redigest);
}

json Certificate() { return json::parse(ReadBytes(Genuine().dir + "/certificate.json")); }

using dpfl::testing::Verdict;
Verdict Verify(const std::string& dir, const std::vector<std::string>& extra = {}) {
  return dpfl::testing::VerifyRun(kDpfl, dir, Scratch(), extra);
}

TEST(TrustE2e, GenuineSignedCertificateVerifies) {
  const Verdict v = Verify(Genuine().dir, {"--public-key", Genuine().key + ".pub"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  EXPECT_EQ(v.out.at("verified"), true);
  EXPECT_EQ(v.out.at("authenticity"), "signed");
  // Without the key: integrity only, and it says so.
  const Verdict plain = Verify(Genuine().dir);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.at("authenticity").get<std::string>().find("not checked"), std::string::npos);
}

// Forged certificates (anyone can recompute the unkeyed digest), each field separately, the
// digest recomputed each time.
TEST(TrustE2e, EachForgedFieldIsRejectedByName) {
  struct Case {
    std::string name, expect;  // `expect`: a word the rejection must contain
    std::function<void(json&)> edit;
  };
  const std::vector<Case> cases = {
      {"accuracy", "test_accuracy", [](json& c) { c["final"]["test_accuracy"] = 0.99; }},
      {"weights_sha", "weights_sha256", [](json& c) { c["final"]["weights_sha256"] = std::string(64, '0'); }},
      {"statistic", "statistic",
       [](json& c) {
         for (auto& r : c["rounds"]) r["monitor"]["statistic"] = 1e9;  // "passed" left true
       }},
      {"all_three", "statistic",
       [](json& c) {
         c["final"]["test_accuracy"] = 0.99;
         c["final"]["weights_sha256"] = std::string(64, '0');
         for (auto& r : c["rounds"]) r["monitor"]["statistic"] = 1e9;
       }},
      {"critical", "critical", [](json& c) { c["rounds"][1]["monitor"]["critical"] = 1e10; }},
      {"round_count", "round count", [](json& c) { c["rounds"].erase(c["rounds"].size() - 1); }},
      {"ledger", "privacy ledger", [](json& c) { c["privacy"]["guarantees"][0]["epsilon_hi"] = "0.1"; }},
      {"transcript", "transcript", [](json& c) { c["transcript"]["h0"] = std::string(64, 'a'); }},
      {"files_entry", "final_weights.bin",
       [](json& c) {  // both hashes forged consistently: the file beside the certificate disagrees
         c["final"]["weights_sha256"] = std::string(64, '1');
         c["files"]["final_weights.bin"] = std::string(64, '1');
       }},
  };
  for (const Case& k : cases) {
    json cert = Certificate();
    k.edit(cert);
    const std::string dir = Forged("forged_" + k.name, cert);
    const Verdict v = Verify(dir);
    EXPECT_EQ(v.exit_code, 1) << k.name;
    EXPECT_NE(v.err.find(k.expect), std::string::npos) << k.name << ": " << v.err;
    // With the operator's key, the signature fails as well.
    const Verdict s = Verify(dir, {"--public-key", Genuine().key + ".pub"});
    EXPECT_EQ(s.exit_code, 1) << k.name;
    EXPECT_NE(s.err.find("signature does not verify"), std::string::npos) << k.name << ": " << s.err;
  }
}

TEST(TrustE2e, ModifiedWeightsFileIsRejected) {
  const std::string dir = Forged("weights_file", Certificate(), false);
  std::string w = ReadBytes(dir + "/final_weights.bin");
  w[5] = static_cast<char>(w[5] ^ 1);
  dpfl::testing::WriteFileBytes(dir + "/final_weights.bin", w);
  const Verdict v = Verify(dir, {"--public-key", Genuine().key + ".pub"});
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_NE(v.err.find("final_weights.bin does not match"), std::string::npos) << v.err;
  // A missing weights file is not silently skipped.
  fs::remove(dir + "/final_weights.bin");
  EXPECT_EQ(Verify(dir).exit_code, 1);
}

TEST(TrustE2e, WrongKeyUnsignedAndOldFormatsAreRejected) {
  const std::string other = Scratch() + "other.key";
  ASSERT_EQ(RunProgram(kDpfl, {"keygen", "--out", other}, Scratch()).exit_code, 0);
  EXPECT_EQ(Verify(Genuine().dir, {"--public-key", other + ".pub"}).exit_code, 1);
  // A signature file from another certificate.
  const std::string dir = Forged("sig_swap", Certificate(), false);
  dpfl::testing::WriteFileBytes(dir + "/certificate.json", ReadBytes(dir + "/certificate.json") + " ");
  EXPECT_EQ(Verify(dir, {"--public-key", Genuine().key + ".pub"}).exit_code, 1);
  // v1 certificates are refused, naming the version.
  json cert = Certificate();
  cert["format"] = "dpfl-certificate-v1";
  const Verdict v1 = Verify(Forged("v1", cert));
  EXPECT_EQ(v1.exit_code, 1);
  EXPECT_NE(v1.err.find("dpfl-certificate-v1"), std::string::npos) << v1.err;
  // Malformed key and certificate files are bad input (exit 2), not crashes.
  dpfl::testing::WriteFileBytes(Scratch() + "bad.pub", "dpfl-ed25519-public-v1\nzz\n");
  const auto bad = RunProgram(kDpfl, {"verify-certificate", Genuine().dir + "/certificate.json", "--public-key", Scratch() + "bad.pub"},
                              Scratch());
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  dpfl::testing::WriteFileBytes(Scratch() + "not.json", "{\"format\": ");
  EXPECT_EQ(RunProgram(kDpfl, {"verify-certificate", Scratch() + "not.json"}, Scratch()).exit_code, 2);
  // keygen does not overwrite a key.
  EXPECT_EQ(RunProgram(kDpfl, {"keygen", "--out", other}, Scratch()).exit_code, 2);
}

TEST(TrustE2e, ReplayAcceptsGenuineAndRejectsChangedConfigurationOrWeights) {
  const Verdict ok = Verify(Genuine().dir, {"--replay", "--quiet"});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out.at("replay").at("rounds_matched"), 3);
  EXPECT_EQ(ok.out.at("replay").at("weights_match"), true);

  // Configuration changed (learning rate; the ledger does not depend on it), digest recomputed.
  json cert = Certificate();
  cert["configuration"]["lr"] = 0.07;
  const Verdict cfg = Verify(Forged("replay_cfg", cert), {"--replay", "--quiet"});
  EXPECT_EQ(cfg.exit_code, 1);
  EXPECT_NE(cfg.err.find("diverges at round 1"), std::string::npos) << cfg.err;

  // Weights changed consistently everywhere a forger can reach (file, both hashes, digest): only
  // the replay can tell.
  cert = Certificate();
  const std::string dir = Forged("replay_weights", cert, false);
  std::string w = ReadBytes(dir + "/final_weights.bin");
  w[9] = static_cast<char>(w[9] ^ 4);
  dpfl::testing::WriteFileBytes(dir + "/final_weights.bin", w);
  unsigned char h[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(w.data()), w.size());
  char hex[2 * sizeof h + 1];
  sodium_bin2hex(hex, sizeof hex, h, sizeof h);
  cert["final"]["weights_sha256"] = std::string(hex);
  cert["files"]["final_weights.bin"] = std::string(hex);
  Redigest(cert);
  dpfl::testing::WriteFileBytes(dir + "/certificate.json", cert.dump(2) + "\n");
  const Verdict stat = Verify(dir);
  EXPECT_EQ(stat.exit_code, 0) << "without replay (and without a signature) this forgery is consistent: " << stat.err;
  const Verdict rep = Verify(dir, {"--replay", "--quiet"});
  EXPECT_EQ(rep.exit_code, 1);
  EXPECT_NE(rep.err.find("final weights differ"), std::string::npos) << rep.err;
}

// The chain's layout does not depend on the thread count (messages in client order, the thread
// count kept out of h0); on the tiny MLP LibTorch's arithmetic does not either, so the final
// hashes agree.
TEST(TrustE2e, TranscriptDoesNotDependOnThreadCount) {
  std::string final_hash[2];
  for (int k = 0; k < 2; ++k) {
    const std::string dir = Scratch() + "threads" + std::to_string(k + 1);
    auto args = Train("corbin-fl", dir, 4, 2);
    args.insert(args.end(), {"--threads", std::to_string(k + 1)});
    const auto t = RunProgram(kDpfl, args, Scratch());
    ASSERT_EQ(t.exit_code, 0) << t.err;
    final_hash[k] = json::parse(ReadBytes(dir + "/certificate.json")).at("transcript").at("final").get<std::string>();
  }
  EXPECT_EQ(final_hash[0], final_hash[1]);
}

TEST(TrustE2e, RandomKeysRunIsCertifiedButCannotBeReplayed) {
  const std::string dir = Scratch() + "random_keys";
  auto args = Train("corbin-fl", dir, 4, 1);
  args.insert(args.end(), {"--keys", "random"});
  const auto t = RunProgram(kDpfl, args, Scratch());
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
  EXPECT_EQ(cert.at("keys_policy").at("mode"), "random");
  EXPECT_EQ(Verify(dir).exit_code, 0);
  const Verdict rep = Verify(dir, {"--replay"});
  EXPECT_EQ(rep.exit_code, 2);
  EXPECT_NE(rep.err.find("--keys random"), std::string::npos) << rep.err;
  // The simulated policy says that it protects nothing.
  EXPECT_NE(Certificate().at("keys_policy").at("statement").get<std::string>().find("protects nothing"), std::string::npos);
}

// Finding 2: at 10 clients neither form of Thm 3's precondition holds; the central guarantee
// must then say it does not apply, carry no number, and nothing may add ε_u anywhere.
TEST(TrustE2e, InapplicableUcdpTheoremIsNeverCertified) {
  const std::string dir = Scratch() + "augcorbin";
  const auto t = RunProgram(kDpfl, Train("augcorbin-fl", dir, 10, 2), Scratch());
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
  for (const auto& r : cert["privacy"]["rounds"]) {
    EXPECT_FALSE(r["ucdp"]["as_printed"]["precondition_holds"].get<bool>());
    EXPECT_FALSE(r["ucdp"]["corrected"]["precondition_holds"].get<bool>());
  }
  int central = 0;
  for (const auto& g : cert["privacy"]["guarantees"]) {
    for (const char* key : {"notion", "unit", "adjacency", "observer", "composition", "epsilon_lo", "epsilon_hi", "delta", "applies"})
      EXPECT_TRUE(g.contains(key)) << key << " in " << g.dump();
    if (g["notion"].get<std::string>().find("UCDP") != std::string::npos) {
      ++central;
      EXPECT_FALSE(g["applies"].get<bool>());
      EXPECT_TRUE(g["epsilon_hi"].is_null());
      EXPECT_NE(g["reason"].get<std::string>().find("precondition"), std::string::npos) << g.dump();
    }
  }
  EXPECT_EQ(central, 1);
  // The tight central PLD row: at 10 clients (2 solo) the exact answer is +inf at both ends, and
  // the certificate says why (a per-coordinate probability of infinite loss).
  const json& tight = cert["privacy"]["guarantees"].back();
  ASSERT_NE(tight["notion"].get<std::string>().find("privacy loss distribution"), std::string::npos) << tight.dump();
  EXPECT_TRUE(tight["applies"].get<bool>());
  EXPECT_EQ(tight["epsilon_lo"], "inf");
  EXPECT_EQ(tight["epsilon_hi"], "inf");
  EXPECT_GT(std::stod(tight["infinite_loss_probability_per_coordinate"].get<std::string>()), 0.5);
  EXPECT_EQ(tight["solo_clients"], 2);
  EXPECT_FALSE(cert["privacy"].contains("composition")) << "no summed eps_u total may exist";
  EXPECT_EQ(ReadBytes(dir + "/certificate.json").find("eps_u_total"), std::string::npos);
}

// The tight central guarantee of LDP-FL (all clients solo): finite, an enclosure narrower than 5 %,
// far below the client-level local epsilon, recomputed by the verifier.
TEST(TrustE2e, LdpFlTightCentralEpsilonIsFiniteNarrowAndVerified) {
  const std::string dir = Scratch() + "ldp_central";
  const auto t = RunProgram(kDpfl, Train("ldp-fl", dir, 4, 2), Scratch());
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const json cert = json::parse(ReadBytes(dir + "/certificate.json"));
  const auto& g = cert["privacy"]["guarantees"];
  const json& tight = g.back();
  ASSERT_NE(tight["notion"].get<std::string>().find("privacy loss distribution"), std::string::npos) << tight.dump();
  ASSERT_TRUE(tight["applies"].get<bool>());
  const double lo = std::stod(tight["epsilon_lo"].get<std::string>());
  const double hi = std::stod(tight["epsilon_hi"].get<std::string>());
  const double local_total = std::stod(g[3]["epsilon_lo"].get<std::string>());  // m T eps_p, basic composition
  EXPECT_LE(lo, hi);
  EXPECT_LE(hi - lo, 0.05 * hi) << tight.dump();
  EXPECT_LT(hi, local_total);
  EXPECT_LE(hi, std::stod(tight["epsilon_hi_pld_envelope"].get<std::string>()));
  EXPECT_EQ(tight["solo_clients"], 4);
  EXPECT_EQ(Verify(dir).exit_code, 0);
}

// dpfl train --target-epsilon: calibrate eps_p, or stop when the budget is spent; the certified
// tight central epsilon (recomputed by the verifier) meets the target; an unreachable target is a
// clear error before any training.
TEST(TrustE2e, TargetEpsilonCalibratesOrStopsAndIsCertified) {
  auto run = [&](const std::string& name, int rounds, std::vector<std::string> extra) {
    auto args = Train("ldp-fl", Scratch() + name, 2, rounds);
    args.insert(args.end(), extra.begin(), extra.end());
    return RunProgram(kDpfl, args, Scratch());
  };
  const auto cal = run("target_cal", 1, {"--target-epsilon", "3000"});
  ASSERT_EQ(cal.exit_code, 0) << cal.err;
  const json c = json::parse(cal.out);
  EXPECT_EQ(c["target"]["mode"], "calibrate");
  EXPECT_LT(c["eps_p"].get<double>(), 2.0);  // the flag's 2 would exceed the target
  EXPECT_LE(std::stod(c["certified_central_epsilon_hi"].get<std::string>()), 3000.0);
  EXPECT_EQ(Verify(Scratch() + "target_cal").exit_code, 0);

  const auto stop = run("target_stop", 3, {"--target-epsilon", "8000", "--target-mode", "stop"});
  ASSERT_EQ(stop.exit_code, 0) << stop.err;
  const json t = json::parse(stop.out);
  EXPECT_EQ(t["target"]["mode"], "stop");
  EXPECT_EQ(t["rounds"], 1);  // one round spends 6445 of 8000; two would exceed it
  EXPECT_LE(std::stod(t["certified_central_epsilon_hi"].get<std::string>()), 8000.0);

  const auto bad = RunProgram(kDpfl, [&] {
    auto args = Train("augcorbin-fl", Scratch() + "target_bad", 10, 2);
    args.insert(args.end(), {"--target-epsilon", "100"});
    return args;
  }(), Scratch());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--target-epsilon"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("+inf"), std::string::npos) << bad.err;
}

// Finding 3: per-parameter, whole-update (m ε per round, m T ε in total) side by side.
TEST(TrustE2e, GuaranteesStateEveryNotionWithItsUnit) {
  const json cert = Certificate();
  const auto& g = cert["privacy"]["guarantees"];
  const double m = cert["configuration"]["parameters"].get<double>();
  const double per_round = std::stod(g[0]["epsilon_hi"].get<std::string>());
  const double total = std::stod(g[1]["epsilon_hi"].get<std::string>());
  const double client_round = std::stod(g[2]["epsilon_hi"].get<std::string>());
  const double client_total = std::stod(g[3]["epsilon_hi"].get<std::string>());
  EXPECT_NEAR(per_round, 2.0, 1e-9);  // ε_p = 2 implemented with 64-bit thresholds
  EXPECT_NEAR(total, 3 * per_round, 1e-9);
  EXPECT_NEAR(client_round, m * per_round, 1e-6 * m);
  EXPECT_NEAR(client_total, 3 * m * per_round, 1e-6 * m);
  EXPECT_NE(g[2]["unit"].get<std::string>().find("whole update"), std::string::npos);
  bool train_loss_uncovered = false;
  for (const auto& r : cert["privacy"]["releases"])
    if (r["release"].get<std::string>().find("train_loss") != std::string::npos) train_loss_uncovered = !r["covered"].get<bool>();
  EXPECT_TRUE(train_loss_uncovered);
}

// Finding 4: this exact command used to loop forever (a client with an empty shard).
TEST(TrustE2e, EmptyShardsDoNotHang) {
  const std::string dir = Scratch() + "dirichlet";
  const auto r = RunProgram("timeout", {"120", kDpfl, "train", "--dataset", "synthetic", "--synthetic-samples", "300", "--split",
                                        "dirichlet", "--beta", "0.01", "--clients", "50", "--local-steps", "1", "--rounds", "1",
                                        "--out", dir, "--quiet", "--no-plots", "--workers", "1"},
                            Scratch());
  ASSERT_EQ(r.exit_code, 0) << "exit 124 = timed out (the hang): " << r.err;
  const std::string metrics = ReadBytes(dir + "/metrics.csv");
  // The idle_clients column, found by its name in the header.
  std::vector<std::string> header, row;
  std::istringstream lines(metrics);
  for (auto* fields : {&header, &row}) {
    std::string line, field;
    std::getline(lines, line);
    std::istringstream cells(line);
    while (std::getline(cells, field, ',')) fields->push_back(field);
  }
  const auto column = std::find(header.begin(), header.end(), "idle_clients");
  ASSERT_NE(column, header.end()) << metrics;
  ASSERT_EQ(row.size(), header.size()) << metrics;
  const int idle = std::stoi(row[static_cast<std::size_t>(column - header.begin())]);
  EXPECT_GT(idle, 0) << "beta = 0.01 over 50 clients leaves some shards empty: " << metrics;
  EXPECT_EQ(Verify(dir).exit_code, 0);
}

// Finding 6: one line, exit 2, values in shortest round-trip form.
TEST(TrustE2e, ErrorsAreOneClearLine) {
  const auto fsys = RunProgram(kDpfl, {"train", "--dataset", "synthetic", "--out", "/proc/x", "--rounds", "1", "--quiet"}, Scratch());
  EXPECT_EQ(fsys.exit_code, 2) << fsys.err;
  EXPECT_EQ(fsys.err.find("internal error"), std::string::npos) << fsys.err;
  EXPECT_NE(fsys.err.find("/proc/x"), std::string::npos) << fsys.err;
  EXPECT_EQ(std::count(fsys.err.begin(), fsys.err.end(), '\n'), 1) << fsys.err;
  const auto big = RunProgram(kDpfl, {"sample", "ldpq", "--eps", "1e308", "--c", "0", "--r", "1", "--w", "0", "--n", "10", "--seed", "1"},
                              Scratch());
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_NE(big.err.find("1e+308"), std::string::npos) << big.err;
  EXPECT_LT(big.err.size(), 200u) << big.err;
  const auto tiny = RunProgram(kDpfl, {"sample", "ldpq", "--eps", "1", "--c", "0", "--r", "1e-320", "--w", "0", "--n", "10", "--seed", "1"},
                               Scratch());
  EXPECT_EQ(tiny.exit_code, 2);
  EXPECT_NE(tiny.err.find("1e-320"), std::string::npos) << tiny.err;
  EXPECT_EQ(tiny.err.find("0.000000"), std::string::npos) << tiny.err;
}

}  // namespace
