// See certificate.hpp. Links dpfl_reference (accounting only).
#include "certificate.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "dpfl/error.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/quant/binary_element.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/ref/corbin_fl_privacy.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/gaussian.hpp"
#include "dpfl/ref/laplace.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::certify {
namespace {

using ref::Enclosure;
using ref::Interval;
using ref::Rational;
constexpr int kPrec = 256;
constexpr int kDigits = 25;

Rational Exact(double x) { return Rational(x); }
Rational Two64() { return ref::Pow2(64); }
Rational FromU64(std::uint64_t v) {
  return Rational(static_cast<std::uint32_t>(v >> 32)) * ref::Pow2(32) + Rational(static_cast<std::uint32_t>(v));
}
std::string Dec(const Rational& x) { return ref::ToDecimalString(x, kDigits); }
nlohmann::json IntervalJson(const Interval& x) { return {{"lo", Dec(x.lo())}, {"hi", Dec(x.hi())}}; }

// max(a/b, (2^64 − b)/(2^64 − a)) for thresholds of the outcome at the favourable end (a) and
// the unfavourable end (b): the worst ratio of one binary output.
Rational BitRatio(std::uint64_t favourable, std::uint64_t unfavourable) {
  if (unfavourable == 0 || favourable == ~std::uint64_t{0})
    throw Undecidable("a threshold reaches 0 or 2^64 - 1: the implemented epsilon is unbounded");
  const Rational a = FromU64(favourable), b = FromU64(unfavourable);
  return ref::Max(a / b, (Two64() - b) / (Two64() - a));
}

double Num(const nlohmann::json& j, const char* key) { return j.at(key).get<double>(); }

nlohmann::json Ucdp(const nlohmann::json& cfg, fl::MechanismKind kind, double r_max) {
  const double dropout = Num(cfg, "dropout");
  const Rational n(cfg.at("clients").get<std::uint64_t>()), m(cfg.at("parameters").get<std::uint64_t>());
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
  } catch (const std::exception& e) {
    return {{"applicable", false}, {"reason", std::string(e.what())}};
  }
  return {{"applicable", false}, {"reason", "no UCDP theorem for this mechanism (Thm 3: augcorbin-fl; Thm 4: pairs with dropout)"}};
}

}  // namespace

std::string HexDouble(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

double ParseHexDouble(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v)) throw InvalidArgument("certificate", "bad number '" + s + "'");
  return v;
}

fl::MonitorOutcome MonitorRound(const fl::MechanismConfig& config, std::uint32_t, const std::vector<fl::MonitorSample>& samples,
                                double alpha) {
  fl::MonitorOutcome out;
  if (samples.empty()) return out;
  out.applicable = true;
  out.alpha = alpha;
  out.samples = samples.size();
  // Two-sided normal critical value z_{1−α/2}, enclosed by bisection on the reference Φ.
  double lo = 0, hi = 40;
  for (int k = 0; k < 80; ++k) {
    const double mid = (lo + hi) / 2;
    const Enclosure tail = Rational(1) - ref::NormalCdf(Enclosure(kPrec, Exact(mid)));
    (tail.LoDouble() * 2 > alpha ? lo : hi) = mid;
  }
  out.critical = hi;
  double sum = 0, mean = 0, var = 0;
  if (fl::IsBinary(config.kind)) {
    out.test = "two-sided z-test: sum of sampled bits vs the exact LDPQ marginals q(w) (reference)";
    const Interval E = ref::ToInterval(ref::ExpQ(kPrec, Exact(config.eps_p)));
    const Interval alpha_q = ref::AlphaFromE(E);
    for (const auto& s : samples) {
      const Interval q = ref::LdpqProbPlus(alpha_q, Exact(s.c), Exact(s.r), Exact(s.w_clipped));
      const double p = static_cast<double>(q.Mid());
      sum += s.plus ? 1.0 : 0.0;
      mean += p;
      var += p * (1 - p);
    }
  } else {
    const bool gauss = config.kind == fl::MechanismKind::kGaussian;
    out.test = gauss ? "two-sided z-test: mean of sampled noise/sigma vs N(0,1)"
                     : "two-sided z-test: mean of sampled noise/b vs Laplace(0,1) (variance 2)";
    for (const auto& s : samples) {
      sum += s.noise / s.noise_scale;
      var += gauss ? 1.0 : 2.0;
    }
  }
  out.statistic = var > 0 ? std::fabs(sum - mean) / std::sqrt(var) : 0.0;
  out.passed = out.statistic <= out.critical;
  return out;
}

