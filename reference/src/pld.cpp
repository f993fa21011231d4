// dpfl::ref::pld — discretization and composition (see pld.hpp for why each bound holds); the
// queries are in pld_queries.cpp.
#include "dpfl/ref/pld.hpp"
#include "pld_internal.hpp"

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <future>
#include <map>

#include "dpfl/validate.hpp"

namespace dpfl::ref::pld {
namespace {

constexpr double kU = 0x1p-53;

double Gamma(double k) { return k * kU / (1.0 - k * kU) * (1 + 0x1p-50); }

// Floor / ceiling of an MPFR endpoint divided by the exact step, as integers.
std::int64_t FloorDiv(const Rational& x, const Rational& step) {
  const Int f = FloorInt(Rational(x / step));
  if (f > Int(std::int64_t{1} << 60) || f < -Int(std::int64_t{1} << 60))
    throw InvalidArgument("step", "the loss range over the grid step exceeds 2^60 points");
  return f.convert_to<std::int64_t>();
}
std::int64_t CeilDiv(const Rational& x, const Rational& step) { return -FloorDiv(Rational(-x), step); }

// Adds `mass` at grid index k of a sparse accumulator.
using Sparse = std::map<std::int64_t, double>;

GridMeasure Densify(const Sparse& s, double infinity) {
  GridMeasure m;
  m.infinity = infinity;
  if (s.empty()) return m;
  m.offset = s.begin()->first;
  const std::int64_t last = s.rbegin()->first;
  m.mass.assign(static_cast<std::size_t>(last - m.offset + 1), 0.0);
  for (const auto& [k, v] : s) m.mass[static_cast<std::size_t>(k - m.offset)] += v;
  return m;
}

double UpD(const Enclosure& e) { return std::max(0.0, e.HiDouble()); }
double DownD(const Enclosure& e) { return std::max(0.0, e.LoDouble()); }

// Sums that round up (non-negative terms; relative error ≤ γ_n) or down.
double SumUp(double a, double b) { return std::nextafter(a + b, HUGE_VAL); }

void ValidateStep(const Rational& step) {
  if (!(step > 0)) throw InvalidArgument("step", "the grid step must be > 0, got " + EchoValue(step));
}

// Folds tails (see pld.hpp): upper = true for the pessimistic measure. A tail is cut when its
// mass is at most `tail` plus twice what the convolution's rounding can put there (E·√length by
// Cauchy–Schwarz, E the ℓ2 error bound), so rounding noise does not keep a tail alive; where the
// mass goes is valid either way.
void Truncate(GridMeasure& m, bool upper, double tail, double per_entry) {
  const std::size_t n = m.mass.size();
  if (n < 2) return;
  // Bottom: largest prefix [0, b) with mass ≤ threshold.
  std::size_t b = 0;
  double acc = 0;
  while (b + 1 < n) {
    const double next = acc + m.mass[b];
    if (next > tail + 2 * per_entry * std::sqrt(static_cast<double>(b + 1))) break;
    acc = next;
    ++b;
  }
  // Top: largest suffix [t, n) with mass ≤ threshold, t > b.
  std::size_t t = n;
  double acc_top = 0;
  while (t > b + 1) {
    const double next = acc_top + m.mass[t - 1];
    if (next > tail + 2 * per_entry * std::sqrt(static_cast<double>(n - t + 1))) break;
    acc_top = next;
    --t;
  }
  if (b == 0 && t == n) return;
  const double g_b = Gamma(static_cast<double>(b + 2)), g_t = Gamma(static_cast<double>(n - t + 2));
  std::vector<double> kept(m.mass.begin() + static_cast<std::ptrdiff_t>(b), m.mass.begin() + static_cast<std::ptrdiff_t>(t));
  if (upper) {
    if (b > 0) kept.front() = SumUp(kept.front(), acc * (1 + g_b) * (1 + 0x1p-50));
    if (t < n) m.infinity = SumUp(m.infinity, acc_top * (1 + g_t) * (1 + 0x1p-50));
  } else {
    // The suffix's sum rounded down, then the addition's rounding (≤ 1 ulp) undone downward.
    if (t < n) kept.back() = std::nextafter(kept.back() + std::max(0.0, acc_top * (1 - 2 * g_t)), 0.0);
  }
  m.offset += static_cast<std::int64_t>(b);
  m.mass = std::move(kept);
}

}  // namespace

double GridMeasure::Total() const {
  double s = infinity;
  for (double v : mass) s += v;
  return s;
}

namespace {
void ValidatePmfShape(std::size_t p_size, std::size_t q_size, const Rational& step) {
  ValidateStep(step);
  if (p_size == 0) throw InvalidArgument("p", "the pmf is empty");
  if (p_size != q_size)
    throw InvalidArgument("q", "p and q must have the same length (" + std::to_string(p_size) + " vs " +
                                   std::to_string(q_size) + ")");
}

// The two measures from sparse accumulators of `terms` outward-rounded masses each. Accumulated
// doubles: += rounds; rather than nudging each entry by one ulp per contribution, re-round: each
// entry is a sum of ≤ terms non-negative terms, relative error ≤ γ_terms.
Pld PmfPld(Sparse& up, Sparse& lo, std::size_t terms, const Rational& step, double inf_up, double inf_lo) {
  const double g = Gamma(static_cast<double>(terms + 2));
  for (auto& [k, v] : up) v = std::nextafter(v * (1 + g), HUGE_VAL);
  for (auto& [k, v] : lo) v = std::nextafter(v * (1 - g), 0.0);
  Pld out;
  out.step = step;
  out.upper = Densify(up, inf_up);
  out.lower = Densify(lo, inf_lo);
  return out;
}
}  // namespace

void ValidatePmfPair(const std::vector<Rational>& p, const std::vector<Rational>& q) {
  if (p.empty()) throw InvalidArgument("p", "the pmf is empty");
  if (p.size() != q.size())
    throw InvalidArgument("q", "p and q must have the same length (" + std::to_string(p.size()) + " vs " +
                                   std::to_string(q.size()) + ")");
  Rational sp = 0, sq = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] < 0) throw InvalidArgument("p", "entry " + std::to_string(i) + " is negative: " + EchoValue(p[i]));
    if (q[i] < 0) throw InvalidArgument("q", "entry " + std::to_string(i) + " is negative: " + EchoValue(q[i]));
    sp += p[i];
    sq += q[i];
  }
  if (sp != 1) throw InvalidArgument("p", "must sum to 1 exactly, sums to " + EchoValue(sp));
  if (sq != 1) throw InvalidArgument("q", "must sum to 1 exactly, sums to " + EchoValue(sq));
}

