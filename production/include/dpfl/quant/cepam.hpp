// Production CEPAM / layered RSUQ on the cubic lattice (seed 002 §3.2–3.10): the client's
// encoder of one clipped update into the real bitstream {(h_j, M_j)}, and the server's decoder,
// which adds the privacy noise by reconstructing Y_j = β_j(M_j + V_{j,h_j}). CPU only.
//
// Kinds (one code path; docs/production.md "CEPAM"):
//  * kSdq       subtractive dithered quantizer (Def. 1): step α, every trial accepted (h ≡ 1);
//               error Unif(α(−1/2, 1/2]^n).
//  * kRsuq      RSUQ (Def. 2) with A = ρB^n ⊆ α(−1/2, 1/2]^n: step α, accept iff ‖error‖₂ ≤ ρ;
//               error Unif(ρB^n), acceptance V_n ρ^n/α^n.
//  * kGaussian  CEPAM-Gaussian (LRSUQ, §3.5): layer Ũ ~ χ²_{n+2}, radius r = σ√Ũ, step
//               Δ = β α = 2c·r (α cancels, E-Q1), accept iff ‖error‖₂ ≤ r; error N(0, σ²I_n)
//               (Prop. 5 / Lemma 14); acceptance V_n/(2c)^n.
//  * kLaplace   CEPAM-Laplace (LRSUQ, §3.6): layer Ũ ~ Gamma(n + 1, 1), radius r = bŨ, step 2c·r,
//               accept iff ‖error‖₁ ≤ r; error i.i.d. Lap(0, b) per coordinate. n = 1 is the
//               paper's (Gamma(2, 1), intervals); n > 1 is the spec's [DERIVED] ℓ1 extension, not
//               in the paper. Acceptance 1/(c^n n!).
//
// Randomness: counter-based streams of the client's StreamContext, never a consumption order
// (§3.9 [DERIVED] requirement), so the decoder needs no replay of rejected trials and no state:
//  * layer of block j: (key, round, client, kCepamLayer), indices 64 j … 64 j + 63 (the Gamma
//    part's uniforms, then Marsaglia-polar attempts for the χ²_1 part of odd n);
//  * dither of block j, trial i ≥ 1, coordinate l: (key, round, client, kCepamDither), index
//    ((i − 1)·N + j)·n + l, N = ⌈m/n⌉ blocks. Distinct (round, client, j, i, l) never share a
//    uniform: reusing a dither across rounds or clients is impossible by construction.
// The layer sample is a fixed sequence of IEEE-754 double operations (+, −, ×, ÷, and a logarithm
// computed from them, DeterministicLog) on those uniforms, compiled without FMA contraction, so
// encoder and decoder reproduce Ũ bit for bit on any conforming platform.
//
// Bitstream (§3.10): per block, h − 1 Golomb-coded with the parameter m_G of Geom(p_acc) (unary
// when m_G = 1; nothing when every trial is accepted: SDQ, Gaussian n = 1 with c = 1, Laplace
// n = 1 with c = 1), then M's rank in M(U) = {k ∈ Z^n : Σ (|k_i| − 1/2)₊² ≤ s²},
// s = (γ + r)/Δ (§4.8 with E-C1; r = α√n/2 for SDQ, the cube's circumradius), in
// ⌈log2 |M(U)|⌉ bits. |M(U)| is counted exactly (lexicographic rank with prefix counts) while
// the count costs at most 2^10 row evaluations; beyond (tiny layers or n > 3 with large s) the
// bounding box [−K, K]^n is used (mixed radix, the spec's simpler alternative). Both sides
// decide which from s alone. s carries a relative margin of 2^−30 so that a rounding error in the
// encoder's arithmetic never puts a valid M outside the set.
//
// Contract: the input x must satisfy ‖x‖₂ ≤ γ (the clip of Alg. 1 step 4: ClipToNorm); a block
// whose M falls outside M(U) means it did not, and throws InvalidArgument("x"). NaN/±Inf in x
// throws naming the first index. The decoder rejects a truncated or corrupt bitstream
// (InvalidArgument("message")), never reads past it, and requires the unused bits to be zero.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dpfl/quant/binary_quantizer.hpp"

namespace dpfl::quant {

enum class CepamKind { kSdq, kRsuq, kGaussian, kLaplace };

struct CepamConfig {
  CepamKind kind = CepamKind::kGaussian;
  int n = 1;           // lattice dimension = sub-vector length, 1 … kCepamMaxDim
  double scale = 1.0;  // σ (kGaussian), b (kLaplace), α (kSdq, kRsuq); > 0
  double rho = 0.0;    // kRsuq: the acceptance ball's radius, 0 < ρ ≤ α/2
  double c = 1.0;      // the cell scaling c ≥ 1 of §3.5/3.6 (1 is optimal)
  double clip = 1.0;   // γ > 0: ‖x‖₂ ≤ γ (bounds M, §4.8)
};
inline constexpr int kCepamMaxDim = 8;
inline constexpr double kCepamMinAcceptance = 0x1p-16;  // configurations below are rejected ("rho" / "c")

// Throws InvalidArgument naming the field ("kind", "lattice-dim", "sigma"/"b"/"alpha", "rho", "c",
// "clip"); also when one trial's acceptance probability is below kCepamMinAcceptance.
void ValidateCepamConfig(const CepamConfig& config);

// The acceptance probability of one trial (independent of the input and of the layer).
double CepamAcceptanceProbability(const CepamConfig& config);
// True iff every trial is accepted, so h ≡ 1 and no bit is spent on it.
bool CepamAlwaysAccepts(const CepamConfig& config);

// One client's encoded update: `bits` bits, LSB first in `words`, for a vector of length m.
struct CepamMessage {
  std::vector<std::uint64_t> words;
  std::uint64_t bits = 0;
  std::uint64_t m = 0;
};

struct CepamStats {
  std::uint64_t blocks = 0, trials = 0, h_bits = 0, index_bits = 0, box_blocks = 0;
};

CepamMessage CepamEncode(const CepamConfig& config, std::span<const float> x, const StreamContext& ctx,
                         std::uint32_t client, CepamStats* stats = nullptr);
// y = the reconstruction x + noise (length message.m), in double: the mechanism's output before
// any rounding to the model's float weights.
void CepamDecode(const CepamConfig& config, const CepamMessage& message, const StreamContext& ctx,
                 std::uint32_t client, std::span<double> y);

// Scales x in place to ‖x‖₂ ≤ γ (Alg. 1 step 4: x / max{1, ‖x‖₂/γ}), with the norm rounded up so
// the result's norm never exceeds γ. Throws on NaN/±Inf. Returns the norm before clipping.
double ClipToNorm(std::span<float> x, double gamma);

// The layer Ũ_j of block j (χ²_{n+2} or Gamma(n + 1, 1); 0 for kSdq/kRsuq), as both sides draw it.
double CepamLayer(const CepamConfig& config, const StreamContext& ctx, std::uint32_t client, std::uint64_t block);

}  // namespace dpfl::quant
