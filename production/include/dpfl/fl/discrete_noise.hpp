// Exact samplers of the discrete Laplace and discrete Gaussian laws on the integers, driven by
// the counter-based streams (docs/production.md "Exact noise for the Gaussian and Laplace
// baselines": continuous noise sampled in floating point leaks through its low-order bits,
// Mironov 2012, "On significance of the least significant bits for differential privacy").
//
// Laws (Canonne, Kamath & Steinke 2020, "The Discrete Gaussian for Differential Privacy",
// NeurIPS; CKS below), for rational parameters:
//   discrete Laplace   L_Z(t):      P(z) ∝ exp(−|z|/t),        z ∈ ℤ, t > 0
//   discrete Gaussian  N_Z(0, σ²):  P(z) ∝ exp(−z²/(2σ²)),     z ∈ ℤ, σ² > 0
//
// Algorithms (CKS Algorithms 1–3; every step is an integer comparison, so the implemented law is the law):
//  * BernoulliExpMinus (CKS Alg. 1): Bernoulli(exp(−γ)) for γ = num/den. For γ ∈ [0, 1]:
//    K ← 1; while Bernoulli(γ/K) = 1: K ← K + 1; return [K odd] (P(K > k) = γ^k/k!, so
//    P(K odd) = Σ_k (−γ)^k/k! = e^−γ). Bernoulli(γ/K) is drawn as Bernoulli(1/K) ∧ Bernoulli(γ)
//    (independent draws, product of the probabilities), so no product den·K is ever formed. For
//    γ > 1: ⌊γ⌋ draws of Bernoulli(e^−1), all 1, and then Bernoulli(exp(−(γ − ⌊γ⌋))).
//  * DiscreteLaplace (CKS Alg. 2) with scale t = num/den: U uniform in {0, …, num − 1}, accepted
//    with probability exp(−U/num); V ~ geometric (count of Bernoulli(e^−1) successes); X = U + num·V
//    (geometric with parameter 1 − e^{−1/num}); Y = ⌊X/den⌋ (geometric, 1 − e^{−den/num});
//    a fair sign B; (B = 1, Y = 0) is rejected (so 0 is not counted twice); Z = (1 − 2B)·Y.
//  * DiscreteGaussian (CKS Alg. 3) with σ² = num/den: t = ⌊σ⌋ + 1 (an integer, computed by an
//    exact integer square root); Y ~ L_Z(t) is accepted with probability exp(−(|Y| − σ²/t)²/(2σ²))
//    = exp(−a²/D) with a = |Y|·den·t − num and D = 2·num·den·t² (exact integers).
//
// Randomness: a NoiseStream reads the 64-bit words of one counter-based stream in index order —
// exactly the words fl::StreamCursor::Next would return, block-buffered — and uniform integers
// below a bound are drawn by rejection (Lemire's multiply-and-reject for bounds ≤ 2^64, masking
// and rejection above), so each is exactly uniform. A sample consumes a random number of words
// (about 10 for the Laplace and 15 for the Gaussian at the mechanisms' scales); successive
// samples read successive words.
//
// Arithmetic: unsigned 128-bit integers on the hot path; the discrete Gaussian's acceptance
// exponent a²/D moves to GMP integers (Boost.Multiprecision gmp_int) whenever a² or D does not
// fit in 128 bits (parameters with σ² ≳ 2^62, large denominators, or |Y| far in the tail). Both
// paths compute the same integers; tests/statistical/discrete_noise_stat_test.cpp runs both.
//
// Domains (checked by the constructors, InvalidArgument otherwise):
//  * Laplace: num, den ∈ [1, 2^96], t = num/den ≤ 2^48.
//  * Gaussian: num, den ∈ [1, 2^64), so σ < 2^32 and the proposal scale t fits in 64 bits.
// Outputs are int64. An output outside int64 cannot be returned: the samplers throw
// std::overflow_error instead (so does a geometric count V ≥ 2^32, where U + num·V could leave
// 128 bits). For the domains above either needs a Laplace draw of magnitude ≥ 2^63 − 1 with
// scale ≤ 2^48, or V ≥ 2^32: probability below e^{−2^14} per sample. No other event changes
// the law.
//
// Thread-safety: samplers are immutable values (Sample is const); a NoiseStream is owned by one
// thread. Production code: it never includes the reference; the reference's pmfs and privacy
// enclosures of these laws (reference/include/…/discrete_noise.hpp, namespace dpfl::ref) are an
// independent implementation, used only by the tests and the certificate.
#pragma once

#include <cstdint>
#include <string>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::fl {

using Uint128 = unsigned __int128;

