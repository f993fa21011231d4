// See dpfl/fl/cepam_uplink.hpp.
#include "dpfl/fl/cepam_uplink.hpp"

#include <cmath>
#include <limits>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/stream_util.hpp"

#ifdef DPFL_FL_WIRING_MUTANTS  // test-only copy of this file (tests/CMakeLists.txt); never in dpfl_fl
#include "testing/fl_wiring_mutants.hpp"
#endif

namespace dpfl::fl {
namespace {

struct Named {
  const char* name;
  CepamFlMechanism mechanism;
};
constexpr Named kNames[] = {
    {"fl", CepamFlMechanism::kFl},
    {"fl-sdq", CepamFlMechanism::kFlSdq},
    {"fl-gaussian", CepamFlMechanism::kFlGaussian},
    {"fl-gaussian-sdq", CepamFlMechanism::kFlGaussianSdq},
    {"fl-laplace", CepamFlMechanism::kFlLaplace},
    {"fl-laplace-sdq", CepamFlMechanism::kFlLaplaceSdq},
    {"cepam-gaussian", CepamFlMechanism::kCepamGaussian},
    {"cepam-laplace", CepamFlMechanism::kCepamLaplace},
};

bool PositiveFinite(double x) { return std::isfinite(x) && x > 0; }

bool SendsFloats(CepamFlMechanism m) {
  return m == CepamFlMechanism::kFl || m == CepamFlMechanism::kFlGaussian || m == CepamFlMechanism::kFlLaplace;
}
bool NoiseThenSdq(CepamFlMechanism m) {
  return m == CepamFlMechanism::kFlGaussianSdq || m == CepamFlMechanism::kFlLaplaceSdq;
}

quant::StreamContext Context(const CepamUplinkConfig& c, const rng::StreamKey& key, std::uint32_t round) {
  quant::StreamContext ctx;
  ctx.generator = c.generator;
  ctx.key = key;
  ctx.round = round;
  return ctx;
}

// The codec configuration of a bitstream mechanism; `bound` is the ℓ2 bound of its input.
quant::CepamConfig CodecConfig(const CepamUplinkConfig& c, double bound) {
  quant::CepamConfig q;
  q.n = 1;
  q.clip = bound;
  if (c.mechanism == CepamFlMechanism::kCepamGaussian || c.mechanism == CepamFlMechanism::kCepamLaplace) {
    q.kind = c.mechanism == CepamFlMechanism::kCepamGaussian ? quant::CepamKind::kGaussian : quant::CepamKind::kLaplace;
    q.n = c.lattice_dim;
    q.scale = c.mechanism == CepamFlMechanism::kCepamGaussian ? c.sigma : c.b;
  } else {
    q.kind = quant::CepamKind::kSdq;
    q.scale = c.sdq_step;
  }
  return q;
}

// The baselines' floating-point noise for coordinate k (cepam_uplink.hpp "Streams").
void AddNoise(const CepamUplinkConfig& c, const rng::StreamKey& key, std::uint32_t client, std::uint32_t round,
              std::vector<float>& x) {
  StreamCursor cur;
  cur.ctx.generator = c.generator;
  cur.ctx.key = DeriveSubKey(key, "noise");
  cur.addr = {round, client, rng::Purpose::kPrivateCoin};
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamBaselineNoiseRoundFixed)) cur.addr.round = 0;
#endif
  const bool gaussian = CepamFlGaussian(c.mechanism);
  for (std::size_t k = 0; k < x.size(); ++k) {
    double z = 0;
    if (gaussian) {
      cur.index = 2 * k;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
      if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamBaselineNoiseOverlap)) cur.index = k;
#endif
      z = c.sigma * cur.NextGaussian();
    } else {
      cur.index = k;
      z = LaplaceFromUniform(cur.Next(), c.b);
    }
    x[k] = static_cast<float>(static_cast<double>(x[k]) + z);
    if (!std::isfinite(x[k])) throw InvalidArgument("update", "the noised update overflows float at index " + std::to_string(k));
  }
}

double Norm2(const std::vector<float>& x) {
  double s = 0;
  for (float v : x) s += static_cast<double>(v) * static_cast<double>(v);
  return std::sqrt(s);
}

}  // namespace

CepamFlMechanism ParseCepamFlMechanism(const std::string& name) {
  for (const Named& n : kNames)
    if (name == n.name) return n.mechanism;
  throw InvalidArgument("--mechanism", "unknown seed-002 mechanism '" + name.substr(0, 40) +
                                           "' (fl, fl-sdq, fl-gaussian, fl-gaussian-sdq, fl-laplace, fl-laplace-sdq, "
                                           "cepam-gaussian, cepam-laplace)");
}

bool IsCepamFlMechanism(const std::string& name) {
  for (const Named& n : kNames)
    if (name == n.name) return true;
  return false;
}

std::string CepamFlMechanismName(CepamFlMechanism m) {
  for (const Named& n : kNames)
    if (m == n.mechanism) return n.name;
  return "unknown";
}

bool CepamFlGaussian(CepamFlMechanism m) {
  return m == CepamFlMechanism::kFlGaussian || m == CepamFlMechanism::kFlGaussianSdq || m == CepamFlMechanism::kCepamGaussian;
}
bool CepamFlLaplace(CepamFlMechanism m) {
  return m == CepamFlMechanism::kFlLaplace || m == CepamFlMechanism::kFlLaplaceSdq || m == CepamFlMechanism::kCepamLaplace;
}
bool CepamFlSdq(CepamFlMechanism m) {
  return m == CepamFlMechanism::kFlSdq || m == CepamFlMechanism::kFlGaussianSdq || m == CepamFlMechanism::kFlLaplaceSdq;
}

