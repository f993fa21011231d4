// dpfl sample — n draws of a production binary quantizer, as outcome counts (see
// sample_command.hpp and docs: `dpfl sample --help`).
//
//   dpfl sample ldpq    --eps X --c C --r R --w W                --n N --seed S [options]
//   dpfl sample corbinq --eps X --c C --r R --w1 W1 --w2 W2 --d D --n N --seed S [options]
//   dpfl sample coq     (as corbinq) [--px 0.5]
//   dpfl sample rr      --rr-gamma G --input +1|-1               --n N --seed S [options]
//   dpfl sample stosign --theta T                                --n N --seed S [options]
//   options: --generator chacha20|philox, --backend cpu|cuda|auto, --threads T
//
// The draws, their stream key and chunking: dpfl/quant/sampling.hpp (DrawSampleCounts; the policy is
// also printed under "stream"). This file parses, calls it, and prints.
// Numbers: decimals read with std::strtod after checking the whole text (digits, sign, '.',
// exponent only: no NaN/Inf words, hex or spaces); weights are then rounded to float, as the
// encoders take float weights, and clipped to [c − r, c + r] by the encoders.
#include "sample_command.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_element.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/quant/sampling.hpp"
#if defined(DPFL_HAVE_CUDA)
#include "dpfl/quant/cuda_quantizer.hpp"
#endif

namespace dpfl::cli {

// A finite decimal; see the file comment. Throws InvalidArgument naming `flag`.
double ParseDecimal(const std::string& text, const std::string& flag) {
  if (text.empty()) throw InvalidArgument(flag, "empty value, expected a finite decimal number");
  for (char ch : text)
    if (!(std::isdigit(static_cast<unsigned char>(ch)) || ch == '+' || ch == '-' || ch == '.' || ch == 'e' ||
          ch == 'E'))
      throw InvalidArgument(flag, "'" + text + "' is not a decimal number (digits, sign, '.' and an exponent only)");
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || end == text.c_str())
    throw InvalidArgument(flag, "'" + text + "' is not a decimal number");
  if (!std::isfinite(value))  // overflow (ERANGE with ±HUGE_VAL); underflow rounds to 0 or a subnormal
    throw InvalidArgument(flag, "'" + text + "' is outside the range of double");
  return value;
}

// A decimal integer in [lo, hi], digits only.
std::uint64_t ParseUnsigned(const std::string& text, const std::string& flag, std::uint64_t lo, std::uint64_t hi) {
  const std::string domain = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  std::uint64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const bool digits_only =
      !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (!digits_only || ec != std::errc() || ptr != last || value < lo || value > hi)
    throw InvalidArgument(flag, "must be " + domain + ", got '" + text + "'");
  return value;
}

// A weight: a finite decimal that is also finite as a float.
float ParseWeight(const std::string& text, const std::string& flag) {
  const double value = ParseDecimal(text, flag);
  const float rounded = static_cast<float>(value);
  if (!std::isfinite(rounded))
    throw InvalidArgument(flag, "'" + text + "' is outside the range of float (the encoders take float weights)");
  return rounded;
}

