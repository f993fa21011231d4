// Internal to dpfl_certify (not installed, not included by users): the reference types and
// precision the certificate computes with, typed access to untrusted JSON, and the digest.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "certificate.hpp"
#include "dpfl/error.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/ref/numbers.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"

namespace dpfl::certify::internal {

using ref::Interval;
using ref::Rational;
inline constexpr int kPrec = 256;  // MPFR bits of every enclosure in the ledger and the monitor

inline Rational Exact(double x) { return Rational(x); }

// ---- typed access to untrusted JSON: every failure is InvalidArgument naming the field ----
[[noreturn]] inline void BadField(const std::string& key, const std::string& what) {
  throw InvalidArgument("certificate", "field '" + key + "' " + what);
}
inline const nlohmann::json& Field(const nlohmann::json& j, const std::string& key) {
  if (!j.is_object()) BadField(key, "is read from something that is not a JSON object");
  const auto it = j.find(key);
  if (it == j.end()) BadField(key, "is missing");
  return *it;
}
inline double Num(const nlohmann::json& j, const std::string& key) {
  const auto& v = Field(j, key);
  if (!v.is_number()) BadField(key, "must be a number");
  const double x = v.get<double>();
  if (!std::isfinite(x)) BadField(key, "must be finite");
  return x;
}
inline std::uint64_t U64(const nlohmann::json& j, const std::string& key, std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
  const auto& v = Field(j, key);
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= max) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0 && static_cast<std::uint64_t>(v.get<std::int64_t>()) <= max)
    return static_cast<std::uint64_t>(v.get<std::int64_t>());
  BadField(key, "must be an integer in [0, " + std::to_string(max) + "]");
}
inline int Int(const nlohmann::json& j, const std::string& key) {
  const auto& v = Field(j, key);
  if (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
      v.get<std::int64_t>() <= std::numeric_limits<int>::max())
    return static_cast<int>(v.get<std::int64_t>());
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    return static_cast<int>(v.get<std::uint64_t>());
  BadField(key, "must be an integer that fits an int");
}
inline std::string Str(const nlohmann::json& j, const std::string& key) {
  const auto& v = Field(j, key);
  if (!v.is_string()) BadField(key, "must be a string");
  return v.get<std::string>();
}
inline bool Bool(const nlohmann::json& j, const std::string& key) {
  const auto& v = Field(j, key);
  if (!v.is_boolean()) BadField(key, "must be true or false");
  return v.get<bool>();
}
inline const nlohmann::json& Array(const nlohmann::json& j, const std::string& key) {
  const auto& v = Field(j, key);
  if (!v.is_array()) BadField(key, "must be an array");
  return v;
}

// Decimal printing of exact values at 25 significant digits (privacy_ledger.cpp): Dec to
// nearest; DecUp/DecDown directed, so that a printed enclosure still contains the truth.
std::string Dec(const Rational& x);
std::string DecUp(const Rational& x);
std::string DecDown(const Rational& x);
nlohmann::json IntervalJson(const Interval& x);  // {"lo": DecDown(lo), "hi": DecUp(hi)}
// One guarantee row in the certificate's schema {notion, unit, adjacency, observer, composition,
// applies, epsilon_lo, epsilon_hi, delta[, reason]}; ε and δ are null unless it applies.
nlohmann::json Guarantee(const std::string& notion, const std::string& unit, const std::string& adjacency,
                         const std::string& observer, const std::string& composition, const Interval* eps,
                         const std::string& delta, bool applies, const std::string& reason);

// Records the verifier's outcomes in a Verification: a problem makes it fail; a check that holds
// is listed under `checked`, one that fails is a problem.
struct CheckRecorder {
  Verification& v;
  void Problem(const std::string& p) {
    v.ok = false;
    v.problems.push_back(p);
  }
  void Check(bool ok, const std::string& what, const std::string& failure) {
    if (ok)
      v.checked.push_back(what);
    else
      Problem(failure);
  }
};

// "authenticity": signed (Ed25519 over the exact bytes, with the public key) or unsigned.
inline nlohmann::json AuthenticityJson(const std::optional<std::string>& signing_public_key) {
  if (signing_public_key)
    return {{"signed", true},
            {"scheme", "Ed25519 (libsodium crypto_sign_detached) over the exact bytes of certificate.json, in certificate.json.sig"},
            {"public_key", *signing_public_key}};
  return {{"signed", false}, {"statement", "unsigned: the digest below detects accidental edits only; anyone can recompute it"}};
}
// The head of a seed-002/003/004 certificate: format, configuration, dataset, code version, the
// environment, the simulated-keys policy (`keys_statement`) and authenticity.
inline nlohmann::json CertificateHead(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                      const std::string& code_version, const std::string& keys_statement,
                                      const std::optional<std::string>& signing_public_key) {
  return {{"format", kFormat}, {"configuration", configuration}, {"dataset", dataset}, {"code_version", code_version},
          {"keys_policy", {{"mode", "simulated"}, {"statement", keys_statement}}},
          {"environment", RunEnvironment()}, {"authenticity", AuthenticityJson(signing_public_key)}};
}
// Verifier checks shared by the seed-002/004 certificates: the rounds are numbered 1..T; h_0 is
// the recomputed one and transcript.final the last round's hash; a file beside the certificate
// has the SHA-256 files[name] states.
void CheckRoundsNumbered(const nlohmann::json& rounds, std::uint64_t expected, CheckRecorder& rec);
void CheckTranscriptEnds(const nlohmann::json& certificate, const std::string& h0, CheckRecorder& rec);
void CheckFileHash(const std::string& directory, const std::string& name, const nlohmann::json& files, CheckRecorder& rec);

// SHA-256 of the certificate's JSON without its "digest" field (integrity only: unkeyed).
std::string Digest(nlohmann::json certificate);

// The "tight central" guarantee row (central_privacy.cpp): the aggregate observer's ε(δ_u) over
// the run for the binary mechanisms, from the reference's PLD accountant; q_lo, q_hi are the
// widest implemented probabilities of "+" at the clipping ends over every layer and round.
// `progress` (if set) is told what the accountant is doing, a line per pass.
nlohmann::json TightCentralGuarantee(const nlohmann::json& cfg, fl::MechanismKind kind, std::uint64_t rounds,
                                     const Rational& q_lo, const Rational& q_hi, const std::string& unit,
                                     const std::string& observer, const Progress& progress = {});

// The scale of a gaussian/laplace law as an exact rational: σ² or t (grid units).
Rational NoiseScale(const fl::DiscreteNoiseLaw& law);
// ε(δ) of `releases` releases of that law shifted by N grid steps (the sensitivity), from the
// reference's PLD accountant (DiscreteGaussianPld / DiscreteLaplacePld).
ref::pld::AccountResult NoiseLawEpsilon(const fl::DiscreteNoiseLaw& law, std::uint64_t releases, const Rational& delta,
                                        const ref::pld::AccountOptions& options = {});
// The gaussian and laplace baselines' tight local guarantee (central_privacy.cpp): NoiseLawEpsilon
// over m·T releases at δ_u; against the server, which sees every message, and so against every
// observer. Connect-the-dots at relative width 1/1000; `legacy_rounding`: the rounding
// discretization at 1/100 of certificates written before (verify.cpp recomputes them that way).
nlohmann::json TightLocalNoiseGuarantee(const fl::DiscreteNoiseLaw& law, std::uint64_t parameters, std::uint64_t rounds,
                                        const Rational& delta, const std::string& observer,
                                        bool legacy_rounding = false);

}  // namespace dpfl::certify::internal
