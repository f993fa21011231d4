// The seed-003 certificate (the quantized Gaussian and its baselines; docs/training.md
// "Quantized Gaussian"): configuration mapping, the privacy section, BuildQgaussCertificate and
// the checks VerifyCertificate runs on it.
//
// Privacy (spec 003 §2.4, §4.6; client level, replace-one-client adjacency: the client's whole
// data set changes, so its clipped update moves anywhere in the ℓ2 ball of radius C/2; the
// observer is the server, which sees every participant's message):
//  * the mechanism that runs (dpfl/fl/quantized_gaussian.hpp) adds N_Z(0, s²) to the integer
//    vector L/2 + q whose ℓ2 sensitivity is ≤ Δ = L/2; the multivariate discrete Gaussian is
//    ρ-zCDP with ρ = Δ²/(2s²) (Canonne, Kamath & Steinke 2020, Thm 14), i.e. (α, αρ)-RDP for every
//    α > 1; saturation, rounding and decoding are post-processing. The grid (L, s²) is derived by
//    the reference (dpfl::ref::QuantizedGaussianGridFor) and must equal the production's. This is
//    spec §4.6's min{αC²/(2σ²), d·ε(α)} with its first term (σ̃ = g·s ≥ σ in place of σ); the second
//    term is not used: it rests on the unproved worst-case claim E10/E-a and exceeds the first
//    for every model of more than a few coordinates.
//  * Poisson client sampling with rate q̃ = ⌈q·2^64⌉/2^64 (the implemented rate) and visible
//    participation: a round's view is the mixture (1 − q̃)·⊥ + q̃·M(x), and ⊥ is disjoint from
//    every message, so D_α((1 − q̃)⊥ + q̃M(x) ‖ (1 − q̃)⊥ + q̃M(x′)) = log(1 − q̃ + q̃·e^{(α−1)D_α(M(x)‖M(x′))})/(α − 1)
//    exactly; with D_α ≤ αρ it is a valid per-round RDP (increasing in D_α). Full participation: αρ.
//  * T rounds by RDP composition (Mironov 2017, Prop. 1); (ε, δ) by the improved conversion (CKS
//    2020, Prop. 12) minimised over the reference's default orders (dpfl::ref::Account).
//  * the Gaussian baseline at the same σ has exactly these rows (the bound is the one of the
//    noise, before quantization); seed 003's Theorem 2 per-coordinate ε_∞ bound is recorded with
//    applies: false (a scalar statement; the message has d coordinates).
#include <cmath>
#include <limits>
#include <string>

#include "certificate.hpp"
#include "certificate_internal.hpp"
#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/quantized_gaussian.hpp"
#include "dpfl/ref/accountant.hpp"
#include "dpfl/ref/quantized_gaussian.hpp"
#include "dpfl/ref/quantized_gaussian_grid.hpp"

