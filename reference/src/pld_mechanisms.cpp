// dpfl::ref::pld — mechanism PLDs and the accountant (formulas and sources in pld_mechanisms.hpp).
#include "dpfl/ref/pld_mechanisms.hpp"

#include "dpfl/format.hpp"

#include "dpfl/ref/discrete_noise.hpp"

#include <algorithm>
#include <cmath>

#include "dpfl/validate.hpp"
#include "pld_internal.hpp"
#include "pld_normal.hpp"

namespace dpfl::ref::pld {

Pld detail::LawDirection(const LossLaw& law, const GridOptions& grid) {
  if (grid.discretization == Discretization::kConnectDots && law.PairBinMasses(0, 0, grid.step, grid.prec))
    return FromLossLawConnectDots(law, grid.step, grid.tail, grid.prec);
  return FromLossLaw(law, grid.step, grid.tail, grid.prec);
}

namespace {

double TailZ(double tail) { return std::sqrt(2.0 * std::log(1.0 / std::max(tail, 1e-300))) + 1.0; }

// F where a branch condition cannot be decided from an enclosure: the hull of both branches'
// values contains the true one (F is evaluated by one of them).
Enclosure Either(bool certain_a, bool certain_b, const std::function<Enclosure()>& a,
                 const std::function<Enclosure()>& b) {
  if (certain_a) return a();
  if (certain_b) return b();
  return Hull(a(), b());
}

// log(1 − q + q e^e) in double, for range hints only.
double MixLog(double q, double e) {
  if (e > 0) return e + std::log(q) + std::log1p((1 - q) * std::exp(-e) / q);
  if (q == 1) return e;  // log(e^e), also where e^e underflows
  return std::log((1 - q) + q * std::exp(e));
}

// ---- Gaussian and subsampled Gaussian ------------------------------------------------------
class SubsampledGaussianLaw final : public LossLaw {
 public:
  SubsampledGaussianLaw(Rational sigma, Rational sens, Rational q, bool remove)
      : sigma_(std::move(sigma)), sens_(std::move(sens)), q_(std::move(q)), remove_(remove) {}

  Enclosure Cdf(const Rational& t, mpfr_prec_t prec) const override {
    if (q_ == 1) {  // plain Gaussian: L ~ N(μ²/2, μ²)
      const Rational mu = sens_ / sigma_;
      return NormalCdf(Enclosure(prec, Rational((t - mu * mu / 2) / mu)));
    }
    const Enclosure one_minus_q(prec, Rational(1 - q_));
    const Rational s = remove_ ? t : Rational(-t);
    const Enclosure arg = Exp(Enclosure(prec, s)) - one_minus_q;  // e^{±t} − (1 − q)
    // remove: F = 0 when e^t ≤ 1 − q; add: F = 1 when e^{−t} ≤ 1 − q.
    auto outside = [&] { return Enclosure(prec, remove_ ? 0L : 1L); };
    auto inside = [&] {
      const Enclosure x = Rational(sigma_ * sigma_ / sens_) * Log(arg / Rational(q_)) + Rational(sens_ / 2);
      if (remove_)
        return Rational(1 - q_) * NormalCdf(x / sigma_) + q_ * NormalCdf((x - sens_) / sigma_);
      return NormalCdf(-x / sigma_);
    };
    return Either(CertainlyPositive(arg), CertainlyNonPositive(arg), inside, outside);
  }

  // Q(L ≤ t), L = log dP/dQ under Q: plain Gaussian N(−μ²/2, μ²); remove (Q = N(0, σ²)): Φ(x(t)/σ)
  // where e^t > 1 − q, else 0; add (Q the mixture, L = −L_remove(x)): L ≤ t ⟺ x ≥ x(−t), so
  // (1 − q)Φ(−x(−t)/σ) + qΦ((Δ − x(−t))/σ) where e^{−t} > 1 − q, else 1.
  Enclosure QCdf(const Rational& t, mpfr_prec_t prec) const {
    if (q_ == 1) {
      const Rational mu = sens_ / sigma_;
      return NormalCdf(Enclosure(prec, Rational((t + mu * mu / 2) / mu)));
    }
    const Enclosure one_minus_q(prec, Rational(1 - q_));
    const Rational s = remove_ ? t : Rational(-t);
    const Enclosure arg = Exp(Enclosure(prec, s)) - one_minus_q;
    auto outside = [&] { return Enclosure(prec, remove_ ? 0L : 1L); };
    auto inside = [&] {
      const Enclosure x = Rational(sigma_ * sigma_ / sens_) * Log(arg / Rational(q_)) + Rational(sens_ / 2);
      if (remove_) return NormalCdf(x / sigma_);
      return Rational(1 - q_) * NormalCdf(-x / sigma_) + q_ * NormalCdf((Rational(sens_) - x) / sigma_);
    };
    return Either(CertainlyPositive(arg), CertainlyNonPositive(arg), inside, outside);
  }