Pld FromPmfs(const std::vector<Rational>& p, const std::vector<Rational>& q, const Rational& step, mpfr_prec_t prec) {
  ValidatePmfShape(p.size(), q.size(), step);
  ValidatePmfPair(p, q);
  Sparse up, lo;
  Enclosure inf(prec, 0L);
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0) continue;
    const Enclosure mass(prec, p[i]);
    if (q[i] == 0) {
      inf = inf + mass;
      continue;
    }
    const Interval loss = ToInterval(LogQ(prec, Rational(p[i] / q[i])));
    up[CeilDiv(loss.hi(), step)] += UpD(mass);
    lo[FloorDiv(loss.lo(), step)] += DownD(mass);
  }
  return PmfPld(up, lo, p.size(), step, UpD(inf), DownD(inf));
}

namespace {
// x ≥ 0 as a double rounded up / down.
double RationalUp(const Rational& x) { return UpD(Enclosure(64, x)); }
double RationalDown(const Rational& x) { return DownD(Enclosure(64, x)); }
}  // namespace

namespace detail {
std::pair<std::vector<Interval>, std::vector<Interval>> ValidatePmfEnclosures(const std::vector<Enclosure>& p,
                                                                              const std::vector<Enclosure>& q) {
  if (p.empty()) throw InvalidArgument("p", "the pmf is empty");
  if (p.size() != q.size())
    throw InvalidArgument("q", "p and q must have the same length (" + std::to_string(p.size()) + " vs " +
                                   std::to_string(q.size()) + ")");
  std::vector<Interval> P, Q;
  for (const auto* side : {&p, &q}) {
    Rational lo = 0, hi = 0;
    for (std::size_t i = 0; i < side->size(); ++i) {
      const Interval x = ToInterval((*side)[i]);
      if (x.hi() < 0)
        throw InvalidArgument(side == &p ? "p" : "q", "entry " + std::to_string(i) + " is negative");
      lo += Max(x.lo(), Rational(0));
      hi += x.hi();
      (side == &p ? P : Q).push_back(x);
    }
    if (lo > 1 || hi < 1)
      throw InvalidArgument(side == &p ? "p" : "q", "the enclosures cannot sum to 1 (sum in [" + EchoValue(lo) + ", " +
                                                        EchoValue(hi) + "])");
  }
  return {std::move(P), std::move(Q)};
}
}  // namespace detail

