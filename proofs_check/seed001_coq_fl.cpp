// dpfl-proofs — seed 001 (CoQ-FL / LDP-FedCR draft): its lemmas, equations, algorithmic claims
// and the [DERIVED] statements of spec 001, checked with exact rationals.
#include <algorithm>
#include <utility>

#include "claims.hpp"
#include "dpfl/ref/coq.hpp"
#include "dpfl/ref/corbin_fl.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "instances.hpp"

namespace dpfl::proofs {
namespace {

using ref::CoqList;
using ref::EvaluateCoq;

// CoQ instances: pair instances with a codebook bias p_x (1/2 mostly; others where the claim is
// about general p_x), d limited to 12 for explicit lists.
template <class Fn>
void ForEachCoqInstance(const CheckOptions& o, bool general_px, Fn&& fn) {
  ForEachPairInstance(o, o.quick ? 6 : 10, [&](const PairInstance& x) {
    fn(x, Q(1, 2));
    if (general_px && x.d <= 6) {
      fn(x, Q(1, 3));
      fn(x, Q(3, 4));
    }
  });
}

std::string DescribeCoq(const PairInstance& x, const Rational& px) { return x.Describe() + " p_x=" + S(px); }

Verdict CheckLemma1(const CheckOptions& o) {
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    if (ref::Ldpq(x.E, x.c, x.r, x.w1).mean != x.w1) s.Violation(x.Describe());
  });
  return s.AsVerdict("E[w*] = w for Eq. (2)");
}

Verdict CheckThm1Ldp(const CheckOptions& o) {
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const auto law = ref::Ldpq(x.E, x.c, x.r, x.w1);
    // Tight: the worst-case ratio over inputs and outputs is exactly e^ε (E25 confirmation).
    if (law.pldp_ratio != x.E) s.Violation(x.Describe() + ": ratio " + S(law.pldp_ratio));
  });
  return s.AsVerdict("max over w, w', outputs of the probability ratio = (α+1)/(α−1) = e^ε exactly");
}

Verdict CheckEq3(const CheckOptions& o) {
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const auto law = ref::Ldpq(x.E, x.c, x.r, x.w1);
    const Rational r2 = x.r * x.r;
    if (!(r2 * (law.alpha * law.alpha - 1) <= law.mse && law.mse <= r2 * law.alpha * law.alpha))
      s.Violation(x.Describe());
  });
  return s.AsVerdict("r²(α²−1) ≤ Var(w*) = α²r² − (w−c)² ≤ r²α²");
}

// Eq. (4): Var(mean) = (1/n²)Σ Var + (2/n²) Σ_{i≠j} Cov as printed (E5) vs Σ_{i<j}.
Verdict CheckEq4(const CheckOptions& o) {
  Search printed, corrected;
  std::mt19937_64 rng(o.seed + 11);
  auto uniform = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  for (int t = 0; t < (o.quick ? 40 : 300); ++t) {
    const long n = 2 * uniform(1, 4);
    const Rational E = 1 + Q(uniform(1, 20), uniform(1, 20)), c(0), r(1);
    const int d = static_cast<int>(uniform(0, 6));
    std::vector<Rational> w;
    for (long i = 0; i < n; ++i) w.push_back(Q(uniform(-8, 8), 8));
    ref::ClientLayout layout;
    for (long i = 0; i + 1 < n; i += 2) layout.pairs.emplace_back(i, i + 1);
    const auto agg = ref::AggregateMse(E, c, r, d, w, layout);  // = Var(mean): unbiased
    Rational var_sum(0), cov_pairs(0);
    for (long i = 0; i < n; ++i) var_sum += ref::Ldpq(E, c, r, w[i]).mse;
    for (const auto& [i, j] : layout.pairs) {
      const auto res = EvaluateCoq(E, c, r, w[i], w[j], d, Q(1, 2), CoqList::kCorrected);
      cov_pairs += res.cov;  // Σ_{i<j} Cov: one term per pair
    }
    const Rational nn(n * n);
    printed.Count();
    if (agg.mse != var_sum / nn + 2 * (2 * cov_pairs) / nn)  // Σ_{i≠j} counts each pair twice
      printed.Violation("n=" + std::to_string(n) + " E=" + S(E) + " d=" + std::to_string(d) + ": Var(mean) = " +
                        S(agg.mse) + " ≠ printed " + S(Rational(var_sum / nn + 4 * cov_pairs / nn)));
    corrected.Count();
    if (agg.mse != var_sum / nn + 2 * cov_pairs / nn) corrected.Violation("n=" + std::to_string(n));
  }
  return CompareVariants(printed, corrected, "Eq. (4) with 2/n² Σ_{i≠j} (printed) vs 2/n² Σ_{i<j} (E5), exact pair covariances");
}

