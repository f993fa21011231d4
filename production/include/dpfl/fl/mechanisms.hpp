// Privacy mechanisms of the FL loop on flat float vectors: one interface (client encode →
// message; server aggregate → mean) for every mechanism of seed 000 §5 (issue 6).
//
// A model is a flat vector of m floats cut into layers; each layer has its own (c, r) broadcast
// by the server (seed-000 §3.6) and every client clips to [c − r, c + r] before encoding.
//
// | mechanism     | client message                          | privacy per parameter, per round |
// |---------------|-----------------------------------------|----------------------------------|
// | vanilla       | 32-bit weights, unclipped               | none                             |
// | gaussian      | 32-bit clip(w) + N(0, σ²)               | (ε_p, δ)-PLDP: σ from the analytic Gaussian mechanism (Balle & Wang 2018, Thm 8) with Δ = 2r (range of the clipped coordinate), computed here in double by bisection and re-checked by the certificate with the reference's enclosure |
// | laplace       | 32-bit clip(w) + Lap(b), b = 2r/ε_p     | ε_p-PLDP (Dwork & Roth Thm 3.6, Δ1 = 2r) |
// | ldp-fl        | 1 bit: LDPQ (seed-000 Alg. 1)           | ε_p-PLDP                         |
// | corbin-fl     | 1 bit: CorBinQ (Alg. 2, d shared bits)  | ε_p-PLDP (marginals are LDPQ)    |
// | augcorbin-fl  | 1 bit: γ fraction LDPQ, rest CorBinQ    | ε_p-PLDP; UCDP by Thm 3          |
// | cq            | 1 bit: CQ (Suresh et al. 2022)          | none (baseline)                  |
// | coq-fl        | 1 bit: CoQ-FL, p_x = 1/2 (seed 001)     | ε_p-PLDP                         |
// Real-valued mechanisms send 32 bits per parameter; the binary ones 1 bit per parameter.
//
// Randomness (counter-based, dpfl/fl/stream_util.hpp): layer l of a client uses the private
// key DeriveSubKey(client_key, "layer", l) and, in a pair, the shared key
// DeriveSubKey(pair_key, "layer", l), so no two layers reuse uniforms. Gaussian noise is
// Box–Muller on the client's "gaussian" sub-key, Laplace the inverse CDF on its "laplace" sub-key.
// Dropout: absent clients send nothing; a survivor whose partner is absent runs LDPQ
// (seed-000 §3.5); the server divides by the number of messages (E31).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

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
// up) with Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) ≤ δ, by bisection in double.
double AnalyticGaussianSigma(double eps, double delta, double sensitivity);
double LaplaceScale(double eps, double sensitivity);  // Δ/ε

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
  double noise_scale;  // σ or b
};
std::vector<MonitorSample> SampleForMonitor(const MechanismConfig& config, std::span<const float> w,
                                            const std::vector<LayerRange>& ranges, const Message& message,
                                            const rng::StreamKey& monitor_key, std::uint32_t round, std::size_t count);

}  // namespace dpfl::fl
