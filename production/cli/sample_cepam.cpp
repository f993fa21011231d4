// dpfl sample cepam — N reconstruction errors of the production CEPAM codec (seed 002):
//
//   dpfl sample cepam --noise gaussian|laplace --lattice-dim N (--sigma S | --b B)
//                     --x X [--x X …] --n N --seed S [--c C] [--generator chacha20|philox]
//                     [--raw FILE]
//
// Draw i encodes the one-block vector x (one --x per coordinate; ‖x‖₂ is the clip γ, or the
// scale when x = 0: γ only shapes the bitstream, not the error law) with the client stream
// (round ⌊i/2^32⌋, client i mod 2^32) of the key expanded from --seed, decodes the bitstream
// and records error = decoded − x (x as the float the encoder reads, in double). So the draws
// are independent: no two share a layer or a dither (dpfl/quant/cepam.hpp, "Randomness").
// Prints the errors' summary as JSON; with --raw, writes them as little-endian float64,
// row-major N × lattice-dim, no header, for any external goodness-of-fit test.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/cepam.hpp"
#include "sample_command.hpp"

namespace dpfl::cli {
namespace {

using nlohmann::json;

struct CepamSampleArgs {
  std::string noise, dim, sigma, b, c = "1", n, seed, raw;
  std::vector<std::string> x;
  std::string generator = "chacha20";
};

void AppendLittleEndian(std::string& out, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((bits >> (8 * i)) & 0xffu));
}

json RunCepamSample(const CepamSampleArgs& a) {
  quant::CepamConfig cfg;
  if (a.noise == "gaussian") {
    cfg.kind = quant::CepamKind::kGaussian;
  } else if (a.noise == "laplace") {
    cfg.kind = quant::CepamKind::kLaplace;
  } else {
    throw InvalidArgument("--noise", "must be gaussian or laplace, got '" + a.noise + "'");
  }
  cfg.n = static_cast<int>(ParseUnsigned(a.dim, "--lattice-dim", 1, quant::kCepamMaxDim));
  const bool gaussian = cfg.kind == quant::CepamKind::kGaussian;
  if (gaussian && !a.b.empty()) throw InvalidArgument("--b", "is the Laplace scale; --noise gaussian takes --sigma");
  if (!gaussian && !a.sigma.empty()) throw InvalidArgument("--sigma", "is the Gaussian scale; --noise laplace takes --b");
  const std::string& scale_text = gaussian ? a.sigma : a.b;
  const char* scale_flag = gaussian ? "--sigma" : "--b";
  if (scale_text.empty()) throw InvalidArgument(scale_flag, "required with --noise " + a.noise);
  cfg.scale = ParseDecimal(scale_text, scale_flag);
  cfg.c = ParseDecimal(a.c, "--c");
  if (a.x.size() != static_cast<std::size_t>(cfg.n))
    throw InvalidArgument("--x", "give one --x per coordinate: " + std::to_string(cfg.n) + " expected (--lattice-dim), got " +
                                     std::to_string(a.x.size()));
  std::vector<float> x;
  double norm2 = 0;
  for (const std::string& t : a.x) {
    x.push_back(ParseWeight(t, "--x"));
    norm2 += static_cast<double>(x.back()) * static_cast<double>(x.back());
  }
  cfg.clip = norm2 > 0 ? std::sqrt(norm2) * (1.0 + 0x1p-40) : cfg.scale;
  Draws draws = ParseDraws(a.n, a.seed, "1", a.generator, "cpu");
  try {
    quant::ValidateCepamConfig(cfg);
  } catch (const InvalidArgument& e) {
    const std::string& arg = e.argument();
    const std::string flag = arg == "sigma" ? "--sigma" : arg == "b" ? "--b" : arg == "c" ? "--c" : "--" + arg;
    throw InvalidArgument(flag, std::string(e.what()).substr(arg.size() + 2));
  }
  std::ofstream raw;
  if (!a.raw.empty()) {
    raw.open(a.raw, std::ios::binary | std::ios::trunc);
    if (!raw) throw InvalidArgument("--raw", "cannot open '" + a.raw + "' for writing");
  }
  const std::size_t n = static_cast<std::size_t>(cfg.n);
  std::vector<double> sum(n, 0.0), sum2(n, 0.0), y(n);
  double norm2_sum = 0, trials = 0, h_bits = 0, index_bits = 0;
  std::string buffer;
  for (std::uint64_t i = 0; i < draws.n; ++i) {
    quant::StreamContext ctx = draws.ctx;
    ctx.round = static_cast<std::uint32_t>(i >> 32);
    quant::CepamStats stats;
    const quant::CepamMessage msg = quant::CepamEncode(cfg, x, ctx, static_cast<std::uint32_t>(i), &stats);
    quant::CepamDecode(cfg, msg, ctx, static_cast<std::uint32_t>(i), y);
    double e2 = 0;
    for (std::size_t l = 0; l < n; ++l) {
      const double e = y[l] - static_cast<double>(x[l]);
      sum[l] += e;
      sum2[l] += e * e;
      e2 += e * e;
      if (raw.is_open()) AppendLittleEndian(buffer, e);
    }
    norm2_sum += e2;
    trials += static_cast<double>(stats.trials);
    h_bits += static_cast<double>(stats.h_bits);
    index_bits += static_cast<double>(stats.index_bits);
    if (raw.is_open() && buffer.size() >= (std::size_t{1} << 20)) {
      raw.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  if (raw.is_open()) {
    raw.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    raw.close();
    if (!raw) throw InvalidArgument("--raw", "write to '" + a.raw + "' failed");
  }
  const double N = static_cast<double>(draws.n);
  json mean = json::array(), variance = json::array(), xs = json::array();
  for (std::size_t l = 0; l < n; ++l) {
    mean.push_back(sum[l] / N);
    variance.push_back(sum2[l] / N - (sum[l] / N) * (sum[l] / N));
    xs.push_back(static_cast<double>(x[l]));
  }
  const double p = quant::CepamAcceptanceProbability(cfg);
  json out = {{"command", "sample"}, {"mechanism", "cepam"}, {"backend_used", "cpu"}};
  out["parameters"] = {{"noise", a.noise},  {"lattice_dim", cfg.n},         {gaussian ? "sigma" : "b", cfg.scale},
                       {"c", cfg.c},        {"x", xs},                       {"n", draws.n},
                       {"seed", draws.seed}, {"generator", a.generator},    {"clip_used_for_bits", cfg.clip}};
  out["law"] = gaussian ? "error ~ N(0, sigma^2 I_n), independent of x (seed-002 Prop. 5 / Lemma 14)"
                        : (cfg.n == 1 ? "error ~ Lap(0, b), independent of x (seed-002 Prop. 5 / Lemma 15)"
                                      : "error ~ i.i.d. Lap(0, b) per coordinate (spec 002 §3.6 l1 extension, not in the paper)");
  out["law_variance_per_coordinate"] = gaussian ? cfg.scale * cfg.scale : 2.0 * cfg.scale * cfg.scale;
  out["summary"] = {{"mean", mean},
                    {"variance", variance},
                    {"mean_squared_norm", norm2_sum / N},
                    {"mean_trials", trials / N},
                    {"acceptance_probability", p},
                    {"expected_trials", 1.0 / p},
                    {"mean_h_bits", h_bits / N},
                    {"mean_index_bits", index_bits / N},
                    {"mean_bits_per_coordinate", (h_bits + index_bits) / N / static_cast<double>(n)}};
  out["stream"] = {{"key", "splitmix64 expansion of --seed (as the other sample subcommands)"},
                   {"draw_i", "round floor(i / 2^32), client i mod 2^32: kCepamLayer index 64 j + slot, kCepamDither "
                              "index ((trial - 1) N + j) n + l with N = 1 block"}};
  if (!a.raw.empty())
    out["raw"] = {{"file", a.raw}, {"format", "little-endian float64, row-major n x lattice-dim, error = decoded - x"}};
  return out;
}

}  // namespace

void RegisterCepamSample(CLI::App* sample, std::vector<Command>& commands) {
  auto args = std::make_shared<CepamSampleArgs>();
  CLI::App* app = sample->add_subcommand(
      "cepam", "CEPAM / layered RSUQ (seed 002): n reconstruction errors of the one-block input --x; summary as JSON, "
               "the errors themselves with --raw");
  app->add_option("--noise", args->noise, "gaussian (chi-square layer, balls) or laplace (Gamma layer, l1 balls)")
      ->required();
  app->add_option("--lattice-dim", args->dim, "lattice dimension n, 1..8 (laplace n > 1: the spec's l1 extension)")
      ->required();
  app->add_option("--sigma", args->sigma, "Gaussian standard deviation per coordinate (> 0)");
  app->add_option("--b", args->b, "Laplace scale (> 0)");
  app->add_option("--x", args->x, "one input coordinate (decimal; rounded to float); repeat once per coordinate")
      ->required();
  app->add_option("--c", args->c, "cell scaling c >= 1 (default 1, optimal)");
  app->add_option("--n", args->n, "number of draws, 1..2^48")->required();
  app->add_option("--seed", args->seed, "64-bit seed of the stream key (splitmix64 expansion)")->required();
  app->add_option("--generator", args->generator, "chacha20 (default) or philox");
  app->add_option("--raw", args->raw, "write the errors to FILE: little-endian float64, row-major n x lattice-dim");
  commands.push_back({app, [args] { return RunCepamSample(*args); }});
}

}  // namespace dpfl::cli
