// dpfl bench quantizers (see bench_command.hpp and production/bench/quantizer_bench.hpp).
#include "bench_command.hpp"

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "../bench/quantizer_bench.hpp"
#include "dpfl/quant/fast_encoders.hpp"

namespace dpfl::cli {

void RegisterBenchCommand(CLI::App& root, std::vector<Command>& commands) {
  auto* bench = root.add_subcommand("bench", "Benchmarks with in-process baselines and ratios");
  bench->require_subcommand(1);
  auto* app = bench->add_subcommand(
      "quantizers",
      "params/s of the production encoders vs a LibTorch tensor-op version vs memcpy of the input, one run");
  struct Args {
    bench::QuantizerBenchOptions options;
    std::string generator = "chacha20";
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  app->add_option("--m", args->options.m, "parameters per encode (default 2^24)");
  app->add_option("--threads", args->options.threads, "threads for every contender (default 2)");
  app->add_option("--reps", args->options.reps, "timed repetitions after one warm-up; best is kept (default 5)");
  app->add_option("--d", args->options.d, "shared bits for corbinq/coq (default 5)");
  app->add_option("--generator", args->generator, "production generator: chacha20 (default) or philox")
      ->check(CLI::IsMember({"chacha20", "philox"}));
  app->add_flag("--json", args->json, "print JSON only (default: a table on stderr and JSON on stdout)");
  commands.push_back({app, [args]() {
    args->options.philox = args->generator == "philox";
    const auto results = bench::RunQuantizerBench(args->options);
    nlohmann::json out;
    out["m"] = args->options.m;
    out["threads"] = args->options.threads;
    out["reps"] = args->options.reps;
    out["d"] = args->options.d;
    out["generator"] = args->generator;
    using quant::fast::Isa;
    const Isa isa = quant::fast::BestIsa();
    out["isa"] = isa == Isa::kAvx512 ? "avx512" : (isa == Isa::kAvx2 ? "avx2" : "baseline");
    out["libtorch"] = bench::HaveLibTorch() ? "linked" : "not built (LibTorch not found at configure time)";
    out["results"] = nlohmann::json::array();
    std::ostringstream table;
    table << std::left << std::setw(9) << "name" << std::right << std::setw(14) << "prod Mp/s" << std::setw(14)
          << "torch Mp/s" << std::setw(14) << "memcpy Mp/s" << std::setw(12) << "x torch" << std::setw(12)
          << "of memcpy" << "\n";
    for (const auto& r : results) {
      nlohmann::json j;
      j["name"] = r.name;
      j["params_per_s"] = r.params_per_s;
      j["memcpy_params_per_s"] = r.memcpy_params_per_s;
      j["fraction_of_memcpy"] = r.params_per_s / r.memcpy_params_per_s;
      if (r.libtorch_ops_params_per_s) {
        j["libtorch_ops_params_per_s"] = *r.libtorch_ops_params_per_s;
        j["speedup_vs_libtorch_ops"] = r.params_per_s / *r.libtorch_ops_params_per_s;
      } else {
        j["libtorch_ops_params_per_s"] = nullptr;
      }
      out["results"].push_back(j);
      table << std::left << std::setw(9) << r.name << std::right << std::fixed << std::setprecision(1) << std::setw(14)
            << r.params_per_s / 1e6 << std::setw(14)
            << (r.libtorch_ops_params_per_s ? *r.libtorch_ops_params_per_s / 1e6 : 0.0) << std::setw(14)
            << r.memcpy_params_per_s / 1e6 << std::setw(12)
            << (r.libtorch_ops_params_per_s ? r.params_per_s / *r.libtorch_ops_params_per_s : 0.0) << std::setw(11)
            << 100.0 * r.params_per_s / r.memcpy_params_per_s << "%\n";
    }
    if (!args->json) std::cerr << table.str();
    return out;
  }});
}

}  // namespace dpfl::cli
