// See dpfl/fl/discrete_noise.hpp (Canonne, Kamath & Steinke 2020, Algorithms 1–3).
#include "dpfl/fl/discrete_noise.hpp"


#include <boost/multiprecision/gmp.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/quant/fast_encoders.hpp"
#include "dpfl/validate.hpp"

namespace dpfl::fl {
namespace {

// GMP integers (no expression templates) for the rare big-integer path of the Gaussian.
using BigInt = boost::multiprecision::number<boost::multiprecision::gmp_int, boost::multiprecision::et_off>;

constexpr Uint128 kOne128 = 1;
constexpr Uint128 kTwoTo64 = kOne128 << 64;
constexpr Uint128 kTwoTo96 = kOne128 << 96;
constexpr std::uint64_t kMaxGeometric = std::uint64_t{1} << 32;  // V ≥ 2^32: see the header

Uint128 Gcd(Uint128 a, Uint128 b) {
  while (b != 0) {
    const Uint128 r = a % b;
    a = b;
    b = r;
  }
  return a;
}

// Number of significant bits of v (0 for v = 0).
int BitLength(Uint128 v) {
  const auto hi = static_cast<std::uint64_t>(v >> 64), lo = static_cast<std::uint64_t>(v);
  if (hi != 0) return 128 - __builtin_clzll(hi);
  if (lo != 0) return 64 - __builtin_clzll(lo);
  return 0;
}

BigInt ToBig(Uint128 v) {
  BigInt b = static_cast<std::uint64_t>(v >> 64);
  b <<= 64;
  b |= BigInt(static_cast<std::uint64_t>(v));
  return b;
}
// v < 2^128 required.
Uint128 FromBig(const BigInt& v) {
  const BigInt mask = (BigInt(1) << 64) - 1;
  const auto hi = static_cast<std::uint64_t>(BigInt(v >> 64) & mask);
  const auto lo = static_cast<std::uint64_t>(BigInt(v & mask));
  return (static_cast<Uint128>(hi) << 64) | lo;
}

// The γ ∈ [0, 1] loop of CKS Alg. 1: K ← 1; while Bernoulli(γ/K): K ← K + 1; return K odd.
// Bernoulli(γ/K) = Bernoulli(1/K) ∧ Bernoulli(γ) (two independent draws; the product of their
// probabilities is γ/K). `gamma` draws Bernoulli(γ).
template <class BernoulliGamma>
bool ExpMinusFractionLoop(NoiseStream& s, BernoulliGamma gamma) {
  std::uint64_t k = 1;
  for (;;) {
    if (k > 1 && s.Below(k) != 0) break;  // Bernoulli(1/K) = [uniform in [0, K) is 0]
    if (!gamma()) break;
    ++k;
  }
  return (k & 1) != 0;
}

// Exactly uniform in [0, bound) for a GMP bound ≥ 1: ⌈bits/64⌉ words, masked to the bit length
// of bound − 1, rejected if ≥ bound (acceptance > 1/2).
BigInt BelowBig(NoiseStream& s, const BigInt& bound) {
  if (bound <= 1) return 0;
  const auto bits = static_cast<unsigned>(boost::multiprecision::msb(BigInt(bound - 1))) + 1;
  const unsigned words = (bits + 63) / 64;
  for (;;) {
    BigInt v = 0;
    for (unsigned w = 0; w < words; ++w) {
      v <<= 64;
      v |= BigInt(s.Next());
    }
    v >>= 64 * words - bits;
    if (v < bound) return v;
  }
}

bool BernoulliRatioBig(NoiseStream& s, const BigInt& num, const BigInt& den) {
  if (num <= 0) return false;
  if (num >= den) return true;
  return BelowBig(s, den) < num;
}

// Bernoulli(exp(−num/den)) for GMP integers (CKS Alg. 1): ⌊γ⌋ draws of Bernoulli(e^−1), then the
// fractional part. ⌊γ⌋ may be astronomically large; the loop stops at the first 0 (probability
// 1 − e^−1 per draw).
bool BernoulliExpMinusBig(NoiseStream& s, const BigInt& num, const BigInt& den) {
  const BigInt whole = num / den, frac = num % den;
  for (BigInt i = 0; i < whole; ++i)
    if (!BernoulliExpMinusFraction(s, 1, 1)) return false;
  if (boost::multiprecision::msb(den) < 128) return BernoulliExpMinusFraction(s, FromBig(frac), FromBig(den));
  return ExpMinusFractionLoop(s, [&] { return BernoulliRatioBig(s, frac, den); });
}

}  // namespace

// ---- rationals ---------------------------------------------------------------------------------

bool operator==(const Ratio128& a, const Ratio128& b) { return a.num == b.num && a.den == b.den; }

std::string ToDecimalString(Uint128 v) {
  if (v == 0) return "0";
  std::string out;
  while (v != 0) {
    out.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::string ToString(const Ratio128& q) {
  return q.den == 1 ? ToDecimalString(q.num) : ToDecimalString(q.num) + "/" + ToDecimalString(q.den);
}

Ratio128 MakeRatio(Uint128 num, Uint128 den, const std::string& name) {
  if (num == 0 || den == 0)
    throw InvalidArgument(name, "must be a positive rational, got " + ToDecimalString(num) + "/" + ToDecimalString(den));
  const Uint128 g = Gcd(num, den);
  return {num / g, den / g};
}

Ratio128 ExactRatio(double x, const std::string& name) {
  Require(name, x, Domain::Positive());
  // x = m·2^e with m an integer below 2^53 (frexp and ldexp are exact).
  int exp2 = 0;
  const double f = std::frexp(x, &exp2);
  auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));
  exp2 -= 53;
  const int tz = __builtin_ctzll(m);
  m >>= tz;
  exp2 += tz;
  if (exp2 >= 0) {
    if (BitLength(m) + exp2 > 127) throw InvalidArgument(name, "must be below 2^127, got " + ShortestDouble(x));
    return {static_cast<Uint128>(m) << exp2, 1};
  }
  if (-exp2 > 127) throw InvalidArgument(name, "has a denominator above 2^127 (too small), got " + ShortestDouble(x));
  return {m, kOne128 << -exp2};
}

// ---- the stream ----------------------------------------------------------------------------------

NoiseStream::NoiseStream(const quant::StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t first_index)
    : ctx_(ctx), addr_(addr), index_(first_index) {}

void NoiseStream::Refill() {
  // The ChaCha20 block counter is 32 bits: index 2^35 would wrap it and repeat the keystream.
  // (2^35 is a multiple of 128, so a buffer below it never reaches it.)
  if (ctx_.generator == rng::Generator::kChaCha20 && index_ >= rng::kChaChaMaxIndex)
    throw std::overflow_error("NoiseStream: ChaCha20 stream exhausted (2^35 words)");
  const quant::fast::Isa isa = quant::fast::ActiveIsa();
  const std::uint64_t group = index_ >> 7;
  quant::fast::StreamWords128(ctx_, addr_, group, block_, isa);
  block_first_ = group << 7;
  block_size_ = 128;
}

std::uint64_t NoiseStream::Next() {
  if (block_size_ == 0 || index_ < block_first_ || index_ - block_first_ >= block_size_) Refill();
  return block_[index_++ - block_first_];
}

std::uint64_t NoiseStream::Below(std::uint64_t bound) {
  // Lemire (2019), "Fast random integer generation in an interval": the high word of v·bound is
  // uniform once the low words below 2^64 mod bound are rejected.
  // The threshold 2^64 mod bound is below bound, so a low word ≥ bound is accepted without
  // computing it (the division); the decisions are those of the plain rule "low ≥ threshold".
  for (;;) {
    const Uint128 product = static_cast<Uint128>(Next()) * bound;
    const auto low = static_cast<std::uint64_t>(product);
    if (low >= bound || low >= (0 - bound) % bound) return static_cast<std::uint64_t>(product >> 64);
  }
}

Uint128 NoiseStream::Below128(Uint128 bound) {
  if (bound < kTwoTo64) return Below(static_cast<std::uint64_t>(bound));
  if (bound == kTwoTo64) return Next();
  const int hi_bits = BitLength(bound - 1) - 64;  // 1 … 64
  const std::uint64_t mask = hi_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << hi_bits) - 1;
  for (;;) {
    const std::uint64_t lo = Next();
    const std::uint64_t hi = Next() & mask;
    const Uint128 v = (static_cast<Uint128>(hi) << 64) | lo;
    if (v < bound) return v;
  }
}

