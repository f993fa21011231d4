// dpfl::ref::pld (internal) — Gaussian masses in double with explicit bounds (see pld_normal.hpp).
#include "pld_normal.hpp"

#include <array>
#include <cmath>
#include <mutex>
#include <vector>

namespace dpfl::ref::pld::detail {
namespace {

constexpr double kU = 0x1p-53;
inline double Up(double v) { return std::nextafter(v, HUGE_VAL); }
inline double Dn(double v) { return std::nextafter(v, -HUGE_VAL); }

// I(y, d) = ∫_0^d e^{−ys − s²/2} ds = ∫_y^{y+d} φ / φ(y), for a double y with |y − y_exact| ≤ e_y:
// returns {S, E} with I(y_exact, d) ∈ [S − E, S + E] (d a double, 0 < d ≤ 1/32, (|y| + e_y)·d ≤ 1/2).
//  * S = Σ_{j<6} (−1)^j He_j(y) d^{j+1}/(j+1)! (Taylor polynomial of φ(y + s)/φ(y) integrated), and
//    the remainder is ≤ sup_{s∈[0,d]} |He_6(y+s)| e^{−ys−s²/2} d^7/7! ≤ P6(|y| + e_y + d)·e^{a d} d^7/5040,
//    P_j the Hermite polynomials with absolute coefficients (|He_j(x)| ≤ P_j(|x|)), a = |y| + e_y;
//  * |∂I/∂y| ≤ (d²/2)e^{a d}, so evaluating at ŷ instead of y costs ≤ e_y (d²/2) e^{a d};
//  * rounding of S: ≤ 64u·Σ_j P_j(|y|) d^{j+1}/(j+1)! (each term < 16 operations on values bounded
//    by that sum's terms); e^x ≤ 1 + x + x² for 0 ≤ x ≤ 1.
std::pair<double, double> TaylorIntegral(double y, double d, double e_y) {
  const double d2 = d * d, d3 = d2 * d, d4 = d3 * d, d5 = d4 * d, d6 = d5 * d, d7 = d6 * d;
  const double r = std::abs(y), a = Up(r + e_y), b = Up(a + d);
  const double y2 = y * y, y3 = y2 * y, y4 = y3 * y, y5 = y4 * y;
  const double S = d - y * d2 / 2 + (y2 - 1) * d3 / 6 - (y3 - 3 * y) * d4 / 24 + (y4 - 6 * y2 + 3) * d5 / 120 -
                   (y5 - 10 * y3 + 15 * y) * d6 / 720;
  const double r2 = r * r, r3 = r2 * r, r4 = r3 * r, r5 = r4 * r;
  const double A = d + r * d2 / 2 + (r2 + 1) * d3 / 6 + (r3 + 3 * r) * d4 / 24 + (r4 + 6 * r2 + 3) * d5 / 120 +
                   (r5 + 10 * r3 + 15 * r) * d6 / 720;
  const double b2 = b * b;
  const double p6 = ((b2 + 15) * b2 + 45) * b2 + 15;  // b^6 + 15b^4 + 45b² + 15 ≥ sup |He_6|
  const double x = a * d, ex = 1 + x + x * x;          // ≥ e^{a d}
  const double E = (64 * kU * A + p6 * ex * d7 / 5040 + e_y * d2 / 2 * ex) * (1 + 64 * kU);
  return {S, E};
}

}  // namespace

// ---- Gaussian bin masses in double with bounds ---------------------------------------------
// mass_i = ∫_{y_i}^{y_i+d} φ = φ(y_i)·I(y_i), y_i = y0 + i·d (exact rationals), I(y) = ∫_0^d e^{−ys−s²/2}ds.
//  * φ(y_i): φ(y_{i+1}) = φ(y_i)·ρ_i, ρ_i = e^{−y_i d − d²/2}, ρ_{i+1} = ρ_i·e^{−d²}; φ(y_0), ρ_0,
//    e^{−d²} enclosed by MPFI; two double recurrences, every product rounded outward (nextafter:
//    one ulp covers the product's rounding, also for subnormals).
//  * I(y) = S(y) + r with S the Taylor polynomial of order 6 in d, S(y) = Σ_{j<6} (−1)^j He_j(y)
//    d^{j+1}/(j+1)!, and |r| ≤ sup_{s∈[0,d]} |He_6(y+s)| e^{−ys−s²/2} d^7/7! ≤ P6(|y|+d)·e^{|y|d} d^7/5040,
//    P_j the Hermite polynomials with absolute coefficients (|He_j(x)| ≤ P_j(|x|)).
//  * S is evaluated at ŷ = fl(ŷ0 + i·d̂) with |ŷ − y_i| ≤ e_y (bounded below); |I'(y)| ≤ (d²/2)e^{|y|d},
//    so I(y_i) ∈ S(ŷ) ± (e_S + r + e_y (d²/2) e^{a d}), a = |ŷ| + e_y, and the rounding of S is
//    e_S ≤ 64u·Σ_j P_j(|ŷ|) d^{j+1}/(j+1)! (each term takes < 16 operations on |values| bounded by
//    that sum's terms). e^{x} ≤ 1 + x + x² for 0 ≤ x ≤ 1 (used with x = a·d ≤ 1/2).
LossLaw::BinBounds GaussianBins(const Rational& y0, const Rational& d, std::size_t n, mpfr_prec_t prec) {
  const Enclosure phi0 = NormalPdf(Enclosure(prec, y0));
  const Enclosure rho0 = ExpQ(prec, Rational(-y0 * d - d * d / 2));
  const Enclosure cE = ExpQ(prec, Rational(-d * d));
  double phi_lo = phi0.LoDouble(), phi_hi = phi0.HiDouble();
  double rho_lo = rho0.LoDouble(), rho_hi = rho0.HiDouble();
  const double c_lo = cE.LoDouble(), c_hi = cE.HiDouble();
  const double y0d = y0.convert_to<double>(), dd = d.convert_to<double>();
  const double e_y0 = Up(std::abs(Rational(y0 - Rational(y0d)).convert_to<double>()) * (1 + 4 * kU));
  const double e_d = Up(std::abs(Rational(d - Rational(dd)).convert_to<double>()) * (1 + 4 * kU));
  // The Taylor width is d itself: use an upper (resp. lower) double of d for the upper (lower) mass.
  const double d_up = Rational(dd) >= d ? dd : Up(dd), d_dn = Rational(dd) <= d ? dd : Dn(dd);
  LossLaw::BinBounds out;
  out.lo.resize(n);
  out.hi.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double di = static_cast<double>(i);
    const double y = y0d + di * dd;
    const double e_y = Up((e_y0 + di * e_d + 4 * kU * (std::abs(y0d) + di * dd)) * (1 + 8 * kU));
    const auto [S_up, E_up] = TaylorIntegral(y, d_up, e_y);
    const auto [S_dn, E_dn] = TaylorIntegral(y, d_dn, e_y);
    out.hi[i] = Up(phi_hi * Up(S_up + E_up) * (1 + 2 * kU));
    const double s_lo = Dn(S_dn - E_dn);
    out.lo[i] = s_lo > 0 ? std::max(0.0, Dn(phi_lo * s_lo * (1 - 2 * kU))) : 0.0;
    phi_hi = Up(phi_hi * rho_hi);
    phi_lo = std::max(0.0, Dn(phi_lo * rho_lo));
    rho_hi = Up(rho_hi * c_hi);
    rho_lo = std::max(0.0, Dn(rho_lo * c_lo));
  }
  return out;
}

