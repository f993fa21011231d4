// The exact laws behind `dpfl check` (mechanism_laws.hpp). Every probability comes from the
// reference: seed-000 Alg. 1 (LDPQ, ref::Ldpq), Alg. 2 with line 14 corrected (E3,
// ref::CorBinQJointClosedForm), seed-001's corrected codebook (E1, ref::EvaluateCoq), seed-004's
// RR/StoSign laws (ref::RrPlusProbability, …), seed-003 Lemma 2 (ref::QuantizedGaussianPmf) and
// seed-002 Lemmas 14/15 (the error of LRSUQ has the target law: ref::GaussianErrorNormCdfTarget,
// ref::LaplaceErrorAbsCdfTarget). ε enters as the enclosure of e^ε at 256 bits (ref::ExpEnclosure).
#include "mechanism_laws.hpp"

#include "conformance.hpp"
#include "dpfl/format.hpp"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <limits>

#include "dpfl/error.hpp"
#include "dpfl/ref/bnn_laws.hpp"
#include "dpfl/ref/cepam.hpp"
#include "dpfl/ref/coq.hpp"
#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "dpfl/ref/quantized_gaussian.hpp"
#include "parameters.hpp"

namespace dpfl::check {
namespace {

using ref::Interval;
using ref::Rational;

constexpr int kPrecision = 256;

double ToDouble(const Rational& q) { return q.convert_to<double>(); }
double Mid(const Interval& x) { return ToDouble(x.Mid()); }


// ---- LDPQ and the pairs (seed 000 Alg. 1–2, seed 001) ----------------------------------------

class BinaryFamily : public MechanismLaw {
 public:
  enum class Kind { kLdpq, kCorBinQ, kCoq };
  BinaryFamily(Kind kind, Params& p) : MechanismLaw(kind == Kind::kLdpq ? 1 : 2, kind == Kind::kLdpq ? 1 : 2), kind_(kind) {
    const Rational eps = p.Exact("eps");
    p.Positive("eps", eps);
    if (eps > 700) throw InvalidArgument("--eps", "must be at most 700 (e^eps beyond double range)");
    c_ = p.Exact("c");
    r_ = p.Exact("r");
    p.Positive("r", r_);
    E_ = ref::ExpEnclosure(eps, kPrecision, "--eps");
    alpha_ = ref::AlphaFromE(E_);
    if (kind != Kind::kLdpq) {
      d_ = static_cast<int>(p.Integer("d", 0, kind == Kind::kCoq ? 24 : 62));
      if (kind == Kind::kCoq) {
        px_ = p.Exact("px", "0.5");
        if (!(px_ > 0 && px_ < 1)) throw InvalidArgument("--px", "must be in (0, 1)");
      }
    }
    cd_ = ToDouble(c_);
    rd_ = ToDouble(r_);
    ra_ = Mid(Interval(r_) * alpha_);
  }

