// See certificate.hpp: the privacy section (ledger, guarantees, releases), recomputed with the
// reference from the configuration and the broadcast (c, r) of each round.
#include <algorithm>
#include <string>
#include <vector>

#include "certificate.hpp"
#include "certificate_internal.hpp"
#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/quant/binary_element.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/ref/corbin_fl_privacy.hpp"
#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::certify {

using namespace internal;  // NOLINT: the certificate's own helpers

namespace {
constexpr int kDigits = 25;

Rational Two64() { return ref::Pow2(64); }
Rational FromU64(std::uint64_t v) {
  return Rational(static_cast<std::uint32_t>(v >> 32)) * ref::Pow2(32) + Rational(static_cast<std::uint32_t>(v));
}
// max(a/b, (2^64 − b)/(2^64 − a)) for thresholds of the outcome at the favourable end (a) and
// the unfavourable end (b): the worst ratio of one binary output.
Rational BitRatio(std::uint64_t favourable, std::uint64_t unfavourable) {
  if (unfavourable == 0 || favourable == ~std::uint64_t{0})
    throw Undecidable("a threshold reaches 0 or 2^64 - 1: the implemented epsilon is unbounded");
  const Rational a = FromU64(favourable), b = FromU64(unfavourable);
  return ref::Max(a / b, (Two64() - b) / (Two64() - a));
}

bool PrintsExactly(const Rational& x, const std::string& text) { return ref::ParseRational(text, "decimal") == x; }

}  // namespace

std::string internal::Dec(const Rational& x) { return ref::ToDecimalString(x, kDigits); }
// Directed decimal printing, so that a printed enclosure still contains the truth: rounding
// x ± half a unit in the last place to nearest lands on the far side of x (if x + h crosses a
// power of ten, the rounded value is at least that power, which exceeds x).
// A value that prints exactly (e.g. 1) is printed as it is.
std::string internal::DecUp(const Rational& x) {
  const std::string exact = Dec(x);
  return PrintsExactly(x, exact) ? exact : Dec(x + ref::DecimalRoundingBound(x, kDigits));
}
std::string internal::DecDown(const Rational& x) {
  const std::string exact = Dec(x);
  return PrintsExactly(x, exact) ? exact : Dec(x - ref::DecimalRoundingBound(x, kDigits));
}
nlohmann::json internal::IntervalJson(const Interval& x) { return {{"lo", DecDown(x.lo())}, {"hi", DecUp(x.hi())}}; }

// One guarantee in the certificate's schema (DESIGN.md "Certificate (v2)"; docs/training.md "Privacy").
nlohmann::json internal::Guarantee(const std::string& notion, const std::string& unit, const std::string& adjacency,
                                   const std::string& observer, const std::string& composition, const Interval* eps,
                                   const std::string& delta, bool applies, const std::string& reason) {
  nlohmann::json g = {{"notion", notion}, {"unit", unit}, {"adjacency", adjacency}, {"observer", observer},
                      {"composition", composition}, {"applies", applies}};
  if (eps != nullptr && applies) {
    g["epsilon_lo"] = DecDown(eps->lo());
    g["epsilon_hi"] = DecUp(eps->hi());
    g["delta"] = delta;
  } else {
    g["epsilon_lo"] = nullptr;
    g["epsilon_hi"] = nullptr;
    g["delta"] = nullptr;
  }
  if (!reason.empty()) g["reason"] = reason;
  return g;
}

