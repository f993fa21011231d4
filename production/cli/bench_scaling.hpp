// dpfl bench rounds --scaling (docs/benchmarks.md "Scaling"). See bench_scaling.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace dpfl::cli {

struct ScalingBenchOptions {
  std::string dataset = "fashion-mnist";
  std::size_t max_samples = 20000, synthetic_samples = 3000;
  std::uint32_t clients = 100, rounds = 3;
  int local_epochs = 2;
  double lr = 0.1, eps_p = 1.0;
  std::size_t workers = 2;  // W of the parallel rows (and the peer's thread count)
  int port = 0;             // rank 0's port for the 2-process row (0: a free one)
  std::string peer;         // scripts/fedavg_peer.py ("" = no peer rows)
  std::string python = "python3";
  std::string out;          // scratch directory ("" = a temporary one, removed)
  bool json = false, progress = true;
};

// Runs the rows (dpfl with 1 and W workers, 2 processes, the peer at 1 and W threads in its two
// styles) and returns their seconds per round, accuracies and ratios; a table on stderr unless json.
nlohmann::json RunScalingBench(const ScalingBenchOptions& options);

}  // namespace dpfl::cli