nlohmann::json ComputePrivacy(const nlohmann::json& cfg, const nlohmann::json& rounds) {
  const fl::MechanismKind kind = fl::ParseMechanism(cfg.at("mechanism").get<std::string>());
  const double eps = Num(cfg, "eps_p");
  nlohmann::json out;
  out["notion"] = fl::HasPldp(kind) ? "PLDP per parameter per round (seed-000 eq. 3); composition over rounds: basic (sum)"
                                    : "none (this mechanism gives no privacy)";
  out["rounds"] = nlohmann::json::array();
  Rational eps_total_hi = 0, eps_u_total_printed = 0, eps_u_total_corrected = 0, delta_total = 0;
  bool ucdp_all = true;
  for (const auto& round : rounds) {
    const auto cs = round.at("c"), rs = round.at("r");
    nlohmann::json entry;
    entry["round"] = round.at("round");
    double r_max = 0;
    for (const auto& r : rs) r_max = std::max(r_max, ParseHexDouble(r.get<std::string>()));
    if (!fl::HasPldp(kind)) {
      out["rounds"].push_back(entry);
      continue;
    }
    entry["eps_p_intended"] = Dec(Exact(eps));
    Rational worst = 0;
    std::size_t worst_layer = 0;
    Rational delta_hi = 0;
    for (std::size_t l = 0; l < cs.size(); ++l) {
      const double c = ParseHexDouble(cs[l].get<std::string>()), r = ParseHexDouble(rs[l].get<std::string>());
      Rational ratio;
      if (fl::IsBinary(kind)) {
        const quant::BinaryLevels k = quant::MakeBinaryLevels(eps, c, r);
        ratio = BitRatio(quant::PlusThreshold(k.hi, k), quant::PlusThreshold(k.lo, k));
        if (fl::UsesPairs(kind))
          ratio = ref::Max(ratio, BitRatio(quant::MinusThreshold(k.lo, k), quant::MinusThreshold(k.hi, k)));
      } else if (kind == fl::MechanismKind::kLaplace) {
        const double b = fl::LaplaceScale(eps, 2 * r);
        ratio = ref::LaplacePureEpsilon(Exact(b), Exact(2 * r));  // an ε here, exponentiated below
      } else {  // gaussian
        const double sigma = fl::AnalyticGaussianSigma(eps, Num(cfg, "delta"), 2 * r);
        const Interval d = ref::AnalyticGaussianDelta(Exact(eps), Exact(sigma), Exact(2 * r), kPrec);
        if (d.hi() > delta_hi) delta_hi = d.hi();
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
    } else if (kind == fl::MechanismKind::kLaplace) {
      eps_impl = Interval(worst);
    } else {
      eps_impl = Interval(Exact(eps));
      entry["delta_implemented_hi"] = Dec(delta_hi);
      entry["delta_ok"] = delta_hi <= Exact(Num(cfg, "delta"));
      delta_total += Exact(Num(cfg, "delta"));
    }
    entry["worst_layer"] = worst_layer;
    entry["eps_p_implemented"] = IntervalJson(eps_impl);
    eps_total_hi += eps_impl.hi();
    entry["ucdp"] = Ucdp(cfg, kind, r_max);
    if (entry["ucdp"].contains("as_printed")) {
      eps_u_total_printed += ref::ParseRational(entry["ucdp"]["as_printed"]["eps_u"]["hi"].get<std::string>(), "eps_u");
      eps_u_total_corrected += ref::ParseRational(entry["ucdp"]["corrected"]["eps_u"]["hi"].get<std::string>(), "eps_u");
    } else {
      ucdp_all = false;
    }
    out["rounds"].push_back(entry);
  }
  if (fl::HasPldp(kind)) {
    nlohmann::json comp;
    comp["rule"] = "basic composition: epsilons (upper ends) and deltas add over rounds";
    comp["eps_p_intended_total"] = Dec(Exact(eps) * Rational(static_cast<long>(rounds.size())));
    comp["eps_p_implemented_total_hi"] = Dec(eps_total_hi);
    if (kind == fl::MechanismKind::kGaussian) comp["delta_total"] = Dec(delta_total);
    if (ucdp_all && !rounds.empty()) {
      comp["eps_u_total_as_printed_hi"] = Dec(eps_u_total_printed);
      comp["eps_u_total_corrected_hi"] = Dec(eps_u_total_corrected);
      comp["delta_u_total"] = Dec(Exact(Num(cfg, "delta_u")) * Rational(static_cast<long>(rounds.size())));
    }
    out["composition"] = comp;
  }
  return out;
}

namespace {
std::string Digest(nlohmann::json cert) {
  cert.erase("digest");
  const std::string text = cert.dump();
  return fl::Sha256Hex(text.data(), text.size());
}
}  // namespace

nlohmann::json BuildCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                const std::string& code_version, const fl::TrainResult& result) {
  nlohmann::json cert;
  cert["format"] = "dpfl-certificate-v1";
  cert["configuration"] = configuration;
  cert["dataset"] = dataset;
  cert["code_version"] = code_version;
  cert["keys_policy"] =
      "simulation: client X25519 key pairs (crypto_kx_seed_keypair) and private-coin ChaCha20 keys are derived from the "
      "run seed with BLAKE2b, so runs are reproducible; the pair key is BLAKE2b(X25519(sk, pk_partner) || pk_Q1 || pk_Q2) "
      "and keys the pair's shared bits; the server relays public keys, the pairing and the quantized bits only. "
      "Anyone who knows the seed can recompute every key: a deployment must draw client keys with randombytes.";
  cert["rounds"] = nlohmann::json::array();
  nlohmann::json layers = nlohmann::json::array();
  for (const auto& r : result.history) {
    nlohmann::json c = nlohmann::json::array(), rr = nlohmann::json::array();
    for (double x : r.c) c.push_back(HexDouble(x));
    for (double x : r.r) rr.push_back(HexDouble(x));
    layers.push_back({{"round", r.round + 1}, {"c", c}, {"r", rr}});
    cert["rounds"].push_back({{"round", r.round + 1}, {"val_accuracy", r.val_accuracy}, {"test_accuracy", r.test_accuracy},
                              {"survivors", r.survivors}, {"pairs", r.pairs}, {"solo", r.solo},
                              {"reloaded_best", r.reloaded_best},
                              {"monitor", {{"applicable", r.monitor.applicable}, {"passed", r.monitor.passed},
                                           {"test", r.monitor.test}, {"statistic", r.monitor.statistic},
                                           {"critical", r.monitor.critical}, {"alpha", r.monitor.alpha},
                                           {"samples", r.monitor.samples}}}});
  }
  cert["broadcast_ranges"] = layers;
  cert["privacy"] = ComputePrivacy(configuration, layers);
  cert["final"] = {{"test_accuracy", result.final_test.accuracy}, {"test_loss", result.final_test.loss},
                   {"weights_sha256", fl::Sha256Hex(result.final_weights.data(), result.final_weights.size() * sizeof(float))}};
  cert["digest"] = Digest(cert);
  return cert;
}