Pld FromPmfEnclosures(const std::vector<Enclosure>& p, const std::vector<Enclosure>& q, const Rational& step,
                      mpfr_prec_t prec) {
  ValidatePmfShape(p.size(), q.size(), step);
  const auto [P, Q] = detail::ValidatePmfEnclosures(p, q);
  Sparse up, lo;
  Rational inf_up = 0, inf_lo = 0;
  for (std::size_t i = 0; i < P.size(); ++i) {
    if (P[i].hi() <= 0) continue;
    if (Q[i].lo() <= 0) {
      inf_up += P[i].hi();
    } else {
      const Rational loss_hi = ToInterval(LogQ(prec, Rational(P[i].hi() / Q[i].lo()))).hi();
      up[CeilDiv(loss_hi, step)] += RationalUp(P[i].hi());
    }
    if (P[i].lo() <= 0) continue;
    if (Q[i].hi() <= 0) {
      inf_lo += P[i].lo();
    } else {
      const Rational loss_lo = ToInterval(LogQ(prec, Rational(P[i].lo() / Q[i].hi()))).lo();
      lo[FloorDiv(loss_lo, step)] += RationalDown(P[i].lo());
    }
  }
  return PmfPld(up, lo, p.size(), step, RationalUp(inf_up), RationalDown(inf_lo));
}

LossLaw::BinBounds LossLaw::BinMasses(std::int64_t k0, std::size_t n, const Rational& step, mpfr_prec_t prec) const {
  BinBounds out;
  out.lo.reserve(n);
  out.hi.reserve(n);
  Enclosure prev = Cdf(Rational(step * k0), prec);
  for (std::size_t i = 1; i <= n; ++i) {
    Enclosure next = Cdf(Rational(step * (k0 + static_cast<std::int64_t>(i))), prec);
    const Enclosure m = next - prev;
    out.lo.push_back(DownD(m));
    out.hi.push_back(UpD(m));
    prev = std::move(next);
  }
  return out;
}

namespace {
// He_j(y) for j = 0..6 (probabilists' Hermite polynomials: φ^{(j)} = (−1)^j He_j φ).
std::array<Enclosure, 7> Hermite(const Enclosure& y) {
  const mpfr_prec_t prec = y.prec();
  std::array<Enclosure, 7> he{Enclosure(prec, 1L), y, Enclosure(prec, 0L), Enclosure(prec, 0L), Enclosure(prec, 0L),
                              Enclosure(prec, 0L), Enclosure(prec, 0L)};
  for (long j = 1; j < 6; ++j) he[j + 1] = y * he[j] - Rational(j) * he[j - 1];  // He_{j+1} = y He_j − j He_{j−1}
  return he;
}
}  // namespace

