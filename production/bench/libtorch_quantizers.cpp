// LibTorch tensor-op baselines for `dpfl bench quantizers`: the same algorithms written the way
// a PyTorch user would (clamp, arithmetic, torch::bernoulli / torch::randint, comparisons), on
// float32 tensors, producing one bool per parameter. They are baselines for speed only — not
// exact, not counter-based, not used anywhere else. The only LibTorch translation unit of the
// benchmark.
#include <torch/torch.h>

#include <cmath>

#include "quantizer_bench.hpp"

namespace dpfl::bench {

bool HaveLibTorch() { return true; }

std::vector<TorchBaseline> MakeTorchBaselines(std::size_t m, int threads, int d) {
  torch::set_num_threads(threads);
  torch::manual_seed(20261121);
  const double c = 0.0, r = 1.0, e = std::exp(1.0), alpha = (e + 1) / (e - 1);
  auto w = std::make_shared<torch::Tensor>(0.8 * torch::sin(0.001 * torch::arange(static_cast<std::int64_t>(m),
                                                                                   torch::kFloat32)));
  const double cells = std::ldexp(1.0, d);
  std::vector<TorchBaseline> out;
  // LDPQ (seed-000 Alg. 1): q = 1/2 + (clip(w) − c)/(2rα); bit ~ Bernoulli(q).
  out.push_back({"ldpq", [=] {
    const torch::Tensor q = 0.5 + (w->clamp(c - r, c + r) - c) / (2 * r * alpha);
    const torch::Tensor bits = torch::bernoulli(q).to(torch::kBool);
    (void)bits.data_ptr();
  }});
  // CorBinQ Q1 role (seed-000 Alg. 2 l.3–10): shared z ∈ [0, 2^d), t = ⌊2^d q⌋, tie coin f.
  out.push_back({"corbinq", [=] {
    const torch::Tensor q = 0.5 + (w->clamp(c - r, c + r) - c) / (2 * r * alpha);
    const torch::Tensor x = q * cells, t = torch::floor(x), f = x - t;
    const torch::Tensor z = torch::randint(static_cast<std::int64_t>(cells), {static_cast<std::int64_t>(m)}, torch::kFloat32);
    const torch::Tensor bits = (z < t) | ((z == t) & torch::bernoulli(f).to(torch::kBool));
    (void)bits.data_ptr();
  }});
  // CoQ-FL Bob (seed-001 §3.6, p_x = 1/2): v = 1 − P, k = ⌊2^d v⌋, θ = frac; U = −1 below k,
  // +1 above, −1 with probability θ at k.
  out.push_back({"coq", [=] {
    const torch::Tensor p = 0.5 + (w->clamp(c - r, c + r) - c) / (2 * r * alpha);
    const torch::Tensor v = (1 - p) * cells, k = torch::floor(v), theta = v - k;
    const torch::Tensor cr = torch::randint(static_cast<std::int64_t>(cells), {static_cast<std::int64_t>(m)}, torch::kFloat32);
    const torch::Tensor minus = (cr < k) | ((cr == k) & torch::bernoulli(theta).to(torch::kBool));
    const torch::Tensor bits = minus.logical_not();
    (void)bits.data_ptr();
  }});
  // seed-004 StoSign (Alg. B): bit ~ Bernoulli(clip((θ + 1)/2, 0, 1)).
  out.push_back({"stosign", [=] {
    const torch::Tensor bits = torch::bernoulli((w->clamp(-1.0, 1.0) + 1) / 2).to(torch::kBool);
    (void)bits.data_ptr();
  }});
  // seed-004 client upload: StoSign, then RR flips each bit w.p. 1/2 − γ (γ = 0.1).
  out.push_back({"bnn-upload", [=] {
    const torch::Tensor b = torch::bernoulli((w->clamp(-1.0, 1.0) + 1) / 2).to(torch::kBool);
    const torch::Tensor flip = torch::bernoulli(torch::full({static_cast<std::int64_t>(m)}, 0.4)).to(torch::kBool);
    const torch::Tensor bits = b.logical_xor(flip);
    (void)bits.data_ptr();
  }});
  return out;
}

}  // namespace dpfl::bench
