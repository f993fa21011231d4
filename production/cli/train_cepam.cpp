// See train_cepam.hpp.
#include "train_cepam.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "dpfl/error.hpp"
#include "dpfl/fl/cepam_training.hpp"
#include "dpfl/fl/qgauss_training.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"
#include "dpfl_fl_version.hpp"
#include "run_report.hpp"
#include "train_execution.hpp"

namespace dpfl::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCepamOnly[] = {"--lattice-dim", "--b", "--sdq-step", "--eps", "--calibration"};
// The update-clipping threshold and the Gaussian noise, shared by seed 002 and seed 003.
constexpr const char* kUpdateNoiseFlags[] = {"--clip", "--sigma"};
struct Unsupported {
  const char* flag;
  const char* why;
};
constexpr Unsupported kNotForCepam[] = {
    {"--eps-p", "the seed-002 mechanisms are calibrated by --sigma/--b or the per-round target --eps [--delta]"},
    {"--d", "the seed-002 mechanisms have no shared bits"},
    {"--gamma", "--gamma is AugCorBin-FL's solo fraction; the update clipping threshold is --clip"},
    {"--dropout", "seed 002 has no client dropout (every client takes part in every round)"},
    {"--lambda", "the seed-002 server adds the average update (Alg. 1 server step 3)"},
    {"--lambda-grid", "the seed-002 server adds the average update"},
    {"--local-epochs", "the seed-002 loop takes --local-steps single-sample SGD steps (tau; default 15)"},
    {"--batch", "the seed-002 loop takes single-sample gradients (eq. 3; the subsampling of Theorem 7)"},
    {"--patience", "the seed-002 loop reloads nothing"},
    {"--radius-scale", "the seed-002 mechanisms clip the update's l2 norm (--clip), not per-layer ranges"},
    {"--delta-u", "the seed-002 guarantees use --delta"},
    {"--monitor-samples", "the seed-002 encoders are judged by the statistical harness (cepam_stat_test)"},
    {"--target-epsilon", "use --eps [--delta]: the per-round target the noise is calibrated to (section 3.11)"},
    {"--resume", "seed-002 runs do not write checkpoints"},
    {"--keys", "seed-002 runs use simulated keys only"},
    {"--optimizer", "the seed-002 loop is momentum SGD (section 5.2), reset every round (E-X5)"},
};

bool Absent(double x) { return std::isnan(x); }

nlohmann::json OptionalJson(double x) { return Absent(x) ? nlohmann::json(nullptr) : nlohmann::json(x); }

// n_k: the smallest non-empty shard of the loop's own split (fl::MakeCepamShards).
std::uint64_t SmallestShard(const TrainArgs& a, const data::Split& split) {
  const fl::CepamShards shards = fl::MakeCepamShards(split.train, a.clients, a.split, a.beta, a.seed);
  if (shards.min_nonempty == 0) throw InvalidArgument("--clients", "no client holds any data");
  return shards.min_nonempty;
}

certify::CepamCalibrationRequest Request(const TrainArgs& a, double eps, double delta, std::uint64_t n_k, std::size_t m) {
  certify::CepamCalibrationRequest r;
  r.mechanism = a.mechanism;
  r.calibration = a.calibration;
  r.lattice_dim = a.lattice_dim;
  r.eps = eps;
  r.delta = delta;
  r.clip = a.clip;
  r.local_steps = static_cast<std::uint32_t>(a.local_steps);
  r.clients = a.clients;
  r.n_k = n_k;
  r.parameters = m;
  return r;
}

struct CepamRun {
  nlohmann::json configuration;
  fl::CepamTrainResult result;
};