  std::vector<std::vector<double>> Design(std::mt19937_64& rng, int random_inputs) const override {
    const double lo = cd_ - rd_, hi = cd_ + rd_, inside = rd_ * (1 - std::ldexp(1.0, -20));
    const double between = rd_ + (ra_ - rd_) / 2;  // in (r, rα]: only a clip keeps the law here
    std::vector<double> singles = {lo, hi, cd_, cd_ - rd_ / 2, cd_ + rd_ / 2, cd_ - inside, cd_ + inside,
                                   cd_ - between, cd_ + between, cd_ - 2 * ra_, cd_ + 2 * ra_};
    std::vector<std::vector<double>> out;
    if (kind_ == Kind::kLdpq) {
      for (double w : singles) out.push_back({ToFloat(w)});
      for (double w : StratifiedInputs(rng, lo, hi, random_inputs)) out.push_back({ToFloat(w)});
      return out;
    }
    // Pairs: the clip ends against each other, equal and unequal cells of the shared index
    // (weights whose q or 1 − q sits on a cell boundary t/2^d resp. F(t), and just off it).
    const std::vector<double> b = Boundaries();
    const auto pair = [&out](double a, double c) { out.push_back({ToFloat(a), ToFloat(c)}); };
    pair(lo, hi);
    pair(hi, lo);
    pair(hi, hi);
    pair(lo, lo);
    pair(cd_, cd_);
    pair(cd_ + rd_ / 2, cd_ - rd_ / 3);
    pair(cd_ + between, cd_ - between);
    pair(cd_ + 2 * ra_, cd_ - 2 * ra_);
    for (std::size_t i = 0; i < b.size(); ++i) {
      pair(b[i], b[i]);
      pair(b[i], b[(i + 1) % b.size()]);
      pair(std::nextafter(ToFloat(b[i]), 1e300), b[b.size() - 1 - i]);
    }
    const std::vector<double> u = StratifiedInputs(rng, lo, hi, random_inputs), v = StratifiedInputs(rng, lo, hi, random_inputs);
    for (std::size_t i = 0; i < u.size(); ++i) pair(u[i], v[i]);  // a Latin hypercube of the square
    return out;
  }

  std::vector<double> Perturb(const std::vector<double>& x, double scale, std::mt19937_64& rng) const override {
    std::vector<double> y = x;
    const double span = ra_ + rd_ / 2;
    for (double& v : y)
      v = ToFloat(std::clamp(v + scale * span * std::normal_distribution<double>(0, 1)(rng), cd_ - span, cd_ + span));
    return y;
  }

  InputLaw LawAt(const std::vector<double>& x) const override {
    InputLaw law;
    std::vector<Rational> w;
    for (double v : x) {
      const Rational q(v);
      w.push_back(ref::Min(ref::Max(q, Rational(c_ - r_)), Rational(c_ + r_)));  // seed-001 E12: clip first
      law.target.push_back(ToDouble(w.back()));
    }
    const double m = cd_ - ra_, p = cd_ + ra_;
    if (kind_ == Kind::kLdpq) {
      const auto l = ref::Ldpq(E_, c_, r_, w[0]);
      law.cell_prob = {Mid(l.q_minus), Mid(l.q_plus)};
      law.cell_names = {"c-r*alpha", "c+r*alpha"};
      law.points = {{m}, {p}};
    } else {
      const Interval q1 = ref::LdpqProbPlus(alpha_, c_, r_, w[0]), q2 = ref::LdpqProbPlus(alpha_, c_, r_, w[1]);
      double mm, mp, pm, pp;
      if (kind_ == Kind::kCorBinQ) {
        const auto j = ref::CorBinQJointClosedForm(q1, q2, d_, ref::Line14::kCorrected);
        mm = Mid(j.mm), mp = Mid(j.mp), pm = Mid(j.pm), pp = Mid(j.pp);
      } else {
        const auto j = ref::EvaluateCoq(E_, c_, r_, w[0], w[1], d_, px_, ref::CoqList::kCorrected).joint;
        mm = Mid(j.mm), mp = Mid(j.mp), pm = Mid(j.pm), pp = Mid(j.pp);
      }
      law.cell_prob = {mm, mp, pm, pp};
      law.cell_names = {"(-,-)", "(-,+)", "(+,-)", "(+,+)"};
      law.points = {{m, m}, {m, p}, {p, m}, {p, p}};
    }
    FinishDiscrete(law);
    return law;
  }

  std::string SupportText() const override {
    return "{c - r*alpha, c + r*alpha} = {" + ShortestDouble(cd_ - ra_) + ", " + ShortestDouble(cd_ + ra_) + "}" +
           (kind_ == Kind::kLdpq ? "" : " per client");
  }

