// The DPFL-BNN certificate (seed 004; docs/training.md "DPFL-BNN"): configuration mapping,
// privacy section, BuildBnnCertificate and the checks VerifyCertificate runs on it.
//
// Privacy (spec 004 §3.3 Alg. P, §4.4–4.7): a client releases T·d randomized-response bits, d
// per round (its binarized latents; the local batch-norm state never leaves it, E28). The
// accountant gets the *implemented* bias γ̃ = ⌈γ·2^64⌉/2^64 ≥ γ (production's exact flip
// threshold, rr_element.hpp), so every ε below is that of the code that ran. Client-level
// replace-one adjacency with Hamming distance h = d (E7; the worst case: StoSign of latents ±1 is
// deterministic, §4.4). Rows: Theorem 1 as printed (d = 1; never applies, E6), Theorem 1
// corrected (h = d), the RDP bound at the optimal order, the exact (tight) profile of k = T·d RR
// bits, and the pure ε = kℓ. Without RR (the no-noise baseline) no row applies.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "certificate.hpp"
#include "certificate_internal.hpp"
#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/ref/randomized_response.hpp"

namespace dpfl::certify {

using namespace internal;  // NOLINT: the certificate's own helpers

namespace {

constexpr const char* kUnit = "client: all of its data (client-level)";
constexpr const char* kAdjacency =
    "replace one client's data: its d-bit upload may change in all d coordinates each round (Hamming h = d; seed-004 "
    "section 2, E7)";
constexpr const char* kObserver =
    "anyone who sees a client's noised upload (the server under secure aggregation sees only the counts K: "
    "post-processing)";
constexpr const char* kComposition = "T rounds, adaptive (RDP Lemma 2; exact: the dominating pair Bern(p)^k vs Bern(q)^k)";

// "step:S:F" → (S, F); "none" → (0, 1).
std::pair<std::uint32_t, double> ParseLrSchedule(const std::string& text) {
  if (text == "none") return {0, 1.0};
  const auto bad = [&]() -> std::pair<std::uint32_t, double> {
    throw InvalidArgument("--lr-schedule", "must be none or step:S:F (S >= 1 rounds, F in (0, 1]), got '" +
                                               text.substr(0, 60) + "'");
  };
  if (text.rfind("step:", 0) != 0) return bad();
  const std::size_t colon = text.find(':', 5);
  if (colon == std::string::npos) return bad();
  const std::string s = text.substr(5, colon - 5), f = text.substr(colon + 1);
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return bad();
  char* end = nullptr;
  const double factor = std::strtod(f.c_str(), &end);
  if (f.empty() || end != f.c_str() + f.size() || !(factor > 0 && factor <= 1)) return bad();
  const unsigned long step = std::stoul(s);
  if (step < 1) return bad();
  return {static_cast<std::uint32_t>(step), factor};
}

}  // namespace

fl::BnnTrainConfig BnnTrainConfigFromJson(const nlohmann::json& cfg) {
  if (Str(cfg, "mechanism") != "dpfl-bnn") BadField("mechanism", "must be dpfl-bnn here");
  fl::BnnTrainConfig c;
  c.clients = static_cast<std::uint32_t>(U64(cfg, "clients", std::numeric_limits<std::uint32_t>::max()));
  c.rounds = static_cast<std::uint32_t>(U64(cfg, "rounds", std::numeric_limits<std::uint32_t>::max()));
  c.local_steps = Int(cfg, "local_steps");
  c.batch = Int(cfg, "batch");
  c.mix_beta = Num(cfg, "mix_beta");
  const nlohmann::json& g = Field(cfg, "rr_gamma");
  if (!g.is_null()) c.rr_gamma = Num(cfg, "rr_gamma");
  const std::string binarizer = Str(cfg, "binarizer");
  if (binarizer != "stosign" && binarizer != "sign")
    throw InvalidArgument("--binarizer", "must be stosign or sign, got '" + binarizer.substr(0, 40) + "'");
  c.binarizer = binarizer == "sign" ? quant::Binarizer::kSign : quant::Binarizer::kStoSign;
  c.lr = Num(cfg, "lr");
  std::tie(c.lr_step, c.lr_factor) = ParseLrSchedule(Str(cfg, "lr_schedule"));
  c.split = Str(cfg, "split");
  c.dirichlet_beta = Num(cfg, "beta");
  c.seed = U64(cfg, "seed");
  const std::string generator = Str(cfg, "generator");
  if (generator != "chacha20" && generator != "philox")
    throw InvalidArgument("--generator", "must be chacha20 or philox, got '" + generator.substr(0, 40) + "'");
  c.generator = generator == "philox" ? rng::Generator::kPhilox4x32 : rng::Generator::kChaCha20;
  c.eval_clients = static_cast<std::uint32_t>(U64(cfg, "eval_clients", std::numeric_limits<std::uint32_t>::max()));
  c.eval_samples = static_cast<std::size_t>(U64(cfg, "eval_samples"));
  c.transcript_context = TranscriptContext(cfg);
  return c;
}

nlohmann::json ComputeBnnPrivacy(const nlohmann::json& cfg) {
  const std::uint64_t d = U64(cfg, "latents"), rounds = U64(cfg, "rounds");
  const double delta_d = Num(cfg, "delta");
  if (!(delta_d > 0 && delta_d < 1)) throw InvalidArgument("--delta", "must be in (0, 1)");
  const Rational delta = Exact(delta_d);
  nlohmann::json p = {{"mechanism", "randomized response on each client's d binarized latent weights, every round "
                                    "(seed-004 Alg. B then C); nothing else leaves a client (batch-norm state is local, E28)"},
                      {"bits_per_client_per_round", d}, {"rounds", rounds}, {"k", d * rounds},
                      {"delta", Dec(delta)}};
  nlohmann::json& g = p["guarantees"] = nlohmann::json::array();
  const nlohmann::json& gamma_json = Field(cfg, "rr_gamma");
  if (gamma_json.is_null()) {
    p["rr_gamma"] = nullptr;
    g.push_back(Guarantee("none", kUnit, "-", "-", "-", nullptr, "", false,
                          "no randomized response (--rr-gamma absent: the BNN baseline): clients upload their "
                          "binarized weights as they are"));
    return p;
  }
  const quant::RandomizedResponse rr = quant::MakeRandomizedResponse(Num(cfg, "rr_gamma"));
  const Rational gamma = Rational(ref::Int(quant::ImplementedGammaNumerator(rr))) / ref::Pow2(64);
  p["rr_gamma"] = rr.gamma;
  p["implemented_gamma"] = Dec(gamma);
  p["implemented_gamma_exact"] = std::to_string(quant::ImplementedGammaNumerator(rr)) + "/2^64";
  p["flip_threshold"] = std::to_string(rr.flip_threshold);
  if (gamma >= Rational(1, 2)) {
    g.push_back(Guarantee("none", kUnit, kAdjacency, kObserver, kComposition, nullptr, "", false,
                          "gamma = 1/2: randomized response never flips, so there is no privacy"));
    return p;
  }
  const std::string delta_text = Dec(delta);
  ref::BnnSetting s;
  s.gamma = gamma;
  s.rounds = Rational(static_cast<long>(rounds));
  s.hamming = Rational(ref::Int(d));
  s.delta = delta;
  s.precision_bits = kPrec;
  ref::BnnSetting printed = s;
  printed.hamming = 1;
  {
    nlohmann::json row = Guarantee("(epsilon, delta)-DP, seed-004 Theorem 1 as printed (one bit per round, d = 1)", kUnit,
                                   kAdjacency, kObserver, kComposition, nullptr, "", false,
                                   "E6: Theorem 1 accounts one RR bit per round; a client uploads d bits per round, "
                                   "all of which may differ between neighbours, so this value is not a guarantee");
    row["epsilon_as_printed"] = IntervalJson(ref::BnnEpsilonThm1(printed));
    g.push_back(row);
  }
  const Interval thm1 = ref::BnnEpsilonThm1(s);
  g.push_back(Guarantee("(epsilon, delta)-DP, seed-004 Theorem 1 corrected (h = d)", kUnit, kAdjacency, kObserver,
                        kComposition, &thm1, delta_text, true, ""));
  const ref::RdpOptimum opt = ref::BnnEpsilonRdpOpt(s);
  nlohmann::json rdp = Guarantee("(epsilon, delta)-DP from RDP at the optimal order (h = d)", kUnit, kAdjacency, kObserver,
                                 kComposition, &opt.epsilon, delta_text, true, "");
  rdp["alpha_opt"] = opt.order ? Dec(*opt.order) : std::string("infinity");
  g.push_back(rdp);
  try {
    const Interval exact = ref::BnnEpsilonExact(s);
    g.push_back(Guarantee("(epsilon, delta)-DP, exact privacy profile of k = T*d RR bits (tight)", kUnit, kAdjacency,
                          kObserver, kComposition, &exact, delta_text, true, ""));
  } catch (const InvalidArgument& e) {
    nlohmann::json row = Guarantee("(epsilon, delta)-DP, exact privacy profile of k = T*d RR bits (tight)", kUnit,
                                   kAdjacency, kObserver, kComposition, nullptr, "", false,
                                   std::string("not computed: ") + e.what());
    g.push_back(row);
  }
  const Interval pure = ref::BnnEpsilonPure(s);
  g.push_back(Guarantee("epsilon-DP (pure): k ln(p/q)", kUnit, kAdjacency, kObserver, "T rounds, basic composition",
                        &pure, "0", true, ""));
  return p;
}

nlohmann::json BuildBnnCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                   const std::string& code_version, const fl::BnnTrainResult& result,
                                   const BnnRunFiles& files, const std::optional<std::string>& signing_public_key) {
  nlohmann::json cert = CertificateHead(
      configuration, dataset, code_version,
      "simulated: every client's StoSign and RR stream key is BLAKE2b(seed, \"bnn-client\", i), so the run is "
      "reproducible and replayable; the seed is in this certificate, so anyone can recompute every client's randomness: "
      "this protects nothing against a real adversary",
      signing_public_key);
  const std::uint64_t d = result.latents, n = Field(configuration, "clients").get<std::uint64_t>();
  cert["communication"] = {
      {"binarized_weights_per_client_per_round", d},
      {"upload_bits_per_client_per_round", result.history.empty() ? 64 * ((d + 63) / 64) : result.history.back().uplink_bits},
      {"float32_bits_per_client_per_round", 32 * d},
      {"secure_aggregation_field_bits_per_coordinate", static_cast<std::uint64_t>(std::ceil(std::log2(static_cast<double>(n) + 1)))},
      {"download", "the average (2K - n)/n per coordinate: n + 1 possible values (E24: not binary)"}};
  cert["rounds"] = nlohmann::json::array();
  for (const auto& r : result.history)
    cert["rounds"].push_back({{"round", r.round + 1}, {"test_accuracy", r.test_accuracy}, {"test_loss", r.test_loss},
                              {"accuracy_min", r.accuracy_min}, {"accuracy_max", r.accuracy_max},
                              {"evaluated_clients", r.evaluated_clients}, {"transcript", r.transcript}});
  cert["privacy"] = ComputeBnnPrivacy(configuration);
  cert["transcript"] = {{"h0", result.transcript_start},
                        {"final", result.history.empty() ? result.transcript_start : result.history.back().transcript},
                        {"layout", "docs/training.md, DPFL-BNN transcript (dpfl-bnn-transcript-v1, dpfl-bnn-round-v1)"}};
  cert["files"] = {{"final_models.bin", files.models_sha256}, {"metrics.csv", files.metrics_sha256}};
  cert["final"] = {{"test_accuracy", result.history.empty() ? 0.0 : result.history.back().test_accuracy},
                   {"models_sha256", files.models_sha256}, {"client_model_sha256", result.client_model_sha256}};
  cert["digest"] = Digest(cert);
  return cert;
}