Verdict CheckLemma2(const CheckOptions& o) {
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    const Rational ideal = ref::CoqCovariance(alpha, x.r, ref::IdealPiPlusPlus(PA, PB), PA, PB);
    if (ideal != ref::Lemma2Covariance(alpha, x.c, x.r, x.w1, x.w2)) s.Violation(x.Describe());
    // Dyadic case: Alg. 2 with enough bits reproduces the ideal coupling exactly (d = 40 here).
    const auto res = EvaluateCoq(x.E, x.c, x.r, x.w1, x.w2, 40, Q(1, 2), CoqList::kCorrected);
    if (res.ideal_cov != ideal) s.Violation(x.Describe() + " (ideal column)");
  });
  return s.AsVerdict("Cov of the ideal coupling = −(w_i − w̲)(w_j − w̲) or −(w_i − w̄)(w_j − w̄) (Eq. 5)");
}

Verdict CheckEq6(const CheckOptions& o) {
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    const Rational via_pi = ref::CoqPairSumVariance(alpha, x.r, ref::IdealPiPlusPlus(PA, PB), PA, PB);
    const Rational eq6 = ref::Eq6PairSumVariance(alpha, x.c, x.r, x.w1, x.w2);
    const Rational frac = ref::FractionalPairSumVariance(alpha, x.r, Rational(PA + PB));
    if (via_pi != eq6 || eq6 != frac) s.Violation(x.Describe());
  });
  return s.AsVerdict("Eq. (6) = 4r²α²{S}(1−{S}) = D4 with π++ = max(0, S−1)");
}

Verdict CheckAppendixBTable(const CheckOptions& o) {
  // Appendix B's table, derived from the algorithm: with dyadic marginals P_A, P_B = k/2^d the
  // literal CoQ-FL (Alg. 2, corrected list, p_x = 1/2) has no tie cell, so its joint law,
  // enumerated over the 2^d shared bit vectors (ref::CoqJointBruteForce), is the ideal coupling
  // itself. Its π+- and π-+ are compared with the printed P_A, P_B and with min(P_A, 1 − P_B),
  // min(P_B, 1 − P_A) (E6).
  Search printed, corrected;
  for (int d = 2; d <= (o.quick ? 4 : 6); ++d) {
    const long N = 1L << d;
    for (long a = 0; a <= N; ++a)
      for (long b = 0; b <= N; ++b) {
        const Rational PA = Q(a, N), PB = Q(b, N);
        const auto joint = ref::CoqJointBruteForce<Rational>(Q(1, 2), d, PA, PB, ref::CoqList::kCorrected);
        const std::string where = "d=" + std::to_string(d) + " P_A=" + S(PA) + " P_B=" + S(PB);
        printed.Count();
        if (joint.pm != PA || joint.mp != PB)
          printed.Violation(where + ": enumerated π+- = " + S(joint.pm) + ", π-+ = " + S(joint.mp) + " ≠ (P_A, P_B) (S = " +
                            S(Rational(PA + PB)) + " > 1)");
        corrected.Count();
        if (joint.pm != std::min(PA, Rational(1 - PB)) || joint.mp != std::min(PB, Rational(1 - PA)))
          corrected.Violation(where + ": enumerated π+- = " + S(joint.pm) + ", π-+ = " + S(joint.mp));
      }
  }
  return CompareVariants(printed, corrected,
                         "joint law of the literal algorithm at dyadic marginals (enumerated) vs π+- = P_A, π-+ = P_B "
                         "as printed and min(P_A, 1−P_B), min(P_B, 1−P_A) (E6)");
}