Enclosure NormalMassFrom(const Enclosure& a, const Enclosure& w, const Enclosure& phi_a) {
  const mpfr_prec_t prec = a.prec();
  // Sub-intervals of width ≤ 1/32 keep the order-6 remainder (≤ sup|He_6 φ|·w^7/7!) tiny.
  const double wd = w.HiDouble();
  const long pieces = std::max(1L, static_cast<long>(std::ceil(wd * 32)));
  const Enclosure dw = w / Rational(pieces);
  const Enclosure inv_sqrt_2pi = Enclosure(prec, 1L) / Sqrt(Rational(2) * Pi(prec));
  Enclosure total(prec, 0L), start = a, phi = phi_a;
  for (long p = 0; p < pieces; ++p) {
    const auto he = Hermite(start);
    // Σ_{j<6} φ^{(j)}(start) dw^{j+1}/(j+1)!
    Enclosure sum(prec, 0L), pw = dw;
    Rational fact = 1;
    for (long j = 0; j < 6; ++j) {
      fact *= (j + 1);
      const Enclosure term = he[j] * pw / fact;
      sum = (j % 2 == 0) ? sum + term : sum - term;
      pw = pw * dw;
    }
    // Remainder: |He_6(Y)| φ(Y) over Y = start + [0, dw]; φ(Y) ≤ e^{−min Y²/2}/√(2π).
    const Enclosure Y = Hull(start, start + dw);
    const Enclosure he6 = Hermite(Y)[6];
    // The upper end of Exp(−Y²/2) is the sup of e^{−y²/2} over Y (MPFI encloses the range).
    const Enclosure rem_mag = Abs(he6) * Exp(-Sqr(Y) / Rational(2)) * inv_sqrt_2pi * pw / (fact * 7);  // pw = dw^7
    const Enclosure rem = Hull(-rem_mag, rem_mag);  // [−sup, sup]
    total = total + phi * sum + rem;
    if (p + 1 < pieces) {  // φ(start + dw) = φ(start)·e^{−start·dw − dw²/2}
      phi = phi * Exp(-(start * dw) - Sqr(dw) / Rational(2));
      start = start + dw;
    }
  }
  return total;
}

namespace detail {
LossIndexRange KeptRange(const LossLaw& law, const Rational& step, double tail) {
  ValidateStep(step);
  const auto [t_lo, t_hi] = law.Range(tail);
  const double h = step.convert_to<double>();
  if (!(std::isfinite(t_lo) && std::isfinite(t_hi) && t_lo <= t_hi))
    throw InvalidArgument("mechanism", "the loss range is not finite");
  const double bin_count = (t_hi - t_lo) / h;
  if (!(bin_count < 5e7))
    throw InvalidArgument("step", "the loss of this mechanism spans [" + ShortestDouble(t_lo) + ", " +
                                      ShortestDouble(t_hi) + "]: more than 5e7 grid points at step " +
                                      ShortestDouble(h) + "; give a coarser --step");
  if (!(std::abs(t_lo / h) < 0x1p60 && std::abs(t_hi / h) < 0x1p60))
    throw InvalidArgument("step", "the loss range over the grid step exceeds 2^60 points");
  const std::int64_t k_min = static_cast<std::int64_t>(std::floor(t_lo / h));
  const std::int64_t k_max = std::max(k_min + 1, static_cast<std::int64_t>(std::ceil(t_hi / h)));
  return {k_min, k_max};
}
}  // namespace detail

Pld FromLossLaw(const LossLaw& law, const Rational& step, double tail, mpfr_prec_t prec) {
  const auto [k_min, k_max] = detail::KeptRange(law, step, tail);
  const std::size_t n = static_cast<std::size_t>(k_max - k_min + 1);
  const Enclosure F_first = law.Cdf(Rational(step * k_min), prec);
  const Enclosure F_last = law.Cdf(Rational(step * k_max), prec);
  const LossLaw::BinBounds bins = law.BinMasses(k_min, n - 1, step, prec);  // bin i−1: F(k h) − F((k−1) h)
  const Enclosure inf = law.InfiniteMass(prec);
  Pld out;
  out.step = step;
  // Upper: index i ↔ k_min + i. Bin 0 holds F(k_min h); bin i holds F(k h) − F((k−1) h).
  out.upper.offset = k_min;
  out.upper.mass.resize(n);
  out.upper.mass[0] = UpD(F_first);
  for (std::size_t i = 1; i < n; ++i) out.upper.mass[i] = bins.hi[i - 1];
  out.upper.infinity = UpD(Enclosure(prec, 1L) - F_last);
  // Lower: bin ((k−1)h, kh] at (k−1)h, i.e. index i−1 ↔ k_min + i − 1; finite top mass at k_max.
  out.lower.offset = k_min;
  out.lower.mass.assign(n, 0.0);
  for (std::size_t i = 1; i < n; ++i) out.lower.mass[i - 1] = bins.lo[i - 1];
  out.lower.mass[n - 1] = DownD(Enclosure(prec, 1L) - F_last - inf);
  out.lower.infinity = DownD(inf);
  return out;
}

