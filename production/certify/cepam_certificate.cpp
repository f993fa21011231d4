// The seed-002 certificate (CEPAM and its baselines; docs/training.md "CEPAM"): configuration
// mapping, the §3.11 calibration, the privacy section, BuildCepamCertificate and the checks
// VerifyCertificate runs on it.
//
// Privacy (spec 002 §4.6–4.8, §6), per round unless said otherwise, adjacency: substitute one data
// point of one client (≃_s), amplification by sampling with replacement (p_s = 1 − (1 − 1/n_k)^τ,
// Theorem 7; valid because every round's optimizer starts fresh, E-X5), n_k = min over the clients
// with data (E-P8) of the data set actually used. Every δ is a reference enclosure's upper end
// at ε̃ = a rational at or below ln(1 + (e^ε − 1)/p_s), so each stated (ε, δ) holds.
//  Gaussian family (cepam-gaussian: N(0, σ²) per coordinate exactly, Prop. 5; fl-gaussian[-sdq]):
//   * Theorem 12 as printed (16): the average (1/K)Σ X̂^k against the other clients, trusted server;
//     a valid upper bound (E-P2) with the conservative Δ2 = 2τγ/K (E-P4);
//   * Theorem 12 corrected: capped summands (E-P2) and Δ2 = 2γ/K (E-P4);
//   * against one curious client, who subtracts its own noise: σ̃ = σ√(K−1)/K (E-P6);
//   * per client against the server, which decodes X̂^k = X̃^k + N(0, σ²I) on its own: Δ2 = 2γ,
//     σ̃ = σ (Theorem 12's corrected form at K = 1) — the guarantee a client has if the server is
//     not trusted, usually far weaker;
//   * that per-client guarantee over the T rounds by basic composition (Tε, Tδ) (E-P7: the paper
//     has none).
//  Laplace family (cepam-laplace: Lap(0, b) per coordinate, n = 1; fl-laplace[-sdq]): the theorem
//  is about X̂^k itself, so every row holds against the server too:
//   * Theorem 13 as printed (ε̃ = 2τγ/b): not a guarantee under ℓ2 clipping (E-P5), value kept;
//   * corrected (E-P5): ε̃ = 2τγ√m/b; with E-P4 also: ε̃ = 2γ√m/b; and T rounds of the latter.
//  SDQ after the noise is post-processing. fl and fl-sdq: no guarantee.
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "certificate.hpp"
#include "certificate_internal.hpp"
#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/ref/cepam.hpp"