// ---- φ and ∫φ at arbitrary doubles -----------------------------------------------------------
// Anchors a_j = j/64, |j| ≤ 64·40: φ(a_j) enclosed once by MPFI (64 bits) and cached. For a double
// c with |c| ≤ 40, j = round(64c) and δ = c − a_j is exact (|δ| ≤ 2^−7 ≤ |c| unless j = 0, and δ is
// a multiple of ulp(c)); φ(c) = φ(a_j)·e^x, x = −a_jδ − δ²/2, |x| < 1/3, with x̂ = fl(x) off by
// ≤ 3u(|a_jδ| + δ²/2) and e^x̂ by the Taylor sum to order 16 (remainder < 1e−22, Horner rounding
// ≤ 34u·e^{|x|}): relative error of e^x ≤ 64u + 1.1·|x̂ − x| + 1e−22. Beyond |c| > 40, φ(c) < 1e−300.
namespace {

constexpr int kAnchorsPerUnit = 64, kAnchorReach = 40;

struct Anchors {
  std::vector<double> lo, hi;  // index j + 64·40
};

const Anchors& AnchorTable() {
  static std::once_flag once;
  static Anchors table;
  std::call_once(once, [] {
    const int n = kAnchorsPerUnit * kAnchorReach;
    table.lo.resize(2 * n + 1);
    table.hi.resize(2 * n + 1);
    for (int j = -n; j <= n; ++j) {
      const Enclosure p = NormalPdf(Enclosure(64, Rational(j, kAnchorsPerUnit)));
      table.lo[j + n] = p.LoDouble();
      table.hi[j + n] = p.HiDouble();
    }
  });
  return table;
}

}  // namespace

