// dpfl-ref pld {gaussian, laplace, discrete-gaussian, discrete-laplace, randomized-response, binomial, pmf, quantized-gaussian, compose, calibrate}: ε(δ) or δ(ε) of a
// (possibly Poisson-subsampled) mechanism composed K times, from its privacy loss distribution,
// printed as an outward-rounded enclosure (reference/include/dpfl/ref/pld*.hpp; docs/accounting.md).
// pld central and pld bench are in pld_central_commands.cpp.
#include <cstdio>
#include <ctime>
#include <memory>
#include <tuple>
#include <utility>
#include <string>
#include <vector>

#include "accounting_commands.hpp"
#include "pld_commands.hpp"
#include "pld_files.hpp"
#include "dpfl/ref/pld_accountant.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"

namespace dpfl::cli {

std::uint64_t ParseCompositions(const std::string& text) {
  const Rational k = ParseFlag(text, "--compositions");
  if (!ref::IsInteger(k) || k < 1 || k > Rational(1000000000))
    throw InvalidArgument("--compositions", "must be an integer in [1, 1e9], got " + text);
  return boost::multiprecision::numerator(k).convert_to<std::uint64_t>();
}

namespace {

namespace pld = ref::pld;

// The flags every pld command shares.
struct PldArgs {
  std::string compositions = "1", delta, epsilon, sampling_rate, adjacency, step, relative_width = "0.002",
              discretization = "connect-dots";
  bool progress = false;
  void Register(CLI::App* app, bool adjacency_flag) {
    app->add_option("--compositions", compositions, "number K >= 1 of compositions (default 1)");
    auto* d = app->add_option("--delta", delta, "delta in (0, 1): print epsilon_lo/epsilon_hi");
    auto* e = app->add_option("--epsilon", epsilon, "epsilon >= 0: print delta_lo/delta_hi");
    d->excludes(e);
    e->excludes(d);
    app->add_option("--sampling-rate", sampling_rate, "Poisson subsampling rate q in (0, 1] (add/remove adjacency)");
    if (adjacency_flag)
      app->add_option("--adjacency", adjacency, "add-remove | replace-one (default add-remove; see docs)");
    app->add_option("--step", step, "grid step h > 0 of the loss (default: chosen for --relative-width)");
    app->add_option("--relative-width", relative_width,
                    "target (hi - lo)/hi of the printed enclosure when --step is not given (default 0.002)");
    app->add_flag("--progress", progress, "print one line per refinement pass to stderr");
    app->add_option("--discretization", discretization,
                    "connect-dots (default: error ~K h^2; for pmf pairs and the Gaussian laws, others round) | "
                    "rounding (every loss rounded to the grid: error ~K h)");
  }
};


// Which adjacency the output names; throws where the pair does not model the relation.
std::string AdjacencyText(const std::string& flag, bool sampled, bool allow_add_remove, bool allow_replace) {
  const std::string a = flag.empty() ? (allow_add_remove ? "add-remove" : "replace-one") : flag;
  if (a != "add-remove" && a != "replace-one")
    throw InvalidArgument("--adjacency", "must be add-remove or replace-one, got '" + flag + "'");
  if (sampled) {
    if (a == "replace-one")
      throw InvalidArgument("--adjacency", "replace-one with --sampling-rate is not supported (the pairs here are "
                                           "the add/remove pairs of Poisson subsampling)");
    return "add/remove one record with Poisson subsampling at rate q: both directions (remove: P = (1-q)M(D') + "
           "q M(D), Q = M(D'); add: the reverse)";
  }
  if (a == "add-remove" && !allow_add_remove)
    throw InvalidArgument("--adjacency", "add-remove does not apply to this mechanism (its input changes, it is "
                                         "never absent): use replace-one");
  if (a == "replace-one" && !allow_replace)
    throw InvalidArgument("--adjacency", "replace-one does not apply to this mechanism");
  return a == "add-remove"
             ? "add/remove one record; --sensitivity bounds the query's change under it"
             : "replace one record; --sensitivity bounds the query's change under it (for a sum of contributions "
               "of norm <= C that is 2C)";
}

// `step_compositions` > 0: the builder composes that many steps inside (pld compose).
json RunPld(const std::string& mechanism, json parameters, const std::string& adjacency, const PldArgs& a,
            const std::function<pld::PldPair(const pld::GridOptions&)>& build, std::uint64_t step_compositions = 0) {
  if (a.delta.empty() == a.epsilon.empty())
    throw InvalidArgument("--delta", "give exactly one of --delta (for epsilon) and --epsilon (for delta)");
  const std::uint64_t k = ParseCompositions(a.compositions);
  pld::AccountOptions options;
  options.step_compositions = step_compositions;
  options.relative_width = ParseFlag(a.relative_width, "--relative-width");
  if (!(options.relative_width > 0 && options.relative_width < 1))
    throw InvalidArgument("--relative-width", "must be in (0, 1), got " + a.relative_width);
  if (a.progress) options.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  if (a.discretization == "connect-dots") {
    options.discretization = pld::Discretization::kConnectDots;
  } else if (a.discretization != "rounding") {
    throw InvalidArgument("--discretization", "must be connect-dots or rounding, got '" + a.discretization + "'");
  }
  if (!a.step.empty()) {
    options.step = ParseFlag(a.step, "--step");
    if (!(*options.step > 0)) throw InvalidArgument("--step", "must be > 0, got " + a.step);
  }
  const std::clock_t start = std::clock();
  json out;
  out["mechanism"] = mechanism;
  out["parameters"] = std::move(parameters);
  out["adjacency"] = adjacency;
  out["compositions"] = k;
  out["log"] = "natural";
  out["method"] = "privacy loss distribution: pessimistic (upper) and optimistic (lower) discretization, FFT "
                  "composition with a bounded floating-point error, both directions of the neighbouring relation";
  pld::AccountResult r;
  if (!a.delta.empty()) {
    const Rational delta = ParseFlag(a.delta, "--delta");
    if (!(delta > 0 && delta < 1)) throw InvalidArgument("--delta", "must be in (0, 1), got " + a.delta);
    r = pld::EpsilonOfComposition(build, k, delta, options);
    out["quantity"] = "epsilon(delta) = inf{eps >= 0 : delta(eps) <= delta}, enclosed";
    out["delta"] = a.delta;
    out["epsilon_lo"] = r.epsilon.lo ? ref::ToDecimalStringDown(*r.epsilon.lo, kPldDigits) : "inf";
    out["epsilon_hi"] = r.epsilon.hi ? ref::ToDecimalStringUp(*r.epsilon.hi, kPldDigits) : "inf";
    if (r.epsilon.lo && r.epsilon.hi && *r.epsilon.hi > 0)
      out["relative_width"] = ref::ToDecimalStringUp((*r.epsilon.hi - *r.epsilon.lo) / *r.epsilon.hi, 3);
  } else {
    const Rational eps = ParseFlag(a.epsilon, "--epsilon");
    if (eps < 0) throw InvalidArgument("--epsilon", "must be >= 0, got " + a.epsilon);
    r = pld::DeltaOfComposition(build, k, eps, options);
    out["quantity"] = "delta(epsilon) = hockey-stick divergence H_{e^eps}, enclosed";
    out["epsilon"] = a.epsilon;
    out["delta_lo"] = ref::ToDecimalStringDown(r.delta.lo, kPldDigits);
    out["delta_hi"] = ref::ToDecimalStringUp(r.delta.hi, kPldDigits);
  }
  out["discretization"] = a.discretization;
  out["grid_step"] = ref::ToExactString(r.step);
  out["passes"] = r.passes;
  out["grid_points"] = r.grid_points;
  out["cpu_seconds"] = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  return out;
}

pld::PldPair Sampled(const std::string& rate, const std::function<pld::PldPair()>& plain,
                     const std::function<pld::PldPair(const Rational&)>& sampled) {
  if (rate.empty()) return plain();
  return sampled(ParseFlag(rate, "--sampling-rate"));
}


// The binomial mechanism's pmfs, Bin(N, p) + Δ vs Bin(N, p), with N and Δ checked (integers,
// 1 ≤ Δ ≤ N ≤ 100000); errors name `trials_name` / `shift_name`.
std::pair<std::vector<Rational>, std::vector<Rational>> CheckedBinomialPmfs(const Rational& n, const Rational& p,
                                                                            const Rational& shift,
                                                                            const std::string& trials_name,
                                                                            const std::string& shift_name) {
  if (!ref::IsInteger(n) || n < 1 || n > 100000)
    throw InvalidArgument(trials_name, "must be an integer in [1, 100000], got " + ref::EchoValue(n));
  if (!ref::IsInteger(shift) || shift < 1 || shift > n)
    throw InvalidArgument(shift_name, "must be an integer in [1, N], got " + ref::EchoValue(shift));
  return pld::BinomialMechanismPmfs(boost::multiprecision::numerator(n).convert_to<long>(), p,
                                    boost::multiprecision::numerator(shift).convert_to<long>());
}

void RegisterGaussian(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand("gaussian", "Gaussian mechanism N(0, sigma^2) vs N(Delta, sigma^2)");
  struct Args : PldArgs { std::string sigma, sensitivity = "1"; };
  auto a = std::make_shared<Args>();
  app->add_option("--sigma", a->sigma, "noise standard deviation > 0")->required();
  app->add_option("--sensitivity", a->sensitivity, "l2 sensitivity Delta > 0 (default 1)");
  a->Register(app, true);
  commands.push_back({app, [a]() {
    const Rational sigma = ParseFlag(a->sigma, "--sigma"), sens = ParseFlag(a->sensitivity, "--sensitivity");
    json params = {{"sigma", a->sigma}, {"sensitivity", a->sensitivity}};
    if (!a->sampling_rate.empty()) params["sampling_rate"] = a->sampling_rate;
    const std::string adj = AdjacencyText(a->adjacency, !a->sampling_rate.empty(), true, true);
    return RunPld("gaussian", params, adj, *a, [&](const pld::GridOptions& g) {
      return Sampled(a->sampling_rate, [&] { return pld::GaussianPld(sigma, sens, g); },
                     [&](const Rational& q) { return pld::SubsampledGaussianPld(sigma, sens, q, g); });
    });
  }});
}

void RegisterLaplace(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand("laplace", "Laplace mechanism Lap(0, b) vs Lap(Delta, b)");
  struct Args : PldArgs { std::string b, sensitivity = "1"; };
  auto a = std::make_shared<Args>();
  app->add_option("--b", a->b, "Laplace scale b > 0")->required();
  app->add_option("--sensitivity", a->sensitivity, "l1 sensitivity Delta > 0 (default 1)");
  a->Register(app, true);
  commands.push_back({app, [a]() {
    const Rational b = ParseFlag(a->b, "--b"), sens = ParseFlag(a->sensitivity, "--sensitivity");
    json params = {{"b", a->b}, {"sensitivity", a->sensitivity}};
    if (!a->sampling_rate.empty()) params["sampling_rate"] = a->sampling_rate;
    const std::string adj = AdjacencyText(a->adjacency, !a->sampling_rate.empty(), true, true);
    return RunPld("laplace", params, adj, *a, [&](const pld::GridOptions& g) {
      return Sampled(a->sampling_rate, [&] { return pld::LaplacePld(b, sens, g); },
                     [&](const Rational& q) { return pld::SubsampledLaplacePld(b, sens, q, g); });
    });
  }});
}

// The exact discrete noises of dpfl's gaussian and laplace baselines on their integer grid: k + Z
// vs k' + Z with |k − k'| ≤ the integer sensitivity N (the pair at shift N dominates the smaller
// shifts; pld_discrete_gaussian.cpp). No subsampling: the baselines do not subsample.
void RegisterDiscreteNoise(CLI::App* group, std::vector<Command>& commands, bool gaussian) {
  auto* app = group->add_subcommand(gaussian ? "discrete-gaussian" : "discrete-laplace",
                                    gaussian ? "discrete Gaussian N_Z(0, sigma2) shifted by an integer N (dpfl's gaussian "
                                               "baseline on its grid)"
                                             : "discrete Laplace L_Z(t) shifted by an integer N (dpfl's laplace baseline "
                                               "on its grid)");
  struct Args : PldArgs { std::string scale, sensitivity = "1"; };
  auto a = std::make_shared<Args>();
  const std::string flag = gaussian ? "--sigma2" : "--t";
  app->add_option(flag, a->scale, gaussian ? "variance parameter sigma^2 > 0 (grid units squared; P(z) ~ exp(-z^2/(2 sigma2)))"
                                           : "scale t > 0 (grid units; P(z) ~ exp(-|z|/t))")
      ->required();
  app->add_option("--sensitivity", a->sensitivity, "integer shift N >= 1 in grid units (default 1)");
  a->Register(app, true);
  commands.push_back({app, [a, gaussian, flag]() {
    if (!a->sampling_rate.empty())
      throw InvalidArgument("--sampling-rate", "not supported for the discrete noises (dpfl's baselines do not subsample)");
    const Rational scale = ParseFlag(a->scale, flag), sens = ParseFlag(a->sensitivity, "--sensitivity");
    if (!ref::IsInteger(sens) || sens < 1 || sens > Rational(1L << 40))
      throw InvalidArgument("--sensitivity", "must be an integer in [1, 2^40], got " + a->sensitivity);
    const long n = boost::multiprecision::numerator(sens).convert_to<long>();
    const std::string adj = AdjacencyText(a->adjacency, false, false, true);
    json params = {{flag.substr(2), a->scale}, {"sensitivity", a->sensitivity}};
    return RunPld(gaussian ? "discrete-gaussian" : "discrete-laplace", params, adj, *a, [&](const pld::GridOptions& g) {
      return gaussian ? pld::DiscreteGaussianPld(scale, n, g) : pld::DiscreteLaplacePld(scale, n, g);
    });
  }});
}

void RegisterRandomizedResponse(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand("randomized-response", "one bit kept with probability p, flipped otherwise");
  struct Args : PldArgs { std::string p; };
  auto a = std::make_shared<Args>();
  app->add_option("--p", a->p, "keep probability in (1/2, 1)")->required();
  a->Register(app, true);
  commands.push_back({app, [a]() {
    if (!a->sampling_rate.empty())
      throw InvalidArgument("--sampling-rate", "randomized response has no law 'without the record'; give the "
                                               "pair you mean to subsample to `pld pmf`");
    const Rational p = ParseFlag(a->p, "--p");
    const std::string adj = AdjacencyText(a->adjacency, false, false, true);
    return RunPld("randomized-response", {{"p", a->p}}, adj, *a,
                  [&](const pld::GridOptions& g) { return pld::RandomizedResponsePld(p, g); });
  }});
}

void RegisterBinomial(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand("binomial", "binomial mechanism Bin(N, p) + Delta vs Bin(N, p), exact pmfs");
  struct Args : PldArgs { std::string trials, p, sensitivity = "1"; };
  auto a = std::make_shared<Args>();
  app->add_option("--trials", a->trials, "N, an integer in [1, 100000]")->required();
  app->add_option("--p", a->p, "success probability in (0, 1)")->required();
  app->add_option("--sensitivity", a->sensitivity, "integer shift Delta in [1, N] (default 1)");
  a->Register(app, true);
  commands.push_back({app, [a]() {
    const auto [P, Q] = CheckedBinomialPmfs(ParseFlag(a->trials, "--trials"), ParseFlag(a->p, "--p"),
                                            ParseFlag(a->sensitivity, "--sensitivity"), "--trials", "--sensitivity");
    json params = {{"trials", a->trials}, {"p", a->p}, {"sensitivity", a->sensitivity}};
    if (!a->sampling_rate.empty()) params["sampling_rate"] = a->sampling_rate;
    const std::string adj = AdjacencyText(a->adjacency, !a->sampling_rate.empty(), true, true);
    return RunPld("binomial", params, adj, *a, [&](const pld::GridOptions& g) {
      return Sampled(a->sampling_rate, [&] { return pld::TwoPmfPld(P, Q, g); },
                     [&](const Rational& q) { return pld::SubsampledTwoPmfPld(P, Q, q, g); });
    });
  }});
}

void RegisterPmf(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand("pmf", "any mechanism given by two exact pmfs p = M(D), q = M(D') (JSON file)");
  struct Args : PldArgs { std::string file; };
  auto a = std::make_shared<Args>();
  app->add_option("--file", a->file, "JSON {\"p\": [...], \"q\": [...]}, exact rationals as strings")->required();
  a->Register(app, false);
  commands.push_back({app, [a]() {
    const auto [P, Q] = ReadPmfPairFile(a->file);
    const std::string adj =
        a->sampling_rate.empty()
            ? "the pair given: p = M(D), q = M(D') for neighbouring D, D'; both directions"
            : "add/remove one record with Poisson subsampling at rate q: p is the law with the record, q without; "
              "both directions";
    json params = {{"file", a->file}, {"support", P.size()}};
    if (!a->sampling_rate.empty()) params["sampling_rate"] = a->sampling_rate;
    return RunPld("pmf", params, adj, *a, [&](const pld::GridOptions& g) {
      return Sampled(a->sampling_rate, [&] { return pld::TwoPmfPld(P, Q, g); },
                     [&](const Rational& q) { return pld::SubsampledTwoPmfPld(P, Q, q, g); });
    });
  }});
}

// One entry of a composition file (pld_files.hpp) as a PLD pair at grid g.
pld::PldPair BuildItem(const ComposeItem& it, const pld::GridOptions& g) {
  auto value = [&](const char* key, const Rational& fallback) {
    const auto f = it.values.find(key);
    return f == it.values.end() ? fallback : f->second;
  };
  const auto rate = it.values.find("sampling_rate");
  const bool sampled = rate != it.values.end();
  if (it.mechanism == "gaussian") {
    const Rational sigma = value("sigma", 0), sens = value("sensitivity", 1);
    return sampled ? pld::SubsampledGaussianPld(sigma, sens, rate->second, g) : pld::GaussianPld(sigma, sens, g);
  }
  if (it.mechanism == "laplace") {
    const Rational b = value("b", 0), sens = value("sensitivity", 1);
    return sampled ? pld::SubsampledLaplacePld(b, sens, rate->second, g) : pld::LaplacePld(b, sens, g);
  }
  if (it.mechanism == "randomized-response") return pld::RandomizedResponsePld(value("p", 0), g);
  // pmf, and binomial (its pmfs resolved once, before the passes: ResolveBinomials)
  const auto& [P, Q] = it.pmf;
  return sampled ? pld::SubsampledTwoPmfPld(P, Q, rate->second, g) : pld::TwoPmfPld(P, Q, g);
}

// pld compose: heterogeneous composition of the mechanisms of a JSON file, each K_i times, under
// one neighbouring relation for all of them.
void RegisterCompose(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand("compose", "heterogeneous composition: the mechanisms of a JSON file, each "
                                               "its own number of times (docs/accounting.md)");
  struct Args : PldArgs { std::string file; };
  auto a = std::make_shared<Args>();
  app->add_option("--file", a->file, "JSON {\"mechanisms\": [{\"mechanism\": \"gaussian\", \"sigma\": \"2\", "
                                     "\"compositions\": 10}, ...]}")->required();
  a->Register(app, true);
  commands.push_back({app, [a]() {
    if (!a->sampling_rate.empty())
      throw InvalidArgument("--sampling-rate", "give \"sampling_rate\" per mechanism in the file");
    if (!a->compositions.empty() && a->compositions != "1")
      throw InvalidArgument("--compositions", "give \"compositions\" per mechanism in the file");
    std::vector<ComposeItem> items = ReadComposeFile(a->file);
    for (ComposeItem& it : items)  // exact pmfs once, not at every grid pass
      if (it.mechanism == "binomial") {
        const auto sens = it.values.find("sensitivity");
        std::tie(it.pmf.p, it.pmf.q) = CheckedBinomialPmfs(it.values.at("trials"), it.values.at("p"),
                                                           sens == it.values.end() ? Rational(1) : sens->second,
                                                           "trials", "sensitivity");
      }
    bool any_sampled = false, any_rr = false;
    std::uint64_t total = 0;
    json list = json::array();
    for (const ComposeItem& it : items) {
      any_sampled = any_sampled || it.values.count("sampling_rate") > 0;
      any_rr = any_rr || it.mechanism == "randomized-response";
      total += it.compositions;
      json e = {{"mechanism", it.mechanism}, {"compositions", it.compositions}};
      for (const auto& [k, v] : it.values) e[k] = ref::ToExactString(v);
      if (it.mechanism == "pmf") e["support"] = it.pmf.p.size();
      list.push_back(e);
    }
    if (any_sampled && any_rr)
      throw InvalidArgument("--file", "randomized response (replace-one only) cannot be composed with a subsampled "
                                      "mechanism (add/remove only) under one neighbouring relation");
    // The relation every entry supports: RR only replace-one, sampling only add-remove.
    std::string adj = AdjacencyText(a->adjacency.empty() && any_rr ? "replace-one" : a->adjacency, any_sampled,
                                    !any_rr, true);
    if (any_sampled)
      adj = "add/remove one record; entries with sampling_rate are Poisson-subsampled at that rate (both directions)";
    for (std::size_t at; (at = adj.find("--sensitivity")) != std::string::npos;)
      adj.replace(at, 13, "each entry's \"sensitivity\"");
    PldArgs run = *a;
    run.compositions = "1";
    json out = RunPld("compose", {{"mechanisms", list}, {"total_compositions", total}}, adj, run,
                      [&](const pld::GridOptions& g) {
                        std::optional<pld::PldPair> acc;
                        for (const ComposeItem& it : items) {
                          pld::PldPair one = pld::SelfCompose(BuildItem(it, g), it.compositions, g.compose);
                          acc = acc ? pld::Compose(*acc, one, g.compose) : std::move(one);
                        }
                        return *acc;
                      },
                      total);  // the step rule sees every single step
    out["compositions"] = total;
    return out;
  }});
}

// Seed 003's quantized Gaussian: the spec's worst-case pair (E10, not proven) as the enclosure,
// and the unquantized Gaussian with Δ = C (proven, post-processing) as a second upper end.
void RegisterQuantizedGaussian(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand("quantized-gaussian", "seed 003: Q(x + N(0, sigma^2); k levels on [-C, C]) at "
                                                          "x = C/2 vs x = -C/2, pmfs enclosed (Lemma 2)");
  struct Args : PldArgs { std::string sigma, levels, clip = "1"; };
  auto a = std::make_shared<Args>();
  app->add_option("--sigma", a->sigma, "noise standard deviation > 0")->required();
  app->add_option("--levels", a->levels, "k >= 2 quantization levels")->required();
  app->add_option("--clip", a->clip, "C_q > 0 (default 1): inputs in [-C/2, C/2], levels on [-C, C]");
  a->Register(app, false);
  commands.push_back({app, [a]() {
    if (!a->sampling_rate.empty())
      throw InvalidArgument("--sampling-rate", "not supported for quantized-gaussian (replace-one adjacency)");
    ref::QuantizedGaussianParams q;
    q.sigma = ParseFlag(a->sigma, "sigma");
    const Rational k = ParseFlag(a->levels, "levels");
    if (!ref::IsInteger(k) || k < 2 || k > Rational(1L << 24))
      throw InvalidArgument("levels", "must be an integer in [2, 2^24], got " + a->levels);
    q.levels = boost::multiprecision::numerator(k).convert_to<long>();
    q.clip = ParseFlag(a->clip, "clip");
    ref::ValidateQuantizedGaussian(q);
    json params = {{"sigma", a->sigma}, {"levels", q.levels}, {"clip", a->clip}};
    json out = RunPld("quantized-gaussian", params, ref::kQuantizedGaussianAdjacency, *a,
                      [&](const pld::GridOptions& g) { return pld::QuantizedGaussianPld(q, g); });
    out["worst_case"] = "the pair x = C/2, x' = -C/2 (spec 003 §4.2, E10: asserted, verified numerically for Renyi "
                        "divergences, not proven): a lower bound on the worst case over inputs; "
                        "epsilon_hi_unquantized_gaussian / delta_hi_unquantized_gaussian (N(0, sigma^2) vs "
                        "N(C, sigma^2), post-processing) is a proven upper bound";
    pld::AccountOptions options;
    options.relative_width = ParseFlag(a->relative_width, "--relative-width");
    const std::uint64_t compositions = ParseCompositions(a->compositions);
    auto gauss = [&](const pld::GridOptions& g) { return pld::GaussianPld(q.sigma, q.clip, g); };
    if (!a->delta.empty()) {
      const pld::AccountResult u = pld::EpsilonOfComposition(gauss, compositions, ParseFlag(a->delta, "--delta"), options);
      out["epsilon_hi_unquantized_gaussian"] = u.epsilon.hi ? ref::ToDecimalStringUp(*u.epsilon.hi, kPldDigits) : "inf";
    } else {
      const pld::AccountResult u = pld::DeltaOfComposition(gauss, compositions, ParseFlag(a->epsilon, "--epsilon"), options);
      out["delta_hi_unquantized_gaussian"] = ref::ToDecimalStringUp(u.delta.hi, kPldDigits);
    }
    return out;
  }});
}

// pld calibrate: the σ bracket of the (Poisson-sampled) Gaussian for a target (ε, δ) after K steps.
void RegisterCalibrate(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand(
      "calibrate", "sigma for a target (eps, delta): Gaussian of sensitivity 1, optionally Poisson-sampled, K steps");
  struct Args {
    std::string epsilon, delta, compositions = "1", sampling_rate = "1", tolerance = "0.01", relative_width = "0.002";
  };
  auto a = std::make_shared<Args>();
  app->add_option("--epsilon", a->epsilon, "target epsilon > 0")->required();
  app->add_option("--delta", a->delta, "target delta in (0, 1)")->required();
  app->add_option("--compositions", a->compositions, "number K >= 1 of steps (default 1)");
  app->add_option("--sampling-rate", a->sampling_rate, "Poisson sampling rate q in (0, 1] (default 1: not sampled)");
  app->add_option("--tolerance", a->tolerance, "stop when (sigma_hi - sigma_lo)/sigma_hi <= this (default 0.01)");
  app->add_option("--relative-width", a->relative_width, "the accountant's width at each evaluation (default 0.002)");
  commands.push_back({app, [a]() {
    const std::clock_t start = std::clock();
    pld::AccountantOptions o;
    o.relative_width = ParseFlag(a->relative_width, "--relative-width");
    if (!(o.relative_width > 0 && o.relative_width < 1))
      throw InvalidArgument("--relative-width", "must be in (0, 1), got " + a->relative_width);
    const pld::SigmaBracket b = pld::CalibrateGaussianSigma(
        ParseFlag(a->epsilon, "--epsilon"), ParseFlag(a->delta, "--delta"), ParseCompositions(a->compositions),
        ParseFlag(a->sampling_rate, "--sampling-rate"), ParseFlag(a->tolerance, "--tolerance"), o);
    json out;
    out["mechanism"] = "gaussian";
    out["parameters"] = {{"sensitivity", "1"}, {"sampling_rate", a->sampling_rate}};
    out["compositions"] = ParseCompositions(a->compositions);
    out["epsilon"] = a->epsilon;
    out["delta"] = a->delta;
    out["quantity"] = "sigma bracket: at sigma_hi the composition is (epsilon, delta)-DP (PLD upper end), at sigma_lo "
                      "it is not (PLD lower end); the least sigma lies in between";
    out["sigma_lo"] = ref::ToDecimalStringDown(b.lo, kPldDigits);
    out["sigma_hi"] = ref::ToDecimalStringUp(b.hi, kPldDigits);
    out["evaluations"] = b.evaluations;
    out["undecided"] = b.undecided;
    out["cpu_seconds"] = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    return out;
  }});
}

}  // namespace

void RegisterPldCommands(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* group = SubcommandGroup(root, "pld", "privacy loss distribution accountant: enclosures of eps(delta) or "
                                                 "delta(eps) under composition");
  AddGroupDispatcher(group, commands);
  RegisterGaussian(group, commands);
  RegisterLaplace(group, commands);
  RegisterDiscreteNoise(group, commands, true);
  RegisterDiscreteNoise(group, commands, false);
  RegisterRandomizedResponse(group, commands);
  RegisterBinomial(group, commands);
  RegisterPmf(group, commands);
  RegisterQuantizedGaussian(group, commands);
  RegisterCompose(group, commands);
  RegisterCalibrate(group, commands);
  RegisterPldCentral(group, commands);
  RegisterPldBench(group, commands);
}

}  // namespace dpfl::cli
