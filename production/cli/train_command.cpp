// dpfl train and dpfl verify-certificate (issue 6).
//
// dpfl train --dataset fashion-mnist|mnist|cifar10|synthetic --mechanism NAME --eps-p E --d D
//            --gamma G --clients N --rounds T --dropout P --lambda L --seed S --out DIR [--resume]
//            [--data-dir DIR] [--config FILE.json] [--lambda-grid] ...
// A JSON config file supplies defaults with the flags' long names as keys (without "--");
// flags on the command line win. Bad values → exit 2, one line on stderr. A run whose runtime
// monitor rejects a round stops (exit 3) and writes no certificate.
#include "train_command.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "certificate.hpp"
#include "dpfl/data/datasets.hpp"
#include "dpfl/error.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"
#include "dpfl_fl_version.hpp"

namespace dpfl::cli {
namespace {

struct TrainArgs {
  std::string dataset = "fashion-mnist", mechanism = "corbin-fl", data_dir, config_file, out, split = "iid";
  std::string model = "auto", optimizer = "sgd", generator = "chacha20";
  double eps_p = 1.0, gamma = 0.2, dropout = 0.0, lambda = 1.0, delta = 1e-5, delta_u = 1e-5, lr = 0.05, momentum = 0.0;
  double beta = 0.5, radius_scale = 1.25;
  int d = 5, local_epochs = 1, local_steps = 0, batch = 64, patience = 5, threads = 1;
  std::uint32_t clients = 10, rounds = 10;
  std::uint64_t seed = 1;
  std::size_t max_samples = 0, synthetic_samples = 3000, monitor_samples = 64;
  bool resume = false, lambda_grid = false, quiet = false, no_plots = false;
};

template <class T>
void FromConfig(const nlohmann::json& j, const char* key, T& value, const CLI::App* app) {
  if (!j.contains(key) || app->count(std::string("--") + key) > 0) return;
  try {
    value = j.at(key).get<T>();
  } catch (const std::exception&) {
    throw InvalidArgument(std::string("--config"), std::string("key '") + key + "' has the wrong type");
  }
}

void ApplyConfigFile(TrainArgs& a, const CLI::App* app) {
  if (a.config_file.empty()) return;
  std::ifstream in(a.config_file);
  if (!in) throw InvalidArgument("--config", "cannot open '" + a.config_file + "'");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw InvalidArgument("--config", "'" + a.config_file + "' is not valid JSON");
  }
  static const char* kKnown[] = {"dataset", "mechanism", "data-dir", "out", "split", "model", "optimizer", "generator",
                                 "eps-p", "gamma", "dropout", "lambda", "delta", "delta-u", "lr", "momentum", "beta",
                                 "radius-scale", "d", "local-epochs", "local-steps", "batch", "patience", "threads",
                                 "clients", "rounds", "seed", "max-samples", "synthetic-samples", "monitor-samples"};
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : kKnown) known = known || key == k;
    if (!known) throw InvalidArgument("--config", "unknown key '" + key + "' in '" + a.config_file + "'");
  }
  FromConfig(j, "dataset", a.dataset, app);
  FromConfig(j, "mechanism", a.mechanism, app);
  FromConfig(j, "data-dir", a.data_dir, app);
  FromConfig(j, "out", a.out, app);
  FromConfig(j, "split", a.split, app);
  FromConfig(j, "model", a.model, app);
  FromConfig(j, "optimizer", a.optimizer, app);
  FromConfig(j, "generator", a.generator, app);
  FromConfig(j, "eps-p", a.eps_p, app);
  FromConfig(j, "gamma", a.gamma, app);
  FromConfig(j, "dropout", a.dropout, app);
  FromConfig(j, "lambda", a.lambda, app);
  FromConfig(j, "delta", a.delta, app);
  FromConfig(j, "delta-u", a.delta_u, app);
  FromConfig(j, "lr", a.lr, app);
  FromConfig(j, "momentum", a.momentum, app);
  FromConfig(j, "beta", a.beta, app);
  FromConfig(j, "radius-scale", a.radius_scale, app);
  FromConfig(j, "d", a.d, app);
  FromConfig(j, "local-epochs", a.local_epochs, app);
  FromConfig(j, "local-steps", a.local_steps, app);
  FromConfig(j, "batch", a.batch, app);
  FromConfig(j, "patience", a.patience, app);
  FromConfig(j, "threads", a.threads, app);
  FromConfig(j, "clients", a.clients, app);
  FromConfig(j, "rounds", a.rounds, app);
  FromConfig(j, "seed", a.seed, app);
  FromConfig(j, "max-samples", a.max_samples, app);
  FromConfig(j, "synthetic-samples", a.synthetic_samples, app);
  FromConfig(j, "monitor-samples", a.monitor_samples, app);
}

struct LoadedData {
  data::Dataset all;
  nlohmann::json description;
};

