// Privacy mechanisms of the FL loop on flat float vectors: one interface (client encode →
// message; server aggregate → mean) for every mechanism of seed 000 §5 (docs/training.md "Mechanisms").
//
// A model is a flat vector of m floats cut into layers; each layer has its own (c, r) broadcast
// by the server (seed-000 §3.6) and every client clips to [c − r, c + r] before encoding.
//
// | mechanism     | client message                          | privacy per parameter, per round |
// |---------------|-----------------------------------------|----------------------------------|
// | vanilla       | 32-bit weights, unclipped               | none                             |
// | gaussian      | 32-bit float(c − r + (k + Z)·g): k = clip(w) on the grid of N + 1 points, Z ~ N_Z(0, σ²) exact (discrete Gaussian) | (ε_p, δ)-PLDP: sensitivity N grid units; σ² = ⌈(σ_N(1 + 2^−20))²⌉ with σ_N the analytic Gaussian σ (Balle & Wang 2018, Thm 8) for Δ = N, computed in double; the δ of N_Z(0, σ²) (Canonne, Kamath & Steinke 2020, Thm 7) is certified by the reference (dpfl::ref::DiscreteGaussianDelta) |
// | laplace       | 32-bit float(c − r + (k + Z)·g), Z ~ L_Z(t) exact (discrete Laplace), t = N/ε_p exactly | ε_p-PLDP exactly: P(z)/P(z') ≤ e^{|z − z'|/t} ≤ e^{N/t} = e^{ε_p} |
// | ldp-fl        | 1 bit: LDPQ (seed-000 Alg. 1)           | ε_p-PLDP                         |
// | corbin-fl     | 1 bit: CorBinQ (Alg. 2, d shared bits)  | ε_p-PLDP (marginals are LDPQ)    |
// | augcorbin-fl  | 1 bit: γ fraction LDPQ, rest CorBinQ    | ε_p-PLDP; UCDP by Thm 3          |
// | cq            | 1 bit: CQ (Suresh et al. 2022)          | none (baseline)                  |
// | coq-fl        | 1 bit: CoQ-FL, p_x = 1/2 (seed 001)     | ε_p-PLDP                         |
// Real-valued mechanisms send 32 bits per parameter; the binary ones 1 bit per parameter.
//
// Randomness (counter-based, dpfl/fl/stream_util.hpp): layer l of a client uses the private
// key DeriveSubKey(client_key, "layer", l) and, in a pair, the shared key
// DeriveSubKey(pair_key, "layer", l), so no two layers reuse uniforms. Gaussian and Laplace
// noise is exact integer noise (dpfl/fl/discrete_noise.hpp) read from the client's
// "discrete-gaussian" / "discrete-laplace" sub-key of layer l, purpose kPrivateCoin, the layer's
// coordinates in order (docs/production.md "Exact noise for the Gaussian and Laplace baselines").
// Dropout: absent clients send nothing; a survivor whose partner is absent runs LDPQ
// (seed-000 §3.5); the server divides by the number of messages (E31).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dpfl/fl/discrete_noise.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::fl {

enum class MechanismKind { kVanilla, kGaussian, kLaplace, kLdpFl, kCorBinFl, kAugCorBinFl, kCq, kCoqFl };

// "vanilla", "gaussian", "laplace", "ldp-fl", "corbin-fl", "augcorbin-fl", "cq", "coq-fl";
// anything else throws InvalidArgument("--mechanism").
MechanismKind ParseMechanism(const std::string& name);
std::string MechanismName(MechanismKind kind);
bool IsBinary(MechanismKind kind);       // 1 bit per parameter on the wire
bool HasPldp(MechanismKind kind);        // ε_p applies
bool UsesPairs(MechanismKind kind);      // corbin-fl, augcorbin-fl, coq-fl

struct MechanismConfig {
  MechanismKind kind = MechanismKind::kCorBinFl;
  double eps_p = 1.0;      // per-parameter, per-round PLDP budget
  int d = 5;               // shared bits (corbin-fl, augcorbin-fl, coq-fl)
  double gamma = 0.2;      // augcorbin-fl solo fraction (others: 0, ldp-fl: 1)
  double delta = 1e-5;     // gaussian only
  double dropout = 0.0;    // P(client absent) per round, in [0, 1)
  rng::Generator generator = rng::Generator::kChaCha20;
};