  std::optional<PairBinBounds> PairBinMasses(std::int64_t k0, std::size_t n, const Rational& step,
                                             mpfr_prec_t prec) const override {
    PairBinBounds out;
    if (q_ != 1) {
      out.p = MixtureBins(k0, n, step, prec, &out.q);
      return out;
    }
    // Under Q the standardized bin ends are y + μ: (t + m)/μ = (t − m)/μ + μ.
    const Rational mu = sens_ / sigma_;
    const Rational y0 = (step * k0 - mu * mu / 2) / mu, d = step / mu;
    out.p = StandardNormalBins(y0, d, n, prec);
    out.q = StandardNormalBins(Rational(y0 + mu), d, n, prec);
    return out;
  }

  // Plain Gaussian: L ~ N(m, μ²), m = μ²/2. In y = (t − m)/μ the bins are [y_i, y_i + d], d = h/μ,
  // and mass_i = φ(y_i)·I(y_i) with I(y) = ∫_0^d e^{−ys − s²/2} ds. GaussianBins evaluates this in
  // double with explicit bounds (see there); NormalMassFrom (MPFI) covers coarse grids.
  BinBounds BinMasses(std::int64_t k0, std::size_t n, const Rational& step, mpfr_prec_t prec) const override {
    if (q_ != 1) return MixtureBins(k0, n, step, prec, nullptr);
    const Rational mu = sens_ / sigma_;
    return StandardNormalBins(Rational((step * k0 - mu * mu / 2) / mu), Rational(step / mu), n, prec);
  }

  // ∫_{y_i}^{y_i + d} φ, y_i = y0 + i·d, i < n, bounded.
  static BinBounds StandardNormalBins(const Rational& y0, const Rational& d, std::size_t n, mpfr_prec_t prec) {
    const double reach = std::max(std::abs(y0.convert_to<double>()),
                                  std::abs((y0 + d * static_cast<long>(n)).convert_to<double>())) + 1;
    if (d <= Rational(1, 32) && reach * d.convert_to<double>() <= 0.5) return detail::GaussianBins(y0, d, n, prec);
    BinBounds out;
    if (d > 1) {  // few wide bins: Φ differences
      Enclosure prev = NormalCdf(Enclosure(prec, y0));
      for (std::size_t i = 0; i < n; ++i) {
        const Enclosure next = NormalCdf(Enclosure(prec, Rational(y0 + d * static_cast<long>(i + 1))));
        const Enclosure m = next - prev;
        out.lo.push_back(std::max(0.0, m.LoDouble()));
        out.hi.push_back(std::max(0.0, m.HiDouble()));
        prev = next;
      }
      return out;
    }
    const Enclosure dE(prec, d);
    for (std::size_t i = 0; i < n; ++i) {
      const Enclosure yi(prec, Rational(y0 + d * static_cast<long>(i)));
      const Enclosure m = NormalMassFrom(yi, dE, NormalPdf(yi));
      out.lo.push_back(std::max(0.0, m.LoDouble()));
      out.hi.push_back(std::max(0.0, m.HiDouble()));
    }
    return out;
  }

