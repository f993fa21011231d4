// LibTorch implementation of dpfl::fl::BnnLocalModel (dpfl/fl/bnn_training.hpp): the binary
// networks of seed 004 §1.2 and §5.2.
//
// Every layer's weights are a latent tensor θ ∈ [−1, 1] used as Sign(θ) in the forward pass
// (Sign(0) = +1, E17) with the weight straight-through estimator ∂f/∂θ := ∂f/∂W^b (eq. 5,
// implemented as θ + (Sign(θ) − θ).detach()); hidden activations are Sign(tanh(x)) with the
// activation STE (identity through Sign, times tanh', §1.2 [RECOMMENDED]). Each binary layer is
// followed by batch normalisation, whose affine parameters and running statistics are the
// client's local state (E28: never uploaded, so never noised; FedBN-style). No biases (the
// spec's 81,848 count). The input is not binarized. Models:
//   bnn-a  (§5.2 interpretation A): conv3×3(c→16, pad 1) BN Sign∘tanh maxpool2, conv3×3(16→16)
//          BN Sign∘tanh maxpool2, FC(16·h/4·w/4 → 100) BN Sign∘tanh, FC(100 → classes) BN;
//          d = 81,848 on 28×28×1 with 10 classes;
//   bnn-b  (interpretation B): as bnn-a with FC 784 → 784 → 100 → classes (d = 696,504);
//   bnn-tiny (tests): FC(c·h·w → 32) BN Sign∘tanh, FC(32 → classes) BN;
//   auto   bnn-tiny for images of side ≤ 8, else bnn-a.
// Initial latents: U(−1/√fan_in, 1/√fan_in) (the usual fan-in scale; inside [−1, 1]) from
// torch::manual_seed(seed); BN weight 1, bias 0, running mean 0, variance 1.
#include <torch/torch.h>

#include <cmath>
#include <cstring>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/bnn_training.hpp"
#include "torch_batches.hpp"

namespace dpfl::fl {
namespace {

namespace F = torch::nn::functional;

struct BinLayer {
  bool conv;
  std::int64_t in, out;
};

// Sign with Sign(0) = +1 (E17), as a float tensor.
torch::Tensor SignPlusMinus(const torch::Tensor& x) { return torch::where(x >= 0, torch::ones_like(x), -torch::ones_like(x)); }
// Forward Sign(θ), backward identity (weight STE).
torch::Tensor BinaryWeight(const torch::Tensor& theta) { return theta + (SignPlusMinus(theta) - theta).detach(); }
// Forward Sign(tanh(x)), backward tanh'(x) (activation STE).
torch::Tensor SignTanh(const torch::Tensor& x) {
  const torch::Tensor y = torch::tanh(x);
  return y + (SignPlusMinus(y) - y).detach();
}

class BnnNet : public torch::nn::Module {
 public:
  explicit BnnNet(std::vector<BinLayer> spec) : spec_(std::move(spec)) {
    for (std::size_t l = 0; l < spec_.size(); ++l) {
      const BinLayer& s = spec_[l];
      const std::int64_t fan_in = s.conv ? s.in * 9 : s.in;
      const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
      torch::Tensor init = (torch::rand(s.conv ? std::vector<std::int64_t>{s.out, s.in, 3, 3}
                                               : std::vector<std::int64_t>{s.out, s.in}) * 2 - 1) * bound;
      latents_.push_back(register_parameter("latent" + std::to_string(l), init));
      gamma_.push_back(register_parameter("bn_weight" + std::to_string(l), torch::ones({s.out})));
      beta_.push_back(register_parameter("bn_bias" + std::to_string(l), torch::zeros({s.out})));
      mean_.push_back(register_buffer("bn_mean" + std::to_string(l), torch::zeros({s.out})));
      var_.push_back(register_buffer("bn_var" + std::to_string(l), torch::ones({s.out})));
    }
  }

  torch::Tensor forward(torch::Tensor x) {
    for (std::size_t l = 0; l < spec_.size(); ++l) {
      const torch::Tensor wb = BinaryWeight(latents_[l]);
      if (spec_[l].conv) {
        x = F::conv2d(x, wb, F::Conv2dFuncOptions().padding(1));
      } else {
        if (x.dim() > 2) x = x.flatten(1);
        x = F::linear(x, wb);
      }
      x = torch::batch_norm(x, gamma_[l], beta_[l], mean_[l], var_[l], is_training(), 0.1, 1e-5, false);
      if (l + 1 == spec_.size()) break;  // logits
      x = SignTanh(x);
      if (spec_[l].conv) x = F::max_pool2d(x, F::MaxPool2dFuncOptions(2));
    }
    return x;
  }

  std::vector<torch::Tensor>& latents() { return latents_; }
  // Local state in a fixed order: per layer BN weight, bias, running mean, running variance.
  std::vector<torch::Tensor> LocalTensors() {
    std::vector<torch::Tensor> out;
    for (std::size_t l = 0; l < spec_.size(); ++l) out.insert(out.end(), {gamma_[l], beta_[l], mean_[l], var_[l]});
    return out;
  }

