// dpfl serve MECHANISM [parameters] [--seed S] [--generator chacha20|philox]
//
// dpfl's own production encoders behind the line protocol of `dpfl check` (docs/check.md): read
// a request `N x_1 … x_k` per line from stdin, answer N lines with the released values of N
// independent runs, until stdin closes. So `dpfl check ldpq --eps 1 --c 0 --r 1 -- dpfl serve
// ldpq --eps 1 --c 0 --r 1` holds the production path to the reference's law exactly as it holds
// anyone's implementation.
//
// Randomness: the stream key from --seed as in `dpfl sample`; chunk k of at most 2^20 runs (over
// all requests, in order) uses round k, run j of a chunk parameter index j (CorBinQ/CoQ: pair 0,
// Q1 = client 0, Q2 = client 1; RR/StoSign: client 0; StoSign + RR: the StoSign stream, then the
// RR stream of the same client). Quantized Gaussian: chunk k is client 0's message in round k.
// CEPAM: run i uses round ⌊i/2^32⌋ and client i mod 2^32, as `dpfl sample cepam`. No two runs
// share randomness. Inputs are rounded to float, as the encoders take float weights.
// Errors in a request (a bad number, the wrong count) end the server with exit 2 and one line
// on stderr naming the request.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/discrete_noise.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/fl/quantized_gaussian.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/cepam.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/quant/sampling.hpp"
#include "sample_command.hpp"

