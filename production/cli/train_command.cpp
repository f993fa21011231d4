// dpfl train, dpfl verify-certificate and dpfl keygen (docs/training.md).
//
// dpfl train --dataset fashion-mnist|mnist|cifar10|synthetic --mechanism NAME --eps-p E --d D
//            --gamma G --clients N --rounds T --dropout P --lambda L --seed S --out DIR [--resume]
//            [--data-dir DIR] [--config FILE.json] [--lambda-grid] [--keys simulated|random]
//            [--signing-key KEY] ...
// A JSON config file supplies defaults with the flags' long names as keys (without "--");
// flags on the command line win. Bad values → exit 2, one line on stderr. A run whose runtime
// monitor rejects a round stops (exit 3) and writes no certificate.
//
// dpfl verify-certificate FILE [--public-key KEY.pub] [--replay [--replay-dir DIR] [--data-dir DIR]]
// exit 0 verified, 1 rejected (JSON with the problems on stdout, each on stderr), 2 bad input.
//
// dpfl keygen --out KEY: an Ed25519 key pair for signing certificates (KEY, mode 0600, and KEY.pub).
#include "train_command.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "certificate.hpp"
#include "dpfl/data/datasets.hpp"
#include "dpfl/error.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"
#include "dpfl_fl_version.hpp"
#include "run_report.hpp"
#include "train_bnn.hpp"
#include "train_cepam.hpp"
#include "train_qgauss.hpp"
#include "train_config.hpp"
#include "train_execution.hpp"
#include "dpfl/fl/client_host.hpp"
#include "dpfl/fl/round_wire.hpp"

