// The local-model interface of the FL loop, free of LibTorch types, so that the round loop
// (dpfl/fl/training.hpp) builds and is tested without LibTorch. The LibTorch implementation is
// MakeTorchTrainer (production/src/fl/torch_trainer.cpp, library dpfl_fl_torch).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dpfl/data/datasets.hpp"

namespace dpfl::fl {

struct Evaluation {
  double loss = 0, accuracy = 0;
};

class LocalTrainer {
 public:
  virtual ~LocalTrainer() = default;
  // Sizes of the parameter tensors in model order (one "layer" each, seed-000 §3.6).
  virtual std::vector<std::size_t> LayerSizes() const = 0;
  // The initial global model (deterministic given the trainer's seed).
  virtual std::vector<float> InitialWeights() const = 0;
  // Loads w, runs local training on `data` visiting samples in `order` in mini-batches of
  // `batch` (a fresh optimizer per call), returns the trained weights; *mean_loss = mean
  // training loss over the batches.
  virtual std::vector<float> TrainLocal(const std::vector<float>& w, const data::Dataset& data,
                                        const std::vector<std::size_t>& order, int batch, double* mean_loss) = 0;
  virtual Evaluation Evaluate(const std::vector<float>& w, const data::Dataset& data) = 0;
  // The model's logits on every sample of `data` (row-major, data.size() × classes), in eval mode.
  // For membership inference (dpfl audit lira); the default throws std::logic_error.
  virtual std::vector<float> Logits(const std::vector<float>& w, const data::Dataset& data);
};

struct TrainerOptions {
  std::string model = "auto";      // mlp | vgg | resnet18 | auto (mlp for 8×8, vgg for 1-channel, resnet18 for 3-channel)
  std::string optimizer = "sgd";   // sgd | adam
  double lr = 0.05;
  double momentum = 0.0;
  int threads = 1;                 // intra-op threads (determinism is per thread count)
  std::uint64_t seed = 1;          // torch::manual_seed for the initial weights
};

// Throws InvalidArgument for an unknown model/optimizer or a bad lr/threads. Defined only when
// dpfl_fl_torch is linked (HaveTorchTrainer() says whether it is).
std::unique_ptr<LocalTrainer> MakeTorchTrainer(const TrainerOptions& options, int channels, int height, int width,
                                               int classes);
bool HaveTorchTrainer();

}  // namespace dpfl::fl