void ValidateCepamUplink(const CepamUplinkConfig& c) {
  if (CepamFlMechanismName(c.mechanism) == "unknown") throw InvalidArgument("--mechanism", "unknown seed-002 mechanism");
  if (c.mechanism != CepamFlMechanism::kFl && !PositiveFinite(c.clip))
    throw InvalidArgument("--clip", "the update clipping threshold gamma must be finite and > 0, got " + ShortestDouble(c.clip));
  if (CepamFlGaussian(c.mechanism) && !PositiveFinite(c.sigma))
    throw InvalidArgument("--sigma", "the Gaussian noise's standard deviation must be finite and > 0, got " + ShortestDouble(c.sigma));
  if (CepamFlLaplace(c.mechanism) && !PositiveFinite(c.b))
    throw InvalidArgument("--b", "the Laplace scale must be finite and > 0, got " + ShortestDouble(c.b));
  if (CepamFlSdq(c.mechanism) && !PositiveFinite(c.sdq_step))
    throw InvalidArgument("--sdq-step", "the SDQ step must be finite and > 0, got " + ShortestDouble(c.sdq_step));
  if (c.mechanism == CepamFlMechanism::kCepamLaplace && c.lattice_dim != 1)
    throw InvalidArgument("--lattice-dim", "cepam-laplace is the paper's n = 1 (Theorem 13 covers n = 1 only), got " +
                                               std::to_string(c.lattice_dim));
  if (c.mechanism == CepamFlMechanism::kCepamGaussian && (c.lattice_dim < 1 || c.lattice_dim > 3))
    throw InvalidArgument("--lattice-dim", "cepam-gaussian takes n = 1, 2 or 3 (seed 002 §3.12), got " +
                                               std::to_string(c.lattice_dim));
  if (c.mechanism != CepamFlMechanism::kFl && !SendsFloats(c.mechanism)) {
    // The codec's own checks (acceptance, ranges), with the flag names of the CLI.
    try {
      quant::ValidateCepamConfig(CodecConfig(c, c.clip));
    } catch (const InvalidArgument& e) {
      throw InvalidArgument("--mechanism", std::string("codec configuration rejected: ") + e.what());
    }
  }
}

std::uint64_t CepamUplinkMessage::Bits() const {
  if (!values.empty()) return 32 * static_cast<std::uint64_t>(values.size());
  return coded.bits + (bound_exponent ? 8 : 0);
}

CepamUplinkMessage EncodeCepamUplink(const CepamUplinkConfig& c, std::vector<float> update, const rng::StreamKey& key,
                                     std::uint32_t client, std::uint32_t round, CepamClientReport* report) {
  for (std::size_t k = 0; k < update.size(); ++k)
    if (!std::isfinite(update[k])) throw InvalidArgument("update", "non-finite update at index " + std::to_string(k));
  CepamClientReport local;
  CepamClientReport& rep = report ? *report : local;
  rep = {};
  rep.update_norm = Norm2(update);
  CepamUplinkMessage msg;
  msg.client = client;
  if (c.mechanism != CepamFlMechanism::kFl) {
    double bound = c.clip;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kCepamClipToGammaSquared)) bound = c.clip * c.clip;
#endif
    rep.clipped = rep.update_norm > bound;
    quant::ClipToNorm(update, bound);  // Alg. 1 step 4
  }
  if (CepamFlGaussian(c.mechanism) || CepamFlLaplace(c.mechanism))
    if (c.mechanism != CepamFlMechanism::kCepamGaussian && c.mechanism != CepamFlMechanism::kCepamLaplace)
      AddNoise(c, key, client, round, update);
  if (SendsFloats(c.mechanism)) {
    msg.values = std::move(update);
    return msg;
  }
  double bound = c.clip;
  if (NoiseThenSdq(c.mechanism)) {
    // B = 2^e ≥ max(γ, ‖X̃ + Z‖₂): the norm is rounded up by a relative 2^−40 before the
    // power of two is taken, so B bounds the float vector the codec sees.
    const double norm = Norm2(update) * (1.0 + 0x1p-40);
    int e = 0;
    std::frexp(std::max(norm, c.clip), &e);  // max(…) < 2^e
    if (e < -127 || e > 127) throw InvalidArgument("update", "the noised update's norm is out of range");
    msg.bound_exponent = static_cast<std::int8_t>(e);
    bound = std::ldexp(1.0, e);
  }
  msg.coded = quant::CepamEncode(CodecConfig(c, bound), update, Context(c, key, round), client, &rep.stats);
  return msg;
}

std::vector<double> DecodeCepamUplink(const CepamUplinkConfig& c, const CepamUplinkMessage& msg, const rng::StreamKey& key,
                                      std::uint32_t round, std::size_t m) {
  if (SendsFloats(c.mechanism)) {
    if (msg.values.size() != m) throw InvalidArgument("message", "expected " + std::to_string(m) + " floats");
    return {msg.values.begin(), msg.values.end()};
  }
  if (msg.coded.m != m) throw InvalidArgument("message", "the bitstream encodes " + std::to_string(msg.coded.m) +
                                                             " coordinates, expected " + std::to_string(m));
  double bound = c.clip;
  if (NoiseThenSdq(c.mechanism)) {
    if (!msg.bound_exponent || *msg.bound_exponent == std::numeric_limits<std::int8_t>::min())
      throw InvalidArgument("message", "missing or invalid norm-bound header");
    bound = std::ldexp(1.0, *msg.bound_exponent);
  } else if (msg.bound_exponent) {
    throw InvalidArgument("message", "unexpected norm-bound header");
  }
  std::vector<double> y(m);
  quant::CepamDecode(CodecConfig(c, bound), msg.coded, Context(c, key, round), msg.client, y);
  return y;
}

}  // namespace dpfl::fl
