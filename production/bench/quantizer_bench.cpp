// `dpfl bench quantizers` (see quantizer_bench.hpp).
#include "quantizer_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_quantizer.hpp"

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
  quant::StreamContext ctx;
  ctx.generator = o.philox ? rng::Generator::kPhilox4x32 : rng::Generator::kChaCha20;
  for (int i = 0; i < 8; ++i) ctx.key.words[i] = 0x243F6A88u + static_cast<std::uint32_t>(i);

  const double memcpy_s = BestSeconds(o.reps, [&] {
    ParallelMemcpy(copy.data(), reinterpret_cast<const char*>(w.data()), copy.size(), o.threads);
  });
  const double memcpy_rate = static_cast<double>(o.m) / memcpy_s;

  struct Production {
    std::string name;
    std::function<void()> run;
  };
  const std::vector<Production> production = {
      {"ldpq", [&] { quant::EncodeLdpq(levels, w, ctx, 1, bits, o.threads); }},
      {"corbinq", [&] { quant::EncodeCorBinQ(levels, w, o.d, quant::PairRole::kQ1, ctx, 7, 1, bits, o.threads); }},
      {"coq", [&] { quant::EncodeCoq(levels, w, o.d, quant::PairRole::kQ2, 0.5, ctx, 7, 2, bits, o.threads); }},
  };
  const std::vector<TorchBaseline> torch = MakeTorchBaselines(o.m, o.threads, o.d);
  std::vector<QuantizerBenchResult> results;
  for (const Production& p : production) {
    QuantizerBenchResult r;
    r.name = p.name;
    r.params_per_s = static_cast<double>(o.m) / BestSeconds(o.reps, p.run);
    r.memcpy_params_per_s = memcpy_rate;
    for (const TorchBaseline& t : torch)
      if (t.name == p.name) r.libtorch_ops_params_per_s = static_cast<double>(o.m) / BestSeconds(o.reps, t.run);
    results.push_back(r);
  }
  return results;
}

}  // namespace dpfl::bench
