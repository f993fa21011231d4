// `dpfl bench quantizers` (see quantizer_bench.hpp).
#include "quantizer_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>

#include "dpfl/error.hpp"
#include "dpfl/fl/quantized_gaussian.hpp"
#include "dpfl/fl/table_discrete_noise.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/randomized_response.hpp"

namespace dpfl::bench {
namespace {

void ParallelMemcpy(char* dst, const char* src, std::size_t bytes, int threads) {
  if (threads <= 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  std::vector<std::thread> pool;
  const std::size_t t = static_cast<std::size_t>(threads);
  for (std::size_t i = 0; i < t; ++i) {
    const std::size_t lo = bytes * i / t, hi = bytes * (i + 1) / t;
    pool.emplace_back([=] { std::memcpy(dst + lo, src + lo, hi - lo); });
  }
  for (std::thread& th : pool) th.join();
}

// A read-only pass over the input (an xor of its 32-bit words per thread, kept in a volatile): the
// physical limit of an encoder whose message is much smaller than its input.
void ParallelRead(const float* src, std::size_t n, int threads) {
  static volatile std::uint32_t sink = 0;
  const auto pass = [src](std::size_t lo, std::size_t hi) {
    std::uint32_t acc[16] = {};
    std::size_t j = lo;
    for (; j + 16 <= hi; j += 16)
      for (int k = 0; k < 16; ++k) {
        std::uint32_t v;
        std::memcpy(&v, src + j + static_cast<std::size_t>(k), sizeof(v));
        acc[k] ^= v;
      }
    std::uint32_t x = 0;
    for (; j < hi; ++j) {
      std::uint32_t v;
      std::memcpy(&v, src + j, sizeof(v));
      x ^= v;
    }
    for (std::uint32_t a : acc) x ^= a;
    sink = sink ^ x;
  };
  if (threads <= 1) {
    pass(0, n);
    return;
  }
  std::vector<std::thread> pool;
  const std::size_t t = static_cast<std::size_t>(threads);
  for (std::size_t i = 0; i < t; ++i) pool.emplace_back([=] { pass(n * i / t, n * (i + 1) / t); });
  for (std::thread& th : pool) th.join();
}

}  // namespace

void ValidateQuantizerBenchOptions(const QuantizerBenchOptions& o) {
  if (o.m == 0 || o.m > (std::size_t{1} << 30)) throw InvalidArgument("--m", "must be in [1, 2^30]");
  if (o.threads < 1 || o.threads > 256) throw InvalidArgument("--threads", "must be in [1, 256]");
  if (o.reps < 1 || o.reps > 1000) throw InvalidArgument("--reps", "must be in [1, 1000]");
  if (o.d < 0 || o.d > 62) throw InvalidArgument("--d", "must be in [0, 62]");
}

std::vector<QuantizerBenchResult> RunQuantizerBench(const QuantizerBenchOptions& o) {
  ValidateQuantizerBenchOptions(o);
  std::vector<float> w(o.m);
  for (std::size_t j = 0; j < o.m; ++j) w[j] = static_cast<float>(0.8 * std::sin(0.001 * static_cast<double>(j)));
  std::vector<std::uint64_t> bits(quant::PackedWords(o.m));
  std::vector<char> copy(o.m * sizeof(float));
  const quant::BinaryLevels levels = quant::MakeBinaryLevels(1.0, 0.0, 1.0);
  const quant::RandomizedResponse rr = quant::MakeRandomizedResponse(0.1);
  quant::StreamContext ctx;
  ctx.generator = o.philox ? rng::Generator::kPhilox4x32 : rng::Generator::kChaCha20;
  for (int i = 0; i < 8; ++i) ctx.key.words[i] = 0x243F6A88u + static_cast<std::uint32_t>(i);

  // seed 003 at the seed's setting (σ = 0.03, C_q = 1, k = 16) on the first min(m, 2^20)
  // parameters (its exact sampler runs at a few million samples per second): the grid input is
  // prepared once (the ℓ2 clip is not timed); "qgauss" is the fast path, "qgauss-scalar" the
  // plain loop and "qgauss-noise" the Gaussian baseline's noise alone, so the rows' ratios say
  // what the vectorized rounding saves and what the (scalar) exact sampler costs.
  const std::size_t qm = std::min<std::size_t>(o.m, std::size_t{1} << 20);
  const fl::QgaussGrid qgrid = fl::MakeQgaussGrid({0.03, 16, 1.0});
  const std::vector<std::int64_t> qin = fl::QgaussClipToGrid(qgrid, std::span<const float>(w.data(), qm));
  const fl::TableDiscreteNoise table = fl::TableDiscreteNoise::Gaussian(qgrid.sigma2);
  std::vector<std::int64_t> table_out(qm);
  struct Production {
    std::string name;
    std::function<void()> run;
    std::size_t m;
  };
  const std::vector<Production> production = {
      {"ldpq", [&] { quant::EncodeLdpq(levels, w, ctx, 1, bits, o.threads); }, o.m},
      {"corbinq", [&] { quant::EncodeCorBinQ(levels, w, o.d, quant::PairRole::kQ1, ctx, 7, 1, bits, o.threads); }, o.m},
      {"coq", [&] { quant::EncodeCoq(levels, w, o.d, quant::PairRole::kQ2, 0.5, ctx, 7, 2, bits, o.threads); }, o.m},
      // seed 004: StoSign of the latents (Alg. B), and the whole client upload RR(StoSign) (Alg. B + C)
      {"stosign", [&] { quant::EncodeStoSign(w, ctx, 3, bits, o.threads); }, o.m},
      {"bnn-upload", [&] { quant::EncodeBnnUpload(quant::Binarizer::kStoSign, &rr, w, ctx, 3, bits, o.threads); }, o.m},
      {"qgauss", [&] { (void)fl::QgaussEncode(qgrid, qin, ctx, 5, o.threads); }, qm},
      {"qgauss-scalar", [&] { (void)fl::QgaussEncodeScalar(qgrid, qin, ctx, 5, o.threads); }, qm},
      {"qgauss-noise", [&] { (void)fl::QgaussNoisy(qgrid, qin, ctx, 5, o.threads); }, qm},
      // The same law N_Z(0, s²) from the table sampler (one word per sample, table_discrete_noise.hpp).
      {"dgauss-table", [&] { fl::SampleTableNoise(table, ctx, 5, table_out, o.threads); }, qm},
  };
  const std::vector<TorchBaseline> torch = MakeTorchBaselines(o.m, o.threads, o.d);
  // Each round runs memcpy right before every production encoder (so the baseline gets one
  // chance per encoder and round to show its best, always next to the encoder it is compared with), then
  // the LibTorch baselines, each followed by a 50 ms untimed pause: LibTorch's OpenMP workers spin
  // after its ops and must not slow whatever runs next. See InterleavedBestSeconds.
  const auto memcpy_run = [&] {
    ParallelMemcpy(copy.data(), reinterpret_cast<const char*>(w.data()), copy.size(), o.threads);
  };
  const auto read_run = [&] { ParallelRead(w.data(), w.size(), o.threads); };
  std::vector<Contender> contenders;
  std::vector<std::size_t> memcpy_index, read_index, production_index;
  for (const Production& p : production) {
    memcpy_index.push_back(contenders.size());
    contenders.push_back({memcpy_run});
    read_index.push_back(contenders.size());
    contenders.push_back({read_run});
    production_index.push_back(contenders.size());
    contenders.push_back({p.run});
  }
  std::vector<std::optional<std::size_t>> torch_index(production.size());
  for (std::size_t i = 0; i < production.size(); ++i)
    for (const TorchBaseline& t : torch)
      if (t.name == production[i].name) {
        torch_index[i] = contenders.size();
        contenders.push_back({t.run, std::chrono::milliseconds{50}});
      }
  const std::vector<double> seconds = InterleavedBestSeconds(o.reps, contenders);
  double memcpy_s = 1e300;
  for (std::size_t i : memcpy_index) memcpy_s = std::min(memcpy_s, seconds[i]);
  double read_s = 1e300;
  for (std::size_t i : read_index) read_s = std::min(read_s, seconds[i]);
  std::vector<QuantizerBenchResult> results;
  for (std::size_t i = 0; i < production.size(); ++i) {
    QuantizerBenchResult r;
    r.name = production[i].name;
    r.m = production[i].m;
    r.params_per_s = static_cast<double>(r.m) / seconds[production_index[i]];
    r.memcpy_params_per_s = static_cast<double>(o.m) / memcpy_s;
    r.read_params_per_s = static_cast<double>(o.m) / read_s;
    if (torch_index[i]) r.libtorch_ops_params_per_s = static_cast<double>(r.m) / seconds[*torch_index[i]];
    results.push_back(r);
  }
  return results;
}

}  // namespace dpfl::bench