LoadedData LoadData(const TrainArgs& a) {
  LoadedData out;
  std::vector<std::string> files;
  if (a.dataset == "synthetic") {
    out.all = data::MakeSynthetic(a.synthetic_samples, a.seed);
    out.description = {{"name", "synthetic"}, {"samples", a.synthetic_samples},
                       {"generator", "10 Gaussian blobs, 1x8x8, noise 0.35, from the run seed"}};
  } else if (a.dataset == "fashion-mnist" || a.dataset == "mnist") {
    const std::string dir = !a.data_dir.empty() ? a.data_dir
                            : a.dataset == "fashion-mnist" ? "/usr/share/datasets/fashion-mnist"
                                                           : "/usr/share/datasets/mnist";
    files = data::MnistFiles(dir);
    out.all = data::LoadMnistDirectory(dir);
  } else if (a.dataset == "cifar10") {
    const std::string dir = !a.data_dir.empty() ? a.data_dir : "/usr/share/datasets/cifar10";
    files = data::Cifar10Files(dir);
    out.all = data::LoadCifar10Directory(dir);
  } else {
    throw InvalidArgument("--dataset", "must be fashion-mnist, mnist, cifar10 or synthetic, got '" + a.dataset + "'");
  }
  if (!files.empty()) out.description = {{"name", a.dataset}, {"files", files}, {"sha256", fl::Sha256Files(files)}};
  if (a.max_samples > 0 && a.max_samples < out.all.size()) {
    std::vector<std::size_t> first(a.max_samples);
    for (std::size_t k = 0; k < first.size(); ++k) first[k] = k;
    out.all = out.all.Subset(first);
    out.description["max_samples"] = a.max_samples;
  }
  out.description["samples_used"] = out.all.size();
  return out;
}

nlohmann::json RunOne(const TrainArgs& a, const fl::TrainConfig& config, const data::Split& split,
                      const nlohmann::json& dataset_json) {
  fl::TrainerOptions topt;
  topt.model = a.model;
  topt.optimizer = a.optimizer;
  topt.lr = a.lr;
  topt.momentum = a.momentum;
  topt.threads = a.threads;
  topt.seed = a.seed;
  auto trainer = fl::MakeTorchTrainer(topt, split.train.channels, split.train.height, split.train.width, split.train.classes);
  std::size_t m = 0;
  for (std::size_t s : trainer->LayerSizes()) m += s;
  fl::TrainHooks hooks;
  hooks.monitor = [](const fl::MechanismConfig& mc, std::uint32_t round, const std::vector<fl::MonitorSample>& s) {
    return certify::MonitorRound(mc, round, s);
  };
  const fl::TrainResult result = fl::RunTraining(config, split, *trainer, hooks);
  nlohmann::json cfg = {{"dataset", a.dataset}, {"mechanism", a.mechanism}, {"eps_p", a.eps_p}, {"d", a.d},
                        {"gamma", a.gamma}, {"delta", a.delta}, {"delta_u", a.delta_u}, {"dropout", a.dropout},
                        {"clients", a.clients}, {"rounds", a.rounds}, {"lambda", config.lambda}, {"seed", a.seed},
                        {"model", a.model}, {"optimizer", a.optimizer}, {"lr", a.lr}, {"momentum", a.momentum},
                        {"local_epochs", a.local_epochs}, {"local_steps", a.local_steps}, {"batch", a.batch},
                        {"patience", a.patience}, {"radius_scale", a.radius_scale}, {"split", a.split},
                        {"beta", a.beta}, {"generator", a.generator}, {"threads", a.threads},
                        {"parameters", m}, {"layers", result.layer_sizes.size()}};
  const nlohmann::json cert = certify::BuildCertificate(cfg, dataset_json, DPFL_FL_CODE_VERSION, result);
  const std::string cert_path = (std::filesystem::path(config.out_dir) / "certificate.json").string();
  {
    std::ofstream f(cert_path + ".tmp");
    f << cert.dump(2) << "\n";
  }
  std::filesystem::rename(cert_path + ".tmp", cert_path);
  nlohmann::json out = {{"mechanism", a.mechanism}, {"eps_p", a.eps_p}, {"lambda", config.lambda},
                        {"final_test_accuracy", result.final_test.accuracy},
                        {"best_val_accuracy", 0.0}, {"rounds", result.history.size()},
                        {"out", config.out_dir}, {"certificate", cert_path}, {"metrics", result.metrics_path},
                        {"weights", result.weights_path}, {"plots", result.plots},
                        {"privacy_composition", cert["privacy"].value("composition", nlohmann::json())}};
  double best = 0;
  for (const auto& r : result.history) best = std::max(best, r.val_accuracy);
  out["best_val_accuracy"] = best;
  return out;
}

}  // namespace

