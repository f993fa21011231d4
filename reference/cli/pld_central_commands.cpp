// dpfl-ref pld central: ε(δ) of one client in the aggregate of seed 000's binary mechanisms
// (reference/include/dpfl/ref/pld_central.hpp), and pld bench: the generic PLD path against the
// RDP accountant in one process (docs/accounting.md).
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "accounting_commands.hpp"
#include "dpfl/ref/accountant.hpp"
#include "dpfl/ref/pld_central.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"
#include "pld_commands.hpp"

namespace dpfl::cli {

namespace pld = ref::pld;

void RegisterPldCentral(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand(
      "central", "the aggregate of seed 000's binary mechanisms (ldp-fl: --solo = --clients; augcorbin-fl; corbin-fl: "
                 "--solo 0): eps(delta) of one client over m coordinates and T rounds");
  struct Args {
    std::string clients, solo, E, eps_p, parameters = "1", rounds = "1", delta, shared_bits = "0",
                relative_width = "0.01", dropout = "0", pairs = "corbinq";
  };
  auto a = std::make_shared<Args>();
  app->add_option("--clients", a->clients, "number of clients n >= 1")->required();
  app->add_option("--solo", a->solo, "solo (LDPQ) clients s in [0, n], n - s even")->required();
  auto* e = app->add_option("--E", a->E, "E = e^eps_p, an exact rational > 1");
  auto* ep = app->add_option("--eps-p", a->eps_p, "eps_p > 0 (then P(+) at the ends is enclosed: the pmfs use "
                                                  "the rational just outside it)");
  e->excludes(ep);
  ep->excludes(e);
  app->add_option("--parameters", a->parameters, "m, coordinates per update (default 1)");
  app->add_option("--rounds", a->rounds, "T (default 1)");
  app->add_option("--delta", a->delta, "delta in (0, 1)")->required();
  app->add_option("--shared-bits", a->shared_bits, "CorBinQ's d (for the realisable paired configuration; default 0)");
  app->add_option("--relative-width", a->relative_width, "target relative width of the PLD passes (default 0.01)");
  app->add_option("--pairs", a->pairs, "the pair quantizer: corbinq (corbin-fl, augcorbin-fl; default) or coq "
                                      "(coq-fl, p_x = 1/2); only the realisable lower end depends on it");
  app->add_option("--dropout", a->dropout, "P(a client is absent in a round), exact, in [0, 1) (default 0; then the "
                                          "observer also sees who took part, the pairing and the solo set)");
  commands.push_back({app, [a]() {
    auto integer = [](const std::string& text, const std::string& flag, long lo, long hi) {
      const Rational v = ParseFlag(text, flag);
      if (!ref::IsInteger(v) || v < lo || v > hi)
        throw InvalidArgument(flag, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                        "], got " + text);
      return boost::multiprecision::numerator(v).convert_to<long>();
    };
    pld::CentralBinarySetting s;
    s.clients = integer(a->clients, "--clients", 1, 1000000);
    s.solo = integer(a->solo, "--solo", 0, s.clients);
    s.coordinates = static_cast<std::uint64_t>(integer(a->parameters, "--parameters", 1, 1000000000));
    s.rounds = static_cast<std::uint64_t>(integer(a->rounds, "--rounds", 1, 1000000000));
    s.shared_bits = static_cast<int>(integer(a->shared_bits, "--shared-bits", 0, 62));
    if (a->E.empty() == a->eps_p.empty()) throw InvalidArgument("--E", "give exactly one of --E and --eps-p");
    if (!a->E.empty()) {
      const Rational E = ParseFlag(a->E, "--E");
      if (!(E > 1)) throw InvalidArgument("--E", "must be > 1, got " + a->E);
      s.q_lo = 1 / (1 + E);
      s.q_hi = E / (1 + E);
    } else {
      // ε_p given: q_hi = e^ε/(1+e^ε) enclosed; the outer ends of the enclosures widen the range,
      // which only makes the computed mechanism less private (a valid upper view).
      const Rational eps = ParseFlag(a->eps_p, "--eps-p");
      if (!(eps > 0 && eps <= 50)) throw InvalidArgument("--eps-p", "must be in (0, 50], got " + a->eps_p);
      const pld::QuantizedEnds ends = pld::EndsForEpsilon(eps);
      s.q_lo = ends.q_lo;
      s.q_hi = ends.q_hi;
    }
    if (a->pairs != "corbinq" && a->pairs != "coq")
      throw InvalidArgument("--pairs", "must be corbinq or coq, got '" + a->pairs + "'");
    s.pairs = a->pairs == "coq" ? pld::PairScheme::kCoq : pld::PairScheme::kCorBinQ;
    s.dropout = ParseFlag(a->dropout, "--dropout");
    if (!(s.dropout >= 0 && s.dropout < 1)) throw InvalidArgument("--dropout", "must be in [0, 1), got " + a->dropout);
    const Rational delta = ParseFlag(a->delta, "--delta");
    if (!(delta > 0 && delta < 1)) throw InvalidArgument("--delta", "must be in (0, 1), got " + a->delta);
    pld::AccountOptions options;
    options.relative_width = ParseFlag(a->relative_width, "--relative-width");
    if (!(options.relative_width > 0 && options.relative_width < 1))
      throw InvalidArgument("--relative-width", "must be in (0, 1), got " + a->relative_width);
    const std::clock_t start = std::clock();
    const pld::CentralResult r = pld::CentralBinaryEpsilon(s, delta, options);
    json out;
    out["quantity"] = "epsilon(delta) of one client in the aggregate over m coordinates and T rounds, enclosed";
    out["observer"] = s.dropout > 0 ? "anyone who sees the aggregate (the global model) and each round's schedule (who took "
                                      "part, the pairing, the solo set); the server only under secure aggregation"
                                    : "anyone who sees the aggregate (the global model); the server only under secure aggregation";
    out["adjacency"] = "replace one client's update by any other; worst case over every other client's input";
    out["parameters"] = {{"clients", s.clients}, {"solo", s.solo}, {"coordinates", s.coordinates}, {"rounds", s.rounds},
                         {"q_lo", ref::ToExactString(s.q_lo)}, {"q_hi", ref::ToExactString(s.q_hi)},
                         {"shared_bits", s.shared_bits}, {"dropout", ref::ToExactString(s.dropout)}, {"pairs", a->pairs}};
    out["delta"] = a->delta;
    out["epsilon_lo"] = r.epsilon.lo ? ref::ToDecimalStringDown(*r.epsilon.lo, kPldDigits) : "inf";
    out["epsilon_hi"] = r.epsilon.hi ? ref::ToDecimalStringUp(*r.epsilon.hi, kPldDigits) : "inf";
    out["epsilon_hi_pld_envelope"] =
        r.upper.epsilon.hi ? ref::ToDecimalStringUp(*r.upper.epsilon.hi, kPldDigits) : "inf";
    out["epsilon_hi_rdp"] = r.rdp_upper ? ref::ToDecimalStringUp(r.rdp_upper->hi(), kPldDigits) : "inf";
    if (s.dropout > 0) out["epsilon_hi_rdp_note"] = "not computed with dropout (the upper end is the PLD of the mixture)";
    out["infinite_loss_probability_per_coordinate_hi"] = ref::ToDecimalStringUp(r.infinite_mass_upper, 6);
    out["log"] = "natural";
    out["cpu_seconds"] = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    return out;
  }});
}

// pld bench: the speed case through the generic PLD path (discretize, FFT self-composition,
// query) and the RDP accountant for the same Gaussian composition, in one process, best of --reps
// CPU times each, interleaved (PLD, RDP, PLD, RDP, …) so drifts of a shared machine hit both.
void RegisterPldBench(CLI::App* group, std::vector<Command>& commands) {
  auto* app = group->add_subcommand("bench", "time the PLD accountant against the RDP accountant (same process)");
  struct Args { std::string sigma = "20", compositions = "1000", delta = "1e-5"; int reps = 3; };
  auto a = std::make_shared<Args>();
  app->add_option("--sigma", a->sigma, "Gaussian noise, sensitivity 1 (default 20)");
  app->add_option("--compositions", a->compositions, "K (default 1000)");
  app->add_option("--delta", a->delta, "delta (default 1e-5)");
  app->add_option("--reps", a->reps, "repetitions, best time kept (default 3)");
  commands.push_back({app, [a]() {
    const Rational sigma = ParseFlag(a->sigma, "--sigma"), delta = ParseFlag(a->delta, "--delta");
    if (!(sigma > 0)) throw InvalidArgument("--sigma", "must be > 0, got " + a->sigma);
    if (!(delta > 0 && delta < 1)) throw InvalidArgument("--delta", "must be in (0, 1), got " + a->delta);
    const std::uint64_t k = ParseCompositions(a->compositions);
    if (a->reps < 1 || a->reps > 100) throw InvalidArgument("--reps", "must be in [1, 100]");
    auto cpu = [] { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; };
    double best_pld = 1e300, best_rdp = 1e300;
    pld::AccountResult p;
    ref::AccountantResult r;
    pld::AccountOptions options;  // as dpfl-ref pld gaussian by default: connect-the-dots, 0.2 %
    options.discretization = pld::Discretization::kConnectDots;
    options.relative_width = Rational(1, 500);
    for (int i = 0; i < a->reps; ++i) {
      double t0 = cpu();
      p = pld::EpsilonOfComposition([&](const pld::GridOptions& g) { return pld::GaussianPld(sigma, 1, g); }, k, delta,
                                    options);
      best_pld = std::min(best_pld, cpu() - t0);
      t0 = cpu();
      r = ref::Account([&](const Rational& order) { return ref::Enclosure(128, ref::GaussianRdp(sigma, order)); },
                       Rational(static_cast<long>(k)), delta, ref::DefaultOrders(), ref::Conversion::kImproved);
      best_rdp = std::min(best_rdp, cpu() - t0);
    }
    json out;
    out["case"] = {{"mechanism", "gaussian"}, {"sigma", a->sigma}, {"sensitivity", "1"}, {"compositions", k},
                   {"delta", a->delta}, {"reps", a->reps}};
    out["pld"] = {{"path", "generic: connect-the-dots discretization, FFT self-composition, query at 0.2 % width (not the "
                           "Gaussian closed form)"},
                  {"cpu_seconds", best_pld}, {"epsilon_lo", ref::ToDecimalStringDown(*p.epsilon.lo, kPldDigits)},
                  {"epsilon_hi", ref::ToDecimalStringUp(*p.epsilon.hi, kPldDigits)},
                  {"relative_width", ref::ToDecimalStringUp((*p.epsilon.hi - *p.epsilon.lo) / *p.epsilon.hi, 3)},
                  {"passes", p.passes}, {"grid_points", p.grid_points}};
    out["rdp"] = {{"path", "RDP accountant, 90 default orders, improved conversion"}, {"cpu_seconds", best_rdp},
                  {"epsilon_lo", ref::ToDecimalStringDown(r.epsilon.lo(), kPldDigits)},
                  {"epsilon_hi", ref::ToDecimalStringUp(r.epsilon.hi(), kPldDigits)}, {"order", ref::ToExactString(r.order)}};
    out["time_ratio_pld_over_rdp"] = best_pld / best_rdp;
    out["epsilon_ratio_rdp_over_pld_hi"] = (r.epsilon.hi() / *p.epsilon.hi).convert_to<double>();
    return out;
  }});
}

}  // namespace dpfl::cli
