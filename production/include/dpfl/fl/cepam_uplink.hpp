// The uplink of the seed-002 FL loop (spec 002 §3.7 Alg. 1 steps 3–6 and server step 2; §3.12
// baselines): how one client's model update X = W^k − W_t becomes a message and how the server
// turns the message back into an estimate X̂ of the update. Free of LibTorch; the round loop is
// dpfl/fl/cepam_training.hpp.
//
// | mechanism        | client                                              | server X̂              | noise in X̂ − X̃        |
// |------------------|-----------------------------------------------------|-----------------------|-----------------------|
// | fl               | X as 32-bit floats (no clipping)                    | X                     | none                  |
// | fl-sdq           | X̃ = clip_γ(X), scalar SDQ (step α) bitstream        | SDQ decode            | Unif(α(−½, ½]) each   |
// | fl-gaussian      | float(X̃ + Z), Z ~ N(0, σ²I) (double, Box–Muller)    | the floats            | N(0, σ²) each         |
// | fl-gaussian-sdq  | X̃ + Z, then SDQ (step α) bitstream                  | SDQ decode            | N(0, σ²) + Unif       |
// | fl-laplace       | float(X̃ + Z), Z ~ Lap(0, b) i.i.d.                  | the floats            | Lap(0, b) each        |
// | fl-laplace-sdq   | X̃ + Z, then SDQ bitstream                           | SDQ decode            | Lap(0, b) + Unif      |
// | cepam-gaussian   | CEPAM-Gaussian bitstream of X̃ (lattice dim n)      | CepamDecode           | N(0, σ²) each (Prop. 5) |
// | cepam-laplace    | CEPAM-Laplace bitstream of X̃ (n = 1, Thm 13)       | CepamDecode           | Lap(0, b) each        |
// X̃ = X / max{1, ‖X‖₂/γ} (Alg. 1 step 4, dpfl::quant::ClipToNorm). The baselines' noise is
// floating-point noise as in the paper's baselines; CEPAM's noise is produced by the shared
// randomness of the quantizer (dpfl/quant/cepam.hpp), and the server reconstructs it exactly.
//
// SDQ after noise: X̃ + Z has no a-priori norm bound, and the codec's index set needs one. The
// client sends the bound B = 2^e ≥ max(γ, ‖X̃ + Z‖₂) first, as the exponent e in one signed byte
// (8 bits, counted in the message), and both sides run the SDQ codec with clip = B.
//
// Streams: client i's key is DeriveKey(seed, "cepam-client", i). CEPAM and SDQ use it directly
// (the codec's own purposes kCepamLayer/kCepamDither; round t in the StreamContext); the
// baselines' noise uses DeriveSubKey(key, "noise"), address (t, i, kPrivateCoin), index 2k, 2k+1
// for coordinate k (Box–Muller) or k (Laplace). Every (seed, client, round) pair has its own
// randomness, so no noise or dither is ever reused.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dpfl/quant/cepam.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::fl {

enum class CepamFlMechanism {
  kFl, kFlSdq, kFlGaussian, kFlGaussianSdq, kFlLaplace, kFlLaplaceSdq, kCepamGaussian, kCepamLaplace
};

// "fl", "fl-sdq", "fl-gaussian", "fl-gaussian-sdq", "fl-laplace", "fl-laplace-sdq", "cepam-gaussian",
// "cepam-laplace"; anything else throws InvalidArgument("--mechanism").
CepamFlMechanism ParseCepamFlMechanism(const std::string& name);
bool IsCepamFlMechanism(const std::string& name);
std::string CepamFlMechanismName(CepamFlMechanism m);
bool CepamFlGaussian(CepamFlMechanism m);  // fl-gaussian, fl-gaussian-sdq, cepam-gaussian: σ
bool CepamFlLaplace(CepamFlMechanism m);   // fl-laplace, fl-laplace-sdq, cepam-laplace: b
bool CepamFlSdq(CepamFlMechanism m);       // the three SDQ baselines: α

struct CepamUplinkConfig {
  CepamFlMechanism mechanism = CepamFlMechanism::kCepamGaussian;
  int lattice_dim = 1;   // n (cepam-* only; cepam-laplace: 1)
  double clip = 1.0;     // γ > 0 (not used by fl)
  double sigma = 0.0;    // σ > 0 for the Gaussian family
  double b = 0.0;        // b > 0 for the Laplace family
  double sdq_step = 0.0; // α > 0 for the SDQ baselines
  rng::Generator generator = rng::Generator::kChaCha20;
};
// InvalidArgument naming the flag (--lattice-dim, --clip, --sigma, --b, --sdq-step).
void ValidateCepamUplink(const CepamUplinkConfig& config);

struct CepamUplinkMessage {
  std::uint32_t client = 0;
  std::vector<float> values;     // fl, fl-gaussian, fl-laplace: m floats
  quant::CepamMessage coded;     // the bitstream mechanisms
  std::optional<std::int8_t> bound_exponent;  // SDQ after noise: B = 2^e (8 bits on the wire)
  std::uint64_t Bits() const;      // what is sent: 32·m, or the bitstream's bits (+ 8 for the bound)
};

struct CepamClientReport {
  double update_norm = 0;   // ‖X‖₂ before clipping
  bool clipped = false;     // ‖X‖₂ > γ
  quant::CepamStats stats;  // blocks, trials and bits of the bitstream mechanisms
};

// Client side (Alg. 1 steps 4–5): update = W^k − W_t (m floats, finite; InvalidArgument("update")
// otherwise). `key` is the client's stream key, `round` the 0-based round.
CepamUplinkMessage EncodeCepamUplink(const CepamUplinkConfig& config, std::vector<float> update,
                                     const rng::StreamKey& key, std::uint32_t client, std::uint32_t round,
                                     CepamClientReport* report = nullptr);
// Server side (step 2): X̂ in double (length m). Throws InvalidArgument("message") for a message
// of the wrong shape or a corrupt bitstream.
std::vector<double> DecodeCepamUplink(const CepamUplinkConfig& config, const CepamUplinkMessage& message,
                                      const rng::StreamKey& key, std::uint32_t round, std::size_t m);

}  // namespace dpfl::fl
