// Certified runs (DESIGN.md "Certificate (v2)"; docs/training.md "Certificate"): the runtime monitor,
// certificate.json, its Ed25519 signature and its verification. This is the one part of
// production that may call the reference (dpfl_reference), because it computes once-per-round
// accounting numbers, never samples. It lives outside production/{include,src} so that the
// architecture check `production_is_independent_of_reference` keeps guarding the sampling code.
// Its public header includes no reference header.
//
// Privacy ledger, per round t (ε_p is per parameter and per round; logs natural):
//  * Binary mechanisms (ldp-fl, corbin-fl, augcorbin-fl, coq-fl): for each layer the production
//    thresholds T(w) = ⌊q(w)·2^64⌋ actually used are recomputed with the production code
//    (MakeBinaryLevels, PlusThreshold, MinusThreshold) at the clipping ends w = c ± r. The
//    implemented worst-case likelihood ratio of one bit is, for the "+" rule (LDPQ, Q1 role)
//    R+ = max(T+(c+r)/T+(c−r), (2^64 − T+(c−r))/(2^64 − T+(c+r))) and for the Q2 rule the same
//    with the "−" thresholds; the thresholds are monotone in w, so the ends are the worst case.
//    R is an exact rational; ε_implemented = ln R is enclosed by MPFI (reference Enclosure).
//  * laplace / gaussian: the exact discrete law the production code samples on a grid of N
//    steps per layer (fl::DiscreteNoiseLawFor): laplace ε = N/t exactly
//    (ref::DiscreteLaplaceEpsilon); gaussian δ of the discrete Gaussian with sensitivity N,
//    enclosed by ref::DiscreteGaussianDelta, whose upper end must be ≤ δ.
//  * UCDP: augcorbin-fl (Thm 3) and pair mechanisms with dropout (Thm 4, δ1 = δ_u/2), printed
//    and corrected, with the preconditions. Only the corrected form whose precondition holds is
//    ever a guarantee; a theorem whose precondition fails is reported as not applying and is
//    never summed (docs/training.md "Privacy: every guarantee with its notion").
// Guarantees (privacy.guarantees): every notion side by side in one schema {notion, unit,
// adjacency, observer, composition, epsilon_lo, epsilon_hi, delta, applies, reason}, and
// privacy.releases: what the run releases and whether a guarantee covers it (DESIGN.md "Certificate (v2)").
// Runtime monitor: each round, the sampled coordinates' outputs are compared with the exact
// marginals (binary: q(w) from the reference LDPQ law; gaussian/laplace: the noise law) by a
// two-sided z-test at false-alarm rate α = 1e-6 per round; a rejection stops the run (fail
// closed) and no certificate is written.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpfl/fl/bnn_training.hpp"
#include "dpfl/fl/cepam_training.hpp"
#include "dpfl/fl/qgauss_training.hpp"
#include "dpfl/fl/training.hpp"