Verdict CheckProbabilityList(const CheckOptions& o) {
  Search printed, corrected;
  ForEachCoqInstance(o, true, [&](const PairInstance& x, const Rational& px) {
    corrected.Count();
    const auto res = EvaluateCoq(x.E, x.c, x.r, x.w1, x.w2, x.d, px, CoqList::kCorrected);
    if (res.marginal_A_plus != res.P_A || res.marginal_B_plus != res.P_B) corrected.Violation(DescribeCoq(x, px));
    printed.Count();
    try {
      const auto lit = EvaluateCoq(x.E, x.c, x.r, x.w1, x.w2, x.d, px, CoqList::kAsPrinted);
      if (lit.marginal_A_plus != lit.P_A || lit.marginal_B_plus != lit.P_B)
        printed.Violation(DescribeCoq(x, px) + ": Alice's marginal " + S(lit.marginal_A_plus) + " ≠ P_A = " + S(lit.P_A));
    } catch (const InvalidArgument& e) {
      printed.Violation(DescribeCoq(x, px) + ": FindIndex undefined with the printed list (" + e.what() + ")");
    }
  });
  return CompareVariants(printed, corrected, "PerturbWeight marginals with the printed (inclusive) ProbabilityList vs the exclusive one (E1)");
}

Verdict CheckMarginalsAllD(const CheckOptions& o) {
  Search s;
  ForEachCoqInstance(o, true, [&](const PairInstance& x, const Rational& px) {
    s.Count();
    const auto res = EvaluateCoq(x.E, x.c, x.r, x.w1, x.w2, x.d, px, CoqList::kCorrected);
    if (res.marginal_A_plus != res.P_A || res.marginal_B_plus != res.P_B || res.mean_A != x.w1 ||
        res.joint.Total() != 1)
      s.Violation(DescribeCoq(x, px));
  });
  return s.AsVerdict("D2: every client's marginal is exactly LDP-FL's (unbiased, same ε per output) for every d, p_x");
}

Verdict CheckJointClosedForm(const CheckOptions& o) {
  Search s;
  ForEachCoqInstance(o, true, [&](const PairInstance& x, const Rational& px) {
    if (x.d > 10) return;
    s.Count();
    const auto res = EvaluateCoq(x.E, x.c, x.r, x.w1, x.w2, x.d, px, CoqList::kCorrected);
    const auto brute = ref::CoqJointBruteForce(px, x.d, res.P_A, res.P_B, CoqList::kCorrected);
    if (brute.pp != res.joint.pp || brute.pm != res.joint.pm || brute.mp != res.joint.mp || brute.mm != res.joint.mm)
      s.Violation(DescribeCoq(x, px));
  });
  return s.AsVerdict("D3 closed-form joint = literal PerturbWeight enumerated over all codewords");
}

Verdict CheckD1EqualsLdpFl(const CheckOptions& o) {
  // The draft: "if d = 1 … it is the same as LDP-FL … no negative correlation".
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const auto res = EvaluateCoq(x.E, x.c, x.r, x.w1, x.w2, 1, Q(1, 2), CoqList::kCorrected);
    if (res.joint.pp != res.P_A * res.P_B)
      s.Violation("d=1 " + DescribeCoq(x, Q(1, 2)) + ": π++ = " + S(res.joint.pp) + " ≠ P_A·P_B = " +
                  S(Rational(res.P_A * res.P_B)));
  });
  Verdict v = s.AsVerdict("joint at d = 1, p_x = 1/2 vs the independent (LDP-FL) product; true at d = 0 only (E14)");
  return v;
}

Verdict CheckFiftyPercentBudget(const CheckOptions& o) {
  // "requires only 50 % of the privacy budget": at ε_cor = ε_ind/2 the correlated scheme's worst
  // case pair variance is at most the independent one's. With E_ind = t², E_cor = t (rational).
  Search s;
  for (long k = 1; k <= (o.quick ? 60 : 400); ++k) {
    s.Count();
    const Rational t = 1 + Q(k, 20);
    const Rational alpha_cor = ref::AlphaFromE(t), alpha_ind = ref::AlphaFromE(Rational(t * t));
    const Rational cor = ref::IdealPairSumVarianceSup(alpha_cor, Q(1));
    const Rational ind = ref::IndependentPairSumVarianceSup(alpha_ind, Q(1));
    if (cor > ind)
      s.Violation("e^ε_ind = " + S(Rational(t * t)) + ", e^ε_cor = " + S(t) + " (half the budget): correlated sup " +
                  S(cor) + " r² > independent sup " + S(ind) + " r²");
  }
  return s.AsVerdict("worst-case pair variance at half the budget ≤ independent at the full budget, e^ε_cor = t, "
                     "e^ε_ind = t², t = 1 + k/20 (E16, D10: the ratio is not a constant 50 %)");
}

