// See dpfl/fl/table_discrete_noise.hpp: the staircase, its exact construction (MPFR enclosures
// with directed rounding, integer checks of the tail's domination) and the lazy comparisons.
#include "dpfl/fl/table_discrete_noise.hpp"

#include <gmp.h>
#include <mpfr.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/fl/qgauss_rules.hpp"  // QgaussForChunks
#include "dpfl/quant/fast_encoders.hpp"

namespace dpfl::fl {
namespace {

constexpr int kGuideBits = 12;
constexpr std::uint64_t kOne = 1;

struct Mpfr {
  mpfr_t v;
  explicit Mpfr(mpfr_prec_t prec) { mpfr_init2(v, prec); }
  ~Mpfr() { mpfr_clear(v); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
};

struct Mpz {
  mpz_t v;
  Mpz() { mpz_init(v); }
  ~Mpz() { mpz_clear(v); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
};

void SetU128(mpz_t out, Uint128 x) {
  mpz_set_ui(out, static_cast<unsigned long>(x >> 64));
  mpz_mul_2exp(out, out, 64);
  mpz_add_ui(out, out, static_cast<unsigned long>(static_cast<std::uint64_t>(x)));
}

// [lo, hi] ∋ λ·f(z) at precision prec, f(z) = exp(−φ(z)) with the exact rational exponent
// φ(z) = z²·den/(2·num) (Gaussian, σ² = num/den) or |z|·den/num (Laplace, t = num/den). Directed
// roundings: exp is decreasing in φ, so hi uses φ rounded down and exp rounded up, lo the reverse.
void Enclose(bool gaussian, const Ratio128& p, std::int64_t lam_mant, int lam_exp, std::int64_t z, mpfr_prec_t prec,
             mpfr_t lo, mpfr_t hi) {
  Mpz n, d;
  mpz_set_si(n.v, z);
  if (gaussian) {
    mpz_mul(n.v, n.v, n.v);
  } else {
    mpz_abs(n.v, n.v);
  }
  Mpz den;
  SetU128(den.v, p.den);
  mpz_mul(n.v, n.v, den.v);  // z²·den or |z|·den
  SetU128(d.v, p.num);
  if (gaussian) mpz_mul_2exp(d.v, d.v, 1);  // 2·num or num
  Mpfr t_lo(prec), t_hi(prec), exact(static_cast<mpfr_prec_t>(mpz_sizeinbase(n.v, 2) + 2));
  mpfr_set_z(exact.v, n.v, MPFR_RNDN);  // exact: enough bits
  mpfr_div_z(t_lo.v, exact.v, d.v, MPFR_RNDD);
  mpfr_div_z(t_hi.v, exact.v, d.v, MPFR_RNDU);
  mpfr_neg(t_lo.v, t_lo.v, MPFR_RNDN);  // exact
  mpfr_neg(t_hi.v, t_hi.v, MPFR_RNDN);
  mpfr_set_prec(hi, prec);
  mpfr_set_prec(lo, prec);
  mpfr_exp(hi, t_lo.v, MPFR_RNDU);
  mpfr_exp(lo, t_hi.v, MPFR_RNDD);
  mpfr_mul_si(hi, hi, static_cast<long>(lam_mant), MPFR_RNDU);
  mpfr_mul_si(lo, lo, static_cast<long>(lam_mant), MPFR_RNDD);
  mpfr_mul_2si(hi, hi, lam_exp, MPFR_RNDN);  // exact
  mpfr_mul_2si(lo, lo, lam_exp, MPFR_RNDN);
}

// ⌈x⌉ and ⌊x⌋ of a non-negative x below 2^64.
std::uint64_t Ceil64(mpfr_t x) {
  Mpz z;
  mpfr_get_z(z.v, x, MPFR_RNDU);
  return mpz_get_ui(z.v);
}
std::uint64_t Floor64(mpfr_t x) {
  Mpz z;
  mpfr_get_z(z.v, x, MPFR_RNDD);
  return mpz_get_ui(z.v);
}

}  // namespace

TableDiscreteNoise TableDiscreteNoise::Gaussian(const Ratio128& sigma2) { return TableDiscreteNoise(true, sigma2); }
TableDiscreteNoise TableDiscreteNoise::Laplace(const Ratio128& t) { return TableDiscreteNoise(false, t); }

TableDiscreteNoise::TableDiscreteNoise(bool gaussian, const Ratio128& param) : gaussian_(gaussian), param_(param) {
  // SampleTableNoise runs the lazy comparisons on several threads: MPFR's caches must be per thread.
  if (!mpfr_buildopt_tls_p()) throw std::runtime_error("TableDiscreteNoise: MPFR is built without thread-local storage");
  const Uint128 two64 = static_cast<Uint128>(1) << 64;
  const std::string name = gaussian ? "sigma2" : "t";
  if (param.num == 0 || param.den == 0 || param.num >= two64 || param.den >= two64)
    throw InvalidArgument(name, "must be num/den with num, den in [1, 2^64), got " + ToString(param));
  const double v = static_cast<double>(param.num) / static_cast<double>(param.den);
  const double scale = gaussian ? std::sqrt(v) : v;  // σ or t
  // c = 2^b ≤ max(1, scale/128).
  b_ = scale >= 256.0 ? static_cast<int>(std::floor(std::log2(scale / 128.0))) : 0;
  const std::int64_t c = std::int64_t{1} << b_;
  // λ (a 20-bit mantissa times a power of two): the staircase's area near 2^64·(1 − 2^−5), from a
  // double estimate of Σ_cells c·max f; the exact areas below lower it if needed.
  double mass = 1.0;  // Σ_z f(z) in double
  if (gaussian) {
    if (scale >= 4.0) {
      mass = scale * std::sqrt(2.0 * M_PI);
    } else {
      for (int zz = 1; zz < 64; ++zz) mass += 2.0 * std::exp(-zz * zz / (2.0 * v));
    }
  } else {
    mass = (1.0 + std::exp(-1.0 / v)) / -std::expm1(-1.0 / v);  // Σ e^{−|z|/t}; expm1: no 1 − 1 for large t
  }
  // The staircase's excess over Σ f: at most 2c·f(0) (monotone on each side of 0) for cells wider
  // than one integer; with c = 1 the heights are ⌈λ f(z)⌉, an excess below one unit per cell.
  if (c > 1) mass += 2.0 * static_cast<double>(c);
  const double lambda_d = std::ldexp(1.0, 64) * (1.0 - 0x1p-5) / (mass * (1.0 + 0x1p-6));
  // Heights need resolution: λ ≥ 2^20 (σ up to about 2^41, t up to about 2^42).
  if (!(lambda_d >= 0x1p20)) throw InvalidArgument(name, "too large for the table sampler (scale above about 2^41), got " + ToString(param));
  lambda_exp_ = static_cast<int>(std::floor(std::log2(lambda_d))) - 19;
  lambda_mant_ = static_cast<std::int64_t>(std::ldexp(lambda_d, -lambda_exp_));
  // K: λ f(K·c) < 1 proven (MPFR upper end); a smaller λ later keeps it true.
  Mpfr lo(128), hi(128);
  const double reach = gaussian ? scale * std::sqrt(2.0 * std::log(lambda_d)) : scale * std::log(lambda_d);
  k_ = static_cast<std::int64_t>(std::ceil(reach / static_cast<double>(c))) + 1;
  for (;; ++k_) {
    Enclose(gaussian_, param_, lambda_mant_, lambda_exp_, k_ * c, 128, lo.v, hi.v);
    if (mpfr_cmp_ui(hi.v, 1) < 0) break;
  }
  // Tail cells c_t = 2^bt on which f falls by at least half, checked exactly with L =
  // 6931471805599453095 > 10^19·ln 2: Gaussian K·c·c_t/σ² ≥ ln 2, i.e. K·c·c_t·den·10^19 ≥ L·num
  // (f(z + j·c_t)/f(K·c) ≤ exp(−K·c·j·c_t/σ²)); Laplace c_t/t ≥ ln 2, i.e. c_t·den·10^19 ≥ L·num.
  tail_bits_ = 0;
  for (;; ++tail_bits_) {
    if (tail_bits_ > 62) throw InvalidArgument(name, "too large for the table sampler: " + ToString(param));
    Mpz lhs, rhs;
    mpz_set_si(lhs.v, gaussian ? k_ * c : 1);
    mpz_mul_2exp(lhs.v, lhs.v, static_cast<mp_bitcnt_t>(tail_bits_));
    Mpz den;
    SetU128(den.v, param_.den);
    mpz_mul(lhs.v, lhs.v, den.v);
    mpz_mul_ui(lhs.v, lhs.v, 10000000000000000000ul);
    SetU128(rhs.v, param_.num);
    mpz_mul_ui(rhs.v, rhs.v, 6931471805599453095ul);
    if (mpz_cmp(lhs.v, rhs.v) >= 0) break;
  }
  // The tail's room before 2^62 must hold 4096 tail cells (Tail refuses j ≥ 4096 only); the scale
  // limit above keeps c_t ≤ 2^44, far inside.
  if (tail_bits_ > 49 || k_ * c > (std::int64_t{1} << 61))
    throw InvalidArgument(name, "too large for the table sampler: " + ToString(param));
  tail_area_bits_ = std::max(40, tail_bits_ + 2);  // R ≥ 4·c_t, so e(z) ≥ 1 > λ f on the first tail cell
  if (tail_area_bits_ > 62) throw InvalidArgument(name, "too large for the table sampler: " + ToString(param));
  const Uint128 tail_area = static_cast<Uint128>(1) << tail_area_bits_;
  // λ·f at the sub-cell grid |p| = j·w, j = 0 … K·S (w = c/S, S = 2^sub_bits), enclosed by a
  // recurrence with directed roundings: f((j + 1)w) = f(jw)·r_j with, for the Gaussian,
  // r_j = exp(−(2j + 1)w²/(2σ²)), r_{j+1} = r_j·ρ, ρ = exp(−w²/σ²), and for the Laplace r_j = exp(−w/t)
  // — two multiplications per point instead of an exponential, the
  // enclosure widening by a few ulps of 128 bits per step. The grid bounds every sub-cell: for
  // z ∈ [p, p + w − 1] on the right of 0, f(p + w) ≤ f(z) ≤ f(p); on the left, mirrored.
  sub_bits_ = std::min(b_, 4);
  const std::int64_t w = c >> sub_bits_, subs = std::int64_t{1} << sub_bits_;
  const std::int64_t points = k_ * subs + 1;
  std::vector<std::uint64_t> grid_lo(static_cast<std::size_t>(points)), grid_hi(static_cast<std::size_t>(points));
  {
    Mpfr f_lo(128), f_hi(128), r_lo(128), r_hi(128), rho_lo(128), rho_hi(128), scaled(128);
    mpfr_set_ui(f_lo.v, 1, MPFR_RNDN);
    mpfr_set_ui(f_hi.v, 1, MPFR_RNDN);
    // r_0 = f(w) with λ = 1. Gaussian: ρ = exp(−w²/σ²) = f(w)²; Laplace: f(w(j + 1)) = f(wj)·f(w),
    // so r stays f(w) (ρ = 1).
    Enclose(gaussian_, param_, 1, 0, w, 128, r_lo.v, r_hi.v);
    if (gaussian_) {
      mpfr_sqr(rho_lo.v, r_lo.v, MPFR_RNDD);
      mpfr_sqr(rho_hi.v, r_hi.v, MPFR_RNDU);
    } else {
      mpfr_set_ui(rho_lo.v, 1, MPFR_RNDN);
      mpfr_set_ui(rho_hi.v, 1, MPFR_RNDN);
    }
    for (std::int64_t j = 0; j < points; ++j) {
      mpfr_mul_si(scaled.v, f_lo.v, static_cast<long>(lambda_mant_), MPFR_RNDD);
      mpfr_mul_2si(scaled.v, scaled.v, lambda_exp_, MPFR_RNDN);
      grid_lo[static_cast<std::size_t>(j)] = Floor64(scaled.v);
      mpfr_mul_si(scaled.v, f_hi.v, static_cast<long>(lambda_mant_), MPFR_RNDU);
      mpfr_mul_2si(scaled.v, scaled.v, lambda_exp_, MPFR_RNDN);
      grid_hi[static_cast<std::size_t>(j)] = Ceil64(scaled.v);
      mpfr_mul(f_lo.v, f_lo.v, r_lo.v, MPFR_RNDD);
      mpfr_mul(f_hi.v, f_hi.v, r_hi.v, MPFR_RNDU);
      mpfr_mul(r_lo.v, r_lo.v, rho_lo.v, MPFR_RNDD);
      mpfr_mul(r_hi.v, r_hi.v, rho_hi.v, MPFR_RNDU);
    }
  }
  // The cells: height = the largest sub-cell upper bound, squeeze = the smallest lower bound; λ
  // lowered by 1/16 (and the grid rescaled) until the staircase and the tail fit in 2^64.
  const std::size_t cells = static_cast<std::size_t>(2 * k_);
  for (;;) {
    height_.assign(cells, 0);
    squeeze_.assign(cells, 0);
    sub_lo_.assign(cells * static_cast<std::size_t>(subs), 0);
    sub_up_.assign(cells * static_cast<std::size_t>(subs), 0);
    cum_.assign(cells + 1, 0);
    Uint128 area = 0;
    for (std::size_t i = 0; i < cells; ++i) {
      std::uint64_t h = 1, q = ~std::uint64_t{0};
      for (std::int64_t t = 0; t < subs; ++t) {
        const std::int64_t p = (static_cast<std::int64_t>(i) - k_) * c + t * w;  // the sub-cell [p, p + w − 1]
        // Grid indices bounding the sub-cell: on the right (p ≥ 0) f is largest at p (index p/w) and
        // at least f(p + w) (index p/w + 1); on the left |z| ∈ [|p| − w + 1, |p|], so f is at most
        // f(|p| − w) and at least f(|p|). For w = 1 the sub-cell is the single integer p: |p| both.
        const std::int64_t a = p >= 0 ? p : -p;
        const std::int64_t near = w == 1 ? a : (p >= 0 ? a / w : (a - w) / w);
        const std::int64_t far = w == 1 ? a : (p >= 0 ? a / w + 1 : a / w);
        const std::size_t idx = i * static_cast<std::size_t>(subs) + static_cast<std::size_t>(t);
        sub_up_[idx] = std::max<std::uint64_t>(1, grid_hi[static_cast<std::size_t>(near)]);
        sub_lo_[idx] = std::min(sub_up_[idx], grid_lo[static_cast<std::size_t>(std::min(far, points - 1))]);
        h = std::max(h, sub_up_[idx]);
        q = std::min(q, sub_lo_[idx]);
      }
      height_[i] = h;
      squeeze_[i] = q;
      cum_[i] = static_cast<std::uint64_t>(area);
      area += static_cast<Uint128>(h) * static_cast<std::uint64_t>(c);
      if (area >= two64) break;
    }
    if (area + tail_area <= two64) {
      cum_[cells] = static_cast<std::uint64_t>(area);
      break;
    }
    // A smaller λ: rescale the grid bounds (floor/ceil of the old bound times 15/16 stay bounds).
    const std::int64_t old = lambda_mant_;
    lambda_mant_ -= lambda_mant_ / 16;
    for (std::size_t j = 0; j < grid_lo.size(); ++j) {
      grid_lo[j] = static_cast<std::uint64_t>(static_cast<Uint128>(grid_lo[j]) * static_cast<std::uint64_t>(lambda_mant_) /
                                              static_cast<std::uint64_t>(old));
      grid_hi[j] = static_cast<std::uint64_t>((static_cast<Uint128>(grid_hi[j]) * static_cast<std::uint64_t>(lambda_mant_) +
                                               static_cast<std::uint64_t>(old) - 1) /
                                              static_cast<std::uint64_t>(old));
    }
  }
  // Guide: the cell containing g·2^52 (the last cell for points at or beyond A).
  guide_.assign(std::size_t{1} << kGuideBits, 0);
  std::size_t cell = 0;
  for (std::size_t g = 0; g < guide_.size(); ++g) {
    const std::uint64_t u = static_cast<std::uint64_t>(g) << (64 - kGuideBits);
    while (cell + 1 < cells && cum_[cell + 1] <= u) ++cell;
    guide_[g] = static_cast<std::uint32_t>(cell);
  }
}

double TableDiscreteNoise::StaircaseFraction() const { return std::ldexp(static_cast<double>(cum_.back()), -64); }

double TableDiscreteNoise::BandFraction() const {
  double band = 0;
  for (std::size_t i = 0; i < sub_lo_.size(); ++i) band += static_cast<double>(sub_up_[i] - sub_lo_[i]);
  return std::ldexp(band, b_ - sub_bits_ - 64);
}

std::int64_t TableDiscreteNoise::Sample(std::uint64_t u, NoiseStream& slow) const {
  const std::uint64_t area = cum_.back();
  const std::uint64_t mask = (kOne << b_) - 1;
  for (;;) {
    if (u < area) {
      std::size_t i = guide_[u >> (64 - kGuideBits)];
      while (cum_[i + 1] <= u) ++i;
      const std::uint64_t o = u - cum_[i], y = o >> b_;
      const std::int64_t z = (static_cast<std::int64_t>(i) - k_) * (std::int64_t{1} << b_) + static_cast<std::int64_t>(o & mask);
      if (y < squeeze_[i]) return z;
      const std::size_t sub = (i << sub_bits_) + static_cast<std::size_t>((o & mask) >> (b_ - sub_bits_));
      if (y < sub_lo_[sub]) return z;
      if (y < sub_up_[sub] && Band(z, y, slow)) return z;
    } else if (u - area < (kOne << tail_area_bits_)) {
      std::int64_t z = 0;
      if (Tail(slow, &z)) return z;
    }
    u = slow.Next();
  }
}

bool TableDiscreteNoise::Band(std::int64_t z, std::uint64_t y, NoiseStream& slow) const {
  return LazyBelow(z, y, 0, slow);
}

// A proposal under the tail envelope: a sign, j with P(j) = 2^−(j+1) (the zeros before the first
// one in the stream's bits), an offset uniform in [0, c_t); then accepted iff e(z)·W < λ f(z), e(z) =
// R/(c_t·2^{j+2}) = 2^{R bits − bt − j − 2}.
bool TableDiscreteNoise::Tail(NoiseStream& slow, std::int64_t* z) const {
  const std::uint64_t w = slow.Next();
  const bool negative = (w & 1) != 0;
  std::uint64_t bits = w >> 1;
  int left = 63;
  std::int64_t j = 0;
  for (;;) {
    if (bits != 0) {
      j += __builtin_ctzll(bits);
      break;
    }
    j += left;
    bits = slow.Next();
    left = 64;
  }
  const std::uint64_t offset = tail_bits_ == 0 ? 0 : slow.Next() >> (64 - tail_bits_);
  // |z| = start + j·c_t + offset < start + room·c_t ≤ 2^62 for j < room. j ≥ 4096 too is refused:
  // probability 2^−4096 per tail proposal, and it keeps LazyBelow's exponent small.
  const std::int64_t start = k_ * (std::int64_t{1} << b_);
  const std::int64_t room = start > (std::int64_t{1} << 61) ? 0 : ((std::int64_t{1} << 62) - start) >> tail_bits_;
  if (j >= std::min<std::int64_t>(room, 4096))
    throw std::overflow_error("TableDiscreteNoise: a tail draw beyond 2^62 (an output outside int64 is never returned)");
  const std::int64_t magnitude = start + (j << tail_bits_) + static_cast<std::int64_t>(offset);
  *z = negative ? -(magnitude + 1) : magnitude;
  return LazyBelow(*z, 0, tail_area_bits_ - tail_bits_ - static_cast<int>(j) - 2, slow);
}

// Accept iff a + 2^e·V < λ f(z), V uniform in [0, 1): V's bits are drawn 64 at a time from `slow`
// (V ∈ [v/2^k, (v + 1)/2^k)), λ f(z) is enclosed at a precision doubled whenever the enclosure is
// wider than a quarter of V's interval. X_lo = a + 2^e·v/2^k and X_hi = a + 2^e·(v + 1)/2^k are
// exact at the precision used; X_hi ≤ lo ⇒ accept, X_lo ≥ hi ⇒ reject. λ f(z) is irrational for
// z ≠ 0 and V continuous, so this ends with probability 1.
bool TableDiscreteNoise::LazyBelow(std::int64_t z, std::uint64_t a, int e, NoiseStream& slow) const {
  mpfr_prec_t prec = 128;
  Mpfr lo(prec), hi(prec), width(64), xlo(64), xhi(64);
  Enclose(gaussian_, param_, lambda_mant_, lambda_exp_, z, prec, lo.v, hi.v);
  Mpz v;
  long k = 0;
  for (;;) {
    const mpfr_prec_t xprec = static_cast<mpfr_prec_t>(256 + k + (e < 0 ? -e : e));
    mpfr_set_prec(xlo.v, xprec);
    mpfr_set_prec(xhi.v, xprec);
    mpfr_set_z(xlo.v, v.v, MPFR_RNDN);
    mpfr_add_ui(xhi.v, xlo.v, 1, MPFR_RNDN);
    mpfr_mul_2si(xlo.v, xlo.v, e - k, MPFR_RNDN);
    mpfr_mul_2si(xhi.v, xhi.v, e - k, MPFR_RNDN);
    mpfr_add_ui(xlo.v, xlo.v, a, MPFR_RNDN);  // exact at xprec
    mpfr_add_ui(xhi.v, xhi.v, a, MPFR_RNDN);
    if (mpfr_lessequal_p(xhi.v, lo.v)) return true;
    if (mpfr_greaterequal_p(xlo.v, hi.v)) return false;
    // Refine whichever is coarser: the enclosure (precision) or V (64 more bits).
    mpfr_set_prec(width.v, prec + 8);
    mpfr_sub(width.v, hi.v, lo.v, MPFR_RNDU);
    mpfr_mul_2si(width.v, width.v, 2 + k - e, MPFR_RNDU);  // 4·(hi − lo) / (2^e / 2^k)
    if (mpfr_cmp_ui(width.v, 1) > 0) {
      if (prec > 1 << 20) throw std::runtime_error("TableDiscreteNoise: precision limit in a lazy comparison");
      prec *= 2;
      Enclose(gaussian_, param_, lambda_mant_, lambda_exp_, z, prec, lo.v, hi.v);
    } else {
      mpz_mul_2exp(v.v, v.v, 64);
      mpz_add_ui(v.v, v.v, static_cast<unsigned long>(slow.Next()));
      k += 64;
    }
  }
}

void SampleTableNoise(const TableDiscreteNoise& table, const quant::StreamContext& ctx, std::uint32_t entity,
                      std::span<std::int64_t> out, int threads) {
  constexpr std::size_t kChunk = 4096;
  constexpr std::uint64_t kChunkWords = std::uint64_t{1} << 20;
  if (out.size() > (std::size_t{1} << 27))
    throw InvalidArgument("m", "the table sampler's streams address at most 2^27 coordinates, got " + std::to_string(out.size()));
  const rng::StreamAddress first{ctx.round, entity, rng::Purpose::kTableNoiseFirst};
  const rng::StreamAddress further{ctx.round, entity, rng::Purpose::kTableNoiseSlow};
  const quant::fast::Isa isa = quant::fast::ActiveIsa();
  QgaussForChunks(out.size(), threads, [&](std::size_t h) {
    const std::size_t lo = h * kChunk, count = std::min(out.size() - lo, kChunk);
    NoiseStream slow(ctx, further, static_cast<std::uint64_t>(h) * kChunkWords);
    std::uint64_t words[128];
    for (std::size_t g = 0; g < count; g += 128) {
      quant::fast::StreamWords128(ctx, first, (lo + g) / 128, words, isa);
      const std::size_t n = std::min<std::size_t>(128, count - g);
      for (std::size_t k = 0; k < n; ++k) out[lo + g + k] = table.Sample(words[k], slow);
    }
    if (slow.index() > static_cast<std::uint64_t>(h + 1) * kChunkWords)
      throw std::overflow_error("SampleTableNoise: chunk " + std::to_string(h) + " used more than 2^20 further words");
  });
}

}  // namespace dpfl::fl