namespace dpfl::certify {

using namespace internal;  // NOLINT: the certificate's own helpers

namespace {

constexpr const char* kUnit = "all data of one client (client level, seed 003 section 2.4)";
constexpr const char* kAdjacency =
    "replace one client: its l2-clipped update moves anywhere in the ball of radius C/2 (sensitivity C)";
constexpr const char* kObserver = "the server (sees every participant's message and who participated)";

// "full" → 1; "poisson:q" → q ∈ (0, 1) (a finite decimal).
double SamplingRate(const std::string& text) {
  if (text == "full") return 1.0;
  if (text.rfind("poisson:", 0) == 0) {
    const std::string v = text.substr(8);
    std::size_t used = 0;
    double q = 0;
    try {
      q = std::stod(v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == v.size() && !v.empty() && q > 0 && q < 1 && std::isfinite(q)) return q;
  }
  throw InvalidArgument("--client-sampling", "must be full or poisson:q with 0 < q < 1, got '" + text.substr(0, 40) + "'");
}

ref::Interval RhoInterval(const Rational& rho) { return ref::Interval(rho, rho); }

}  // namespace

double QgaussSamplingRate(const std::string& client_sampling) { return SamplingRate(client_sampling); }

fl::QgaussTrainConfig QgaussTrainConfigFromJson(const nlohmann::json& cfg) {
  fl::QgaussTrainConfig c;
  c.mechanism = fl::ParseQgaussFlMechanism(Str(cfg, "mechanism"));
  // Absent (null) for the mechanisms that do not use them: σ and C for qgauss-vanilla, k for
  // qgauss-vanilla and qgauss-gaussian; the loop then ignores these values.
  c.noise.sigma = Field(cfg, "sigma").is_null() ? 1.0 : Num(cfg, "sigma");
  c.noise.levels = Field(cfg, "levels").is_null() ? 2u : static_cast<std::uint32_t>(U64(cfg, "levels", fl::kQgaussMaxLevels));
  c.noise.clip = Field(cfg, "clip").is_null() ? 1.0 : Num(cfg, "clip");
  const std::string generator = Str(cfg, "generator");
  if (generator != "chacha20" && generator != "philox")
    throw InvalidArgument("--generator", "must be chacha20 or philox, got '" + generator.substr(0, 40) + "'");
  c.generator = generator == "philox" ? rng::Generator::kPhilox4x32 : rng::Generator::kChaCha20;
  c.clients = static_cast<std::uint32_t>(U64(cfg, "clients", std::numeric_limits<std::uint32_t>::max()));
  c.rounds = static_cast<std::uint32_t>(U64(cfg, "rounds", std::numeric_limits<std::uint32_t>::max()));
  c.local_epochs = Int(cfg, "local_epochs");
  c.batch = Int(cfg, "batch");
  c.sampling_rate = SamplingRate(Str(cfg, "client_sampling"));
  c.split = Str(cfg, "split");
  c.dirichlet_beta = Num(cfg, "beta");
  c.seed = U64(cfg, "seed");
  c.encode_threads = Int(cfg, "threads");
  c.transcript_context = TranscriptContext(cfg);
  return c;
}

nlohmann::json ComputeQgaussPrivacy(const nlohmann::json& cfg) {
  const std::string mechanism = Str(cfg, "mechanism");
  const fl::QgaussFlMechanism mech = fl::ParseQgaussFlMechanism(mechanism);
  const std::uint64_t rounds = U64(cfg, "rounds", std::numeric_limits<std::uint32_t>::max());
  const std::uint64_t m = U64(cfg, "parameters", std::uint64_t{1} << 40);
  nlohmann::json p = {{"mechanism", mechanism}, {"rounds", rounds}, {"parameters", m},
                      {"client_sampling", Field(cfg, "client_sampling")}, {"guarantees", nlohmann::json::array()}};
  if (mech == fl::QgaussFlMechanism::kVanilla) {
    p["guarantees"].push_back(Guarantee("none", kUnit, "-", "-", "-", nullptr, "", false,
                                        "qgauss-vanilla adds no noise: the server sees every client's update"));
    return p;
  }
  const fl::QgaussConfig grid_config = fl::QgaussGridConfig(mech, QgaussTrainConfigFromJson(cfg).noise);
  const double sigma = grid_config.sigma, clip = grid_config.clip;
  const long levels = static_cast<long>(grid_config.levels);
  const double delta_d = Num(cfg, "delta");
  if (!(delta_d > 0 && delta_d < 1)) BadField("delta", "must be in (0, 1)");
  const Rational delta = Exact(delta_d);
  // The implemented law's grid, by the reference; the production must agree (else the run used
  // another law than the one accounted).
  const ref::QgGrid g = ref::QuantizedGaussianGridFor(Exact(sigma), levels, Exact(clip));
  const fl::QgaussGrid pg = fl::MakeQgaussGrid(grid_config);
  if (ref::Int(static_cast<std::int64_t>(pg.sigma2.num)) != g.sigma2 || ref::Int(pg.span) != g.span || pg.sigma2.den != 1)
    throw std::logic_error("the production grid differs from the reference's: the accounting would not describe the run");
  const ref::Int delta_units = g.span / 2;  // Δ = L/2 grid units = C
  const Rational rho = Rational(delta_units * delta_units) / (2 * Rational(g.sigma2));
  const double q = SamplingRate(Str(cfg, "client_sampling"));
  const std::uint64_t threshold = fl::QgaussSamplingThreshold(q);
  const Rational q_impl = q < 1 ? Rational(ref::Int(threshold)) / ref::Pow2(64) : Rational(1);
  const int prec = 256;
  const auto per_round = [&](const Rational& alpha) -> ref::Enclosure {
    const Rational full = alpha * rho;
    if (q_impl == 1) return ref::Enclosure(prec, full);
    // log(1 − q̃ + q̃·e^{(α−1)αρ})/(α − 1)
    const ref::Enclosure mix = (Rational(1) - q_impl) + ref::ExpQ(prec, Rational((alpha - 1) * full)) * q_impl;
    return ref::Log(mix) / Rational(alpha - 1);
  };
  const ref::AccountantResult acc = ref::Account(per_round, Rational(static_cast<long>(rounds)), delta, ref::DefaultOrders(),
                                                 ref::Conversion::kImproved);
  p["grid"] = {{"step_bits", g.step_bits}, {"span", g.span.str()}, {"noise_sigma2_grid_units", g.sigma2.str()},
               {"implemented_sigma", pg.implemented_sigma}, {"sensitivity_grid_units", delta_units.str()}};
  p["rho_per_round"] = Dec(rho);
  p["implemented_sampling_rate"] = Dec(q_impl);
  p["delta"] = Field(cfg, "delta");
  const std::string composition =
      std::string(q < 1 ? "Poisson client sampling (implemented rate q~ = ceil(q 2^64)/2^64, visible participation: "
                          "per round log(1 - q~ + q~ e^{(alpha-1) alpha rho})/(alpha - 1)); "
                        : "every client in every round; ") +
      std::to_string(rounds) + " rounds by RDP composition, improved conversion (CKS 2020 Prop. 12), best of the "
      "default orders (alpha = " + Dec(acc.order) + ")";
  nlohmann::json main = Guarantee(
      "(epsilon, delta)-DP per client, discrete-Gaussian zCDP rho = (L/2)^2/(2 s^2) per round (CKS 2020 Thm 14); "
      "quantization is post-processing",
      kUnit, kAdjacency, kObserver, composition, &acc.epsilon, Dec(delta), true,
      "the noise of the implemented grid mechanism bounds every coordinate jointly (spec 003 section 4.6, first term "
      "with the implemented sigma); the same for the Gaussian baseline at this sigma");
  main["rdp_total_at_order"] = IntervalJson(acc.rdp_total);
  p["guarantees"].push_back(main);
  const ref::Interval one_round = RhoInterval(rho);
  p["guarantees"].push_back(Guarantee("rho-zCDP per client per participating round (rho, not epsilon)", kUnit, kAdjacency,
                                      kObserver, "one round", &one_round, "0", true,
                                      "(alpha, alpha rho)-RDP for every alpha > 1 (CKS 2020 Thm 14)"));
  if (mech == fl::QgaussFlMechanism::kQgauss) {
    const ref::QgTheorem2 t2 = ref::QuantizedGaussianTheorem2({Exact(sigma), levels, Exact(clip)}, 128);
    const ref::Interval bound = ref::ToInterval(t2.bound);
    nlohmann::json row = Guarantee(
        "seed 003 Theorem 2 (eq. 14): epsilon_inf <= log(delta_q / I) for ONE coordinate, one round", kUnit, kAdjacency,
        kObserver, "one coordinate, one round", &bound, "0", false,
        "a scalar bound: the message has " + std::to_string(m) + " coordinates, and its proof rests on the unproved "
        "worst-case claims E10/E11; not a guarantee for the vector release");
    row["theorem2_value"] = IntervalJson(bound);  // at the configured sigma, for comparison with the paper
    p["guarantees"].push_back(row);
  }
  return p;
}

nlohmann::json BuildQgaussCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                      const std::string& code_version, const fl::QgaussTrainResult& result,
                                      const RunFiles& files, const std::optional<std::string>& signing_public_key) {
  nlohmann::json cert = CertificateHead(
      configuration, dataset, code_version,
      "simulated: client i's key is BLAKE2b(seed, \"qgauss-client\", i) and the sampling key BLAKE2b(seed, "
      "\"qgauss-sampling\"), so the run is reproducible and replayable; the seed is in this certificate, so anyone can "
      "recompute every client's noise: this protects nothing against a real adversary",
      signing_public_key);
  std::uint64_t bits = 0, messages = 0;
  for (const auto& r : result.history) {
    bits += r.uplink_bits;
    messages += r.participants;
  }
  const double per_message = messages ? static_cast<double>(bits) / static_cast<double>(messages) : 0.0;
  cert["communication"] = {{"measured", "from the messages as sent (every participant, every round)"},
                           {"uplink_bits_total", bits},
                           {"messages", messages},
                           {"bits_per_client_per_round", per_message},
                           {"bits_per_parameter", per_message / static_cast<double>(result.parameters)},
                           {"float32_bits_per_parameter", 32}};
  cert["rounds"] = nlohmann::json::array();
  for (const auto& r : result.history)
    cert["rounds"].push_back({{"round", r.round + 1}, {"participants", r.participants}, {"val_accuracy", r.val_accuracy},
                              {"test_accuracy", r.test_accuracy}, {"test_loss", r.test_loss}, {"uplink_bits", r.uplink_bits},
                              {"bits_per_parameter", r.bits_per_parameter}, {"clipped_clients", r.clipped_clients},
                              {"transcript", r.transcript}});
  cert["privacy"] = ComputeQgaussPrivacy(configuration);
  cert["transcript"] = {{"h0", result.transcript_start},
                        {"final", result.history.empty() ? result.transcript_start : result.history.back().transcript},
                        {"layout", "docs/training.md, quantized Gaussian transcript (dpfl-qgauss-transcript-v1, dpfl-qgauss-round-v1)"}};
  cert["files"] = {{"final_weights.bin", files.weights_sha256}, {"metrics.csv", files.metrics_sha256}};
  cert["final"] = {{"test_accuracy", result.history.empty() ? 0.0 : result.history.back().test_accuracy},
                   {"weights_sha256", files.weights_sha256}, {"max_participations", result.max_participations}};
  cert["digest"] = Digest(cert);
  return cert;
}

void VerifyQgaussCertificate(const nlohmann::json& cert, const VerifyOptions& options, Verification& v) {
  CheckRecorder rec{v};
  const auto problem = [&rec](const std::string& p) { rec.Problem(p); };
  const auto check = [&rec](bool ok, const std::string& what, const std::string& failure) { rec.Check(ok, what, failure); };
  const nlohmann::json& cfg = Field(cert, "configuration");
  fl::QgaussTrainConfig config = QgaussTrainConfigFromJson(cfg);
  config.out_dir = "(verify)";
  try {
    fl::ValidateQgaussTrainConfig(config);
    v.checked.push_back("configuration is valid");
  } catch (const InvalidArgument& e) {
    problem(std::string("configuration is invalid: ") + e.what());
  }
  const nlohmann::json& rounds = Array(cert, "rounds");
  CheckRoundsNumbered(rounds, config.rounds, rec);
  const nlohmann::json recomputed = ComputeQgaussPrivacy(cfg);
  if (recomputed == Field(cert, "privacy")) {
    v.checked.push_back("privacy guarantees recomputed with the reference (grid law, discrete-Gaussian zCDP, RDP accountant)");
  } else {
    problem("privacy section differs from the recomputation: " +
            nlohmann::json::diff(Field(cert, "privacy"), recomputed).dump().substr(0, 400));
  }
  std::uint64_t bits = 0, messages = 0;
  bool full_ok = true;
  for (const auto& r : rounds) {
    bits += U64(r, "uplink_bits");
    const std::uint64_t n = U64(r, "participants", config.clients);
    messages += n;
    if (config.sampling_rate == 1 && n != config.clients) full_ok = false;
  }
  if (config.sampling_rate == 1)
    check(full_ok, "full participation: every round has every client", "a round of a full-participation run lacks clients");
  check(bits == U64(Field(cert, "communication"), "uplink_bits_total"), "communication total = sum of the rounds' bits",
        "communication.uplink_bits_total is not the sum of the rounds' uplink_bits");
  check(messages == U64(Field(cert, "communication"), "messages"), "messages = sum of the rounds' participants",
        "communication.messages is not the sum of the rounds' participants");
  const nlohmann::json& fin = Field(cert, "final");
  const nlohmann::json& files = Field(cert, "files");
  if (!rounds.empty())
    check(Num(fin, "test_accuracy") == Num(rounds.back(), "test_accuracy"), "final test accuracy = last round's",
          "final.test_accuracy is not the last round's test accuracy");
  check(Field(fin, "weights_sha256") == Field(files, "final_weights.bin"), "final.weights_sha256 = files[final_weights.bin]",
        "final.weights_sha256 differs from files[final_weights.bin]");
  CheckTranscriptEnds(cert, fl::QgaussTranscriptStart(config, U64(cfg, "parameters")), rec);
  if (options.directory.empty()) {
    v.not_checked.push_back("files (no directory given)");
    return;
  }
  for (const char* name : {"final_weights.bin", "metrics.csv"}) CheckFileHash(options.directory, name, files, rec);
}

}  // namespace dpfl::certify