Verdict CheckLocalCoinProbability(const CheckOptions& o) {
  // "Each client decides by local randomness only with probability 1/2^(d−1)". Enumerated from
  // the literal algorithm (Alg. 2 l.11–18 with the corrected ProbabilityList, p_x = 1/2): every
  // shared bit vector b ∈ {0,1}^d with its weight, I = ConvertToInteger(b); a client uses its
  // private coin exactly when I = idx (neither I < idx nor I ≥ idx + 1). Per client this is 2^−d;
  // 2^−(d−1) bounds "either client of the pair" (E15), which is checked too.
  Search printed, corrected;
  const Rational px(1, 2);
  for (int d = 1; d <= (o.quick ? 10 : 14); ++d) {
    const std::vector<Rational> list = ref::ProbabilityListCorrected(px, d);
    for (const Rational& P : {Q(1, 3), Q(1, 2), Q(5, 7)}) {
      const auto alice = ref::MakePerturbWeightRule(list, P, +1, ref::CoqList::kCorrected, "wA");
      const auto bob = ref::MakePerturbWeightRule(list, Rational(1 - P / 2), -1, ref::CoqList::kCorrected, "wB");
      Rational p_alice(0), p_either(0);
      std::vector<bool> bits(static_cast<std::size_t>(d));
      for (std::uint64_t z = 0; z < (std::uint64_t{1} << d); ++z) {
        Rational weight(1);
        for (int k = 0; k < d; ++k) {
          bits[static_cast<std::size_t>(k)] = ((z >> k) & 1U) != 0;
          weight *= bits[static_cast<std::size_t>(k)] ? px : Rational(1 - px);
        }
        const Int I = ref::ConvertToInteger(bits);
        if (I == alice.idx) p_alice += weight;
        if (I == alice.idx || I == bob.idx) p_either += weight;
      }
      const std::string where = "d=" + std::to_string(d) + " P_A=" + S(P);
      printed.Count();
      if (p_alice != ref::Pow2(1 - d))
        printed.Violation(where + ": P(Alice uses her coin) = " + S(p_alice) + " ≠ 1/2^(d−1) = " + S(ref::Pow2(1 - d)));
      corrected.Count();
      if (p_alice != ref::Pow2(-d) || p_either > ref::Pow2(1 - d))
        corrected.Violation(where + ": P(Alice) = " + S(p_alice) + ", P(either) = " + S(p_either));
    }
  }
  return CompareVariants(printed, corrected,
                         "coin use enumerated over the shared bits (literal Alg. 2): per client 2^−d, either client of "
                         "the pair ≤ 2^−(d−1); printed 1/2^(d−1) per client (E15)");
}

Verdict CheckBooleanProgram(const CheckOptions&) {
  Search s;
  for (int d = 0; d <= 2; ++d) {
    const int N = 1 << d;
    for (int nA = 0; nA <= N; ++nA)
      for (int nB = 0; nB <= N; ++nB) {
        s.Count();
        const Int opt = ref::BooleanProgramOptimum(d, Int(nA), Int(nB));
        if (ref::BooleanProgramBruteForce(d, nA, nB) != opt || ref::BooleanProgramConstructionValue(d, nA, nB) != opt)
          s.Violation("d=" + std::to_string(d) + " nA=" + std::to_string(nA) + " nB=" + std::to_string(nB));
      }
  }
  return s.AsVerdict("min Y^T Z = 2|n_A + n_B − 2^d| − 2^d (brute force over {−1,1}^(2^d)); Alice-first/Bob-last "
                     "construction attains it");
}

