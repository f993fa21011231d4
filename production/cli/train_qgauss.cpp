// See train_qgauss.hpp.
#include "train_qgauss.hpp"

#include <cmath>

#include "dpfl/error.hpp"
#include "dpfl/fl/qgauss_training.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"
#include "dpfl_fl_version.hpp"
#include "run_report.hpp"
#include "train_execution.hpp"

namespace dpfl::cli {
namespace {

constexpr const char* kQgaussOnly[] = {"--levels", "--client-sampling"};
struct Unsupported {
  const char* flag;
  const char* why;
};
constexpr Unsupported kNotForQgauss[] = {
    {"--eps-p", "the seed-003 mechanisms are set by --sigma (noise std) and --clip (C_q)"},
    {"--d", "the seed-003 mechanisms have no shared bits"},
    {"--gamma", "--gamma is AugCorBin-FL's solo fraction"},
    {"--dropout", "use --client-sampling poisson:q (accounted) for partial participation"},
    {"--lambda", "the seed-003 server adds the average update (Alg. 1 line 13)"},
    {"--lambda-grid", "the seed-003 server adds the average update"},
    {"--local-steps", "the seed-003 loop trains --local-epochs passes over the client's shard"},
    {"--patience", "the seed-003 loop reloads nothing"},
    {"--radius-scale", "the seed-003 mechanisms clip the update's l2 norm to --clip / 2"},
    {"--delta-u", "the seed-003 guarantees use --delta"},
    {"--monitor-samples", "the seed-003 mechanism is judged by the statistical harness (qgauss_stat_test)"},
    {"--target-epsilon", "give --sigma; the certificate states the resulting epsilon at --delta"},
    {"--resume", "seed-003 runs do not write checkpoints"},
    {"--keys", "seed-003 runs use simulated keys only"},
    {"--lattice-dim", "a seed-002 flag"},
    {"--b", "a seed-002 flag (Laplace scale)"},
    {"--sdq-step", "a seed-002 flag"},
    {"--eps", "a seed-002 flag; the seed-003 noise is given by --sigma"},
    {"--calibration", "a seed-002 flag"},
};

struct QgaussRun {
  nlohmann::json configuration;
  fl::QgaussTrainResult result;
};

QgaussRun Train(const TrainArgs& a, const data::Split& split, const std::string& out_dir, bool quiet) {
  const fl::QgaussFlMechanism mech = fl::ParseQgaussFlMechanism(a.mechanism);
  const bool noisy = mech != fl::QgaussFlMechanism::kVanilla;
  if (noisy && std::isnan(a.sigma)) throw InvalidArgument("--sigma", "required with --mechanism " + a.mechanism);
  const fl::TrainerOptions topt = TrainerOptionsFor(a);
  QgaussRun run;
  run.configuration = {
      {"dataset", a.dataset}, {"mechanism", a.mechanism}, {"model", a.model},
      {"sigma", noisy ? nlohmann::json(a.sigma) : nlohmann::json(nullptr)},
      {"levels", mech == fl::QgaussFlMechanism::kQgauss ? nlohmann::json(a.levels) : nlohmann::json(nullptr)},
      {"clip", noisy ? nlohmann::json(a.clip) : nlohmann::json(nullptr)},
      {"delta", noisy ? nlohmann::json(a.delta) : nlohmann::json(nullptr)},
      {"client_sampling", a.client_sampling}, {"clients", a.clients}, {"rounds", a.rounds},
      {"local_epochs", a.local_epochs}, {"batch", a.batch}, {"optimizer", a.optimizer}, {"lr", a.lr},
      {"momentum", a.momentum}, {"split", a.split}, {"beta", a.beta}, {"seed", a.seed}, {"generator", a.generator},
      {"threads", a.threads}, {"workers", ResolveExecution(a).workers},
      {"max_samples", a.max_samples}, {"synthetic_samples", a.synthetic_samples}};
  // Bad flags fail before the model is built (parameters unknown yet: 1).
  {
    nlohmann::json probe = run.configuration;
    probe["parameters"] = 1;
    fl::QgaussTrainConfig c = certify::QgaussTrainConfigFromJson(probe);
    c.out_dir = out_dir;
    fl::ValidateQgaussTrainConfig(c);
  }
  const Replicas replicas = MakeReplicas(topt, split.train, run.configuration["workers"].get<std::size_t>());
  fl::LocalTrainer* trainer = replicas.workers[0];
  std::size_t m = 0;
  for (std::size_t s : trainer->LayerSizes()) m += s;
  run.configuration["parameters"] = m;
  fl::QgaussTrainConfig config = certify::QgaussTrainConfigFromJson(run.configuration);
  config.out_dir = out_dir;
  (void)certify::ComputeQgaussPrivacy(run.configuration);  // a bad δ fails before training
  run.result = fl::RunQgaussTraining(config, split, replicas.workers, quiet ? nullptr : TerminalProgress());
  return run;
}

}  // namespace

void CheckQgaussFlags(const TrainArgs& a, const GivenFlag& given) {
  if (!fl::IsQgaussFlMechanism(a.mechanism)) {
    for (const char* flag : kQgaussOnly)
      if (given(flag)) throw InvalidArgument(flag, "applies to the seed-003 mechanisms only (qgauss, qgauss-gaussian, qgauss-vanilla)");
    return;
  }
  for (const Unsupported& u : kNotForQgauss)
    if (given(u.flag)) throw InvalidArgument(u.flag, std::string("not used by --mechanism ") + a.mechanism + ": " + u.why);
  const fl::QgaussFlMechanism mech = fl::ParseQgaussFlMechanism(a.mechanism);
  if (a.levels < 2 || a.levels > fl::kQgaussMaxLevels)
    throw InvalidArgument("--levels", "the number of levels k must be in [2, 65536], got " + std::to_string(a.levels));
  if (mech == fl::QgaussFlMechanism::kVanilla)
    for (const char* flag : {"--sigma", "--clip", "--delta", "--levels"})
      if (given(flag)) throw InvalidArgument(flag, "qgauss-vanilla adds no noise and does not clip or quantize");
  if (mech == fl::QgaussFlMechanism::kGaussian && given("--levels"))
    throw InvalidArgument("--levels", "qgauss-gaussian does not quantize (use --mechanism qgauss)");
  if (a.model.rfind("bnn", 0) == 0) throw InvalidArgument("--model", "'" + a.model + "' is a binary network (dpfl-bnn only)");
  (void)certify::QgaussSamplingRate(a.client_sampling);
}

nlohmann::json RunQgaussTrain(TrainArgs a, const GivenFlag& given, const data::Split& split, const nlohmann::json& dataset,
                              const std::optional<certify::KeyPair>& signing) {
  CheckQgaussFlags(a, given);
  if (a.model == "auto") a.model = "mlp";
  if (!given("--optimizer")) a.optimizer = "adam";
  if (!given("--lr")) a.lr = 0.001;
  if (!given("--batch")) a.batch = 128;
  const QgaussRun run = Train(a, split, a.out, a.quiet);
  const fl::QgaussTrainResult& result = run.result;
  certify::RunFiles files;
  files.weights_sha256 = fl::Sha256Files({result.weights_path});
  files.metrics_sha256 = fl::Sha256Files({result.metrics_path});
  const nlohmann::json cert = certify::BuildQgaussCertificate(run.configuration, dataset, DPFL_FL_CODE_VERSION, result,
                                                              files, SigningPublicHex(signing));
  nlohmann::json out = {{"mechanism", a.mechanism}, {"model", a.model}, {"parameters", result.parameters},
                        {"final_test_accuracy", result.history.back().test_accuracy}, {"rounds", result.history.size()},
                        {"out", a.out}, {"metrics", result.metrics_path}, {"weights", result.weights_path},
                        {"signed", signing.has_value()}, {"communication", cert["communication"]},
                        {"guarantees", cert["privacy"]["guarantees"]}};
  out["certificate"] = WriteCertificateFiles(cert, a.out, signing, out);
  return out;
}

nlohmann::json ReplayQgauss(const nlohmann::json& cert, const TrainArgs& a, const data::Split& split, const std::string& dir,
                            std::vector<std::string>& problems) {
  return ReplayUpdateLoop(cert, Train(a, split, dir, a.quiet), problems);
}

}  // namespace dpfl::cli
