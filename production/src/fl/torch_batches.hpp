// The data plumbing shared by the two LibTorch translation units of the FL loop
// (torch_trainer.cpp, torch_bnn_model.cpp): a training mini-batch from a sample order, and the
// loss and accuracy of a model over a whole data set in batches of 1000. Private to dpfl_fl_torch.
#pragma once

#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

#include "dpfl/data/datasets.hpp"
#include "dpfl/fl/trainer.hpp"

namespace dpfl::fl::torch_batches {

// Samples order[start .. end) of d as (images {b, c, h, w}, labels {b}).
inline std::pair<torch::Tensor, torch::Tensor> Batch(const data::Dataset& d, const std::vector<std::size_t>& order,
                                                     std::size_t start, std::size_t end, std::int64_t c,
                                                     std::int64_t h, std::int64_t w) {
  const auto b = static_cast<std::int64_t>(end - start);
  const std::size_t s = d.SampleSize();
  torch::Tensor x = torch::empty({b, c, h, w}, torch::kFloat32);
  torch::Tensor y = torch::empty({b}, torch::kInt64);
  float* xp = x.data_ptr<float>();
  std::int64_t* yp = y.data_ptr<std::int64_t>();
  for (std::size_t k = start; k < end; ++k) {
    std::memcpy(xp + (k - start) * s, d.images.data() + order[k] * s, s * sizeof(float));
    yp[k - start] = d.labels[order[k]];
  }
  return {x, y};
}

// Mean cross-entropy and accuracy of `forward` on all of d (no gradients; the caller sets eval mode).
inline Evaluation EvaluateAll(const std::function<torch::Tensor(const torch::Tensor&)>& forward, const data::Dataset& d,
                              std::int64_t c, std::int64_t h, std::int64_t w) {
  torch::NoGradGuard no_grad;
  Evaluation e;
  if (d.size() == 0) return e;
  const std::size_t s = d.SampleSize();
  double loss_sum = 0;
  std::size_t correct = 0;
  for (std::size_t start = 0; start < d.size(); start += 1000) {
    const std::size_t end = std::min(d.size(), start + 1000);
    const auto b = static_cast<std::int64_t>(end - start);
    torch::Tensor x = torch::from_blob(const_cast<float*>(d.images.data() + start * s), {b, c, h, w}, torch::kFloat32);
    torch::Tensor y = torch::from_blob(const_cast<std::int64_t*>(d.labels.data() + start), {b}, torch::kInt64);
    torch::Tensor logits = forward(x);
    loss_sum += torch::nn::functional::cross_entropy(
                    logits, y, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                    .item<double>();
    correct += static_cast<std::size_t>(logits.argmax(1).eq(y).sum().item<std::int64_t>());
  }
  e.loss = loss_sum / static_cast<double>(d.size());
  e.accuracy = static_cast<double>(correct) / static_cast<double>(d.size());
  return e;
}

}  // namespace dpfl::fl::torch_batches