Pld Compose(const Pld& a, const Pld& b, const ComposeOptions& options) {
  if (a.step != b.step)
    throw InvalidArgument("step", "composed PLDs must share the grid step (" + EchoValue(a.step) + " vs " +
                                      EchoValue(b.step) + ")");
  const bool same = &a == &b;
  ConvolutionBounds c = same ? ConvolveBounds(a.upper.mass, a.upper.mass, a.lower.mass, a.lower.mass, false,
                                              options.extended_fft)
                             : ConvolveBounds(a.upper.mass, b.upper.mass, a.lower.mass, b.lower.mass, false,
                                              options.extended_fft);
  Pld out;
  out.step = a.step;
  out.upper.offset = a.upper.offset + b.upper.offset;
  out.upper.mass = std::move(c.upper);
  out.lower.offset = a.lower.offset + b.lower.offset;
  out.lower.mass = std::move(c.lower);
  // +∞ absorbs: (a_fin + a_inf)(b_fin + b_inf) has infinite part a_inf·B + A_fin·b_inf.
  auto total_fin = [](const std::vector<double>& v, bool up) {
    double s = 0;
    for (double x : v) s += x;
    const double g = Gamma(static_cast<double>(v.size() + 2));
    return up ? std::nextafter(s * (1 + g), HUGE_VAL) : std::max(0.0, s * (1 - 2 * g));
  };
  const double a_up = total_fin(a.upper.mass, true), b_up = total_fin(b.upper.mass, true);
  out.upper.infinity = std::nextafter(
      (a.upper.infinity * (b_up + b.upper.infinity) + a_up * b.upper.infinity) * (1 + 4 * kU) * (1 + 0x1p-50),
      HUGE_VAL);
  out.upper.infinity = std::nextafter(out.upper.infinity + c.upper_extra, HUGE_VAL);
  const double a_lo = total_fin(a.lower.mass, false), b_lo = total_fin(b.lower.mass, false);
  out.lower.infinity = std::max(
      0.0, (a.lower.infinity * (b_lo + b.lower.infinity) + a_lo * b.lower.infinity) * (1 - 8 * kU));
  // Deficits subtract a·(mass of everything composed with it): (A − d_a)(B − d_b) ≥ AB − d_a B − d_b A.
  const double a_all = total_fin(a.lower.mass, true) + a.lower.infinity;
  const double b_all = total_fin(b.lower.mass, true) + b.lower.infinity;
  out.lower.deficit = std::nextafter(
      (a.lower.deficit * b_all + b.lower.deficit * a_all + c.lower_deficit) * (1 + 8 * kU), HUGE_VAL);
  Truncate(out.upper, true, options.tail, c.fft_error);
  Truncate(out.lower, false, options.tail, c.fft_error);
  return out;
}

Pld SelfCompose(const Pld& a, std::uint64_t times, const ComposeOptions& options) {
  if (times < 1) throw InvalidArgument("compositions", "must be >= 1");
  std::optional<Pld> result;
  Pld power = a;
  while (true) {
    if (times & 1) result = result ? Compose(*result, power, options) : power;
    times >>= 1;
    if (times == 0) break;
    power = Compose(power, power, options);
  }
  return *result;
}

PldPair Compose(const PldPair& a, const PldPair& b, const ComposeOptions& options) {
  PldPair out;
  out.forward = Compose(a.forward, b.forward, options);
  if (a.backward || b.backward)
    out.backward = Compose(a.backward ? *a.backward : a.forward, b.backward ? *b.backward : b.forward, options);
  return out;
}

PldPair SelfCompose(const PldPair& a, std::uint64_t times, const ComposeOptions& options) {
  PldPair out;
  // The two directions are independent: the backward one on a second thread.
  std::future<Pld> backward;
  if (a.backward)
    backward = detail::OnSecondThread([&]() { return SelfCompose(*a.backward, times, options); });
  out.forward = SelfCompose(a.forward, times, options);
  if (a.backward) out.backward = backward.get();
  return out;
}