Verification VerifyCertificate(const nlohmann::json& cert) {
  Verification v;
  auto problem = [&](const std::string& p) {
    v.ok = false;
    v.problems.push_back(p);
  };
  try {
    if (cert.value("format", "") != "dpfl-certificate-v1") problem("format is not dpfl-certificate-v1");
    const nlohmann::json recomputed = ComputePrivacy(cert.at("configuration"), cert.at("broadcast_ranges"));
    if (recomputed != cert.at("privacy")) {
      const auto diff = nlohmann::json::diff(cert.at("privacy"), recomputed);
      problem("privacy ledger differs from the recomputation: " + diff.dump().substr(0, 400));
    }
    for (const auto& r : cert.at("rounds"))
      if (r.at("monitor").at("applicable").get<bool>() && !r.at("monitor").at("passed").get<bool>())
        problem("runtime monitor failed in round " + r.at("round").dump());
    if (cert.at("rounds").size() != cert.at("broadcast_ranges").size()) problem("round count mismatch");
    for (const auto& entry : recomputed.value("rounds", nlohmann::json::array()))
      if (entry.contains("delta_ok") && !entry["delta_ok"].get<bool>()) problem("gaussian delta exceeds the target");
    if (cert.value("digest", "") != Digest(cert)) problem("digest mismatch (the certificate was edited)");
  } catch (const std::exception& e) {
    problem(std::string("malformed certificate: ") + e.what());
  }
  return v;
}

}  // namespace dpfl::certify
