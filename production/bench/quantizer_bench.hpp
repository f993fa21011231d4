// `dpfl bench quantizers`: production encoders vs a LibTorch tensor-op implementation of the
// same algorithm (as a PyTorch user would write it) vs a memcpy of the same input bytes and a
// read-only pass over them, all measured in the same process and run, reported as ratios
// (docs/benchmarks.md). The encoders run on quant::fast::ActiveIsa() (the caller sets it).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace dpfl::bench {

struct QuantizerBenchOptions {
  std::size_t m = std::size_t{1} << 24;  // parameters per encode
  int threads = 2;
  int reps = 5;                          // best of `reps` timed runs after one warm-up (interleaved)
  int d = 5;                             // shared bits (CorBinQ / CoQ-FL)
  bool philox = false;                   // generator of the production path
};

struct QuantizerBenchResult {
  std::string name;
  std::size_t m = 0;                               // parameters per call (the qgauss rows: min(m, 2^20))
  double params_per_s = 0;                         // production path
  std::optional<double> libtorch_ops_params_per_s;  // absent when built without LibTorch
  double memcpy_params_per_s = 0;                  // memcpy of m·4 bytes with the same threads
  double read_params_per_s = 0;                    // a read-only pass over the m·4 bytes, same threads
};

// The LibTorch baseline of one quantizer: encodes `m` parameters once (inputs prepared by the
// callee at construction). Provided by libtorch_quantizers.cpp when LibTorch is found.
struct TorchBaseline {
  std::string name;
  std::function<void()> run;
};
// Builds the baselines for m parameters with `threads` intra-op threads; empty without LibTorch.
std::vector<TorchBaseline> MakeTorchBaselines(std::size_t m, int threads, int d);
bool HaveLibTorch();

// Throws InvalidArgument naming the flag: m ∈ [1, 2^30], threads ∈ [1, 256], reps ∈ [1, 1000],
// d ∈ [0, 62] (shared by the CPU and the CUDA quantizer benchmarks).
void ValidateQuantizerBenchOptions(const QuantizerBenchOptions& options);
std::vector<QuantizerBenchResult> RunQuantizerBench(const QuantizerBenchOptions& options);

// A timed call and the untimed pause after it (see InterleavedBestSeconds).
struct Contender {
  std::function<void()> run;
  std::chrono::milliseconds settle{0};
};

// Best seconds of each contender: every one is warmed up once, then `reps` rounds each run every
// contender once in turn. Interleaving makes the ratios robust to a machine whose speed drifts
// during the run (shared or virtual machines): a slow spell hits all contenders alike instead of
// whichever happened to be timed during it. After a call the loop sleeps the contender's
// `settle` (untimed), e.g. so that worker threads it leaves spinning (OpenMP pools keep polling
// for a while after a parallel region) do not take cores from the next one.
inline std::vector<double> InterleavedBestSeconds(int reps, const std::vector<Contender>& contenders) {
  const auto call = [&](const Contender& c) {
    const auto start = std::chrono::steady_clock::now();
    c.run();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (c.settle.count() > 0) std::this_thread::sleep_for(c.settle);
    return s;
  };
  for (const Contender& c : contenders) call(c);  // warm-up
  std::vector<double> best(contenders.size(), 1e300);
  for (int i = 0; i < reps; ++i)
    for (std::size_t c = 0; c < contenders.size(); ++c) best[c] = std::min(best[c], call(contenders[c]));
  return best;
}

// Seconds of the fastest of `reps` timed calls of fn, after one untimed warm-up call.
inline double BestSeconds(int reps, std::function<void()> fn) {
  return InterleavedBestSeconds(reps, {{std::move(fn)}})[0];
}

}  // namespace dpfl::bench
