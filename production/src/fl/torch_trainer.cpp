// LibTorch implementation of dpfl::fl::LocalTrainer (dpfl/fl/trainer.hpp). The only LibTorch
// translation unit of the FL loop.
//
// Models (seed-000 §5): a tiny MLP (tests, 8×8 synthetic images), the small two-layer VGG for
// MNIST-like data (two conv3×3 + ReLU + max-pool blocks with 16 and 32 channels, then a linear
// classifier), ResNet18 for CIFAR-10 (He et al. 2016, basic blocks [2, 2, 2, 2]) with
// GroupNorm(2 groups) instead of BatchNorm, so that the model has no running statistics outside
// the parameters (every trainable number goes through the mechanism; a common FL/DP choice).
// No dropout layers: local training draws no torch randomness (sample order comes from the
// counter-based streams), so a round is a pure function of its inputs.
#include <torch/torch.h>

#include <cstring>
#include <mutex>

#include "dpfl/error.hpp"
#include "dpfl/fl/trainer.hpp"
#include "torch_batches.hpp"

namespace dpfl::fl {
namespace {

struct BasicBlockImpl : torch::nn::Module {
  BasicBlockImpl(int in, int out, int stride)
      : conv1(torch::nn::Conv2dOptions(in, out, 3).stride(stride).padding(1).bias(false)),
        gn1(torch::nn::GroupNormOptions(2, out)),
        conv2(torch::nn::Conv2dOptions(out, out, 3).stride(1).padding(1).bias(false)),
        gn2(torch::nn::GroupNormOptions(2, out)) {
    register_module("conv1", conv1);
    register_module("gn1", gn1);
    register_module("conv2", conv2);
    register_module("gn2", gn2);
    if (stride != 1 || in != out) {
      shortcut = torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 1).stride(stride).bias(false)),
                                       torch::nn::GroupNorm(torch::nn::GroupNormOptions(2, out)));
      register_module("shortcut", shortcut);
    }
  }
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor y = torch::relu(gn1(conv1(x)));
    y = gn2(conv2(y));
    return torch::relu(y + (shortcut.is_empty() ? x : shortcut->forward(x)));
  }
  torch::nn::Conv2d conv1;
  torch::nn::GroupNorm gn1;
  torch::nn::Conv2d conv2;
  torch::nn::GroupNorm gn2;
  torch::nn::Sequential shortcut{nullptr};
};
TORCH_MODULE(BasicBlock);

torch::nn::Sequential MakeModel(const std::string& name, int c, int h, int w, int classes) {
  using namespace torch::nn;
  if (name == "mlp")
    return Sequential(Flatten(), Linear(c * h * w, 64), ReLU(), Linear(64, classes));
  if (name == "vgg")
    return Sequential(Conv2d(Conv2dOptions(c, 16, 3).padding(1)), ReLU(), MaxPool2d(2),
                      Conv2d(Conv2dOptions(16, 32, 3).padding(1)), ReLU(), MaxPool2d(2), Flatten(),
                      Linear(32 * (h / 4) * (w / 4), classes));
  if (name == "resnet18") {
    Sequential net(Conv2d(Conv2dOptions(c, 64, 3).padding(1).bias(false)), GroupNorm(GroupNormOptions(2, 64)), ReLU());
    int in = 64;
    for (int stage = 0; stage < 4; ++stage) {
      const int out = 64 << stage;
      net->push_back(BasicBlock(in, out, stage == 0 ? 1 : 2));
      net->push_back(BasicBlock(out, out, 1));
      in = out;
    }
    net->push_back(AdaptiveAvgPool2d(AdaptiveAvgPool2dOptions(1)));
    net->push_back(Flatten());
    net->push_back(Linear(512, classes));
    return net;
  }
  // Seed 002 §5.1: the MLP 784–32–16–10 (25,818 parameters on 28×28) and the CNN Conv(6, 5×5)–pool–
  // Conv(6, 5×5)–pool–FC(50)–FC(10) (6,422 parameters on 28×28), ReLU throughout.
  if (name == "cepam-mlp")
    return Sequential(Flatten(), Linear(c * h * w, 32), ReLU(), Linear(32, 16), ReLU(), Linear(16, classes));
  if (name == "cepam-cnn") {
    const int ph = ((h - 4) / 2 - 4) / 2, pw = ((w - 4) / 2 - 4) / 2;
    if (ph < 1 || pw < 1) throw InvalidArgument("--model", "cepam-cnn needs images of at least 16x16 (two 5x5 convolutions and pools)");
    return Sequential(Conv2d(Conv2dOptions(c, 6, 5)), ReLU(), MaxPool2d(2), Conv2d(Conv2dOptions(6, 6, 5)), ReLU(),
                      MaxPool2d(2), Flatten(), Linear(6 * ph * pw, 50), ReLU(), Linear(50, classes));
  }
  throw InvalidArgument("--model", "unknown model '" + name + "' (mlp, vgg, resnet18, cepam-mlp, cepam-cnn, auto)");
}

