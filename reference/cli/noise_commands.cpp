// dpfl-ref rdp quantized-gaussian (seed 003) and dpfl-ref cepam {thm12, thm13, calibrate, rates,
// subsampled, error-law} (seed 002). Every output names its adjacency notion; logs are natural.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "dpfl/ref/cepam.hpp"
#include "dpfl/ref/quantized_gaussian.hpp"

namespace dpfl::cli {
namespace {

JsonResult NewResult(const std::string& quantity, const std::string& adjacency, int bits) {
  ref::ValidatePrecision(bits);
  JsonResult out(false, bits);
  out.PutRaw("quantity", quantity);
  out.PutRaw("adjacency", adjacency);
  out.PutRaw("log", "natural");
  return out;
}

long ParseLong(const std::string& text, const std::string& flag) { return ref::ParseInt(text, flag); }

// --order: a rational > 1, "1"/"kl" (KL, α → 1) or "inf" (α = ∞).
ref::RenyiOrder ParseOrder(const std::string& text) {
  if (text == "kl" || text == "KL" || text == "1") return ref::RenyiOrder::Kl();
  if (text == "inf" || text == "infinity") return ref::RenyiOrder::Infinity();
  const Rational a = ParseFlag(text, "--order");
  if (!(a > 1)) throw InvalidArgument("--order", "must be > 1, 'kl' (alpha -> 1) or 'inf', got " + text);
  return ref::RenyiOrder::Finite(a);
}

std::string OrderName(const ref::RenyiOrder& o) {
  switch (o.kind) {
    case ref::RenyiOrder::Kind::kKl: return "1 (KL)";
    case ref::RenyiOrder::Kind::kInfinity: return "inf";
    case ref::RenyiOrder::Kind::kFinite: return ref::ToExactString(o.alpha);
  }
  return "";
}

ref::Thm12Variant ParseVariant(const std::string& text) {
  if (text == "as-printed") return ref::Thm12Variant::kAsPrinted;
  if (text == "sensitivity-corrected") return ref::Thm12Variant::kSensitivityCorrected;
  if (text == "own-noise") return ref::Thm12Variant::kOwnNoiseSubtracted;
  throw InvalidArgument("--variant", "must be as-printed, sensitivity-corrected or own-noise, got '" + text + "'");
}

CLI::App* CepamGroup(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* group = root.add_subcommand("cepam", "CEPAM / layered RSUQ (seed 002): privacy, rates, error laws");
  group->require_subcommand(1);
  std::vector<Command>* all = &commands;
  commands.push_back({group, [group, all]() -> json {
    for (const Command& c : *all)
      if (c.app != group && c.app->get_parent() == group && c.app->parsed()) return c.run();
    throw InvalidArgument("cepam", "a subcommand is required (see --help)");
  }});
  return group;
}

void RegisterQuantizedGaussian(CLI::App* rdp, std::vector<Command>& commands) {
  auto* app = rdp->add_subcommand("quantized-gaussian",
                                  "seed 003: Q(x + N(0, sigma^2); k, C) with k levels on [-C, C], worst case per coordinate");
  struct Args {
    std::string sigma, levels, clip = "1", order, dimension, rounds = "1";
    int bits = 256;
  };
  auto a = std::make_shared<Args>();
  app->add_option("--sigma", a->sigma, "noise standard deviation > 0")->required();
  app->add_option("--levels", a->levels, "number of quantization levels k >= 2")->required();
  app->add_option("--clip", a->clip, "clipping threshold C_q > 0 (sensitivity C_q; default 1)");
  app->add_option("--order", a->order, "Renyi order > 1, 'kl' (alpha -> 1) or 'inf'")->required();
  app->add_option("--dimension", a->dimension, "optional: d coordinates (vector bound of spec 003 §4.6)");
  app->add_option("--rounds", a->rounds, "rounds T composed (with --dimension; default 1)");
  app->add_option("--precision", a->bits, "MPFR bits (default 256)");
  commands.push_back({app, [a]() {
    const ref::QuantizedGaussianParams p{ParseFlag(a->sigma, "--sigma"), ParseLong(a->levels, "--levels"),
                                         ParseFlag(a->clip, "--clip")};
    const ref::RenyiOrder order = ParseOrder(a->order);
    JsonResult out = NewResult("RDP of the quantized Gaussian mechanism, per coordinate, worst case "
                               "D_alpha(P_{C/2} || P_{-C/2}) (seed 003 §4.2; endpoints asserted by the paper, E10)",
                               ref::kQuantizedGaussianAdjacency, a->bits);
    out.PutRaw("order", OrderName(order));
    out.Put("value", ref::ToInterval(ref::QuantizedGaussianRdp(p, order, a->bits)));
    if (order.kind != ref::RenyiOrder::Kind::kKl) {
      const ref::QgTheorem2 t = ref::QuantizedGaussianTheorem2(p, a->bits);
      out.Put("bound_theorem2", ref::ToInterval(t.bound));
      out.Put("theorem2_integral", ref::ToInterval(t.integral));
    }
    const std::optional<Rational> gauss = ref::GaussianRdpExact(p.sigma, p.clip, order);
    if (gauss) out.Put("gaussian_rdp", Interval(*gauss));
    out.Put("clamped_limit", ref::ToInterval(ref::ClampedGaussianDivergence(
                                 p.sigma, p.clip, Rational(p.clip / 2), Rational(-p.clip / 2), order, a->bits)));
    if (!a->dimension.empty()) {
      const ref::QgVectorRdp v = ref::QuantizedGaussianVectorRdp(p, ParseLong(a->dimension, "--dimension"),
                                                                 ParseLong(a->rounds, "--rounds"), order, a->bits);
      out.Put("vector_coordinates_composed", ref::ToInterval(v.coordinates_composed));
      if (v.gaussian_dpi) out.Put("vector_gaussian_dpi", Interval(*v.gaussian_dpi));
      out.Put("vector_bound", ref::ToInterval(v.bound));
    }
    json result = std::move(out).Finish();
    json notes = json::object();
    notes["value"] = "exact D_alpha at the endpoint inputs x = C/2, x' = -C/2 (per-coordinate saturation, E12)";
    if (order.kind != ref::RenyiOrder::Kind::kKl)
      notes["bound_theorem2"] = "log(delta_q / I), Theorem 2 eq. (14): bounds D_alpha <= D_inf for every alpha";
    if (gauss) notes["gaussian_rdp"] = "alpha C^2/(2 sigma^2), the unquantized Gaussian (data processing: value <= this)";
    notes["clamped_limit"] = "k -> infinity limit (clamped Gaussian, spec 003 §4.5)";
    if (!a->dimension.empty())
      notes["vector_bound"] = "T * min{alpha C^2/(2 sigma^2), d * value} (standard composition, spec §4.6; not in the paper)";
    result["notes"] = notes;
    return result;
  }});
}

void RegisterCepam(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* group = CepamGroup(root, commands);
  {
    auto* app = group->add_subcommand("thm12", "Theorem 12 (CEPAM-Gaussian): eps and delta of eq. (16), printed and corrected");
    struct Args {
      std::string sigma, eps_tilde, tau, clients, gamma = "1", n_k;
      int bits = 256;
    };
    auto a = std::make_shared<Args>();
    app->add_option("--sigma", a->sigma, "per-client noise std > 0")->required();
    app->add_option("--eps-tilde", a->eps_tilde, "base epsilon > 0")->required();
    app->add_option("--tau", a->tau, "local SGD steps per round >= 1")->required();
    app->add_option("--clients", a->clients, "number of clients K >= 1")->required();
    app->add_option("--gamma", a->gamma, "l2 clipping threshold > 0 (default 1)");
    app->add_option("--n-k", a->n_k, "local dataset size >= 1 (E-P8: the minimum over clients)")->required();
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      const ref::Thm12Params p{ParseFlag(a->sigma, "--sigma"), ParseFlag(a->eps_tilde, "--eps-tilde"),
                               ParseLong(a->tau, "--tau"), ParseLong(a->clients, "--clients"),
                               ParseFlag(a->gamma, "--gamma"), ParseLong(a->n_k, "--n-k")};
      JsonResult out = NewResult("seed 002 Theorem 12: one-round (eps, delta)-DP of the CEPAM-Gaussian average",
                                 ref::kCepamAdjacency, a->bits);
      const ref::Thm12Result printed = ref::Theorem12(p, ref::Thm12Variant::kAsPrinted, a->bits);
      out.Put("p_s", Interval(printed.p_s));
      out.Put("p_s_exact", printed.p_s);
      out.Put("epsilon", ref::ToInterval(printed.epsilon));
      out.Put("delta_as_printed", ref::ToInterval(printed.delta));
      out.Put("delta_as_printed_capped", ref::ToInterval(printed.delta_capped));
      const ref::Thm12Result sens = ref::Theorem12(p, ref::Thm12Variant::kSensitivityCorrected, a->bits);
      out.Put("delta_sensitivity_corrected", ref::ToInterval(sens.delta));
      out.Put("delta_sensitivity_corrected_capped", ref::ToInterval(sens.delta_capped));
      if (p.clients >= 2) {
        const ref::Thm12Result own = ref::Theorem12(p, ref::Thm12Variant::kOwnNoiseSubtracted, a->bits);
        out.Put("delta_own_noise", ref::ToInterval(own.delta));
        out.Put("delta_own_noise_capped", ref::ToInterval(own.delta_capped));
      }
      out.Put("delta_floor_sigma_to_0", ref::ToInterval(ref::Theorem12Floor(p.eps_tilde, p.tau, p.n_k, a->bits)));
      json result = std::move(out).Finish();
      json notes = json::object();
      notes["delta_as_printed"] = "(16) with Delta2 = 2 tau gamma/K, sigma~ = sigma/sqrt(K) (an upper bound, E-P2)";
      notes["delta_as_printed_capped"] = "each summand capped at its weight (valid since delta <= 1; never above p_s)";
      notes["delta_sensitivity_corrected"] = "E-P4: Delta2 = 2 gamma/K (clipping bounds the update however often sampled)";
      notes["delta_own_noise"] = "E-P4 + E-P6: sigma~ = sigma sqrt(K-1)/K (a curious client removes its own noise)";
      notes["delta_floor_sigma_to_0"] = "sigma -> 0 limit of (16); every delta >= p_s holds with no noise (E-P3)";
      result["notes"] = notes;
      return result;
    }});
  }
  {
    auto* app = group->add_subcommand("thm13", "Theorem 13 (CEPAM-Laplace): eps and the condition on eps~, printed and corrected");
    struct Args {
      std::string eps_tilde, tau, gamma = "1", b, m, n_k;
      int bits = 256;
    };
    auto a = std::make_shared<Args>();
    app->add_option("--eps-tilde", a->eps_tilde, "base epsilon > 0")->required();
    app->add_option("--tau", a->tau, "local SGD steps >= 1")->required();
    app->add_option("--gamma", a->gamma, "l2 clipping threshold > 0 (default 1)");
    app->add_option("--b", a->b, "Laplace scale > 0")->required();
    app->add_option("--m", a->m, "model dimension >= 1")->required();
    app->add_option("--n-k", a->n_k, "local dataset size >= 1")->required();
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      const ref::Thm13Result r =
          ref::Theorem13(ParseFlag(a->eps_tilde, "--eps-tilde"), ParseLong(a->tau, "--tau"), ParseFlag(a->gamma, "--gamma"),
                         ParseFlag(a->b, "--b"), ParseLong(a->m, "--m"), ParseLong(a->n_k, "--n-k"), a->bits);
      JsonResult out = NewResult("seed 002 Theorem 13: one-round eps-DP of CEPAM-Laplace", ref::kCepamAdjacency, a->bits);
      out.Put("p_s", Interval(r.p_s));
      out.Put("epsilon", ref::ToInterval(r.epsilon));
      out.Put("required_eps_tilde_as_printed", Interval(r.required_as_printed));
      out.Put("required_eps_tilde_corrected", ref::ToInterval(r.required_corrected_l2));
      json result = std::move(out).Finish();
      result["holds_as_printed"] = r.holds_as_printed;
      result["holds_corrected"] = r.holds_corrected;
      result["notes"] = {{"required_eps_tilde_as_printed", "2 tau gamma / b (Delta1 <= 2 tau gamma)"},
                         {"required_eps_tilde_corrected",
                          "E-P5: 2 tau gamma sqrt(m) / b (l1 sensitivity of an l2-clipped m-vector)"}};
      return result;
    }});
  }
  {
    auto* app = group->add_subcommand("calibrate", "smallest sigma with delta_(16)(sigma) <= delta at eps (bisection)");
    struct Args {
      std::string eps, delta, tau, clients, gamma = "1", n_k, variant = "as-printed";
      bool capped = false;
      int bits = 128, tolerance = 30;
    };
    auto a = std::make_shared<Args>();
    app->add_option("--eps", a->eps, "target epsilon > 0")->required();
    app->add_option("--delta", a->delta, "target delta in (0, 1)")->required();
    app->add_option("--tau", a->tau, "local SGD steps >= 1")->required();
    app->add_option("--clients", a->clients, "number of clients K")->required();
    app->add_option("--gamma", a->gamma, "clipping threshold (default 1)");
    app->add_option("--n-k", a->n_k, "local dataset size")->required();
    app->add_option("--variant", a->variant, "as-printed | sensitivity-corrected | own-noise");
    app->add_flag("--capped", a->capped, "use the capped (E-P2) bound");
    app->add_option("--tolerance-bits", a->tolerance, "relative bisection tolerance 2^-t (default 30)");
    app->add_option("--precision", a->bits, "MPFR bits (default 128)");
    commands.push_back({app, [a]() {
      const Rational eps = ParseFlag(a->eps, "--eps"), delta = ParseFlag(a->delta, "--delta");
      if (!(delta > 0) || !(delta < 1)) throw InvalidArgument("--delta", "must lie in (0, 1), got " + a->delta);
      const std::optional<Interval> s = ref::CalibrateTheorem12Sigma(
          eps, delta, ParseLong(a->tau, "--tau"), ParseLong(a->clients, "--clients"), ParseFlag(a->gamma, "--gamma"),
          ParseLong(a->n_k, "--n-k"), ParseVariant(a->variant), a->capped, a->tolerance, a->bits);
      JsonResult out = NewResult("seed 002 §3.11: sigma_min for Theorem 12", ref::kCepamAdjacency, a->bits);
      if (s) {
        out.Put("sigma", Interval(s->hi()));
        out.Put("sigma_certified_bad_below", Interval(s->lo()));
      }
      json result = std::move(out).Finish();
      result["any_sigma"] = !s.has_value();
      result["notes"] = {{"sigma", "delta(sigma) <= delta is certified at this sigma"},
                         {"any_sigma", "true when the sigma -> 0 floor is already <= delta (vacuous, E-P3)"}};
      return result;
    }});
  }
  {
    auto* app = group->add_subcommand("rates", "LRSUQ acceptance, trials and bits for the cubic cell (Gaussian) or Laplace");
    struct Args {
      std::string n = "1", c = "1", target = "gaussian", scale, gamma = "1";
      int bits = 256;
    };
    auto a = std::make_shared<Args>();
    app->add_option("--scale", a->scale, "optional, n = 1: sigma (gaussian) or b (laplace) for the expected index bits");
    app->add_option("--gamma", a->gamma, "clipping threshold for the index bits (default 1)");
    app->add_option("--n", a->n, "lattice dimension >= 1 (Gaussian; Laplace is n = 1)");
    app->add_option("--c", a->c, "scaling slack c >= 1 (default 1)");
    app->add_option("--target", a->target, "gaussian | laplace");
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      const Rational c = ParseFlag(a->c, "--c");
      ref::ValidatePrecision(a->bits);
      ref::Enclosure p(a->bits, 1L);
      if (a->target == "gaussian") {
        p = ref::GaussianAcceptance(ParseLong(a->n, "--n"), c, a->bits);
      } else if (a->target == "laplace") {
        p = ref::Enclosure(a->bits, ref::LaplaceAcceptance(c));
      } else {
        throw InvalidArgument("--target", "must be gaussian or laplace, got '" + a->target + "'");
      }
      JsonResult out = NewResult("seed 002 §3.4/§3.10/§4.9: trials h ~ Geom(p_acc), independent of the input",
                                 "not a privacy quantity (rates only)", a->bits);
      out.Put("p_acc", ref::ToInterval(p));
      out.Put("expected_trials", ref::ToInterval(ref::ExpectedTrials(p)));
      out.Put("trials_variance", ref::ToInterval(ref::TrialsVariance(p)));
      out.Put("entropy_bits_h", ref::ToInterval(ref::GeometricEntropyBits(p)));
      if (!a->scale.empty()) {
        if (a->target == "gaussian" && ParseLong(a->n, "--n") != 1)
          throw InvalidArgument("--n", "the expected index bits are implemented for n = 1 only");
        out.Put("expected_index_bits_n1",
                ref::ToInterval(ref::ExpectedIndexBitsN1(
                    a->target == "gaussian" ? ref::LrsuqTarget::kGaussian : ref::LrsuqTarget::kLaplace,
                    ParseFlag(a->scale, "--scale"), ParseFlag(a->gamma, "--gamma"), c, a->bits)));
      }
      json result = std::move(out).Finish();
      result["golomb_parameter"] = ref::GolombParameter(p);
      return result;
    }});
  }
  {
    auto* app = group->add_subcommand("subsampled", "Lemma 9 eq. (14): subsampling with replacement + Gaussian");
    struct Args {
      std::string eps_tilde, tau, n, sensitivity = "1", sigma;
      bool capped = false;
      int bits = 256;
    };
    auto a = std::make_shared<Args>();
    app->add_option("--eps-tilde", a->eps_tilde, "base epsilon > 0")->required();
    app->add_option("--tau", a->tau, "subsample size (steps) >= 1")->required();
    app->add_option("--n", a->n, "dataset size >= 1")->required();
    app->add_option("--sensitivity", a->sensitivity, "l2 sensitivity > 0 (default 1)");
    app->add_option("--sigma", a->sigma, "noise std of the base mechanism > 0")->required();
    app->add_flag("--capped", a->capped, "cap each summand at its weight (E-P2)");
    app->add_option("--precision", a->bits, "MPFR bits (default 256)");
    commands.push_back({app, [a]() {
      const Rational et = ParseFlag(a->eps_tilde, "--eps-tilde");
      const long tau = ParseLong(a->tau, "--tau"), n = ParseLong(a->n, "--n");
      JsonResult out = NewResult("seed 002 Lemma 9 (14): a sufficient delta (E-P1: 'if', not 'iff')",
                                 ref::kCepamAdjacency, a->bits);
      out.Put("delta", ref::ToInterval(ref::SubsampledGaussianDelta(et, tau, n, ParseFlag(a->sensitivity, "--sensitivity"),
                                                                    ParseFlag(a->sigma, "--sigma"), a->capped, a->bits)));
      const Rational ps = ref::SubsamplingProbability(n, tau);
      out.Put("p_s", Interval(ps));
      out.Put("epsilon", ref::ToInterval(ref::AmplifiedEpsilon(et, ps, a->bits)));
      return std::move(out).Finish();
    }});
  }
}

}  // namespace

void RegisterNoiseCommands(CLI::App& root, std::vector<Command>& commands) {
  RegisterQuantizedGaussian(RdpGroup(root), commands);
  RegisterCepam(root, commands);
}

}  // namespace dpfl::cli
