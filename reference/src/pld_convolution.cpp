// dpfl::ref::pld — convolution of grid measures with rigorous entrywise bounds (see pld.hpp).
//
// Two paths, both returning upper ≥ exact and lower ≤ exact for every entry:
//
// Direct (one operand has at most kDirectConvolutionMax entries): c_k = Σ_i a_i b_{k−i}, a sum of
// at most n non-negative products, so |fl(c_k) − c_k| ≤ γ_n c_k with γ_n = nu/(1 − nu),
// u = 2^−53 (Higham 2002, §3.1, eq. (3.5)); the result is scaled by (1 ± 2(n+2)u) and the
// absolute underflow error (≤ n·2^−1074) is covered by adding 2^−900.
//
// FFT (otherwise). Both products are computed at once: x = a_up + i·a_lo, y = b_up + i·b_lo are
// transformed by an unnormalised radix-2 decimation-in-time FFT of size N ≥ both output lengths
// (no wrap-around), unpacked by A_up[k] = (X[k] + conj X[−k])/2, A_lo[k] = (X[k] − conj X[−k])/(2i),
// multiplied pointwise, packed as C_up + i·C_lo and transformed back; real part → upper, imaginary
// part → lower. Error chain, ‖·‖ the ℓ2 norm, L = log2 N:
//  1. Higham 2002, Thm 24.2: for the Cooley–Tukey radix-2 FFT with computed weights satisfying
//     |ŵ − w| ≤ μ, ‖fl(Fx) − Fx‖ ≤ g‖Fx‖ with g = Lη/(1 − Lη), η = μ + γ4(√2 + μ). ‖Fx‖ = √N‖x‖.
//     (Its model is our loop: bit reversal, then L stages of butterflies (a + wb, a − wb).)
//     The weights: w_N^j = w_N^{aB}·w_N^b, both factors from MPFR (mpfr_sin_cos at 96 bits, error
//     below 2^−90) rounded to long double (64-bit significand, per-component error ≤ 2^−64),
//     multiplied in long double (complex product error ≤ √2γ2 ≤ 2^−62.5) and rounded to double
//     (per-component error ≤ u·|component|): μ ≤ u + 8·2^−64 < u + 2^−58, the value used.
//     (A static_assert requires a 64-bit long double significand.)
//  2. Unpacking: U = (I ± conj∘reverse)/2 has ‖U‖ ≤ 1, and each unpacked entry is one complex
//     addition (per-component relative error ≤ u) and an exact halving, so
//     ‖Â − A‖ ≤ ê√N‖x‖ with ê = g + u(1 + g), and ‖A‖_∞ ≤ ‖a‖₁.
//  3. Products: ‖ÂB̂ − AB‖ ≤ ‖Â − A‖‖B̂‖_∞ + ‖A‖_∞‖B̂ − B‖ and ‖ÂB̂‖ ≤ ‖Â‖‖B̂‖_∞; the complex
//     multiplication adds relative error ≤ √2γ2 (Higham Lemma 3.5; this file is compiled with
//     -ffp-contract=off so the compiler cannot fuse it differently); packing adds ≤ u.
//  4. Inverse: ‖fl(F*P̂) − F*P‖ ≤ √N‖P̂ − P‖ + g√N‖P̂‖; the division by N is exact (power of 2).
// Hence ‖ĉ − c‖ ≤ E := (E_P + g·S)/√N, E_P and S the bounds of steps 2–3 (computed below from the
// operands' ℓ1 and ℓ2 norms), and Σ_k |ĉ_k − c_k| ≤ √N·E over the N entries (Cauchy–Schwarz).
// The result keeps ĉ (negative entries set to 0 on the upper side, and added to the deficit on the
// lower side) and reports η = √N·E as the mass the upper side may miss and the lower side may
// exceed (pld.hpp explains why a total bound is enough). Every step of that computation is itself
// rounded up (×(1 + 2^−50) after each operation, which covers its own rounding). Underflow
// (subnormal masses) is not in Higham's model: its absolute error, at most 2^−1074 per operation,
// is covered by adding N·2^−900 to η.
#include <mpfr.h>

#include <cfloat>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>

#include "dpfl/ref/pld.hpp"

