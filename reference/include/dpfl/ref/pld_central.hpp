// dpfl::ref::pld — the central view of the binary mechanisms of seed 000 (LDP-FL, AugCorBin-FL,
// CorBin-FL): what an observer of the aggregate learns about one client, exactly, from privacy
// loss distributions.
//
// Observer and adjacency. The observer sees, per coordinate and round, the sum of all clients'
// binary messages (equivalently the count of "+" levels: the aggregate is n·c + rα·(2·count − n)
// over n, spec 000 §3.3 line 23). That is anyone who sees the global model; the server of this
// protocol only under secure aggregation (without it the server receives every message and the
// local guarantee is all there is). Adjacency: replace one client's update by any other (spec 000
// E25), worst case over every other client's input — never the run's own weights.
//
// Per coordinate (q_lo, q_hi the probabilities of "+" at the two clipping ends, exact: 1/(1+E),
// E/(1+E), or the implemented 64-bit thresholds T/2^64), with s solo (LDPQ) clients:
//  * the target is solo: it sends Bern(q) with q ∈ [q_lo, q_hi]; every other solo client j sends
//    Bern(q_j), q_j ∈ [q_lo, q_hi]; each pair's sum is, in the worst case, constant (CorBinQ pairs
//    with q1 + q2 = 1 and 2^d q1 an integer send exactly one "+": spec 000 §4.2 joint pmf), and
//    adding independent noise can only help (post-processing), so constant pairs are the worst.
//    A Bern(q_j) with q_j inside the range is a mixture of the two ends, and the hockey-stick
//    divergence is jointly convex, so the worst case is at the ends: R_a = Bin(a, q_hi) +
//    Bin(s − 1 − a, q_lo), a = 0 … s − 1, and the target's own input at the ends (the loss is
//    again jointly convex in (q, q')): the pairs (Bern(q_hi) + R_a, Bern(q_lo) + R_a), both ways.
//  * the target is paired: condition on its partner's message (its law does not depend on the
//    target's input): given it, the target's bit is some Bernoulli under each input, a
//    post-processing of (1, 0). So (1 + R'_a, R'_a) with R'_a = Bin(a, q_hi) + Bin(s − a, q_lo),
//    a = 0 … s, both ways, dominates (it is not claimed tight for finite d).
// The per-coordinate dominating pair is the *envelope* of all these pairs (DominatingEnvelope):
// the pair whose hockey-stick curve is the chord interpolation of the pointwise maximum of
// theirs (a convex, decreasing function of e^ε with value 1 at 0, hence a privacy curve),
// computed exactly on rationals. Each candidate pair is Blackwell-dominated by it, so composing
// it over the m coordinates and T rounds (pld.hpp) bounds every combination of worst cases the
// adversary may pick per coordinate and round. With s = 0 (CorBin-FL without solo clients) the
// paired pair is (1, 0): the loss is infinite with probability 1 and no finite ε exists — the
// honest answer for an aggregate of deterministic-sum pairs.
#pragma once

#include "dpfl/ref/pld_mechanisms.hpp"