namespace dpfl::certify {

using namespace internal;  // NOLINT: the certificate's own helpers

namespace {

constexpr const char* kUnit = "one data point of one client (sample level, seed 002 section 2.3)";
constexpr const char* kAdjacency =
    "substitute one data point of one client; sampling with replacement, tau draws per round (Theorem 7)";
constexpr const char* kPerRound = "one round (E-P7: the paper states no composition)";
constexpr int kCalibrationToleranceBits = 20;

double OptionalNum(const nlohmann::json& cfg, const std::string& key) {
  const nlohmann::json& v = Field(cfg, key);
  return v.is_null() ? 0.0 : Num(cfg, key);
}

struct Setting {
  std::string mechanism;
  Rational clip;
  long tau = 0, clients = 0, n_k = 0;
  std::uint64_t rounds = 0, m = 0;
};

Setting SettingOf(const nlohmann::json& cfg) {
  Setting s;
  s.mechanism = Str(cfg, "mechanism");
  s.clip = Exact(Num(cfg, "clip"));
  // Bounds that keep the reference's sums (τ terms, Theorem 12) fast on untrusted certificates.
  s.tau = static_cast<long>(U64(cfg, "local_steps", fl::kCepamMaxLocalSteps));
  s.clients = static_cast<long>(U64(cfg, "clients", 1u << 20));
  s.n_k = static_cast<long>(U64(cfg, "n_k", std::numeric_limits<std::uint32_t>::max()));
  s.rounds = U64(cfg, "rounds", std::numeric_limits<std::uint32_t>::max());
  s.m = U64(cfg, "parameters", std::uint64_t{1} << 40);
  if (s.tau < 1 || s.clients < 1 || s.n_k < 1 || s.m < 1) BadField("n_k", "local_steps, clients, n_k and parameters must be >= 1");
  return s;
}

// A row with a fixed ε enclosure and a computed δ (its enclosure's upper end).
nlohmann::json Row(const std::string& notion, const std::string& observer, const std::string& composition,
                   const Interval& eps, const Interval& delta, const std::string& reason) {
  nlohmann::json g = Guarantee(notion, kUnit, kAdjacency, observer, composition, &eps, DecUp(delta.hi()), true, reason);
  g["delta_enclosure"] = IntervalJson(delta);
  return g;
}

// Who sees a client's decoded update X^k = X~^k + Z and nothing else: for the baselines the server
// (it receives X~ + Z); for CEPAM anyone but the server, which holds the client's shared
// randomness (the layer and the dithers) and so sees more than X^k.
std::string UpdateObserver(fl::CepamFlMechanism m) {
  const bool cepam = m == fl::CepamFlMechanism::kCepamGaussian || m == fl::CepamFlMechanism::kCepamLaplace;
  return cepam ? "anyone who sees a client's decoded update but not its shared randomness (another client, an "
                 "eavesdropper on the broadcast; not the server)"
               : "the server, which receives each client's noised update X~ + Z on its own (and anyone who sees it)";
}

// The server's view of a CEPAM client holds the shared randomness S (every layer U~_j and every
// dither), and given S the message is a deterministic function of the update: the layered noise is
// Gaussian/Laplace only marginally over S. For n = 1 and c = 1 (one trial per block, step
// Delta_j = 2 r_j) the lattice index of block j differs between updates x, x' with probability
// min(1, |x_j − x'_j|/Delta_j) over the dither, so by the union bound over blocks and ‖x − x'‖₁ ≤
// 2γ√m the message differs with probability at most 2γ√m · E[1/Delta] =
//   Gaussian (r = σ√U~, U~ ~ χ²_3, E[U~^(−1/2)] = √(2/π)):  √(2/π) γ√m/σ,
//   Laplace  (r = bU~,  U~ ~ Gamma(2, 1), E[1/U~] = 1):      γ√m/b.
// A mechanism whose outputs on neighbours differ with probability at most δ0 is (0, δ0)-DP, and
// Theorem 7 (every κ has δ_κ ≤ δ0) makes the round (0, p_s·min(1, δ0))-DP. n > 1 or c > 1
// (rejected trials) has no such bound here.
Interval SharedRandomnessDelta(fl::CepamFlMechanism m, const Setting& s, const Rational& scale, const Rational& p_s) {
  const ref::Enclosure sqrt_m = ref::Sqrt(ref::Enclosure(kPrec, Rational(ref::Int(s.m))));
  ref::Enclosure bound = s.clip * sqrt_m / scale;
  if (m == fl::CepamFlMechanism::kCepamGaussian)
    bound = bound * ref::Sqrt(ref::Enclosure(kPrec, Rational(2)) / ref::Pi(kPrec));
  const Interval b = ref::ToInterval(bound);
  const auto capped = [](const Rational& x) { return x < 1 ? x : Rational(1); };
  return Interval(p_s * capped(b.lo()), p_s * capped(b.hi()));
}

constexpr const char* kServerNotion = "(0, delta)-DP per client against the server, which holds the shared randomness";

// The row of SharedRandomnessDelta (cepam-* only).
nlohmann::json SharedRandomnessRow(const nlohmann::json& cfg, fl::CepamFlMechanism m, const Setting& s,
                                   const Rational& scale, const Rational& p_s, Interval* delta) {
  constexpr const char* kObserver = "the server: it decodes each client's message with the client's shared randomness";
  if (Int(cfg, "lattice_dim") != 1)
    return Guarantee(kServerNotion, kUnit, kAdjacency, kObserver, kPerRound, nullptr, "", false,
                     "the server holds the layer and the dithers, so given them the message is a deterministic function "
                     "of the update; for n > 1 (rejected trials) no bound is computed here");
  *delta = SharedRandomnessDelta(m, s, scale, p_s);
  const Interval zero(Rational(0));
  return Row(kServerNotion, kObserver, kPerRound, zero, *delta,
             "given the shared randomness the message is a deterministic function of the update (the noise is "
             "Gaussian/Laplace only marginally over it): delta = p_s min(1, P(the message differs)), by the union "
             "bound over blocks");
}

// A δ enclosure as an exact interval, except that a δ below 10^−300 is stated as [0, 2^−996]:
// HiDouble rounds the upper end up, so the true δ is below it, and the exact dyadic endpoints
// of a δ like 10^−(10^8) (a σ far above the sensitivity) would be numbers of 10^8 digits.
Interval DeltaInterval(const ref::Enclosure& delta) {
  static const Rational kTiny = ref::Pow2(-996);  // ≈ 1.5·10^−300
  if (delta.HiDouble() < 1e-300) return Interval(Rational(0), kTiny);  // 10^−300 < 2^−996
  return ref::ToInterval(delta);
}

// ε̃ > 0 for the target ε, as a rational at or below the exact inverse (so ε(ε̃) ≤ ε).
Rational EpsTilde(const Rational& eps, const Rational& p_s) {
  const Interval e = ref::ToInterval(ref::BaseEpsilon(eps, p_s, kPrec));
  if (!(e.lo() > 0)) throw InvalidArgument("--eps", "must be > 0");
  return e.lo();
}

void GaussianRows(const nlohmann::json& cfg, const Setting& s, nlohmann::json& p) {
  const Rational sigma = Exact(Num(cfg, "sigma")), eps = Exact(Num(cfg, "eps"));
  const Rational p_s = ref::SubsamplingProbability(s.n_k, s.tau);
  const Rational eps_tilde = EpsTilde(eps, p_s);
  p["eps_tilde"] = Dec(eps_tilde);
  nlohmann::json& g = p["guarantees"];
  ref::Thm12Params params{sigma, eps_tilde, s.tau, s.clients, s.clip, s.n_k};
  const ref::Thm12Result printed = ref::Theorem12(params, ref::Thm12Variant::kAsPrinted, kPrec);
  const Interval eps_i = ref::ToInterval(printed.epsilon);
  const Interval d_printed = DeltaInterval(printed.delta);
  const Interval floor = ref::ToInterval(ref::Theorem12Floor(eps_tilde, s.tau, s.n_k, kPrec));
  // E-P3: a δ at or above what every mechanism of this kind meets with σ = 0 (p_s per round,
  // spec §4.7's trivial bound; min(1, T p_s) over T rounds) certifies nothing about the noise.
  const auto vacuity = [](const Interval& d, const Rational& trivial) {
    return d.hi() >= trivial ? std::string(" E-P3: this delta is at least ") + Dec(trivial) +
                                   ", which every mechanism of this kind meets with no noise at all: the row does not "
                                   "certify the noise."
                             : std::string();
  };
  const std::string vacuous = vacuity(d_printed, p_s);
  g.push_back(Row("(epsilon, delta)-DP, seed-002 Theorem 12 as printed (16)",
                  "the other clients, who see the average (1/K) sum of the decoded updates (trusted server)", kPerRound,
                  eps_i, d_printed,
                  "valid upper bound (E-P2) with the conservative sensitivity 2 tau gamma/K (E-P4); floor (sigma -> 0) " +
                      DecUp(floor.hi()) + "." + vacuous));
  const ref::Thm12Result corrected = ref::Theorem12(params, ref::Thm12Variant::kSensitivityCorrected, kPrec);
  const Interval d_corrected = DeltaInterval(corrected.delta_capped);
  g.push_back(Row("(epsilon, delta)-DP, Theorem 12 corrected (E-P2 capped summands, E-P4 sensitivity 2 gamma/K)",
                  "the other clients, who see the average (trusted server)", kPerRound, eps_i, d_corrected,
                  vacuity(d_corrected, p_s)));
  if (s.clients >= 2) {
    const ref::Thm12Result own = ref::Theorem12(params, ref::Thm12Variant::kOwnNoiseSubtracted, kPrec);
    const Interval d_own = DeltaInterval(own.delta_capped);
    g.push_back(Row("(epsilon, delta)-DP against one curious client who removes its own noise (E-P6)",
                    "one other client (it knows its own noise; sigma~ = sigma sqrt(K - 1)/K)", kPerRound, eps_i, d_own,
                    vacuity(d_own, p_s)));
  }
  const fl::CepamFlMechanism mech = fl::ParseCepamFlMechanism(s.mechanism);
  const bool cepam = mech == fl::CepamFlMechanism::kCepamGaussian;
  ref::Thm12Params one = params;
  one.clients = 1;
  const ref::Thm12Result single = ref::Theorem12(one, ref::Thm12Variant::kSensitivityCorrected, kPrec);
  const Interval d_single = DeltaInterval(single.delta_capped);
  g.push_back(Row("(epsilon, delta)-DP per client, one decoded update (l2 sensitivity 2 gamma, noise sigma)",
                  UpdateObserver(mech), kPerRound, eps_i, d_single,
                  "Theorem 12's corrected form at K = 1: no averaging protects a client from whoever sees its own "
                  "decoded update." + vacuity(d_single, p_s)));
  const Rational T(static_cast<long>(s.rounds));
  const auto capped = [](const Rational& x) { return x < 1 ? x : Rational(1); };  // a δ above 1 says nothing more
  const Interval d_total(capped(d_single.lo() * T), capped(d_single.hi() * T));
  g.push_back(Row("(epsilon, delta)-DP per client, one decoded update, whole run", UpdateObserver(mech),
                  "T rounds, basic composition (T epsilon, T delta)", Interval(Rational(eps_i.lo() * T), Rational(eps_i.hi() * T)),
                  d_total, vacuity(d_total, capped(p_s * T))));
  Interval d_server = d_single;  // the baselines' server sees the decoded update only
  if (cepam) g.push_back(SharedRandomnessRow(cfg, mech, s, sigma, p_s, &d_server));
  if (!Field(cfg, "delta").is_null()) {  // the (ε, δ) target and whether the calibrated row meets it
    const std::string mode = Str(cfg, "calibration");
    const std::size_t row = mode == "printed" ? 0 : (mode == "corrected" ? 1 : (cepam ? g.size() - 1 : g.size() - 2));
    const Interval& d = mode == "printed" ? d_printed : (mode == "corrected" ? d_corrected : d_server);
    const bool bounded = g[row].at("applies").get<bool>();  // cepam n > 1 has no server bound
    p["target"] = {{"eps", Field(cfg, "eps")}, {"delta", Field(cfg, "delta")}, {"calibration", mode},
                   {"row", g[row]["notion"]}, {"met", bounded && d.hi() <= Exact(Num(cfg, "delta"))}};
  }
}

void LaplaceRows(const nlohmann::json& cfg, const Setting& s, nlohmann::json& p) {
  const Rational b = Exact(Num(cfg, "b"));
  const Rational p_s = ref::SubsamplingProbability(s.n_k, s.tau);
  nlohmann::json& g = p["guarantees"];
  const Rational tau(s.tau);
  const ref::Enclosure sqrt_m = ref::Sqrt(ref::Enclosure(kPrec, Rational(ref::Int(s.m))));
  // ε̃ as a rational at or above the exact value (a mechanism that is ε̃-DP is ε̃'-DP for ε̃' ≥ ε̃).
  const auto amplified = [&](const Rational& eps_tilde) {
    return ref::ToInterval(ref::AmplifiedEpsilon(eps_tilde, p_s, kPrec));
  };
  const Rational two_tau_gamma = 2 * tau * s.clip;
  const Rational printed_tilde = two_tau_gamma / b;
  const fl::CepamFlMechanism mech = fl::ParseCepamFlMechanism(s.mechanism);
  nlohmann::json row = Guarantee("epsilon-DP, seed-002 Theorem 13 as printed (epsilon~ = 2 tau gamma/b)", kUnit,
                                 kAdjacency, UpdateObserver(mech), kPerRound,
                                 nullptr, "", false,
                                 "E-P5: Theorem 10 is scalar; under l2 clipping the l1 sensitivity of an m-vector is "
                                 "2 gamma sqrt(m), not 2 gamma, so this value is not a guarantee");
  row["epsilon_as_printed"] = IntervalJson(amplified(printed_tilde));
  g.push_back(row);
  const Rational corrected_tilde = ref::ToInterval(two_tau_gamma * sqrt_m / b).hi();
  const Interval zero(Rational(0));
  g.push_back(Row("epsilon-DP, Theorem 13 corrected (E-P5: epsilon~ = 2 tau gamma sqrt(m)/b)", UpdateObserver(mech),
                  kPerRound, amplified(corrected_tilde),
                  zero, ""));
  const Rational tight_tilde = ref::ToInterval(Rational(2 * s.clip) * sqrt_m / b).hi();
  const Interval tight = amplified(tight_tilde);
  g.push_back(Row("epsilon-DP, Theorem 13 corrected (E-P5 and E-P4: epsilon~ = 2 gamma sqrt(m)/b)", UpdateObserver(mech),
                  kPerRound, tight, zero, ""));
  const Rational T(static_cast<long>(s.rounds));
  g.push_back(Row("epsilon-DP per client, one decoded update, whole run", UpdateObserver(mech),
                  "T rounds, basic composition (T epsilon)", Interval(Rational(tight.lo() * T), Rational(tight.hi() * T)), zero, ""));
  if (mech == fl::CepamFlMechanism::kCepamLaplace) {
    Interval unused;
    g.push_back(SharedRandomnessRow(cfg, mech, s, b, p_s, &unused));
  }
  p["eps_tilde_corrected"] = DecUp(corrected_tilde);
}

}  // namespace

fl::CepamTrainConfig CepamTrainConfigFromJson(const nlohmann::json& cfg) {
  fl::CepamTrainConfig c;
  c.uplink.mechanism = fl::ParseCepamFlMechanism(Str(cfg, "mechanism"));
  c.uplink.lattice_dim = Int(cfg, "lattice_dim");
  c.uplink.clip = Num(cfg, "clip");
  c.uplink.sigma = OptionalNum(cfg, "sigma");
  c.uplink.b = OptionalNum(cfg, "b");
  c.uplink.sdq_step = OptionalNum(cfg, "sdq_step");
  const std::string generator = Str(cfg, "generator");
  if (generator != "chacha20" && generator != "philox")
    throw InvalidArgument("--generator", "must be chacha20 or philox, got '" + generator.substr(0, 40) + "'");
  c.uplink.generator = generator == "philox" ? rng::Generator::kPhilox4x32 : rng::Generator::kChaCha20;
  c.clients = static_cast<std::uint32_t>(U64(cfg, "clients", std::numeric_limits<std::uint32_t>::max()));
  c.rounds = static_cast<std::uint32_t>(U64(cfg, "rounds", std::numeric_limits<std::uint32_t>::max()));
  c.local_steps = Int(cfg, "local_steps");
  c.split = Str(cfg, "split");
  c.dirichlet_beta = Num(cfg, "beta");
  c.seed = U64(cfg, "seed");
  c.transcript_context = TranscriptContext(cfg);
  return c;
}

double CalibrateCepamNoise(const CepamCalibrationRequest& r) {
  const fl::CepamFlMechanism mech = fl::ParseCepamFlMechanism(r.mechanism);
  if (r.calibration != "printed" && r.calibration != "corrected" && r.calibration != "server")
    throw InvalidArgument("--calibration", "must be printed, corrected or server, got '" + r.calibration.substr(0, 40) + "'");
  if (!(std::isfinite(r.eps) && r.eps > 0)) throw InvalidArgument("--eps", "must be finite and > 0");
  if (!(std::isfinite(r.clip) && r.clip > 0)) throw InvalidArgument("--clip", "must be finite and > 0");
  if (r.local_steps < 1 || r.local_steps > static_cast<std::uint32_t>(fl::kCepamMaxLocalSteps))
    throw InvalidArgument("--local-steps", "calibration needs 1 <= tau <= " + std::to_string(fl::kCepamMaxLocalSteps));
  if (r.clients < 1 || r.n_k < 1 || r.parameters < 1) throw InvalidArgument("--clients", "calibration needs K, n_k and m >= 1");
  const long tau = static_cast<long>(r.local_steps), n_k = static_cast<long>(r.n_k);
  const Rational p_s = ref::SubsamplingProbability(n_k, tau);
  const Rational eps_tilde = EpsTilde(Exact(r.eps), p_s);
  const bool cepam = mech == fl::CepamFlMechanism::kCepamGaussian || mech == fl::CepamFlMechanism::kCepamLaplace;
  if (cepam && r.calibration == "server") {
    // The server holds the shared randomness: only the (0, δ) bound of SharedRandomnessDelta applies.
    if (mech == fl::CepamFlMechanism::kCepamLaplace)
      throw InvalidArgument("--calibration", "cepam-laplace against the server, which holds the shared randomness, has "
                                             "only a (0, delta) bound and no epsilon to calibrate to; use printed or "
                                             "corrected (against the other clients) or fl-laplace");
    if (r.lattice_dim != 1)
      throw InvalidArgument("--calibration", "server: the shared-randomness bound is computed for n = 1 only");
    if (!(std::isfinite(r.delta) && r.delta > 0 && r.delta < 1)) throw InvalidArgument("--delta", "must be in (0, 1)");
    if (Exact(r.delta) >= p_s)
      throw InvalidArgument("--delta", "E-P3: delta >= p_s = " + Dec(p_s) + ": the target would certify no noise");
    // p_s √(2/π) γ√m / σ ≤ δ  ⇔  σ ≥ p_s √(2/π) γ√m / δ.
    const ref::Enclosure sigma = p_s * Exact(r.clip) *
                                 ref::Sqrt(ref::Enclosure(kPrec, Rational(ref::Int(r.parameters)))) *
                                 ref::Sqrt(ref::Enclosure(kPrec, Rational(2)) / ref::Pi(kPrec)) / Exact(r.delta);
    return sigma.HiDouble();
  }
  if (fl::CepamFlLaplace(mech)) {
    const Rational factor = r.calibration == "printed" ? 2 * Rational(tau) * Exact(r.clip) : 2 * Exact(r.clip);
    const ref::Enclosure b = factor * ref::Sqrt(ref::Enclosure(kPrec, Rational(ref::Int(r.parameters)))) / eps_tilde;
    return b.HiDouble();
  }
  if (!fl::CepamFlGaussian(mech))
    throw InvalidArgument("--eps", "mechanism " + r.mechanism + " adds no noise: there is nothing to calibrate");
  if (!(std::isfinite(r.delta) && r.delta > 0 && r.delta < 1)) throw InvalidArgument("--delta", "must be in (0, 1)");
  if (Exact(r.delta) >= p_s)  // §4.7 trivial bound: the changed point is sampled with probability p_s
    throw InvalidArgument("--delta", "E-P3: delta = " + ShortestDouble(r.delta) + " >= p_s = " + Dec(p_s) + " (n_k = " +
                                         std::to_string(r.n_k) + ", tau = " + std::to_string(r.local_steps) +
                                         "): every mechanism of this kind, sigma = 0 included, is (eps, p_s)-DP, so the "
                                         "target would certify no noise; choose delta well below p_s");
  const bool printed = r.calibration == "printed";
  const long clients = r.calibration == "server" ? 1 : static_cast<long>(r.clients);
  const auto sigma = ref::CalibrateTheorem12Sigma(
      Exact(r.eps), Exact(r.delta), tau, clients, Exact(r.clip), n_k,
      printed ? ref::Thm12Variant::kAsPrinted : ref::Thm12Variant::kSensitivityCorrected, !printed,
      kCalibrationToleranceBits, kPrec);
  if (!sigma) {
    const std::string limit = printed ? DecUp(ref::ToInterval(ref::Theorem12Floor(eps_tilde, tau, n_k, kPrec)).hi())
                                      : Dec(p_s) + " (= p_s)";
    throw InvalidArgument("--delta", "E-P3: the " + r.calibration + " row's delta tends to " + limit +
                                         " as sigma -> 0, already <= delta = " + ShortestDouble(r.delta) +
                                         ": every sigma >= 0 meets the target, so it would certify no noise (p_s = " +
                                         Dec(p_s) + " with n_k = " + std::to_string(r.n_k) + ", tau = " +
                                         std::to_string(r.local_steps) + "); choose delta well below p_s");
  }
  return ref::Enclosure(kPrec, sigma->hi()).HiDouble();
}

nlohmann::json ComputeCepamPrivacy(const nlohmann::json& cfg) {
  const Setting s = SettingOf(cfg);
  const fl::CepamFlMechanism mech = fl::ParseCepamFlMechanism(s.mechanism);
  const Rational p_s = ref::SubsamplingProbability(s.n_k, s.tau);
  nlohmann::json p = {{"mechanism", s.mechanism}, {"n_k", s.n_k}, {"local_steps", s.tau}, {"clients", s.clients},
                      {"clip", Field(cfg, "clip")}, {"parameters", s.m}, {"rounds", s.rounds}, {"p_s", Dec(p_s)},
                      {"guarantees", nlohmann::json::array()}};
  if (fl::CepamFlGaussian(mech)) {
    p["sigma"] = Field(cfg, "sigma");
    GaussianRows(cfg, s, p);
  } else if (fl::CepamFlLaplace(mech)) {
    p["b"] = Field(cfg, "b");
    LaplaceRows(cfg, s, p);
  } else {
    p["guarantees"].push_back(Guarantee("none", kUnit, "-", "-", "-", nullptr, "", false,
                                        s.mechanism + " adds no noise: the server sees every client's update "
                                                      "(quantized by SDQ for fl-sdq)"));
  }
  return p;
}

nlohmann::json BuildCepamCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                     const std::string& code_version, const fl::CepamTrainResult& result,
                                     const RunFiles& files, const std::optional<std::string>& signing_public_key) {
  nlohmann::json cert = CertificateHead(
      configuration, dataset, code_version,
      "simulated: client i's shared key (client and server) is BLAKE2b(seed, \"cepam-client\", i), so the run is "
      "reproducible and replayable; the seed is in this certificate, so anyone can recompute every client's noise and "
      "dithers: this protects nothing against a real adversary",
      signing_public_key);
  std::uint64_t bits = 0, blocks = 0, trials = 0, h_bits = 0, index_bits = 0;
  for (const auto& r : result.history) {
    bits += r.uplink_bits;
    blocks += r.blocks;
    trials += r.trials;
    h_bits += r.h_bits;
    index_bits += r.index_bits;
  }
  const double per_client_round =
      result.history.empty() ? 0.0 : static_cast<double>(bits) / (static_cast<double>(result.history.size()) *
                                                                   Field(configuration, "clients").get<double>());
  cert["communication"] = {
      {"measured", "from the bitstreams as sent (every client, every round)"},
      {"uplink_bits_total", bits},
      {"bits_per_client_per_round", per_client_round},
      {"bits_per_parameter", per_client_round / static_cast<double>(result.parameters)},
      {"float32_bits_per_parameter", 32},
      {"blocks", blocks}, {"trials", trials}, {"h_bits", h_bits}, {"index_bits", index_bits},
      {"mean_trials_per_block", blocks ? static_cast<double>(trials) / static_cast<double>(blocks) : 0.0}};
  cert["rounds"] = nlohmann::json::array();
  for (const auto& r : result.history)
    cert["rounds"].push_back({{"round", r.round + 1}, {"val_accuracy", r.val_accuracy}, {"test_accuracy", r.test_accuracy},
                              {"test_loss", r.test_loss}, {"uplink_bits", r.uplink_bits},
                              {"bits_per_parameter", r.bits_per_parameter}, {"clipped_clients", r.clipped_clients},
                              {"transcript", r.transcript}});
  cert["privacy"] = ComputeCepamPrivacy(configuration);
  cert["transcript"] = {{"h0", result.transcript_start},
                        {"final", result.history.empty() ? result.transcript_start : result.history.back().transcript},
                        {"layout", "docs/training.md, CEPAM transcript (dpfl-cepam-transcript-v1, dpfl-cepam-round-v1)"}};
  cert["files"] = {{"final_weights.bin", files.weights_sha256}, {"metrics.csv", files.metrics_sha256}};
  cert["final"] = {{"test_accuracy", result.history.empty() ? 0.0 : result.history.back().test_accuracy},
                   {"weights_sha256", files.weights_sha256}, {"min_shard", result.min_shard},
                   {"empty_shards", result.empty_shards}};
  cert["digest"] = Digest(cert);
  return cert;
}