namespace dpfl::ref::pld {
namespace {

static_assert(LDBL_MANT_DIG >= 64, "the FFT twiddle bound needs a 64-bit long double significand");

constexpr double kU = 0x1p-53;
constexpr double kUnderflowFloor = 0x1p-900;

// Rounds a non-negative bound computation up: one operation's relative error is ≤ 2^−53.
inline double Up(double v) { return v * (1.0 + 0x1p-50); }

double Gamma(double k) { return Up(k * kU / (1.0 - k * kU)); }

// Σ v² over both vectors, rounded up (non-negative sum: relative error ≤ γ_n).
double SumSquaresUp(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (double v : a) s += v * v;
  for (double v : b) s += v * v;
  return Up(s * (1.0 + Gamma(static_cast<double>(a.size() + b.size() + 2))));
}
double SumUp(const std::vector<double>& a) {
  double s = 0;
  for (double v : a) s += v;
  return Up(s * (1.0 + Gamma(static_cast<double>(a.size() + 2))));
}

// Per-stage weights for one size: stage s (m = 2^s) uses w_m^j = exp(−2πi j/m), j < m/2,
// stored contiguously at offset m/2 − 1.
template <class T>
struct Twiddles {
  std::vector<T> re, im;
};

// The working precision of an FFT path: its unit roundoff u and the twiddle error bound μ.
//  * double: μ ≤ u + 2^−58 (header comment);
//  * long double (64-bit significand, u = 2^−64): the weights are the long double products of
//    the two MPFR factors, each within 2^−64 per component of its exact value (|error| ≤ √2·2^−64),
//    and the complex product adds relative error ≤ √2γ2: |ŵ − w| ≤ 2√2·2^−64 + 2^−128 + √2γ2 < 2^−61.
template <class T>
struct Precision;
template <>
struct Precision<double> {
  static constexpr double u = 0x1p-53, mu = 0x1p-53 + 0x1p-58;
};
template <>
struct Precision<long double> {
  static constexpr double u = 0x1p-64, mu = 0x1p-61;
};

void MpfrUnitRoot(std::uint64_t j, std::uint64_t n, long double& c, long double& s) {
  mpfr_t theta, sn, cs;
  mpfr_inits2(96, theta, sn, cs, static_cast<mpfr_ptr>(nullptr));
  mpfr_const_pi(theta, MPFR_RNDN);
  mpfr_mul_ui(theta, theta, 2, MPFR_RNDN);
  mpfr_mul_ui(theta, theta, static_cast<unsigned long>(j), MPFR_RNDN);
  mpfr_div_ui(theta, theta, static_cast<unsigned long>(n), MPFR_RNDN);
  mpfr_sin_cos(sn, cs, theta, MPFR_RNDN);
  c = mpfr_get_ld(cs, MPFR_RNDN);
  s = -mpfr_get_ld(sn, MPFR_RNDN);  // exp(−iθ)
  mpfr_clears(theta, sn, cs, static_cast<mpfr_ptr>(nullptr));
}

template <class T>
std::shared_ptr<const Twiddles<T>> BuildTwiddles(int log2n) {
  const std::uint64_t n = std::uint64_t{1} << log2n;
  const std::uint64_t half = n / 2;
  const int fine_bits = (log2n + 1) / 2;
  const std::uint64_t fine_n = std::uint64_t{1} << fine_bits;
  std::vector<long double> fc(fine_n), fs(fine_n), cc(half / fine_n + 1), cs(half / fine_n + 1);
  for (std::uint64_t b = 0; b < fine_n; ++b) MpfrUnitRoot(b, n, fc[b], fs[b]);
  for (std::uint64_t a = 0; a < cc.size(); ++a) MpfrUnitRoot(a * fine_n, n, cc[a], cs[a]);
  std::vector<T> wr(half), wi(half);
  for (std::uint64_t j = 0; j < half; ++j) {
    const std::uint64_t a = j >> fine_bits, b = j & (fine_n - 1);
    const long double r = cc[a] * fc[b] - cs[a] * fs[b];
    const long double i = cc[a] * fs[b] + cs[a] * fc[b];
    wr[j] = static_cast<T>(r);
    wi[j] = static_cast<T>(i);
  }
  auto t = std::make_shared<Twiddles<T>>();
  t->re.assign(n > 1 ? n - 1 : 1, T(0));
  t->im.assign(n > 1 ? n - 1 : 1, T(0));
  for (int s = 1; s <= log2n; ++s) {
    const std::uint64_t m = std::uint64_t{1} << s, h = m / 2, stride = n / m;
    for (std::uint64_t j = 0; j < h; ++j) {
      t->re[h - 1 + j] = wr[j * stride];
      t->im[h - 1 + j] = wi[j * stride];
    }
  }
  return t;
}

template <class T>
std::shared_ptr<const Twiddles<T>> TwiddlesFor(int log2n) {
  static std::mutex mutex;
  static std::map<int, std::shared_ptr<const Twiddles<T>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(log2n);
  if (it != cache.end()) return it->second;
  auto t = BuildTwiddles<T>(log2n);
  cache.emplace(log2n, t);
  return t;
}

// In-place unnormalised DFT (sign −1, or +1 with `inverse`): bit reversal, then radix-2 stages.
template <class T>
void Fft(std::vector<T>& re, std::vector<T>& im, int log2n, const Twiddles<T>& tw, bool inverse) {
  const std::size_t n = std::size_t{1} << log2n;
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      std::swap(re[i], re[j]);
      std::swap(im[i], im[j]);
    }
  }
  const T sign = inverse ? T(-1) : T(1);
  T* xr = re.data();
  T* xi = im.data();
  for (int s = 1; s <= log2n; ++s) {
    const std::size_t h = std::size_t{1} << (s - 1), m = h << 1;
    const T* wr = tw.re.data() + (h - 1);
    const T* wi = tw.im.data() + (h - 1);
    for (std::size_t k = 0; k < n; k += m) {
      T* ar = xr + k;
      T* ai = xi + k;
      T* br = ar + h;
      T* bi = ai + h;
      for (std::size_t j = 0; j < h; ++j) {
        const T c = wr[j], d = sign * wi[j];
        const T tr = c * br[j] - d * bi[j];
        const T ti = c * bi[j] + d * br[j];
        br[j] = ar[j] - tr;
        bi[j] = ai[j] - ti;
        ar[j] = ar[j] + tr;
        ai[j] = ai[j] + ti;
      }
    }
  }
}