namespace {

nlohmann::json Ucdp(const nlohmann::json& cfg, fl::MechanismKind kind, double r_max) {
  const double dropout = Num(cfg, "dropout");
  const Rational n(U64(cfg, "clients")), m(U64(cfg, "parameters"));
  const Rational delta = Exact(Num(cfg, "delta_u"));
  const auto budget = ref::PrivacyBudget::FromEpsilon(Exact(Num(cfg, "eps_p")));
  try {
    if (fl::UsesPairs(kind) && dropout > 0) {
      ref::Thm4Params p{budget, Exact(dropout), n, delta, delta / 2, Exact(r_max), m, kPrec};
      const ref::Thm4Result res = ref::Theorem4(p);
      auto variant = [](const ref::Thm4Variant& v) {
        return nlohmann::json{{"eps_u", IntervalJson(v.eps_u)}, {"gamma", IntervalJson(v.gamma)},
                              {"precondition_holds", v.precondition.holds}};
      };
      return {{"theorem", "seed-000 Thm 4 (dropout), delta1 = delta_u/2"}, {"delta_u", Dec(delta)},
              {"as_printed", variant(res.as_printed)}, {"corrected", variant(res.corrected)}};
    }
    if (kind == fl::MechanismKind::kAugCorBinFl) {
      ref::Thm3Params p{budget, n, Exact(Num(cfg, "gamma")), m, delta, Exact(r_max), kPrec};
      const ref::Thm3Privacy res = ref::Theorem3Privacy(p);
      return {{"theorem", "seed-000 Thm 3 (AugCorBin-FL)"}, {"delta_u", Dec(delta)},
              {"as_printed", {{"eps_u", IntervalJson(res.eps_u_as_printed)},
                              {"precondition_holds", res.precondition_as_printed.holds}}},
              {"corrected", {{"eps_u", IntervalJson(res.eps_u_corrected)},
                             {"precondition_holds", res.precondition_corrected.holds}}}};
    }
  } catch (const InvalidArgument& e) {
    return {{"applicable", false}, {"reason", std::string(e.what())}};
  } catch (const Undecidable& e) {
    return {{"applicable", false}, {"reason", std::string(e.what())}};
  }
  return {{"applicable", false}, {"reason", "no UCDP theorem for this mechanism (Thm 3: augcorbin-fl; Thm 4: pairs with dropout)"}};
}

// What the run releases besides the privatized messages, and whether a guarantee covers it.
nlohmann::json Releases(const nlohmann::json& cfg) {
  auto item = [](const char* what, bool covered, const char* why) {
    return nlohmann::json{{"release", what}, {"covered", covered}, {"why", why}};
  };
  nlohmann::json out = nlohmann::json::array();
  out.push_back(item("clients' messages (quantized bits or noisy values)", true, "the mechanism itself: the guarantees above"));
  out.push_back(item("global model each round, final_weights.bin, broadcast ranges (c, r)", true,
                     "functions of the messages and of earlier rounds' outputs only (post-processing)"));
  out.push_back(item("validation and test accuracy and loss, patience reloads", true,
                     "computed by the server on held-out data that no client holds (split before sharding), from the "
                     "global model: post-processing with respect to the clients' data"));
  out.push_back(item("pairing, dropout and solo assignment", true, "drawn from the server's own stream, independent of data"));
  out.push_back(item("train_loss in metrics.csv", false,
                     "the mean local training loss of the clients, computed on their raw data and not privatized; a "
                     "deployment must not collect it"));
  out.push_back(item("runtime monitor statistic and verdict", false,
                     "computed by the operator from clients' clipped raw weights at sampled coordinates (it tests the "
                     "sampler against the exact law); not privatized"));
  out.push_back(item("idle_clients in metrics.csv", false, "the number of clients whose shard is empty: data-dependent metadata"));
  const bool grid = cfg.contains("lambda_grid") && cfg["lambda_grid"].is_boolean() && cfg["lambda_grid"].get<bool>();
  out.push_back(item("choice of lambda by --lambda-grid", !grid,
                     grid ? "this run is one of 10 runs (lambda = 0.1 ... 1.0) on the same clients' data, selected by "
                            "validation accuracy: the selected model's guarantee is the composition of all 10 runs (10 times "
                            "every epsilon and delta above, by basic composition); this certificate covers one run"
                          : "no lambda search: lambda was fixed before training"));
  return out;
}

}  // namespace