namespace {

using nlohmann::json;
using quant::BinaryLevels;
using quant::PairRole;
using quant::StreamContext;

constexpr int kMaxThreads = 1024;

enum class Mechanism { kLdpq, kCorBinQ, kCoq };

struct SampleArgs {
  Mechanism mechanism;
  std::string eps, c, r, w, w1, w2, d, n, seed;
  std::string px = "0.5";
  std::string generator = "chacha20", backend = "cpu", threads = "1";
};

// Production's parameter names → this command's flags.
std::string FlagOf(const std::string& argument, Mechanism mechanism) {
  if (argument == "p_x") return "--px";
  if (argument == "w") return mechanism == Mechanism::kLdpq ? "--w" : "--w1/--w2";
  if (!argument.empty() && argument[0] == '-') return argument;
  return "--" + argument;
}

// "T/2^64": the exact implemented probability of a threshold T.
std::string Over2To64(std::uint64_t t) { return std::to_string(t) + "/2^64"; }
// 2^64 − t as a decimal string (t = 0 gives 2^64 itself).
std::string TwoTo64Minus(std::uint64_t t) { return t == 0 ? "18446744073709551616" : std::to_string(~t + 1); }

json StreamJson(const StreamContext& ctx, std::uint64_t seed, Mechanism mechanism) {
  json words = json::array();
  for (std::uint32_t w : ctx.key.words) words.push_back(w);
  return json{
      {"seed", seed},
      {"key_words", words},
      {"key_policy",
       "key words (2i, 2i+1) = (low, high) 32 bits of the i-th splitmix64 output (i = 0..3) from state = seed"},
      {"chunk", quant::kSampleChunk},
      {"chunk_policy", "chunk k of 2^20 draws uses round k; draw j of a chunk is parameter index j"},
      {"entities", mechanism == Mechanism::kLdpq ? "LDPQ: private coins of client 0"
                                                  : "pair 0; Q1 (Alice) = client 0, Q2 (Bob) = client 1"},
  };
}

// The flags every sampler takes: --n, --seed, --threads, --generator, --backend (checked here;
// the backend is resolved by UseCudaBackend), and the stream context they give.
json RunSampleUnmapped(const SampleArgs& a) {
  const double eps = ParseDecimal(a.eps, "--eps");
  const double c = ParseDecimal(a.c, "--c");
  const double r = ParseDecimal(a.r, "--r");
  const bool pair = a.mechanism != Mechanism::kLdpq;
  const float w1 = ParseWeight(pair ? a.w1 : a.w, pair ? "--w1" : "--w");
  const float w2 = pair ? ParseWeight(a.w2, "--w2") : 0.0f;
  const int d = pair ? static_cast<int>(ParseUnsigned(a.d, "--d", 0, 62)) : 0;
  const Draws draws = ParseDraws(a.n, a.seed, a.threads, a.generator, a.backend);
  const std::uint64_t n = draws.n, seed = draws.seed;
  const int threads = draws.threads;
  if (a.mechanism == Mechanism::kCoq && ParseDecimal(a.px, "--px") != 0.5)
    throw InvalidArgument("--px", "the production CoQ-FL path supports p_x = 1/2 (0.5) only, got '" + a.px + "'");

  const BinaryLevels levels = quant::MakeBinaryLevels(eps, c, r);
  const bool cuda = UseCudaBackend(a.backend);

  const StreamContext ctx = draws.ctx;

  const quant::SampledQuantizer quantizer = a.mechanism == Mechanism::kLdpq      ? quant::SampledQuantizer::kLdpq
                                             : a.mechanism == Mechanism::kCorBinQ ? quant::SampledQuantizer::kCorBinQ
                                                                                  : quant::SampledQuantizer::kCoq;
  quant::ChunkEncoder encode = quant::CpuChunkEncoder(quantizer, levels, d, threads);
#if defined(DPFL_HAVE_CUDA)
  if (cuda) {
    encode = [&levels, pair, d](const StreamContext& chunk_ctx, std::span<const float> v1, std::span<const float> v2,
                                std::span<std::uint64_t> b1, std::span<std::uint64_t> b2) {
      if (!pair) {
        quant::CudaEncodeLdpq(levels, v1, chunk_ctx, 0, b1);
      } else {  // CoQ-FL at p_x = 1/2 is CorBinQ (Alice = Q1, Bob = Q2): cuda_quantizer.hpp
        quant::CudaEncodeCorBinQ(levels, v1, d, PairRole::kQ1, chunk_ctx, 0, 0, b1);
        quant::CudaEncodeCorBinQ(levels, v2, d, PairRole::kQ2, chunk_ctx, 0, 1, b2);
      }
    };
  }
#endif
  const quant::SampleCounts counts = quant::DrawSampleCounts(quantizer, w1, w2, n, ctx, encode);
  const std::uint64_t plus = counts.plus, mm = counts.joint[0], mp = counts.joint[1], pm = counts.joint[2],
                      pp = counts.joint[3];

  const double ra = levels.r * levels.alpha;
  json params = {{"eps", eps}, {"c", c}, {"r", r}, {"n", n}, {"seed", seed}, {"generator", a.generator},
                 {"backend", a.backend}, {"threads", threads}};
  json out = {{"command", "sample"},
              {"backend_used", cuda ? "cuda" : "cpu"},
              {"alpha", levels.alpha},
              {"levels", {{"minus", levels.c - ra}, {"plus", levels.c + ra}}},
              {"stream", StreamJson(ctx, seed, a.mechanism)}};
  if (!pair) {
    out["mechanism"] = "ldpq";
    params["w"] = static_cast<double>(w1);
    const std::uint64_t t = quant::PlusThreshold(quant::ClipWeight(static_cast<double>(w1), levels), levels);
    out["threshold_plus"] = std::to_string(t);
    out["implemented_q_plus"] = Over2To64(t);
    out["counts"] = {{"+", plus}, {"-", n - plus}};
  } else {
    out["mechanism"] = a.mechanism == Mechanism::kCorBinQ ? "corbinq" : "coq";
    params["w1"] = static_cast<double>(w1);
    params["w2"] = static_cast<double>(w2);
    params["d"] = d;
    if (a.mechanism == Mechanism::kCoq) params["px"] = 0.5;
    const std::uint64_t t1 = quant::PlusThreshold(quant::ClipWeight(static_cast<double>(w1), levels), levels);
    const std::uint64_t t2 = quant::MinusThreshold(quant::ClipWeight(static_cast<double>(w2), levels), levels);
    out["threshold_q1_plus"] = std::to_string(t1);
    out["threshold_q2_minus"] = std::to_string(t2);
    out["implemented_q1"] = Over2To64(t1);                // P(Q1 = +)
    out["implemented_q2_minus"] = Over2To64(t2);          // P(Q2 = −)
    out["implemented_q2"] = TwoTo64Minus(t2) + "/2^64";   // P(Q2 = +)
    out["counts"] = {{"--", mm}, {"-+", mp}, {"+-", pm}, {"++", pp}};
  }
  out["parameters"] = std::move(params);
  return out;
}

// ---- DPFL-BNN (seed 004): randomized response and StoSign ----------------------------------

#if defined(DPFL_HAVE_CUDA)
// The same draws on the GPU (dpfl/quant/cuda_quantizer.hpp): RR after the CPU's Sign of the input.
quant::ChunkEncoder CudaBnnChunkEncoder(quant::SampledQuantizer quantizer, const quant::RandomizedResponse& rr) {
  return [quantizer, rr](const StreamContext& ctx, std::span<const float> w1, std::span<const float>,
                         std::span<std::uint64_t> b1, std::span<std::uint64_t>) {
    if (quantizer == quant::SampledQuantizer::kStoSign) {
      quant::CudaEncodeStoSign(w1, ctx, 0, b1);
      return;
    }
    quant::EncodeSign(w1, b1);
    quant::CudaApplyRandomizedResponse(rr, w1.size(), ctx, 0, b1);
  };
}
#endif

struct BnnSampleArgs {
  bool rr = true;  // false: stosign
  std::string gamma, input, theta, n, seed;
  std::string generator = "chacha20", backend = "cpu", threads = "1";
};

json RunBnnSampleUnmapped(const BnnSampleArgs& a) {
  const Draws draws = ParseDraws(a.n, a.seed, a.threads, a.generator, a.backend);
  const std::uint64_t n = draws.n, seed = draws.seed;
  const int threads = draws.threads;
  float value = 0;
  quant::RandomizedResponse rr;
  if (a.rr) {
    rr = quant::MakeRandomizedResponse(ParseDecimal(a.gamma, "--rr-gamma"));
    if (a.input != "+1" && a.input != "1" && a.input != "-1")
      throw InvalidArgument("--input", "must be +1 or -1 (the binary weight every draw starts from), got '" + a.input + "'");
    value = a.input == "-1" ? -1.0f : 1.0f;
  } else {
    value = ParseWeight(a.theta, "--theta");
  }
  const bool cuda = UseCudaBackend(a.backend);
  const StreamContext ctx = draws.ctx;
  const quant::SampledQuantizer quantizer = a.rr ? quant::SampledQuantizer::kRr : quant::SampledQuantizer::kStoSign;
  quant::ChunkEncoder encode = quant::CpuBnnChunkEncoder(quantizer, rr, threads);
#if defined(DPFL_HAVE_CUDA)
  if (cuda) encode = CudaBnnChunkEncoder(quantizer, rr);
#endif
  const std::uint64_t plus = quant::DrawSampleCounts(quantizer, value, 0.0f, n, ctx, encode).plus;

  json params = {{"n", n}, {"seed", seed}, {"generator", a.generator}, {"backend", a.backend}, {"threads", threads}};
  json out = {{"command", "sample"}, {"mechanism", a.rr ? "rr" : "stosign"}, {"backend_used", cuda ? "cuda" : "cpu"}};
  json stream = StreamJson(ctx, seed, Mechanism::kLdpq);
  if (a.rr) {
    stream["entities"] = "client 0: Sign of the input, then its kRandomizedResponse stream (seed-004 Alg. C)";
    params["rr_gamma"] = rr.gamma;
    params["input"] = value > 0 ? "+1" : "-1";
    out["flip_threshold"] = std::to_string(rr.flip_threshold);
    out["implemented_flip_probability"] = Over2To64(rr.flip_threshold);
    out["implemented_gamma"] = Over2To64(quant::ImplementedGammaNumerator(rr));
    // P(+) = keep probability for input +1, flip probability for input −1.
    out["implemented_q_plus"] = value > 0 ? TwoTo64Minus(rr.flip_threshold) + "/2^64" : Over2To64(rr.flip_threshold);
  } else {
    stream["entities"] = "client 0: its kStoSign stream (seed-004 Alg. B, hard sigmoid)";
    params["theta"] = static_cast<double>(value);
    if (value >= 1.0f) {
      out["threshold_plus"] = "none (theta >= 1 is always +)";
      out["implemented_q_plus"] = "1";
    } else {
      const std::uint64_t t = quant::StoSignThreshold(value);
      out["threshold_plus"] = std::to_string(t);
      out["implemented_q_plus"] = Over2To64(t);
    }
  }
  out["stream"] = std::move(stream);
  out["counts"] = {{"+", plus}, {"-", n - plus}};
  out["parameters"] = std::move(params);
  return out;
}

json RunBnnSample(const BnnSampleArgs& a) {
  try {
    return RunBnnSampleUnmapped(a);
  } catch (const InvalidArgument& e) {
    if (!e.argument().empty() && e.argument()[0] == '-') throw;
    const std::string what = e.what(), prefix = e.argument() + ": ";
    throw InvalidArgument(e.argument() == "theta" ? "--theta" : "--" + e.argument(),
                          what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what);
  }
}

// Errors of the production library name its parameters ("eps", "p_x"); report the flags.
json RunSample(const SampleArgs& a) {
  try {
    return RunSampleUnmapped(a);
  } catch (const InvalidArgument& e) {
    if (!e.argument().empty() && e.argument()[0] == '-') throw;
    const std::string what = e.what();
    const std::string prefix = e.argument() + ": ";
    throw InvalidArgument(FlagOf(e.argument(), a.mechanism),
                          what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size()) : what);
  }
}

