// dpfl-ref rdp {gaussian, sampled-gaussian, randomized-response, laplace}: Renyi DP of one
// mechanism at one order (docs/accounting.md; spec 004 for randomized response). The group also
// holds `rdp quantized-gaussian`, registered by noise_commands.cpp.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accounting_commands.hpp"
#include "dpfl/ref/gaussian.hpp"
#include "dpfl/ref/laplace.hpp"
#include "dpfl/ref/randomized_response.hpp"
#include "dpfl/ref/sampled_gaussian.hpp"

namespace dpfl::cli {
namespace {

void RegisterRdpGaussian(CLI::App* rdp, std::vector<Command>& commands) {
  auto* app = rdp->add_subcommand("gaussian", "Gaussian mechanism: order * Delta^2 / (2 sigma^2), exact");
  struct Args { std::string sigma, order, sensitivity = "1"; int bits = 256; };
  auto a = std::make_shared<Args>();
  app->add_option("--sigma", a->sigma, "noise standard deviation > 0")->required();
  app->add_option("--order", a->order, "Renyi order > 1")->required();
  app->add_option("--sensitivity", a->sensitivity, "l2 sensitivity Delta > 0 (default 1)");
  app->add_option("--precision", a->bits, "MPFR bits (default 256)");
  commands.push_back({app, [a]() {
    const Rational v = ref::GaussianRdp(ParseFlag(a->sigma, "--sigma"), ParseOrderFlag(a->order),
                                        ParseFlag(a->sensitivity, "--sensitivity"));
    JsonResult out =
        AccountingResult("RDP of the Gaussian mechanism (Mironov 2017, Prop. 7)", kSensitivityAdjacency, a->bits);
    out.Put("value", Interval(v));
    out.Put("value_exact", v);
    return std::move(out).Finish();
  }});
}

// The "method" string of `rdp sampled-gaussian`: which formula the library used.
const char* SgmMethod(bool integer_order) {
  return integer_order ? "integer-order binomial expansion (exact coefficients)"
                       : "fractional-order two-series formula, tail by Euler transformation with a rigorous remainder";
}

void RegisterRdpSampledGaussian(CLI::App* rdp, std::vector<Command>& commands) {
  auto* app =
      rdp->add_subcommand("sampled-gaussian", "Poisson-sampled Gaussian mechanism (Mironov, Talwar, Zhang 2019)");
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
    JsonResult out = AccountingResult("RDP of the sampled Gaussian mechanism, per step", kPoissonAdjacency, a->bits);
    const ref::SgmRdp v = ref::SampledGaussianRdp(ParseFlag(a->q, "--q"), ParseFlag(a->sigma, "--sigma"),
                                                  ParseOrderFlag(a->order), options);
    out.Put("value", v.value);
    out.PutRaw("method", SgmMethod(v.integer_order));
    if (!v.integer_order) out.PutRaw("series_terms", v.terms);
    return std::move(out).Finish();
  }});
}

void RegisterRdpRandomizedResponse(CLI::App* rdp, std::vector<Command>& commands) {
  auto* app = rdp->add_subcommand("randomized-response", "one randomized-response bit, keep probability p");
  struct Args { std::string p, order; int bits = 256; };
  auto a = std::make_shared<Args>();
  app->add_option("--p", a->p, "keep probability in (0, 1)")->required();
  app->add_option("--order", a->order, "Renyi order > 1")->required();
  app->add_option("--precision", a->bits, "MPFR bits (default 256)");
  commands.push_back({app, [a]() {
    const Rational p = ParseFlag(a->p, "--p");
    const Rational order = ParseOrderFlag(a->order);
    JsonResult out = AccountingResult("RDP of randomized response (Mironov 2017, Table II; spec 004 Lemma 3)",
                                      kRrAdjacency, a->bits);
    out.Put("value", ref::RrRdp(p, order, a->bits));
    out.Put("kl", ref::RrKl(p, a->bits));
    out.Put("infinity", ref::RrInfinity(p, a->bits));
    // The exact rational S_alpha too, for integer orders up to 10^4 (its digits grow with alpha).
    if (ref::IsInteger(order) && order <= 10000)
      out.Put("S_exact", ref::RrSInteger(p, static_cast<unsigned long>(boost::multiprecision::numerator(order))));
    return std::move(out).Finish();
  }});
}

void RegisterRdpLaplace(CLI::App* rdp, std::vector<Command>& commands) {
  auto* app = rdp->add_subcommand("laplace", "Laplace mechanism with scale b (Mironov 2017, Table II)");
  struct Args { std::string b, order, sensitivity = "1"; int bits = 256; };
  auto a = std::make_shared<Args>();
  app->add_option("--b", a->b, "Laplace scale b > 0")->required();
  app->add_option("--order", a->order, "Renyi order > 1")->required();
  app->add_option("--sensitivity", a->sensitivity, "l1 sensitivity Delta > 0 (default 1)");
  app->add_option("--precision", a->bits, "MPFR bits (default 256)");
  commands.push_back({app, [a]() {
    const Rational b = ParseFlag(a->b, "--b"), s = ParseFlag(a->sensitivity, "--sensitivity");
    JsonResult out = AccountingResult("RDP of the Laplace mechanism", kSensitivityAdjacency, a->bits);
    out.Put("value", ref::LaplaceRdp(b, ParseOrderFlag(a->order), s, a->bits));
    out.Put("kl", ref::LaplaceKl(b, s, a->bits));
    out.Put("pure_epsilon", ref::LaplacePureEpsilon(b, s));
    return std::move(out).Finish();
  }});
}

}  // namespace

void RegisterRdpCommands(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* rdp = RdpGroup(root);
  AddGroupDispatcher(rdp, commands);
  RegisterRdpGaussian(rdp, commands);
  RegisterRdpSampledGaussian(rdp, commands);
  RegisterRdpRandomizedResponse(rdp, commands);
  RegisterRdpLaplace(rdp, commands);
}

}  // namespace dpfl::cli
