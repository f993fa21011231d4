// See certificate.hpp: the runtime monitor, the configuration mapping and BuildCertificate.
// The privacy section is in privacy_ledger.cpp, verification in verify.cpp, signatures in
// signatures.cpp. Links dpfl_reference (accounting only).
#include "certificate.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "certificate_internal.hpp"
#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/ldpq.hpp"

namespace dpfl::certify {

using namespace internal;  // NOLINT: the certificate's own helpers
using ref::Enclosure;

std::string HexDouble(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

double ParseHexDouble(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end == s.c_str() || *end != '\0' || !std::isfinite(v))
    throw InvalidArgument("certificate", "bad number '" + s.substr(0, 40) + "'");
  return v;
}

double MonitorCritical(double alpha) {
  if (!(alpha > 0 && alpha < 1)) throw InvalidArgument("alpha", "monitor false-alarm rate must be in (0, 1), got " + ShortestDouble(alpha));
  double lo = 0, hi = 40;
  for (int k = 0; k < 80; ++k) {
    const double mid = (lo + hi) / 2;
    const Enclosure tail = Rational(1) - ref::NormalCdf(Enclosure(kPrec, Exact(mid)));
    (tail.LoDouble() * 2 > alpha ? lo : hi) = mid;
  }
  return hi;
}

fl::MonitorOutcome MonitorRound(const fl::MechanismConfig& config, std::uint32_t, const std::vector<fl::MonitorSample>& samples,
                                double alpha) {
  fl::MonitorOutcome out;
  if (samples.empty()) return out;
  out.applicable = true;
  out.alpha = alpha;
  out.samples = samples.size();
  out.critical = MonitorCritical(alpha);
  double sum = 0, mean = 0, var = 0;
  if (fl::IsBinary(config.kind)) {
    out.test = "two-sided z-test: sum of sampled bits vs the exact LDPQ marginals q(w) (reference)";
    const Interval E = ref::ToInterval(ref::ExpQ(kPrec, Exact(config.eps_p)));
    const Interval alpha_q = ref::AlphaFromE(E);
    for (const auto& s : samples) {
      const Interval q = ref::LdpqProbPlus(alpha_q, Exact(s.c), Exact(s.r), Exact(s.w_clipped));
      const double p = static_cast<double>(q.Mid());
      sum += s.plus ? 1.0 : 0.0;
      mean += p;
      var += p * (1 - p);
    }
  } else {
    const bool gauss = config.kind == fl::MechanismKind::kGaussian;
    out.test = gauss ? "two-sided z-test: mean of sampled noise/sigma vs N(0,1)"
                     : "two-sided z-test: mean of sampled noise/b vs Laplace(0,1) (variance 2)";
    for (const auto& s : samples) {
      sum += s.noise / s.noise_scale;
      var += gauss ? 1.0 : 2.0;
    }
  }
  out.statistic = var > 0 ? std::fabs(sum - mean) / std::sqrt(var) : 0.0;
  out.passed = out.statistic <= out.critical;
  return out;
}

fl::TrainConfig TrainConfigFromJson(const nlohmann::json& cfg) {
  fl::TrainConfig c;
  c.mechanism.kind = fl::ParseMechanism(Str(cfg, "mechanism"));
  c.mechanism.eps_p = Num(cfg, "eps_p");
  c.mechanism.d = Int(cfg, "d");
  c.mechanism.gamma = Num(cfg, "gamma");
  c.mechanism.delta = Num(cfg, "delta");
  c.mechanism.dropout = Num(cfg, "dropout");
  const std::string generator = Str(cfg, "generator");
  if (generator != "chacha20" && generator != "philox")
    throw InvalidArgument("--generator", "must be chacha20 or philox, got '" + generator + "'");
  c.mechanism.generator = generator == "philox" ? rng::Generator::kPhilox4x32 : rng::Generator::kChaCha20;
  c.clients = static_cast<std::uint32_t>(U64(cfg, "clients", std::numeric_limits<std::uint32_t>::max()));
  c.rounds = static_cast<std::uint32_t>(U64(cfg, "rounds", std::numeric_limits<std::uint32_t>::max()));
  c.lambda = Num(cfg, "lambda");
  c.seed = U64(cfg, "seed");
  c.local_epochs = Int(cfg, "local_epochs");
  c.local_steps = Int(cfg, "local_steps");
  c.batch = Int(cfg, "batch");
  c.patience = Int(cfg, "patience");
  c.radius_scale = Num(cfg, "radius_scale");
  c.split = Str(cfg, "split");
  c.dirichlet_beta = Num(cfg, "beta");
  c.monitor_samples = U64(cfg, "monitor_samples");
  c.keys = Str(cfg, "keys");
  c.transcript_context = TranscriptContext(cfg);
  return c;
}

std::string TranscriptContext(const nlohmann::json& configuration) {
  nlohmann::json context = configuration;
  for (const char* key : {"threads", "workers", "world_size"}) context.erase(key);
  return context.dump();
}

std::string internal::Digest(nlohmann::json cert) {
  cert.erase("digest");
  const std::string text = cert.dump();
  return fl::Sha256Hex(text.data(), text.size());
}

namespace {

nlohmann::json MonitorJson(const fl::MonitorOutcome& m) {
  return {{"applicable", m.applicable}, {"passed", m.passed}, {"test", m.test}, {"statistic", m.statistic},
          {"critical", m.critical}, {"alpha", m.alpha}, {"samples", m.samples}};
}
}  // namespace

nlohmann::json BuildCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                const std::string& code_version, const fl::TrainResult& result, const RunFiles& files,
                                const std::optional<std::string>& signing_public_key, const Progress& progress) {
  nlohmann::json cert;
  cert["format"] = kFormat;
  cert["configuration"] = configuration;
  cert["dataset"] = dataset;
  cert["code_version"] = code_version;
  cert["environment"] = RunEnvironment();
  const bool random = Str(configuration, "keys") == "random";
  cert["keys_policy"] = {
      {"mode", random ? "random" : "simulated"},
      {"statement",
       random ? "client Ed25519 identity keys, X25519 keys and private-coin ChaCha20 keys were drawn with randombytes and "
                "never stored: the run cannot be replayed bit for bit, and nobody can recompute the clients' randomness"
              : "simulated: every client key (Ed25519 identity, X25519, private-coin ChaCha20) is derived from the run seed "
                "with BLAKE2b, so the run is reproducible and replayable; the seed is in this certificate, so anyone can "
                "recompute every key and every client's randomness: this protects nothing against a real adversary"},
      {"pairing",
       "each round every client signs its X25519 public key (with round and client id) with its Ed25519 identity key; the "
       "partner checks the signature against the identity directory before deriving the pair key "
       "BLAKE2b(X25519(sk, pk_partner) || pk_Q1 || pk_Q2); the server relays keys, signatures, pairing and messages only"}};
  cert["authenticity"] = AuthenticityJson(signing_public_key);
  cert["rounds"] = nlohmann::json::array();
  nlohmann::json layers = nlohmann::json::array();
  for (const auto& r : result.history) {
    nlohmann::json c = nlohmann::json::array(), rr = nlohmann::json::array();
    for (double x : r.c) c.push_back(HexDouble(x));
    for (double x : r.r) rr.push_back(HexDouble(x));
    layers.push_back({{"round", r.round + 1}, {"c", c}, {"r", rr}});
    cert["rounds"].push_back({{"round", r.round + 1}, {"val_accuracy", r.val_accuracy}, {"test_accuracy", r.test_accuracy},
                              {"survivors", r.survivors}, {"pairs", r.pairs}, {"solo", r.solo}, {"idle", r.idle},
                              {"reloaded_best", r.reloaded_best}, {"transcript", r.transcript},
                              {"monitor", MonitorJson(r.monitor)}});
  }
  cert["broadcast_ranges"] = layers;
  cert["privacy"] = ComputePrivacy(configuration, layers, true, progress);
  cert["transcript"] = {{"h0", result.transcript_start},
                        {"final", result.history.empty() ? result.transcript_start : result.history.back().transcript},
                        {"layout", "docs/training.md, Transcript hash chain (dpfl-transcript-v1, dpfl-round-v1)"}};
  cert["files"] = {{"final_weights.bin", files.weights_sha256}, {"metrics.csv", files.metrics_sha256}};
  cert["final"] = {{"test_accuracy", result.final_test.accuracy}, {"test_loss", result.final_test.loss},
                   {"weights_sha256", files.weights_sha256}};
  cert["digest"] = Digest(cert);
  return cert;
}

}  // namespace dpfl::certify