void AddCommon(CLI::App* app, SampleArgs& a) {
  app->add_option("--eps", a.eps, "privacy budget eps > 0 (decimal)")->required();
  app->add_option("--c", a.c, "center c (decimal)")->required();
  app->add_option("--r", a.r, "radius r > 0 (decimal)")->required();
  app->add_option("--n", a.n, "number of draws, 1..2^48")->required();
  app->add_option("--seed", a.seed, "64-bit seed of the stream key (splitmix64 expansion)")->required();
  app->add_option("--generator", a.generator, "chacha20 (default) or philox");
  app->add_option("--backend", a.backend, "cpu (default), cuda, or auto (cuda if available)");
  app->add_option("--threads", a.threads, "CPU encoder threads, 1..1024 (default 1; output does not depend on it)");
}

}  // namespace

Draws ParseDraws(const std::string& n, const std::string& seed, const std::string& threads, const std::string& generator,
                 const std::string& backend) {
  Draws d{};
  d.n = ParseUnsigned(n, "--n", 1, quant::kMaxSampleDraws);
  d.seed = ParseUnsigned(seed, "--seed", 0, std::numeric_limits<std::uint64_t>::max());
  d.threads = static_cast<int>(ParseUnsigned(threads, "--threads", 1, kMaxThreads));
  if (generator != "chacha20" && generator != "philox")
    throw InvalidArgument("--generator", "must be chacha20 or philox, got '" + generator + "'");
  if (backend != "cpu" && backend != "cuda" && backend != "auto")
    throw InvalidArgument("--backend", "must be cpu, cuda or auto, got '" + backend + "'");
  d.ctx.generator = generator == "philox" ? rng::Generator::kPhilox4x32 : rng::Generator::kChaCha20;
  d.ctx.key = quant::SampleKeyFromSeed(d.seed);
  return d;
}