  // Subsampled: the bin (t_{k−1}, t_k] is an x-interval between x(±t_{k−1}) and x(±t_k), enclosed
  // by MPFI (e^{±t_k} by the recurrence ×e^{±h}, one log per point); the masses by
  // detail::NormalIntegralBounds over the standardized ends. A bin whose end has e^{±t} − (1 − q)
  // not certainly > 0 (x = −∞ or undecided) falls back to the Cdf difference.
  // With `qside`, also the bins' Q-masses: remove, Q = N(0, σ²) over the same x-interval; add, Q the
  // mixture over it.
  BinBounds MixtureBins(std::int64_t k0, std::size_t n, const Rational& step, mpfr_prec_t prec_in, BinBounds* qside) const {
    // The ends at 128 bits at least: e^t − (1 − q) cancels ~log10(1/q) digits and σ²/Δ scales the
    // log, so at 64 bits the ends carried ~1e-13 absolute error — 1e-12 of a narrow bin's mass, which
    // the connect-the-dots split (a difference of masses over h) turned into ~1e-6 excess per step.
    const mpfr_prec_t prec = std::max<mpfr_prec_t>(prec_in, 128);
    const Rational s = remove_ ? Rational(1) : Rational(-1);
    const Enclosure one_minus_q(prec, Rational(1 - q_)), eh = ExpQ(prec, Rational(s * step));
    Enclosure e = ExpQ(prec, Rational(s * step * k0));  // e^{±t_k}
    struct End {
      bool finite;
      double z1_lo, z1_hi, z2_lo, z2_hi;  // x/σ and (x − Δ)/σ
    };
    // The constants enclosed once (a Rational operand would be converted at every point).
    const Enclosure c_scale(prec, Rational(sigma_ * sigma_ / sens_)), c_inv_q(prec, Rational(1 / q_)),
        c_half(prec, Rational(sens_ / 2)), c_sigma(prec, sigma_), c_sens(prec, sens_);
    auto end_at = [&](const Enclosure& ek) {
      const Enclosure arg = ek - one_minus_q;
      if (!CertainlyPositive(arg)) return End{false, 0, 0, 0, 0};
      const Enclosure x = c_scale * Log(arg * c_inv_q) + c_half;
      const Enclosure z1 = x / c_sigma, z2 = (x - c_sens) / c_sigma;
      return End{true, z1.LoDouble(), z1.HiDouble(), z2.LoDouble(), z2.HiDouble()};
    };
    const double w_lo = Enclosure(prec, Rational(1 - q_)).LoDouble(), w_hi = Enclosure(prec, Rational(1 - q_)).HiDouble();
    const double q_lo = Enclosure(prec, q_).LoDouble(), q_hi = Enclosure(prec, q_).HiDouble();
    BinBounds out;
    out.lo.resize(n);
    out.hi.resize(n);
    if (qside) {
      qside->lo.resize(n);
      qside->hi.resize(n);
    }
    auto mix_hi = [&](double a, double b) { return std::nextafter((w_hi * a + q_hi * b) * (1 + 0x1p-50), HUGE_VAL); };
    auto mix_lo = [&](double a, double b) {
      return std::max(0.0, std::nextafter((w_lo * a + q_lo * b) * (1 - 0x1p-50), 0.0));
    };
    End prev = end_at(e);
    for (std::size_t i = 0; i < n; ++i) {
      e = e * eh;
      const End cur = end_at(e);
      if (!prev.finite || !cur.finite) {
        const std::int64_t k = k0 + static_cast<std::int64_t>(i);
        const Rational t0 = step * k, t1 = step * (k + 1);
        const Enclosure m = Cdf(t1, prec) - Cdf(t0, prec);
        out.lo[i] = std::max(0.0, m.LoDouble());
        out.hi[i] = std::max(0.0, m.HiDouble());
        if (qside) {
          const Enclosure mq = QCdf(t1, prec) - QCdf(t0, prec);
          qside->lo[i] = std::max(0.0, mq.LoDouble());
          qside->hi[i] = std::max(0.0, mq.HiDouble());
        }
      } else if (remove_) {  // x increases with t: [prev, cur]; X ~ (1−q)N(0, σ²) + qN(Δ, σ²)
        const auto a = detail::NormalIntegralBounds(prev.z1_lo, prev.z1_hi, cur.z1_lo, cur.z1_hi);
        const auto b = detail::NormalIntegralBounds(prev.z2_lo, prev.z2_hi, cur.z2_lo, cur.z2_hi);
        out.hi[i] = mix_hi(a.second, b.second);
        out.lo[i] = mix_lo(a.first, b.first);
        if (qside) {
          qside->lo[i] = a.first;
          qside->hi[i] = a.second;
        }
      } else {  // x(−t) decreases with t: [cur, prev]; X ~ N(0, σ²)
        const auto a = detail::NormalIntegralBounds(cur.z1_lo, cur.z1_hi, prev.z1_lo, prev.z1_hi);
        out.hi[i] = a.second;
        out.lo[i] = a.first;
        if (qside) {
          const auto b = detail::NormalIntegralBounds(cur.z2_lo, cur.z2_hi, prev.z2_lo, prev.z2_hi);
          qside->hi[i] = mix_hi(a.second, b.second);
          qside->lo[i] = mix_lo(a.first, b.first);
        }
      }
      prev = cur;
    }
    return out;
  }

