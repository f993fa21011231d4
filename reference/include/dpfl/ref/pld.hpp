// dpfl::ref — privacy loss distributions (PLD) with rigorous two-sided bounds.
//
// The privacy loss of a pair (P, Q) is L = log(dP/dQ)(X), X ~ P, with L = +∞ where Q has no
// mass. Its hockey-stick curve is
//     δ(ε) = H_{e^ε}(P ‖ Q) = E[(1 − e^{ε − L})_+]          (the atom at +∞ counts 1),
// and the PLD of a composition of independent mechanisms is the convolution of their PLDs
// (L adds). For adaptive composition the pairs must be dominating pairs of the mechanisms
// (Zhu, Dong, Wang 2022, Thm 10); every pair built in pld_mechanisms.hpp is one.
//
// Bounds, not estimates. A `Pld` holds two measures on the grid {k·h : k ∈ ℤ} ∪ {+∞}:
//  * upper (pessimistic): every finite loss rounded UP to the grid, every mass over-estimated;
//  * lower (optimistic):  every finite loss rounded DOWN, every mass under-estimated.
// Why this brackets the truth through any number of compositions: f_ε(s) = (1 − e^{ε−s})_+ is
// non-decreasing in s and ≥ 0. Couple the true losses L_i with their roundings ⌈L_i⌉ ≥ L_i ≥ ⌊L_i⌋
// (grid roundings, same probability space): then f_ε(Σ⌊L_i⌋) ≤ f_ε(ΣL_i) ≤ f_ε(Σ⌈L_i⌉) pointwise,
// so the expectations bracket δ(ε) for the composition. Masses enter the convolution and the
// expectation through sums of products of non-negative numbers, which are monotone in every
// mass, so over-estimated masses can only raise the upper curve and under-estimated ones only
// lower the lower curve. Truncation keeps the order: the upper measure moves tail mass up (the
// bottom tail onto the first kept point, the top tail to +∞), the lower measure moves it down
// (the top tail onto the last kept point) or drops it.
//
// Floating point. Masses are doubles; every operation that rounds carries a stated bound:
//  * discretization: masses from MPFI enclosures, rounded up (upper) or down (lower);
//  * convolution: directly (n ≤ kDirectConvolutionMax products per entry) with the error of a
//    non-negative dot product, |fl − exact| ≤ γ_n·exact (Higham 2002, eq. (3.5)); otherwise by a
//    radix-2 FFT whose error is bounded through Higham 2002, Thm 24.2 (see pld_convolution.cpp
//    for the whole chain and the twiddle-factor accuracy it needs). That bound is on the ℓ2 norm
//    E of the error vector, so the errors' total is at most √N·E (Cauchy–Schwarz): the upper
//    measure gets √N·E at +∞, the lower one a deficit of √N·E (plus any negative entries it
//    clamps). Why that is valid through later compositions: every δ is Ψ(μ) = Σ μ_k f(s_k) + μ_∞
//    with 0 ≤ f ≤ 1, linear and monotone in μ, and an unknown non-negative error e of total ≤ η
//    contributes Ψ(e ∗ rest) ≤ η·mass(rest) = Ψ(η·1_{+∞} ∗ rest);
//  * queries: suffix sums and the Horner-type sums Σ m_k e^{−(s_k − s_j)} carry γ_{2n} bounds
//    (non-negative terms), the final log/exp in MPFI.
// So δ_lower(ε) ≤ δ(ε) ≤ δ_upper(ε) and ε_lower(δ) ≤ ε(δ) ≤ ε_upper(δ) hold as mathematical facts,
// with ε(δ) := inf{ε ≥ 0 : δ(ε) ≤ δ}. What the grid step and the tails cost is visible as the
// width of the enclosure, never hidden.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dpfl/ref/enclosure.hpp"

