// An exact sampler of the discrete Gaussian N_Z(0, σ²) decided, almost always, by one 64-bit word
// and a table (docs/production.md "Exact noise at memory speed"). Same law as DiscreteGaussian
// (dpfl/fl/discrete_noise.hpp, CKS 2020 Alg. 3) — exactly, not approximately — at a fraction of
// its cost: CKS draws about 15 words per sample with 128-bit divisions; this draws one word and
// compares integers.
//
// The method: rejection sampling from a staircase. Let f(z) = exp(−z²/(2σ²)) and λ > 0 an exact
// dyadic rational. The integers are cut into cells of width c = 2^b; cell i (−K ≤ i < K) covers
// [i·c, (i + 1)·c) and gets the integer height h_i ≥ λ·max_{cell} f (the ceiling of an MPFR upper
// enclosure) and the squeeze q_i ≤ λ·min_{cell} f (the floor of a lower enclosure). The cells'
// areas c·h_i are laid end to end on [0, A) ⊂ [0, 2^64); cell i's area as y·c + r, r < c, y < h_i,
// so a uniform 64-bit word U < A is a uniform lattice point (z = i·c + r, y) under the staircase.
// The point is accepted iff y + V < λ·f(z), V uniform in [0, 1) (the point made continuous):
//  * y < q_i: certainly accepted (y + V < y + 1 ≤ q_i ≤ λ f(z)) — no further randomness;
//  * otherwise (the band, probability about c·|z|/σ² ≲ 3 %): V's bits are drawn lazily and compared
//    with MPFR enclosures of λ·f(z), the precision doubled until decided (it terminates with
//    probability 1; the point is never rounded).
// Above the staircase, [A, A + R) is the tail: a proposal beyond |z| ≥ K·c from an envelope e(z) =
// R/(c_t·2^{j+2}) on the j-th tail cell of width c_t (a sign, a geometric j, a uniform offset),
// accepted iff e(z)·W < λ f(z) with W uniform — the same lazy comparison. Words U ≥ A + R are
// rejected. So the accepted z has law ∝ λ·f(z) on all of ℤ, provided the envelope dominates λf:
// in the cells by construction; in the tail because λ f(K·c) < 1 ≤ R/(4·c_t) and f falls by at
// least half per tail cell (K·c·c_t/σ² ≥ ln 2, so f(z + j·c_t)/f(K·c) ≤ exp(−K·c·j·c_t/σ²) ≤ 2^−j);
// both are checked exactly at construction (InvalidArgument otherwise, never a silent change).
//
// Choices (they affect speed, never the law): c = 2^b, the largest power of two ≤ max(1, σ/128) (the
// band shrinks with c, the table grows as σ/c: 2K ≈ 2000–4000 cells); λ puts the staircase's area
// just below 2^64·(1 − 2^−5) − R, so a word is rejected or sent to the band with probability of a
// few per cent; a guide table on the top 12 bits of U finds the cell in O(1).
//
// Randomness: Sample(first, slow) takes the first proposal word `first` from the caller (e.g. word j
// of a stream for coordinate j, generated 16 blocks at a time) and everything else — the rare
// re-draws, V's bits, the tail's draws — from `slow`, in order. The output is a pure function of
// `first` and the words of `slow`.
//
// Domain: σ² = num/den with num, den ∈ [1, 2^64) (as DiscreteGaussian); InvalidArgument("sigma2")
// otherwise. An output outside int64 (a tail draw beyond 2^62, probability far below 2^−1000) throws
// std::overflow_error rather than change the law, as DiscreteGaussian does.
#pragma once

#include <cstdint>
#include <vector>

#include "dpfl/fl/discrete_noise.hpp"

namespace dpfl::fl {

class TableDiscreteGaussian {
 public:
  explicit TableDiscreteGaussian(const Ratio128& sigma2);
  std::int64_t Sample(std::uint64_t first, NoiseStream& slow) const;

  const Ratio128& sigma2() const { return sigma2_; }
  // The staircase's area A over 2^64: the probability that a word is accepted outright or goes to
  // the band (the rest is tail or rejection).
  double StaircaseFraction() const;
  // Σ over sub-cells of (up − lo)·width over 2^64: the probability that a word needs the lazy
  // MPFR comparison.
  double BandFraction() const;
  // A (the words below it propose from the staircase; [A, A + 2^R bits) is the tail).
  std::uint64_t staircase_area() const { return cum_.back(); }
  std::uint64_t tail_area() const { return std::uint64_t{1} << tail_area_bits_; }
  int cell_bits() const { return b_; }
  std::int64_t cells() const { return static_cast<std::int64_t>(height_.size()); }

 private:
  bool Band(std::int64_t z, std::uint64_t y, NoiseStream& slow) const;
  bool Tail(NoiseStream& slow, std::int64_t* z) const;
  // Accept iff a + b·V < λ·f(z), V uniform in [0, 1) drawn lazily from `slow`; a, b dyadic given as
  // a = a_int, b = 2^b_exp (the tail's e(z)) — see the .cpp.
  bool LazyBelow(std::int64_t z, std::uint64_t a_int, int b_exp, NoiseStream& slow) const;

  Ratio128 sigma2_;
  int b_ = 0;                       // cell width c = 2^b
  std::int64_t k_ = 0;              // cells −K … K − 1
  std::int64_t lambda_mant_ = 0;    // λ = lambda_mant_ · 2^lambda_exp_
  int lambda_exp_ = 0;
  int tail_bits_ = 0;               // c_t = 2^tail_bits_
  int tail_area_bits_ = 0;          // R = 2^tail_area_bits_
  std::vector<std::uint64_t> cum_;  // cum_[i] = area before cell i (cells indexed 0 … 2K − 1); cum_[2K] = A
  std::vector<std::uint64_t> height_, squeeze_;  // per cell: ≥ λ·max f, ≤ λ·min f
  int sub_bits_ = 0;                              // 2^sub_bits_ sub-cells per cell (width c/2^sub_bits_)
  std::vector<std::uint64_t> sub_lo_, sub_up_;    // per sub-cell: ≤ λ·min f, ≥ λ·max f
  std::vector<std::uint32_t> guide_;  // guide_[g] = the cell containing g·2^52 (or the last cell)
};

}  // namespace dpfl::fl