 private:
  // Weights at which 2^d q (Alice) or 2^d (1 − q) (Bob) is an integer: corbinq t/2^d, coq the
  // codebook's F(t); at most three (first, middle, last feasible) of each side.
  std::vector<double> Boundaries() const {
    std::vector<Rational> qs;
    const Interval lo_q = ref::LdpqProbPlus(alpha_, c_, r_, Rational(c_ - r_));
    const Interval hi_q = ref::LdpqProbPlus(alpha_, c_, r_, Rational(c_ + r_));
    const double qlo = Mid(lo_q), qhi = Mid(hi_q);
    if (d_ == 0 || d_ > 40) return {};
    const ref::Int n = ref::Int(1) << d_;
    std::unique_ptr<ref::CoqCodebook> book;
    if (kind_ == Kind::kCoq) book = std::make_unique<ref::CoqCodebook>(px_, d_);
    std::vector<Rational> feasible;
    const long long count = std::min<long long>(n.convert_to<long long>(), 1 << 16);
    for (long long t = 1; t < count; ++t) {
      const ref::Int i = n.convert_to<long long>() <= (1 << 16) ? ref::Int(t) : ref::Int(t) * (n / count);
      const Rational F = book ? book->F(i) : Rational(i) / Rational(n);
      for (const Rational& q : {F, Rational(1 - F)})
        if (ToDouble(q) > qlo && ToDouble(q) < qhi) feasible.push_back(q);
    }
    std::sort(feasible.begin(), feasible.end());
    feasible.erase(std::unique(feasible.begin(), feasible.end()), feasible.end());
    std::vector<double> out;
    if (feasible.empty()) return out;
    for (std::size_t k : {std::size_t{0}, feasible.size() / 2, feasible.size() - 1}) {
      // w with LdpqProbPlus(w) = q: w = c + rα(2q − 1).
      const double w = Mid(Interval(c_) + Interval(r_) * alpha_ * Interval(Rational(2 * feasible[k] - 1)));
      if (out.empty() || out.back() != w) out.push_back(w);
    }
    return out;
  }

  Kind kind_;
  Rational c_, r_, px_{1, 2};
  Interval E_, alpha_;
  int d_ = 0;
  double cd_, rd_, ra_;
};

// ---- RR, StoSign, StoSign + RR (seed 004 Alg. B–C) ------------------------------------------

class BnnFamily : public MechanismLaw {
 public:
  enum class Kind { kRr, kStoSign, kUpload };
  BnnFamily(Kind kind, Params& p) : MechanismLaw(1, 1), kind_(kind) {
    if (kind != Kind::kStoSign) {
      gamma_ = p.Exact("rr-gamma");
      if (gamma_ < 0 || gamma_ > Rational(1, 2)) throw InvalidArgument("--rr-gamma", "must be in [0, 1/2]");
    }
  }
  std::vector<std::vector<double>> Design(std::mt19937_64& rng, int random_inputs) const override {
    if (kind_ == Kind::kRr) return {{1.0}, {-1.0}};
    const double inside = 1 - std::ldexp(1.0, -20);
    std::vector<std::vector<double>> out = {{-1}, {1}, {0}, {-0.5}, {0.5}, {-inside}, {inside}, {-1.5}, {1.5}};
    for (double t : StratifiedInputs(rng, -1, 1, random_inputs)) out.push_back({ToFloat(t)});
    return out;
  }
  std::vector<double> Perturb(const std::vector<double>& x, double scale, std::mt19937_64& rng) const override {
    if (kind_ == Kind::kRr) return {std::bernoulli_distribution(0.5)(rng) ? 1.0 : -1.0};
    return {ToFloat(std::clamp(x[0] + 1.5 * scale * std::normal_distribution<double>(0, 1)(rng), -1.5, 1.5))};
  }
  InputLaw LawAt(const std::vector<double>& x) const override {
    const Rational theta(x[0]);
    Rational plus;
    if (kind_ == Kind::kRr) {
      plus = ref::RrPlusProbability(gamma_, x[0] > 0 ? 1 : -1);
    } else if (kind_ == Kind::kStoSign) {
      plus = ref::StoSignPlusProbability(theta);
    } else {
      plus = ref::BnnUploadPlusProbability(gamma_, theta, true);
    }
    InputLaw law;
    law.target = {std::clamp(x[0], -1.0, 1.0)};
    law.cell_prob = {ToDouble(Rational(1 - plus)), ToDouble(plus)};
    law.cell_names = {"-1", "+1"};
    law.points = {{-1.0}, {1.0}};
    FinishDiscrete(law);
    return law;
  }
  std::string SupportText() const override { return "{-1, +1}"; }