Verdict CheckGapBound(const CheckOptions& o) {
  Search s;
  ForEachCoqInstance(o, true, [&](const PairInstance& x, const Rational& px) {
    s.Count();
    const auto res = EvaluateCoq(x.E, x.c, x.r, x.w1, x.w2, x.d, px, CoqList::kCorrected);
    const ref::CoqCodebook book(px, x.d);
    const Rational delta = ref::CoqGapDelta(res.joint.pp, res.P_A, res.P_B);
    if (delta < 0 || delta > ref::CoqGapDeltaBound(book, res.P_A) ||
        (res.cell_A.k != res.cell_B.k && delta != 0))
      s.Violation(DescribeCoq(x, px) + ": δ = " + S(delta));
  });
  return s.AsVerdict("D5: 0 ≤ π++ − max(0, S−1) ≤ p(k)/4, and 0 unless both clients share the cell");
}

Verdict CheckFiniteDSup(const CheckOptions& o) {
  // D7 [NUMERIC]: for p_x = 1/2 and every d ≥ 1 the grid supremum of the finite-d pair variance
  // equals the ideal supremum.
  Search s;
  const int K = o.quick ? 16 : 40;
  for (const Rational& E : {Q(11, 10), Q(3, 2), Q(2), Q(3)})
    for (int d = 1; d <= (o.quick ? 3 : 6); ++d) {
      const Rational alpha = ref::AlphaFromE(E);
      Rational sup(0);
      for (int i = 0; i <= K; ++i)
        for (int j = 0; j <= K; ++j) {
          s.Count();
          sup = std::max(sup, EvaluateCoq(E, Q(0), Q(1), Q(2 * i - K, K), Q(2 * j - K, K), d, Q(1, 2), CoqList::kCorrected).var_sum);
        }
      const Rational ideal = ref::IdealPairSumVarianceSup(alpha, Q(1));
      if (sup > ideal) s.Violation("E=" + S(E) + " d=" + std::to_string(d) + ": grid sup " + S(sup) + " > ideal " + S(ideal));
    }
  Verdict v = s.AsVerdict("D7 [NUMERIC]: the finite-d grid sup never exceeds the ideal sup r²α² (α ≤ 2) / 4r²(α−1)");
  return v;
}

// Vertex of the parabola through (x_k, y_k), k = 0, 1, 2 (distinct x): −B/(2A) of the
// interpolating A x² + B x + C, from divided differences; A is returned too (A < 0: a maximum).
std::pair<Rational, Rational> ParabolaVertex(const Rational (&x)[3], const Rational (&y)[3]) {
  const Rational d01 = (y[1] - y[0]) / (x[1] - x[0]), d12 = (y[2] - y[1]) / (x[2] - x[1]);
  const Rational A = (d12 - d01) / (x[2] - x[0]);
  const Rational B = d01 - A * (x[0] + x[1]);
  return {Rational(-B / (2 * A)), A};
}

Verdict CheckMaximiserOutside(const CheckOptions&) {
  // §4.6(c) / E11: locate the maximiser of Eq. (6) from the formula's own values, without using
  // where the paper says it is. Eq. (6) is one concave quadratic in E[w] on each side of c; its
  // vertex is found from three exact evaluations per side (ref::Eq6PairSumVariance, c = 0,
  // r = 1). The claim: the vertex's pair sum w_i + w_j = 2 E[w] lies outside the admissible
  // [2c − 2r, 2c + 2r] for large α — exactly iff α > 2 (spec [DERIVED]). Also the admissible sup
  // (§4.6(d)) is attained at the edge w_i = w_j = c ± r when α ≥ 2.
  Search s;
  for (long k = 101; k <= 1000; k += 3) {
    s.Count();
    const Rational E = Q(k, 100), alpha = ref::AlphaFromE(E);
    bool outside = false;
    for (int side : {-1, 1}) {
      const Rational x[3] = {Q(side, 8), Q(side, 4), Q(side, 2)};  // E[w] on this side of c = 0
      Rational y[3];
      for (int t = 0; t < 3; ++t) y[t] = ref::Eq6PairSumVariance(alpha, Q(0), Q(1), x[t], x[t]);
      const auto [vertex, curvature] = ParabolaVertex(x, y);
      if (!(curvature < 0)) s.Violation("E=" + S(E) + ": Eq. (6) is not concave on side " + std::to_string(side));
      const Rational sum = 2 * vertex;  // w_i + w_j at the maximiser
      if (sum * side <= 0) s.Violation("E=" + S(E) + ": the side-" + std::to_string(side) + " vertex " + S(sum) + " is on the wrong side");
      outside = outside || sum > 2 || sum < -2;
    }
    if (outside != (alpha > 2))
      s.Violation("E=" + S(E) + " (α = " + S(alpha) + "): the located maximiser is " + (outside ? "outside" : "inside") +
                  " [2c − 2r, 2c + 2r], the statement says " + (alpha > 2 ? "outside" : "inside"));
    const Rational sup_ideal = ref::IdealPairSumVarianceSup(alpha, Q(1));
    const Rational at_edge = ref::Eq6PairSumVariance(alpha, Q(0), Q(1), Q(1), Q(1));  // w_i = w_j = c + r
    if (alpha >= 2 && at_edge != sup_ideal) s.Violation("E=" + S(E) + ": edge value " + S(at_edge));
  }
  return s.AsVerdict("maximiser of Eq. (6) located from three exact evaluations per side: outside the admissible sums "
                     "iff α > 2 (ε < ln 3); then the sup 4r²(α−1) is at w_i = w_j = c ± r");
}