// The configuration (noise resolved: given, calibrated by §3.11, or none), then the training.
CepamRun Train(const TrainArgs& a, const data::Split& split, const std::string& out_dir, bool quiet) {
  const fl::CepamFlMechanism mech = fl::ParseCepamFlMechanism(a.mechanism);
  fl::TrainerOptions topt = TrainerOptionsFor(a);
  topt.optimizer = "sgd";  // section 5.2: momentum SGD (--optimizer is rejected for seed 002)
  const std::size_t workers = ResolveExecution(a).workers;
  const Replicas replicas = MakeReplicas(topt, split.train, workers);
  fl::LocalTrainer* trainer = replicas.workers[0];
  std::size_t m = 0;
  for (std::size_t s : trainer->LayerSizes()) m += s;
  const std::uint64_t n_k = SmallestShard(a, split);
  const int tau = a.local_steps;
  double sigma = a.sigma, b = a.b, eps = a.eps, delta = a.delta_given ? a.delta : std::numeric_limits<double>::quiet_NaN();
  std::string noise = "none";
  if (fl::CepamFlGaussian(mech)) {
    noise = Absent(sigma) ? "calibrated" : "given";
    if (Absent(sigma)) {
      if (Absent(eps)) throw InvalidArgument("--sigma", "give --sigma, or the per-round target --eps [--delta] to calibrate it");
      if (Absent(delta)) delta = a.delta;  // the default target δ
      sigma = certify::CalibrateCepamNoise(Request(a, eps, delta, n_k, m));
    }
    if (Absent(eps)) eps = 1.0;  // the ε at which δ is reported
  } else if (fl::CepamFlLaplace(mech)) {
    noise = Absent(b) ? "calibrated" : "given";
    if (Absent(b)) {
      if (Absent(eps)) throw InvalidArgument("--b", "give --b, or the per-round target --eps to calibrate it (E-P5)");
      b = certify::CalibrateCepamNoise(Request(a, eps, 0.0, n_k, m));
    }
  }
  double sdq = a.sdq_step;
  if (fl::CepamFlSdq(mech) && Absent(sdq))  // the paper does not state the SDQ step (section 3.12): documented defaults
    sdq = mech == fl::CepamFlMechanism::kFlSdq ? a.clip * 0x1p-10 : (fl::CepamFlGaussian(mech) ? sigma : b);
  CepamRun run;
  run.configuration = {
      {"dataset", a.dataset}, {"mechanism", a.mechanism}, {"model", a.model}, {"lattice_dim", a.lattice_dim},
      {"clip", a.clip}, {"noise", noise}, {"calibration", a.calibration}, {"sigma", fl::CepamFlGaussian(mech) ? nlohmann::json(sigma) : nlohmann::json(nullptr)},
      {"b", fl::CepamFlLaplace(mech) ? nlohmann::json(b) : nlohmann::json(nullptr)},
      {"sdq_step", fl::CepamFlSdq(mech) ? nlohmann::json(sdq) : nlohmann::json(nullptr)},
      {"eps", OptionalJson(eps)}, {"delta", fl::CepamFlGaussian(mech) ? OptionalJson(delta) : nlohmann::json(nullptr)},
      {"clients", a.clients}, {"rounds", a.rounds}, {"local_steps", tau}, {"lr", a.lr}, {"momentum", a.momentum},
      {"split", a.split}, {"beta", a.beta}, {"seed", a.seed}, {"generator", a.generator}, {"threads", a.threads},
      {"workers", workers},
      {"max_samples", a.max_samples}, {"synthetic_samples", a.synthetic_samples}, {"n_k", n_k}, {"parameters", m}};
  fl::CepamTrainConfig config = certify::CepamTrainConfigFromJson(run.configuration);
  config.out_dir = out_dir;
  fl::ValidateCepamTrainConfig(config);
  (void)certify::ComputeCepamPrivacy(run.configuration);  // a bad target fails before training
  run.result = fl::RunCepamTraining(config, split, replicas.workers, quiet ? nullptr : TerminalProgress());
  if (run.result.min_shard != n_k) throw std::logic_error("the loop's smallest shard differs from the calibration's n_k");
  return run;
}

}  // namespace