// The DPFL-BNN part of VerifyCertificate (verify.cpp calls it after the format and digest).
void VerifyBnnCertificate(const nlohmann::json& cert, const VerifyOptions& options, Verification& v) {
  CheckRecorder rec{v};
  const auto problem = [&rec](const std::string& p) { rec.Problem(p); };
  const auto check = [&rec](bool ok, const std::string& what, const std::string& failure) { rec.Check(ok, what, failure); };
  const nlohmann::json& cfg = Field(cert, "configuration");
  fl::BnnTrainConfig config = BnnTrainConfigFromJson(cfg);
  config.out_dir = "(verify)";
  try {
    fl::ValidateBnnTrainConfig(config);
    v.checked.push_back("configuration is valid");
  } catch (const InvalidArgument& e) {
    problem(std::string("configuration is invalid: ") + e.what());
  }
  const std::uint64_t d = U64(cfg, "latents"), local = U64(cfg, "local_state"), n = config.clients;
  const nlohmann::json& rounds = Array(cert, "rounds");
  CheckRoundsNumbered(rounds, config.rounds, rec);
  const nlohmann::json recomputed = ComputeBnnPrivacy(cfg);
  if (recomputed == Field(cert, "privacy")) {
    v.checked.push_back("privacy guarantees recomputed with the reference (implemented gamma from production's threshold)");
  } else {
    problem("privacy section differs from the recomputation: " +
            nlohmann::json::diff(Field(cert, "privacy"), recomputed).dump().substr(0, 400));
  }
  const nlohmann::json& fin = Field(cert, "final");
  const nlohmann::json& files = Field(cert, "files");
  const nlohmann::json& client_hashes = Array(fin, "client_model_sha256");
  check(client_hashes.size() == n, "one final model hash per client",
        "final.client_model_sha256 holds " + std::to_string(client_hashes.size()) + " hashes for " + std::to_string(n) + " clients");
  if (!rounds.empty())
    check(Num(fin, "test_accuracy") == Num(rounds.back(), "test_accuracy"), "final test accuracy = last round's",
          "final.test_accuracy is not the last round's test accuracy");
  check(Field(fin, "models_sha256") == Field(files, "final_models.bin"), "final.models_sha256 = files[final_models.bin]",
        "final.models_sha256 differs from files[final_models.bin]");
  CheckTranscriptEnds(cert, fl::BnnTranscriptStart(config, d, local), rec);
  if (options.directory.empty()) {
    v.not_checked.push_back("files (no directory given)");
    return;
  }
  namespace fs = std::filesystem;
  const fs::path models = fs::path(options.directory) / "final_models.bin";
  if (!fs::exists(models)) {
    problem("final_models.bin not found beside the certificate: the client models cannot be checked");
  } else {
    std::ifstream in(models, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t per = 4 * (d + local);
    bool sizes = bytes.size() == per * n, each = sizes && client_hashes.size() == n;
    for (std::size_t i = 0; each && i < n; ++i) each = client_hashes[i] == fl::Sha256Hex(bytes.data() + i * per, per);
    check(fl::Sha256Hex(bytes.data(), bytes.size()) == Field(files, "final_models.bin") && sizes,
          "final_models.bin: SHA-256 and size", "final_models.bin does not match the certificate (SHA-256 or size)");
    check(each, "every client's final model hash (latents and local state) from final_models.bin",
          "a client's final model hash differs from its slice of final_models.bin");
  }
  CheckFileHash(options.directory, "metrics.csv", files, rec);
}

}  // namespace dpfl::certify