void RegisterTrainCommand(CLI::App& root, std::vector<Command>& commands) {
  auto* app = root.add_subcommand("train", "Certified federated training (writes metrics.csv, plots, certificate.json)");
  auto a = std::make_shared<TrainArgs>();
  app->add_option("--dataset", a->dataset, "fashion-mnist (default), mnist, cifar10, synthetic");
  app->add_option("--mechanism", a->mechanism, "vanilla, gaussian, laplace, ldp-fl, corbin-fl (default), augcorbin-fl, cq, coq-fl");
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
  app->add_option("--model", a->model, "mlp, vgg, resnet18, auto (default)");
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
  app->add_flag("--quiet", a->quiet, "no progress line");
  app->add_flag("--no-plots", a->no_plots, "do not call gnuplot");
  commands.push_back({app, [a, app]() -> nlohmann::json {
    ApplyConfigFile(*a, app);
    if (!fl::HaveTorchTrainer())
      throw InvalidArgument("train", "this dpfl was built without LibTorch (DPFL_TORCH=OFF or DPFL_SANITIZE=ON)");
    if (a->out.empty()) throw InvalidArgument("--out", "an output directory is required");
    if (a->generator != "chacha20" && a->generator != "philox")
      throw InvalidArgument("--generator", "must be chacha20 or philox, got '" + a->generator + "'");
    if (!(a->delta_u > 0 && a->delta_u < 1)) throw InvalidArgument("--delta-u", "must be in (0, 1)");
    if (a->lambda_grid && app->count("--lambda") > 0)
      throw InvalidArgument("--lambda-grid", "searches lambda itself; do not combine it with --lambda");
    fl::TrainConfig config;
    config.mechanism.kind = fl::ParseMechanism(a->mechanism);
    config.mechanism.eps_p = a->eps_p;
    config.mechanism.d = a->d;
    config.mechanism.gamma = a->gamma;
    config.mechanism.delta = a->delta;
    config.mechanism.dropout = a->dropout;
    config.mechanism.generator = a->generator == "philox" ? rng::Generator::kPhilox4x32 : rng::Generator::kChaCha20;
    config.clients = a->clients;
    config.rounds = a->rounds;
    config.lambda = a->lambda;
    config.seed = a->seed;
    config.local_epochs = a->local_epochs;
    config.local_steps = a->local_steps;
    config.batch = a->batch;
    config.patience = a->patience;
    config.radius_scale = a->radius_scale;
    config.split = a->split;
    config.dirichlet_beta = a->beta;
    config.monitor_samples = a->monitor_samples;
    config.out_dir = a->out;
    config.resume = a->resume;
    config.progress = !a->quiet;
    config.plots = !a->no_plots;
    fl::ValidateTrainConfig(config);  // before loading data: bad flags fail fast
    const LoadedData loaded = LoadData(*a);
    const data::Split split = data::SplitTrainValidationTest(loaded.all, a->seed);
    try {
      if (!a->lambda_grid) return RunOne(*a, config, split, loaded.description);
      nlohmann::json grid = nlohmann::json::array();
      nlohmann::json best;
      for (int k = 1; k <= 10; ++k) {
        fl::TrainConfig c = config;
        c.lambda = k / 10.0;
        c.out_dir = (std::filesystem::path(config.out_dir) / ("lambda-" + std::to_string(k) + "0")).string();
        nlohmann::json r = RunOne(*a, c, split, loaded.description);
        if (best.is_null() || r["best_val_accuracy"].get<double>() > best["best_val_accuracy"].get<double>()) best = r;
        grid.push_back(r);
      }
      return {{"grid", grid}, {"best", best}};
    } catch (const fl::MonitorFailure& e) {
      std::cerr << "dpfl: monitor: " << e.what() << "\n";
      std::exit(3);
    }
  }});
}

void RegisterVerifyCommand(CLI::App& root, std::vector<Command>& commands) {
  auto* app = root.add_subcommand("verify-certificate", "Recompute every privacy number of certificate.json with the reference");
  auto file = std::make_shared<std::string>();
  app->add_option("file,--file", *file, "certificate.json")->required();
  commands.push_back({app, [file]() -> nlohmann::json {
    std::ifstream in(*file);
    if (!in) throw InvalidArgument("file", "cannot open '" + *file + "'");
    nlohmann::json cert;
    try {
      cert = nlohmann::json::parse(in);
    } catch (const std::exception&) {
      throw InvalidArgument("file", "'" + *file + "' is not valid JSON");
    }
    const certify::Verification v = certify::VerifyCertificate(cert);
    if (!v.ok) {
      for (const auto& p : v.problems) std::cerr << "dpfl: verify-certificate: " << p << "\n";
      std::cout << nlohmann::json({{"file", *file}, {"verified", false}, {"problems", v.problems}}).dump(2) << "\n";
      std::exit(1);
    }
    return {{"file", *file}, {"verified", true}};
  }});
}

}  // namespace dpfl::cli