Verdict CheckRoleSymmetryHalf(const CheckOptions& o) {
  Search s;
  ForEachPairInstance(o, o.quick ? 6 : 10, [&](const PairInstance& x) {
    s.Count();
    const auto a = EvaluateCoq(x.E, x.c, x.r, x.w1, x.w2, x.d, Q(1, 2), CoqList::kCorrected);
    const auto b = EvaluateCoq(x.E, x.c, x.r, x.w2, x.w1, x.d, Q(1, 2), CoqList::kCorrected);
    if (a.joint.pp != b.joint.pp) s.Violation(x.Describe());
  });
  return s.AsVerdict("D6: for p_x = 1/2 swapping the roles leaves π++ unchanged");
}

// D9: the joint view of a pair (both outputs, the partner's weight fixed at the centre) has an
// unbounded likelihood ratio. Decided from the literal PerturbWeight (CoqJointBruteForce): a
// cell possible with w_A at one end of the range and impossible at the other.
Verdict CheckJointViewD9(const CheckOptions&) {
  Search s;
  std::string example;
  for (const Rational& E : {Q(2), Q(3), Q(2719, 1000)})
    for (int d : {1, 2, 5})
      for (const Rational& px : {Q(1, 2), Q(1, 3)}) {
        s.Count();
        const Rational hi = E / (1 + E), lo = 1 / (1 + E), centre(1, 2);
        const auto P = ref::CoqJointBruteForce(px, d, hi, centre, CoqList::kCorrected);
        const auto R = ref::CoqJointBruteForce(px, d, lo, centre, CoqList::kCorrected);
        Rational inf = 0;
        for (const auto& [a, b] : {std::pair{P.pp, R.pp}, std::pair{P.pm, R.pm}, std::pair{P.mp, R.mp}, std::pair{P.mm, R.mm}})
          if ((a == 0) != (b == 0)) inf += a + b;
        if (inf == 0) s.Violation("E=" + S(E) + " d=" + std::to_string(d) + " p_x=" + S(px) + ": every cell is possible "
                                  "under both ends or under neither (finite joint-view loss)");
        else if (example.empty())
          example = "E=" + S(E) + " d=" + std::to_string(d) + " p_x=" + S(px) + ": P(a cell seen under one end only) = " +
                    S(inf);
      }
  return s.AsVerdict("D9: with the partner at the centre, some (U_A, U_B) is possible with w_A at one end and impossible "
                     "at the other, for every E, d, p_x checked (the server sees both outputs: loss +∞); " + example);
}

}  // namespace

