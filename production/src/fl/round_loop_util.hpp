// INTERNAL to dpfl_fl: the pieces the update-based round loops share (seed 002's CEPAM loop,
// seed 003's quantized-Gaussian loop, seed 004's DPFL-BNN loop): wall-clock seconds, the
// divergence check after aggregation, the per-round evaluation on the validation and test splits,
// and final_weights.bin.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpfl/data/datasets.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"

namespace dpfl::fl::internal {

inline double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A non-finite global weight after round t (0-based) ends the run with a clear error.
inline void ThrowIfDiverged(const std::vector<float>& global, std::uint32_t round) {
  for (std::size_t j = 0; j < global.size(); ++j)
    if (!std::isfinite(global[j]))
      throw std::runtime_error("the global model diverged (non-finite weight " + std::to_string(j) + ") in round " +
                               std::to_string(round + 1) + "; lower --lr or the noise");
}

// rec.val_loss, val_accuracy, test_loss, test_accuracy of the global model.
template <class Record>
void EvaluateRound(LocalTrainer& trainer, const std::vector<float>& global, const data::Split& split, Record& rec) {
  const Evaluation val = trainer.Evaluate(global, split.validation);
  rec.val_loss = val.loss;
  rec.val_accuracy = val.accuracy;
  const Evaluation test = trainer.Evaluate(global, split.test);
  rec.test_loss = test.loss;
  rec.test_accuracy = test.accuracy;
}

// final_weights.bin: the m float32 weights, little-endian (atomically replaced).
inline void WriteWeightsFile(const std::string& path, const std::vector<float>& w) {
  WriteFileAtomic(path, std::string(reinterpret_cast<const char*>(w.data()), w.size() * sizeof(float)));
}

}  // namespace dpfl::fl::internal