std::vector<double> DirectConvolution(const std::vector<double>& a, const std::vector<double>& b, bool upper) {
  if (a.empty() || b.empty()) return {};
  std::vector<double> c(a.size() + b.size() - 1, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
  const double terms = static_cast<double>(std::min(a.size(), b.size()));
  const double g = Gamma(terms + 2);
  for (double& v : c) {
    if (upper) {
      v = Up(v * (1.0 + g)) + kUnderflowFloor;
    } else {
      v = std::max(0.0, v * (1.0 - 2 * g));
    }
  }
  return c;
}

template <class T>
struct Unpacked {
  T up_re, up_im, lo_re, lo_im;
};
template <class T>
inline Unpacked<T> Unpack(const std::vector<T>& xr, const std::vector<T>& xi, std::size_t k, std::size_t n) {
  const std::size_t kk = (n - k) & (n - 1);
  // A_up = (X[k] + conj X[−k])/2, A_lo = (X[k] − conj X[−k])/(2i) = (d_im, −d_re)/2.
  const T sr = xr[k] + xr[kk], si = xi[k] - xi[kk];
  const T dr = xr[k] - xr[kk], di = xi[k] + xi[kk];
  const T half(0.5);
  return {half * sr, half * si, half * di, -half * dr};
}

}  // namespace

