// dpfl-ref bnn, bnn-gamma-max, bnn-exact-delta: the DPFL-BNN accountant of spec 004 (T rounds of
// h randomized-response bits; docs/accounting.md).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "accounting_commands.hpp"
#include "dpfl/ref/randomized_response.hpp"

namespace dpfl::cli {

void RegisterBnnCommand(CLI::App& root, std::vector<Command>& commands) {
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
    JsonResult out = AccountingResult("spec 004 DPFL-BNN privacy after T rounds of h RR bits", kRrAdjacency, a->bits);
    out.Put("eps_thm1", ref::BnnEpsilonThm1(s));
    const ref::RdpOptimum opt = ref::BnnEpsilonRdpOpt(s);
    out.Put("eps_rdp_opt", opt.epsilon);
    if (opt.order) out.Put("alpha_opt", Interval(*opt.order));
    else out.PutRaw("alpha_opt", "infinity");
    // Exact rational sums up to k = 20000, binomial tails above (spec 004 §4.6; docs/accounting.md).
    if (s.rounds * s.hamming <= ref::kBnnExactMaxBits) out.Put("eps_exact", ref::BnnEpsilonExact(s));
    else out.PutRaw("eps_exact", "not computed (k = T*h > 2^40)");
    out.Put("eps_pure", ref::BnnEpsilonPure(s));
    return std::move(out).Finish();
  }});
}

void RegisterBnnGammaMaxCommand(CLI::App& root, std::vector<Command>& commands) {
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
    JsonResult out = AccountingResult("spec 004 Theorem 1 gamma_max", kRrAdjacency, a->bits);
    out.Put("alpha_star", ref::BnnAlphaStar(eps, delta, a->bits));
    out.Put("gamma_max_as_printed", ref::BnnGammaMax(eps, delta, rounds, h, true, a->bits));
    out.Put("gamma_max_corrected", ref::BnnGammaMax(eps, delta, rounds, h, false, a->bits));
    return std::move(out).Finish();
  }});
}

void RegisterBnnExactDeltaCommand(CLI::App& root, std::vector<Command>& commands) {
  auto* app = root.add_subcommand("bnn-exact-delta", "spec 004 §4.6: tight delta(eps) of k RR bits");
  struct Args { std::string eps, gamma, k; int bits = 256; };
  auto a = std::make_shared<Args>();
  app->add_option("--eps", a->eps, "eps >= 0")->required();
  app->add_option("--gamma", a->gamma, "gamma in [0, 1/2)")->required();
  app->add_option("--k", a->k, "k = T*h bits, 1..2^40 (exact rational sums up to 20000, binomial tails above)")->required();
  app->add_option("--precision", a->bits, "MPFR bits (default 256)");
  commands.push_back({app, [a]() {
    JsonResult out = AccountingResult("spec 004 exact privacy profile delta(eps)", kRrAdjacency, a->bits);
    out.Put("delta", ref::BnnExactDelta(ParseFlag(a->eps, "--eps"), ParseFlag(a->gamma, "--gamma"),
                                        ParseFlag(a->k, "--k"), a->bits));
    return std::move(out).Finish();
  }});
}

}  // namespace dpfl::cli