nlohmann::json ComputePrivacy(const nlohmann::json& cfg, const nlohmann::json& rounds, bool tight_central,
                              const Progress& progress, bool legacy_local_rounding) {
  const fl::MechanismKind kind = fl::ParseMechanism(Str(cfg, "mechanism"));
  const double eps = Num(cfg, "eps_p");
  const Rational m(U64(cfg, "parameters"));
  if (!rounds.is_array()) BadField("broadcast_ranges", "must be an array");
  const auto T = static_cast<long>(rounds.size());
  nlohmann::json out;
  out["rounds"] = nlohmann::json::array();
  // Per-round implemented ε_p (enclosures), δ, and the corrected UCDP ε_u where it applies.
  std::vector<Interval> eps_rounds;
  Rational delta_round = 0;
  // gaussian / laplace: the exact discrete law the production code samples (dpfl/fl/discrete_noise.hpp)
  // depends on (ε_p, δ) only; (c, r) set the grid. Its privacy is computed once, exactly
  // (laplace: ε = N/t) or as an enclosure (gaussian: δ of the discrete Gaussian, Canonne,
  // Kamath & Steinke 2020, Thm 7, for sensitivity N grid units).
  nlohmann::json noise_law;
  Interval noise_eps(0);
  Rational noise_delta_hi = 0;
  fl::DiscreteNoiseLaw law;  // gaussian / laplace: the law sampled, also for the tight local row
  if (kind == fl::MechanismKind::kLaplace || kind == fl::MechanismKind::kGaussian) {
    law = fl::DiscreteNoiseLawFor(TrainConfigFromJson(cfg).mechanism);
    const Rational N(static_cast<long>(law.grid_steps)), scale = NoiseScale(law);
    if (kind == fl::MechanismKind::kLaplace) {
      noise_eps = Interval(ref::DiscreteLaplaceEpsilon(scale, N));
      noise_law = {{"law", "discrete Laplace on the grid, P(z) proportional to exp(-|z|/t)"}, {"grid_steps", law.grid_steps},
                   {"t", fl::ToString(law.laplace_scale)}};
    } else {
      noise_eps = Interval(Exact(eps));
      noise_delta_hi = ref::DiscreteGaussianDelta(Exact(eps), scale, N, kPrec).hi();
      noise_law = {{"law", "discrete Gaussian on the grid, P(z) proportional to exp(-z^2/(2 sigma2))"},
                   {"grid_steps", law.grid_steps}, {"sigma2", fl::ToString(law.gaussian_sigma2)}};
    }
  }
  Interval eps_u_total(0);
  // The widest implemented P(+) at the clipping ends over layers and rounds (LDPQ thresholds): a
  // narrower range is a post-processing of a wider one, so the widest dominates (pld_central.hpp).
  Rational q_lo = 1, q_hi = 0;
  bool ucdp_all = !rounds.empty();
  std::string ucdp_reason, ucdp_theorem;
  for (const auto& round : rounds) {
    const auto& cs = Array(round, "c");
    const auto& rs = Array(round, "r");
    if (cs.size() != rs.size() || cs.empty()) BadField("broadcast_ranges", "needs one c and one r per layer");
    nlohmann::json entry;
    entry["round"] = Field(round, "round");
    double r_max = 0;
    for (const auto& r : rs) {
      if (!r.is_string()) BadField("r", "must be hex-float strings");
      r_max = std::max(r_max, ParseHexDouble(r.get<std::string>()));
    }
    if (!fl::HasPldp(kind)) {
      out["rounds"].push_back(entry);
      continue;
    }
    entry["eps_p_intended"] = Dec(Exact(eps));
    Rational worst = 0;
    std::size_t worst_layer = 0;
    Rational delta_hi = 0;
    for (std::size_t l = 0; l < cs.size(); ++l) {
      if (!cs[l].is_string()) BadField("c", "must be hex-float strings");
      const double c = ParseHexDouble(cs[l].get<std::string>()), r = ParseHexDouble(rs[l].get<std::string>());
      Rational ratio;
      if (fl::IsBinary(kind)) {
        const quant::BinaryLevels k = quant::MakeBinaryLevels(eps, c, r);
        ratio = BitRatio(quant::PlusThreshold(k.hi, k), quant::PlusThreshold(k.lo, k));
        q_hi = ref::Max(q_hi, FromU64(quant::PlusThreshold(k.hi, k)) / Two64());
        q_lo = ref::Min(q_lo, FromU64(quant::PlusThreshold(k.lo, k)) / Two64());
        if (fl::UsesPairs(kind))
          ratio = ref::Max(ratio, BitRatio(quant::MinusThreshold(k.lo, k), quant::MinusThreshold(k.hi, k)));
      } else {  // gaussian, laplace: one law for every layer (above); the grid is (c, r)'s
        ratio = 0;
      }
      if (ratio > worst) {
        worst = ratio;
        worst_layer = l;
      }
    }
    Interval eps_impl;
    if (fl::IsBinary(kind)) {
      eps_impl = ref::ToInterval(ref::LogQ(kPrec, worst));
      entry["worst_ratio"] = ref::ToExactString(worst);
    } else {
      eps_impl = noise_eps;
      entry["noise"] = noise_law;
      if (kind == fl::MechanismKind::kGaussian) {
        delta_hi = noise_delta_hi;
        entry["delta_implemented_hi"] = DecUp(delta_hi);
        entry["delta_ok"] = delta_hi <= Exact(Num(cfg, "delta"));
        delta_round = Exact(Num(cfg, "delta"));
      }
    }
    entry["worst_layer"] = worst_layer;
    entry["eps_p_implemented"] = IntervalJson(eps_impl);
    eps_rounds.push_back(eps_impl);
    entry["ucdp"] = Ucdp(cfg, kind, r_max);
    const nlohmann::json& u = entry["ucdp"];
    if (u.contains("corrected") && u["corrected"]["precondition_holds"].get<bool>()) {
      eps_u_total = eps_u_total + Interval(ref::ParseRational(u["corrected"]["eps_u"]["lo"].get<std::string>(), "eps_u"),
                                           ref::ParseRational(u["corrected"]["eps_u"]["hi"].get<std::string>(), "eps_u"));
      ucdp_theorem = u["theorem"].get<std::string>();
    } else if (ucdp_all) {
      ucdp_all = false;
      ucdp_reason = u.contains("corrected")
                        ? "round " + entry["round"].dump() + ": the corrected precondition of " + u["theorem"].get<std::string>() +
                              " does not hold (the as-printed form is never a guarantee: spec 000 errata E18-E27)"
                        : u.value("reason", std::string("no theorem"));
    }
    out["rounds"].push_back(entry);
  }

  // ---- guarantees, every notion side by side (DESIGN.md "Certificate (v2)") ----
  nlohmann::json g = nlohmann::json::array();
  const std::string kOneCoord = "one parameter of one client's update";
  // CorBinQ/CoQ bits are a deterministic function of (w, Z) outside the tie cell: whoever knows
  // the pair's shared bits Z (the partner, or the server colluding with the partner) faces an
  // unbounded likelihood ratio. And the server receives both messages of a pair: with the
  // partner's input at the centre, an outcome of the pair is possible under one end of the
  // client's input and impossible under the other (dpfl-proofs 000/PLDP/server-sees-the-pair,
  // 001/D9/joint-view), so the per-message guarantee does not hold against the server either.
  const std::string kLocalObserver =
      fl::UsesPairs(kind)
          ? "anyone who sees this client's message alone; NOT the server of this protocol, which also receives the "
            "partner's message: jointly the pair's two bits are not epsilon-LDP for either client (partner at the "
            "centre: an outcome possible under one end of the input is impossible under the other, loss +inf with "
            "probability q_hi - 1/2 per parameter; dpfl-proofs 000/PLDP/server-sees-the-pair, 001/D9/joint-view); "
            "NOT anyone who knows the pair's shared bits Z (the partner)"
          : "the server, and anyone who sees a client's message";
  if (!fl::HasPldp(kind)) {
    g.push_back(Guarantee("none", "-", "-", "-", "-", nullptr, "", false,
                          fl::MechanismName(kind) + " gives no differential privacy"));
  } else {
    const bool gauss = kind == fl::MechanismKind::kGaussian;
    const std::string notion = gauss ? "(epsilon, delta)-LDP per parameter (PLDP, seed-000 eq. 3)"
                                     : "epsilon-LDP per parameter (PLDP, seed-000 eq. 3)";
    const std::string adjacency = "any two values of the parameter (both clipped to the broadcast [c - r, c + r])";
    Interval worst(0), total(0);
    for (const Interval& e : eps_rounds) {
      worst = Interval(ref::Max(worst.lo(), e.lo()), ref::Max(worst.hi(), e.hi()));
      total = total + e;
    }
    const Rational mT = m * Rational(T);
    const auto dec_delta = [&](const Rational& k) { return gauss ? DecUp(delta_round * k) : std::string("0"); };
    const Interval m_worst = worst * Interval(m), m_total = total * Interval(m);
    const std::string implemented = fl::IsBinary(kind) ? " (the implemented 64-bit thresholds, not the intended epsilon_p)" : "";
    g.push_back(Guarantee(notion, kOneCoord + ", one round", adjacency, kLocalObserver,
                          "none: the worst round and layer" + implemented, &worst, dec_delta(1), true, ""));
    g.push_back(Guarantee(notion, kOneCoord + ", all rounds", adjacency, kLocalObserver,
                          "basic composition over the " + std::to_string(T) + " rounds (epsilons and deltas add)", &total,
                          dec_delta(Rational(T)), true, ""));
    g.push_back(Guarantee(gauss ? "(epsilon, delta)-LDP of a client's update" : "epsilon-LDP of a client's update",
                          "one client's whole update (m = " + Dec(m) + " parameters), one round",
                          "any two update vectors (every coordinate clipped to its layer's range)", kLocalObserver,
                          "basic composition over the m coordinates: m times the worst round's per-parameter epsilon", &m_worst,
                          dec_delta(m), true, ""));
    g.push_back(Guarantee(gauss ? "(epsilon, delta)-LDP of a client's update" : "epsilon-LDP of a client's update",
                          std::string(kWholeUpdateAllRoundsUnit) + " (m T = " + Dec(mT) + " parameter releases)",
                          "any two sequences of update vectors", kLocalObserver,
                          "basic composition over coordinates and rounds: m times the sum over rounds", &m_total,
                          dec_delta(mT), true, ""));
    const bool has_theorem = fl::UsesPairs(kind) && (kind == fl::MechanismKind::kAugCorBinFl || Num(cfg, "dropout") > 0);
    const std::string ucdp_notion = "(epsilon_u, delta_u)-UCDP, replace-one-client (seed-000 eq. 1 as the proofs use it, E25)";
    const std::string ucdp_unit = "one client's whole update, as it enters the aggregate";
    const std::string ucdp_observer =
        "someone who sees only the aggregate (the global model); NOT the server of this protocol, which sees every "
        "message (no secure aggregation)";
    if (has_theorem && ucdp_all) {
      g.push_back(Guarantee(ucdp_notion, ucdp_unit + ", all rounds", "replace one client's update by any other",
                            ucdp_observer, "basic composition over rounds of " + ucdp_theorem + ", corrected form",
                            &eps_u_total, DecUp(Exact(Num(cfg, "delta_u")) * Rational(T)), true, ""));
    } else {
      g.push_back(Guarantee(ucdp_notion, ucdp_unit, "replace one client's update by any other", ucdp_observer, "-", nullptr,
                            "", false,
                            has_theorem ? ucdp_reason
                                        : "no central theorem of the papers covers " + fl::MechanismName(kind) +
                                              (fl::UsesPairs(kind) ? " without dropout" : "")));
    }
    if (tight_central) {
      g.push_back(TightCentralGuarantee(cfg, kind, static_cast<std::uint64_t>(T), q_lo, q_hi,
                                        ucdp_unit + ", all rounds", ucdp_observer, progress));
    } else {
      g.push_back({{"notion", kTightCentralNotion}, {"not_computed", true}});
    }
    if (kind == fl::MechanismKind::kLaplace || kind == fl::MechanismKind::kGaussian) {
      if (tight_central) {
        g.push_back(TightLocalNoiseGuarantee(law, U64(cfg, "parameters"), static_cast<std::uint64_t>(T),
                                             Exact(Num(cfg, "delta_u")), kLocalObserver, legacy_local_rounding));
      } else {
        g.push_back({{"notion", kTightLocalNotion}, {"not_computed", true}});
      }
    }
  }
  out["guarantees"] = g;
  out["releases"] = Releases(cfg);
  return out;
}

}  // namespace dpfl::certify