void VerifyCepamCertificate(const nlohmann::json& cert, const VerifyOptions& options, Verification& v) {
  CheckRecorder rec{v};
  const auto problem = [&rec](const std::string& p) { rec.Problem(p); };
  const auto check = [&rec](bool ok, const std::string& what, const std::string& failure) { rec.Check(ok, what, failure); };
  const nlohmann::json& cfg = Field(cert, "configuration");
  fl::CepamTrainConfig config = CepamTrainConfigFromJson(cfg);
  config.out_dir = "(verify)";
  try {
    fl::ValidateCepamTrainConfig(config);
    v.checked.push_back("configuration is valid");
  } catch (const InvalidArgument& e) {
    problem(std::string("configuration is invalid: ") + e.what());
  }
  const std::string noise = Str(cfg, "noise");
  if (noise == "calibrated") {
    const bool gaussian = fl::CepamFlGaussian(config.uplink.mechanism);
    CepamCalibrationRequest request;
    request.mechanism = Str(cfg, "mechanism");
    request.calibration = Str(cfg, "calibration");
    request.lattice_dim = Int(cfg, "lattice_dim");
    request.eps = Num(cfg, "eps");
    if (gaussian) request.delta = Num(cfg, "delta");
    request.clip = config.uplink.clip;
    request.local_steps = static_cast<std::uint32_t>(config.local_steps);
    request.clients = config.clients;
    request.n_k = U64(cfg, "n_k");
    request.parameters = U64(cfg, "parameters");
    const double value = CalibrateCepamNoise(request);
    check(value == (gaussian ? config.uplink.sigma : config.uplink.b), "noise recalibrated (seed 002 section 3.11)",
          "the configuration's noise scale is not the calibration of its (eps, delta) target (recomputed " +
              ShortestDouble(value) + ")");
  } else if (noise != "given" && noise != "none") {
    problem("configuration.noise must be given, calibrated or none");
  }
  // n_k of an IID split follows from the data set's size (datasets.hpp: 20 % test, 20 % of the rest validation).
  const nlohmann::json& dataset = Field(cert, "dataset");
  if (config.split == "iid") {
    const std::uint64_t all = U64(dataset, "samples_used"), train_all = all - all / 5, train = train_all - train_all / 5;
    check(U64(cfg, "n_k") == train / config.clients, "n_k = floor(training samples / K) for the IID split",
          "configuration.n_k does not match the data set (expected " + std::to_string(train / config.clients) + ")");
  } else {
    v.not_checked.push_back("n_k of a Dirichlet split (--replay re-derives the shards)");
  }
  const nlohmann::json& rounds = Array(cert, "rounds");
  CheckRoundsNumbered(rounds, config.rounds, rec);
  const nlohmann::json recomputed = ComputeCepamPrivacy(cfg);
  if (recomputed == Field(cert, "privacy")) {
    v.checked.push_back("privacy guarantees recomputed with the reference (seed 002 Theorems 12/13, printed and corrected)");
  } else {
    problem("privacy section differs from the recomputation: " +
            nlohmann::json::diff(Field(cert, "privacy"), recomputed).dump().substr(0, 400));
  }
  std::uint64_t bits = 0;
  for (const auto& r : rounds) bits += U64(r, "uplink_bits");
  check(bits == U64(Field(cert, "communication"), "uplink_bits_total"), "communication total = sum of the rounds' bits",
        "communication.uplink_bits_total is not the sum of the rounds' uplink_bits");
  const nlohmann::json& fin = Field(cert, "final");
  const nlohmann::json& files = Field(cert, "files");
  check(U64(fin, "min_shard") == U64(cfg, "n_k"), "the run's smallest shard = configuration.n_k",
        "final.min_shard differs from configuration.n_k");
  if (!rounds.empty())
    check(Num(fin, "test_accuracy") == Num(rounds.back(), "test_accuracy"), "final test accuracy = last round's",
          "final.test_accuracy is not the last round's test accuracy");
  check(Field(fin, "weights_sha256") == Field(files, "final_weights.bin"), "final.weights_sha256 = files[final_weights.bin]",
        "final.weights_sha256 differs from files[final_weights.bin]");
  CheckTranscriptEnds(cert, fl::CepamTranscriptStart(config, U64(cfg, "parameters")), rec);
  if (options.directory.empty()) {
    v.not_checked.push_back("files (no directory given)");
    return;
  }
  for (const char* name : {"final_weights.bin", "metrics.csv"}) CheckFileHash(options.directory, name, files, rec);
}

}  // namespace dpfl::certify