// ---- Bernoulli primitives (CKS Alg. 1) -------------------------------------------------------

bool BernoulliRatio(NoiseStream& s, Uint128 num, Uint128 den) {
  if (num == 0) return false;
  if (num >= den) return true;
  return s.Below128(den) < num;
}

bool BernoulliExpMinusFraction(NoiseStream& s, Uint128 num, Uint128 den) {
  if (num == 0) return true;  // e^0 = 1
  return ExpMinusFractionLoop(s, [&] { return BernoulliRatio(s, num, den); });
}

bool BernoulliExpMinus(NoiseStream& s, Uint128 num, Uint128 den) {
  const Uint128 whole = num / den, frac = num % den;
  for (Uint128 i = 0; i < whole; ++i)
    if (!BernoulliExpMinusFraction(s, 1, 1)) return false;  // Bernoulli(e^−1)
  return BernoulliExpMinusFraction(s, frac, den);            // Bernoulli(exp(⌊γ⌋ − γ))
}

// ---- discrete Laplace (CKS Alg. 2) ----------------------------------------------------------

DiscreteLaplace::DiscreteLaplace(const Ratio128& scale) {
  if (scale.num == 0 || scale.den == 0) throw InvalidArgument("t", "the discrete Laplace scale must be > 0");
  scale_ = MakeRatio(scale.num, scale.den, "t");
  if (scale_.num > kTwoTo96 || scale_.den > kTwoTo96)
    throw InvalidArgument("t", "numerator and denominator must be at most 2^96, got " + ToString(scale_));
  const Uint128 whole = scale_.num / scale_.den;
  if (whole > (kOne128 << 48) || (whole == (kOne128 << 48) && scale_.num % scale_.den != 0))
    throw InvalidArgument("t", "must be at most 2^48 (int64 outputs), got " + ToString(scale_));
}