namespace dpfl::certify {

// Names of guarantee rows that readers select by (dpfl audit lira): the seed-000/001 "tight central"
// row (an observer of the aggregates), the tight local row of a client's whole participation
// (gaussian, laplace), and the unit that opens the whole-update local row over all rounds.
inline constexpr const char* kTightCentralNotion = "tight central (epsilon, delta) from a privacy loss distribution";
inline constexpr const char* kTightLocalNotion =
    "tight (epsilon, delta) of a client's whole participation from a privacy loss distribution";
inline constexpr const char* kWholeUpdateAllRoundsUnit = "one client's whole update over all rounds";

inline constexpr char kFormat[] = "dpfl-certificate-v2";
inline constexpr double kMonitorAlpha = 1e-6;

// Two-sided normal critical value z_{1−α/2} (bisection on the reference's enclosed Φ, 80 steps
// from [0, 40]; the upper end is returned, so the test never rejects more often than α).
double MonitorCritical(double alpha);
fl::MonitorOutcome MonitorRound(const fl::MechanismConfig& config, std::uint32_t round,
                                const std::vector<fl::MonitorSample>& samples, double alpha = kMonitorAlpha);

// The run's configuration as stored in certificate.json ("configuration") ⇄ the TrainConfig
// that RunTraining gets. The CLI builds the JSON first and the TrainConfig from it, so training,
// verification and replay use one mapping. Throws InvalidArgument for a missing or mistyped
// field; ValidateTrainConfig is not called (the caller decides).
fl::TrainConfig TrainConfigFromJson(const nlohmann::json& configuration);
// The configuration bound into a transcript's h_0: every key but how the run was executed —
// "threads" (LibTorch intra-op threads), "workers" (parallel client trainers) and "world_size"
// (processes) — which the certificate records but which do not change what was sent (if a thread
// count changes the arithmetic, the messages differ and so does the chain).
std::string TranscriptContext(const nlohmann::json& configuration);

// The privacy section recomputed from the configuration and the broadcast (c, r) of each
// round. `configuration` needs mechanism, eps_p, d, gamma, delta, delta_u, dropout, clients,
// parameters (and lambda_grid, optional); `layers[t]` = {"c": [hex doubles], "r": [...]}.
// `tight_central` = false leaves the PLD rows (tight central; gaussian's and laplace's tight local) as
// {"notion": …, "not_computed": true}.
// `progress` (if set) is told, a line at a time, what the PLD accountant is doing (its long part).
using Progress = std::function<void(const std::string&)>;
// `legacy_local_rounding`: the gaussian/laplace tight local row as certificates before
// connect-the-dots computed it (rounding at 1/100; verify-certificate's fallback for them).
nlohmann::json ComputePrivacy(const nlohmann::json& configuration, const nlohmann::json& rounds,
                              bool tight_central = true, const Progress& progress = {},
                              bool legacy_local_rounding = false);

// `dpfl train --target-epsilon E`: meet a target for the run's client-level guarantee before
// training, from the configuration (mechanism, clients, gamma, d, parameters, rounds, eps_p,
// delta, delta_u). The row targeted: for ldp-fl, augcorbin-fl, corbin-fl, coq-fl (with or without
// dropout) the certificate's "tight central" row (ε(δ_u) of one client in the aggregate over m
// coordinates and T rounds), predicted with the intended probabilities E/(1+E) enclosed outward;
// for gaussian and laplace the "tight local" row (the m·T-fold PLD of the exact discrete noise
// production samples at that eps_p; it bounds every observer). calibrate: the largest eps_p
// (bisection in log eps_p over [1e-3, 30], gaussian [1e-2, 30]; relative step 5e-3) whose
// predicted ε_hi ≤ E; stop: the largest number of rounds ≤ the configured one whose ε_hi ≤ E at
// the configured eps_p. InvalidArgument "--target-epsilon" for other mechanisms or when no
// setting meets the target (e.g. +inf at every eps_p: too few solo clients).
struct TargetPlan {
  std::string mode;        // "calibrate" or "stop"
  std::string row;         // the notion of the certificate row targeted
  double eps_p = 0;
  std::uint32_t rounds = 0;
  std::string epsilon_hi;  // the predicted upper end at the chosen setting (decimal, rounded up)
  int evaluations = 0;     // accountant runs
};
TargetPlan PlanTargetEpsilon(const nlohmann::json& configuration, double target, bool calibrate,
                             const std::function<void(const std::string&)>& progress = {});

// Files of the run directory whose SHA-256 the certificate records.
struct RunFiles {
  std::string weights_sha256, metrics_sha256;
};

// The whole certificate. `signing_public_key` (hex) is recorded when the operator signs it.
nlohmann::json BuildCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                const std::string& code_version, const fl::TrainResult& result, const RunFiles& files,
                                const std::optional<std::string>& signing_public_key, const Progress& progress = {});

// The certificate's "environment" (run_environment.cpp): the LibTorch version dpfl was built with,
// the CPU features LibTorch's kernel dispatch depends on, and the variables that cap it. Recorded
// for the reader, not verified; a replay that differs names the fields that differ from here
// (EnvironmentDifferences; empty when `recorded` is absent, as in certificates before it).
nlohmann::json RunEnvironment();
std::vector<std::string> EnvironmentDifferences(const nlohmann::json& recorded, const nlohmann::json& here);

// Certificates nested deeper than this are rejected before anything else reads them.
inline constexpr std::size_t kMaxCertificateDepth = 32;
// Nesting depth of a JSON value (a scalar is 1), computed without recursion.
std::size_t JsonDepth(const nlohmann::json& value);