namespace dpfl::ref::pld {

// A measure on {(offset + k)·h : 0 ≤ k < mass.size()} ∪ {+∞}; the step h lives in the Pld.
struct GridMeasure {
  std::int64_t offset = 0;
  std::vector<double> mass;  // finite, ≥ 0
  double infinity = 0;       // mass at +∞
  // Lower measures only: a mass to subtract, times the total mass of whatever is composed with it
  // (the FFT's error, which is bounded in total but not entrywise; see pld_convolution.cpp).
  double deficit = 0;
  double Total() const;      // Σ mass + infinity (rounded to nearest; for display)
};

// The two bounds of one privacy loss distribution on the grid of step h (an exact rational).
struct Pld {
  Rational step;
  GridMeasure upper;  // pessimistic: δ_upper(ε) ≥ δ(ε) for every ε
  GridMeasure lower;  // optimistic:  δ_lower(ε) ≤ δ(ε) for every ε
};

// A neighbouring relation has two directions, (P, Q) = (M(D), M(D')) and (M(D'), M(D)); a
// guarantee must hold for both. `backward` is empty when the pair is symmetric (the two PLDs
// are equal), so it is composed once.
struct PldPair {
  Pld forward;
  std::optional<Pld> backward;
};

// ---- building ------------------------------------------------------------------------------
// Two exact pmfs on a common support: same non-zero length, no negative entry, each summing to 1
// exactly. Names "p" and "q".
void ValidatePmfPair(const std::vector<Rational>& p, const std::vector<Rational>& q);

// The PLD of two exact pmfs on a common finite support (p_i, q_i ≥ 0, each summing to 1):
// loss log(p_i/q_i) enclosed by MPFI, rounded up/down to the grid from the enclosure's upper/lower
// end (valid whether or not the loss sits on a grid point); q_i = 0 < p_i goes to +∞; p_i = 0 is
// dropped. Names "p", "q" (lengths, negatives, sums ≠ 1) and "step" (≤ 0).
Pld FromPmfs(const std::vector<Rational>& p, const std::vector<Rational>& q, const Rational& step,
             mpfr_prec_t prec = 128);

// The same from enclosures of irrational pmfs (p_i, q_i contain the true masses; each list's sum
// must contain 1): the upper measure puts p_i's upper end at log(p_hi/q_lo) rounded up (at +∞ when
// q_i may be 0), the lower measure puts p_i's lower end at log(p_lo/q_hi) rounded down (nothing
// when p_i may be 0; at +∞ when q_i is exactly 0). Names "p", "q" (lengths, a negative upper end,
// a sum that cannot be 1) and "step".
Pld FromPmfEnclosures(const std::vector<Enclosure>& p, const std::vector<Enclosure>& q, const Rational& step,
                      mpfr_prec_t prec = 128);
// A loss law given by its distribution function, for mechanisms with a continuous part.
class LossLaw {
 public:
  virtual ~LossLaw() = default;
  // An enclosure of F(t) = P(L ≤ t) (finite losses only; the atom at +∞ is never ≤ t).
  virtual Enclosure Cdf(const Rational& t, mpfr_prec_t prec) const = 0;
  // An enclosure of P(L = +∞).
  virtual Enclosure InfiniteMass(mpfr_prec_t prec) const { return Enclosure(prec, 0L); }
  // Lower and upper bounds of the masses P(t_i < L ≤ t_{i+1}), t_i = (k0 + i)·h, for i < n.
  // Default: differences of Cdf enclosures.
  struct BinBounds {
    std::vector<double> lo, hi;
  };
  virtual BinBounds BinMasses(std::int64_t k0, std::size_t n, const Rational& step, mpfr_prec_t prec) const;
  // Optional, for the connect-the-dots discretization (FromLossLawConnectDots): the P-masses of the
  // same bins (as BinMasses) and their Q-masses Q(t_i < L ≤ t_{i+1}) (L = log dP/dQ distributed under
  // Q), bounded from below and above. A law that cannot give the Q side returns nothing.
  struct PairBinBounds {
    BinBounds p, q;
  };
  virtual std::optional<PairBinBounds> PairBinMasses(std::int64_t /*k0*/, std::size_t /*n*/, const Rational& /*step*/,
                                                     mpfr_prec_t /*prec*/) const {
    return std::nullopt;
  }
  // A range [lo, hi] outside which the finite loss has mass of order `tail` or less. Only a hint
  // for where to cut: the mass outside is computed from Cdf and accounted for either way.
  virtual std::pair<double, double> Range(double tail) const = 0;
};

// Upper: bin ((k−1)h, kh] → kh, everything ≤ k_min·h → k_min·h, everything above k_max·h
// (including +∞) → +∞. Lower: bin ((k−1)h, kh] → (k−1)h, finite mass above k_max·h → k_max·h,
// mass ≤ k_min·h dropped, +∞ → +∞. k_min, k_max from law.Range(tail).
Pld FromLossLaw(const LossLaw& law, const Rational& step, double tail, mpfr_prec_t prec = 128);
// Connect-the-dots for a loss law with a Q side (pld_connect_dots.cpp; see "connect-the-dots" below
// for why it is valid). Each bin (a, b] = ((k−1)h, kh] is a group of losses in [a, b] with P-mass p and
// Q-mass q. Upper: split into a and b keeping both masses, m_b = (p − e^{a}q)/(1 − e^{−h}),
// m_a = (e^{b}q − p)/(e^{h} − 1), each bounded from above (mass below k_min·h moved up to k_min·h,
// above k_max·h to +∞, as FromLossLaw). Lower: the bins merged into groups whose merged loss is a grid
// point (as for pmf atoms; the finite mass above k_max·h moved down to k_max·h, below k_min·h
// dropped). Error ~h² per composition instead of h. Names "mechanism" (a law without a Q side, or an
// infinite range) and "step".
Pld FromLossLawConnectDots(const LossLaw& law, const Rational& step, double tail, mpfr_prec_t prec = 64);

// ∫_a^{a+w} φ for the standard normal density φ, enclosed: a Taylor expansion of φ at a to order 6
// with the Lagrange remainder bounded by interval evaluation of φ^{(6)} = He_6·φ over [a, a + w]
// (He the probabilists' Hermite polynomials), on sub-intervals of width ≤ 1/32. `phi_a` must
// enclose φ(a) (the caller's recurrence supplies it).
Enclosure NormalMassFrom(const Enclosure& a, const Enclosure& w, const Enclosure& phi_a);

// ---- connect-the-dots discretization (pld_connect_dots.cpp) ---------------------------------
// Rounding every loss to the grid (FromPmfs above) moves the composed loss by up to h per
// composition, so K compositions need h ≈ width/K. The discretizations below move mass only
// in ways whose effect is second order in h, so the same width needs h ≈ √(width/K).
// Why they are valid: write t = e^{−L}. For any finite ε the integrand f_ε(L) = (1 − e^{ε−L})_+ is
// (1 − e^{ε}·t)_+, convex and non-increasing in t; with the other compositions' losses fixed, the
// same holds for c·t, c > 0. So a measure μ' is a valid upper measure for one step if
// H_c(μ') ≥ H_c(μ) for every c > 0, H_c(μ) := ∫ (1 − c·e^{−L})_+ dμ (an atom at +∞ counts 1), and a
// valid lower one if H_c(μ') ≤ H_c(μ) for every c — by conditioning on the other steps, one at a
// time, with non-negative weights, this carries through any number of compositions (also of
// steps that differ, which is what an envelope of candidate pairs needs). Operations that keep it:
//  * upper: split an atom of loss y ∈ [a, b] (grid neighbours) into masses at a and b that keep
//    its P-mass and its Q-mass (e^{−L}-moment): a mean-preserving spread in t (Jensen; for a pmf
//    pair it is the pair of Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022, "connect the dots",
//    whose hockey-stick curve is the chord interpolation of the true one at the grid points);
//    move mass to a larger loss; add mass (also at +∞).
//  * lower: merge atoms (the merged atom's t is the P-weighted mean: Jensen again); move mass to
//    a smaller loss; drop mass. Here consecutive atoms (by loss) are merged into groups whose merged
//    loss is exactly a grid point, taking a fraction of an atom where a group fills up; only the
//    last group is moved down to the grid.
// Errors of order h² per composition: a split moves the mean loss up by at most h²/8 and adds
// variance at most h²/4; a merge is confined to neighbouring grid cells.

// Which discretization a builder uses: kRounding (FromPmfs, FromLossLaw: every loss rounded to the
// grid, error ~K·h after K compositions) or kConnectDots (below, pmf pairs only: ~K·h²).
enum class Discretization { kRounding, kConnectDots };

// A pmf pair's atoms as outward-rounded doubles, prepared once and discretized at any step.
struct PmfAtoms {
  struct Atom {
    double p_lo, p_hi;        // P-mass
    double q_lo, q_hi;        // Q-mass (> 0)
    double loss_lo, loss_hi;  // log(p/q) enclosed
  };
  std::vector<Atom> finite;          // sorted by loss_lo, descending
  double infinity_lo = 0, infinity_hi = 0;  // P-mass where Q has none (loss +∞)
};
// Names "p", "q" (lengths, negatives, sums ≠ 1), as FromPmfs.
PmfAtoms PrepareAtoms(const std::vector<Rational>& p, const std::vector<Rational>& q, mpfr_prec_t prec = 64);
// The same from enclosures of irrational pmfs (as FromPmfEnclosures): an atom's masses are its
// enclosures' ends, its loss log(p/q) enclosed from them; an atom whose Q-mass may be 0 goes to +∞
// on the upper side (P's upper end) and, unless Q is certainly 0, is dropped from the lower side.
PmfAtoms PrepareAtoms(const std::vector<Enclosure>& p, const std::vector<Enclosure>& q, mpfr_prec_t prec = 64);
// Upper: every atom split between the grid points around its loss enclosure; lower: the merge
// above. Names "step" (≤ 0, or a loss range of more than 2^60 grid points).
Pld ConnectDots(const PmfAtoms& atoms, const Rational& step);
// A valid upper measure for *every* candidate at once (pld_central.hpp: the adversary picks one
// candidate per coordinate and round): the measure whose curve H_x interpolates, at the grid points
// x_k = e^{kh}, upper bounds of M(x) = max_j H_x(candidate j) — convex, so the chords lie above
// it — with masses from the interpolant's slope changes, then checked: H_{x_k} of the masses
// actually stored is bounded from below and any shortfall (rounding, at most ~1e-15) is added at
// +∞, as is any shortfall of the total below 1. Validity rests on that check alone. The lower
// measure is candidate `lower_from`'s (any candidate's is below the envelope).
// Names "candidates" (empty, or lower_from out of range) and "step".
// The pair of two independent steps (P1×P2, Q1×Q2): its atoms are the products (losses add). For
// a pair with few atoms far apart (spacing Δ ≫ h) the merge of the lower side costs about h·Δ per
// composition instead of h²; composing the two-step block K/2 times makes the atoms dense.
PmfAtoms ProductAtoms(const PmfAtoms& a, const PmfAtoms& b);
Pld ConnectDotsEnvelope(const std::vector<PmfAtoms>& candidates, const Rational& step, std::size_t lower_from);

// ---- composition ---------------------------------------------------------------------------
struct ComposeOptions {
  // After each convolution, a bottom and a top tail of at most this mass is folded as described
  // above (upper: top tail to +∞, which adds at most `tail` to δ_upper per convolution).
  double tail = 1e-14;
  // FFTs in long double (ConvolveBounds): the FFT's error bound, which the upper side puts at +∞
  // and which adds up over compositions (~K·10⁻¹² in double), shrinks ~2000×.
  bool extended_fft = false;
};

// The PLD of the composition of a and b (same step; InvalidArgument "step" otherwise).
Pld Compose(const Pld& a, const Pld& b, const ComposeOptions& options = {});
// The `times`-fold composition (≥ 1) by binary powering: about 2·log2(times) convolutions.
Pld SelfCompose(const Pld& a, std::uint64_t times, const ComposeOptions& options = {});
PldPair Compose(const PldPair& a, const PldPair& b, const ComposeOptions& options = {});
// The two directions of a pair are composed on two threads.
PldPair SelfCompose(const PldPair& a, std::uint64_t times, const ComposeOptions& options = {});

// A public label J, drawn with P(J = j) = w_j independently of the data, then mechanism j: the
// observer sees (J, Y_J). Its loss is that of part j on {J = j}, so its PLD is Σ_j w_j·PLD_j and
// every δ(ε) — linear in the measure — is Σ_j w_j δ_j(ε). Weights are exact (≥ 0, summing to 1
// exactly: "weights"); they are rounded up into the upper measure and down into the lower one,
// and the sums carry the γ bound of non-negative terms. Parts must share the step ("step").
// Deficits add with the weights rounded up (subtracting more keeps the lower side valid).
Pld Mixture(const std::vector<Rational>& weights, const std::vector<Pld>& parts);
// Forward and backward mixed separately (a symmetric part's forward stands for its backward).
PldPair Mixture(const std::vector<Rational>& weights, const std::vector<PldPair>& parts);
// The PLD of a mechanism that ignores the data (P = Q): one unit of mass at loss 0.
Pld IdentityPld(const Rational& step);

// ---- queries -------------------------------------------------------------------------------
// ε(δ) = inf{ε ≥ 0 : δ(ε) ≤ δ}, enclosed: lo ≤ ε(δ) ≤ hi, both exact dyadic rationals; an empty
// optional means +∞ (the upper measure's atom at +∞ already exceeds δ).
struct EpsilonBounds {
  std::optional<Rational> lo, hi;
};
// δ(ε) enclosed, lo ≤ δ(ε) ≤ hi, exact rationals in [0, 1].
struct DeltaBounds {
  Rational lo, hi;
};

// Names "delta" (∉ (0, 1)).
EpsilonBounds EpsilonForDelta(const Pld& pld, const Rational& delta, mpfr_prec_t prec = 128);
// Names "epsilon" (< 0).
DeltaBounds DeltaForEpsilon(const Pld& pld, const Rational& epsilon, mpfr_prec_t prec = 128);
// The worse of the two directions: [max lo, max hi] encloses the max of the two true values.
EpsilonBounds EpsilonForDelta(const PldPair& pair, const Rational& delta, mpfr_prec_t prec = 128);
DeltaBounds DeltaForEpsilon(const PldPair& pair, const Rational& epsilon, mpfr_prec_t prec = 128);

// ---- convolution (pld_convolution.cpp; exposed for its tests) ------------------------------
inline constexpr std::size_t kDirectConvolutionMax = 64;

struct ConvolutionBounds {
  std::vector<double> upper, lower;  // lengths |a_up| + |b_up| − 1 and |a_lo| + |b_lo| − 1, ≥ 0
  double fft_error = 0;      // E, the bound on the ℓ2 norm of the FFT's error vector (0 if direct)
  double upper_extra = 0;    // η ≥ Σ_k (a_up ∗ b_up − upper)_k^+  (the mass the upper side may miss)
  double lower_deficit = 0;  // ≥ Σ_k (lower − a_lo ∗ b_lo)_k^+    (the mass the lower side may add)
};
// Direct path: upper ≥ a_up ∗ b_up and lower ≤ a_lo ∗ b_lo entrywise (extra = deficit = 0).
// FFT path: upper + (the missing part, total ≤ upper_extra) = a_up ∗ b_up, and lower − (an excess of
// total ≤ lower_deficit) ≤ a_lo ∗ b_lo, entrywise.
// `force_fft` takes the FFT path at any size (for tests).
// `extended`: the FFT in long double (u = 2^−64; about 3× the time, an error bound ~2000× smaller).
ConvolutionBounds ConvolveBounds(const std::vector<double>& a_up, const std::vector<double>& b_up,
                                 const std::vector<double>& a_lo, const std::vector<double>& b_lo,
                                 bool force_fft = false, bool extended = false);

}  // namespace dpfl::ref::pld
