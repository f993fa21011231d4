// dpfl-ref accounting commands: rdp {gaussian, sampled-gaussian, randomized-response, laplace}
// (accounting_rdp_commands.cpp), accountant, calibrate {gaussian-analytic, gaussian-classic},
// binomial-mechanism (this file), bnn, bnn-gamma-max, bnn-exact-delta
// (accounting_bnn_commands.cpp). The formulas and their sources are in docs/accounting.md; the
// DPFL-BNN commands follow spec 004 and the binomial mechanism spec 000 §4.4. Every output
// names its adjacency notion.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "accounting_commands.hpp"
#include "dpfl/ref/accountant.hpp"
#include "dpfl/ref/corbin_fl_privacy.hpp"
#include "dpfl/ref/gaussian.hpp"
#include "dpfl/ref/sampled_gaussian.hpp"

namespace dpfl::cli {

CLI::App* SubcommandGroup(CLI::App& root, const std::string& name, const std::string& help) {
  const std::vector<CLI::App*> found = root.get_subcommands([&](CLI::App* a) { return a->get_name() == name; });
  if (!found.empty()) return found.front();
  CLI::App* group = root.add_subcommand(name, help);
  group->require_subcommand(1);
  return group;
}

void AddGroupDispatcher(CLI::App* group, std::vector<Command>& commands) {
  std::vector<Command>* all = &commands;
  commands.push_back({group, [group, all]() -> json {
    for (const Command& c : *all)
      if (c.app != group && c.app->get_parent() == group && c.app->parsed()) return c.run();
    throw InvalidArgument(group->get_name(), "a subcommand is required (see --help)");
  }});
}

std::vector<Rational> ParseOrdersFlag(const std::string& text) {
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

Rational ParseOrderFlag(const std::string& text) {
  const Rational a = ParseFlag(text, "--order");
  if (!(a > 1)) throw InvalidArgument("--order", "must be > 1, got " + text);
  return a;
}

JsonResult AccountingResult(const std::string& quantity, const std::string& adjacency, int bits) {
  ref::ValidatePrecision(bits);
  JsonResult out(false, bits);
  out.PutRaw("quantity", quantity);
  out.PutRaw("adjacency", adjacency);
  out.PutRaw("log", "natural");
  return out;
}

CLI::App* RdpGroup(CLI::App& root) {
  return SubcommandGroup(root, "rdp", "Renyi DP of one mechanism at one order (natural logs, order > 1)");
}

void RegisterAccountingCommands(CLI::App& root, std::vector<Command>& commands) {
  RegisterRdpCommands(root, commands);
  RegisterAccountantCommand(root, commands);
  RegisterCalibrateCommands(root, commands);
  RegisterBnnCommand(root, commands);
  RegisterBnnGammaMaxCommand(root, commands);
  RegisterBinomialMechanismCommand(root, commands);
  RegisterBnnExactDeltaCommand(root, commands);
  RegisterPldCommands(root, commands);
}

void RegisterAccountantCommand(CLI::App& root, std::vector<Command>& commands) {
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
    JsonResult out = AccountingResult("(eps, delta) of T steps of the sampled Gaussian mechanism via RDP",
                                      kPoissonAdjacency, a->bits);
    const ref::AccountantResult r = ref::SampledGaussianAccountant(
        ParseFlag(a->q, "--q"), ParseFlag(a->sigma, "--sigma"), ParseFlag(a->steps, "--steps"),
        ParseFlag(a->delta, "--delta"), ParseOrdersFlag(a->orders), conversion, options);
    out.Put("epsilon", r.epsilon);
    out.Put("order", r.order);
    out.Put("rdp_total", r.rdp_total);
    out.PutRaw("conversion", a->conversion);
    return std::move(out).Finish();
  }});
}