// The γ that DrawAssignment gets: 1 for ldp-fl, config.gamma for augcorbin-fl, 0 for pairs.
double EffectiveGamma(const MechanismConfig& config);
// Throws InvalidArgument with a one-line reason: eps ≤ 0 or non-finite (for PLDP mechanisms),
// d ∉ [0, 62], γ ∉ (0, 1) for augcorbin-fl, δ ∉ (0, 1), dropout ∉ [0, 1), n = 0, and the
// integrality constraints of seed-000 E43: corbin-fl/coq-fl need even n; augcorbin-fl needs
// (n − round(γn)) even.
void ValidateMechanism(const MechanismConfig& config, std::uint32_t n);

struct LayerRange {
  std::size_t offset = 0, size = 0;
  double c = 0, r = 1;
};
// c = (max + min)/2, r = max(scale·(max − min)/2, min_radius) per layer (seed-000 §3.6
// [RECOMMENDED] formula; `scale` ≥ 1 leaves room for the model to grow, a documented choice).
std::vector<LayerRange> RangesFromWeights(std::span<const float> w, const std::vector<std::size_t>& layer_sizes,
                                          double scale = 1.25, double min_radius = 1e-3);

// Analytic Gaussian σ (Balle & Wang 2018, Thm 8): the smallest σ (to relative 1e-12, rounded
// up) with Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) ≤ δ, by bisection in double. The continuous
// calibration from which DiscreteNoiseLawFor derives the discrete Gaussian's σ² (Δ = N).
double AnalyticGaussianSigma(double eps, double delta, double sensitivity);
// Δ/ε: the scale b of a continuous Lap(b). The laplace mechanism samples the discrete law with
// t = N/ε_p grid units of g = 2r/N, i.e. t·g = LaplaceScale(ε_p, 2r) in value units.
double LaplaceScale(double eps, double sensitivity);

// ---- Exact noise of the gaussian and laplace mechanisms ------------------------------------
// docs/production.md "Exact noise for the Gaussian and Laplace baselines". A layer's clipped
// coordinate x ∈ [c − r, c + r] is put on the grid c − r + k·g, k ∈ {0, …, N}, g = 2r/N (nearest
// point, computed in double and clamped to [0, N], so |k − k'| ≤ N for any two inputs whatever
// the rounding: the sensitivity is exactly N grid units); integer noise Z is added and the
// client sends float(c − r + (k + Z)·g), a deterministic function of the integer k + Z (post-
// processing: the privacy of k + Z is the privacy of the message).
//  * laplace: Z ~ L_Z(t), t = N/ε_p with ε_p read as the exact dyadic rational it is, so the
//    implemented per-parameter ε is N/t = ε_p exactly (pure ε-DP of the discrete Laplace with
//    ℓ1 sensitivity N: P(z)/P(z + s) ≤ e^{|s|/t}).
//  * gaussian: Z ~ N_Z(0, σ²) with σ² = ⌈(σ_N·(1 + 2^−20))²⌉ (an integer), σ_N =
//    AnalyticGaussianSigma(ε_p, δ, N) (the continuous σ in grid units). The implemented δ at ε_p
//    is that of Canonne, Kamath & Steinke 2020, Thm 7, with Δ = N, enclosed by the reference
//    (dpfl::ref::DiscreteGaussianDelta(ε_p, σ², N)); the 2^−20 margin absorbs the double
//    bisection's error (tests/unit/discrete_noise_test.cpp certifies δ_implemented ≤ δ over a grid
//    of (ε_p, δ)).
// The law depends on the configuration only; the grid depends on the layer's (c, r).
inline constexpr std::int64_t kNoiseGridSteps = std::int64_t{1} << 20;  // N
inline constexpr double kGaussianSigmaMargin = 0x1.0p-20;               // σ safety factor 1 + 2^−20

struct DiscreteNoiseLaw {
  MechanismKind kind = MechanismKind::kLaplace;  // kGaussian or kLaplace
  std::int64_t grid_steps = kNoiseGridSteps;     // N: the sensitivity in grid units
  Ratio128 laplace_scale;    // laplace: t = N/ε_p exactly (grid units)
  Ratio128 gaussian_sigma2;  // gaussian: σ² (an integer, grid units²)
};
// Throws InvalidArgument("--mechanism") for another kind, InvalidArgument("--eps-p") if ε_p is not
// finite and > 0 or so small that the law leaves the samplers' domains (laplace: ε_p < 2^−28,
// i.e. t > 2^48; gaussian: σ² ≥ 2^64, about ε_p < 3.5·10^−4 at δ = 10^−5), InvalidArgument("--delta")
// for δ ∉ (0, 1).
DiscreteNoiseLaw DiscreteNoiseLawFor(const MechanismConfig& config);

