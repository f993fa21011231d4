// The gaussian and laplace baselines of seed 000 §5 on their grid, as `dpfl check gaussian` and
// `dpfl check laplace` (docs/check.md): the clipped weight x ∈ [c − r, c + r] is put on the grid
// lo + k·g (lo = c − r, g = 2r/N, k the nearest index, ties up, in [0, N]) and the released value
// is lo + (k + Z)·g with Z ~ N_Z(0, σ²) (discrete Gaussian, --sigma2 in grid units²) or
// Z ~ L_Z(t) (discrete Laplace, --t in grid units). The law of Z is the reference's
// (ref::DiscreteGaussianLaw, ref::DiscreteLaplaceUpperTail, 128-bit enclosures); the test's cells
// are 16 bins of Z at integer edges near the law's sixteenths (placed in double, probabilities
// exact). Moments for the bias and mse checks: discrete Laplace closed forms with q = e^{−1/t},
// E Z² = 2q/(1 − q)², E Z⁴ = 2q(1 + 10q + q²)/(1 − q)⁴; discrete Gaussian by direct summation for
// σ² ≤ 2^16, else σ² and 3σ⁴ (by Poisson summation the relative difference is below
// 10σ⁴e^{−2π²σ²}, i.e. 0 in double there).
#include <boost/math/distributions/normal.hpp>
#include <cmath>

#include "conformance.hpp"
#include "dpfl/ref/discrete_noise.hpp"
#include "mechanism_laws.hpp"
#include "parameters.hpp"

namespace dpfl::check {
namespace {

using ref::Rational;
constexpr int kBins = 16;
constexpr mpfr_prec_t kPrecision = 128;

class GridNoiseLaw : public MechanismLaw {
 public:
  GridNoiseLaw(bool gaussian, Params& p) : MechanismLaw(1, 1), gaussian_(gaussian) {
    c_ = p.Exact("c");
    r_ = p.Exact("r");
    p.Positive("r", r_);
    steps_ = p.Integer("grid-steps", 1, 1L << 40, "1048576");
    lo_ = c_ - r_;
    g_ = 2 * r_ / steps_;
    if (!gaussian && p.Has("eps-p") && !p.Has("t")) {
      // As `dpfl train --mechanism laplace` does: t = N/ε_p grid units, so the grid's sensitivity
      // N gives exactly ε_p (the decimal ε_p read exactly here; dpfl train reads its double).
      const Rational eps = p.Exact("eps-p");
      p.Positive("eps-p", eps);
      scale_ = Rational(steps_) / eps;
    } else {
      scale_ = p.Exact(gaussian ? "sigma2" : "t");
      p.Positive(gaussian ? "sigma2" : "t", scale_);
    }
    if (scale_ > Rational(std::ldexp(1.0, 64)))
      throw InvalidArgument(gaussian ? "--sigma2" : "--t", "must be at most 2^64 grid units");
    BuildBins();
    Moments();
  }

  std::vector<std::vector<double>> Design(std::mt19937_64& rng, int random_inputs) const override {
    const double c = ToDouble(c_), r = ToDouble(r_), g = ToDouble(g_);
    std::vector<double> xs = {c - r, c + r, c, c - r / 2, c + r / 2, c - 1.5 * r, c + 1.5 * r,
                              c + r * (1 - std::ldexp(1.0, -20)), c - r + 0.5 * g, c + 3.5 * g};
    for (double x : StratifiedInputs(rng, c - r, c + r, random_inputs)) xs.push_back(x);
    std::vector<std::vector<double>> out;
    for (double x : xs) out.push_back({ToFloat(x)});
    return out;
  }
  std::vector<double> Perturb(const std::vector<double>& x, double scale, std::mt19937_64& rng) const override {
    const double c = ToDouble(c_), span = 1.5 * ToDouble(r_);
    return {ToFloat(std::clamp(x[0] + scale * span * std::normal_distribution<double>(0, 1)(rng), c - span, c + span))};
  }
  InputLaw LawAt(const std::vector<double>& x) const override {
    InputLaw law;
    const Rational xc = ref::Min(ref::Max(Rational(x[0]), lo_), Rational(c_ + r_));
    law.target = {ToDouble(xc)};
    law.cell_prob = bin_prob_;
    for (int j = 0; j < kBins; ++j)
      law.cell_names.push_back("Z in [" + (j ? std::to_string(edges_[static_cast<std::size_t>(j) - 1]) : "-inf") + ", " +
                               (j + 1 < kBins ? std::to_string(edges_[static_cast<std::size_t>(j)]) : "inf") + ")");
    const std::int64_t k = Index(xc);
    const double g = ToDouble(g_);
    const double mean = ToDouble(Rational(lo_ + g_ * k));
    law.mean = {mean};
    law.sd = {g * std::sqrt(ez2_)};
    const double d = mean - law.target[0];
    law.loss_mean = d * d + g * g * ez2_;
    const double e4 = d * d * d * d + 6 * d * d * g * g * ez2_ + g * g * g * g * ez4_;
    law.loss_sd = std::sqrt(std::max(0.0, e4 - law.loss_mean * law.loss_mean));
    law.grid_index = k;
    return law;
  }
  int Cell(const InputLaw& law, std::span<const double>, std::span<const double> y, double tolerance) const override {
    const double lo = ToDouble(lo_), g = ToDouble(g_);
    const double v = (y[0] - lo) / g, n = std::nearbyint(v);
    const double magnitude = std::max(std::fabs(y[0]), std::fabs(ToDouble(c_)) + ToDouble(r_));
    if (!(std::fabs(y[0] - (lo + n * g)) <= tolerance * magnitude)) return -1;
    const double z = n - static_cast<double>(law.grid_index);
    return static_cast<int>(std::upper_bound(edges_.begin(), edges_.end(), z) - edges_.begin());
  }
  std::string SupportText() const override { return "the grid c - r + n*2r/N (n an integer)"; }

