// Certified runs (DESIGN.md "Certificate"; issue 6): the runtime monitor, certificate.json and
// its verification. This is the one part of production that may call the reference
// (dpfl_reference), because it computes once-per-round accounting numbers, never samples. It
// lives outside production/{include,src} so that the architecture check
// `production_is_independent_of_reference` keeps guarding the sampling code. Its public header
// includes no reference header.
//
// Privacy ledger, per round t (ε_p is per parameter and per round; logs natural):
//  * Binary mechanisms (ldp-fl, corbin-fl, augcorbin-fl, coq-fl): for each layer the production
//    thresholds T(w) = ⌊q(w)·2^64⌋ actually used are recomputed with the production code
//    (MakeBinaryLevels, PlusThreshold, MinusThreshold) at the clipping ends w = c ± r. The
//    implemented worst-case likelihood ratio of one bit is, for the "+" rule (LDPQ, Q1 role)
//    R+ = max(T+(c+r)/T+(c−r), (2^64 − T+(c−r))/(2^64 − T+(c+r))) and for the Q2 rule the same
//    with the "−" thresholds; the thresholds are monotone in w, so the ends are the worst case.
//    R is an exact rational; ε_implemented = ln R is enclosed by MPFI (reference Enclosure).
//  * laplace: b = 2r/ε_p in double; ε_implemented = 2r/b exactly (reference LaplacePureEpsilon).
//  * gaussian: σ from the production calibration; the reference encloses δ(ε_p, σ, 2r) of
//    Balle & Wang and the ledger records its upper end (must be ≤ δ).
//  * UCDP: augcorbin-fl (Thm 3) and pair mechanisms with dropout (Thm 4, δ1 = δ_u/2), printed
//    and corrected, with the preconditions; "not applicable" with the reason otherwise.
//  * Composition: basic (sums over rounds of ε and of δ).
// Runtime monitor: each round, the sampled coordinates' outputs are compared with the exact
// marginals (binary: q(w) from the reference LDPQ law; gaussian/laplace: the noise law) by a
// two-sided z-test at false-alarm rate α = 1e-6 per round; a rejection stops the run (fail
// closed) and no certificate is written.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "dpfl/fl/training.hpp"

namespace dpfl::certify {

inline constexpr double kMonitorAlpha = 1e-6;

fl::MonitorOutcome MonitorRound(const fl::MechanismConfig& config, std::uint32_t round,
                                const std::vector<fl::MonitorSample>& samples, double alpha = kMonitorAlpha);

// The privacy section recomputed from the configuration and the broadcast (c, r) of each
// round. `configuration` needs mechanism, eps_p, d, gamma, delta, delta_u, dropout, clients,
// parameters; `layers[t]` = {"c": [hex doubles], "r": [hex doubles]}.
nlohmann::json ComputePrivacy(const nlohmann::json& configuration, const nlohmann::json& rounds);

// The whole certificate; `configuration` must hold the fields ComputePrivacy needs.
nlohmann::json BuildCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                const std::string& code_version, const fl::TrainResult& result);

struct Verification {
  bool ok = true;
  std::vector<std::string> problems;
};
// Recomputes every privacy number and the digest; any difference is a problem.
Verification VerifyCertificate(const nlohmann::json& certificate);

std::string HexDouble(double x);
double ParseHexDouble(const std::string& s);

}  // namespace dpfl::certify