void CheckCepamFlags(const TrainArgs& a, const GivenFlag& given) {
  if (!fl::IsCepamFlMechanism(a.mechanism) && !fl::IsQgaussFlMechanism(a.mechanism))
    for (const char* flag : kUpdateNoiseFlags)
      if (given(flag))
        throw InvalidArgument(flag, "applies to the seed-002 (cepam-*, fl-*) and seed-003 (qgauss*) mechanisms only");
  if (!fl::IsCepamFlMechanism(a.mechanism)) {
    for (const char* flag : kCepamOnly)
      if (given(flag)) throw InvalidArgument(flag, "applies to the seed-002 mechanisms only (cepam-gaussian, cepam-laplace, fl-*)");
    if (a.model.rfind("cepam-", 0) == 0 && a.mechanism == "dpfl-bnn")
      throw InvalidArgument("--model", "'" + a.model + "' is not a binary network");
    return;
  }
  for (const Unsupported& u : kNotForCepam)
    if (given(u.flag)) throw InvalidArgument(u.flag, std::string("not used by --mechanism ") + a.mechanism + ": " + u.why);
  const fl::CepamFlMechanism mech = fl::ParseCepamFlMechanism(a.mechanism);
  if (!fl::CepamFlGaussian(mech) && (given("--sigma") || given("--delta")))
    throw InvalidArgument(given("--sigma") ? "--sigma" : "--delta", "applies to the Gaussian mechanisms only");
  if (!fl::CepamFlLaplace(mech) && given("--b")) throw InvalidArgument("--b", "applies to the Laplace mechanisms only");
  if (!fl::CepamFlSdq(mech) && given("--sdq-step")) throw InvalidArgument("--sdq-step", "applies to fl-sdq, fl-gaussian-sdq and fl-laplace-sdq only");
  if ((mech == fl::CepamFlMechanism::kFl || mech == fl::CepamFlMechanism::kFlSdq) && given("--eps"))
    throw InvalidArgument("--eps", a.mechanism + " adds no noise, so it has no privacy target");
  if (given("--calibration") && !given("--eps"))
    throw InvalidArgument("--calibration", "chooses the row the noise is calibrated to: give it with --eps (not with --sigma/--b)");
  if (mech == fl::CepamFlMechanism::kFl && given("--clip")) throw InvalidArgument("--clip", "fl does not clip (plain FedAvg)");
  if (given("--lattice-dim") && mech != fl::CepamFlMechanism::kCepamGaussian && mech != fl::CepamFlMechanism::kCepamLaplace)
    throw InvalidArgument("--lattice-dim", "applies to cepam-gaussian and cepam-laplace only");
  if (a.model.rfind("bnn", 0) == 0) throw InvalidArgument("--model", "'" + a.model + "' is a binary network (dpfl-bnn only)");
}

nlohmann::json RunCepamTrain(TrainArgs a, const GivenFlag& given, const data::Split& split, const nlohmann::json& dataset,
                             const std::optional<certify::KeyPair>& signing) {
  CheckCepamFlags(a, given);
  // The seed's setting (spec 002 §5.1–5.2) for the flags the user did not give.
  if (a.model == "auto") a.model = "cepam-mlp";
  if (!given("--lr")) a.lr = 0.01;
  if (!given("--momentum")) a.momentum = 0.9;
  if (!given("--clients")) a.clients = 30;
  if (a.local_steps == 0) a.local_steps = 15;
  a.delta_given = given("--delta");
  const CepamRun run = Train(a, split, a.out, a.quiet);
  const fl::CepamTrainResult& result = run.result;
  certify::RunFiles files;
  files.weights_sha256 = fl::Sha256Files({result.weights_path});
  files.metrics_sha256 = fl::Sha256Files({result.metrics_path});
  const nlohmann::json cert = certify::BuildCepamCertificate(run.configuration, dataset, DPFL_FL_CODE_VERSION, result,
                                                             files, SigningPublicHex(signing));
  nlohmann::json out = {{"mechanism", a.mechanism}, {"model", a.model}, {"parameters", result.parameters},
                        {"n_k", run.configuration["n_k"]}, {"noise", run.configuration["noise"]},
                        {"sigma", run.configuration["sigma"]}, {"b", run.configuration["b"]},
                        {"final_test_accuracy", result.history.back().test_accuracy}, {"rounds", result.history.size()},
                        {"out", a.out}, {"metrics", result.metrics_path},
                        {"weights", result.weights_path}, {"signed", signing.has_value()},
                        {"communication", cert["communication"]}, {"guarantees", cert["privacy"]["guarantees"]}};
  out["certificate"] = WriteCertificateFiles(cert, a.out, signing, out);
  return out;
}

nlohmann::json ReplayCepam(const nlohmann::json& cert, const TrainArgs& a, const data::Split& split, const std::string& dir,
                           std::vector<std::string>& problems) {
  return ReplayUpdateLoop(cert, Train(a, split, dir, a.quiet), problems);
}

}  // namespace dpfl::cli