  std::pair<double, double> Range(double tail) const override {
    const double sigma = sigma_.convert_to<double>(), d = sens_.convert_to<double>(), q = q_.convert_to<double>();
    const double z = TailZ(tail);
    auto loss = [&](double x) { return MixLog(q, (2 * x * d - d * d) / (2 * sigma * sigma)); };
    if (remove_) return {loss(-z * sigma), loss(d + z * sigma)};
    return {-loss(z * sigma), -loss(-z * sigma)};
  }

 private:
  Rational sigma_, sens_, q_;
  bool remove_;
};

// ---- Laplace and subsampled Laplace --------------------------------------------------------
// P(X ≤ y) for X ~ Lap(μ, b).
Enclosure LaplaceCdf(const Enclosure& y, const Rational& mu, const Rational& b) {
  const Enclosure z = (y - mu) / b;
  const mpfr_prec_t prec = y.prec();
  auto below = [&] { return Exp(z) / Rational(2); };
  auto above = [&] { return Rational(1) - Exp(-z) / Rational(2); };
  (void)prec;
  return Either(CertainlyNegative(z), CertainlyNonNegative(z), below, above);
}

class SubsampledLaplaceLaw final : public LossLaw {
 public:
  SubsampledLaplaceLaw(Rational b, Rational sens, Rational q, bool remove)
      : b_(std::move(b)), sens_(std::move(sens)), q_(std::move(q)), remove_(remove) {}

  Enclosure Cdf(const Rational& t, mpfr_prec_t prec) const override { return CdfOf(t, prec, false); }

  // The Q side from differences of Q(L ≤ t) at 128 bits or more (masses of 1e-30 keep ~8 digits).
  std::optional<PairBinBounds> PairBinMasses(std::int64_t k0, std::size_t n, const Rational& step,
                                             mpfr_prec_t prec) const override {
    const mpfr_prec_t p = std::max<mpfr_prec_t>(prec, 128);
    PairBinBounds out;
    for (auto* v : {&out.p.lo, &out.p.hi, &out.q.lo, &out.q.hi}) v->resize(n);
    Enclosure fp = CdfOf(Rational(step * k0), p, false), fq = CdfOf(Rational(step * k0), p, true);
    for (std::size_t i = 0; i < n; ++i) {
      const Rational t = step * (k0 + static_cast<std::int64_t>(i) + 1);
      const Enclosure gp = CdfOf(t, p, false), gq = CdfOf(t, p, true);
      const Enclosure mp = gp - fp, mq = gq - fq;
      out.p.lo[i] = std::max(0.0, mp.LoDouble());
      out.p.hi[i] = std::max(0.0, mp.HiDouble());
      out.q.lo[i] = std::max(0.0, mq.LoDouble());
      out.q.hi[i] = std::max(0.0, mq.HiDouble());
      fp = gp;
      fq = gq;
    }
    return out;
  }