 private:
  Kind kind_;
  Rational gamma_;
};

// ---- the quantized Gaussian (seed 003 Alg. 2, Lemma 2) ----------------------------------------

class QgaussLaw : public MechanismLaw {
 public:
  explicit QgaussLaw(Params& p) : MechanismLaw(1, 1) {
    params_.sigma = p.Exact("sigma");
    params_.levels = p.Integer("levels", 2, 65536);
    params_.clip = p.Exact("clip");
    p.Positive("sigma", params_.sigma);
    p.Positive("clip", params_.clip);
    const Rational step = 2 * params_.clip / (params_.levels - 1);
    for (long i = 0; i < params_.levels; ++i) levels_.push_back(ToDouble(Rational(-params_.clip + step * i)));
    clip_ = ToDouble(params_.clip);
  }
  std::vector<std::vector<double>> Design(std::mt19937_64& rng, int random_inputs) const override {
    const double h = clip_ / 2, inside = h * (1 - std::ldexp(1.0, -20));
    std::vector<double> xs = {-h, h, 0, -inside, inside, -clip_, clip_, h / 3};
    // Levels inside [−C/2, C/2] (where stochastic rounding is deterministic before noise) and a
    // midpoint between two levels.
    std::vector<double> inner;
    for (double l : levels_)
      if (l > -h && l < h) inner.push_back(l);
    if (!inner.empty()) {
      xs.push_back(inner.front());
      xs.push_back(inner[inner.size() / 2]);
      if (inner.size() > 1) xs.push_back((inner[0] + inner[1]) / 2);
    }
    for (double x : StratifiedInputs(rng, -h, h, random_inputs)) xs.push_back(x);
    std::vector<std::vector<double>> out;
    for (double x : xs) out.push_back({ToFloat(x)});
    return out;
  }
  std::vector<double> Perturb(const std::vector<double>& x, double scale, std::mt19937_64& rng) const override {
    return {ToFloat(std::clamp(x[0] + scale * clip_ * std::normal_distribution<double>(0, 1)(rng), -clip_, clip_))};
  }
  InputLaw LawAt(const std::vector<double>& x) const override {
    InputLaw law;
    const Rational h = params_.clip / 2;
    const Rational xc = ref::Min(ref::Max(Rational(x[0]), Rational(-h)), h);  // ℓ2 clip to C/2 (a scalar)
    law.target = {ToDouble(xc)};
    const std::vector<ref::Enclosure> pmf = ref::QuantizedGaussianPmf(params_, xc, 64);
    for (std::size_t i = 0; i < pmf.size(); ++i) {
      law.cell_prob.push_back(std::max(0.0, pmf[i].MidDouble()));
      law.cell_names.push_back("B(" + std::to_string(i) + ")");
      law.points.push_back({levels_[i]});
    }
    FinishDiscrete(law);
    return law;
  }
  int Cell(const InputLaw&, std::span<const double>, std::span<const double> y, double tolerance) const override {
    const double tol = tolerance * clip_;
    const auto it = std::lower_bound(levels_.begin(), levels_.end(), y[0] - tol);
    if (it == levels_.end() || std::fabs(*it - y[0]) > tol) return -1;
    return static_cast<int>(it - levels_.begin());
  }
  std::string SupportText() const override {
    return "the " + std::to_string(params_.levels) + " levels B(r) = -C + r*2C/(K-1) on [-C, C]";
  }

