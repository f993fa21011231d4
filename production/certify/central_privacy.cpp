// The certificate's "tight central" guarantee (DESIGN.md "Certificate (v2)"): ε(δ) of what an
// observer of the aggregate learns about one client over the whole run, from the reference's PLD
// accountant (reference/include/dpfl/ref/pld_central.hpp): an exact per-coordinate dominating
// pair over every configuration of the other clients' inputs, composed over m coordinates and T
// rounds, with a lower end from configurations an adversary can realise. The verifier recomputes
// it through the same call (verify.cpp recomputes ComputePrivacy).
#include <cmath>

#include "certificate.hpp"
#include "certificate_internal.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/protocol/assignment.hpp"
#include "dpfl/ref/pld_central.hpp"

namespace dpfl::certify::internal {
namespace {

constexpr int kCentralDigits = 25;

// The mechanisms whose aggregate is a sum of bits the PLD accountant models exactly.
bool CentralModelled(fl::MechanismKind kind) {
  return kind == fl::MechanismKind::kLdpFl || kind == fl::MechanismKind::kAugCorBinFl ||
         kind == fl::MechanismKind::kCorBinFl || kind == fl::MechanismKind::kCoqFl;
}

// The absence probability the protocol implements: a 64-bit uniform below ⌊p·2^64⌋
// (protocol::DrawPresence), exactly.
Rational ImplementedDropout(double p) {
  const Rational two64 = ref::Pow2(64);
  return Rational(ref::FloorInt(Rational(Exact(p) * two64))) / two64;
}

// The run's setting for the central PLD (pld_central.hpp) without the probabilities at the clipping
// ends and the rounds, which the callers set: clients, solo count (as DrawAssignment picks it),
// m, d, the pair scheme and the implemented dropout.
ref::pld::CentralBinarySetting SettingFromConfig(const nlohmann::json& cfg, fl::MechanismKind kind) {
  const auto n = static_cast<std::uint32_t>(U64(cfg, "clients", std::numeric_limits<std::uint32_t>::max()));
  fl::MechanismConfig mc;
  mc.kind = kind;
  mc.gamma = Num(cfg, "gamma");
  ref::pld::CentralBinarySetting s;
  s.clients = n;
  s.solo = protocol::SoloCount(n, fl::EffectiveGamma(mc));
  s.coordinates = U64(cfg, "parameters");
  s.shared_bits = fl::UsesPairs(kind) ? Int(cfg, "d") : 0;
  s.pairs = kind == fl::MechanismKind::kCoqFl ? ref::pld::PairScheme::kCoq : ref::pld::PairScheme::kCorBinQ;
  s.dropout = ImplementedDropout(Num(cfg, "dropout"));
  return s;
}

// Why the central row is not computed for a mechanism outside CentralModelled.
std::string NotModelledReason(fl::MechanismKind kind) {
  if (kind == fl::MechanismKind::kGaussian || kind == fl::MechanismKind::kLaplace)
    return "not computed: the implemented aggregate is the mean of each client's message decoded to a float "
           "(fl::Aggregate), which is not a function of the integer sum of the grid messages, so the PLD of a sum of "
           "discrete noises would not describe it; the tight local row (whole participation) bounds this observer too";
  return "not computed: dpfl models the aggregate's PLD for the binary mechanisms ldp-fl, augcorbin-fl, corbin-fl "
         "and coq-fl only";
}

std::string EpsText(const std::optional<Rational>& e, bool upper) {
  if (!e) return "inf";
  return upper ? ref::ToDecimalStringUp(*e, kCentralDigits) : ref::ToDecimalStringDown(*e, kCentralDigits);
}

}  // namespace

nlohmann::json TightCentralGuarantee(const nlohmann::json& cfg, fl::MechanismKind kind, std::uint64_t rounds,
                                     const Rational& q_lo, const Rational& q_hi, const std::string& unit,
                                     const std::string& observer, const Progress& progress) {
  nlohmann::json g;
  g["notion"] = kTightCentralNotion;
  g["unit"] = unit;
  g["adjacency"] = "replace one client's update by any other; worst case over every other client's input";
  g["observer"] = observer;
  const double dropout = Num(cfg, "dropout");
  const bool binary_central = CentralModelled(kind);
  ref::pld::CentralBinarySetting s;
  if (binary_central) s = SettingFromConfig(cfg, kind);
  const long solo = s.solo;
  if (!binary_central) {
    g["composition"] = "-";
    g["epsilon_lo"] = nullptr;
    g["epsilon_hi"] = nullptr;
    g["delta"] = nullptr;
    g["applies"] = false;
    g["reason"] = NotModelledReason(kind);
    return g;
  }
  s.q_lo = q_lo;
  s.q_hi = q_hi;
  s.rounds = rounds;
  const Rational delta = Exact(Num(cfg, "delta_u"));
  ref::pld::AccountOptions options;
  // 0.1 % where the accountant uses connect-the-dots (no dropout, at most 100 solo clients): seconds
  // at m = 20,490, T = 8, 100 solo clients, and the lower end then sits within ~0.1 % of the worst
  // realisable configuration's ε. The dropout / many-solo paths still round (error ~K·h): 1 %.
  const bool connect_dots = dropout == 0 && solo <= ref::pld::kCentralMaxSolo;
  options.relative_width = connect_dots ? Rational(1, 1000) : Rational(1, 100);
  if (progress) options.progress = [&progress](const std::string& line) { progress("tight central row, " + line); };
  const ref::pld::CentralResult r = ref::pld::CentralBinaryEpsilon(s, delta, options);
  if (dropout > 0 || solo > ref::pld::kCentralMaxSolo)
    g["observer"] = observer + "; it also sees each round's schedule (who took part, the pairing, the solo set)";
  if (dropout > 0) {
    g["dropout_implemented"] = ref::ToExactString(s.dropout);
    g["composition"] = "per round a mixture over the public dropout pattern (absent; solo or paired; how many other "
                       "solo clients), each pattern's exact worst-case envelope composed over the m = " +
                       std::to_string(s.coordinates) + " coordinates, then over T = " + std::to_string(rounds) +
                       " rounds (implemented 64-bit probabilities at the clipping ends and for dropout); lower end "
                       "the same mixture for every other client at the centre of its range";
  } else if (solo > ref::pld::kCentralMaxSolo) {
    g["composition"] = "per round a mixture over the target's public role (solo or paired), each role's worst case over "
                       "the other clients' inputs bounded by the fair-coin part of the " + std::to_string(solo) +
                       " solo clients' bits (reference pld_central.hpp \"Many solo clients\"), composed over the m = " +
                       std::to_string(s.coordinates) + " coordinates, then over T = " + std::to_string(rounds) +
                       " rounds; lower end every other client at the centre of its range";
  } else {
    g["composition"] = "over the m = " + std::to_string(s.coordinates) + " coordinates and T = " + std::to_string(rounds) +
                       " rounds, every coordinate's pair one of the exact worst-case configurations of the other "
                       "clients' inputs (implemented 64-bit probabilities at the clipping ends): upper end the smaller "
                       "of the PLD of their dominating envelope and RDP with the worst configuration at each order; "
                       "lower end the PLD of the worst single configuration an adversary can realise";
  }
  g["epsilon_hi_pld_envelope"] = EpsText(r.upper.epsilon.hi, true);
  g["epsilon_hi_rdp"] = r.rdp_upper ? EpsText(r.rdp_upper->hi(), true) : "inf";
  g["epsilon_lo"] = EpsText(r.epsilon.lo, false);
  g["epsilon_hi"] = EpsText(r.epsilon.hi, true);
  g["delta"] = ref::ToDecimalStringUp(delta, kCentralDigits);
  g["applies"] = true;
  g["solo_clients"] = solo;
  g["infinite_loss_probability_per_coordinate"] = ref::ToDecimalStringUp(r.infinite_mass_upper, 6);  // averaged over patterns with dropout
  if (!r.epsilon.hi)
    g["reason"] = "no finite epsilon exists at this delta: in the worst case a client's coordinate has privacy loss "
                  "+inf with the probability above (paired clients whose partner's input makes the pair's sum "
                  "deterministic, and too few solo clients to hide a shift of one), and m T coordinates compound it";
  return g;
}

Rational NoiseScale(const fl::DiscreteNoiseLaw& law) {
  return law.kind == fl::MechanismKind::kGaussian ? ref::ParseRational(fl::ToString(law.gaussian_sigma2), "sigma2")
                                                  : ref::ParseRational(fl::ToString(law.laplace_scale), "t");
}

ref::pld::AccountResult NoiseLawEpsilon(const fl::DiscreteNoiseLaw& law, std::uint64_t releases, const Rational& delta,
                                        const ref::pld::AccountOptions& options) {
  const Rational scale = NoiseScale(law);
  const long n = static_cast<long>(law.grid_steps);
  const bool gauss = law.kind == fl::MechanismKind::kGaussian;
  return ref::pld::EpsilonOfComposition(
      [&](const ref::pld::GridOptions& grid) {
        return gauss ? ref::pld::DiscreteGaussianPld(scale, n, grid) : ref::pld::DiscreteLaplacePld(scale, n, grid);
      },
      releases, delta, options);
}

nlohmann::json TightLocalNoiseGuarantee(const fl::DiscreteNoiseLaw& law, std::uint64_t parameters, std::uint64_t rounds,
                                        const Rational& delta, const std::string& observer, bool legacy_rounding) {
  const bool gauss = law.kind == fl::MechanismKind::kGaussian;
  nlohmann::json g;
  g["notion"] = kTightLocalNotion;
  g["unit"] = std::string(kWholeUpdateAllRoundsUnit) + " (m T = " + std::to_string(parameters * rounds) +
              " parameter releases)";
  g["adjacency"] = "any two sequences of update vectors (every coordinate clipped to its layer's range)";
  g["observer"] = observer + "; also anyone who sees only the aggregate (a post-processing of the messages)";
  g["composition"] = std::string("PLD of the ") +
                     (gauss ? "discrete Gaussian N_Z(0, sigma2)" : "discrete Laplace L_Z(t)") + " shifted by N = " +
                     std::to_string(law.grid_steps) +
                     " grid steps (the exact law the code samples; the shift N dominates every smaller one), composed "
                     "over the m T releases: the tight version of basic composition's m T " +
                     (gauss ? "(epsilon_p, delta)" : "epsilon_p");
  const std::uint64_t k = parameters * rounds;
  if (k < 1 || k > 1000000000ull) {
    g["applies"] = false;
    g["epsilon_lo"] = nullptr;
    g["epsilon_hi"] = nullptr;
    g["reason"] = "not computed: m T must be in [1, 1e9]";
    return g;
  }
  // Connect-the-dots (error ~K·h²): at the main job's m T = 163 920 releases of the gaussian
  // baseline's law, 0.15 s and 32 MB where rounding at 1/100 took 46 s and 1.7 GB.
  ref::pld::AccountOptions options;
  if (!legacy_rounding) {
    options.discretization = ref::pld::Discretization::kConnectDots;
    options.relative_width = Rational(1, 1000);
  }
  const ref::pld::AccountResult r = NoiseLawEpsilon(law, k, delta, options);
  g["epsilon_lo"] = EpsText(r.epsilon.lo, false);
  g["epsilon_hi"] = EpsText(r.epsilon.hi, true);
  g["delta"] = ref::ToDecimalStringUp(delta, kCentralDigits);
  g["applies"] = true;
  return g;
}

}  // namespace dpfl::certify::internal