class TorchTrainer final : public LocalTrainer {
 public:
  TorchTrainer(const TrainerOptions& o, int c, int h, int w, int classes) : options_(o), c_(c), h_(h), w_(w) {
    std::string name = o.model;
    if (name == "auto") name = c == 3 ? "resnet18" : (h <= 8 ? "mlp" : "vgg");
    if ((name == "vgg") && (h % 4 != 0 || w % 4 != 0))
      throw InvalidArgument("--model", "vgg needs image sides divisible by 4");
    // torch::manual_seed and the initial draws use LibTorch's global generator: one construction at
    // a time, so trainers built on several threads (dpfl audit lira --jobs) get their seed's weights.
    static std::mutex init_mutex;
    const std::lock_guard<std::mutex> lock(init_mutex);
    torch::manual_seed(o.seed);
    model_ = MakeModel(name, c, h, w, classes);
    for (const auto& p : model_->parameters()) sizes_.push_back(static_cast<std::size_t>(p.numel()));
  }

  std::vector<std::size_t> LayerSizes() const override { return sizes_; }

  std::vector<float> InitialWeights() const override { return Flatten(); }

  std::vector<float> TrainLocal(const std::vector<float>& w, const data::Dataset& d, const std::vector<std::size_t>& order,
                                int batch, double* mean_loss) override {
    Load(w);
    model_->train();
    std::unique_ptr<torch::optim::Optimizer> opt;
    if (options_.optimizer == "adam")
      opt = std::make_unique<torch::optim::Adam>(model_->parameters(), torch::optim::AdamOptions(options_.lr));
    else
      opt = std::make_unique<torch::optim::SGD>(model_->parameters(),
                                                torch::optim::SGDOptions(options_.lr).momentum(options_.momentum));
    double loss_sum = 0;
    int batches = 0;
    for (std::size_t start = 0; start < order.size(); start += static_cast<std::size_t>(batch)) {
      const std::size_t end = std::min(order.size(), start + static_cast<std::size_t>(batch));
      const auto [x, y] = torch_batches::Batch(d, order, start, end, c_, h_, w_);
      opt->zero_grad();
      torch::Tensor loss = torch::nn::functional::cross_entropy(model_->forward(x), y);
      loss.backward();
      opt->step();
      loss_sum += loss.item<double>();
      ++batches;
    }
    if (mean_loss) *mean_loss = batches ? loss_sum / batches : 0.0;
    return Flatten();
  }

  Evaluation Evaluate(const std::vector<float>& w, const data::Dataset& d) override {
    Load(w);
    model_->eval();
    return torch_batches::EvaluateAll([this](const torch::Tensor& x) { return model_->forward(x); }, d, c_, h_, w_);
  }

  std::vector<float> Logits(const std::vector<float>& w, const data::Dataset& d) override {
    Load(w);
    model_->eval();
    torch::NoGradGuard no_grad;
    std::vector<float> out;
    std::vector<std::size_t> all(d.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    for (std::size_t start = 0; start < all.size(); start += 512) {
      const std::size_t end = std::min(all.size(), start + 512);
      const auto [x, y] = torch_batches::Batch(d, all, start, end, c_, h_, w_);
      const torch::Tensor z = model_->forward(x).to(torch::kFloat32).contiguous();
      out.insert(out.end(), z.data_ptr<float>(), z.data_ptr<float>() + z.numel());
    }
    return out;
  }

 private:
  std::vector<float> Flatten() const {
    std::vector<float> out;
    for (const auto& p : model_->parameters()) {
      const torch::Tensor t = p.detach().contiguous();
      out.insert(out.end(), t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
    }
    return out;
  }
  void Load(const std::vector<float>& w) {
    torch::NoGradGuard no_grad;
    std::size_t at = 0;
    for (auto& p : model_->parameters()) {
      if (at + static_cast<std::size_t>(p.numel()) > w.size()) throw InvalidArgument("w", "too few weights for the model");
      std::memcpy(p.data_ptr<float>(), w.data() + at, static_cast<std::size_t>(p.numel()) * sizeof(float));
      at += static_cast<std::size_t>(p.numel());
    }
    if (at != w.size()) throw InvalidArgument("w", "too many weights for the model");
  }

  TrainerOptions options_;
  std::int64_t c_, h_, w_;
  torch::nn::Sequential model_{nullptr};
  std::vector<std::size_t> sizes_;
};

}  // namespace

bool HaveTorchTrainer() { return true; }

std::unique_ptr<LocalTrainer> MakeTorchTrainer(const TrainerOptions& options, int channels, int height, int width,
                                               int classes) {
  if (options.optimizer != "sgd" && options.optimizer != "adam")
    throw InvalidArgument("--optimizer", "must be sgd or adam, got '" + options.optimizer + "'");
  if (!(options.lr > 0) || !std::isfinite(options.lr)) throw InvalidArgument("--lr", "must be finite and > 0");
  if (!(options.momentum >= 0 && options.momentum < 1)) throw InvalidArgument("--momentum", "must be in [0, 1)");
  if (options.threads < 1) throw InvalidArgument("--threads", "must be >= 1");
  at::set_num_threads(options.threads);
  return std::make_unique<TorchTrainer>(options, channels, height, width, classes);
}

}  // namespace dpfl::fl
