// dpfl bench quantizers (see bench_command.hpp and production/bench/quantizer_bench.hpp).
// dpfl bench rounds: per-round wall time of each mechanism vs vanilla FL on the same model, data,
// clients and seed, all in one process (docs/benchmarks.md "Rounds").
#include "bench_command.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "../bench/quantizer_bench.hpp"
#include "bench_scaling.hpp"
#include "certificate.hpp"
#include "dpfl/data/datasets.hpp"
#include "dpfl/error.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"
#include "dpfl/quant/fast_encoders.hpp"
#include "dpfl/quant/sampling.hpp"
#if defined(DPFL_HAVE_CUDA)
#include "dpfl/quant/cuda_quantizer.hpp"
#endif

namespace dpfl::cli {
namespace {

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// `dpfl bench rounds`: RunTraining (the production round: local training, encoding, runtime
// monitor, aggregation, evaluation) once per mechanism, vanilla first, same split/model/seed.
// The mechanism's overhead is (median round s - vanilla median round s) / mechanism median round s.
void RegisterRoundsBench(CLI::App& bench, std::vector<Command>& commands) {
  auto* app = bench.add_subcommand(
      "rounds", "per-round time of each mechanism vs vanilla FL (same model, data, clients, seed), one run");
  struct Args {
    std::string dataset = "synthetic", out;
    std::vector<std::string> mechanisms = {"corbin-fl", "ldp-fl"};
    std::size_t max_samples = 0, synthetic_samples = 3000;
    std::uint32_t clients = 20, rounds = 3;
    double eps_p = 1.0;
    int local_epochs = 1, threads = 1;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  app->add_option("--dataset", args->dataset, "synthetic (default) or fashion-mnist");
  app->add_option("--mechanisms", args->mechanisms, "mechanisms compared with vanilla (default corbin-fl ldp-fl)");
  app->add_option("--max-samples", args->max_samples, "first N samples only (0 = all)");
  app->add_option("--synthetic-samples", args->synthetic_samples, "synthetic data set size (default 3000)");
  app->add_option("--clients", args->clients, "clients (default 20)");
  app->add_option("--rounds", args->rounds, "rounds per mechanism; the median round is reported (default 3)");
  app->add_option("--eps-p", args->eps_p, "per-parameter per-round budget (default 1)");
  app->add_option("--local-epochs", args->local_epochs, "local passes per round (default 1)");
  app->add_option("--threads", args->threads, "LibTorch intra-op threads (default 1)");
  app->add_option("--out", args->out, "scratch directory for the runs (default: a temporary one, removed)");
  app->add_flag("--json", args->json, "print JSON only (default: a table on stderr and JSON on stdout)");
  // --scaling: the other benchmark of rounds (bench_scaling.hpp).
  auto scaling = std::make_shared<ScalingBenchOptions>();
  auto scaling_on = std::make_shared<bool>(false);
  app->add_flag("--scaling", *scaling_on,
                "instead: ldp-fl rounds with 1 and --workers W workers, with 2 processes on localhost, and the PyTorch "
                "peer (--peer) at 1 and W threads, one run (defaults: fashion-mnist, 20000 samples, 100 clients, 2 local "
                "epochs, lr 0.1)");
  app->add_option("--workers", scaling->workers, "--scaling: W (default 2)");
  app->add_option("--lr", scaling->lr, "--scaling: local learning rate (default 0.1, the main job's)");
  app->add_option("--peer", scaling->peer, "--scaling: the PyTorch peer script (scripts/fedavg_peer.py); absent: no peer rows");
  app->add_option("--python", scaling->python, "--scaling: the Python with torch (default python3)");
  app->add_option("--port", scaling->port, "--scaling: rank 0's port for the 2-process row (default: a free one)");
  commands.push_back({app, [args, app, scaling, scaling_on]() -> nlohmann::json {
    if (*scaling_on) {
      ScalingBenchOptions o = *scaling;
      if (app->count("--dataset")) o.dataset = args->dataset;
      if (app->count("--max-samples")) o.max_samples = args->max_samples;
      if (app->count("--synthetic-samples")) o.synthetic_samples = args->synthetic_samples;
      if (app->count("--clients")) o.clients = args->clients;
      if (app->count("--rounds")) o.rounds = args->rounds;
      if (app->count("--local-epochs")) o.local_epochs = args->local_epochs;
      if (app->count("--eps-p")) o.eps_p = args->eps_p;
      o.out = args->out;
      o.json = args->json;
      return RunScalingBench(o);
    }
    for (const char* flag : {"--workers", "--lr", "--peer", "--python", "--port"})
      if (app->count(flag)) throw InvalidArgument(flag, "only with --scaling");
    if (!fl::HaveTorchTrainer()) throw InvalidArgument("bench rounds", "this dpfl was built without LibTorch");
    if (args->dataset != "synthetic" && args->dataset != "fashion-mnist")
      throw InvalidArgument("--dataset", "must be synthetic or fashion-mnist, got '" + args->dataset + "'");
    const data::Dataset all =
        data::LoadNamedDataset({args->dataset, "", args->max_samples, args->synthetic_samples, 1}).data;
    const data::Split split = data::SplitTrainValidationTest(all, 1);
    const bool temp = args->out.empty();
    const std::filesystem::path root =
        temp ? std::filesystem::temp_directory_path() /
                   ("dpfl-bench-rounds-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()))
             : std::filesystem::path(args->out);
    std::vector<std::string> names = {"vanilla"};
    for (const auto& m : args->mechanisms)
      if (m != "vanilla") names.push_back(m);
    // Vanilla again at the end: the load on a shared machine drifts, and a mechanism is compared
    // with the mean of the two vanilla medians that bracket it.
    names.push_back("vanilla");
    nlohmann::json out = {{"dataset", args->dataset}, {"samples", all.size()}, {"clients", args->clients},
                          {"rounds", args->rounds}, {"eps_p", args->eps_p}, {"local_epochs", args->local_epochs},
                          {"threads", args->threads}, {"results", nlohmann::json::array()}};
    std::vector<std::vector<double>> all_secs, all_mech_secs;
    std::vector<fl::TrainResult> results;
    std::ostringstream table;
    table << std::left << std::setw(14) << "mechanism" << std::right << std::setw(14) << "median s/rnd"
          << std::setw(14) << "vs vanilla" << std::setw(16) << "overhead/round" << std::setw(14) << "mech s/rnd"
          << std::setw(18) << "mech overhead" << "\n";
    for (const auto& name : names) {
      fl::TrainConfig config;
      config.mechanism.kind = fl::ParseMechanism(name);
      config.mechanism.eps_p = args->eps_p;
      config.clients = args->clients;
      config.rounds = args->rounds;
      config.local_epochs = args->local_epochs;
      config.seed = 1;
      config.out_dir = (root / (name + "-" + std::to_string(all_secs.size()))).string();
      fl::ValidateTrainConfig(config);
      fl::TrainerOptions topt;
      topt.threads = args->threads;
      auto trainer = fl::MakeTorchTrainer(topt, split.train.channels, split.train.height, split.train.width,
                                          split.train.classes);
      fl::TrainHooks hooks;
      hooks.monitor = [](const fl::MechanismConfig& mc, std::uint32_t round, const std::vector<fl::MonitorSample>& s) {
        return certify::MonitorRound(mc, round, s);
      };
      const fl::TrainResult result = fl::RunTraining(config, split, *trainer, hooks);
      std::vector<double> secs, mech_secs;
      for (const auto& r : result.history) {
        secs.push_back(r.seconds);
        mech_secs.push_back(r.mechanism_seconds);
      }
      all_secs.push_back(secs);
      all_mech_secs.push_back(mech_secs);
      results.push_back(result);
    }
    const double vanilla_median = 0.5 * (Median(all_secs.front()) + Median(all_secs.back()));
    out["vanilla_median_round_seconds_first_last"] = {Median(all_secs.front()), Median(all_secs.back())};
    // The direct measure: the mechanism's own work is timed inside each round
    // (RoundRecord::mechanism_seconds), so its overhead over vanilla's plain copy-and-mean is a
    // difference of two small, directly timed quantities rather than of two noisy round times.
    const double vanilla_mech = 0.5 * (Median(all_mech_secs.front()) + Median(all_mech_secs.back()));
    for (std::size_t k = 0; k + 1 < names.size(); ++k) {
      const std::string& name = names[k];
      const double med = k == 0 ? vanilla_median : Median(all_secs[k]);
      const double overhead = med > 0 ? (med - vanilla_median) / med : 0.0;
      const double mech = k == 0 ? vanilla_mech : Median(all_mech_secs[k]);
      const double mech_overhead = med > 0 ? (mech - vanilla_mech) / med : 0.0;
      std::vector<double> secs = all_secs[k], mech_secs = all_mech_secs[k];
      if (k == 0) {
        secs.insert(secs.end(), all_secs.back().begin(), all_secs.back().end());
        mech_secs.insert(mech_secs.end(), all_mech_secs.back().begin(), all_mech_secs.back().end());
      }
      out["results"].push_back({{"mechanism", name}, {"round_seconds", secs}, {"median_round_seconds", med},
                                {"ratio_to_vanilla", vanilla_median > 0 ? med / vanilla_median : 0.0},
                                {"overhead_fraction_of_round", overhead},
                                {"mechanism_seconds", mech_secs},
                                {"median_mechanism_seconds", mech},
                                {"mechanism_overhead_fraction_of_round", mech_overhead},
                                {"final_test_accuracy", results[k].final_test.accuracy}});
      table << std::left << std::setw(14) << name << std::right << std::fixed << std::setprecision(3) << std::setw(14)
            << med << std::setw(13) << (vanilla_median > 0 ? med / vanilla_median : 0.0) << "x" << std::setw(15)
            << std::setprecision(1) << 100.0 * overhead << "%" << std::setprecision(4) << std::setw(14) << mech
            << std::setprecision(2) << std::setw(17) << 100.0 * mech_overhead << "%\n";
    }
    if (temp) {
      std::error_code ec;
      std::filesystem::remove_all(root, ec);
    }
    if (!args->json) std::cerr << table.str();
    return out;
  }});
}

// `dpfl bench aggregate`: the server's sum of n bit-packed messages — AccumulateMessages
// (vectorized, threaded) against the per-message AccumulateBits loop, same data, one run.
void RegisterAggregateBench(CLI::App& bench, std::vector<Command>& commands) {
  auto* app = bench.add_subcommand(
      "aggregate", "counts of n bit-packed messages: AccumulateMessages vs per-message AccumulateBits, one run");
  struct Args {
    std::size_t m = std::size_t{1} << 20, n = 100;
    int threads = 2, reps = 5;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  app->add_option("--m", args->m, "parameters per message (default 2^20)");
  app->add_option("--n", args->n, "messages (default 100)");
  app->add_option("--threads", args->threads, "threads for AccumulateMessages (default 2)");
  app->add_option("--reps", args->reps, "timed repetitions after one warm-up; best is kept (default 5)");
  app->add_flag("--json", args->json, "print JSON only (default: a table on stderr and JSON on stdout)");
  commands.push_back({app, [args]() -> nlohmann::json {
    if (args->m == 0 || args->m > (std::size_t{1} << 28)) throw InvalidArgument("--m", "must be in [1, 2^28]");
    if (args->n == 0 || args->n > 100000) throw InvalidArgument("--n", "must be in [1, 100000]");
    if (args->m / 64 * args->n > (std::size_t{1} << 28)) throw InvalidArgument("--n", "m * n must be at most 2^34 bits");
    if (args->threads < 1 || args->threads > 256) throw InvalidArgument("--threads", "must be in [1, 256]");
    if (args->reps < 1 || args->reps > 1000) throw InvalidArgument("--reps", "must be in [1, 1000]");
    const std::size_t words = quant::PackedWords(args->m);
    std::vector<std::uint64_t> store(words * args->n);
    std::uint64_t state = 0x9E3779B97F4A7C15ull;  // splitmix64: test data, not DP randomness
    for (auto& v : store) v = quant::SplitMix64(state);
    std::vector<std::span<const std::uint64_t>> messages;
    for (std::size_t i = 0; i < args->n; ++i) messages.emplace_back(store.data() + i * words, words);
    std::vector<std::uint32_t> base(args->m, 0), fast(args->m, 0);
    const double per_message_s = bench::BestSeconds(args->reps, [&] {
      for (const auto& msg : messages) quant::AccumulateBits(msg, base);
    });
    const double fast_s = bench::BestSeconds(args->reps, [&] { quant::AccumulateMessages(messages, fast, args->threads); });
    if (base != fast) throw std::runtime_error("bench aggregate: AccumulateMessages disagrees with AccumulateBits");
    const double bits = static_cast<double>(args->m) * static_cast<double>(args->n);
    nlohmann::json out = {{"m", args->m},
                          {"n", args->n},
                          {"threads", args->threads},
                          {"reps", args->reps},
                          {"per_message_accumulate_bits_per_s", bits / per_message_s},
                          {"accumulate_messages_bits_per_s", bits / fast_s},
                          {"speedup", per_message_s / fast_s}};
    if (!args->json)
      std::cerr << std::fixed << std::setprecision(1) << "per-message AccumulateBits: " << bits / per_message_s / 1e9
                << " Gbit/s; AccumulateMessages (" << args->threads << " threads): " << bits / fast_s / 1e9
                << " Gbit/s; speed-up " << per_message_s / fast_s << "x\n";
    return out;
  }});
}

// `bench quantizers --backend cuda`: the GPU encoders on device buffers against the
// device-to-device copy bandwidth, measured in the same run. An encode reads 4 bytes and writes
// 1/8 byte per parameter, so its bandwidth is params/s · 4.125 bytes, compared with the copy's
// (read + write) GB/s (the project's target on an H100/H200: ≥ 80 %, docs/cuda.md).
nlohmann::json RunCudaQuantizerBench(const bench::QuantizerBenchOptions& o, const std::string& generator) {
#if defined(DPFL_HAVE_CUDA)
  const quant::BinaryLevels levels = quant::MakeBinaryLevels(1.0, 0.0, 1.0);
  const rng::Generator gen = o.philox ? rng::Generator::kPhilox4x32 : rng::Generator::kChaCha20;
  const double copy_gb_per_s = quant::CudaCopyBandwidth(o.m * sizeof(float));
  nlohmann::json out = {{"backend", "cuda"},       {"m", o.m},
                        {"reps", o.reps},          {"d", o.d},
                        {"generator", generator},  {"copy_gb_per_s", copy_gb_per_s},
                        {"results", nlohmann::json::array()}};
  const std::pair<const char*, quant::CudaBenchRule> rules[] = {
      {"ldpq", quant::CudaBenchRule::kLdpq}, {"corbinq", quant::CudaBenchRule::kQ1}, {"coq", quant::CudaBenchRule::kQ2}};
  std::ostringstream table;
  table << std::left << std::setw(9) << "name" << std::right << std::setw(14) << "GPU Mp/s" << std::setw(14)
        << "encode GB/s" << std::setw(12) << "copy GB/s" << std::setw(12) << "of copy" << "\n";
  for (const auto& [name, rule] : rules) {
    const double params_per_s = quant::CudaEncodeThroughput(rule, levels, o.m, o.d, gen, o.reps);
    const double gb_per_s = params_per_s * (sizeof(float) + 0.125) / 1e9;
    out["results"].push_back({{"name", name},
                              {"params_per_s", params_per_s},
                              {"encode_gb_per_s", gb_per_s},
                              {"fraction_of_copy", gb_per_s / copy_gb_per_s}});
    table << std::left << std::setw(9) << name << std::right << std::fixed << std::setprecision(1) << std::setw(14)
          << params_per_s / 1e6 << std::setw(14) << gb_per_s << std::setw(12) << copy_gb_per_s << std::setw(11)
          << 100.0 * gb_per_s / copy_gb_per_s << "%\n";
  }
  std::cerr << table.str();
  return out;
#else
  (void)o;
  (void)generator;
  throw InvalidArgument("--backend", "cuda: this dpfl was built without the CUDA backend (target dpfl_cuda absent)");
#endif
}

}  // namespace

void RegisterBenchCommand(CLI::App& root, std::vector<Command>& commands) {
  auto* bench = root.add_subcommand("bench", "Benchmarks with in-process baselines and ratios");
  bench->require_subcommand(1);
  auto* app = bench->add_subcommand(
      "quantizers",
      "params/s of the production encoders vs a LibTorch tensor-op version vs memcpy of the input, one run");
  struct Args {
    bench::QuantizerBenchOptions options;
    std::string generator = "chacha20", backend = "cpu", isa;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  app->add_option("--m", args->options.m, "parameters per encode (default 2^24)");
  app->add_option("--threads", args->options.threads, "threads for every contender (default 2)");
  app->add_option("--reps", args->options.reps,
                  "timed repetitions after one warm-up, best kept; on cpu each repetition is a round that runs "
                  "every contender once (default 5)");
  app->add_option("--d", args->options.d, "shared bits for corbinq/coq (default 5)");
  app->add_option("--generator", args->generator, "production generator: chacha20 (default) or philox")
      ->check(CLI::IsMember({"chacha20", "philox"}));
  app->add_option("--backend", args->backend,
                  "cpu (default: SIMD encoders vs LibTorch ops vs memcpy) or cuda (GPU encoders vs device copy)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  app->add_option("--isa", args->isa,
                  "cpu: instruction set of the encoders: avx512, avx2 or baseline (default: DPFL_ISA if set, else the "
                  "widest the CPU has); every one gives the same bits")
      ->check(CLI::IsMember({"avx512", "avx2", "baseline"}));
  app->add_flag("--json", args->json, "print JSON only (default: a table on stderr and JSON on stdout)");
  commands.push_back({app, [args]() {
    args->options.philox = args->generator == "philox";
    if (!args->isa.empty()) quant::fast::SetActiveIsa(*quant::fast::ParseIsa(args->isa));
    if (UseCudaBackend(args->backend)) {
      bench::ValidateQuantizerBenchOptions(args->options);
      return RunCudaQuantizerBench(args->options, args->generator);
    }
    const auto results = bench::RunQuantizerBench(args->options);
    nlohmann::json out;
    out["m"] = args->options.m;
    out["threads"] = args->options.threads;
    out["reps"] = args->options.reps;
    out["d"] = args->options.d;
    out["generator"] = args->generator;
    out["isa"] = std::string(quant::fast::IsaName(quant::fast::ActiveIsa()));
    out["cpu_widest_isa"] = std::string(quant::fast::IsaName(quant::fast::BestIsa()));
    out["libtorch"] = bench::HaveLibTorch() ? "linked" : "not built (LibTorch not found at configure time)";
    out["results"] = nlohmann::json::array();
    std::ostringstream table;
    double qgauss_scalar = 0;
    for (const auto& r : results)
      if (r.name == "qgauss-scalar") qgauss_scalar = r.params_per_s;
    table << std::left << std::setw(14) << "name" << std::right << std::setw(14) << "prod Mp/s" << std::setw(14)
          << "torch Mp/s" << std::setw(14) << "memcpy Mp/s" << std::setw(12) << "x torch" << std::setw(12)
          << "of memcpy" << std::setw(10) << "of read" << "\n";
    for (const auto& r : results) {
      nlohmann::json j;
      j["name"] = r.name;
      j["m"] = r.m;
      j["params_per_s"] = r.params_per_s;
      if (r.name == "qgauss" && qgauss_scalar > 0) j["speedup_vs_qgauss_scalar"] = r.params_per_s / qgauss_scalar;
      j["memcpy_params_per_s"] = r.memcpy_params_per_s;
      j["fraction_of_memcpy"] = r.params_per_s / r.memcpy_params_per_s;
      j["read_params_per_s"] = r.read_params_per_s;
      j["fraction_of_read"] = r.params_per_s / r.read_params_per_s;
      if (r.libtorch_ops_params_per_s) {
        j["libtorch_ops_params_per_s"] = *r.libtorch_ops_params_per_s;
        j["speedup_vs_libtorch_ops"] = r.params_per_s / *r.libtorch_ops_params_per_s;
      } else {
        j["libtorch_ops_params_per_s"] = nullptr;
      }
      out["results"].push_back(j);
      table << std::left << std::setw(14) << r.name << std::right << std::fixed << std::setprecision(1) << std::setw(14)
            << r.params_per_s / 1e6 << std::setw(14)
            << (r.libtorch_ops_params_per_s ? *r.libtorch_ops_params_per_s / 1e6 : 0.0) << std::setw(14)
            << r.memcpy_params_per_s / 1e6 << std::setw(12)
            << (r.libtorch_ops_params_per_s ? r.params_per_s / *r.libtorch_ops_params_per_s : 0.0) << std::setw(11)
            << 100.0 * r.params_per_s / r.memcpy_params_per_s << "%" << std::setw(9)
            << 100.0 * r.params_per_s / r.read_params_per_s << "%\n";
    }
    if (!args->json) std::cerr << table.str();
    return out;
  }});
  RegisterRoundsBench(*bench, commands);
  RegisterAggregateBench(*bench, commands);
}

}  // namespace dpfl::cli