void AddSeed001Claims(Catalog& c) {
  const std::string seed = "001";
  c.push_back({"001/Lemma1/unbiased", seed, "E[w_i*] = w_i for the LDP-FL perturbation (Eq. 2)", "spec 001 §4.1", {},
               Status::kPass, CheckLemma1});
  c.push_back({"001/Thm1/eps-ldp", seed, "Eq. (2) is ε-LDP for w ∈ [c − r, c + r]", "spec 001 §4.2", {"E24", "E25"},
               Status::kPass, CheckThm1Ldp});
  c.push_back({"001/Eq3/variance", seed, "r²(α²−1) ≤ Var(w*) ≤ r²α²", "spec 001 §4.3", {}, Status::kPass, CheckEq3});
  c.push_back({"001/Eq4/variance-of-mean", seed, "Var(mean) = (1/n²)Σ Var + (2/n²) Σ_{i≠j} Cov", "spec 001 §4.4",
               {"E5"}, Status::kPassCorrected, CheckEq4});
  c.push_back({"001/Lemma2/covariance", seed, "pair covariance of the coupling is Eq. (5)", "spec 001 §4.5", {"E6", "E7"},
               Status::kPass, CheckLemma2});
  c.push_back({"001/Eq6/pair-sum-variance", seed, "Var(w_i* + w_j*) is Eq. (6)", "spec 001 §4.6", {}, Status::kPass,
               CheckEq6});
  c.push_back({"001/AppB/joint-table", seed, "Appendix B: π+- = P_A, π-+ = P_B", "spec 001 §4.5", {"E6"},
               Status::kPassCorrected, CheckAppendixBTable});
  c.push_back({"001/Alg3/ProbabilityList", seed, "Alg. 2 with Alg. 3's ProbabilityList has the LDP-FL marginals",
               "spec 001 §3.5, §3.6", {"E1", "E2"}, Status::kPassCorrected, CheckProbabilityList});
  c.push_back({"001/D2/marginals", seed, "[DERIVED] corrected CoQ-FL marginals = LDP-FL's for every d and p_x",
               "spec 001 §4.9 D2", {}, Status::kPass, CheckMarginalsAllD});
  c.push_back({"001/D3/joint", seed, "[DERIVED] exact finite-d joint pmf (D3) = literal PerturbWeight",
               "spec 001 §4.9 D3", {}, Status::kPass, CheckJointClosedForm});
  c.push_back({"001/4.8/d1-equals-ldp-fl", seed, "with d = 1 the scheme is the same as LDP-FL (no negative correlation)",
               "spec 001 §4.8", {"E14"}, Status::kFail, CheckD1EqualsLdpFl});
  c.push_back({"001/Contrib/50pct-budget", seed, "the correlated scheme requires only 50 % of the privacy budget",
               "spec 001 §4.9 D10", {"E16"}, Status::kFail, CheckFiftyPercentBudget});
  c.push_back({"001/4.8/local-coin-probability", seed, "each client uses local randomness only w.p. 1/2^(d−1)",
               "spec 001 §4.8", {"E15"}, Status::kPassCorrected, CheckLocalCoinProbability});
  c.push_back({"001/4.7/boolean-program", seed, "minimum overlap of the two-agent program and its construction",
               "spec 001 §4.7", {"E13"}, Status::kPass, CheckBooleanProgram});
  c.push_back({"001/D5/gap", seed, "[DERIVED] finite-d gap to the ideal coupling ≤ p(k)/4", "spec 001 §4.9 D5", {},
               Status::kPass, CheckGapBound});
  c.push_back({"001/D7/finite-d-sup", seed, "[NUMERIC] finite-d worst-case pair variance = ideal worst case (p_x = 1/2)",
               "spec 001 §4.9 D7", {}, Status::kPass, CheckFiniteDSup});
  c.push_back({"001/4.6c/maximiser-outside", seed, "the maximiser of Eq. (6) is outside the admissible range for large α",
               "spec 001 §4.6", {"E11"}, Status::kPass, CheckMaximiserOutside});
  c.push_back({"001/D9/joint-view", seed,
               "[DERIVED] marginal ε-LDP does not extend to whoever sees both outputs of a pair (the server): the "
               "joint view's likelihood ratio is unbounded",
               "spec 001 §4.9 D9, §7 item 15", {"E18"}, Status::kPass, CheckJointViewD9});
  c.push_back({"001/D6/role-symmetry", seed, "[DERIVED] for p_x = 1/2 the joint law is symmetric in the roles",
               "spec 001 §4.9 D6", {}, Status::kPass, CheckRoleSymmetryHalf});
}

}  // namespace dpfl::proofs