 private:
  static double ToDouble(const Rational& q) { return q.convert_to<double>(); }
  std::int64_t Index(const Rational& xc) const {
    const Rational u = (xc - lo_) / g_ + Rational(1, 2);
    const ref::Int k = ref::FloorInt(u);
    return std::clamp<std::int64_t>(k.convert_to<std::int64_t>(), 0, steps_);
  }
  // P(Z ≥ a), exact enclosure midpoint.
  double Tail(long a) const {
    if (!gaussian_) return ref::DiscreteLaplaceUpperTail(scale_, ref::Int(a), kPrecision).MidDouble();
    const ref::DiscreteGaussianLaw& law = *gauss_;
    if (a >= 1) return (law.TailSum(ref::Int(a)) / law.Normalizer()).MidDouble();
    return 1 - (law.TailSum(ref::Int(1 - a)) / law.Normalizer()).MidDouble();
  }
  void BuildBins() {
    const double s = ToDouble(scale_);
    if (gaussian_) gauss_ = std::make_unique<ref::DiscreteGaussianLaw>(scale_, kPrecision);
    std::vector<long> edges;
    for (int j = 1; j < kBins; ++j) {
      const double u = static_cast<double>(j) / kBins;
      const double q = gaussian_ ? std::sqrt(s) * boost::math::quantile(boost::math::normal(), u)
                                 : (u < 0.5 ? s * std::log(2 * u) : -s * std::log(2 - 2 * u));
      const long e = std::lround(q);
      if (edges.empty() || e > edges.back()) edges.push_back(e);
    }
    edges_.assign(edges.begin(), edges.end());
    std::vector<double> tail;
    for (long e : edges) tail.push_back(Tail(e));
    bin_prob_.push_back(1 - tail.front());
    for (std::size_t j = 0; j + 1 < tail.size(); ++j) bin_prob_.push_back(tail[j] - tail[j + 1]);
    bin_prob_.push_back(tail.back());
    while (static_cast<int>(bin_prob_.size()) < kBins) bin_prob_.push_back(0);  // merged edges: empty cells
    while (static_cast<int>(edges_.size()) < kBins - 1) edges_.push_back(edges_.back() + 1e300);
  }
  void Moments() {
    const double s = ToDouble(scale_);
    if (!gaussian_) {
      const double om = -std::expm1(-1 / s), q = std::exp(-1 / s);  // 1 − q, q
      ez2_ = 2 * q / (om * om);
      ez4_ = 2 * q * (1 + 10 * q + q * q) / (om * om * om * om);
      return;
    }
    if (s > 65536) {
      ez2_ = s;
      ez4_ = 3 * s * s;
      return;
    }
    double w0 = 0, w2 = 0, w4 = 0;
    const long bound = static_cast<long>(40 * std::sqrt(s)) + 10;
    for (long z = -bound; z <= bound; ++z) {
      const double w = std::exp(-static_cast<double>(z) * static_cast<double>(z) / (2 * s)), z2 = static_cast<double>(z) * z;
      w0 += w, w2 += w * z2, w4 += w * z2 * z2;
    }
    ez2_ = w2 / w0;
    ez4_ = w4 / w0;
  }

  bool gaussian_;
  Rational c_, r_, lo_, g_, scale_;
  long steps_ = 1;
  std::unique_ptr<ref::DiscreteGaussianLaw> gauss_;
  std::vector<double> edges_, bin_prob_;
  double ez2_ = 1, ez4_ = 3;
};

}  // namespace

std::unique_ptr<MechanismLaw> MakeGridNoiseLaw(bool gaussian, Params& params) {
  return std::make_unique<GridNoiseLaw>(gaussian, params);
}

}  // namespace dpfl::check