 private:
  ref::QuantizedGaussianParams params_;
  std::vector<double> levels_;
  double clip_;
};

// ---- CEPAM / layered RSUQ (seed 002): the error y − x has the target law ----------------------

class CepamLaw : public MechanismLaw {
 public:
  static constexpr int kNormBins = 8;
  CepamLaw(bool gaussian, Params& p) : MechanismLaw(Dim(p), Dim(p)), gaussian_(gaussian) {
    n_ = Dim(p);
    if (!gaussian && n_ != 1)
      throw InvalidArgument("--lattice-dim", "cepam-laplace is checked for n = 1 (the error law of seed 002 "
                                             "Lemma 15 is stated for the scalar Laplace)");
    scale_q_ = p.Exact(gaussian ? "sigma" : "b");
    // The cell scaling c ≥ 1 of `dpfl sample cepam` shapes only the bitstream (the error law is the
    // target's for every c: Lemmas 14/15), so it is accepted, checked and otherwise unused.
    if (p.Has("c") && !(p.Exact("c") >= 1)) throw InvalidArgument("--c", "the cell scaling must be >= 1");
    p.Positive(gaussian ? "sigma" : "b", scale_q_);
    scale_ = ToDouble(scale_q_);
    // Bin edges of s = ‖e‖²/σ² (χ²_n) or |e|/b (Exp(1)) at the j/8 quantiles, computed in double
    // only to place them; their probabilities below are exact enclosures at those edges.
    edges_.push_back(0);
    for (int j = 1; j < kNormBins; ++j) {
      const double u = static_cast<double>(j) / kNormBins;
      const double s = gaussian ? boost::math::quantile(boost::math::chi_squared_distribution<double>(n_), u)
                                : -std::log1p(-u);
      edges_.push_back(ToFloat(s));
    }
    std::vector<double> cdf = {0};
    for (int j = 1; j < kNormBins; ++j) {
      const Rational s(edges_[static_cast<std::size_t>(j)]);
      cdf.push_back((gaussian ? ref::GaussianErrorNormCdfTarget(n_, s, 80) : ref::LaplaceErrorAbsCdfTarget(s, 80))
                        .MidDouble());
    }
    cdf.push_back(1);
    for (int j = 0; j < kNormBins; ++j) bin_prob_.push_back(cdf[static_cast<std::size_t>(j) + 1] - cdf[static_cast<std::size_t>(j)]);
  }
  static int Dim(Params& p) { return static_cast<int>(p.Integer("lattice-dim", 1, 8)); }
  int Parts() const { return n_ == 1 ? 2 : 8; }
  std::vector<std::vector<double>> Design(std::mt19937_64& rng, int random_inputs) const override {
    std::vector<std::vector<double>> out;
    out.push_back(std::vector<double>(static_cast<std::size_t>(n_), 0.0));
    std::vector<double> unit(static_cast<std::size_t>(n_), 0.0);
    unit[0] = ToFloat(scale_);
    out.push_back(unit);
    std::vector<double> big(static_cast<std::size_t>(n_));
    for (int i = 0; i < n_; ++i) big[static_cast<std::size_t>(i)] = ToFloat((i % 2 ? -10 : 10) * scale_);
    out.push_back(big);
    // Random blocks: a Latin hypercube of [−4s, 4s]^n (s the noise scale), one stratum per input.
    std::vector<std::vector<double>> coords;
    for (int i = 0; i < n_; ++i) coords.push_back(StratifiedInputs(rng, -4 * scale_, 4 * scale_, random_inputs));
    for (int k = 0; k < random_inputs; ++k) {
      std::vector<double> x;
      for (int i = 0; i < n_; ++i) x.push_back(ToFloat(coords[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)]));
      out.push_back(x);
    }
    return out;
  }
  std::vector<double> Perturb(const std::vector<double>& x, double scale, std::mt19937_64& rng) const override {
    std::vector<double> y = x;
    for (double& v : y) v = ToFloat(v + 3 * scale * scale_ * std::normal_distribution<double>(0, 1)(rng));
    return y;
  }
  InputLaw LawAt(const std::vector<double>& x) const override {
    InputLaw law;
    law.target = x;
    // n = 1: the norm bin × the sign of e (a symmetric law gives each half). n ≥ 2: the norm bin ×
    // 8 sectors of the angle of (e_1, e_2), offset by π/8 from the axes: the direction of a
    // spherical law is uniform and independent of the norm, and its projection on a plane has a
    // uniform angle (a direction confined to axes or diagonals shows here).
    const int parts = Parts();
    for (int j = 0; j < kNormBins; ++j)
      for (int part = 0; part < parts; ++part) {
        law.cell_prob.push_back(bin_prob_[static_cast<std::size_t>(j)] / parts);
        law.cell_names.push_back(std::string(gaussian_ ? "|e|^2/sigma^2" : "|e|/b") + " in [" +
                                 std::to_string(edges_[static_cast<std::size_t>(j)]) + ", " +
                                 (j + 1 < kNormBins ? std::to_string(edges_[static_cast<std::size_t>(j) + 1]) : "inf") +
                                 (parts == 2 ? std::string("), e_1 ") + (part ? ">= 0" : "< 0")
                                             : "), angle of (e_1, e_2) in sector " + std::to_string(part) + " of 8"));
      }
    const double var = gaussian_ ? scale_ * scale_ : 2 * scale_ * scale_;
    law.mean = x;
    law.sd.assign(static_cast<std::size_t>(n_), std::sqrt(var));
    // ‖e‖²: Gaussian nσ², variance 2nσ⁴; Laplace e²: 2b², E e⁴ = 24 b⁴, variance 20 b⁴.
    law.loss_mean = n_ * var;
    law.loss_sd = gaussian_ ? std::sqrt(2.0 * n_) * var : std::sqrt(20.0) * scale_ * scale_;
    return law;
  }
  int Cell(const InputLaw&, std::span<const double> x, std::span<const double> y, double) const override {
    double s = 0;
    for (int i = 0; i < n_; ++i) {
      const double e = y[static_cast<std::size_t>(i)] - x[static_cast<std::size_t>(i)];
      s += gaussian_ ? e * e : std::fabs(e);
    }
    s = gaussian_ ? s / (scale_ * scale_) : s / scale_;
    const int bin = static_cast<int>(std::upper_bound(edges_.begin(), edges_.end(), s) - edges_.begin()) - 1;
    if (Parts() == 2) return 2 * bin + (y[0] - x[0] >= 0 ? 1 : 0);
    const double pi = 3.14159265358979323846;
    double angle = std::atan2(y[1] - x[1], y[0] - x[0]) + pi / 8;  // (−7π/8, 9π/8]
    if (angle < 0) angle += 2 * pi;
    const int sector = std::min(7, static_cast<int>(angle / (pi / 4)));
    return 8 * bin + sector;
  }
  double Loss(const InputLaw&, std::span<const double> x, std::span<const double> y) const override {
    double s = 0;
    for (int i = 0; i < n_; ++i) s += (y[static_cast<std::size_t>(i)] - x[static_cast<std::size_t>(i)]) *
                                      (y[static_cast<std::size_t>(i)] - x[static_cast<std::size_t>(i)]);
    return s;
  }
  double Summary(std::span<const double> x, std::span<const double> y) const override { return y[0] - x[0]; }
  std::string SupportText() const override { return "R^n (the error y - x has the target law)"; }