 private:
  // P(L ≤ t) (q_side false) or Q(L ≤ t) (true), L = log dP/dQ. The event {L ≤ t} is an x-interval
  // (x ≥ c, x ≤ cut, …) whatever the side; only the law of X changes: plain, P = Lap(0, b), Q = Lap(Δ, b);
  // remove, P the mixture (1−q)Lap(0) + qLap(Δ), Q = Lap(0); add, the reverse.
  Enclosure CdfOf(const Rational& t, mpfr_prec_t prec, bool q_side) const {
    const Rational eps0 = sens_ / b_;
    if (q_ == 1) {  // plain Laplace: L ≤ t ⟺ x ≥ c = (Δ − tb)/2 for t ∈ [−Δ/b, Δ/b)
      if (t < -eps0) return Enclosure(prec, 0L);
      if (t >= eps0) return Enclosure(prec, 1L);
      if (!q_side) return ExpQ(prec, Rational(t / 2 - eps0 / 2)) / Rational(2);
      return Rational(1) - LaplaceCdf(Enclosure(prec, Rational((sens_ - t * b_) / 2)), sens_, b_);
    }
    const Rational s = remove_ ? t : Rational(-t);
    const Enclosure arg = Exp(Enclosure(prec, s)) - Enclosure(prec, Rational(1 - q_));
    auto outside = [&] { return Enclosure(prec, remove_ ? 0L : 1L); };
    auto inside = [&] {
      // G = log((e^s − 1 + q)/q): g(x) ≤ G (remove) or g(x) ≥ G (add).
      const Enclosure G = Log(arg / Rational(q_));
      const Enclosure cut = (G * b_ + sens_) / Rational(2);  // g(x) = G at x = cut, x ∈ [0, Δ]
      auto mix_cdf = [&] {
        return Rational(1 - q_) * LaplaceCdf(cut, 0, b_) + q_ * LaplaceCdf(cut, sens_, b_);
      };
      if (remove_) {
        // g ≤ G: none if G < −Δ/b, all if G ≥ Δ/b, else x ≤ cut (X ~ the mixture; under Q, Lap(0)).
        auto below_cut = [&] { return q_side ? LaplaceCdf(cut, 0, b_) : mix_cdf(); };
        auto mid_or_all = [&] {
          return Either(CertainlyLess(G, Enclosure(prec, eps0)), CertainlyNonNegative(G - eps0), below_cut,
                        [&] { return Enclosure(prec, 1L); });
        };
        return Either(CertainlyNegative(G + eps0), CertainlyNonNegative(G + eps0), [&] { return Enclosure(prec, 0L); },
                      mid_or_all);
      }
      // add, X ~ Lap(0) (under Q, the mixture): g ≥ G: all if G ≤ −Δ/b, none if G > Δ/b, else x ≥ cut.
      auto tail_cdf = [&] { return Rational(1) - (q_side ? mix_cdf() : LaplaceCdf(cut, 0, b_)); };
      auto mid_or_none = [&] {
        return Either(CertainlyNonPositive(G - eps0), CertainlyPositive(G - eps0), tail_cdf,
                      [&] { return Enclosure(prec, 0L); });
      };
      return Either(CertainlyNonPositive(G + eps0), CertainlyPositive(G + eps0), [&] { return Enclosure(prec, 1L); },
                    mid_or_none);
    };
    return Either(CertainlyPositive(arg), CertainlyNonPositive(arg), inside, outside);
  }

 public:
  std::pair<double, double> Range(double) const override {
    const double e0 = (sens_ / b_).convert_to<double>(), q = q_.convert_to<double>();
    const double hi = MixLog(q, e0) + 1e-9, lo = MixLog(q, -e0) - 1e-9;
    if (remove_) return {lo, hi};
    return {-hi, -lo};
  }

