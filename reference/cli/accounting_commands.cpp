// dpfl-ref rdp {gaussian, sampled-gaussian, randomized-response, laplace}, accountant,
// calibrate {gaussian-analytic, gaussian-classic}, bnn, bnn-gamma-max, bnn-exact-delta,
// binomial-mechanism (issue 3; spec 004 for the DPFL-BNN commands, spec 000 §4.4 for the binomial
// mechanism). Every output names its adjacency notion.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "dpfl/ref/accountant.hpp"
#include "dpfl/ref/corbin_fl_privacy.hpp"
#include "dpfl/ref/gaussian.hpp"
#include "dpfl/ref/laplace.hpp"
#include "dpfl/ref/randomized_response.hpp"
#include "dpfl/ref/sampled_gaussian.hpp"

namespace dpfl::cli {
namespace {

constexpr const char* kSensitivityAdjacency =
    "any neighbouring relation under which the query's sensitivity is at most --sensitivity "
    "(add/remove or replace-one, as the caller's sensitivity encodes)";
constexpr const char* kPoissonAdjacency = "add/remove one record (Poisson subsampling, rate q)";
constexpr const char* kRrAdjacency = "replace-one (the input bit may change arbitrarily; spec 004 E7)";
constexpr const char* kBinomialAdjacency =
    "any neighbouring relation under which the integer-valued query moves by at most Delta1, Delta2, "
    "Delta_inf in l1, l2, l_inf (cpSGD Theorem 1; spec 000 Thm 3 uses replace-one client)";

// A subcommand group: creates `name` once and registers a dispatcher that runs whichever child
// command was parsed (main stops at the first parsed command, group or child).
CLI::App* Group(CLI::App& root, const std::string& name, const std::string& help) {
  const std::vector<CLI::App*> found = root.get_subcommands([&](CLI::App* a) { return a->get_name() == name; });
  if (!found.empty()) return found.front();
  CLI::App* group = root.add_subcommand(name, help);
  group->require_subcommand(1);
  return group;
}
void AddDispatcher(CLI::App* group, std::vector<Command>& commands) {
  std::vector<Command>* all = &commands;
  commands.push_back({group, [group, all]() -> json {
    for (const Command& c : *all)
      if (c.app != group && c.app->get_parent() == group && c.app->parsed()) return c.run();
    throw InvalidArgument(group->get_name(), "a subcommand is required (see --help)");
  }});
}

std::vector<Rational> ParseOrders(const std::string& text) {
  if (text.empty()) return ref::DefaultOrders();
  std::vector<Rational> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string token = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (token.empty()) throw InvalidArgument("--orders", "empty entry in '" + text + "'");
    const Rational a = ParseFlag(token, "--orders");
    if (!(a > 1)) throw InvalidArgument("--orders", "every order must be > 1, got " + token);
    out.push_back(a);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Rational Order(const std::string& text) {
  const Rational a = ParseFlag(text, "--order");
  if (!(a > 1)) throw InvalidArgument("--order", "must be > 1, got " + text);
  return a;
}

JsonResult Result(const std::string& quantity, const std::string& adjacency, int bits) {
  ref::ValidatePrecision(bits);
  JsonResult out(false, bits);
  out.PutRaw("quantity", quantity);
  out.PutRaw("adjacency", adjacency);
  out.PutRaw("log", "natural");
  return out;
}

}  // namespace

CLI::App* RdpGroup(CLI::App& root) {
  return Group(root, "rdp", "Renyi DP of one mechanism at one order (natural logs, order > 1)");
}

void RegisterAccountingCommands(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* rdp = RdpGroup(root);
  AddDispatcher(rdp, commands);
  {
    auto* app = rdp->add_subcommand("gaussian", "Gaussian mechanism: order * Delta^2 / (2 sigma^2), exact");
    struct Args { std::string sigma, order, sensitivity = "1"; int bits = 256; };
    auto a = std::make_shared<Args>();
    app->add_option("--sigma", a->sigma, "noise standard deviation > 0")->required();
    app->add_option("--order", a->order, "Renyi order > 1")->required();
    app->add_option("--sensitivity", a->sensitivity, "l2 sensitivity Delta > 0 (default 1)");
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      const Rational v = ref::GaussianRdp(ParseFlag(a->sigma, "--sigma"), Order(a->order),
                                          ParseFlag(a->sensitivity, "--sensitivity"));
      JsonResult out = Result("RDP of the Gaussian mechanism (Mironov 2017, Prop. 7)", kSensitivityAdjacency, a->bits);
      out.Put("value", Interval(v));
      out.Put("value_exact", v);
      return std::move(out).Finish();
    }});
  }
  {
    auto* app = rdp->add_subcommand("sampled-gaussian", "Poisson-sampled Gaussian mechanism (Mironov, Talwar, Zhang 2019)");
    struct Args { std::string q, sigma, order; int bits = 256; int max_terms = 200; };
    auto a = std::make_shared<Args>();
    app->add_option("--q", a->q, "sampling rate in (0, 1]")->required();
    app->add_option("--sigma", a->sigma, "noise multiplier > 0")->required();
    app->add_option("--order", a->order, "Renyi order > 1 (integer or fractional)")->required();
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    app->add_option("--max-terms", a->max_terms, "fractional orders: series terms (default 200)");
    commands.push_back({app, [a]() {
      ref::SgmOptions options;
      options.precision_bits = a->bits;
      if (a->max_terms < 1 || a->max_terms > 100000) throw InvalidArgument("--max-terms", "must be in [1, 100000]");
      options.max_terms = a->max_terms;
      JsonResult out = Result("RDP of the sampled Gaussian mechanism, per step", kPoissonAdjacency, a->bits);
      const ref::SgmRdp v = ref::SampledGaussianRdp(ParseFlag(a->q, "--q"), ParseFlag(a->sigma, "--sigma"),
                                                    Order(a->order), options);
      out.Put("value", v.value);
      out.PutRaw("method", v.integer_order ? "integer-order binomial expansion (exact coefficients)"
                                           : "fractional-order two-series formula, tail by Euler transformation with a rigorous remainder");
      if (!v.integer_order) out.PutRaw("series_terms", v.terms);
      return std::move(out).Finish();
    }});
  }
  {
    auto* app = rdp->add_subcommand("randomized-response", "one randomized-response bit, keep probability p");
    struct Args { std::string p, order; int bits = 256; };
    auto a = std::make_shared<Args>();
    app->add_option("--p", a->p, "keep probability in (0, 1)")->required();
    app->add_option("--order", a->order, "Renyi order > 1")->required();
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      const Rational p = ParseFlag(a->p, "--p");
      const Rational order = Order(a->order);
      JsonResult out = Result("RDP of randomized response (Mironov 2017, Table II; spec 004 Lemma 3)", kRrAdjacency, a->bits);
      out.Put("value", ref::RrRdp(p, order, a->bits));
      out.Put("kl", ref::RrKl(p, a->bits));
      out.Put("infinity", ref::RrInfinity(p, a->bits));
      if (ref::IsInteger(order)) {
        const unsigned long k = static_cast<unsigned long>(boost::multiprecision::numerator(order));
        if (k <= 10000) out.Put("S_exact", ref::RrSInteger(p, k));
      }
      return std::move(out).Finish();
    }});
  }
  {
    auto* app = rdp->add_subcommand("laplace", "Laplace mechanism with scale b (Mironov 2017, Table II)");
    struct Args { std::string b, order, sensitivity = "1"; int bits = 256; };
    auto a = std::make_shared<Args>();
    app->add_option("--b", a->b, "Laplace scale b > 0")->required();
    app->add_option("--order", a->order, "Renyi order > 1")->required();
    app->add_option("--sensitivity", a->sensitivity, "l1 sensitivity Delta > 0 (default 1)");
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      const Rational b = ParseFlag(a->b, "--b"), s = ParseFlag(a->sensitivity, "--sensitivity");
      JsonResult out = Result("RDP of the Laplace mechanism", kSensitivityAdjacency, a->bits);
      out.Put("value", ref::LaplaceRdp(b, Order(a->order), s, a->bits));
      out.Put("kl", ref::LaplaceKl(b, s, a->bits));
      out.Put("pure_epsilon", ref::LaplacePureEpsilon(b, s));
      return std::move(out).Finish();
    }});
  }
  {
    auto* app = root.add_subcommand("accountant", "RDP accountant: composition over steps, best-order (eps, delta)");
    struct Args { std::string mechanism, q, sigma, steps, delta, orders, conversion = "classic"; int bits = 256; };
    auto a = std::make_shared<Args>();
    app->add_option("--mechanism", a->mechanism, "sampled-gaussian")->required();
    app->add_option("--q", a->q, "sampling rate in (0, 1]")->required();
    app->add_option("--sigma", a->sigma, "noise multiplier > 0")->required();
    app->add_option("--steps", a->steps, "number of steps T >= 1")->required();
    app->add_option("--delta", a->delta, "delta in (0, 1)")->required();
    app->add_option("--orders", a->orders, "comma-separated orders > 1 (default 1.25,1.5,...,10,11,...,64)");
    app->add_option("--conversion", a->conversion, "classic | improved (default classic)");
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      if (a->mechanism != "sampled-gaussian")
        throw InvalidArgument("--mechanism", "must be 'sampled-gaussian', got '" + a->mechanism + "'");
      const ref::Conversion conversion = ref::ParseConversion(a->conversion, "--conversion");
      ref::SgmOptions options;
      options.precision_bits = a->bits;
      JsonResult out = Result("(eps, delta) of T steps of the sampled Gaussian mechanism via RDP", kPoissonAdjacency, a->bits);
      const ref::AccountantResult r = ref::SampledGaussianAccountant(
          ParseFlag(a->q, "--q"), ParseFlag(a->sigma, "--sigma"), ParseFlag(a->steps, "--steps"),
          ParseFlag(a->delta, "--delta"), ParseOrders(a->orders), conversion, options);
      out.Put("epsilon", r.epsilon);
      out.Put("order", r.order);
      out.Put("rdp_total", r.rdp_total);
      out.PutRaw("conversion", a->conversion);
      return std::move(out).Finish();
    }});
  }
  {
    CLI::App* calibrate = Group(root, "calibrate", "noise calibration for a target (eps, delta)");
    AddDispatcher(calibrate, commands);
    struct Args { std::string eps, delta, sensitivity = "1"; int bits = 256; };
    for (const bool analytic : {true, false}) {
      auto* app = calibrate->add_subcommand(analytic ? "gaussian-analytic" : "gaussian-classic",
                                            analytic ? "smallest sigma (Balle & Wang 2018), rigorous bracket"
                                                     : "Delta*sqrt(2 ln(1.25/delta))/eps (Dwork & Roth, eps < 1)");
      auto a = std::make_shared<Args>();
      app->add_option("--eps", a->eps, "eps > 0")->required();
      app->add_option("--delta", a->delta, "delta in (0, 1)")->required();
      app->add_option("--sensitivity", a->sensitivity, "l2 sensitivity > 0 (default 1)");
      app->add_option("--precision", a->bits, "MPFR bits (default 256)");
      commands.push_back({app, [a, analytic]() {
        const Rational eps = ParseFlag(a->eps, "--eps"), delta = ParseFlag(a->delta, "--delta");
        const Rational sens = ParseFlag(a->sensitivity, "--sensitivity");
        JsonResult out = Result(analytic ? "analytic Gaussian calibration (Balle & Wang 2018, Thm 8)"
                                         : "classical Gaussian calibration (Dwork & Roth 2014, Thm A.1)",
                                kSensitivityAdjacency, a->bits);
        if (analytic) {
          const ref::AnalyticSigma s = ref::AnalyticGaussianSigma(eps, delta, sens, a->bits);
          out.Put("sigma", s.sigma);
          out.PutRaw("bisection_iterations", s.iterations);
          out.PutRaw("reached_tolerance", s.reached_tolerance);
        } else {
          out.Put("sigma", ref::GaussianClassicSigma(eps, delta, sens, a->bits));
          out.PutRaw("valid_regime", "eps < 1");
        }
        return std::move(out).Finish();
      }});
    }
  }
  {
    auto* app = root.add_subcommand("bnn", "spec 004 DPFL-BNN accountant: eps_thm1, eps_rdp_opt, eps_exact, T*h*ell");
    struct Args { std::string gamma, rounds = "1", hamming = "1", delta; int bits = 256; };
    auto a = std::make_shared<Args>();
    app->add_option("--gamma", a->gamma, "RR bias gamma in [0, 1/2) (keep probability 1/2 + gamma)")->required();
    app->add_option("--rounds", a->rounds, "rounds T >= 1 (default 1)");
    app->add_option("--hamming", a->hamming, "differing coordinates h >= 1 (paper: 1; corrected: model dimension d)");
    app->add_option("--delta", a->delta, "delta in (0, 1)")->required();
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      ref::BnnSetting s;
      s.gamma = ParseFlag(a->gamma, "--gamma");
      s.rounds = ParseFlag(a->rounds, "--rounds");
      s.hamming = ParseFlag(a->hamming, "--hamming");
      s.delta = ParseFlag(a->delta, "--delta");
      s.precision_bits = a->bits;
      JsonResult out = Result("spec 004 DPFL-BNN privacy after T rounds of h RR bits", kRrAdjacency, a->bits);
      out.Put("eps_thm1", ref::BnnEpsilonThm1(s));
      const ref::RdpOptimum opt = ref::BnnEpsilonRdpOpt(s);
      out.Put("eps_rdp_opt", opt.epsilon);
      if (opt.order) out.Put("alpha_opt", Interval(*opt.order));
      else out.PutRaw("alpha_opt", "infinity");
      const Rational k = s.rounds * s.hamming;
      if (k <= 20000) out.Put("eps_exact", ref::BnnEpsilonExact(s));
      else out.PutRaw("eps_exact", "not computed (k = T*h > 20000)");
      out.Put("eps_pure", Interval(k) * ref::RrInfinity(Rational(Rational(1, 2) + s.gamma), a->bits));
      return std::move(out).Finish();
    }});
  }
  {
    auto* app = root.add_subcommand("bnn-gamma-max", "spec 004 Theorem 1: gamma_max as printed (E3) and corrected");
    struct Args { std::string eps, delta, rounds = "1", hamming = "1"; int bits = 256; };
    auto a = std::make_shared<Args>();
    app->add_option("--eps", a->eps, "eps > 0")->required();
    app->add_option("--delta", a->delta, "delta in (0, 1)")->required();
    app->add_option("--rounds", a->rounds, "rounds T >= 1 (default 1)");
    app->add_option("--hamming", a->hamming, "h >= 1 for the corrected form (default 1)");
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      const Rational eps = ParseFlag(a->eps, "--eps"), delta = ParseFlag(a->delta, "--delta");
      const Rational rounds = ParseFlag(a->rounds, "--rounds"), h = ParseFlag(a->hamming, "--hamming");
      JsonResult out = Result("spec 004 Theorem 1 gamma_max", kRrAdjacency, a->bits);
      out.Put("alpha_star", ref::BnnAlphaStar(eps, delta, a->bits));
      out.Put("gamma_max_as_printed", ref::BnnGammaMax(eps, delta, rounds, h, true, a->bits));
      out.Put("gamma_max_corrected", ref::BnnGammaMax(eps, delta, rounds, h, false, a->bits));
      return std::move(out).Finish();
    }});
  }
  {
    auto* app = root.add_subcommand("binomial-mechanism",
                                    "cpSGD Theorem 1 (binomial mechanism, spec 000 §4.4): eps and its precondition");
    struct Args { std::string N, p, s, l1, l2, linf, dim, delta; int bits = 256; };
    auto a = std::make_shared<Args>();
    app->add_option("--N", a->N, "binomial trials N > 0")->required();
    app->add_option("--p", a->p, "binomial parameter p in (0, 1)")->required();
    app->add_option("--s", a->s, "quantization scale s > 0")->required();
    app->add_option("--l1", a->l1, "l1 sensitivity Delta1 >= 0")->required();
    app->add_option("--l2", a->l2, "l2 sensitivity Delta2 >= 0")->required();
    app->add_option("--linf", a->linf, "l_inf sensitivity Delta_inf >= 0")->required();
    app->add_option("--dim", a->dim, "dimension d >= 1 (integer)")->required();
    app->add_option("--delta", a->delta, "delta in (0, 1)")->required();
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      ref::CpSgdParams c;
      c.N = ParseFlag(a->N, "--N");
      c.p = ParseFlag(a->p, "--p");
      c.s = ParseFlag(a->s, "--s");
      c.sens1 = ParseFlag(a->l1, "--l1");
      c.sens2 = ParseFlag(a->l2, "--l2");
      c.sens_inf = ParseFlag(a->linf, "--linf");
      c.d_dim = ParseFlag(a->dim, "--dim");
      c.delta = ParseFlag(a->delta, "--delta");
      c.precision_bits = a->bits;
      ref::CpSgdEpsilon r;
      try {
        r = ref::CpSgdTheorem1(c);
      } catch (const InvalidArgument& e) {  // the library names its fields; report the flags
        const std::string& arg = e.argument();
        const std::string flag = arg == "Delta1" ? "--l1" : arg == "Delta2" ? "--l2" : arg == "Delta_inf" ? "--linf"
                               : arg == "d_dim" ? "--dim" : "--" + arg;
        std::string what = e.what();
        throw InvalidArgument(flag, what.substr(std::min(what.size(), arg.size() + 2)));
      }
      JsonResult out = Result("cpSGD Theorem 1: (eps, delta)-DP of the binomial mechanism Bin(N, p) at scale s",
                              kBinomialAdjacency, a->bits);
      out.Put("epsilon", r.epsilon);
      out.Put("b_p", r.b_p);
      out.Put("c_p", r.c_p);
      out.Put("d_p", r.d_p);
      for (size_t i = 0; i < r.terms.size(); ++i) out.Put("terms", std::to_string(i), r.terms[i]);
      out.Put("precondition", "lhs", r.precondition.lhs);
      out.Put("precondition", "rhs", r.precondition.rhs);
      json result = std::move(out).Finish();
      result["precondition"]["holds"] = r.precondition.holds;
      result["notes"] = {{"precondition", "N p (1-p) >= max(23 ln(10 d / delta), 2 Delta_inf / s): Theorem 1 "
                                          "applies only when holds is true"},
                         {"epsilon", "sum of the three terms of spec 000 §4.4 (natural logs)"}};
      return result;
    }});
  }
  {
    auto* app = root.add_subcommand("bnn-exact-delta", "spec 004 §4.6: tight delta(eps) of k RR bits");
    struct Args { std::string eps, gamma, k; int bits = 256; };
    auto a = std::make_shared<Args>();
    app->add_option("--eps", a->eps, "eps >= 0")->required();
    app->add_option("--gamma", a->gamma, "gamma in [0, 1/2)")->required();
    app->add_option("--k", a->k, "k = T*h bits, 1..20000")->required();
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      JsonResult out = Result("spec 004 exact privacy profile delta(eps)", kRrAdjacency, a->bits);
      out.Put("delta", ref::BnnExactDelta(ParseFlag(a->eps, "--eps"), ParseFlag(a->gamma, "--gamma"),
                                          ParseFlag(a->k, "--k"), a->bits));
      return std::move(out).Finish();
    }});
  }
}

}  // namespace dpfl::cli