 private:
  bool gaussian_;
  int n_ = 1;
  Rational scale_q_;
  double scale_ = 1;
  std::vector<double> edges_, bin_prob_;
};

}  // namespace

double ToFloat(double v) { return static_cast<double>(static_cast<float>(v)); }

std::vector<double> StratifiedInputs(std::mt19937_64& rng, double lo, double hi, int k) {
  std::vector<double> out;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < k; ++i) out.push_back(lo + (hi - lo) * (i + u(rng)) / k);
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

int MechanismLaw::Cell(const InputLaw& law, std::span<const double>, std::span<const double> y, double tolerance) const {
  double scale = std::numeric_limits<double>::min();
  for (const auto& p : law.points)
    for (double v : p) scale = std::max(scale, std::fabs(v));
  for (std::size_t j = 0; j < law.points.size(); ++j) {
    bool match = true;
    for (std::size_t k = 0; k < y.size() && match; ++k) match = std::fabs(y[k] - law.points[j][k]) <= tolerance * scale;
    if (match) return static_cast<int>(j);
  }
  return -1;
}

double MechanismLaw::Loss(const InputLaw& law, std::span<const double>, std::span<const double> y) const {
  double s = 0;
  for (std::size_t k = 0; k < y.size(); ++k) s += y[k] - law.target[k];
  return s * s;
}