Pld IdentityPld(const Rational& step) {
  ValidateStep(step);
  Pld out;
  out.step = step;
  out.upper.mass = {1.0};
  out.lower.mass = {1.0};
  return out;
}

namespace {
// w rounded to a double upward (up) or downward; w ∈ [0, 1].
double WeightD(const Rational& w, bool up) {
  const double d = w.convert_to<double>();
  if (Rational(d) == w) return d;
  const double out = up ? (Rational(d) > w ? d : std::nextafter(d, HUGE_VAL))
                        : (Rational(d) < w ? d : std::nextafter(d, 0.0));
  return std::max(0.0, out);
}

// `w_up`: the weights rounded up, for the lower measure's deficits (subtracting more stays valid).
GridMeasure MixMeasures(const std::vector<double>& w, const std::vector<const GridMeasure*>& parts, bool up,
                        const std::vector<double>& w_up) {
  std::int64_t lo = 0, hi = 0;  // index range [lo, hi)
  bool any = false;
  for (const GridMeasure* m : parts) {
    if (m->mass.empty()) continue;
    const std::int64_t a = m->offset, b = m->offset + static_cast<std::int64_t>(m->mass.size());
    lo = any ? std::min(lo, a) : a;
    hi = any ? std::max(hi, b) : b;
    any = true;
  }
  GridMeasure out;
  out.offset = lo;
  out.mass.assign(static_cast<std::size_t>(hi - lo), 0.0);
  for (std::size_t j = 0; j < parts.size(); ++j) {
    const GridMeasure& m = *parts[j];
    for (std::size_t i = 0; i < m.mass.size(); ++i)
      out.mass[static_cast<std::size_t>(m.offset - lo) + i] += w[j] * m.mass[i];
    out.infinity += w[j] * m.infinity;
    if (!up) out.deficit += w_up[j] * m.deficit;  // deficits belong to lower measures only
  }
  // Each entry is a sum of at most J products of non-negative doubles: relative error ≤ γ_{J+1}.
  const double g = Gamma(static_cast<double>(parts.size() + 2));
  auto fix = [&](double& v) { v = up ? std::nextafter(v * (1 + g), HUGE_VAL) : std::max(0.0, v * (1 - 2 * g)); };
  for (double& v : out.mass) fix(v);
  fix(out.infinity);
  if (!up) out.deficit = std::nextafter(out.deficit * (1 + g), HUGE_VAL);
  return out;
}
}  // namespace

Pld Mixture(const std::vector<Rational>& weights, const std::vector<Pld>& parts) {
  if (weights.empty() || weights.size() != parts.size())
    throw InvalidArgument("weights", "one weight per part, at least one part");
  Rational total = 0;
  for (const Rational& w : weights) {
    if (w < 0) throw InvalidArgument("weights", "a weight is negative: " + EchoValue(w));
    total += w;
  }
  if (total != 1) throw InvalidArgument("weights", "the weights sum to " + EchoValue(total) + ", not 1");
  for (const Pld& p : parts)
    if (p.step != parts.front().step) throw InvalidArgument("step", "mixed PLDs must share the grid step");
  std::vector<double> w_up, w_lo;
  std::vector<const GridMeasure*> ups, los;
  for (std::size_t j = 0; j < parts.size(); ++j) {
    w_up.push_back(WeightD(weights[j], true));
    w_lo.push_back(WeightD(weights[j], false));
    ups.push_back(&parts[j].upper);
    los.push_back(&parts[j].lower);
  }
  Pld out;
  out.step = parts.front().step;
  out.upper = MixMeasures(w_up, ups, true, w_up);
  out.lower = MixMeasures(w_lo, los, false, w_up);
  return out;
}

PldPair Mixture(const std::vector<Rational>& weights, const std::vector<PldPair>& parts) {
  std::vector<Pld> forward, backward;
  bool any_backward = false;
  for (const PldPair& p : parts) {
    forward.push_back(p.forward);
    backward.push_back(p.backward ? *p.backward : p.forward);
    any_backward = any_backward || p.backward.has_value();
  }
  PldPair out;
  out.forward = Mixture(weights, forward);
  if (any_backward) out.backward = Mixture(weights, backward);
  return out;
}

}  // namespace dpfl::ref::pld