namespace {

// calibrate gaussian-analytic and gaussian-classic take the same flags.
struct CalibrateArgs { std::string eps, sigma, delta, sensitivity = "1"; int bits = 256; };
std::shared_ptr<CalibrateArgs> AddCalibrateOptions(CLI::App* app) {
  auto a = std::make_shared<CalibrateArgs>();
  app->add_option("--eps", a->eps, "eps > 0")->required();
  app->add_option("--delta", a->delta, "delta in (0, 1)")->required();
  app->add_option("--sensitivity", a->sensitivity, "l2 sensitivity > 0 (default 1)");
  app->add_option("--precision", a->bits, "MPFR bits (default 256)");
  return a;
}

void RegisterCalibrateGaussianAnalytic(CLI::App* calibrate, std::vector<Command>& commands) {
  auto* app = calibrate->add_subcommand(
      "gaussian-analytic", "smallest sigma for (eps, delta), or with --sigma the smallest eps for (sigma, delta) "
                           "(Balle & Wang 2018), rigorous brackets");
  auto a = std::make_shared<CalibrateArgs>();
  auto* eps = app->add_option("--eps", a->eps, "eps > 0: calibrate sigma");
  auto* sigma = app->add_option("--sigma", a->sigma, "sigma > 0: compute eps (exclusive with --eps)");
  eps->excludes(sigma);
  sigma->excludes(eps);
  app->add_option("--delta", a->delta, "delta in (0, 1)")->required();
  app->add_option("--sensitivity", a->sensitivity, "l2 sensitivity > 0 (default 1)");
  app->add_option("--precision", a->bits, "MPFR bits (default 256)");
  commands.push_back({app, [a]() {
    if (a->eps.empty() == a->sigma.empty())
      throw InvalidArgument("--eps", "give exactly one of --eps (to calibrate sigma) and --sigma (to compute eps)");
    const Rational delta = ParseFlag(a->delta, "--delta");
    const Rational sens = ParseFlag(a->sensitivity, "--sensitivity");
    if (!a->sigma.empty()) {
      JsonResult out = AccountingResult("eps of the Gaussian mechanism at (sigma, delta): the smallest eps with "
                                        "delta(eps) <= delta (Balle & Wang 2018, Thm 8)",
                                        kSensitivityAdjacency, a->bits);
      const ref::AnalyticEpsilon e = ref::AnalyticGaussianEpsilon(ParseFlag(a->sigma, "--sigma"), delta, sens, a->bits);
      out.Put("epsilon", e.epsilon);
      out.PutRaw("epsilon_lo", ref::ToDecimalStringDown(e.epsilon.lo(), 17));
      out.PutRaw("epsilon_hi", ref::ToDecimalStringUp(e.epsilon.hi(), 17));
      out.PutRaw("bisection_iterations", e.iterations);
      out.PutRaw("reached_tolerance", e.reached_tolerance);
      return std::move(out).Finish();
    }
    JsonResult out = AccountingResult("analytic Gaussian calibration (Balle & Wang 2018, Thm 8)",
                                      kSensitivityAdjacency, a->bits);
    const ref::AnalyticSigma s = ref::AnalyticGaussianSigma(ParseFlag(a->eps, "--eps"), delta, sens, a->bits);
    out.Put("sigma", s.sigma);
    out.PutRaw("bisection_iterations", s.iterations);
    out.PutRaw("reached_tolerance", s.reached_tolerance);
    return std::move(out).Finish();
  }});
}

void RegisterCalibrateGaussianClassic(CLI::App* calibrate, std::vector<Command>& commands) {
  auto* app = calibrate->add_subcommand("gaussian-classic",
                                        "Delta*sqrt(2 ln(1.25/delta))/eps (Dwork & Roth, eps < 1)");
  auto a = AddCalibrateOptions(app);
  commands.push_back({app, [a]() {
    const Rational eps = ParseFlag(a->eps, "--eps"), delta = ParseFlag(a->delta, "--delta");
    const Rational sens = ParseFlag(a->sensitivity, "--sensitivity");
    JsonResult out = AccountingResult("classical Gaussian calibration (Dwork & Roth 2014, Thm A.1)",
                                      kSensitivityAdjacency, a->bits);
    out.Put("sigma", ref::GaussianClassicSigma(eps, delta, sens, a->bits));
    out.PutRaw("valid_regime", "eps < 1");
    return std::move(out).Finish();
  }});
}

}  // namespace

void RegisterCalibrateCommands(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* calibrate = SubcommandGroup(root, "calibrate", "noise calibration for a target (eps, delta)");
  AddGroupDispatcher(calibrate, commands);
  RegisterCalibrateGaussianAnalytic(calibrate, commands);
  RegisterCalibrateGaussianClassic(calibrate, commands);
}

namespace {

// CLI-only: runs ref::CpSgdTheorem1 and, on InvalidArgument, renames the library's field
// (Delta1, Delta2, Delta_inf, d_dim, ...) to the flag the user typed (--l1, --l2, --linf, --dim, ...).
ref::CpSgdEpsilon CpSgdTheorem1NamingFlags(const ref::CpSgdParams& c) {
  try {
    return ref::CpSgdTheorem1(c);
  } catch (const InvalidArgument& e) {
    const std::string& arg = e.argument();
    const std::string flag = arg == "Delta1" ? "--l1" : arg == "Delta2" ? "--l2" : arg == "Delta_inf" ? "--linf"
                           : arg == "d_dim" ? "--dim" : "--" + arg;
    std::string what = e.what();
    throw InvalidArgument(flag, what.substr(std::min(what.size(), arg.size() + 2)));
  }
}

// The JSON of `binomial-mechanism`: the three terms of eps, the precondition and notes on both.
json BinomialMechanismJson(const ref::CpSgdEpsilon& r, int bits) {
  JsonResult out = AccountingResult("cpSGD Theorem 1: (eps, delta)-DP of the binomial mechanism Bin(N, p) at scale s",
                                    kBinomialAdjacency, bits);
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
}

}  // namespace

void RegisterBinomialMechanismCommand(CLI::App& root, std::vector<Command>& commands) {
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
    return BinomialMechanismJson(CpSgdTheorem1NamingFlags(c), a->bits);
  }});
}

}  // namespace dpfl::cli