struct NoiseGrid {
  double lo = 0;    // c − r (in double, the same rounding as the clipping bound)
  double step = 1;  // g = 2r/N (exact in double: a division by a power of two)
  std::int64_t steps = kNoiseGridSteps;  // N
};
// Throws InvalidArgument("r") unless c, r are finite, r > 0 and g is a normal double.
NoiseGrid NoiseGridFor(const LayerRange& range);
// The nearest grid index of a clipped x (llround((x − lo)/g), clamped to [0, N]).
std::int64_t GridIndex(const NoiseGrid& grid, double x);
// float(lo + n·g), in double then rounded to float once (no FMA contraction: -ffp-contract=off).
float GridValue(const NoiseGrid& grid, std::int64_t n);

struct DiscreteNoise {
  DiscreteNoiseLaw law;
  NoiseGrid grid;
};
// Everything EncodeClient uses for one layer of a gaussian/laplace message.
DiscreteNoise DiscreteNoiseFor(const MechanismConfig& config, const LayerRange& range);
// MonitorSample::noise_scale of a layer: gaussian σ·g (the standard deviation of N_Z(0, σ²) is
// below σ, by a negligible amount for σ ≥ 1); laplace √(Var/2)·g with Var =
// DiscreteLaplace::Variance() = 2e^{−1/t}/(1 − e^{−1/t})², i.e. the b of the continuous Laplace
// with the same variance, so that noise/noise_scale has variance exactly 2 as for Lap(1).
double MonitorNoiseScale(const DiscreteNoise& noise);

enum class Role { kSolo, kQ1, kQ2 };
// What one client needs to know about its place in the round (from the assignment).
struct ClientSlot {
  std::uint32_t client = 0;
  Role role = Role::kSolo;
  std::uint32_t pair = 0;              // pair index in this round (Q1/Q2 only)
  rng::StreamKey pair_key{};           // agreed with the partner (Q1/Q2 only)
};

// One uplink message. Binary mechanisms: `bits` holds every layer's PackedWords(size) words,
// layer after layer; real-valued mechanisms: `values` holds m floats.
struct Message {
  std::uint32_t client = 0;
  std::vector<std::uint64_t> bits;
  std::vector<float> values;
  std::size_t UplinkBits() const { return bits.size() * 64 + values.size() * 32; }
};

std::size_t MessageWords(const std::vector<LayerRange>& ranges);

// Client side: clip and encode w (m floats) with the mechanism. CQ is not per-client (see
// EncodeCqClients). Throws InvalidArgument for non-finite weights or a size mismatch.
Message EncodeClient(const MechanismConfig& config, std::span<const float> w, const std::vector<LayerRange>& ranges,
                     const ClientSlot& slot, const rng::StreamKey& client_key, std::uint32_t round);
// CQ baseline: the present clients' rows (row k = clients[k]) encoded together (shared
// permutations keyed by `cq_key`); no privacy.
std::vector<Message> EncodeCqClients(const MechanismConfig& config, const std::vector<std::vector<float>>& rows,
                                     const std::vector<std::uint32_t>& clients, const std::vector<LayerRange>& ranges,
                                     const rng::StreamKey& cq_key, std::uint32_t round);

// Server side: mean of the decoded messages (m floats). Throws if `messages` is empty.
std::vector<float> Aggregate(const MechanismConfig& config, const std::vector<Message>& messages,
                             const std::vector<LayerRange>& ranges, std::size_t m);

// Runtime-monitor material: the clipped weight, the layer's (c, r) and the sent value at
// `count` coordinates chosen by the kMonitor stream of (monitor_key, round, client).
struct MonitorSample {
  double w_clipped, c, r;
  bool plus;        // binary mechanisms: the bit
  double noise;     // gaussian/laplace: sent value − clipped weight (in float, as sent)
  double noise_scale;  // gaussian: σ·g (≥ the noise's sd); laplace: √(Var/2)·g (see MonitorNoiseScale)
};
std::vector<MonitorSample> SampleForMonitor(const MechanismConfig& config, std::span<const float> w,
                                            const std::vector<LayerRange>& ranges, const Message& message,
                                            const rng::StreamKey& monitor_key, std::uint32_t round, std::size_t count);

}  // namespace dpfl::fl