std::int64_t DiscreteLaplace::Sample(NoiseStream& s) const {
  const Uint128 t = scale_.num, d = scale_.den;  // scale t/d (CKS write t/s)
  for (;;) {
    const Uint128 u = s.Below128(t);
    if (!BernoulliExpMinusFraction(s, u, t)) continue;  // accept U with probability e^{−U/t}
    std::uint64_t v = 0;
    while (BernoulliExpMinusFraction(s, 1, 1)) {  // V: successes of Bernoulli(e^−1) before the first failure
      if (++v >= kMaxGeometric) throw std::overflow_error("DiscreteLaplace: geometric count reached 2^32");
    }
    const Uint128 x = u + t * v;  // < t·2^32 ≤ 2^128: geometric with parameter 1 − e^{−1/t}
    const Uint128 y = x / d;      // geometric with parameter 1 − e^{−d/t}
    const bool negative = (s.Next() >> 63) != 0;  // B ~ Bernoulli(1/2): the top bit of a uniform word
    if (negative && y == 0) continue;             // −0 would count 0 twice
    if (y > static_cast<Uint128>(std::numeric_limits<std::int64_t>::max()))
      throw std::overflow_error("DiscreteLaplace: sample outside int64");
    return negative ? -static_cast<std::int64_t>(y) : static_cast<std::int64_t>(y);
  }
}

double DiscreteLaplace::Variance() const {
  const double inv_t = static_cast<double>(scale_.den) / static_cast<double>(scale_.num);
  const double e = std::exp(-inv_t), one_minus_e = -std::expm1(-inv_t);
  return 2 * e / (one_minus_e * one_minus_e);
}

// ---- discrete Gaussian (CKS Alg. 3) ---------------------------------------------------------

namespace {
// ⌊√(num/den)⌋: the largest x with x²·den ≤ num (num, den < 2^64, so x < 2^32).
std::uint64_t FloorSqrtRatio(Uint128 num, Uint128 den) {
  auto fits = [&](std::uint64_t x) {
    Uint128 sq = static_cast<Uint128>(x) * x, prod = 0;
    return !__builtin_mul_overflow(sq, den, &prod) && prod <= num;
  };
  auto x = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(num) / static_cast<double>(den)));
  while (x > 0 && !fits(x)) --x;
  while (fits(x + 1)) ++x;
  return x;
}
}  // namespace

DiscreteGaussian::DiscreteGaussian(const Ratio128& sigma2) : proposal_(Ratio128{1, 1}) {
  if (sigma2.num == 0 || sigma2.den == 0) throw InvalidArgument("sigma2", "the discrete Gaussian σ² must be > 0");
  sigma2_ = MakeRatio(sigma2.num, sigma2.den, "sigma2");
  if (sigma2_.num >= kTwoTo64 || sigma2_.den >= kTwoTo64)
    throw InvalidArgument("sigma2", "numerator and denominator must be below 2^64, got " + ToString(sigma2_));
  t_ = FloorSqrtRatio(sigma2_.num, sigma2_.den) + 1;
  proposal_ = DiscreteLaplace(Ratio128{t_, 1});
  den_t_ = sigma2_.den * t_;  // < 2^64 · (2^32 + 1)
  Uint128 two_num_den_t = 0;
  d_fits_ = !__builtin_mul_overflow(2 * sigma2_.num, den_t_, &two_num_den_t) &&
            !__builtin_mul_overflow(two_num_den_t, static_cast<Uint128>(t_), &d_);
}

bool DiscreteGaussian::Accept(NoiseStream& s, std::int64_t y) const {
  // γ = (|Y| − σ²/t)²/(2σ²) = a²/D, a = |Y|·den·t − num, D = 2·num·den·t².
  const Uint128 abs_y = y < 0 ? static_cast<Uint128>(-(y + 1)) + 1 : static_cast<Uint128>(y);
  Uint128 prod = 0;
  if (d_fits_ && !__builtin_mul_overflow(abs_y, den_t_, &prod)) {
    const Uint128 a = prod >= sigma2_.num ? prod - sigma2_.num : sigma2_.num - prod;
    if (a < kTwoTo64) return BernoulliExpMinus(s, a * a, d_);  // a² < 2^128
  }
  const BigInt num = ToBig(sigma2_.num), den = ToBig(sigma2_.den), t = ToBig(t_);
  const BigInt a = ToBig(abs_y) * den * t - num;
  return BernoulliExpMinusBig(s, a * a, 2 * num * den * t * t);
}

std::int64_t DiscreteGaussian::Sample(NoiseStream& s) const {
  for (;;) {
    const std::int64_t y = proposal_.Sample(s);
    if (Accept(s, y)) return y;
  }
}

double DiscreteGaussian::Sigma() const {
  return std::sqrt(static_cast<double>(sigma2_.num) / static_cast<double>(sigma2_.den));
}

}  // namespace dpfl::fl