// An exact positive rational num/den in lowest terms (num, den ≥ 1).
struct Ratio128 {
  Uint128 num = 1, den = 1;
};
bool operator==(const Ratio128& a, const Ratio128& b);
// Decimal digits of v.
std::string ToDecimalString(Uint128 v);
// "num/den", or "num" when den = 1 — the format dpfl::ref::ParseRational reads exactly.
std::string ToString(const Ratio128& q);
// num/den reduced to lowest terms. Throws InvalidArgument(name) if num = 0 or den = 0.
Ratio128 MakeRatio(Uint128 num, Uint128 den, const std::string& name);
// The double x as the exact dyadic rational it is. Throws InvalidArgument(name) if x is NaN,
// ±inf, ≤ 0, or so small that its denominator exceeds 2^127 (x < 2^−74 with a full mantissa).
Ratio128 ExactRatio(double x, const std::string& name);

// Sequential reader of one counter-based stream: Next() returns
// rng::Uniform64(ctx.generator, ctx.key, addr, index) for index = first_index, first_index + 1, …
// (the same words as fl::StreamCursor), computing the words 128 at a time on the fast path's
// 16-lane generators (quant::fast::StreamWords128; the words are the same pure functions of their
// index, so which instruction set computes them changes nothing). ChaCha20 streams
// hold 2^35 words; reading past that throws std::overflow_error (never a wrapped counter).
class NoiseStream {
 public:
  NoiseStream(const quant::StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t first_index = 0);
  std::uint64_t Next();
  // Index of the next word to be read (= words consumed when first_index = 0).
  std::uint64_t index() const { return index_; }
  // Exactly uniform in [0, bound), bound ≥ 1 (Lemire 2019, multiply and reject).
  std::uint64_t Below(std::uint64_t bound);
  // Exactly uniform in [0, bound), bound ≥ 1 (bounds above 2^64: mask to the bit length of
  // bound − 1 and reject values ≥ bound, acceptance > 1/2).
  Uint128 Below128(Uint128 bound);

 private:
  void Refill();
  quant::StreamContext ctx_;
  rng::StreamAddress addr_;
  std::uint64_t index_ = 0;
  std::uint64_t block_[128] = {};
  std::uint64_t block_first_ = 0;  // index of block_[0]
  unsigned block_size_ = 0;        // valid words in block_ (0: empty)
};

// Bernoulli(num/den), num ≤ den, den ≥ 1 (num = 0 and num = den consume no word).
bool BernoulliRatio(NoiseStream& s, Uint128 num, Uint128 den);
// Bernoulli(exp(−num/den)), den ≥ 1, any num (CKS Alg. 1). Exact.
bool BernoulliExpMinus(NoiseStream& s, Uint128 num, Uint128 den);
// Bernoulli(exp(−num/den)) for num ≤ den (the γ ∈ [0, 1] loop of CKS Alg. 1 alone).
bool BernoulliExpMinusFraction(NoiseStream& s, Uint128 num, Uint128 den);

// The discrete Laplace law L_Z(t), t = scale.num/scale.den (see the file comment).
class DiscreteLaplace {
 public:
  // Throws InvalidArgument("t") outside the domain above.
  explicit DiscreteLaplace(const Ratio128& scale);
  std::int64_t Sample(NoiseStream& s) const;
  const Ratio128& scale() const { return scale_; }
  // Variance 2e^{−1/t}/(1 − e^{−1/t})² (sum of the pmf: Σ z² e^{−|z|/t} / Σ e^{−|z|/t}),
  // evaluated in double with expm1 (relative error a few ulp). For the runtime monitor only.
  double Variance() const;

 private:
  Ratio128 scale_;
};

// The discrete Gaussian law N_Z(0, σ²), σ² = sigma2.num/sigma2.den (see the file comment).
class DiscreteGaussian {
 public:
  // Throws InvalidArgument("sigma2") outside the domain above.
  explicit DiscreteGaussian(const Ratio128& sigma2);
  std::int64_t Sample(NoiseStream& s) const;
  const Ratio128& sigma2() const { return sigma2_; }
  // t = ⌊σ⌋ + 1, the scale of the Laplace proposal.
  std::uint64_t proposal_scale() const { return t_; }
  // True if the acceptance denominator D = 2·num·den·t² fits in 128 bits (the fast path).
  bool fast_path() const { return d_fits_; }
  // σ in double (CKS show that the variance of N_Z(0, σ²) is below σ²). For the monitor only.
  double Sigma() const;

 private:
  bool Accept(NoiseStream& s, std::int64_t y) const;
  Ratio128 sigma2_;
  std::uint64_t t_ = 1;
  Uint128 den_t_ = 0;   // den·t (< 2^97)
  Uint128 d_ = 0;       // D = 2·num·den·t², valid when d_fits_
  bool d_fits_ = false;
  DiscreteLaplace proposal_;
};

}  // namespace dpfl::fl