double MechanismLaw::Summary(std::span<const double>, std::span<const double> y) const {
  double s = 0;
  for (double v : y) s += v;
  return s;
}

void MechanismLaw::FinishDiscrete(InputLaw& law) const {
  const std::size_t k = static_cast<std::size_t>(output_arity());
  law.mean.assign(k, 0);
  law.sd.assign(k, 0);
  for (std::size_t j = 0; j < law.points.size(); ++j)
    for (std::size_t i = 0; i < k; ++i) law.mean[i] += law.cell_prob[j] * law.points[j][i];
  double l1 = 0, l2 = 0;
  for (std::size_t j = 0; j < law.points.size(); ++j) {
    for (std::size_t i = 0; i < k; ++i) {
      const double d = law.points[j][i] - law.mean[i];
      law.sd[i] += law.cell_prob[j] * d * d;
    }
    const double loss = Loss(law, {}, law.points[j]);
    l1 += law.cell_prob[j] * loss;
    l2 += law.cell_prob[j] * loss * loss;
  }
  for (double& s : law.sd) s = std::sqrt(s);
  law.loss_mean = l1;
  law.loss_sd = std::sqrt(std::max(0.0, l2 - l1 * l1));
}

std::unique_ptr<MechanismLaw> MakeMechanismLaw(const std::string& name, const std::map<std::string, std::string>& parameters) {
  Params p(name, parameters);
  std::unique_ptr<MechanismLaw> law;
  if (name == "ldpq") law = std::make_unique<BinaryFamily>(BinaryFamily::Kind::kLdpq, p);
  else if (name == "corbinq") law = std::make_unique<BinaryFamily>(BinaryFamily::Kind::kCorBinQ, p);
  else if (name == "coq") law = std::make_unique<BinaryFamily>(BinaryFamily::Kind::kCoq, p);
  else if (name == "rr") law = std::make_unique<BnnFamily>(BnnFamily::Kind::kRr, p);
  else if (name == "stosign") law = std::make_unique<BnnFamily>(BnnFamily::Kind::kStoSign, p);
  else if (name == "bnn-upload") law = std::make_unique<BnnFamily>(BnnFamily::Kind::kUpload, p);
  else if (name == "qgauss") law = std::make_unique<QgaussLaw>(p);
  else if (name == "gaussian" || name == "laplace") law = MakeGridNoiseLaw(name == "gaussian", p);
  else if (name == "cepam-gaussian" || name == "cepam-laplace")
    law = std::make_unique<CepamLaw>(name == "cepam-gaussian", p);
  else
    throw InvalidArgument("MECHANISM", "unknown mechanism '" + name +
                                           "' (ldpq, corbinq, coq, rr, stosign, bnn-upload, qgauss, cepam-gaussian, "
                                           "cepam-laplace, gaussian, laplace)");
  p.RejectUnused();
  return law;
}

}  // namespace dpfl::check