namespace dpfl::cli {

namespace fs = std::filesystem;

std::string ReadText(const std::string& path, const std::string& argument) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InvalidArgument(argument, "'" + path + "' is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(argument, "cannot open '" + path + "'");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

namespace {


void ApplyConfigFile(TrainArgs& a, const CLI::App* app) {
  if (a.config_file.empty()) return;
  const std::string text = ReadText(a.config_file, "--config");
  ApplyConfigText(a, text, a.config_file, [app](const std::string& key) { return app->count("--" + key) > 0; });
}


// certificate.json's "configuration": every setting that determines the run, and nothing
// machine-specific (the data's location is in "dataset"; the data's identity is its SHA-256).
// The TrainConfig is made from this JSON (certify::TrainConfigFromJson), so training,
// verification and replay share one mapping.
nlohmann::json ConfigurationJson(const TrainArgs& a, double lambda, std::size_t parameters, std::size_t layers,
                                 const Execution& ex = {}) {
  return {{"workers", ex.workers}, {"world_size", ex.process.world_size},{"dataset", a.dataset}, {"mechanism", a.mechanism}, {"eps_p", a.eps_p}, {"d", a.d},
          {"gamma", a.gamma}, {"delta", a.delta}, {"delta_u", a.delta_u}, {"dropout", a.dropout},
          {"clients", a.clients}, {"rounds", a.rounds}, {"lambda", lambda}, {"lambda_grid", a.lambda_grid},
          {"seed", a.seed}, {"model", a.model}, {"optimizer", a.optimizer}, {"lr", a.lr}, {"momentum", a.momentum},
          {"local_epochs", a.local_epochs}, {"local_steps", a.local_steps}, {"batch", a.batch},
          {"patience", a.patience}, {"radius_scale", a.radius_scale}, {"split", a.split}, {"beta", a.beta},
          {"generator", a.generator}, {"threads", a.threads}, {"monitor_samples", a.monitor_samples},
          {"keys", a.keys}, {"max_samples", a.max_samples}, {"synthetic_samples", a.synthetic_samples},
          {"parameters", parameters}, {"layers", layers}};
}

// The reverse, for --replay: the configuration's keys are the flags' names with '_' for '-'.
TrainArgs ArgsFromConfiguration(const nlohmann::json& cfg) {
  if (!cfg.is_object()) throw InvalidArgument("certificate", "configuration is not a JSON object");
  nlohmann::json flags = nlohmann::json::object();
  // Seed 002: a calibrated noise scale is calibrated again (so the replay checks the calibration).
  const bool calibrated = cfg.contains("noise") && cfg["noise"] == "calibrated";
  for (const auto& [key, value] : cfg.items()) {
    // world_size: a replay runs in one process (the transcript does not depend on it).
    if (key == "parameters" || key == "layers" || key == "lambda_grid" || key == "latents" || key == "local_state" ||
        key == "n_k" || key == "noise" || key == "world_size")
      continue;
    if (value.is_null()) continue;  // an optional flag that was absent (rr_gamma, sigma, b, sdq_step, eps, delta)
    if (calibrated && (key == "sigma" || key == "b")) continue;
    std::string flag = key;
    for (char& ch : flag)
      if (ch == '_') ch = '-';
    flags[flag] = value;
  }
  TrainArgs a;
  ApplyConfigText(a, flags.dump(), "certificate configuration", [](const std::string&) { return false; });
  a.delta_given = cfg.contains("delta") && !cfg["delta"].is_null();
  return a;
}

// The TrainConfig of a run, validated, from its configuration JSON.
fl::TrainConfig MakeConfig(const TrainArgs& a, const nlohmann::json& cfg, const std::string& out_dir) {
  fl::TrainConfig config = certify::TrainConfigFromJson(cfg);
  config.out_dir = out_dir;
  config.resume = a.resume;
  fl::ValidateTrainConfig(config);
  return config;
}

// The runtime monitor (dpfl_certify) and, unless --quiet, the progress line (run_report.hpp).
fl::TrainHooks Hooks(const TrainArgs& a) {
  fl::TrainHooks hooks;
  if (!a.quiet) hooks.progress = TerminalProgress();
  hooks.monitor = [](const fl::MechanismConfig& mc, std::uint32_t round, const std::vector<fl::MonitorSample>& s) {
    return certify::MonitorRound(mc, round, s);
  };
  return hooks;
}

struct Trained {
  nlohmann::json configuration;
  fl::TrainResult result;
  nlohmann::json target;  // the --target-epsilon plan (null without one)
  std::optional<fl::HostSummary> host;  // a client host's run (ranks 1..N-1): no result, no certificate
};

// --target-epsilon: the plan (certify::PlanTargetEpsilon) applied to a copy of the arguments; the
// configuration (and so the certificate and any replay) records the resolved eps_p and rounds.
TrainArgs ApplyTarget(const TrainArgs& a, double lambda, std::size_t m, std::size_t layers, nlohmann::json& target) {
  if (a.target_epsilon == 0) return a;
  if (a.target_mode != "calibrate" && a.target_mode != "stop")
    throw InvalidArgument("--target-mode", "must be calibrate or stop, got '" + a.target_mode + "'");
  std::function<void(const std::string&)> progress;
  if (!a.quiet) progress = [](const std::string& line) { std::cerr << "dpfl: " << line << "\n"; };
  const certify::TargetPlan plan = certify::PlanTargetEpsilon(ConfigurationJson(a, lambda, m, layers), a.target_epsilon,
                                                              a.target_mode == "calibrate", progress);
  TrainArgs out = a;
  out.eps_p = plan.eps_p;
  out.rounds = plan.rounds;
  target = {{"target_epsilon", a.target_epsilon}, {"delta_u", a.delta_u}, {"mode", plan.mode},
            {"eps_p", plan.eps_p}, {"rounds", plan.rounds}, {"predicted_epsilon_hi", plan.epsilon_hi},
            {"accountant_runs", plan.evaluations}, {"row", plan.row},
            {"statement", plan.mode == "calibrate"
                              ? "eps_p was calibrated: the largest eps_p whose epsilon in the targeted row over all "
                                "rounds is at most the target (the certificate's row reports the implemented value)"
                              : "the run stops when the budget is spent: the largest number of rounds whose epsilon "
                                "in the targeted row at the given eps_p is at most the target"}};
  return out;
}


// One training of the seed-000/001 loop. Where the clients run is `ex` (train_execution.hpp):
// W workers in this process, or — with a world size N > 1 — rank 0 serves (RemoteFleet) and
// ranks 1..N-1 host blocks of clients (ServeClients; they return `host` and write nothing).
Trained TrainRun(const TrainArgs& a_in, double lambda, const std::string& out_dir, const data::Split& split,
                 const Execution& ex) {
  // Model replicas: one per worker; the server of a multi-process run trains nobody and keeps one.
  const std::size_t replicas = ex.process.world_size > 1 && !ex.IsHost() ? 1 : ex.workers;
  std::vector<std::unique_ptr<fl::LocalTrainer>> trainers;
  std::vector<fl::LocalTrainer*> workers;
  for (std::size_t k = 0; k < replicas; ++k) {
    trainers.push_back(fl::MakeTorchTrainer(TrainerOptionsFor(a_in), split.train.channels, split.train.height,
                                            split.train.width, split.train.classes));
    workers.push_back(trainers.back().get());
  }
  fl::LocalTrainer& trainer = *trainers[0];
  std::size_t m = 0;
  for (std::size_t s : trainer.LayerSizes()) m += s;
  Trained out;
  const TrainArgs a = ApplyTarget(a_in, lambda, m, trainer.LayerSizes().size(), out.target);
  out.configuration = ConfigurationJson(a, lambda, m, trainer.LayerSizes().size(), ex);
  const fl::TrainConfig config = MakeConfig(a, out.configuration, out_dir);
  if (ex.process.world_size == 1) {
    fl::LocalFleet fleet(config, split.train, workers);
    out.result = fl::RunTraining(config, split, fleet, trainer, Hooks(a));
    return out;
  }
  if (static_cast<std::uint64_t>(ex.process.world_size - 1) > config.clients)
    throw InvalidArgument("--world-size", "more client hosts (" + std::to_string(ex.process.world_size - 1) +
                                              ") than clients (" + std::to_string(config.clients) + ")");
  const std::unique_ptr<fl::Channel> channel = fl::ConnectGloo(ex.process);
  const std::string h0 = fl::TranscriptStart(config, m), data_sha256 = fl::wire::DatasetDigest(split.train);
  if (ex.IsHost()) {
    fl::ClientHost host(config, split.train, fl::HostedClients(config.clients, ex.process.world_size, ex.process.rank),
                        workers);
    out.host = fl::ServeClients(*channel, host, h0, data_sha256, FaultInjection(ex));
    return out;
  }
  fl::RemoteFleet fleet(*channel, config, h0, data_sha256);
  out.result = fl::RunTraining(config, split, fleet, trainer, Hooks(a));
  return out;
}



nlohmann::json RunOne(const TrainArgs& a, double lambda, const std::string& out_dir, const data::Split& split,
                      const nlohmann::json& dataset_json, const std::optional<certify::KeyPair>& signing,
                      const Execution& ex) {
  const Trained run = TrainRun(a, lambda, out_dir, split, ex);
  if (run.host) return HostJson(*run.host, ex);
  const fl::TrainResult& result = run.result;
  certify::RunFiles files;
  files.weights_sha256 = fl::Sha256Files({result.weights_path});
  files.metrics_sha256 = fl::Sha256Files({result.metrics_path});
  certify::Progress accounting;  // the privacy accounting's passes, unless --quiet
  if (!a.quiet) accounting = [](const std::string& line) { std::cerr << "dpfl: certificate: " << line << "\n"; };
  const nlohmann::json cert = certify::BuildCertificate(run.configuration, dataset_json, DPFL_FL_CODE_VERSION, result,
                                                        files, SigningPublicHex(signing), accounting);
  nlohmann::json out = {{"mechanism", a.mechanism}, {"eps_p", a.eps_p}, {"lambda", lambda},
                        {"final_test_accuracy", result.final_test.accuracy},
                        {"best_val_accuracy", 0.0}, {"rounds", result.history.size()},
                        {"out", out_dir}, {"metrics", result.metrics_path},
                        {"weights", result.weights_path},
                        {"plots", a.no_plots ? std::vector<std::string>{} : PlotRun(out_dir, a.mechanism)},
                        {"signed", signing.has_value()}, {"keys", a.keys},
                        {"execution", {{"fleet", result.fleet}, {"workers", ex.workers}, {"threads", a.threads},
                                       {"world_size", ex.process.world_size}}},
                        {"traffic", TrafficJson(result, run.configuration["parameters"].get<std::size_t>())},
                        {"guarantees", cert["privacy"]["guarantees"]}};
  if (!run.target.is_null()) {
    out["target"] = run.target;
    out["eps_p"] = run.configuration["eps_p"];
    for (const auto& g : cert["privacy"]["guarantees"])
      if (g.value("notion", std::string()) == run.target["row"].get<std::string>()) {
        out["certified_epsilon_hi"] = g["epsilon_hi"];
        if (g["notion"].get<std::string>().rfind("tight central", 0) == 0) out["certified_central_epsilon_hi"] = g["epsilon_hi"];
      }
  }
  out["certificate"] = WriteCertificateFiles(cert, out_dir, signing, out);
  double best = 0;
  for (const auto& r : result.history) best = std::max(best, r.val_accuracy);
  out["best_val_accuracy"] = best;
  return out;
}


}  // namespace

// `verify-certificate --replay`: the training again, from the certificate's configuration, and
// every round's transcript hash and the final weights compared bit for bit.
nlohmann::json Replay(const nlohmann::json& cert, const std::string& data_dir, const std::string& replay_dir, bool quiet,
                      std::vector<std::string>& problems) {
  const nlohmann::json& cfg = cert.at("configuration");
  TrainArgs a = ArgsFromConfiguration(cfg);
  if (a.keys == "random")
    throw InvalidArgument("--replay", "this run used --keys random: its client keys were drawn with randombytes and never "
                                      "stored, so it cannot be re-run bit for bit (the certificate's keys_policy says so)");
  const nlohmann::json& dataset = cert.at("dataset");
  if (a.dataset != "synthetic") {
    if (!data_dir.empty()) {
      a.data_dir = data_dir;
    } else if (dataset.contains("files") && dataset["files"].is_array() && !dataset["files"].empty() &&
               dataset["files"][0].is_string()) {
      a.data_dir = fs::path(dataset["files"][0].get<std::string>()).parent_path().string();
    }
  }
  a.quiet = quiet;
  a.no_plots = true;
  a.resume = false;
  const LoadedData loaded = LoadData(a);
  if (dataset.contains("sha256") && loaded.description.value("sha256", std::string()) != dataset["sha256"])
    problems.push_back("replay: the data files found differ from the certificate's (SHA-256 " +
                       loaded.description.value("sha256", std::string("none")) + ")");
  const data::Split split = data::SplitTrainValidationTest(loaded.all, a.seed);
  std::string dir = replay_dir;
  bool temporary = false;
  if (dir.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "dpfl-replay-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw fs::filesystem_error("cannot create a replay directory", tmpl, std::error_code(errno, std::generic_category()));
    dir = tmpl;
    temporary = true;
  }
  nlohmann::json out = {{"directory", dir}};
  try {
    if (a.mechanism == "dpfl-bnn" || fl::IsCepamFlMechanism(a.mechanism) || fl::IsQgaussFlMechanism(a.mechanism)) {
      out.update(a.mechanism == "dpfl-bnn"                ? ReplayBnn(cert, a, split, dir, problems)
                 : fl::IsCepamFlMechanism(a.mechanism) ? ReplayCepam(cert, a, split, dir, problems)
                                                       : ReplayQgauss(cert, a, split, dir, problems));
      if (temporary) {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
        out.erase("directory");
      }
      return out;
    }
    // One process (whatever the recorded world size); the certificate's worker count.
    Execution ex;
    ex.workers = a.workers > 0 ? static_cast<std::size_t>(a.workers) : 1;
    const Trained run = TrainRun(a, cfg.at("lambda").get<double>(), dir, split, ex);
    std::vector<std::string> replayed;
    for (const auto& r : run.result.history) replayed.push_back(r.transcript);
    out.update(ReplayVerdict(cert, replayed, run.result.transcript_start,
                             "broadcast ranges, messages or global model differ", fl::Sha256Files({run.result.weights_path}),
                             cert.at("final").at("weights_sha256"), "weights_match", "final weights", problems));
  } catch (const fl::MonitorFailure& e) {
    problems.push_back(std::string("replay: ") + e.what());
  }
  if (temporary) {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    out.erase("directory");
  }
  return out;
}

// The LocalTrainer options of a run's arguments.
fl::TrainerOptions TrainerOptionsFor(const TrainArgs& a) {
  fl::TrainerOptions topt;
  topt.model = a.model;
  topt.optimizer = a.optimizer;
  topt.lr = a.lr;
  topt.momentum = a.momentum;
  topt.threads = a.threads;
  topt.seed = a.seed;
  return topt;
}

// The data set (data::LoadNamedDataset) and its description for the certificate.
LoadedData LoadData(const TrainArgs& a) {
  data::NamedDataset named = data::LoadNamedDataset({a.dataset, a.data_dir, a.max_samples, a.synthetic_samples, a.seed});
  LoadedData out;
  out.all = std::move(named.data);
  if (named.files.empty()) {
    out.description = {{"name", "synthetic"}, {"samples", a.synthetic_samples},
                       {"generator", "10 Gaussian blobs, 1x8x8, noise 0.35, from the run seed"}};
  } else {
    out.description = {{"name", a.dataset}, {"files", named.files}, {"sha256", fl::Sha256Files(named.files)}};
  }
  if (named.truncated) out.description["max_samples"] = a.max_samples;
  out.description["samples_used"] = out.all.size();
  return out;
}

nlohmann::json RunPldpTrain(const TrainArgs& a, const data::Split& split, const nlohmann::json& dataset) {
  MakeConfig(a, ConfigurationJson(a, a.lambda, 0, 0), a.out);  // bad flags fail before any training
  Execution ex;  // one process; the audit runs its trainings in parallel itself (--jobs)
  ex.workers = a.workers > 0 ? static_cast<std::size_t>(a.workers) : 1;
  return RunOne(a, a.lambda, a.out, split, dataset, std::nullopt, ex);
}

fl::TrainResult RunPldpRounds(const TrainArgs& a, const data::Split& split, const Execution& ex) {
  MakeConfig(a, ConfigurationJson(a, a.lambda, 0, 0), a.out);
  return TrainRun(a, a.lambda, a.out, split, ex).result;
}

void RegisterTrainCommand(CLI::App& root, std::vector<Command>& commands) {
  auto* app = root.add_subcommand("train", "Certified federated training (writes metrics.csv, plots, certificate.json)");
  auto a = std::make_shared<TrainArgs>();
  app->add_option("--dataset", a->dataset, "fashion-mnist (default), mnist, cifar10, synthetic");
  app->add_option("--mechanism", a->mechanism,
                  "vanilla, gaussian, laplace, ldp-fl, corbin-fl (default), augcorbin-fl, cq, coq-fl, dpfl-bnn (seed 004), "
                  "cepam-gaussian, cepam-laplace, fl, fl-sdq, fl-gaussian, fl-gaussian-sdq, fl-laplace, fl-laplace-sdq (seed 002), "
                  "qgauss, qgauss-gaussian, qgauss-vanilla (seed 003)");
  app->add_option("--eps-p", a->eps_p, "per-parameter per-round PLDP budget (default 1)");
  app->add_option("--d", a->d, "shared bits per parameter (default 5)");
  app->add_option("--gamma", a->gamma, "AugCorBin-FL solo fraction (default 0.2)");
  app->add_option("--clients", a->clients, "number of clients (default 10)");
  app->add_option("--rounds", a->rounds, "communication rounds (default 10)");
  app->add_option("--dropout", a->dropout, "per-round client dropout probability (default 0)");
  app->add_option("--lambda", a->lambda, "smoothed update weight in (0, 1] (default 1)");
  app->add_flag("--lambda-grid", a->lambda_grid, "run lambda in {0.1, ..., 1.0} and keep the best validation accuracy");
  app->add_option("--seed", a->seed, "run seed (keys, splits, init; default 1)");
  app->add_option("--out", a->out, "output directory (required)");
  app->add_flag("--resume", a->resume, "continue from OUT/checkpoint.bin");
  app->add_option("--data-dir", a->data_dir, "data directory (default: the Debian data set location)");
  app->add_option("--config", a->config_file, "JSON file with defaults (keys = flag names without --)");
  app->add_option("--delta", a->delta, "gaussian mechanism delta (default 1e-5)");
  app->add_option("--delta-u", a->delta_u, "UCDP delta for Thm 3/4 (default 1e-5)");
  app->add_option("--model", a->model, "mlp, vgg, resnet18, auto (default); dpfl-bnn: bnn (auto), bnn-a, bnn-b, bnn-tiny");
  app->add_option("--optimizer", a->optimizer, "sgd (default) or adam");
  app->add_option("--lr", a->lr, "local learning rate (default 0.05)");
  app->add_option("--momentum", a->momentum, "SGD momentum (default 0)");
  app->add_option("--local-epochs", a->local_epochs, "local passes per round (default 1)");
  app->add_option("--local-steps", a->local_steps, "local mini-batches per round (overrides epochs; default 0)");
  app->add_option("--batch", a->batch, "batch size (default 64)");
  app->add_option("--patience", a->patience, "rounds without validation gain before reloading the best (default 5)");
  app->add_option("--radius-scale", a->radius_scale, "r = scale * (max - min)/2 per layer (default 1.25)");
  app->add_option("--split", a->split, "iid (default) or dirichlet");
  app->add_option("--beta", a->beta, "Dirichlet concentration (default 0.5)");
  app->add_option("--generator", a->generator, "chacha20 (default, certified) or philox");
  app->add_option("--threads", a->threads, "LibTorch intra-op threads (default 1; determinism is per thread count)");
  app->add_option("--max-samples", a->max_samples, "use only the first N samples of the data set (0 = all)");
  app->add_option("--synthetic-samples", a->synthetic_samples, "size of the synthetic data set (default 3000)");
  app->add_option("--monitor-samples", a->monitor_samples, "monitored coordinates per client per round (default 64)");
  app->add_option("--keys", a->keys,
                  "client keys: simulated (default; derived from the seed, reproducible, protects nothing) or random "
                  "(randombytes; not reproducible, cannot be replayed)");
  app->add_option("--signing-key", a->signing_key, "Ed25519 secret key file (dpfl keygen) to sign certificate.json");
  app->add_flag("--quiet", a->quiet, "no progress lines (training, privacy accounting)");
  app->add_flag("--no-plots", a->no_plots, "do not call gnuplot");
  AddExecutionFlags(*app, *a);
  app->add_option("--target-epsilon", a->target_epsilon,
                  "target for the tight central epsilon (at --delta-u) over the run: calibrate eps_p or stop early");
  app->add_option("--target-mode", a->target_mode, "calibrate (default: choose eps_p) or stop (cut the rounds)");
  // DPFL-BNN (seed 004): --mechanism dpfl-bnn --model bnn[-a|-b|-tiny]
  app->add_option("--rr-gamma", a->rr_gamma,
                  "dpfl-bnn: randomized-response bias gamma in [0, 1/2] (keep w.p. 1/2 + gamma); absent: no RR (baseline)");
  app->add_option("--binarizer", a->binarizer, "dpfl-bnn: stosign (default, Alg. B) or sign");
  app->add_option("--mix-beta", a->mix_beta, "dpfl-bnn: weight of the server average in the mixing (Alg. E; default 0.3)");
  app->add_option("--adam-beta1", a->adam_beta1, "dpfl-bnn with --optimizer adam: beta1 (default 0.9; seed 004 E23: 0.5)");
  app->add_option("--lr-schedule", a->lr_schedule, "dpfl-bnn: none (default) or step:S:F (lr times F every S rounds)");
  app->add_option("--eval-clients", a->eval_clients,
                  "dpfl-bnn: clients evaluated per round, evenly spaced (default 0: all; the last round: all)");
  app->add_option("--eval-samples", a->eval_samples,
                  "dpfl-bnn: evaluate on the first N test samples (default 0: the whole test split)");
  // CEPAM and the seed-002 baselines: --mechanism cepam-gaussian|cepam-laplace|fl|fl-sdq|fl-gaussian[-sdq]|fl-laplace[-sdq]
  app->add_option("--lattice-dim", a->lattice_dim, "cepam-*: lattice dimension n (gaussian 1..3, laplace 1; default 1)");
  app->add_option("--clip", a->clip, "seed 002: l2 clipping threshold gamma of each client's update (default 1)");
  app->add_option("--sigma", a->sigma, "seed 002 Gaussian family: noise standard deviation per coordinate");
  app->add_option("--b", a->b, "seed 002 Laplace family: noise scale per coordinate");
  app->add_option("--sdq-step", a->sdq_step,
                  "fl-*-sdq: SDQ step (default: sigma, b, or clip/1024 for fl-sdq; the paper does not state it)");
  app->add_option("--eps", a->eps,
                  "seed 002: per-round target epsilon; without --sigma/--b the noise is calibrated to it (section 3.11; "
                  "Gaussian with --delta)");
  // Seed 003: --mechanism qgauss|qgauss-gaussian|qgauss-vanilla (with --sigma, --clip = C_q, --delta)
  app->add_option("--levels", a->levels, "qgauss: quantizer levels k on [-C, C] (2..65536; default 16)");
  app->add_option("--client-sampling", a->client_sampling,
                  "seed 003: full (default) or poisson:q (each client each round with probability q; accounted)");
  app->add_option("--calibration", a->calibration,
                  "seed 002 with --eps: the guarantee row the noise is calibrated to: printed (default; Theorem 12 (16), "
                  "section 3.11), corrected (E-P2, E-P4) or server (per client against the server)");
  commands.push_back({app, [a, app]() -> nlohmann::json {
    ApplyConfigFile(*a, app);
    if (!fl::HaveTorchTrainer())
      throw InvalidArgument("train", "this dpfl was built without LibTorch (DPFL_TORCH=OFF or DPFL_SANITIZE=ON)");
    if (a->out.empty()) throw InvalidArgument("--out", "an output directory is required");
    if (!(a->delta_u > 0 && a->delta_u < 1)) throw InvalidArgument("--delta-u", "must be in (0, 1)");
    if (!(a->target_epsilon >= 0 && std::isfinite(a->target_epsilon)))
      throw InvalidArgument("--target-epsilon", "must be a finite number > 0 (0: no target)");
    if (a->target_mode != "calibrate" && a->target_mode != "stop")
      throw InvalidArgument("--target-mode", "must be calibrate or stop, got '" + a->target_mode + "'");
    if (a->lambda_grid && app->count("--lambda") > 0)
      throw InvalidArgument("--lambda-grid", "searches lambda itself; do not combine it with --lambda");
    const GivenFlag given = [app](const std::string& flag) { return app->count(flag) > 0; };
    CheckBnnOnlyFlags(*a, given);
    CheckCepamFlags(*a, given);
    CheckQgaussFlags(*a, given);
    const Execution ex = ResolveExecution(*a);
    if (a->mechanism == "dpfl-bnn" || fl::IsQgaussFlMechanism(a->mechanism) || fl::IsCepamFlMechanism(a->mechanism)) {
      // The seed-002/003/004 loops run in one process; the seed-002/003 loops in parallel over
      // --workers, the seed-004 loop one client at a time (docs/scaling.md).
      if (ex.process.world_size > 1)
        throw InvalidArgument("--world-size", "multi-process training is implemented for the seed-000/001 mechanisms "
                                              "(vanilla, gaussian, laplace, ldp-fl, corbin-fl, augcorbin-fl, cq, coq-fl), "
                                              "not for " + a->mechanism);
      if (a->workers > 1 && a->mechanism == "dpfl-bnn")
        throw InvalidArgument("--workers", "parallel clients are implemented for the seed-000/001/002/003 loops, not for " +
                                               a->mechanism + " (its loop trains one client at a time)");
    }
    std::optional<certify::KeyPair> signing;
    if (!a->signing_key.empty()) signing = certify::ParseSecretKey(ReadText(a->signing_key, "--signing-key"), "--signing-key");
    if (a->mechanism == "dpfl-bnn") {  // seed 004: its own loop and certificate (train_bnn.hpp)
      const LoadedData loaded = LoadData(*a);
      return RunBnnTrain(*a, given, data::SplitTrainValidationTest(loaded.all, a->seed), loaded.description, signing);
    }
    if (fl::IsQgaussFlMechanism(a->mechanism)) {  // seed 003: its own loop and certificate (train_qgauss.hpp)
      const LoadedData loaded = LoadData(*a);
      return RunQgaussTrain(*a, given, data::SplitTrainValidationTest(loaded.all, a->seed), loaded.description, signing);
    }
    if (fl::IsCepamFlMechanism(a->mechanism)) {  // seed 002: its own loop and certificate (train_cepam.hpp)
      if (a->out.empty()) throw InvalidArgument("--out", "an output directory is required");
      const LoadedData loaded = LoadData(*a);
      return RunCepamTrain(*a, given, data::SplitTrainValidationTest(loaded.all, a->seed), loaded.description, signing);
    }
    if (ex.process.world_size > 1 && a->lambda_grid)
      throw InvalidArgument("--lambda-grid", "runs 10 trainings in one process; it cannot be combined with --world-size > 1");
    // Bad flags fail before any data is loaded (parameters are not known yet: 0 here).
    MakeConfig(*a, ConfigurationJson(*a, a->lambda, 0, 0), a->out);
    const LoadedData loaded = LoadData(*a);
    const data::Split split = data::SplitTrainValidationTest(loaded.all, a->seed);
    try {
      if (!a->lambda_grid) return RunOne(*a, a->lambda, a->out, split, loaded.description, signing, ex);
      nlohmann::json grid = nlohmann::json::array();
      nlohmann::json best;
      for (int k = 1; k <= 10; ++k) {
        const std::string dir = (fs::path(a->out) / ("lambda-" + std::to_string(k) + "0")).string();
        nlohmann::json r = RunOne(*a, k / 10.0, dir, split, loaded.description, signing, ex);
        if (best.is_null() || r["best_val_accuracy"].get<double>() > best["best_val_accuracy"].get<double>()) best = r;
        grid.push_back(r);
      }
      return {{"grid", grid}, {"best", best},
              {"note", "each of the 10 runs spends the whole budget on the same clients' data: the selected model's "
                       "guarantee is 10 times each run's epsilon and delta (basic composition)"}};
    } catch (const fl::MonitorFailure& e) {
      std::cerr << "dpfl: monitor: " << e.what() << "\n";
      std::exit(3);
    }
  }});
}

}  // namespace dpfl::cli