struct VerifyOptions {
  // Directory of certificate.json: final_weights.bin and metrics.csv are checked there, and the
  // data files at the paths the certificate names (when they exist). Empty: no file checks.
  std::string directory;
  // Recompute the "tight central" guarantee (the PLD accountant: seconds at the e2e settings,
  // minutes for large models or many solo clients). Off (the fuzz harness, which must stay fast on
  // every input): that row is copied from the certificate and listed under not_checked — never
  // reported as verified.
  bool recompute_tight_central = true;
  Progress progress;  // the recomputation's progress lines (ComputePrivacy)
};

struct Verification {
  bool ok = true;
  std::vector<std::string> problems;
  std::vector<std::string> checked;      // what was verified
  std::vector<std::string> not_checked;  // what could not be (e.g. data files absent)
};
// Recomputes and cross-checks everything the certificate states that can be checked without
// re-running the training (see docs/training.md "What verify-certificate checks").
Verification VerifyCertificate(const nlohmann::json& certificate, const VerifyOptions& options = {});

// ---- Operator signatures (Ed25519, libsodium crypto_sign_detached) ---------------------------
// Key files are text: "dpfl-ed25519-secret-v1\n" + 128 hex digits (libsodium's 64-byte secret
// key) + "\n", and "dpfl-ed25519-public-v1\n" + 64 hex digits + "\n". A signature file is
// "dpfl-ed25519-signature-v1\n" + 128 hex digits + "\n", over the exact bytes of the signed file.
struct KeyPair {
  std::array<std::uint8_t, 32> public_key{};
  std::array<std::uint8_t, 64> secret_key{};
};
KeyPair GenerateKeyPair();
std::string PublicKeyText(const KeyPair& keys);
std::string SecretKeyText(const KeyPair& keys);
// Parsers of untrusted text: InvalidArgument(argument, ...) for anything malformed.
KeyPair ParseSecretKey(const std::string& text, const std::string& argument);
std::array<std::uint8_t, 32> ParsePublicKey(const std::string& text, const std::string& argument);
std::string Sign(const std::string& bytes, const KeyPair& keys);  // signature file text
// True iff `signature_text` is a well-formed signature of `bytes` under `public_key`; a
// malformed signature file is InvalidArgument.
bool VerifySignature(const std::string& bytes, const std::string& signature_text,
                     const std::array<std::uint8_t, 32>& public_key);
std::string Hex(const std::uint8_t* bytes, std::size_t n);

// certificate.json's bytes as JSON, refusing what is not JSON or nested deeper than
// kMaxCertificateDepth (InvalidArgument(argument, …) naming `name`).
nlohmann::json ParseCertificateText(const std::string& bytes, const std::string& name, const std::string& argument);

// Authenticity of a certificate: the detached Ed25519 signature over its exact bytes.
//  * public_key given: "signed" if the certificate says it is signed, names that key, the
//    signature exists (signature_text) and verifies; otherwise "rejected" with the reason in
//    `problems`.
//  * no public key: "signed, not checked (no --public-key): integrity only" or "unsigned", as
//    the certificate claims; nothing is rejected (a claim without a key proves nothing).
struct Authenticity {
  std::string status;
  std::vector<std::string> problems, checked;
};
Authenticity CheckAuthenticity(const std::string& certificate_bytes, const nlohmann::json& certificate,
                               const std::optional<std::string>& signature_text, const std::string& signature_name,
                               const std::optional<std::array<std::uint8_t, 32>>& public_key);

// ---- DPFL-BNN (seed 004; bnn_certificate.cpp) ------------------------------------------------
// Its certificate has the same format, digest, signature and verify-certificate entry point;
// configuration.mechanism = "dpfl-bnn" selects these pieces.
fl::BnnTrainConfig BnnTrainConfigFromJson(const nlohmann::json& configuration);
// Guarantees of one client's T·d RR bits at the implemented γ̃ (needs rr_gamma (number or null),
// rounds, latents, delta); recomputed by the verifier.
nlohmann::json ComputeBnnPrivacy(const nlohmann::json& configuration);
struct BnnRunFiles {
  std::string models_sha256, metrics_sha256;
};
nlohmann::json BuildBnnCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                   const std::string& code_version, const fl::BnnTrainResult& result,
                                   const BnnRunFiles& files, const std::optional<std::string>& signing_public_key);