 private:
  Rational b_, sens_, q_;
  bool remove_;
};



// The two directions are discretized on two threads.
PldPair FromLaws(const LossLaw& forward, const LossLaw* backward, const GridOptions& grid) {
  PldPair out;
  std::future<Pld> back;
  if (backward) back = detail::OnSecondThread([&]() { return detail::LawDirection(*backward, grid); });
  out.forward = detail::LawDirection(forward, grid);
  if (backward) out.backward = back.get();
  return out;
}

void ValidateRate(const Rational& q) { Require("q", q, Domain::OpenClosed(0, 1), EchoValue); }

}  // namespace

// The plain mechanisms are the q = 1 case of the subsampled laws (one symmetric direction).
PldPair GaussianPld(const Rational& sigma, const Rational& sensitivity, const GridOptions& grid) {
  return SubsampledGaussianPld(sigma, sensitivity, 1, grid);
}

PldPair SubsampledGaussianPld(const Rational& sigma, const Rational& sensitivity, const Rational& q,
                              const GridOptions& grid) {
  ValidatePositive(sigma, "sigma");
  ValidatePositive(sensitivity, "sensitivity");
  ValidateRate(q);
  const SubsampledGaussianLaw remove(sigma, sensitivity, q, true), add(sigma, sensitivity, q, false);
  return FromLaws(remove, q == 1 ? nullptr : &add, grid);
}

PldPair LaplacePld(const Rational& b, const Rational& sensitivity, const GridOptions& grid) {
  return SubsampledLaplacePld(b, sensitivity, 1, grid);
}

PldPair SubsampledLaplacePld(const Rational& b, const Rational& sensitivity, const Rational& q,
                             const GridOptions& grid) {
  ValidatePositive(b, "b");
  ValidatePositive(sensitivity, "sensitivity");
  ValidateRate(q);
  const SubsampledLaplaceLaw remove(b, sensitivity, q, true), add(b, sensitivity, q, false);
  return FromLaws(remove, q == 1 ? nullptr : &add, grid);
}

namespace {
// One direction of an exact pmf pair, discretized as the grid options say.
Pld PmfDirection(const std::vector<Rational>& p, const std::vector<Rational>& q, const GridOptions& grid) {
  if (grid.discretization == Discretization::kConnectDots) return ConnectDots(PrepareAtoms(p, q, grid.prec), grid.step);
  return FromPmfs(p, q, grid.step, grid.prec);
}
}  // namespace

PldPair RandomizedResponsePld(const Rational& p, const GridOptions& grid) {
  if (!(p > Rational(1, 2) && p < 1))
    throw InvalidArgument("p", "the keep probability must be in (1/2, 1), got " + EchoValue(p));
  PldPair out;
  out.forward = PmfDirection({p, Rational(1 - p)}, {Rational(1 - p), p}, grid);
  return out;
}

std::pair<std::vector<Rational>, std::vector<Rational>> BinomialMechanismPmfs(long trials, const Rational& p,
                                                                               long shift) {
  if (trials < 1 || trials > 100000)
    throw InvalidArgument("trials", "must be an integer in [1, 100000], got " + std::to_string(trials));
  if (!(p > 0 && p < 1)) throw InvalidArgument("p", "must be in (0, 1), got " + EchoValue(p));
  if (shift < 1 || shift > trials)
    throw InvalidArgument("sensitivity", "must be an integer in [1, trials], got " + std::to_string(shift));
  const std::size_t n = static_cast<std::size_t>(trials), s = static_cast<std::size_t>(shift);
  std::vector<Rational> bin(n + 1);
  const Rational r = p / (1 - p);
  Rational term = 1;  // (1 − p)^N, then × r·(N − k)/(k + 1)
  for (std::size_t k = 0; k < n; ++k) term *= (1 - p);
  for (std::size_t k = 0; k <= n; ++k) {
    bin[k] = term;
    if (k < n) term = term * r * Rational(static_cast<long>(n - k), static_cast<long>(k + 1));
  }
  std::vector<Rational> P(n + s + 1, Rational(0)), Q(n + s + 1, Rational(0));
  for (std::size_t k = 0; k <= n; ++k) {
    P[k + s] = bin[k];
    Q[k] = bin[k];
  }
  return {P, Q};
}

PldPair TwoPmfPld(const std::vector<Rational>& p, const std::vector<Rational>& q, const GridOptions& grid) {
  PldPair out;
  out.forward = PmfDirection(p, q, grid);
  if (p != q) out.backward = PmfDirection(q, p, grid);
  return out;
}

PldPair SubsampledTwoPmfPld(const std::vector<Rational>& p, const std::vector<Rational>& q, const Rational& q_sample,
                            const GridOptions& grid) {
  ValidateRate(q_sample);
  if (p.size() != q.size())
    throw InvalidArgument("q", "p and q must have the same length (" + std::to_string(p.size()) + " vs " +
                                   std::to_string(q.size()) + ")");
  std::vector<Rational> mix(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) mix[i] = (1 - q_sample) * q[i] + q_sample * p[i];
  PldPair out;
  out.forward = PmfDirection(mix, q, grid);
  if (mix != q) out.backward = PmfDirection(q, mix, grid);
  return out;
}


PldPair QuantizedGaussianPld(const QuantizedGaussianParams& params, const GridOptions& grid) {
  ValidateQuantizedGaussian(params);
  const Rational half = params.clip / 2;
  const std::vector<Enclosure> P = QuantizedGaussianPmf(params, half, 80);
  const std::vector<Enclosure> Q = QuantizedGaussianPmf(params, Rational(-half), 80);
  PldPair out;
  out.forward = grid.discretization == Discretization::kConnectDots ? ConnectDots(PrepareAtoms(P, Q, grid.prec), grid.step)
                                                                    : FromPmfEnclosures(P, Q, grid.step, grid.prec);
  return out;
}

}  // namespace dpfl::ref::pld