namespace dpfl::ref::pld {

struct PmfPair {
  std::vector<Rational> p, q;
};

// The pair whose curve H(x) = the chord interpolation, at the union of all breakpoints
// x = p_i/q_i, of max_j δ_j(x), δ_j(x) = Σ_i (p_ji − x q_ji)_+ (x = e^ε ∈ [0, ∞)). Its support is
// one point per breakpoint of H (p = r·Δslope, q = Δslope), a point with p = 0 carrying the
// missing q mass, and a point with q = 0 carrying H(∞). Exact. Names "pairs" (empty, or a pmf
// that does not sum to 1).
PmfPair DominatingEnvelope(const std::vector<PmfPair>& pairs);
// δ_j(x) for a pmf pair at x ≥ 0, exact.
Rational HockeyStick(const PmfPair& pair, const Rational& x);

// The pair quantizer: CorBinQ (corbin-fl, augcorbin-fl; seed 000 Alg. 2) or CoQ with p_x = 1/2
// (coq-fl; seed 001). Only the lower end depends on it (the exact joint pmf of a realisable
// pair); the upper end's paired candidate holds for any pair whose partner's message law does
// not depend on the target's input, which is true of both (their marginals are LDPQ).
enum class PairScheme { kCorBinQ, kCoq };

struct CentralBinarySetting {
  long clients = 0;         // n ≥ 1
  long solo = 0;            // s ∈ [0, n]: LDPQ clients (ldp-fl: n; augcorbin-fl: its solo count; corbin-fl: 0)
  Rational q_lo, q_hi;      // 0 < q_lo ≤ 1/2 ≤ q_hi < 1
  std::uint64_t coordinates = 1;  // m
  std::uint64_t rounds = 1;       // T
  int shared_bits = 0;            // d of CorBinQ (0: unknown; only the lower bound uses it)
  Rational dropout = 0;           // P(a client is absent in a round), in [0, 1); see "Dropout" below
  PairScheme pairs = PairScheme::kCorBinQ;
};

// Every candidate pair above (both directions), before the envelope: the union of
// TargetCandidatePairs(true, s − 1) (if s ≥ 1) and TargetCandidatePairs(false, s) (if n − s ≥ 2).
std::vector<PmfPair> CentralCandidatePairs(const CentralBinarySetting& setting);
// The candidates for one role of the target: solo (`target_solo`) or paired with a present
// partner, next to `other_solo` solo clients (every other client in a pair).
std::vector<PmfPair> TargetCandidatePairs(bool target_solo, long other_solo, const Rational& q_lo, const Rational& q_hi);

// q_lo ≤ 1/(1 + e^ε) and q_hi ≥ e^ε/(1 + e^ε) as dyadic rationals with denominator 2^64 (rounded
// outward from MPFI enclosures): a wider range is a less private mechanism (pld_central.hpp
// above), so the result bounds the intended one, and 64-bit denominators keep the exact
// Poisson-binomial pmfs as small as the implemented thresholds'. Names "eps" (∉ (0, 50]).
struct QuantizedEnds {
  Rational q_lo, q_hi;
};
QuantizedEnds EndsForEpsilon(const Rational& eps);

// The per-coordinate dominating pair above. s ≤ kCentralMaxSolo (exact Poisson-binomial pmfs; the
// envelope costs about s³ exact operations on numbers of s·log2(denominator) bits).
inline constexpr long kCentralMaxSolo = 100;
PmfPair CentralCoordinatePair(const CentralBinarySetting& setting);

// Pairs an adversary can actually realise per coordinate (every other input fixed), whose m·T-fold
// composition therefore bounds the worst-case ε from below:
//  * solo target, the others all at one end (a = 0 and a = s − 1), exactly as above;
//  * paired target with its partner at the centre (q2 = 1/2), every other solo client at q_hi and
//    every other pair at the centre (whose sum is then exactly one "+": checked on the exact
//    joint pmf, else no paired configuration is used), d ∈ [1, 62]: the pair's "+" count from the
//    exact joint pmf (CorBinQ: spec 000 §4.2; CoQ: spec 001 D3), its two roles averaged (the
//    observer of the aggregate does not see roles), plus the solo count. When 2^d (q_hi − 1/2) ≥ 1
//    and 2^d (1/2 − q_lo) ≥ 1 the count is 1 or 2 w.p. 3/2 − q_hi, q_hi − 1/2 against 0 or 1, and
//    its top value is reached only under the first input: an infinite loss with probability
//    (q_hi − 1/2)·q_hi^s per coordinate.
std::vector<PldPair> CentralAchievablePairs(const CentralBinarySetting& setting, const GridOptions& grid);

// D_α of a pmf pair, (1/(α−1)) log Σ_i p_i^α q_i^{1−α}, enclosed; empty when some p_i > 0 = q_i.
std::optional<Enclosure> RenyiDivergence(const PmfPair& pair, const Rational& order, mpfr_prec_t prec = 128);

struct CentralResult {
  // lo from the achievable pairs; hi the smaller of the envelope's PLD upper end and the RDP bound
  // below (both rigorous).
  EpsilonBounds epsilon;
  AccountResult upper;       // the envelope's run
  // RDP composes heterogeneous steps without an envelope: K·max_pairs D_α(pair) at each order
  // (Mironov 2017, Prop. 1, valid for adaptive choices), converted with the improved conversion
  // (accountant.hpp) at the best of kCentralOrders. Empty when some candidate has an infinite loss.
  std::optional<Interval> rdp_upper;
  std::vector<AccountResult> lower;  // one run per achievable pair
  Rational infinite_mass_upper;      // the envelope's per-coordinate P(loss = +∞)
};
// ---- Dropout (spec 000 §3.5; production/include/dpfl/protocol/assignment.hpp) ----------------
// Each client is absent with probability p, independently, every round; a survivor whose partner
// is absent runs LDPQ (solo); the solo set of AugCorBin-FL is drawn uniformly (round(γn) of n),
// before dropout. The observer also sees who took part (the server divides by that number, E31),
// so the round is a mixture with a public label, the pattern (pld.hpp Mixture):
//  * target absent (weight p): nothing about it is released, loss 0;
//  * target present and solo — assigned solo (s/n), or paired with an absent partner — or paired
//    with a present partner; `other_solo` = how many other present clients are solo: assigned-solo
//    survivors (each 1 − p) plus lone survivors of other pairs (each pair 2p(1 − p)).
// Within a round every coordinate sees the same pattern, so the round's PLD is
// Σ_pattern w · (m-fold composition of that pattern's per-coordinate pair), composed over T rounds.
// Upper: the pattern's envelope of TargetCandidatePairs (the worst case over the other clients'
// inputs for that pattern; a sup of a mixture is at most the mixture of sups). More solo clients
// only add independent noise (post-processing), so a pattern may be replaced by one with fewer
// solo clients: `other_solo` is rounded down to kDropoutSoloLevels to bound the exact work, and a
// pattern of weight below 2^-60 is moved to the worst one (paired, no other solo client).
// Lower: one input configuration fixed across rounds and patterns — every other client at the
// centre of its range (q = 1/2: intact pairs of others then send exactly one "+" for d ≥ 1, lone
// survivors and solo clients Bern(1/2)), the target at the two ends; paired with a present partner
// it is the CentralAchievablePairs pair (when d allows it, otherwise loss 0 is used, which is
// dominated by the truth); `other_solo` rounded up to the levels (beyond the last, or weight below
// 2^-60: loss 0).
//
// Many solo clients. Beyond the last level the exact envelope (s³ work) is replaced by a bound
// that costs O(s): a solo client's Bern(q), q ∈ [q_lo, q_hi] = [q_lo, 1 − q_lo], is the mixture
// "a fair coin w.p. 2 q_lo, else Bern(θ)" with θ = (q − q_lo)/(1 − 2q_lo) ∈ [0, 1]. Revealing to the
// observer which bits are coins (K of them, K ~ Bin(L, 2q_lo) for L other solo clients) and the
// sum of the others (a function of the other clients' inputs, independent of the target) only
// helps it, so the pattern's per-coordinate pair is dominated by the public-label mixture over K
// of (Bern(q_hi) + B_K, Bern(q_lo) + B_K) (solo target) or (1 + B_K, B_K) (paired), B_K ~ Bin(K, 1/2),
// each symmetric. Fewer coins is less noise (B_{K+1} = B_K + a coin: post-processing), so K is cut
// to its Hoeffding floor K* (P(K < K*) ≤ 2^−64, that mass put at K = 0), and L to its own Hoeffding
// floor in DropoutPatterns. The lower end uses its Hoeffding ceiling U with every other client at
// the centre (U fair coins: more noise than the count that occurs) — one configuration for every
// pattern, since inputs cannot depend on the schedule; only without pairs and dropout (LDP-FL,
// one pattern) are the others put at q_lo, the configuration with the least noise. Not tight: the coins' variance 2q_lo/4 is below the worst
// configuration's q_lo(1 − q_lo) (at ε_p = 1 the noise is under-stated by a factor 0.68), so the
// upper end is roughly 1.2× the truth there; used when K* ≥ 4·kDropoutExactSolo.
struct DropoutPattern {
  bool present = false, solo = false;
  long other_solo = 0;
  // or_more: "at least other_solo" — either kDropoutExactSolo + 1 (more than the last level, the
  // remainder) or a Hoeffding floor L ≥ kManySoloMin of the count (weight ≤ the true P(≥ L)).
  bool or_more = false;
  Rational weight;       // exact; the weights of DropoutPatterns sum to 1
  long at_most = 0;      // with a Hoeffding floor L: a count the pattern exceeds w.p. ≤ 2^−64 (lower end)
};
inline constexpr long kDropoutSoloLevels[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 24, 32, 48};
inline constexpr long kDropoutExactSolo = 48;  // the last level: larger counts are never needed exactly
inline constexpr long kManySoloMin = 4 * kDropoutExactSolo;  // the smallest "at least L" split off
inline const Rational kManySoloTail = Pow2(-64);                 // the Hoeffding tails' bound
// The per-coordinate dominating pair above for a target (solo or paired) next to `other_solo` solo
// clients: the mixture (1 − 2^−64)·coins pair + 2^−64·no-coin pair. The range is first widened to
// be symmetric about 1/2 (q_lo' = min(q_lo, 1 − q_hi), q_hi' = 1 − q_lo'), which the
// decomposition needs. Names "other_solo", "q_lo", "q_hi".
Pld ManySoloPairPld(bool target_solo, long other_solo, const Rational& q_lo, const Rational& q_hi,
                    const GridOptions& grid);
// Every pattern with positive weight, exact; other_solo beyond kDropoutExactSolo is lumped into at
// most two patterns per role (weights: the exact remainder, split at the Hoeffding floor), so any
// n costs a few big-number products.
std::vector<DropoutPattern> DropoutPatterns(const CentralBinarySetting& setting);

// Orders for the RDP bound: dense near 1, where the optimum lies for many compositions.
std::vector<Rational> CentralOrders();
// ε(δ) of the aggregate over m coordinates and T rounds (m·T compositions); with dropout > 0 the
// mixture above (then rdp_upper is empty and `infinite_mass_upper` is the per-coordinate P(+∞)
// averaged over the patterns).
// `with_lower` = false skips the realisable configurations (epsilon.lo is then 0): for planning.
CentralResult CentralBinaryEpsilon(const CentralBinarySetting& setting, const Rational& delta,
                                   const AccountOptions& options = {}, bool with_lower = true);

}  // namespace dpfl::ref::pld