// The DPFL-BNN checks of VerifyCertificate (called by it).
void VerifyBnnCertificate(const nlohmann::json& certificate, const VerifyOptions& options, Verification& v);

// ---- CEPAM and the seed-002 baselines (cepam_certificate.cpp) ---------------------------------
// configuration.mechanism one of fl, fl-sdq, fl-gaussian[-sdq], fl-laplace[-sdq], cepam-gaussian,
// cepam-laplace selects these pieces (fl::IsCepamFlMechanism).
fl::CepamTrainConfig CepamTrainConfigFromJson(const nlohmann::json& configuration);
// §3.11 calibration of the noise to a per-round target (ε, δ), p_s = 1 − (1 − 1/n_k)^τ and
// ε̃ = ln(1 + (e^ε − 1)/p_s). `calibration` names the guarantee row that must meet the target:
//  * "printed" (the spec's procedure): Gaussian: the smallest σ (rounded up to a double) with
//    Theorem 12's δ (16) ≤ δ; Laplace: b = 2τγ√m/ε̃ (the corrected scale of E-P5);
//  * "corrected": Gaussian: Theorem 12 with capped summands and Δ2 = 2γ/K (E-P2, E-P4); Laplace:
//    b = 2γ√m/ε̃ (E-P4 and E-P5);
//  * "server": the per-client guarantee against the server. Baselines (the server sees X~ + Z):
//    Gaussian Δ2 = 2γ, σ̃ = σ; Laplace as "corrected". cepam-gaussian with n = 1 (the server holds
//    the shared randomness): σ = p_s √(2/π) γ√m/δ, the smallest σ whose (0, δ) bound meets δ;
//    cepam-laplace: InvalidArgument (no ε to calibrate).
// InvalidArgument("--delta") when δ ≥ p_s (every mechanism of this kind, σ = 0 included, is
// (ε, p_s)-DP: spec §4.7's trivial bound) or the row's σ → 0 limit is already ≤ δ (E-P3: the target
// would certify no noise; for "printed" that limit is (16)'s floor, ≥ p_s).
struct CepamCalibrationRequest {
  std::string mechanism, calibration = "printed";
  int lattice_dim = 1;
  double eps = 1, delta = 1e-5, clip = 1;
  std::uint32_t local_steps = 15, clients = 30;
  std::uint64_t n_k = 1, parameters = 1;
};
double CalibrateCepamNoise(const CepamCalibrationRequest& request);
// Per-round guarantees (as printed and corrected) and the T-round basic composition, from the
// configuration (mechanism, sigma/b, eps, delta, clip, local_steps, clients, rounds, n_k,
// parameters); recomputed by the verifier.
nlohmann::json ComputeCepamPrivacy(const nlohmann::json& configuration);
nlohmann::json BuildCepamCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                     const std::string& code_version, const fl::CepamTrainResult& result,
                                     const RunFiles& files, const std::optional<std::string>& signing_public_key);
void VerifyCepamCertificate(const nlohmann::json& certificate, const VerifyOptions& options, Verification& v);

// ---- The quantized Gaussian and the seed-003 baselines (qgauss_certificate.cpp) -----------------
// configuration.mechanism qgauss, qgauss-gaussian or qgauss-vanilla (fl::IsQgaussFlMechanism).
fl::QgaussTrainConfig QgaussTrainConfigFromJson(const nlohmann::json& configuration);
// "full" → 1, "poisson:q" → q; InvalidArgument("--client-sampling") otherwise.
double QgaussSamplingRate(const std::string& client_sampling);
// The client-level guarantees (rows documented in qgauss_certificate.cpp), recomputed by the verifier.
nlohmann::json ComputeQgaussPrivacy(const nlohmann::json& configuration);
nlohmann::json BuildQgaussCertificate(const nlohmann::json& configuration, const nlohmann::json& dataset,
                                      const std::string& code_version, const fl::QgaussTrainResult& result,
                                      const RunFiles& files, const std::optional<std::string>& signing_public_key);
void VerifyQgaussCertificate(const nlohmann::json& certificate, const VerifyOptions& options, Verification& v);

std::string HexDouble(double x);
double ParseHexDouble(const std::string& s);

}  // namespace dpfl::certify