namespace {

// The FFT path in working precision T (the header comment's chain with T's u and μ). Results are
// rounded to double at the end; that rounding's total (≤ u_double·Σ|c_k|) joins the missing mass.
template <class T>
void FftPath(const std::vector<double>& a_up, const std::vector<double>& b_up, const std::vector<double>& a_lo,
             const std::vector<double>& b_lo, ConvolutionBounds& out) {
  const std::size_t n_up = a_up.size() + b_up.size() - 1, n_lo = a_lo.size() + b_lo.size() - 1;
  int log2n = 1;
  while ((std::size_t{1} << log2n) < std::max(n_up, n_lo)) ++log2n;
  const std::size_t n = std::size_t{1} << log2n;
  const auto tw = TwiddlesFor<T>(log2n);
  const bool squaring = (&a_up == &b_up) && (&a_lo == &b_lo);

  std::vector<T> xr(n, T(0)), xi(n, T(0));
  std::copy(a_up.begin(), a_up.end(), xr.begin());
  std::copy(a_lo.begin(), a_lo.end(), xi.begin());
  Fft(xr, xi, log2n, *tw, false);
  std::vector<T> yr, yi;
  if (!squaring) {
    yr.assign(n, T(0));
    yi.assign(n, T(0));
    std::copy(b_up.begin(), b_up.end(), yr.begin());
    std::copy(b_lo.begin(), b_lo.end(), yi.begin());
    Fft(yr, yi, log2n, *tw, false);
  }
  const std::vector<T>& Yr = squaring ? xr : yr;
  const std::vector<T>& Yi = squaring ? xi : yi;
  std::vector<T> pr(n), pi(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Unpacked<T> A = Unpack(xr, xi, k, n);
    const Unpacked<T> B = Unpack(Yr, Yi, k, n);
    const T cur = A.up_re * B.up_re - A.up_im * B.up_im, cui = A.up_re * B.up_im + A.up_im * B.up_re;
    const T clr = A.lo_re * B.lo_re - A.lo_im * B.lo_im, cli = A.lo_re * B.lo_im + A.lo_im * B.lo_re;
    pr[k] = cur - cli;
    pi[k] = cui + clr;
  }
  Fft(pr, pi, log2n, *tw, true);

  // The bound of the header comment, every operation rounded up (in double).
  const double u = Precision<T>::u, mu = Precision<T>::mu;
  auto gamma = [u](double k) { return Up(k * u / (1.0 - k * u)); };
  const double sqrt_n = std::sqrt(static_cast<double>(n));  // exact or rounded: used via Up below
  const double L = static_cast<double>(log2n);
  const double eta = Up(mu + Up(gamma(4) * Up(std::sqrt(2.0) * (1 + 0x1p-52) + mu)));
  const double leta = Up(L * eta);
  const double g = Up(leta / (1.0 - leta) * (1 + 0x1p-52));
  const double e_hat = Up(g + Up(u * (1 + g)));
  const double sx = Up(Up(sqrt_n) * Up(std::sqrt(SumSquaresUp(a_up, a_lo))));
  const double sy = Up(Up(sqrt_n) * Up(std::sqrt(SumSquaresUp(b_up, b_lo))));
  const double cmul = Up(std::sqrt(2.0) * (1 + 0x1p-52) * gamma(2));
  auto part = [&](double a1, double b1, double& e_c, double& n_c) {
    const double binf = Up(b1 + Up(e_hat * sy));
    const double e_ab = Up(Up(Up(e_hat * sx) * binf) + Up(a1 * Up(e_hat * sy)));
    const double n_ab = Up(Up((1 + e_hat) * sx) * binf);
    e_c = Up(e_ab + Up(cmul * n_ab));
    n_c = Up((1 + cmul) * n_ab);
  };
  double e_up, n_up_c, e_lo, n_lo_c;
  part(SumUp(a_up), SumUp(b_up), e_up, n_up_c);
  part(SumUp(a_lo), SumUp(b_lo), e_lo, n_lo_c);
  const double e_p = Up(Up(e_up + e_lo) + Up(u * Up(n_up_c + n_lo_c)));
  const double s_p = Up((1 + u) * Up(n_up_c + n_lo_c));
  const double err = Up(Up(e_p + Up(g * s_p)) / (sqrt_n * (1 - 0x1p-52)));
  out.fft_error = err;
  double missing = Up(Up(Up(sqrt_n) * err) + Up(static_cast<double>(n) * kUnderflowFloor));

  const T inv_n = T(1) / static_cast<T>(n);  // exact
  out.upper.resize(n_up);
  out.lower.resize(n_lo);
  double rounded = 0;  // Σ |entries| after rounding to double, for that rounding's bound
  for (std::size_t k = 0; k < n_up; ++k) {
    out.upper[k] = std::max(0.0, static_cast<double>(pr[k] * inv_n));
    rounded += out.upper[k];
  }
  double clamped = 0;
  for (std::size_t k = 0; k < n_lo; ++k) {
    const double v = static_cast<double>(pi[k] * inv_n);
    if (v < 0) clamped -= v;
    out.lower[k] = std::max(0.0, v);
    rounded += out.lower[k];
  }
  if (!std::is_same_v<T, double>)  // each entry rounded once more, to double: ≤ u_double relative
    missing = Up(missing + Up(kU * Up(rounded * (1 + Gamma(static_cast<double>(n_up + n_lo + 2))) + clamped)));
  out.upper_extra = missing;
  out.lower_deficit = Up(missing + Up(clamped * (1 + Gamma(static_cast<double>(n_lo + 2)))));
}

}  // namespace

ConvolutionBounds ConvolveBounds(const std::vector<double>& a_up, const std::vector<double>& b_up,
                                 const std::vector<double>& a_lo, const std::vector<double>& b_lo, bool force_fft,
                                 bool extended) {
  ConvolutionBounds out;
  const bool small = std::min(a_up.size(), b_up.size()) <= kDirectConvolutionMax &&
                     std::min(a_lo.size(), b_lo.size()) <= kDirectConvolutionMax;
  const bool any_empty = a_up.empty() || b_up.empty() || a_lo.empty() || b_lo.empty();
  if ((small && !force_fft) || any_empty) {
    out.upper = DirectConvolution(a_up, b_up, true);
    out.lower = DirectConvolution(a_lo, b_lo, false);
    return out;
  }
  if (extended) {
    FftPath<long double>(a_up, b_up, a_lo, b_lo, out);
  } else {
    FftPath<double>(a_up, b_up, a_lo, b_lo, out);
  }
  return out;
}

}  // namespace dpfl::ref::pld
