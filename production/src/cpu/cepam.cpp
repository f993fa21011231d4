// CEPAM / layered RSUQ on the CPU (dpfl/quant/cepam.hpp); the codec is the fault-free
// instantiation of internal/dpfl/quant/cepam_codec.hpp.
#include "dpfl/quant/cepam.hpp"

#include <cmath>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/quant/cepam_codec.hpp"

namespace dpfl::quant {
namespace {

bool PositiveFinite(double v) { return std::isfinite(v) && v > 0.0; }

// V_n, the volume of the unit ℓ2 ball: V_1 = 2, V_2 = π, V_n = V_{n−2}·2π/n.
double UnitBallVolume(int n) {
  constexpr double kPi = 3.14159265358979323846;
  double v = n % 2 == 0 ? 1.0 : 2.0;
  for (int k = n % 2 == 0 ? 2 : 3; k <= n; k += 2) v *= 2.0 * kPi / static_cast<double>(k);
  return v;
}

// x^n by repeated multiplication (not std::pow, whose last bit may differ between libms: the
// acceptance probability fixes the Golomb parameter, which both sides must agree on).
double IntPow(double x, int n) {
  double v = 1.0;
  for (int i = 0; i < n; ++i) v *= x;
  return v;
}

double AcceptanceUnchecked(const CepamConfig& c) {
  switch (c.kind) {
    case CepamKind::kSdq:
      return 1.0;
    case CepamKind::kRsuq:
      return UnitBallVolume(c.n) * IntPow(c.rho / c.scale, c.n);
    case CepamKind::kGaussian:
      return UnitBallVolume(c.n) / IntPow(2.0 * c.c, c.n);
    case CepamKind::kLaplace: {
      double factorial = 1.0;
      for (int k = 2; k <= c.n; ++k) factorial *= static_cast<double>(k);
      return 1.0 / (IntPow(c.c, c.n) * factorial);  // μ(B_1^n) = 2^n/n!, cell (2c)^n
    }
  }
  return 0.0;
}

}  // namespace

void ValidateCepamConfig(const CepamConfig& c) {
  switch (c.kind) {
    case CepamKind::kSdq:
    case CepamKind::kRsuq:
    case CepamKind::kGaussian:
    case CepamKind::kLaplace:
      break;
    default:
      throw InvalidArgument("kind", "unknown CEPAM kind");
  }
  if (c.n < 1 || c.n > kCepamMaxDim)
    throw InvalidArgument("lattice-dim", "lattice dimension n must be in 1.." + std::to_string(kCepamMaxDim) + ", got " +
                                             std::to_string(c.n));
  if (c.kind == CepamKind::kLaplace && c.n > 3)
    throw InvalidArgument("lattice-dim", "CEPAM-Laplace supports n = 1 (the paper) and n = 2, 3 (the spec's l1 extension; "
                                         "its acceptance 1/(c^n n!) makes larger n impractical), got " + std::to_string(c.n));
  const char* scale_name = c.kind == CepamKind::kGaussian ? "sigma" : (c.kind == CepamKind::kLaplace ? "b" : "alpha");
  if (!PositiveFinite(c.scale))
    throw InvalidArgument(scale_name, std::string(scale_name) + " must be finite and > 0, got " + ShortestDouble(c.scale));
  if (!PositiveFinite(c.clip))
    throw InvalidArgument("clip", "clip gamma must be finite and > 0, got " + ShortestDouble(c.clip));
  if (!(std::isfinite(c.c) && c.c >= 1.0))
    throw InvalidArgument("c", "cell scaling c must be finite and >= 1 (seed-002 §3.5: the ball must fit the cell), got " +
                                   ShortestDouble(c.c));
  if (c.kind == CepamKind::kRsuq && !(PositiveFinite(c.rho) && c.rho <= c.scale / 2.0))
    throw InvalidArgument("rho", "RSUQ acceptance radius rho must be in (0, alpha/2] (A inside the cell), got " +
                                     ShortestDouble(c.rho));
  // A trial succeeds with probability p_acc independently of the input; below 2^−20 a block
  // would need over a million trials on average (and its stream addresses would run out).
  const double p = AcceptanceUnchecked(c);
  if (!(p >= kCepamMinAcceptance))
    throw InvalidArgument(c.kind == CepamKind::kRsuq ? "rho" : "c",
                          "the acceptance probability " + ShortestDouble(p) +
                              " of one trial is below 2^-16 (expected trials per block 1/p_acc); use a larger " +
                              (c.kind == CepamKind::kRsuq ? "rho" : "lattice cell ratio: a smaller c or n"));
}

double CepamAcceptanceProbability(const CepamConfig& c) {
  ValidateCepamConfig(c);
  return AcceptanceUnchecked(c);
}

bool CepamAlwaysAccepts(const CepamConfig& c) {
  ValidateCepamConfig(c);
  switch (c.kind) {
    case CepamKind::kSdq: return true;
    case CepamKind::kRsuq: return c.n == 1 && 2.0 * c.rho == c.scale;
    case CepamKind::kGaussian:
    case CepamKind::kLaplace: return c.n == 1 && c.c == 1.0;
  }
  return false;
}

CepamMessage CepamEncode(const CepamConfig& config, std::span<const float> x, const StreamContext& ctx,
                         std::uint32_t client, CepamStats* stats) {
  return cepam::Encode<NoCepamFaults>(config, x, ctx, client, stats);
}

void CepamDecode(const CepamConfig& config, const CepamMessage& message, const StreamContext& ctx, std::uint32_t client,
                 std::span<double> y) {
  cepam::Decode<NoCepamFaults>(config, message, ctx, client, y);
}

double CepamLayer(const CepamConfig& config, const StreamContext& ctx, std::uint32_t client, std::uint64_t block) {
  ValidateCepamConfig(config);
  return cepam::Layer(config, ctx, client, block);
}

double ClipToNorm(std::span<float> x, double gamma) {
  if (!PositiveFinite(gamma)) throw InvalidArgument("clip", "clip gamma must be finite and > 0, got " + ShortestDouble(gamma));
  const double norm = std::sqrt(cepam::FiniteNorm2(x));
  if (norm <= gamma) return norm;
  // The factor is shaded by 2^−22 so that the float rounding of each coordinate (relative error
  // ≤ 2^−24) and the norm's own rounding cannot leave the result above γ.
  const double f = gamma / norm * (1.0 - 0x1p-22);
  for (float& v : x) v = static_cast<float>(static_cast<double>(v) * f);
  return norm;
}

}  // namespace dpfl::quant
