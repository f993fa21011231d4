// See train_bnn.hpp.
#include "train_bnn.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>

#include "dpfl/error.hpp"
#include "dpfl/fl/bnn_training.hpp"
#include "dpfl/fl/training.hpp"
#include "dpfl_fl_version.hpp"
#include "run_report.hpp"

namespace dpfl::cli {
namespace {

namespace fs = std::filesystem;

// The BNN-only flags and the flags dpfl-bnn does not take (with the reason).
constexpr const char* kBnnOnly[] = {"--rr-gamma", "--binarizer", "--mix-beta", "--adam-beta1", "--lr-schedule",
                                    "--eval-clients", "--eval-samples"};
struct Unsupported {
  const char* flag;
  const char* why;
};
constexpr Unsupported kNotForBnn[] = {
    {"--eps-p", "dpfl-bnn is calibrated by --rr-gamma"},
    {"--d", "dpfl-bnn has no shared bits"},
    {"--gamma", "--gamma is AugCorBin-FL's solo fraction; the RR bias is --rr-gamma"},
    {"--dropout", "seed 004 has no client dropout (all clients take part in every round)"},
    {"--lambda", "dpfl-bnn mixes with --mix-beta (Alg. E), not the smoothed update"},
    {"--lambda-grid", "dpfl-bnn mixes with --mix-beta"},
    {"--local-epochs", "dpfl-bnn trains --local-steps mini-batches per round (tau; default 10)"},
    {"--patience", "dpfl-bnn keeps per-client models and reloads nothing"},
    {"--radius-scale", "dpfl-bnn has no clipping range (latents are in [-1, 1])"},
    {"--delta-u", "dpfl-bnn's guarantees use --delta"},
    {"--monitor-samples", "dpfl-bnn's encoders are judged by the statistical harness, not a runtime monitor"},
    {"--target-epsilon", "not implemented for dpfl-bnn: choose --rr-gamma (dpfl-ref bnn-gamma-max gives it for a target)"},
    {"--resume", "dpfl-bnn runs do not write checkpoints"},
    {"--keys", "dpfl-bnn uses simulated keys only"},
};

std::string ModelName(const std::string& model) { return model == "auto" || model == "bnn" ? "auto" : model; }

nlohmann::json ConfigurationJson(const TrainArgs& a, std::size_t d, std::size_t local, const std::string& model) {
  return {{"dataset", a.dataset}, {"mechanism", "dpfl-bnn"}, {"model", model},
          {"rr_gamma", std::isnan(a.rr_gamma) ? nlohmann::json(nullptr) : nlohmann::json(a.rr_gamma)},
          {"binarizer", a.binarizer}, {"mix_beta", a.mix_beta}, {"clients", a.clients}, {"rounds", a.rounds},
          {"local_steps", a.local_steps == 0 ? 10 : a.local_steps}, {"batch", a.batch}, {"optimizer", a.optimizer},
          {"lr", a.lr}, {"lr_schedule", a.lr_schedule}, {"adam_beta1", a.adam_beta1}, {"momentum", a.momentum},
          {"split", a.split}, {"beta", a.beta}, {"seed", a.seed}, {"generator", a.generator}, {"threads", a.threads},
          {"delta", a.delta}, {"eval_clients", a.eval_clients}, {"eval_samples", a.eval_samples}, {"max_samples", a.max_samples},
          {"synthetic_samples", a.synthetic_samples}, {"latents", d}, {"local_state", local}};
}

struct BnnRun {
  nlohmann::json configuration;
  fl::BnnTrainResult result;
  std::string description;
};

BnnRun Train(const TrainArgs& a, const data::Split& split, const std::string& out_dir, bool quiet) {
  fl::BnnModelOptions mo;
  mo.model = ModelName(a.model);
  mo.optimizer = a.optimizer;
  mo.adam_beta1 = a.adam_beta1;
  mo.momentum = a.momentum;
  mo.threads = a.threads;
  mo.seed = a.seed;
  auto model = fl::MakeTorchBnnModel(mo, split.train.channels, split.train.height, split.train.width, split.train.classes);
  BnnRun run;
  run.description = model->Description();
  run.configuration = ConfigurationJson(a, model->LatentCount(), model->LocalStateCount(), run.description);
  fl::BnnTrainConfig config = certify::BnnTrainConfigFromJson(run.configuration);
  config.out_dir = out_dir;
  fl::ValidateBnnTrainConfig(config);
  (void)certify::ComputeBnnPrivacy(run.configuration);  // bad --delta fails before training
  run.result = fl::RunBnnTraining(config, split, *model, quiet ? nullptr : TerminalProgress());
  return run;
}

}  // namespace

void CheckBnnOnlyFlags(const TrainArgs& a, const GivenFlag& given) {
  const bool bnn = a.mechanism == "dpfl-bnn";
  if (!bnn) {
    for (const char* flag : kBnnOnly)
      if (given(flag)) throw InvalidArgument(flag, "applies to --mechanism dpfl-bnn only");
    if (a.model.rfind("bnn", 0) == 0)
      throw InvalidArgument("--model", "'" + a.model + "' is a binary network: use it with --mechanism dpfl-bnn");
    return;
  }
  for (const Unsupported& u : kNotForBnn)
    if (given(u.flag)) throw InvalidArgument(u.flag, std::string("not used by --mechanism dpfl-bnn: ") + u.why);
  const std::string m = ModelName(a.model);
  if (m != "auto" && m != "bnn-a" && m != "bnn-b" && m != "bnn-tiny")
    throw InvalidArgument("--model", "dpfl-bnn trains a binary network: bnn (auto), bnn-a, bnn-b or bnn-tiny, got '" +
                                         a.model + "'");
  if (given("--rr-gamma") && std::isnan(a.rr_gamma)) throw InvalidArgument("--rr-gamma", "must be a number in [0, 1/2]");
}

nlohmann::json RunBnnTrain(const TrainArgs& a, const GivenFlag& given, const data::Split& split,
                           const nlohmann::json& dataset, const std::optional<certify::KeyPair>& signing) {
  CheckBnnOnlyFlags(a, given);
  const BnnRun run = Train(a, split, a.out, a.quiet);
  const fl::BnnTrainResult& result = run.result;
  certify::BnnRunFiles files;
  files.models_sha256 = fl::Sha256Files({result.models_path});
  files.metrics_sha256 = fl::Sha256Files({result.metrics_path});
  const nlohmann::json cert = certify::BuildBnnCertificate(run.configuration, dataset, DPFL_FL_CODE_VERSION, result,
                                                           files, SigningPublicHex(signing));
  nlohmann::json out = {{"mechanism", "dpfl-bnn"}, {"model", run.description}, {"latents", result.latents},
                        {"local_state", result.local_state}, {"rr_gamma", run.configuration["rr_gamma"]},
                        {"final_test_accuracy", result.history.back().test_accuracy},
                        {"final_accuracy_min", result.history.back().accuracy_min},
                        {"final_accuracy_max", result.history.back().accuracy_max}, {"rounds", result.history.size()},
                        {"out", a.out}, {"metrics", result.metrics_path},
                        {"models", result.models_path}, {"signed", signing.has_value()},
                        {"communication", cert["communication"]}, {"guarantees", cert["privacy"]["guarantees"]}};
  out["certificate"] = WriteCertificateFiles(cert, a.out, signing, out);
  return out;
}

std::size_t CompareTranscripts(const nlohmann::json& rounds, const std::vector<std::string>& replayed,
                               const std::string& what_differs, std::vector<std::string>& problems) {
  std::size_t matched = 0;
  for (; matched < rounds.size() && matched < replayed.size(); ++matched)
    if (rounds[matched].at("transcript") != replayed[matched]) break;
  if (matched < rounds.size() || replayed.size() != rounds.size())
    problems.push_back("replay: the transcript diverges at round " + std::to_string(matched + 1) + " of " +
                       std::to_string(rounds.size()) + " (" + what_differs + ")");
  return matched;
}

std::optional<std::string> SigningPublicHex(const std::optional<certify::KeyPair>& signing) {
  if (!signing) return std::nullopt;
  return certify::Hex(signing->public_key.data(), signing->public_key.size());
}

std::string WriteCertificateFiles(const nlohmann::json& cert, const std::string& out_dir,
                                  const std::optional<certify::KeyPair>& signing, nlohmann::json& summary) {
  const std::string path = (fs::path(out_dir) / "certificate.json").string();
  const std::string text = cert.dump(2) + "\n";
  fl::WriteFileAtomic(path, text);
  if (signing) {
    fl::WriteFileAtomic(path + ".sig", certify::Sign(text, *signing));
    summary["signature"] = path + ".sig";
  } else {
    std::remove((path + ".sig").c_str());  // a stale signature of an earlier run would mislead
  }
  return path;
}

nlohmann::json ReplayVerdict(const nlohmann::json& cert, const std::vector<std::string>& replayed,
                             const std::string& transcript_start, const std::string& what_differs, const std::string& sha,
                             const nlohmann::json& expected, const std::string& match_key, const std::string& what_file,
                             std::vector<std::string>& problems) {
  const nlohmann::json& rounds = cert.at("rounds");
  const std::size_t before = problems.size();
  const std::size_t matched = CompareTranscripts(rounds, replayed, what_differs, problems);
  const bool same = sha == expected;
  if (!same) problems.push_back("replay: the re-trained " + what_file + " differ (SHA-256 " + sha + ")");
  const std::vector<std::string> differences =
      certify::EnvironmentDifferences(cert.contains("environment") ? cert.at("environment") : nlohmann::json(nullptr),
                                      certify::RunEnvironment());
  if (problems.size() > before && !differences.empty()) {
    std::string list;
    for (const auto& d : differences) list += (list.empty() ? "" : "; ") + d;
    problems.push_back("replay: the certificate was made in another environment (" + list +
                       "): LibTorch's kernels there may round differently, so this difference alone does not show a "
                       "forgery; replay where the environment matches");
  }
  return {{"rounds", rounds.size()}, {"rounds_matched", matched}, {match_key, same},
          {"transcript_final", replayed.empty() ? transcript_start : replayed.back()},
          {"environment_differences", differences}};
}

nlohmann::json ReplayBnn(const nlohmann::json& cert, const TrainArgs& a, const data::Split& split, const std::string& dir,
                         std::vector<std::string>& problems) {
  const BnnRun run = Train(a, split, dir, a.quiet);
  std::vector<std::string> replayed;
  for (const auto& r : run.result.history) replayed.push_back(r.transcript);
  return ReplayVerdict(cert, replayed, run.result.transcript_start, "counts or broadcast differ",
                       fl::Sha256Files({run.result.models_path}), cert.at("final").at("models_sha256"), "models_match",
                       "client models", problems);
}

}  // namespace dpfl::cli
