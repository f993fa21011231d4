// dpfl_certify without LibTorch (so also under ASan+UBSan; docs/training.md "Certificate"): operator keys and
// signatures, the guarantee schema with an inapplicable theorem never summed, the configuration
// mapping, and the verifier's typed access to untrusted JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "certificate.hpp"
#include "dpfl/error.hpp"

namespace {

using dpfl::InvalidArgument;
using nlohmann::json;
namespace certify = dpfl::certify;

TEST(CertificateKeys, SignVerifyAndTamper) {
  const certify::KeyPair k = certify::GenerateKeyPair();
  const certify::KeyPair parsed = certify::ParseSecretKey(certify::SecretKeyText(k), "key");
  EXPECT_EQ(parsed.public_key, k.public_key);
  EXPECT_EQ(certify::ParsePublicKey(certify::PublicKeyText(k), "pub"), k.public_key);
  const std::string doc = "{\"format\": \"dpfl-certificate-v2\"}\n";
  const std::string sig = certify::Sign(doc, k);
  EXPECT_TRUE(certify::VerifySignature(doc, sig, k.public_key));
  std::string changed = doc;
  changed[3] ^= 1;
  EXPECT_FALSE(certify::VerifySignature(changed, sig, k.public_key));
  EXPECT_FALSE(certify::VerifySignature(doc, sig, certify::GenerateKeyPair().public_key));
}

TEST(CertificateKeys, MalformedKeyFilesAreInvalidArgument) {
  const certify::KeyPair k = certify::GenerateKeyPair();
  const std::string pub = certify::PublicKeyText(k), sec = certify::SecretKeyText(k);
  for (const std::string& bad : {std::string(), std::string("dpfl-ed25519-public-v1\n"), pub.substr(0, pub.size() - 3),
                                 pub + "00", "dpfl-ed25519-public-v1\n" + std::string(64, 'g') + "\n", sec})
    EXPECT_THROW(certify::ParsePublicKey(bad, "pub"), InvalidArgument) << bad;
  // A secret key whose public half does not belong to its seed.
  std::string inconsistent = sec;
  inconsistent[inconsistent.size() - 3] = inconsistent[inconsistent.size() - 3] == '0' ? '1' : '0';
  EXPECT_THROW(certify::ParseSecretKey(inconsistent, "key"), InvalidArgument);
  EXPECT_THROW(certify::ParseSecretKey(pub, "key"), InvalidArgument);
  EXPECT_THROW(certify::VerifySignature("x", "not a signature", k.public_key), InvalidArgument);
}

// Authenticity is decided by the library (certify::CheckAuthenticity), the CLI only reads files.
TEST(CertificateAuthenticity, SignedUnsignedAndEachRejection) {
  const certify::KeyPair k = certify::GenerateKeyPair(), other = certify::GenerateKeyPair();
  const std::string hex = certify::Hex(k.public_key.data(), k.public_key.size());
  const json signed_cert = {{"format", "dpfl-certificate-v2"}, {"authenticity", {{"signed", true}, {"public_key", hex}}}};
  const std::string bytes = signed_cert.dump(2) + "\n";
  const std::string sig = certify::Sign(bytes, k);
  const auto check = [&](const json& cert, const std::string& text, const std::optional<std::string>& signature,
                         const std::optional<std::array<std::uint8_t, 32>>& key) {
    return certify::CheckAuthenticity(text, cert, signature, "certificate.json.sig", key);
  };
  const certify::Authenticity good = check(signed_cert, bytes, sig, k.public_key);
  EXPECT_EQ(good.status, "signed");
  EXPECT_TRUE(good.problems.empty());
  EXPECT_EQ(good.checked.size(), 1u);
  // Without a key nothing is rejected, and nothing is claimed beyond what the file says.
  EXPECT_EQ(check(signed_cert, bytes, sig, std::nullopt).status, "signed, not checked (no --public-key): integrity only");
  EXPECT_EQ(check(json{{"authenticity", {{"signed", false}}}}, "{}", std::nullopt, std::nullopt).status, "unsigned");
  // Each way to fail, by name.
  struct Case {
    std::string what;
    certify::Authenticity got;
  };
  std::string changed = bytes;
  changed[5] ^= 1;
  const json unsigned_cert = {{"authenticity", {{"signed", false}}}};
  for (const Case& c : {Case{"says it is unsigned", check(unsigned_cert, bytes, sig, k.public_key)},
                        Case{"no signature file", check(signed_cert, bytes, std::nullopt, k.public_key)},
                        Case{"not the --public-key", check(signed_cert, bytes, sig, other.public_key)},
                        Case{"does not verify", check(signed_cert, changed, sig, k.public_key)}}) {
    EXPECT_EQ(c.got.status, "rejected") << c.what;
    ASSERT_EQ(c.got.problems.size(), 1u) << c.what;
    EXPECT_NE(c.got.problems[0].find(c.what), std::string::npos) << c.got.problems[0];
    EXPECT_TRUE(c.got.checked.empty()) << c.what;
  }
  EXPECT_THROW(check(signed_cert, bytes, std::string("not a signature"), k.public_key), InvalidArgument);
}

TEST(CertificateAuthenticity, ParseCertificateTextRefusesNonJsonAndDeepNesting) {
  EXPECT_EQ(certify::ParseCertificateText("{\"a\": 1}", "c.json", "file")["a"], 1);
  EXPECT_THROW(certify::ParseCertificateText("{\"a\": ", "c.json", "file"), InvalidArgument);
  const std::string deep = std::string(certify::kMaxCertificateDepth + 1, '[') + std::string(certify::kMaxCertificateDepth + 1, ']');
  try {
    certify::ParseCertificateText(deep, "c.json", "file");
    ADD_FAILURE() << "deep nesting accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "file");
    EXPECT_NE(std::string(e.what()).find("nested deeper than"), std::string::npos) << e.what();
  }
}

json Configuration(const std::string& mechanism, std::uint64_t clients, double dropout = 0) {
  return {{"dataset", "synthetic"}, {"mechanism", mechanism}, {"eps_p", 1.0}, {"d", 5}, {"gamma", 0.2},
          {"delta", 1e-5}, {"delta_u", 1e-5}, {"dropout", dropout}, {"clients", clients}, {"rounds", 2},
          {"lambda", 1.0}, {"lambda_grid", false}, {"seed", 1}, {"model", "auto"}, {"optimizer", "sgd"}, {"lr", 0.05},
          {"momentum", 0.0}, {"local_epochs", 1}, {"local_steps", 0}, {"batch", 64}, {"patience", 5},
          {"radius_scale", 1.25}, {"split", "iid"}, {"beta", 0.5}, {"generator", "chacha20"}, {"threads", 1},
          {"monitor_samples", 64}, {"keys", "simulated"}, {"max_samples", 0}, {"synthetic_samples", 600},
          {"parameters", 1000}, {"layers", 2}};
}

json Ranges(int rounds) {
  json out = json::array();
  for (int t = 1; t <= rounds; ++t)
    out.push_back({{"round", t}, {"c", {certify::HexDouble(0.0), certify::HexDouble(0.1)}},
                   {"r", {certify::HexDouble(0.5), certify::HexDouble(0.25)}}});
  return out;
}

const json* FindNotion(const json& privacy, const std::string& word) {
  for (const auto& g : privacy.at("guarantees"))
    if (g.at("notion").get<std::string>().find(word) != std::string::npos) return &g;
  return nullptr;
}

// A theorem whose preconditions fail is no guarantee: at 10 clients Thm 3's preconditions fail;
// the guarantee does not apply, has no number, and no total exists.
TEST(CertificatePrivacy, InapplicableTheoremIsNotAGuarantee) {
  const json privacy = certify::ComputePrivacy(Configuration("augcorbin-fl", 10), Ranges(2));
  for (const auto& r : privacy.at("rounds")) EXPECT_FALSE(r.at("ucdp").at("corrected").at("precondition_holds").get<bool>());
  const json* ucdp = FindNotion(privacy, "UCDP");
  ASSERT_NE(ucdp, nullptr);
  EXPECT_FALSE(ucdp->at("applies").get<bool>());
  EXPECT_TRUE(ucdp->at("epsilon_hi").is_null());
  EXPECT_FALSE(privacy.contains("composition"));
}

// Every notion side by side (DESIGN.md "Certificate (v2)"): per parameter and whole update, one
// round and all rounds, as enclosures.
TEST(CertificatePrivacy, GuaranteesScaleWithParametersAndRounds) {
  const json privacy = certify::ComputePrivacy(Configuration("ldp-fl", 4), Ranges(2));
  const auto& g = privacy.at("guarantees");
  ASSERT_GE(g.size(), 4u);
  const auto hi = [&](int k) { return std::stod(g[k].at("epsilon_hi").get<std::string>()); };
  const auto lo = [&](int k) { return std::stod(g[k].at("epsilon_lo").get<std::string>()); };
  for (int k = 0; k < 4; ++k) {
    EXPECT_TRUE(g[k].at("applies").get<bool>());
    EXPECT_LE(lo(k), hi(k));
  }
  EXPECT_NEAR(hi(0), 1.0, 1e-12);
  EXPECT_NEAR(hi(1), 2.0, 1e-12);
  EXPECT_NEAR(hi(2), 1000.0, 1e-9);
  EXPECT_NEAR(hi(3), 2000.0, 1e-9);
  EXPECT_NE(FindNotion(privacy, "privacy loss distribution"), nullptr);
  // No privacy, no numbers.
  const json none = certify::ComputePrivacy(Configuration("vanilla", 4), Ranges(1));
  ASSERT_EQ(none.at("guarantees").size(), 1u);
  EXPECT_FALSE(none.at("guarantees")[0].at("applies").get<bool>());
}

// With dropout the tight central row is the mixture over the public dropout pattern
// (pld_central.hpp "Dropout") at the implemented absence probability ⌊p·2^64⌋/2^64; for LDP-FL at
// n = 4 it is finite and far below the basic composition of the local guarantee (m T ε_p = 2000).
TEST(CertificatePrivacy, TightCentralRowWithDropoutIsTheMixture) {
  const json privacy = certify::ComputePrivacy(Configuration("ldp-fl", 4, 0.25), Ranges(2));
  const json* tight = FindNotion(privacy, "tight central");
  ASSERT_NE(tight, nullptr) << privacy.dump();
  EXPECT_TRUE(tight->at("applies").get<bool>()) << tight->dump();
  EXPECT_EQ(tight->at("dropout_implemented"), "1/4");
  EXPECT_NE(tight->at("observer").get<std::string>().find("schedule"), std::string::npos);
  const double lo = std::stod(tight->at("epsilon_lo").get<std::string>());
  const double hi = std::stod(tight->at("epsilon_hi").get<std::string>());
  EXPECT_GT(lo, 0);
  EXPECT_LE(lo, hi);
  EXPECT_LT(hi, 2000.0);
  EXPECT_LE(hi - lo, 0.02 * hi) << "the enclosure should be tight";
}

// More solo clients than the exact envelope takes (augcorbin-fl, n = 2000, γ = 1/2: 1000 solo):
// the tight central row is computed on the pattern path, says so, and is finite and ordered.
TEST(CertificatePrivacy, ManySoloClientsGetATightCentralRow) {
  json cfg = Configuration("augcorbin-fl", 2000);
  cfg["gamma"] = 0.5;
  const json privacy = certify::ComputePrivacy(cfg, Ranges(2));
  const json* tight = FindNotion(privacy, "tight central");
  ASSERT_NE(tight, nullptr);
  ASSERT_TRUE(tight->at("applies").get<bool>()) << tight->dump();
  EXPECT_EQ(tight->at("solo_clients"), 1000);
  EXPECT_NE(tight->at("composition").get<std::string>().find("fair-coin"), std::string::npos);
  EXPECT_NE(tight->at("observer").get<std::string>().find("schedule"), std::string::npos);
  const double lo = std::stod(tight->at("epsilon_lo").get<std::string>());
  const double hi = std::stod(tight->at("epsilon_hi").get<std::string>());
  EXPECT_GT(lo, 0);
  EXPECT_LE(lo, hi);
  EXPECT_LT(hi, 2000.0) << "the local whole-update row is 2000 at eps_p = 1";
}

// The laplace baseline is pure ε_p-LDP per parameter; over m T = 2000 releases basic composition
// gives 2000 ε_p, the PLD of the exact discrete Laplace much less at δ_u = 1e-5.
TEST(CertificatePrivacy, LaplaceTightLocalRowIsFarBelowBasicComposition) {
  const json privacy = certify::ComputePrivacy(Configuration("laplace", 4), Ranges(2));
  const json* tight = FindNotion(privacy, "whole participation");
  ASSERT_NE(tight, nullptr) << privacy.dump();
  EXPECT_TRUE(tight->at("applies").get<bool>());
  const double lo = std::stod(tight->at("epsilon_lo").get<std::string>());
  const double hi = std::stod(tight->at("epsilon_hi").get<std::string>());
  const double basic = std::stod(privacy.at("guarantees")[3].at("epsilon_hi").get<std::string>());
  EXPECT_NEAR(basic, 2000.0, 1e-6);
  EXPECT_GT(lo, 0);
  EXPECT_LE(lo, hi);
  EXPECT_LT(hi, 0.9 * basic) << tight->dump();
  EXPECT_LE(hi - lo, 0.02 * hi);
}

// The gaussian baseline is (ε_p, δ)-LDP per parameter (the exact discrete Gaussian at σ ≈ 5·10^6
// grid steps); the PLD of the m T = 2000 releases at δ_u = 1e-5 is far below basic composition's
// 2000 ε_p (which also pays 2000 δ). Its central row says why it is not computed.
TEST(CertificatePrivacy, GaussianTightLocalRowIsFarBelowBasicComposition) {
  const json privacy = certify::ComputePrivacy(Configuration("gaussian", 4), Ranges(2));
  const json* tight = FindNotion(privacy, "whole participation");
  ASSERT_NE(tight, nullptr) << privacy.dump();
  EXPECT_TRUE(tight->at("applies").get<bool>());
  EXPECT_NE(tight->at("composition").get<std::string>().find("discrete Gaussian"), std::string::npos);
  const double lo = std::stod(tight->at("epsilon_lo").get<std::string>());
  const double hi = std::stod(tight->at("epsilon_hi").get<std::string>());
  const double basic = std::stod(privacy.at("guarantees")[3].at("epsilon_hi").get<std::string>());
  EXPECT_GT(lo, 0);
  EXPECT_LE(lo, hi);
  EXPECT_LT(hi, 0.2 * basic) << tight->dump();
  EXPECT_LE(hi - lo, 0.02 * hi);
  const json* central = FindNotion(privacy, "tight central");
  ASSERT_NE(central, nullptr);
  EXPECT_FALSE(central->at("applies").get<bool>());
  EXPECT_NE(central->at("reason").get<std::string>().find("not a function of the integer sum"), std::string::npos);
}

// --target-epsilon for the noise baselines targets the tight local row: calibrate finds an eps_p
// whose certified row meets the target while a 2 % larger eps_p does not; stop keeps eps_p and
// cuts the rounds. The certificate at the plan is computed independently of the plan's runs.
TEST(CertificatePrivacy, TargetEpsilonForNoiseBaselinesMeetsTheLocalRow) {
  for (const char* mech : {"laplace", "gaussian"}) {
    json cfg = Configuration(mech, 4);
    cfg["parameters"] = 100;  // m T = 200 releases at eps_p = 1: laplace [.., 119.9], gaussian [.., 22.8]
    const double target = std::string(mech) == "laplace" ? 50.0 : 10.0;
    const certify::TargetPlan plan = certify::PlanTargetEpsilon(cfg, target, true);
    EXPECT_EQ(plan.row, "tight (epsilon, delta) of a client's whole participation from a privacy loss distribution");
    EXPECT_EQ(plan.rounds, 2u);
    ASSERT_GT(plan.eps_p, 0.0) << mech;
    EXPECT_LT(plan.eps_p, 1.0) << mech;  // the configured eps_p = 1 exceeds both targets
    auto certified = [&](double eps_p) {
      json c = cfg;
      c["eps_p"] = eps_p;
      const json privacy = certify::ComputePrivacy(c, Ranges(2));
      const json* row = FindNotion(privacy, "whole participation");
      EXPECT_TRUE(row && row->at("applies").get<bool>()) << privacy.dump();
      return std::make_pair(std::stod(row->at("epsilon_lo").get<std::string>()),
                            std::stod(row->at("epsilon_hi").get<std::string>()));
    };
    EXPECT_LE(certified(plan.eps_p).second, target) << mech;
    EXPECT_GT(certified(plan.eps_p * 1.02).first, target) << mech << ": the calibration left budget unused";
    const certify::TargetPlan stop = certify::PlanTargetEpsilon(cfg, std::string(mech) == "laplace" ? 100.0 : 20.0, false);
    EXPECT_EQ(stop.rounds, 1u) << mech << ": one round fits, two do not";
    EXPECT_EQ(stop.eps_p, 1.0);
  }
  EXPECT_THROW(certify::PlanTargetEpsilon(Configuration("vanilla", 4), 10, true), InvalidArgument);
}

TEST(CertificateConfig, MappingAndTypedErrors) {
  json cfg = Configuration("corbin-fl", 4);
  const dpfl::fl::TrainConfig c = certify::TrainConfigFromJson(cfg);
  EXPECT_EQ(c.clients, 4u);
  EXPECT_EQ(c.keys, "simulated");
  json no_threads = cfg;
  no_threads.erase("threads");
  EXPECT_EQ(c.transcript_context, no_threads.dump());
  json more_threads = cfg;
  more_threads["threads"] = 8;
  EXPECT_EQ(certify::TrainConfigFromJson(more_threads).transcript_context, c.transcript_context);
  for (const auto& [key, value] : std::vector<std::pair<std::string, json>>{
           {"clients", -1}, {"clients", 1e20}, {"clients", "4"}, {"eps_p", "1"}, {"d", 1.5}, {"seed", -3}, {"keys", 7}}) {
    json bad = cfg;
    bad[key] = value;
    EXPECT_THROW(certify::TrainConfigFromJson(bad), InvalidArgument) << key << " = " << value;
  }
  json missing = cfg;
  missing.erase("rounds");
  EXPECT_THROW(certify::TrainConfigFromJson(missing), InvalidArgument);
}

TEST(CertificateVerify, MalformedCertificatesAreProblemsNotCrashes) {
  for (const json& cert : {json(), json::array(), json{{"format", 2}}, json{{"format", "dpfl-certificate-v1"}},
                           json{{"format", "dpfl-certificate-v2"}}, json{{"format", "dpfl-certificate-v2"}, {"digest", "x"}}}) {
    const certify::Verification v = certify::VerifyCertificate(cert);
    EXPECT_FALSE(v.ok) << cert.dump();
    EXPECT_FALSE(v.problems.empty());
  }
  // fuzz/README.md F5: nesting that would overflow the recursive dump is refused first.
  const std::string nested = std::string(100000, '[') + std::string(100000, ']');
  const json hostile = json::parse("{\"format\":\"dpfl-certificate-v2\",\"digest\":\"x\",\"dataset\":" + nested + "}");
  EXPECT_GT(certify::JsonDepth(hostile), certify::kMaxCertificateDepth);
  const certify::Verification deep_v = certify::VerifyCertificate(hostile);
  EXPECT_FALSE(deep_v.ok);
  EXPECT_NE(deep_v.problems.at(0).find("nested"), std::string::npos);
  const certify::Verification v1 = certify::VerifyCertificate(json{{"format", "dpfl-certificate-v1"}});
  EXPECT_NE(v1.problems.at(0).find("dpfl-certificate-v1"), std::string::npos);
}


// ---- whole certificates from hand-made runs (no LibTorch, so ASan covers them) ----------------

// A run as RunTraining would report it: `rounds` rounds of 2 layers (m = 1000), every monitor
// passed at dpfl's α with the true critical value, transcript hashes well formed.
dpfl::fl::TrainResult HandMadeRun(const json& cfg, int rounds) {
  dpfl::fl::TrainResult r;
  r.layer_sizes = {600, 400};
  for (int t = 1; t <= rounds; ++t) {
    dpfl::fl::RoundRecord rec;
    rec.round = static_cast<std::uint32_t>(t - 1);  // 0-based in TrainResult, 1-based in the certificate
    rec.val_accuracy = 0.5 + 0.01 * t;
    rec.test_accuracy = 0.4 + 0.01 * t;
    rec.survivors = static_cast<std::uint32_t>(cfg.at("clients").get<int>());
    rec.pairs = rec.survivors / 2;
    rec.c = {0.0, 0.1};
    rec.r = {0.5, 0.25};
    rec.transcript = std::string(63, 'a') + static_cast<char>('0' + t);
    rec.monitor.applicable = true;
    rec.monitor.passed = true;
    rec.monitor.test = "z";
    rec.monitor.statistic = 0.25 * t;
    rec.monitor.alpha = certify::kMonitorAlpha;
    rec.monitor.critical = certify::MonitorCritical(certify::kMonitorAlpha);
    rec.monitor.samples = rec.survivors * cfg.at("monitor_samples").get<std::size_t>();
    r.history.push_back(rec);
  }
  r.final_test = {0.9, r.history.back().test_accuracy};
  r.transcript_start = dpfl::fl::TranscriptStart(certify::TrainConfigFromJson(cfg), 1000);
  return r;
}

json HandMadeCertificate(const json& cfg, int rounds) {
  const certify::RunFiles files{std::string(64, 'b'), std::string(64, 'c')};
  return certify::BuildCertificate(cfg, {{"name", "synthetic"}, {"samples", 600}}, "test", HandMadeRun(cfg, rounds), files,
                                   std::nullopt);
}

// What a forger does (docs/training.md "Threat model"): edit, then recompute the unkeyed digest.
json Redigest(json cert) {
  cert.erase("digest");
  const std::string text = cert.dump();
  cert["digest"] = dpfl::fl::Sha256Hex(text.data(), text.size());
  return cert;
}

bool HasProblem(const certify::Verification& v, const std::string& words) {
  for (const std::string& p : v.problems)
    if (p.find(words) != std::string::npos) return true;
  return false;
}

TEST(CertificateBuild, HandMadeRunsVerifyForEveryMechanism) {
  for (const char* mechanism : {"vanilla", "ldp-fl", "corbin-fl", "augcorbin-fl", "coq-fl", "laplace", "gaussian"}) {
    json cfg = Configuration(mechanism, 4);
    if (std::string(mechanism) == "augcorbin-fl") cfg["clients"] = 10;
    json cert = HandMadeCertificate(cfg, 2);
    if (std::string(mechanism) == "vanilla")  // no PLDP: the monitor does not apply
      for (auto& r : cert["rounds"]) r["monitor"] = {{"applicable", false}, {"passed", true}, {"test", ""},
                                                     {"statistic", 0}, {"critical", 0}, {"alpha", 0}, {"samples", 0}};
    cert = Redigest(cert);
    const certify::Verification v = certify::VerifyCertificate(cert);
    EXPECT_TRUE(v.ok) << mechanism << ": " << json(v.problems).dump();
    EXPECT_EQ(cert.at("format"), certify::kFormat);
  }
}

// The "environment" record (run_environment.cpp): present in every certificate, its CPU features
// agree with the kernel's /proc/cpuinfo flags, the dispatch-capping variables are read at run time,
// and a replay elsewhere names exactly the fields that differ.
TEST(CertificateEnvironment, RecordedReadFromTheMachineAndDifferencesNamed) {
  const json env = HandMadeCertificate(Configuration("ldp-fl", 4), 2).at("environment");
  for (const char* key : {"libtorch", "architecture", "cpu_features", "ATEN_CPU_CAPABILITY", "DNNL_MAX_CPU_ISA", "statement"})
    EXPECT_TRUE(env.contains(key)) << key;
  EXPECT_TRUE(env.at("libtorch").is_null() || env.at("libtorch").is_string());
  ASSERT_TRUE(env.at("cpu_features").is_array());
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, flags;
  while (std::getline(cpuinfo, line))
    if (line.rfind("flags", 0) == 0) {
      flags = line + " ";
      break;
    }
  if (env.at("architecture") == "x86_64" && !flags.empty()) {
    for (const char* f : {"avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512dq"}) {
      const bool listed = std::find(env.at("cpu_features").begin(), env.at("cpu_features").end(), json(f)) !=
                          env.at("cpu_features").end();
      EXPECT_EQ(listed, flags.find(std::string(" ") + f + " ") != std::string::npos) << f;
    }
  }
  ASSERT_EQ(setenv("ATEN_CPU_CAPABILITY", "avx2", 1), 0);
  const json capped = certify::RunEnvironment();
  ASSERT_EQ(unsetenv("ATEN_CPU_CAPABILITY"), 0);
  EXPECT_EQ(capped.at("ATEN_CPU_CAPABILITY"), "avx2");
  EXPECT_TRUE(certify::RunEnvironment().at("ATEN_CPU_CAPABILITY").is_null());

  const json here = certify::RunEnvironment();
  EXPECT_TRUE(certify::EnvironmentDifferences(nullptr, here).empty());  // certificates before the record
  EXPECT_TRUE(certify::EnvironmentDifferences(here, here).empty());
  json other = here;
  other["cpu_features"] = json::array({"avx2"});
  other["libtorch"] = "0.0.1";
  other["statement"] = "not compared";
  const std::vector<std::string> d = certify::EnvironmentDifferences(other, here);
  const bool same_features = here.at("cpu_features") == other.at("cpu_features");
  ASSERT_EQ(d.size(), same_features ? 1u : 2u) << json(d).dump();
  EXPECT_NE(d.front().find("libtorch \"0.0.1\" in the certificate"), std::string::npos) << d.front();
  if (!same_features) {
    EXPECT_EQ(d.back().rfind("cpu_features [\"avx2\"] in the certificate", 0), 0u) << d.back();
  }
}

TEST(CertificateBuild, EachForgeryIsRejectedByNameEvenWithARecomputedDigest) {
  const json cfg = Configuration("corbin-fl", 4);
  const json genuine = HandMadeCertificate(cfg, 2);
  ASSERT_TRUE(certify::VerifyCertificate(genuine).ok) << json(certify::VerifyCertificate(genuine).problems).dump();
  struct Forgery {
    const char* name;
    std::function<void(json&)> edit;
    const char* expect;
  };
  const std::vector<Forgery> forgeries = {
      {"final accuracy", [](json& c) { c["final"]["test_accuracy"] = 0.99; }, "final.test_accuracy"},
      {"weights hash", [](json& c) { c["final"]["weights_sha256"] = std::string(64, '0'); }, "final.weights_sha256"},
      {"monitor statistic", [](json& c) { c["rounds"][1]["monitor"]["statistic"] = 1e9; }, "exceeds the critical value"},
      {"monitor critical", [](json& c) { c["rounds"][0]["monitor"]["critical"] = 1e10; }, "critical value"},
      {"monitor alpha", [](json& c) { c["rounds"][0]["monitor"]["alpha"] = 0.5; }, "alpha"},
      {"monitor samples", [](json& c) { c["rounds"][0]["monitor"]["samples"] = 1; }, "sample count"},
      {"privacy", [](json& c) { c["privacy"]["guarantees"][0]["epsilon_hi"] = "0.5"; }, "privacy ledger differs"},
      {"round dropped", [](json& c) { c["rounds"].erase(1); }, "round count"},
      {"transcript h0", [](json& c) { c["transcript"]["h0"] = std::string(64, 'f'); }, "transcript.h0"},
      {"transcript final", [](json& c) { c["transcript"]["final"] = std::string(64, 'e'); }, "transcript"},
      {"configuration", [](json& c) { c["configuration"]["eps_p"] = -1.0; }, "configuration is invalid"},
  };
  for (const Forgery& f : forgeries) {
    json forged = genuine;
    f.edit(forged);
    const certify::Verification stale = certify::VerifyCertificate(forged);
    EXPECT_FALSE(stale.ok) << f.name;
    EXPECT_TRUE(HasProblem(stale, "digest mismatch")) << f.name;
    const certify::Verification v = certify::VerifyCertificate(Redigest(forged));
    EXPECT_FALSE(v.ok) << f.name;
    EXPECT_FALSE(HasProblem(v, "digest mismatch")) << f.name;
    EXPECT_TRUE(HasProblem(v, f.expect)) << f.name << ": " << json(v.problems).dump();
  }
}

// A certificate whose tight central row came from an earlier, wider accountant (before
// connect-the-dots: a lower ε_lo, a higher envelope ε_hi) still verifies, and says why; a row that
// claims more than today's recomputation supports (a higher ε_lo, a lower ε_hi) does not.
TEST(CertificateVerify, AnEarlierAccountantsWiderCentralRowIsImpliedANarrowerOneIsNot) {
  const json genuine = HandMadeCertificate(Configuration("ldp-fl", 4), 2);
  std::size_t row = 0;
  const json& rows = genuine.at("privacy").at("guarantees");
  while (row < rows.size() && rows[row].value("notion", "") != certify::kTightCentralNotion) ++row;
  ASSERT_LT(row, rows.size());
  const json& now = rows[row];
  ASSERT_TRUE(now.at("epsilon_lo").is_string() && now.at("epsilon_hi").is_string()) << now.dump();
  const double lo = std::stod(now.at("epsilon_lo").get<std::string>());
  const double hi = std::stod(now.at("epsilon_hi").get<std::string>());
  auto text = [](double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return std::string(buf);
  };
  auto with = [&](const std::string& key, double v) {
    json c = genuine;
    c["privacy"]["guarantees"][row][key] = text(v);
    return certify::VerifyCertificate(Redigest(c));
  };
  const certify::Verification wider_lo = with("epsilon_lo", lo * 0.99);
  EXPECT_TRUE(wider_lo.ok) << json(wider_lo.problems).dump();
  EXPECT_NE(json(wider_lo.checked).dump().find("implied by today's recomputation"), std::string::npos);
  EXPECT_TRUE(with("epsilon_hi", hi * 1.01).ok);
  EXPECT_TRUE(with("epsilon_hi_pld_envelope", hi * 2).ok);
  const certify::Verification narrower_lo = with("epsilon_lo", lo * 1.01);
  EXPECT_FALSE(narrower_lo.ok);
  EXPECT_TRUE(HasProblem(narrower_lo, "privacy ledger differs"));
  EXPECT_FALSE(with("epsilon_hi", hi * 0.99).ok);
  json other = genuine;  // any other field of the row must still match exactly
  other["privacy"]["guarantees"][row]["observer"] = "someone else";
  other["privacy"]["guarantees"][row]["epsilon_lo"] = text(lo * 0.99);
  EXPECT_FALSE(certify::VerifyCertificate(Redigest(other)).ok);
}

// The gaussian / laplace baselines' tight local row is computed with connect-the-dots since the
// accounting issue. A certificate written before carries the rounding accountant's enclosure: it
// verifies, either implied by today's narrower one or recomputed the way it was computed (the
// legacy path says so); a row narrower than both fails.
TEST(CertificateVerify, ALocalRowOfTheRoundingAccountantStillVerifies) {
  for (const char* mech : {"gaussian", "laplace"}) {
    const json cfg = Configuration(mech, 4);
    const json genuine = HandMadeCertificate(cfg, 2);
    const json& rows = genuine.at("privacy").at("guarantees");
    std::size_t row = 0;
    while (row < rows.size() && rows[row].value("notion", "") != certify::kTightLocalNotion) ++row;
    ASSERT_LT(row, rows.size()) << mech;
    const json legacy = certify::ComputePrivacy(cfg, genuine.at("broadcast_ranges"), true, {}, true);
    const json& old_row = legacy.at("guarantees").at(row);
    const json& new_row = rows[row];
    ASSERT_EQ(old_row.at("notion"), new_row.at("notion"));
    EXPECT_NE(old_row.at("epsilon_lo"), new_row.at("epsilon_lo")) << mech << ": the two accountants differ";
    json c = genuine;
    c["privacy"]["guarantees"][row] = old_row;
    const certify::Verification v = certify::VerifyCertificate(Redigest(c));
    EXPECT_TRUE(v.ok) << mech << " " << json(v.problems).dump();
    const std::string checked = json(v.checked).dump();
    EXPECT_TRUE(checked.find("implied by today's recomputation") != std::string::npos ||
                checked.find("rounding discretization it was certified with") != std::string::npos)
        << checked;
    // Narrower than today's at the lower end, and not the rounding accountant's either: a problem.
    json forged = genuine;
    const double lo = std::stod(new_row.at("epsilon_lo").get<std::string>());
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", lo * 1.001);
    forged["privacy"]["guarantees"][row]["epsilon_lo"] = buf;
    const certify::Verification f = certify::VerifyCertificate(Redigest(forged));
    EXPECT_FALSE(f.ok) << mech;
    EXPECT_TRUE(HasProblem(f, "privacy ledger differs")) << mech;
  }
}

TEST(CertificateMonitor, CriticalValueIsTheNormalQuantile) {
  // z_{1 − 1e−6/2} = 4.891638... (standard normal tables); the bisection returns the upper end.
  const double z = certify::MonitorCritical(1e-6);
  EXPECT_GT(z, 4.8916);
  EXPECT_LT(z, 4.8917);
  EXPECT_THROW(certify::MonitorCritical(0), InvalidArgument);
  EXPECT_THROW(certify::MonitorCritical(1.5), InvalidArgument);
}

}  // namespace