 private:
  std::vector<BinLayer> spec_;
  std::vector<torch::Tensor> latents_, gamma_, beta_, mean_, var_;
};

std::vector<BinLayer> Spec(const std::string& name, std::int64_t c, std::int64_t h, std::int64_t w, std::int64_t classes) {
  if (name == "bnn-tiny") return {{false, c * h * w, 32}, {false, 32, classes}};
  if (name != "bnn-a" && name != "bnn-b")
    throw InvalidArgument("--model", "unknown binary model '" + name + "' (bnn-a, bnn-b, bnn-tiny, auto)");
  if (h % 4 != 0 || w % 4 != 0) throw InvalidArgument("--model", name + " needs image sides divisible by 4");
  const std::int64_t flat = 16 * (h / 4) * (w / 4);
  std::vector<BinLayer> s = {{true, c, 16}, {true, 16, 16}};
  if (name == "bnn-b") s.push_back({false, flat, flat});
  s.push_back({false, flat, 100});
  s.push_back({false, 100, classes});
  return s;
}

std::size_t Count(const std::vector<torch::Tensor>& ts) {
  std::size_t n = 0;
  for (const auto& t : ts) n += static_cast<std::size_t>(t.numel());
  return n;
}
void Store(const std::vector<torch::Tensor>& ts, std::vector<float>& out) {
  out.clear();
  for (const auto& t : ts) {
    const torch::Tensor c = t.detach().contiguous();
    out.insert(out.end(), c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
  }
}
void Load(std::vector<torch::Tensor> ts, const std::vector<float>& in, const char* what) {
  torch::NoGradGuard no_grad;
  if (in.size() != Count(ts)) throw InvalidArgument(what, "wrong size for the model");
  std::size_t at = 0;
  for (auto& t : ts) {
    std::memcpy(t.data_ptr<float>(), in.data() + at, static_cast<std::size_t>(t.numel()) * sizeof(float));
    at += static_cast<std::size_t>(t.numel());
  }
}

class TorchBnnModel final : public BnnLocalModel {
 public:
  TorchBnnModel(const BnnModelOptions& o, int c, int h, int w, int classes) : options_(o), c_(c), h_(h), w_(w) {
    name_ = o.model == "auto" ? (h <= 8 ? "bnn-tiny" : "bnn-a") : o.model;
    torch::manual_seed(o.seed);
    net_ = std::make_shared<BnnNet>(Spec(name_, c, h, w, classes));
    Store(net_->latents(), initial_latents_);
    Store(net_->LocalTensors(), initial_local_);
  }
  std::size_t LatentCount() const override { return initial_latents_.size(); }
  std::size_t LocalStateCount() const override { return initial_local_.size(); }
  std::string Description() const override { return name_; }
  std::vector<float> InitialLatents() const override { return initial_latents_; }
  std::vector<float> InitialLocalState() const override { return initial_local_; }

  void TrainLocal(std::vector<float>& latents, std::vector<float>& local, const data::Dataset& d,
                  const std::vector<std::size_t>& order, int batch, double lr, double* mean_loss) override {
    Load(net_->latents(), latents, "latents");
    Load(net_->LocalTensors(), local, "local state");
    net_->train();
    std::unique_ptr<torch::optim::Optimizer> opt;
    if (options_.optimizer == "adam") {
      opt = std::make_unique<torch::optim::Adam>(
          net_->parameters(), torch::optim::AdamOptions(lr).betas(std::make_tuple(options_.adam_beta1, 0.999)));
    } else {
      opt = std::make_unique<torch::optim::SGD>(net_->parameters(), torch::optim::SGDOptions(lr).momentum(options_.momentum));
    }
    double loss_sum = 0;
    int batches = 0;
    for (std::size_t start = 0; start < order.size(); start += static_cast<std::size_t>(batch)) {
      const std::size_t end = std::min(order.size(), start + static_cast<std::size_t>(batch));
      const auto [x, y] = torch_batches::Batch(d, order, start, end, c_, h_, w_);
      opt->zero_grad();
      torch::Tensor loss = F::cross_entropy(net_->forward(x), y);
      loss.backward();
      opt->step();
      {  // clip after every step (§1.2)
        torch::NoGradGuard no_grad;
        for (auto& t : net_->latents()) t.clamp_(-1.0, 1.0);
      }
      loss_sum += loss.item<double>();
      ++batches;
    }
    if (mean_loss) *mean_loss = batches ? loss_sum / batches : 0.0;
    Store(net_->latents(), latents);
    Store(net_->LocalTensors(), local);
  }

  Evaluation Evaluate(const std::vector<float>& latents, const std::vector<float>& local, const data::Dataset& d) override {
    Load(net_->latents(), latents, "latents");
    Load(net_->LocalTensors(), local, "local state");
    net_->eval();
    return torch_batches::EvaluateAll([this](const torch::Tensor& x) { return net_->forward(x); }, d, c_, h_, w_);
  }

 private:
  BnnModelOptions options_;
  std::int64_t c_, h_, w_;
  std::string name_;
  std::shared_ptr<BnnNet> net_;
  std::vector<float> initial_latents_, initial_local_;
};

}  // namespace

std::unique_ptr<BnnLocalModel> MakeTorchBnnModel(const BnnModelOptions& options, int channels, int height, int width,
                                                 int classes) {
  if (options.optimizer != "sgd" && options.optimizer != "adam")
    throw InvalidArgument("--optimizer", "must be sgd or adam, got '" + options.optimizer + "'");
  if (!(options.adam_beta1 >= 0 && options.adam_beta1 < 1))
    throw InvalidArgument("--adam-beta1", "must be in [0, 1), got " + ShortestDouble(options.adam_beta1));
  if (!(options.momentum >= 0 && options.momentum < 1)) throw InvalidArgument("--momentum", "must be in [0, 1)");
  if (options.threads < 1) throw InvalidArgument("--threads", "must be >= 1");
  at::set_num_threads(options.threads);
  return std::make_unique<TorchBnnModel>(options, channels, height, width, classes);
}

}  // namespace dpfl::fl