// --backend cpu|cuda|auto → whether to run on the GPU (sample_command.hpp).
bool UseCudaBackend(const std::string& backend) {
#if defined(DPFL_HAVE_CUDA)
  const bool available = quant::CudaAvailable();
  if (backend == "cuda" && !available)
    throw InvalidArgument("--backend", "cuda: no CUDA device is available on this machine (use --backend cpu)");
  return backend != "cpu" && available;
#else
  if (backend == "cuda")
    throw InvalidArgument("--backend",
                          "cuda: this dpfl was built without the CUDA backend (target dpfl_cuda absent); "
                          "use --backend cpu");
  return false;
#endif
}

void RegisterSampleCommand(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* sample = root.add_subcommand(
      "sample", "draw n outputs of a production quantizer and print the outcome counts as JSON");
  sample->require_subcommand(1);
  {
    auto args = std::make_shared<SampleArgs>();
    args->mechanism = Mechanism::kLdpq;
    CLI::App* app = sample->add_subcommand("ldpq", "LDPQ (seed-000 Alg. 1): counts of + and -");
    AddCommon(app, *args);
    app->add_option("--w", args->w, "weight w (decimal; rounded to float, clipped to [c - r, c + r])")->required();
    commands.push_back({app, [args] { return RunSample(*args); }});
  }
  for (const Mechanism mechanism : {Mechanism::kCorBinQ, Mechanism::kCoq}) {
    auto args = std::make_shared<SampleArgs>();
    args->mechanism = mechanism;
    CLI::App* app = mechanism == Mechanism::kCorBinQ
                        ? sample->add_subcommand("corbinq", "CorBinQ pair (seed-000 Alg. 2): joint counts (Q1 sign first)")
                        : sample->add_subcommand("coq", "CoQ-FL pair, p_x = 1/2 (seed-001): joint counts (Alice sign first)");
    AddCommon(app, *args);
    app->add_option("--w1", args->w1, "Q1 / Alice weight (decimal; rounded to float, clipped)")->required();
    app->add_option("--w2", args->w2, "Q2 / Bob weight (decimal; rounded to float, clipped)")->required();
    app->add_option("--d", args->d, "shared bits per parameter, 0..62")->required();
    if (mechanism == Mechanism::kCoq) app->add_option("--px", args->px, "codebook bias p_x; only 0.5 is supported");
    commands.push_back({app, [args] { return RunSample(*args); }});
  }
  for (const bool rr : {true, false}) {
    auto args = std::make_shared<BnnSampleArgs>();
    args->rr = rr;
    CLI::App* app = rr ? sample->add_subcommand("rr", "randomized response (seed-004 Alg. C) on n bits equal to --input: "
                                                      "counts of + and -")
                       : sample->add_subcommand("stosign", "StoSign (seed-004 Alg. B, hard sigmoid) of n latents equal "
                                                           "to --theta: counts of + and -");
    if (rr) {
      app->add_option("--rr-gamma", args->gamma, "RR bias gamma in [0, 1/2]: keep w.p. 1/2 + gamma (decimal)")->required();
      app->add_option("--input", args->input, "the binary weight of every draw: +1 or -1")->required();
    } else {
      app->add_option("--theta", args->theta, "latent weight (decimal; rounded to float; |theta| > 1 saturates)")
          ->required();
    }
    app->add_option("--n", args->n, "number of draws, 1..2^48")->required();
    app->add_option("--seed", args->seed, "64-bit seed of the stream key (splitmix64 expansion)")->required();
    app->add_option("--generator", args->generator, "chacha20 (default) or philox");
    app->add_option("--backend", args->backend, "cpu (default), cuda, or auto (cuda if available)");
    app->add_option("--threads", args->threads, "CPU encoder threads, 1..1024 (default 1; output does not depend on it)");
    commands.push_back({app, [args] { return RunBnnSample(*args); }});
  }
  RegisterCepamSample(sample, commands);
  RegisterQgaussSample(sample, commands);
}

}  // namespace dpfl::cli