namespace dpfl::certify {

TargetPlan PlanTargetEpsilon(const nlohmann::json& cfg, double target, bool calibrate,
                             const std::function<void(const std::string&)>& progress) {
  using namespace internal;  // NOLINT
  if (!(target > 0 && std::isfinite(target))) throw InvalidArgument("--target-epsilon", "must be a finite number > 0");
  const fl::MechanismKind kind = fl::ParseMechanism(Str(cfg, "mechanism"));
  const bool noise = kind == fl::MechanismKind::kGaussian || kind == fl::MechanismKind::kLaplace;
  if (!CentralModelled(kind) && !noise)
    throw InvalidArgument("--target-epsilon", "supported for ldp-fl, augcorbin-fl, corbin-fl, coq-fl (the tight central "
                                              "row) and gaussian, laplace (the tight local row), not for " +
                                                  Str(cfg, "mechanism"));
  ref::pld::CentralBinarySetting s;
  if (!noise) s = SettingFromConfig(cfg, kind);
  const fl::MechanismConfig base = noise ? TrainConfigFromJson(cfg).mechanism : fl::MechanismConfig{};
  const Rational delta = Exact(Num(cfg, "delta_u"));
  const Rational goal = Exact(target) * (1 - Rational(1, 1000000000));  // room for the implemented thresholds
  TargetPlan plan;
  plan.mode = calibrate ? "calibrate" : "stop";
  plan.row = noise ? kTightLocalNotion : kTightCentralNotion;
  ref::pld::AccountOptions options;
  options.relative_width = Rational(1, 50);  // coarse is still an upper bound; the certificate refines
  options.discretization = ref::pld::Discretization::kConnectDots;
  // The predicted upper end at (eps_p, rounds); empty = +inf.
  auto upper = [&](double eps_p, std::uint64_t rounds) -> std::optional<Rational> {
    ++plan.evaluations;
    if (progress) progress("target epsilon: accountant run " + std::to_string(plan.evaluations) + " (eps_p " +
                           std::to_string(eps_p) + ", rounds " + std::to_string(rounds) + ")");
    if (noise) {  // the exact law production samples at this eps_p (its sigma^2 or t), m·rounds releases
      fl::MechanismConfig mc = base;
      mc.eps_p = eps_p;
      return NoiseLawEpsilon(fl::DiscreteNoiseLawFor(mc), U64(cfg, "parameters") * rounds, delta, options).epsilon.hi;
    }
    const ref::pld::QuantizedEnds ends = ref::pld::EndsForEpsilon(Exact(eps_p));
    s.q_hi = ends.q_hi;
    s.q_lo = ends.q_lo;
    s.rounds = rounds;
    return ref::pld::CentralBinaryEpsilon(s, delta, options, false).epsilon.hi;
  };
  auto meets = [&](const std::optional<Rational>& e) { return e && *e <= goal; };
  const std::uint64_t T = U64(cfg, "rounds");
  std::optional<Rational> at;
  if (calibrate) {
    // The gaussian law needs sigma^2 < 2^64 grid units (fl::DiscreteNoiseLawFor): eps_p >= 0.01.
    double lo = kind == fl::MechanismKind::kGaussian ? 1e-2 : 1e-3, hi = 30;
    if (!meets(at = upper(lo, T)))
      throw InvalidArgument("--target-epsilon", "cannot be met: even eps_p = " + std::to_string(lo) + " gives an epsilon of " +
                                                    (at ? ref::ToDecimalStringUp(*at, 8) : std::string("+inf")) +
                                                    " at these settings" + (noise ? std::string() : " (" + std::to_string(s.solo) + " solo clients)"));
    std::optional<Rational> best = at;
    if (meets(at = upper(hi, T))) {
      lo = hi;
      best = at;
    }
    while (hi / lo > 1.005) {
      const double mid = std::sqrt(lo * hi);
      if (meets(at = upper(mid, T))) {
        lo = mid;
        best = at;
      } else {
        hi = mid;
      }
    }
    plan.eps_p = lo;
    plan.rounds = static_cast<std::uint32_t>(T);
    plan.epsilon_hi = ref::ToDecimalStringUp(*best, 17);
    return plan;
  }
  const double eps_p = Num(cfg, "eps_p");
  std::uint64_t lo = 0, hi = T;  // meets(lo) (0 rounds: nothing released), find the largest
  std::optional<Rational> best;
  if (meets(at = upper(eps_p, T))) {
    lo = T;
    best = at;
  }
  while (hi - lo > 1) {
    const std::uint64_t mid = (lo + hi) / 2;
    if (meets(at = upper(eps_p, mid))) {
      lo = mid;
      best = at;
    } else {
      hi = mid;
    }
  }
  if (lo == 0)
    throw InvalidArgument("--target-epsilon", "cannot be met: one round at eps_p = " + std::to_string(eps_p) +
                                                  " already exceeds it");
  plan.eps_p = eps_p;
  plan.rounds = static_cast<std::uint32_t>(lo);
  plan.epsilon_hi = ref::ToDecimalStringUp(*best, 17);
  return plan;
}

}  // namespace dpfl::certify