std::pair<double, double> NormalPdfBounds(double c) {
  if (!(std::abs(c) <= kAnchorReach)) return {0.0, 1e-300};
  const Anchors& t = AnchorTable();
  const double j = std::nearbyint(c * kAnchorsPerUnit);
  const double a = j / kAnchorsPerUnit, delta = c - a;
  const double x = -a * delta - delta * delta / 2;
  const double ex_err = 3 * kU * (std::abs(a * delta) + delta * delta / 2) * (1 + 8 * kU);
  double ex = 1;
  for (int k = 16; k >= 1; --k) ex = 1 + ex * x / k;
  const double rel = (64 * kU + 1.1 * ex_err + 1e-22) * (1 + 8 * kU);
  const std::size_t idx = static_cast<std::size_t>(static_cast<long>(j) + kAnchorsPerUnit * kAnchorReach);
  return {std::max(0.0, Dn(t.lo[idx] * ex * (1 - rel))), Up(t.hi[idx] * ex * (1 + rel))};
}

namespace {

// ∫_c^{end} φ (doubles, end ≥ c): lo/hi by pieces of width ≤ 1/32, each
// φ(c_i)·I(c_i, w_i) with TaylorIntegral (e_y = 0). Piece ends are doubles p_{i+1} = fl(p_i + 1/32)
// with widths rounded up for the upper bound (the pieces then cover [c, c + w]) and down for the
// lower bound (they stay inside it).
// The piece width is also capped at 2^−7/(|p| + 1): the Taylor remainder P6(|p| + w)·w^7/5040 is then
// below ~1e−16 of the piece's integral for |p| ≤ 14 (with 1/32 it reached 1e−8 at |p| = 6, which the
// connect-the-dots split, a difference of two masses over h, amplifies).
std::pair<double, double> IntegralFrom(double c, double end) {
  if (!(end > c)) return {0.0, 0.0};
  double lo = 0, hi = 0, p = c;
  while (p < end) {
    const double next = std::min(end, p + std::min(1.0 / 32, 0x1p-7 / (std::abs(p) + 1)));
    const double width = next - p;
    const double w_up = Up(width), w_dn = std::max(0.0, Dn(width));
    const auto [phi_lo, phi_hi] = NormalPdfBounds(p);
    if (std::abs(p) + 1 <= 15) {
      const auto [S_up, E_up] = TaylorIntegral(p, w_up, 0.0);
      hi = Up(hi + Up(phi_hi * Up(S_up + E_up) * (1 + 2 * kU)));
      if (w_dn > 0) {
        const auto [S_dn, E_dn] = TaylorIntegral(p, w_dn, 0.0);
        const double s_lo = Dn(S_dn - E_dn);
        if (s_lo > 0) lo = Dn(lo + std::max(0.0, Dn(phi_lo * s_lo * (1 - 2 * kU))));
      }
    } else {
      // |p| > 14: φ is monotone over the piece; bound by width × the larger/smaller end value.
      const auto [q_lo, q_hi] = NormalPdfBounds(next);
      hi = Up(hi + Up(w_up * std::max(phi_hi, q_hi)));
      lo = Dn(lo + std::max(0.0, Dn(w_dn * std::min(phi_lo, q_lo))));
    }
    p = next;
  }
  return {std::max(0.0, lo), hi};
}

}  // namespace

std::pair<double, double> NormalIntegralBounds(double a_lo, double a_hi, double b_lo, double b_hi) {
  const double hi = IntegralFrom(a_lo, b_hi).second;
  const double lo = b_lo > a_hi ? IntegralFrom(a_hi, b_lo).first : 0.0;
  return {lo, hi};
}

}  // namespace dpfl::ref::pld::detail