namespace dpfl::cli {
namespace {

struct ServeArgs {
  std::string mechanism;
  std::map<std::string, std::string> values;  // flag (no dashes) → text, defaults filled in
  std::string seed = "1", generator = "chacha20";
  const std::string& operator[](const std::string& flag) const { return values.at(flag); }
};

bool Bit(const std::vector<std::uint64_t>& words, std::size_t j) { return (words[j / 64] >> (j % 64)) & 1u; }

// One request line → (N, inputs); InvalidArgument("request K") for anything malformed.
std::pair<std::uint64_t, std::vector<float>> ParseRequest(const std::string& line, std::size_t arity,
                                                          std::uint64_t number) {
  std::istringstream in(line);
  std::string count;
  in >> count;
  const std::string where = "request " + std::to_string(number);
  const std::uint64_t n = ParseUnsigned(count, where, 1, std::uint64_t{1} << 32);
  std::vector<float> x;
  std::string token;
  while (in >> token) x.push_back(ParseWeight(token, where));
  if (x.size() != arity)
    throw InvalidArgument(where, "expected " + std::to_string(arity) + " input number(s) after N, got " +
                                     std::to_string(x.size()));
  return {n, x};
}

nlohmann::json RunServe(const ServeArgs& a) {
  const Draws draws = ParseDraws("1", a.seed, "1", a.generator, "cpu");
  quant::StreamContext ctx = draws.ctx;
  const std::string& m = a.mechanism;
  std::uint32_t chunk_counter = 0;
  std::uint64_t run_counter = 0;
  std::size_t arity = 1;
  // The encoder of one chunk: inputs → one output line per run.
  std::function<void(std::uint64_t, const std::vector<float>&, std::string&)> serve;

  if (m == "ldpq" || m == "corbinq" || m == "coq") {
    const quant::BinaryLevels levels =
        quant::MakeBinaryLevels(ParseDecimal(a["eps"], "--eps"), ParseDecimal(a["c"], "--c"), ParseDecimal(a["r"], "--r"));
    const bool pair = m != "ldpq";
    const int d = pair ? static_cast<int>(ParseUnsigned(a["d"], "--d", 0, 62)) : 0;
    if (m == "coq" && ParseDecimal(a["px"], "--px") != 0.5)
      throw InvalidArgument("--px", "the production CoQ-FL path supports p_x = 1/2 only");
    arity = pair ? 2 : 1;
    const auto q = m == "ldpq" ? quant::SampledQuantizer::kLdpq
                               : (m == "corbinq" ? quant::SampledQuantizer::kCorBinQ : quant::SampledQuantizer::kCoq);
    auto encode = std::make_shared<quant::ChunkEncoder>(quant::CpuChunkEncoder(q, levels, d, 1));
    const std::string lo = ShortestDouble(levels.c - levels.r * levels.alpha), hi = ShortestDouble(levels.c + levels.r * levels.alpha);
    serve = [encode, pair, lo, hi, &ctx](std::uint64_t n, const std::vector<float>& x, std::string& out) {
      const std::vector<float> v1(n, x[0]), v2(pair ? n : 0, pair ? x[1] : 0.0f);
      std::vector<std::uint64_t> b1((n + 63) / 64), b2(pair ? b1.size() : 0);
      (*encode)(ctx, v1, v2, b1, b2);
      for (std::size_t j = 0; j < n; ++j) {
        out += Bit(b1, j) ? hi : lo;
        if (pair) out += " " + (Bit(b2, j) ? hi : lo);
        out += "\n";
      }
    };
  } else if (m == "rr" || m == "stosign" || m == "bnn-upload") {
    const quant::RandomizedResponse rr =
        m == "stosign" ? quant::RandomizedResponse{} : quant::MakeRandomizedResponse(ParseDecimal(a["rr-gamma"], "--rr-gamma"));
    auto sto = std::make_shared<quant::ChunkEncoder>(quant::CpuBnnChunkEncoder(quant::SampledQuantizer::kStoSign, rr, 1));
    auto rre = std::make_shared<quant::ChunkEncoder>(quant::CpuBnnChunkEncoder(quant::SampledQuantizer::kRr, rr, 1));
    serve = [m, sto, rre, &ctx](std::uint64_t n, const std::vector<float>& x, std::string& out) {
      if (m == "rr" && x[0] != 1.0f && x[0] != -1.0f)
        throw InvalidArgument("request", "rr takes the binary input +1 or -1");
      std::vector<float> v(n, x[0]);
      std::vector<std::uint64_t> bits((n + 63) / 64);
      if (m != "rr") {  // StoSign first (seed-004 Alg. B); for the upload its ±1 output feeds RR
        (*sto)(ctx, v, {}, bits, {});
        for (std::size_t j = 0; j < n; ++j) v[j] = Bit(bits, j) ? 1.0f : -1.0f;
      }
      if (m != "stosign") (*rre)(ctx, v, {}, bits, {});
      for (std::size_t j = 0; j < n; ++j) out += Bit(bits, j) ? "1\n" : "-1\n";
    };
  } else if (m == "qgauss") {
    fl::QgaussConfig cfg;
    cfg.sigma = ParseDecimal(a["sigma"], "--sigma");
    cfg.clip = ParseDecimal(a["clip"], "--clip");
    cfg.levels = static_cast<std::uint32_t>(ParseUnsigned(a["levels"], "--levels", 2, fl::kQgaussMaxLevels));
    auto grid = std::make_shared<fl::QgaussGrid>(fl::MakeQgaussGrid(cfg));
    serve = [grid, &ctx](std::uint64_t n, const std::vector<float>& x, std::string& out) {
      const std::int64_t q = fl::QgaussClipToGrid(*grid, std::vector<float>{x[0]})[0];
      const std::vector<std::int64_t> qs(n, q);
      const fl::QgaussMessage msg = fl::QgaussEncode(*grid, qs, ctx, 0, 1);
      for (std::size_t j = 0; j < n; ++j) out += ShortestDouble(fl::QgaussLevel(*grid, fl::QgaussIndex(*grid, msg, j))) + "\n";
    };
  } else if (m == "cepam-gaussian" || m == "cepam-laplace") {
    auto cfg = std::make_shared<quant::CepamConfig>();
    const bool gaussian = m == "cepam-gaussian";
    cfg->kind = gaussian ? quant::CepamKind::kGaussian : quant::CepamKind::kLaplace;
    cfg->n = static_cast<int>(ParseUnsigned(a["lattice-dim"], "--lattice-dim", 1, quant::kCepamMaxDim));
    cfg->scale = ParseDecimal(gaussian ? a["sigma"] : a["b"], gaussian ? "--sigma" : "--b");
    cfg->c = ParseDecimal(a["c"], "--c");
    cfg->clip = cfg->scale;
    quant::ValidateCepamConfig(*cfg);
    arity = static_cast<std::size_t>(cfg->n);
    serve = [cfg, &ctx, &run_counter](std::uint64_t n, const std::vector<float>& x, std::string& out) {
      double norm2 = 0;
      for (float v : x) norm2 += static_cast<double>(v) * static_cast<double>(v);
      quant::CepamConfig local = *cfg;  // γ just above ‖x‖: no clipping (it shapes only the bitstream)
      local.clip = norm2 > 0 ? std::sqrt(norm2) * (1.0 + 0x1p-40) : cfg->scale;
      std::vector<double> y(x.size());
      for (std::uint64_t i = 0; i < n; ++i, ++run_counter) {
        quant::StreamContext c = ctx;
        c.round = static_cast<std::uint32_t>(run_counter >> 32);
        const quant::CepamMessage msg = quant::CepamEncode(local, x, c, static_cast<std::uint32_t>(run_counter));
        quant::CepamDecode(local, msg, c, static_cast<std::uint32_t>(run_counter), y);
        for (std::size_t l = 0; l < y.size(); ++l) out += (l ? " " : "") + ShortestDouble(y[l]);
        out += "\n";
      }
    };
  } else if (m == "gaussian" || m == "laplace") {
    // The seed-000 baselines' noise (dpfl/fl/mechanisms.hpp "Exact noise"): the grid of
    // NoiseGridFor, the nearest index GridIndex, exact integer noise; the value printed is
    // lo + (k + Z)·g in double (the training message rounds it to float once more).
    fl::LayerRange range;
    range.c = ParseDecimal(a["c"], "--c");
    range.r = ParseDecimal(a["r"], "--r");
    const fl::NoiseGrid grid = fl::NoiseGridFor(range);
    if (ParseUnsigned(a["grid-steps"], "--grid-steps", 1, std::uint64_t{1} << 40) != static_cast<std::uint64_t>(grid.steps))
      throw InvalidArgument("--grid-steps", "the production grid has N = 2^20 = 1048576 steps");
    const bool gaussian = m == "gaussian";
    auto law_g = gaussian ? std::make_shared<fl::DiscreteGaussian>(fl::ExactRatio(ParseDecimal(a["sigma2"], "--sigma2"), "--sigma2"))
                          : nullptr;
    auto law_l = gaussian ? nullptr : std::make_shared<fl::DiscreteLaplace>(fl::ExactRatio(ParseDecimal(a["t"], "--t"), "--t"));
    serve = [grid, range, law_g, law_l, &ctx](std::uint64_t n, const std::vector<float>& x, std::string& out) {
      const double xc = std::clamp(static_cast<double>(x[0]), range.c - range.r, range.c + range.r);
      const std::int64_t k = fl::GridIndex(grid, xc);
      fl::NoiseStream stream(ctx, rng::StreamAddress{ctx.round, 0, rng::Purpose::kPrivateCoin});
      for (std::uint64_t j = 0; j < n; ++j) {
        const std::int64_t z = law_g ? law_g->Sample(stream) : law_l->Sample(stream);
        out += ShortestDouble(grid.lo + static_cast<double>(k + z) * grid.step) + "\n";
      }
    };
  } else {
    throw InvalidArgument("MECHANISM", "unknown mechanism '" + m + "'");
  }

  std::string line, out;
  for (std::uint64_t number = 1; std::getline(std::cin, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto [n, x] = ParseRequest(line, arity, number);
    for (std::uint64_t done = 0; done < n;) {
      const std::uint64_t part = std::min<std::uint64_t>(n - done, quant::kSampleChunk);
      ctx.round = chunk_counter++;
      out.clear();
      serve(part, x, out);
      std::cout << out;
      done += part;
    }
    std::cout.flush();
  }
  return nullptr;  // nothing more to print: the answers were the output
}

}  // namespace

void RegisterServeCommand(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* serve = root.add_subcommand(
      "serve", "answer `dpfl check` requests on stdin with the production encoders (docs/check.md)");
  serve->require_subcommand(1);
  const struct {
    const char* name;
    const char* help;
    std::vector<const char*> flags;
  } mechanisms[] = {
      {"ldpq", "LDPQ (seed-000 Alg. 1)", {"eps", "c", "r"}},
      {"corbinq", "CorBinQ pair (seed-000 Alg. 2)", {"eps", "c", "r", "d"}},
      {"coq", "CoQ-FL pair, p_x = 1/2 (seed 001)", {"eps", "c", "r", "d", "px"}},
      {"rr", "randomized response (seed-004 Alg. C)", {"rr-gamma"}},
      {"stosign", "StoSign (seed-004 Alg. B)", {}},
      {"bnn-upload", "StoSign then RR (seed-004 client upload)", {"rr-gamma"}},
      {"qgauss", "quantized Gaussian (seed-003 Alg. 2)", {"sigma", "levels", "clip"}},
      {"cepam-gaussian", "CEPAM, Gaussian target (seed 002)", {"lattice-dim", "sigma", "c"}},
      {"cepam-laplace", "CEPAM, Laplace target (seed 002)", {"lattice-dim", "b", "c"}},
      {"gaussian", "seed-000 gaussian baseline's exact noise on the grid", {"c", "r", "grid-steps", "sigma2"}},
      {"laplace", "seed-000 laplace baseline's exact noise on the grid", {"c", "r", "grid-steps", "t"}},
  };
  for (const auto& mech : mechanisms) {
    auto args = std::make_shared<ServeArgs>();
    args->mechanism = mech.name;
    CLI::App* app = serve->add_subcommand(mech.name, mech.help);
    const bool cepam = args->mechanism.rfind("cepam", 0) == 0;
    // Optional flags and their defaults: CoQ's p_x, the grid's N, CEPAM's cell scaling c.
    const std::map<std::string, std::string> defaults = {{"d", "0"}, {"px", "0.5"}, {"grid-steps", "1048576"}};
    for (const char* f : mech.flags) {
      const std::string flag = f;
      const auto d = defaults.find(flag);
      const bool optional = d != defaults.end() || (flag == "c" && cepam);
      args->values[flag] = d != defaults.end() ? d->second : (optional ? "1" : "");
      auto* opt = app->add_option("--" + flag, args->values[flag], "as in dpfl sample " + std::string(mech.name));
      if (!optional) opt->required();
    }
    app->add_option("--seed", args->seed, "64-bit seed of the stream key (default 1)");
    app->add_option("--generator", args->generator, "chacha20 (default) or philox");
    commands.push_back({app, [args] { return RunServe(*args); }});
  }
}

}  // namespace dpfl::cli
