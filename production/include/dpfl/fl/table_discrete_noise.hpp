// Exact samplers of the discrete Gaussian N_Z(0, σ²) and the discrete Laplace L_Z(t) decided, almost
// always, by one 64-bit word and a table (docs/production.md "Exact noise at memory speed"). Same
// laws as DiscreteGaussian / DiscreteLaplace (dpfl/fl/discrete_noise.hpp, CKS 2020 Alg. 2–3) —
// exactly, not approximately — at a fraction of their cost: CKS draws 10–15 words per sample with
// 128-bit divisions; this draws one word and compares integers.
//
// The method: rejection sampling from a staircase. Let f(z) = exp(−z²/(2σ²)) (Gaussian) or
// exp(−|z|/t) (Laplace) and λ > 0 an exact dyadic rational. The integers are cut into cells of
// width c = 2^b; cell i (−K ≤ i < K) covers [i·c, (i + 1)·c) and gets the integer height
// h_i ≥ λ·max_{cell} f and the squeeze q_i ≤ λ·min_{cell} f; each cell is cut into up to 16
// sub-cells with their own bounds lo ≤ λ·min f, up ≥ λ·max f. All bounds are floors and ceilings
// of MPFR enclosures (a directed-rounding recurrence over the sub-cell grid). The cells' areas
// c·h_i are laid end to end on [0, A) ⊂ [0, 2^64); cell i's area as y·c + r, r < c, y < h_i, so
// a uniform 64-bit word U < A is a uniform lattice point (z = i·c + r, y) under the staircase.
// The point is accepted iff y + V < λ·f(z), V uniform in [0, 1) (the point made continuous):
//  * y < q_i, or y < lo of its sub-cell: certainly accepted — no further randomness;
//  * y ≥ up of its sub-cell: certainly rejected;
//  * otherwise (the band, about 2·10^−4 of the words at the seed-003 scale): V's bits are drawn
//    lazily and compared with MPFR enclosures of λ·f(z), the precision doubled until decided (it
//    terminates with probability 1; nothing is rounded).
// Above the staircase, [A, A + R) is the tail: a proposal beyond |z| ≥ K·c from an envelope e(z) =
// R/(c_t·2^{j+2}) on the j-th tail cell of width c_t (a sign, a geometric j, a uniform offset),
// accepted iff e(z)·W < λ f(z) with W uniform — the same lazy comparison. Words U ≥ A + R, and
// rejected points, are followed by a fresh word. So the accepted z has law ∝ λ·f(z) on all of ℤ,
// provided the envelope dominates λf: in the cells by construction; in the tail because
// λ f(K·c) < 1 ≤ R/(4·c_t) and f falls by at least half per tail cell (Gaussian: K·c·c_t/σ² ≥ ln 2,
// so f(z + j·c_t)/f(K·c) ≤ exp(−K·c·j·c_t/σ²) ≤ 2^−j; Laplace: c_t/t ≥ ln 2); both are checked
// exactly at construction.
//
// Choices (they affect speed, never the law): c = 2^b, the largest power of two ≤ max(1, s/128)
// (s = σ or t; the band shrinks with c, the table grows as s/c: 2K ≈ 2000–4000 cells); λ puts the
// staircase's area just below 2^64·(1 − 2^−5) − R, so about 5 % of the words are rejected and
// replaced; a guide table on the top 12 bits of U finds the cell in O(1).
//
// Randomness: Sample(first, slow) takes the first proposal word `first` from the caller (e.g. word j
// of a stream for coordinate j, generated 16 blocks at a time) and everything else — the
// replacements, V's bits, the tail's draws — from `slow`, in order. The output is a pure function
// of `first` and the words of `slow`.
//
// Domain: σ² or t = num/den with num, den ∈ [1, 2^64), and a scale small enough for heights with
// 20 bits of resolution (λ ≥ 2^20: σ or t up to about 2^41); InvalidArgument("sigma2" / "t") otherwise
// (the Laplace baselines' t = N/ε_p, with its 76-bit numerator, is outside: it keeps CKS). A tail
// proposal beyond 2^62, or with its geometric j ≥ 4096 (probability ≤ 2^−4096 per proposal), throws
// std::overflow_error rather than change the law, as the CKS samplers do.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dpfl/fl/discrete_noise.hpp"
#include "dpfl/quant/binary_quantizer.hpp"

namespace dpfl::fl {

class TableDiscreteNoise {
 public:
  // N_Z(0, σ²), σ² = num/den; InvalidArgument("sigma2") outside the domain.
  static TableDiscreteNoise Gaussian(const Ratio128& sigma2);
  // L_Z(t): P(z) ∝ exp(−|z|/t), t = num/den; InvalidArgument("t") outside the domain.
  static TableDiscreteNoise Laplace(const Ratio128& t);
  std::int64_t Sample(std::uint64_t first, NoiseStream& slow) const;

  bool gaussian() const { return gaussian_; }
  const Ratio128& parameter() const { return param_; }  // σ² or t
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

  TableDiscreteNoise(bool gaussian, const Ratio128& param);
  bool gaussian_ = true;
  Ratio128 param_;
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

// N_Z(0, σ²) noise for out.size() coordinates of one entity (e.g. a client) in one round, with the
// table sampler: coordinate j's first word is word j of (ctx.round, entity, kTableNoiseFirst),
// generated 128 at a time on the fast path's vectors (quant::fast::StreamWords128); the rare further
// words of chunk h (coordinates [4096·h, 4096·(h + 1))) are read in coordinate order from
// (ctx.round, entity, kTableNoiseSlow) from index h·2^20. Chunks are independent, so `threads`
// (≥ 1) changes the speed, never the output. Throws InvalidArgument for more than 2^27 coordinates
// and std::overflow_error if a chunk needs more than 2^20 further words (probability far below
// 2^−1000: about 0.05 per coordinate are used).
void SampleTableNoise(const TableDiscreteNoise& table, const quant::StreamContext& ctx, std::uint32_t entity,
                      std::span<std::int64_t> out, int threads);

}  // namespace dpfl::fl
