// dpfl-proofs — seed 001 (CoQ-FL / LDP-FedCR draft): its lemmas, equations, algorithmic claims
// and the [DERIVED] statements of spec 001, checked with exact rationals.
//
// Independence of the two sides. The joint law of a pair is computed here from the literal
// PerturbWeight (spec 001 §3.4 Alg. 2 with the §3.6 list, or Alg. 3's list as printed, E1): each
// client's rule comes from FindIndex on the list and ProbGrid (l.9–17), and the law of the shared
// index I is enumerated over the CR bit vectors (§3.7: d i.i.d. Ber(p_x) bits, ConvertToInteger),
// never read off the list. The closed forms of the reference (D3 case table, Eq. 5, Eq. 6) are
// what these enumerations are compared with. With CheckOptions::flip every checker evaluates a
// deliberately wrong formula or a perturbed instance (Claim::flip says which) and must change its
// verdict (issue 20, "checkers with teeth").
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "claims.hpp"
#include "dpfl/ref/coq.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "instances.hpp"
#include "seed001_shared.hpp"

namespace dpfl::proofs {

// ---- literal PerturbWeight, shared with seed001_errata.cpp and seed001_results.cpp ----------

// P(I < i), i = 0..2^d, for the shared index I = ConvertToInteger(b_1..b_d) with the b_k i.i.d.
// Ber(p_x) (§3.7), enumerated over the 2^d bit vectors with their Bernoulli weights. This is the
// CR's own law, independent of any ProbabilityList. Cached per (p_x, d).
const std::vector<Rational>& Seed001CrCdf(const Rational& px, int d) {
  static std::map<std::pair<Rational, int>, std::vector<Rational>> cache;
  auto it = cache.find({px, d});
  if (it != cache.end()) return it->second;
  const std::uint64_t n = std::uint64_t{1} << d;
  std::vector<Rational> mass(static_cast<std::size_t>(n), Rational(0));
  std::vector<bool> bits(static_cast<std::size_t>(d));
  for (std::uint64_t z = 0; z < n; ++z) {
    Rational weight(1);
    for (int k = 0; k < d; ++k) {
      bits[static_cast<std::size_t>(k)] = ((z >> k) & 1U) != 0;
      weight *= bits[static_cast<std::size_t>(k)] ? px : Rational(1 - px);
    }
    mass[ref::ConvertToInteger(bits).convert_to<std::size_t>()] += weight;
  }
  std::vector<Rational> cdf(static_cast<std::size_t>(n + 1), Rational(0));
  for (std::uint64_t i = 0; i < n; ++i) cdf[i + 1] = cdf[i] + mass[i];
  return cache.emplace(std::make_pair(px, d), std::move(cdf)).first->second;
}

// The list both clients use: §3.6 (exclusive prefix sums) or Alg. 3 l.11–18 as printed (E1).
const std::vector<Rational>& Seed001List(const Rational& px, int d, ref::CoqList variant) {
  static std::map<std::tuple<Rational, int, int>, std::vector<Rational>> cache;
  const auto key = std::make_tuple(px, d, variant == ref::CoqList::kCorrected ? 0 : 1);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  std::vector<Rational> list = variant == ref::CoqList::kCorrected ? ref::ProbabilityListCorrected(px, d)
                                                                   : ref::ProbabilityListAsPrinted(px, d);
  return cache.emplace(key, std::move(list)).first->second;
}

// Alg. 3 l.22–24 FindIndex: the i with list[i] ≤ v < list[i+1]. The lists are strictly
// increasing, so a binary search finds the definition's unique i. §3.6 / E2: on the corrected list
// v = 1 gives the last cell. false: no such i (the printed list for v < (1 − p_x)^d, E1).
bool Seed001FindIndex(const std::vector<Rational>& list, const Rational& v, ref::CoqList variant, std::size_t* idx) {
  const auto above = std::upper_bound(list.begin(), list.end(), v);  // first entry > v
  if (above == list.begin()) return false;
  if (above == list.end()) {
    if (variant == ref::CoqList::kCorrected && v == 1) {
      *idx = list.size() - 2;
      return true;
    }
    return false;
  }
  *idx = static_cast<std::size_t>(above - list.begin()) - 1;
  return true;
}

// The joint law of (U_A, U_B) of the literal Alg. 2 for one coordinate: Alice v = P_A, UP = +1;
// Bob v = 1 − P_B, UP = −1 (bob_reflected; false: Bob counts from the start like Alice, v = P_B,
// UP = +1 — a deliberately wrong rule for flips). l.11–17: I < idx → UP; I ≥ idx + coin_cells →
// −UP; otherwise the private coin, UP w.p. ProbGrid (coin_cells = 1 is the algorithm). Each
// client's P(U = +1 | I) is constant between the cut points idx, idx + coin_cells, so the sum over
// I is a sum over segments, each weighted by its mass under the enumerated CR law
// (Seed001CrCdf). Given I the two private coins are independent. nullopt: FindIndex undefined.
std::optional<ref::CoqJoint<Rational>> Seed001LiteralJoint(const Rational& px, int d, const Rational& P_A,
                                                          const Rational& P_B, ref::CoqList variant, int coin_cells,
                                                          bool bob_reflected) {
  const std::vector<Rational>& list = Seed001List(px, d, variant);
  const std::vector<Rational>& G = Seed001CrCdf(px, d);
  struct Rule {
    std::size_t idx = 0;
    Rational grid;
    int up = 1;
  };
  auto make = [&](const Rational& marginal, int up) -> std::optional<Rule> {
    Rule rule;
    rule.up = up;
    const Rational v = up == 1 ? marginal : Rational(1 - marginal);  // l.4–8
    if (!Seed001FindIndex(list, v, variant, &rule.idx)) return std::nullopt;
    rule.grid = (v - list[rule.idx]) / (list[rule.idx + 1] - list[rule.idx]);  // l.16
    return rule;
  };
  const std::optional<Rule> a = make(P_A, +1), b = bob_reflected ? make(P_B, -1) : make(P_B, +1);
  if (!a || !b) return std::nullopt;
  auto plus_given = [&](const Rule& rule, std::size_t i) {
    Rational up_prob;
    if (i < rule.idx) up_prob = 1;
    else if (i >= rule.idx + static_cast<std::size_t>(coin_cells)) up_prob = 0;
    else up_prob = rule.grid;
    return rule.up == 1 ? up_prob : Rational(1 - up_prob);
  };
  const std::size_t n = G.size() - 1;
  std::vector<std::size_t> cuts = {0, n};
  for (std::size_t c : {a->idx, a->idx + coin_cells, b->idx, b->idx + coin_cells})
    if (c > 0 && c < n) cuts.push_back(c);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  ref::CoqJoint<Rational> j{Rational(0), Rational(0), Rational(0), Rational(0)};
  for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
    const Rational w = G[cuts[s + 1]] - G[cuts[s]];
    const Rational pa = plus_given(*a, cuts[s]), pb = plus_given(*b, cuts[s]);
    j.pp += w * pa * pb;
    j.pm += w * pa * (1 - pb);
    j.mp += w * (1 - pa) * pb;
    j.mm += w * (1 - pa) * (1 - pb);
  }
  return j;
}

// The exact law of all n outputs (w_1*, …, w_n*), enumerated over the 2^n sign vectors (n ≤ 10):
// each pair (a, b) of `pairs` (Alice a, Bob b) with the literal CoQ joint at (d, p_x), every other
// client alone with Eq. (2); groups independent (fresh CR per pair, private coins). Outcomes of
// probability 0 are dropped.
std::vector<std::pair<Rational, std::vector<Rational>>> Seed001OutputLaw(
    const Rational& E, const Rational& c, const Rational& r, const std::vector<Rational>& w,
    const std::vector<std::pair<std::size_t, std::size_t>>& pairs, int d, const Rational& px) {
  const Rational alpha = ref::AlphaFromE(E), hi = c + alpha * r, lo = c - alpha * r;
  const std::size_t n = w.size();
  std::vector<int> pair_of(n, -1);
  std::vector<ref::CoqJoint<Rational>> joints;
  for (const auto& [a, b] : pairs) {
    pair_of[a] = pair_of[b] = static_cast<int>(joints.size());
    joints.push_back(*Seed001LiteralJoint(px, d, ref::LdpqProbPlus(alpha, c, r, w[a]), ref::LdpqProbPlus(alpha, c, r, w[b]),
                                          ref::CoqList::kCorrected, 1, true));
  }
  std::vector<std::pair<Rational, std::vector<Rational>>> law;
  for (std::uint64_t z = 0; z < (std::uint64_t{1} << n); ++z) {
    auto plus = [&](std::size_t i) { return ((z >> i) & 1U) != 0; };
    Rational p(1);
    std::vector<Rational> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = plus(i) ? hi : lo;
      if (pair_of[i] < 0) {
        const Rational q = ref::LdpqProbPlus(alpha, c, r, w[i]);
        p *= plus(i) ? q : Rational(1 - q);
      }
    }
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const bool a = plus(pairs[k].first), b = plus(pairs[k].second);
      p *= a ? (b ? joints[k].pp : joints[k].pm) : (b ? joints[k].mp : joints[k].mm);
    }
    if (p != 0) law.emplace_back(p, std::move(out));
  }
  return law;
}

namespace {

using ref::CoqList;
using ref::EvaluateCoq;
using Joint = ref::CoqJoint<Rational>;

using seed001::Literal;  // seed001_shared.hpp

// The ideal coupling M1 (§3.2) from its definition: V ~ U[0, 1); U_A = +1 iff V < P_A, U_B = +1
// iff V ≥ 1 − P_B. Each cell is the length of an intersection of two intervals.
Joint IdealJointM1(const Rational& P_A, const Rational& P_B) {
  auto overlap = [](const Rational& a0, const Rational& a1, const Rational& b0, const Rational& b1) {
    return ref::Max(Rational(0), Rational(ref::Min(a1, b1) - ref::Max(a0, b0)));
  };
  const Rational t = 1 - P_B;
  return Joint{overlap(0, P_A, t, 1), overlap(0, P_A, 0, t), overlap(P_A, 1, t, 1), overlap(P_A, 1, 0, t)};
}

// Moments of (w_A*, w_B*) from a joint law of the signs, outputs c ± αr.
struct PairMoments {
  Rational cov, var_sum;
};
PairMoments MomentsFromJoint(const Joint& j, const Rational& c, const Rational& r, const Rational& alpha) {
  const Rational hi = c + alpha * r, lo = c - alpha * r;
  const Rational ea = (j.pp + j.pm) * hi + (j.mp + j.mm) * lo, eb = (j.pp + j.mp) * hi + (j.pm + j.mm) * lo;
  const Rational eab = j.pp * hi * hi + j.pm * hi * lo + j.mp * lo * hi + j.mm * lo * lo;
  const Rational es2 = j.pp * (2 * hi) * (2 * hi) + (j.pm + j.mp) * (hi + lo) * (hi + lo) + j.mm * (2 * lo) * (2 * lo);
  return {Rational(eab - ea * eb), Rational(es2 - (ea + eb) * (ea + eb))};
}

// CoQ instances: pair instances with a codebook bias p_x (1/2 mostly; others where the claim is
// about general p_x), d limited to 10 for explicit lists.
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
using seed001::DescribeNoD;  // every parameter of a pair except d (seed001_shared.hpp)

Verdict CheckLemma1(const CheckOptions& o) {
  // E[w*] from Eq. (2)'s law: the two levels with their probabilities. Flip: the levels c ± r
  // (the α widening dropped), which is biased towards c.
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const auto law = ref::Ldpq(x.E, x.c, x.r, x.w1);
    const Rational hi = o.flip ? Rational(x.c + x.r) : law.level_plus, lo = o.flip ? Rational(x.c - x.r) : law.level_minus;
    const Rational mean = law.q_plus * hi + law.q_minus * lo;
    if (mean != x.w1) s.Violation(x.Describe() + ": E[w*] = " + S(mean) + " ≠ w = " + S(x.w1));
  });
  return s.AsVerdict("E[w*] = Σ level·P(level) of Eq. (2) = w");
}

Verdict CheckThm1Ldp(const CheckOptions& o) {
  // Every pair of inputs (w, w') of the grid and both outputs: the probability ratio ≤ e^ε; and
  // tight (E25): between c + r and c − r it is exactly e^ε. Flip: the bound e^ε·999/1000.
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational bound = o.flip ? Rational(x.E * Q(999, 1000)) : x.E;
    auto ratio = [&](const Rational& w, const Rational& v) {
      const Rational p = ref::LdpqProbPlus(alpha, x.c, x.r, w), q = ref::LdpqProbPlus(alpha, x.c, x.r, v);
      return ref::Max(Rational(p / q), Rational((1 - p) / (1 - q)));
    };
    const Rational worst = ratio(x.w1, x.w2);
    if (worst > bound) s.Violation(x.Describe() + ": ratio " + S(worst) + " > " + S(bound));
    if (ratio(x.c + x.r, x.c - x.r) != x.E) s.Violation(x.Describe() + ": the ratio at c ± r is not e^ε (not tight)");
  });
  return s.AsVerdict("max over outputs of P(w*|w)/P(w*|w') ≤ e^ε on every input pair; = e^ε at c ± r (tight, E25)");
}

Verdict CheckEq3(const CheckOptions& o) {
  // Var(w*) = E(w* − w)² from Eq. (2)'s law (Ldpq), against α²r² − (w − c)² and the two bounds.
  // Flip: the lower bound r²(α² − 1)·1001/1000, which the ends w = c ± r (on the grid) violate.
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const auto law = ref::Ldpq(x.E, x.c, x.r, x.w1);
    const Rational r2 = x.r * x.r, a2 = law.alpha * law.alpha;
    const Rational lower = r2 * (a2 - 1) * (o.flip ? Q(1001, 1000) : Q(1));
    if (!(lower <= law.mse && law.mse <= r2 * a2) || law.mse != a2 * r2 - (x.w1 - x.c) * (x.w1 - x.c))
      s.Violation(x.Describe() + ": Var(w*) = " + S(law.mse) + " against [" + S(lower) + ", " + S(Rational(r2 * a2)) + "]");
  });
  return s.AsVerdict("r²(α²−1) ≤ Var(w*) = α²r² − (w−c)² ≤ r²α², Var from the law of Eq. (2)");
}

// Eq. (4): Var(mean) = (1/n²)Σ Var + (2/n²) Σ_{i≠j} Cov as printed (E5) vs Σ_{i<j}. The left
// side and every Var_i, Cov_ij come from the exact joint law of all n outputs, enumerated over
// the 2^n sign vectors (pairs (0,1), (2,3), … with the literal CoQ joint, independent across
// pairs). Flip: the corrected coefficient 1/n² for Σ_{i<j} (half the covariance term).
Verdict CheckEq4(const CheckOptions& o) {
  Search printed, corrected;
  std::mt19937_64 rng(o.seed + 11);
  auto uniform = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  for (int t = 0; t < (o.quick ? 30 : 150); ++t) {
    const long n = 2 * uniform(1, 3);
    const Rational E = 1 + Q(uniform(1, 20), uniform(1, 20)), c(0), r(1), alpha = ref::AlphaFromE(E);
    const int d = static_cast<int>(uniform(0, 6));
    std::vector<Rational> w;
    for (long i = 0; i < n; ++i) w.push_back(Q(uniform(-8, 8), 8));
    std::vector<Joint> pair_law;
    for (long i = 0; i < n; i += 2)
      pair_law.push_back(Literal(Q(1, 2), d, ref::LdpqProbPlus(alpha, c, r, w[i]), ref::LdpqProbPlus(alpha, c, r, w[i + 1])));
    std::vector<Rational> m1(n, Rational(0)), var(n);
    std::vector<std::vector<Rational>> m2(n, std::vector<Rational>(n, Rational(0)));
    Rational mean1(0), mean2(0);
    for (long z = 0; z < (1L << n); ++z) {
      Rational p(1);
      std::vector<Rational> out(n);
      for (long k = 0; k < n / 2; ++k) {
        const bool a = (z >> (2 * k)) & 1, b = (z >> (2 * k + 1)) & 1;  // bit set: +1
        const Joint& j = pair_law[static_cast<std::size_t>(k)];
        p *= a ? (b ? j.pp : j.pm) : (b ? j.mp : j.mm);
        out[2 * k] = a ? Rational(c + alpha * r) : Rational(c - alpha * r);
        out[2 * k + 1] = b ? Rational(c + alpha * r) : Rational(c - alpha * r);
      }
      Rational m(0);
      for (long i = 0; i < n; ++i) {
        m += out[i];
        m1[i] += p * out[i];
        for (long k = i; k < n; ++k) m2[i][k] += p * out[i] * out[k];
      }
      m /= n;
      mean1 += p * m;
      mean2 += p * m * m;
    }
    const Rational lhs = mean2 - mean1 * mean1;
    Rational var_sum(0), cov_lt(0);
    for (long i = 0; i < n; ++i) {
      var_sum += m2[i][i] - m1[i] * m1[i];
      for (long k = i + 1; k < n; ++k) cov_lt += m2[i][k] - m1[i] * m1[k];
    }
    const Rational nn(n * n);
    const std::string where = "n=" + std::to_string(n) + " E=" + S(E) + " c=0 r=1 d=" + std::to_string(d) + " p_x=1/2 w=(";
    std::string ws;
    for (long i = 0; i < n; ++i) ws += (i ? "," : "") + S(w[i]);
    printed.Count();
    const Rational as_printed = var_sum / nn + 2 * (2 * cov_lt) / nn;  // Σ_{i≠j} counts each pair twice
    if (lhs != as_printed) printed.Violation(where + ws + "): Var(mean) = " + S(lhs) + " ≠ printed " + S(as_printed));
    corrected.Count();
    const Rational fixed = var_sum / nn + (o.flip ? Q(1) : Q(2)) * cov_lt / nn;
    if (lhs != fixed) corrected.Violation(where + ws + "): Var(mean) = " + S(lhs) + " ≠ " + S(fixed));
  }
  return CompareVariants(printed, corrected,
                         "Var(mean), Var_i and Cov_ij from the enumerated joint law of all n outputs: 2/n² Σ_{i≠j} "
                         "(printed) vs 2/n² Σ_{i<j} (E5)");
}

// Eq. (5) transcribed: −(w_i − w̲)(w_j − w̲) if (w_i + w_j)/2 ≤ c, else −(w_i − w̄)(w_j − w̄).
Rational Eq5(const Rational& alpha, const Rational& c, const Rational& r, const Rational& wi, const Rational& wj,
             bool swap_branches) {
  const bool low_branch = ((wi + wj) / 2 <= c) != swap_branches;
  const Rational level = low_branch ? Rational(c - alpha * r) : Rational(c + alpha * r);
  return -((wi - level) * (wj - level));
}

Verdict CheckLemma2(const CheckOptions& o) {
  // Cov(w_A*, w_B*) of the ideal coupling M1, from its joint table (interval lengths), against
  // Eq. (5); strictly negative (1 < α < ∞). Dyadic case of Alg. 2 (§4.5): where P_A, P_B are
  // multiples of 2^−d (d ≤ 10), the literal algorithm with d bits has the same covariance.
  // Flip: Eq. (5) with its two branches swapped.
  Search s;
  std::uint64_t dyadic = 0;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    const Rational cov = MomentsFromJoint(IdealJointM1(PA, PB), x.c, x.r, alpha).cov;
    const Rational eq5 = Eq5(alpha, x.c, x.r, x.w1, x.w2, o.flip);
    if (cov != eq5) s.Violation(x.Describe() + ": Cov of M1 = " + S(cov) + " ≠ Eq. (5) = " + S(eq5));
    if (!(cov < 0)) s.Violation(x.Describe() + ": Cov = " + S(cov) + " is not negative");
    int d = 0;
    auto dyadic_at = [](const Rational& p, int k) { return boost::multiprecision::denominator(Rational(p * ref::Pow2(k))) == 1; };
    while (d <= 10 && !(dyadic_at(PA, d) && dyadic_at(PB, d))) ++d;
    if (d <= 10) {
      ++dyadic;
      const Rational lit = MomentsFromJoint(Literal(Q(1, 2), d, PA, PB), x.c, x.r, alpha).cov;
      if (lit != eq5) s.Violation(x.Describe() + ": dyadic at d=" + std::to_string(d) + ", literal Cov = " + S(lit) + " ≠ Eq. (5)");
    }
  });
  return s.AsVerdict("Cov from the ideal coupling's joint table = Eq. (5) and < 0; literal Alg. 2 at dyadic marginals (" +
                     std::to_string(dyadic) + " instances) = Eq. (5)");
}

Verdict CheckEq6(const CheckOptions& o) {
  // Var(w_A* + w_B*) of M1 from its joint table (three values of the sum) against Eq. (6)
  // transcribed and the {S}(1 − {S}) form. Flip: Eq. (6)'s factor 4 replaced by 2.
  Search s;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    const Rational var = MomentsFromJoint(IdealJointM1(PA, PB), x.c, x.r, alpha).var_sum;
    const Rational m = (x.w1 + x.w2) / 2;
    const Rational level = m <= x.c ? Rational(x.c - alpha * x.r) : Rational(x.c + alpha * x.r);
    const Rational eq6 = -(o.flip ? 2 : 4) * (m - x.c) * (m - level);
    const Rational frac = ref::FractionalPairSumVariance(alpha, x.r, Rational(PA + PB));
    if (var != eq6 || var != frac)
      s.Violation(x.Describe() + ": Var of M1 = " + S(var) + ", Eq. (6) = " + S(eq6) + ", 4r²α²{S}(1−{S}) = " + S(frac));
  });
  return s.AsVerdict("Var(w_A*+w_B*) from the ideal coupling's joint table = Eq. (6) = 4r²α²{S}(1−{S})");
}

Verdict CheckAppendixBTable(const CheckOptions& o) {
  // Appendix B's table, derived from the algorithm: with dyadic marginals P_A, P_B = k/2^d the
  // literal CoQ-FL (Alg. 2, corrected list, p_x = 1/2) has no tie cell, so its joint law,
  // enumerated over the 2^d shared bit vectors (ref::CoqJointBruteForce), is the ideal coupling
  // itself. Its π+- and π-+ are compared with the printed P_A, P_B and with min(P_A, 1 − P_B),
  // min(P_B, 1 − P_A) (E6). Flip: the corrected entries replaced by the printed ones.
  Search printed, corrected;
  for (int d = 2; d <= (o.quick ? 4 : 6); ++d) {
    const long N = 1L << d;
    for (long a = 0; a <= N; ++a)
      for (long b = 0; b <= N; ++b) {
        const Rational PA = Q(a, N), PB = Q(b, N);
        const auto joint = ref::CoqJointBruteForce<Rational>(Q(1, 2), d, PA, PB, ref::CoqList::kCorrected);
        const std::string where = "d=" + std::to_string(d) + " p_x=1/2 P_A=" + S(PA) + " P_B=" + S(PB);
        printed.Count();
        if (joint.pm != PA || joint.mp != PB)
          printed.Violation(where + ": enumerated π+- = " + S(joint.pm) + ", π-+ = " + S(joint.mp) + " ≠ (P_A, P_B) (S = " +
                            S(Rational(PA + PB)) + " > 1)");
        corrected.Count();
        const Rational pm = o.flip ? PA : ref::Min(PA, Rational(1 - PB)), mp = o.flip ? PB : ref::Min(PB, Rational(1 - PA));
        if (joint.pm != pm || joint.mp != mp)
          corrected.Violation(where + ": enumerated π+- = " + S(joint.pm) + ", π-+ = " + S(joint.mp));
      }
  }
  // The ideal coupling M1 itself (§3.2) at every pair instance (non-dyadic marginals too): its
  // table from the interval lengths of its definition, against the same two forms.
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    const Joint m1 = IdealJointM1(PA, PB);
    const std::string where = "ideal coupling " + DescribeNoD(x) + " (P_A=" + S(PA) + ", P_B=" + S(PB) + ")";
    printed.Count();
    if (m1.pm != PA || m1.mp != PB)
      printed.Violation(where + ": π+- = " + S(m1.pm) + ", π-+ = " + S(m1.mp) + " ≠ (P_A, P_B)");
    corrected.Count();
    const Rational pm = o.flip ? PA : ref::Min(PA, Rational(1 - PB)), mp = o.flip ? PB : ref::Min(PB, Rational(1 - PA));
    if (m1.pm != pm || m1.mp != mp || m1.pp != ref::Max(Rational(0), Rational(PA + PB - 1)) ||
        m1.mm != ref::Max(Rational(0), Rational(1 - PA - PB)))
      corrected.Violation(where + ": table (" + S(m1.pp) + ", " + S(m1.pm) + ", " + S(m1.mp) + ", " + S(m1.mm) + ")");
  });
  return CompareVariants(printed, corrected,
                         "joint law of the literal algorithm at dyadic marginals (enumerated over the CR bits) and of the "
                         "ideal coupling M1 (interval lengths) at every pair instance vs π+- = P_A, π-+ = P_B as printed and "
                         "the §4.5 table max(0, S−1), min(P_A, 1−P_B), min(P_B, 1−P_A), max(0, 1−S) (E6)");
}

Verdict CheckProbabilityList(const CheckOptions& o) {
  // Each client's realised P(U = +1), from the literal joint (enumerated CR law), with Alg. 3's
  // list as printed (E1: inclusive prefix sums; FindIndex undefined below (1 − p_x)^d) and with
  // the §3.6 list. Flip: the corrected side run with the printed list.
  Search printed, corrected;
  ForEachCoqInstance(o, true, [&](const PairInstance& x, const Rational& px) {
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    auto run = [&](Search& s, CoqList list) {
      s.Count();
      const auto j = Seed001LiteralJoint(px, x.d, PA, PB, list, 1, true);
      if (!j)
        s.Violation(DescribeCoq(x, px) + ": FindIndex undefined (P_A = " + S(PA) + " or 1 − P_B = " + S(Rational(1 - PB)) +
                    " below the list's first entry)");
      else if (j->APlus() != PA || j->BPlus() != PB)
        s.Violation(DescribeCoq(x, px) + ": realised P(U_A=+1) = " + S(j->APlus()) + " (P_A = " + S(PA) + "), P(U_B=+1) = " +
                    S(j->BPlus()) + " (P_B = " + S(PB) + ")");
    };
    run(printed, CoqList::kAsPrinted);
    run(corrected, o.flip ? CoqList::kAsPrinted : CoqList::kCorrected);
  });
  // E1's example (spec 001 §6): α = 3, d = 2, printed list: P(+1) ranges over [1/12, 5/12], ratio 5 > e^ε = 2.
  const Rational alpha(3);
  const auto hi = Seed001LiteralJoint(Q(1, 2), 2, ref::LdpqProbPlus(alpha, Q(0), Q(1), Q(1)), Q(1, 2), CoqList::kAsPrinted, 1, true);
  const auto lo = Seed001LiteralJoint(Q(1, 2), 2, ref::LdpqProbPlus(alpha, Q(0), Q(1), Q(-1)), Q(1, 2), CoqList::kAsPrinted, 1, true);
  std::string e1 = "E1 example not computable";
  if (hi && lo) e1 = "E1 example (α=3, d=2, printed list): P(+1) from " + S(lo->APlus()) + " to " + S(hi->APlus()) +
                     ", ratio " + S(Rational(hi->APlus() / lo->APlus())) + " > e^ε = 2";
  return CompareVariants(printed, corrected,
                         "realised marginals of the literal Alg. 2 with the printed (inclusive) ProbabilityList vs the "
                         "exclusive one (E1, E2); " + e1);
}

Verdict CheckMarginalsAllD(const CheckOptions& o) {
  // D2 from the literal algorithm (enumerated CR law): P(U_A=+1) = P_A, P(U_B=+1) = P_B, hence
  // E[w*] = w, and the four cells sum to 1. Flip: Alg. 3's printed list.
  Search s;
  ForEachCoqInstance(o, true, [&](const PairInstance& x, const Rational& px) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    const auto j = Seed001LiteralJoint(px, x.d, PA, PB, o.flip ? CoqList::kAsPrinted : CoqList::kCorrected, 1, true);
    if (!j) {
      s.Violation(DescribeCoq(x, px) + ": FindIndex undefined");
      return;
    }
    const Rational mean_A = x.c + x.r * alpha * (2 * j->APlus() - 1);
    if (j->APlus() != PA || j->BPlus() != PB || mean_A != x.w1 || j->Total() != 1)
      s.Violation(DescribeCoq(x, px) + ": P(U_A=+1) = " + S(j->APlus()) + " vs P_A = " + S(PA) + ", P(U_B=+1) = " +
                  S(j->BPlus()) + " vs P_B = " + S(PB));
  });
  return s.AsVerdict("D2 from the literal Alg. 2: every client's marginal is exactly LDP-FL's (unbiased, same ε per "
                     "output) for every d, p_x");
}

// D3 transcribed from spec 001 §4.9 (cells from the reference codebook): π++ = 0 if k_A < k_B,
// P_A + P_B − 1 if k_A > k_B, (P_A − F(k))(F(k+1) − (1 − P_B))/p(k) if equal. swap: the first
// two cases exchanged (a deliberately wrong table).
Rational D3PiPlusPlus(const Rational& px, int d, const Rational& PA, const Rational& PB, bool swap) {
  const ref::CoqCodebook book(px, d);
  const ref::Int kA = book.FindIndex(PA), kB = book.FindIndex(Rational(1 - PB));
  if (kA != kB) return (kA < kB) != swap ? Rational(0) : Rational(PA + PB - 1);
  return (PA - book.F(kA)) * (book.F(ref::Int(kA + 1)) - (1 - PB)) / book.p(kA);
}

Verdict CheckJointClosedForm(const CheckOptions& o) {
  // D3 (transcribed here, and the reference's CoqJointClosedForm) against the literal algorithm.
  // Flip: the cases k_A < k_B and k_A > k_B swapped in the transcription.
  Search s;
  ForEachCoqInstance(o, true, [&](const PairInstance& x, const Rational& px) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    const Joint lit = Literal(px, x.d, PA, PB);
    const Rational pp = D3PiPlusPlus(px, x.d, PA, PB, o.flip);
    const Joint closed = ref::CoqJointClosedForm(ref::CoqCodebook(px, x.d), PA, PB);
    if (lit.pp != pp || lit.pm != PA - pp || lit.mp != PB - pp || lit.mm != 1 - PA - PB + pp)
      s.Violation(DescribeCoq(x, px) + ": literal π++ = " + S(lit.pp) + ", D3 π++ = " + S(pp));
    if (closed.pp != lit.pp || closed.pm != lit.pm || closed.mp != lit.mp || closed.mm != lit.mm)
      s.Violation(DescribeCoq(x, px) + ": the reference's closed form differs from the literal joint");
  });
  return s.AsVerdict("D3 closed-form joint (all four cells) = literal PerturbWeight with the enumerated CR law");
}

Verdict CheckD1EqualsLdpFl(const CheckOptions& o) {
  // §4.8 item 1 / E14: "if d = 1 … it is the same as LDP-FL … no negative correlation". As
  // printed: the literal joint at d = 1 (p_x = 1/2) against the independent product P_A·P_B
  // (LDP-FL). Corrected (E14): at d = 0 the literal joint is P_A·P_B for every pair; and E14's
  // vector (α = 3, P_A = 17/30, P_B = 8/15) has π++ = 1/10 = max(0, S − 1) at d = 1.
  // Flip: the corrected side evaluated at d = 1.
  Search printed, corrected;
  const int d_fix = o.flip ? 1 : 0;
  ForEachPairInstance(o, 0, [&](const PairInstance& x) {
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    printed.Count();
    const Joint j1 = Literal(Q(1, 2), 1, PA, PB);
    if (j1.pp != PA * PB)
      printed.Violation("d=1 p_x=1/2 " + DescribeNoD(x) + " (P_A=" + S(PA) + ", P_B=" + S(PB) + "): π++ = " + S(j1.pp) +
                        " ≠ P_A·P_B = " + S(Rational(PA * PB)) + " (the LDP-FL value, which d=0 gives)");
    corrected.Count();
    const Joint j0 = Literal(Q(1, 2), d_fix, PA, PB);
    if (j0.pp != PA * PB)
      corrected.Violation("d=" + std::to_string(d_fix) + " " + DescribeNoD(x) + ": π++ = " + S(j0.pp) + " ≠ P_A·P_B");
  });
  corrected.Count();
  const Joint v = Literal(Q(1, 2), 1, Q(17, 30), Q(8, 15));
  if (v.pp != Q(1, 10)) corrected.Violation("E14 vector: π++ = " + S(v.pp) + " ≠ 1/10");
  return CompareVariants(printed, corrected,
                         "literal joint at d = 1 (printed: = LDP-FL's P_A·P_B) and at d = 0 (E14: = P_A·P_B); E14 vector "
                         "α=3, P_A=17/30, P_B=8/15 at d=1: π++ = " + S(v.pp) + " = max(0, S−1)");
}

Verdict CheckFiftyPercentBudget(const CheckOptions& o) {
  // "requires only 50 % of the privacy budget": at ε_cor = ε_ind/2 the correlated scheme's worst
  // case pair variance is at most the independent one's. With E_ind = t², E_cor = t (rational).
  // The two sups are §4.6(d)'s (checked by 001/4.6d/admissible-sup). Flip: the correlated scheme
  // given the full budget (E_cor = t²), where the claim cannot fail.
  Search s;
  for (long k = 1; k <= (o.quick ? 60 : 400); ++k) {
    s.Count();
    const Rational t = 1 + Q(k, 20);
    const Rational alpha_cor = ref::AlphaFromE(o.flip ? Rational(t * t) : t), alpha_ind = ref::AlphaFromE(Rational(t * t));
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
  // §4.8 item 2: "each client decides by local randomness only with probability 1/2^(d−1)".
  // Enumerated from the literal algorithm (Alg. 2 l.9–17, corrected list): the law of
  // I = ConvertToInteger(b) over every CR bit vector b ∈ {0,1}^d with its Bernoulli(p_x) weight
  // (Seed001CrCdf), and for each I the branch the client takes (l.11 I < idx, l.13 I ≥ idx + 1, else the private coin of l.17). At p_x = 1/2
  // the per-client value is the probability of one codeword, 2^−d by the uniform CR law (that
  // part is definitional); what is computed is which branch the literal code takes, the general
  // p_x bound p(k) ≤ max(p_x, 1 − p_x)^d, and P(either client uses its coin) = p(k_A) + p(k_B)
  // (k_A ≠ k_B) or p(k) ≤ 2^−(d−1) at p_x = 1/2 (E15). Flip: l.13's test I ≥ idx + 1 replaced
  // by I ≥ idx + 2 (the coin used on two cells).
  Search printed, corrected;
  const int offset = o.flip ? 2 : 1;
  std::uint64_t either_equal = 0;
  for (const Rational& px : {Q(1, 2), Q(1, 3), Q(3, 4)})
    for (int d = 1; d <= (px == Q(1, 2) ? (o.quick ? 10 : 14) : (o.quick ? 6 : 9)); ++d) {
      const std::vector<Rational>& list = Seed001List(px, d, CoqList::kCorrected);
      const std::vector<Rational>& G = Seed001CrCdf(px, d);  // the CR law, enumerated over b ∈ {0,1}^d
      const Rational pmax = ref::Max(px, Rational(1 - px));
      Rational bound(1);
      for (int k = 0; k < d; ++k) bound *= pmax;
      for (const Rational& PA : {Q(1, 3), Q(1, 2), Q(5, 7)})
        for (const Rational& PB : {Q(1, 3), Q(1, 2), Q(5, 7)}) {
          std::size_t ia = 0, ib = 0;
          Seed001FindIndex(list, PA, CoqList::kCorrected, &ia);
          Seed001FindIndex(list, Rational(1 - PB), CoqList::kCorrected, &ib);
          auto coin = [&](const ref::Int& I, std::size_t idx) {  // neither l.11 nor l.13 applies
            return !(I < ref::Int(idx)) && !(I >= ref::Int(idx + offset));
          };
          Rational p_alice(0), p_bob(0), p_either(0);
          for (std::size_t i = 0; i + 1 < G.size(); ++i) {
            const Rational weight = G[i + 1] - G[i];  // P(I = i), summed over the bit vectors with that I
            const ref::Int I(i);
            const bool a = coin(I, ia), b = coin(I, ib);
            if (a) p_alice += weight;
            if (b) p_bob += weight;
            if (a || b) p_either += weight;
          }
          const std::string where = "d=" + std::to_string(d) + " p_x=" + S(px) + " P_A=" + S(PA) + " P_B=" + S(PB);
          printed.Count();
          if (p_alice != ref::Pow2(1 - d) || p_bob != ref::Pow2(1 - d))
            printed.Violation(where + ": P(Alice uses her coin) = " + S(p_alice) + ", P(Bob) = " + S(p_bob) +
                              " ≠ 1/2^(d−1) = " + S(ref::Pow2(1 - d)));
          corrected.Count();
          const Rational pa_cell = ref::CodewordProbability(px, d, ia), pb_cell = ref::CodewordProbability(px, d, ib);
          const Rational either = ia == ib ? pa_cell : Rational(pa_cell + pb_cell);
          bool ok = p_alice == pa_cell && p_bob == pb_cell && p_alice <= bound && p_bob <= bound && p_either == either;
          if (px == Q(1, 2)) ok = ok && p_alice == ref::Pow2(-d) && p_either <= ref::Pow2(1 - d);
          if (px == Q(1, 2) && ia != ib && p_either == ref::Pow2(1 - d)) ++either_equal;
          if (!ok)
            corrected.Violation(where + ": P(Alice) = " + S(p_alice) + " (p(k_A) = " + S(pa_cell) + "), P(Bob) = " + S(p_bob) +
                                ", P(either) = " + S(p_either) + ", bound max(p_x,1−p_x)^d = " + S(bound));
        }
    }
  return CompareVariants(printed, corrected,
                         "coin use enumerated over the CR bits (literal Alg. 2 branches): per client p(k_own) ≤ "
                         "max(p_x,1−p_x)^d (2^−d at p_x = 1/2, definitional there), either client p(k_A)+p(k_B) or p(k) "
                         "≤ 2^−(d−1) at p_x = 1/2, attained in " + std::to_string(either_equal) +
                         " instances with k_A ≠ k_B; printed 1/2^(d−1) per client (E15)");
}

Verdict CheckBooleanProgram(const CheckOptions& o) {
  // §4.7: min Y^T Z over Y, Z ∈ {−1,1}^{2^d} with n_A, n_B entries +1, by brute force, against
  // 2|n_A + n_B − 2^d| − 2^d (transcribed) and the reference's optimum; the Alice-first /
  // Bob-last construction attains it. Flip: the absolute value dropped from the formula.
  Search s;
  for (int d = 0; d <= (o.quick ? 2 : 3); ++d) {
    const int N = 1 << d;
    for (int nA = 0; nA <= N; ++nA)
      for (int nB = 0; nB <= N; ++nB) {
        s.Count();
        int best = N + 1;
        for (unsigned y = 0; y < (1U << N); ++y) {
          if (std::popcount(y) != nA) continue;
          for (unsigned z = 0; z < (1U << N); ++z) {
            if (std::popcount(z) != nB) continue;
            int dot = 0;
            for (int i = 0; i < N; ++i) dot += (((y >> i) & 1U) ? 1 : -1) * (((z >> i) & 1U) ? 1 : -1);
            best = std::min(best, dot);
          }
        }
        const int excess = nA + nB - N;
        const int formula = 2 * (o.flip ? excess : std::abs(excess)) - N;
        int construction = 0;
        for (int i = 0; i < N; ++i) construction += (i < nA ? 1 : -1) * (i >= N - nB ? 1 : -1);
        if (best != formula || construction != best || ref::BooleanProgramOptimum(d, ref::Int(nA), ref::Int(nB)) != best)
          s.Violation("d=" + std::to_string(d) + " n_A=" + std::to_string(nA) + " n_B=" + std::to_string(nB) +
                      ": brute-force min " + std::to_string(best) + ", formula " + std::to_string(formula) +
                      ", construction " + std::to_string(construction));
      }
  }
  return s.AsVerdict("min Y^T Z = 2|n_A + n_B − 2^d| − 2^d (brute force over {−1,1}^(2^d), d ≤ 3); Alice-first/Bob-last "
                     "construction attains it");
}

Verdict CheckGapBound(const CheckOptions& o) {
  // D5 from the literal joint: δ = π++ − max(0, S − 1) ∈ [0, p(k)/4], δ = 0 unless both clients'
  // FindIndex cells coincide; p(k) is the enumerated CR mass of the cell. Flip: δ measured
  // against the independent π++ = P_A·P_B instead of the ideal (it goes negative).
  Search s;
  ForEachCoqInstance(o, true, [&](const PairInstance& x, const Rational& px) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational PA = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), PB = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    const Joint j = Literal(px, x.d, PA, PB);
    const std::vector<Rational>& list = Seed001List(px, x.d, CoqList::kCorrected);
    const std::vector<Rational>& G = Seed001CrCdf(px, x.d);
    std::size_t ka = 0, kb = 0;
    Seed001FindIndex(list, PA, CoqList::kCorrected, &ka);
    Seed001FindIndex(list, Rational(1 - PB), CoqList::kCorrected, &kb);
    const Rational reference = o.flip ? Rational(PA * PB) : ref::Max(Rational(0), Rational(PA + PB - 1));
    const Rational delta = j.pp - reference, cell = G[ka + 1] - G[ka];
    if (delta < 0 || delta > cell / 4 || (ka != kb && delta != 0))
      s.Violation(DescribeCoq(x, px) + ": δ = " + S(delta) + " (p(k) = " + S(cell) + ", k_A=" + std::to_string(ka) +
                  ", k_B=" + std::to_string(kb) + ")");
  });
  return s.AsVerdict("D5 from the literal joint: 0 ≤ π++ − max(0, S−1) ≤ p(k)/4, and 0 unless both clients share the cell");
}

Verdict CheckFiniteDSup(const CheckOptions& o) {
  // D7 [NUMERIC]: for p_x = 1/2 and every d ≥ 1 the grid supremum of the finite-d pair variance
  // (D3 closed form, checked against the literal algorithm by 001/D3/joint) equals the ideal
  // supremum of §4.6(d). Flip: the ideal supremum times 999/1000.
  Search s;
  const int K = o.quick ? 16 : 40;
  for (const Rational& E : {Q(11, 10), Q(3, 2), Q(2), Q(3), Q(5), Q(20)})
    for (int d = 1; d <= (o.quick ? 3 : 6); ++d) {
      const Rational alpha = ref::AlphaFromE(E);
      // The grid of [−1, 1] plus, for α ≤ 2, the ideal maximisers w = ±α/2 (§4.6(a): {S} = 1/2).
      std::vector<Rational> ws;
      for (int i = 0; i <= K; ++i) ws.push_back(Q(2 * i - K, K));
      if (alpha <= 2) {
        ws.push_back(alpha / 2);
        ws.push_back(-alpha / 2);
      }
      Rational sup(0);
      for (const Rational& wa : ws)
        for (const Rational& wb : ws) {
          s.Count();
          sup = std::max(sup, EvaluateCoq(E, Q(0), Q(1), wa, wb, d, Q(1, 2), CoqList::kCorrected).var_sum);
        }
      const Rational ideal = ref::IdealPairSumVarianceSup(alpha, Q(1)) * (o.flip ? Q(999, 1000) : Q(1));
      if (sup != ideal)
        s.Violation("E=" + S(E) + " d=" + std::to_string(d) + " c=0 r=1 p_x=1/2: grid sup " + S(sup) + " ≠ ideal " + S(ideal));
    }
  return s.AsVerdict("D7 [NUMERIC]: the finite-d grid sup (w on a (K+1)² grid of [c−r, c+r]², K = " + std::to_string(K) +
                     ", plus w = c ± αr/2 when α ≤ 2) equals the ideal sup r²α² (α ≤ 2) / 4r²(α−1) (α ≥ 2)");
}

// Vertex of the parabola through (x_k, y_k), k = 0, 1, 2 (distinct x): −B/(2A) of the
// interpolating A x² + B x + C, from divided differences; A and the value at the vertex too.
struct Vertex {
  Rational x, A, value;
};
Vertex ParabolaVertex(const Rational (&x)[3], const Rational (&y)[3]) {
  const Rational d01 = (y[1] - y[0]) / (x[1] - x[0]), d12 = (y[2] - y[1]) / (x[2] - x[1]);
  const Rational A = (d12 - d01) / (x[2] - x[0]);
  const Rational B = d01 - A * (x[0] + x[1]);
  const Rational C = y[0] - A * x[0] * x[0] - B * x[0];
  const Rational v = -B / (2 * A);
  return {v, A, Rational(A * v * v + B * v + C)};
}

Verdict CheckMaximiserOutside(const CheckOptions& o) {
  // §4.6(c) / E11: locate the maximiser of Eq. (6) from the formula's own values, without using
  // where the paper says it is. On each side of c Eq. (6) is a polynomial in E[w]; three exact
  // evaluations (ref::Eq6PairSumVariance, c = 0, r = 1) give the interpolating parabola, and a
  // fourth evaluation must lie on it (so it is a quadratic); its vertex is the maximiser when the
  // leading coefficient is negative. The vertex's pair sum w_i + w_j = 2E[w] is then compared
  // with the admissible [2c − 2r, 2c + 2r]; the spec says: outside iff α > 2. Also the admissible
  // sup (§4.6(d)) is attained at w_i = w_j = c ± r when α ≥ 2. Flip: the admissible range taken
  // as [2c − r, 2c + r] (half its width).
  Search s;
  std::vector<Rational> Es;
  for (long k = 101; k <= 1000; k += 3) Es.push_back(Q(k, 100));
  Es.push_back(Q(3));  // α = 2 exactly: the vertex is on the boundary (inside)
  const Rational half_width = o.flip ? Q(1) : Q(2);
  for (const Rational& E : Es) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(E);
    bool outside = false;
    for (int side : {-1, 1}) {
      const Rational x[3] = {Q(side, 8), Q(side, 4), Q(side, 2)};  // E[w] on this side of c = 0
      Rational y[3];
      for (int t = 0; t < 3; ++t) y[t] = ref::Eq6PairSumVariance(alpha, Q(0), Q(1), x[t], x[t]);
      const Vertex v = ParabolaVertex(x, y);
      const Rational x4 = Q(3 * side, 4), y4 = ref::Eq6PairSumVariance(alpha, Q(0), Q(1), x4, x4);
      const Rational B = (y[1] - y[0]) / (x[1] - x[0]) - v.A * (x[0] + x[1]), C = y[0] - v.A * x[0] * x[0] - B * x[0];
      if (y4 != v.A * x4 * x4 + B * x4 + C) s.Violation("E=" + S(E) + ": Eq. (6) is not one quadratic on side " + std::to_string(side));
      if (!(v.A < 0)) s.Violation("E=" + S(E) + ": Eq. (6) is not concave on side " + std::to_string(side));
      const Rational sum = 2 * v.x;  // w_i + w_j at the maximiser
      if (sum * side <= 0) s.Violation("E=" + S(E) + ": the side-" + std::to_string(side) + " vertex " + S(sum) + " is on the wrong side");
      outside = outside || sum > half_width || sum < -half_width;
    }
    if (outside != (alpha > 2))
      s.Violation("E=" + S(E) + " (α = " + S(alpha) + ") c=0 r=1: the located maximiser is " + (outside ? "outside" : "inside") +
                  " [2c − " + S(half_width) + "r, 2c + " + S(half_width) + "r], the statement says " + (alpha > 2 ? "outside" : "inside"));
    const Rational sup_ideal = ref::IdealPairSumVarianceSup(alpha, Q(1));
    const Rational at_edge = ref::Eq6PairSumVariance(alpha, Q(0), Q(1), Q(1), Q(1));  // w_i = w_j = c + r
    if (alpha >= 2 && at_edge != sup_ideal) s.Violation("E=" + S(E) + ": edge value " + S(at_edge));
  }
  return s.AsVerdict("maximiser of Eq. (6) located from exact evaluations (vertex of the verified quadratic on each side): "
                     "outside the admissible sums iff α > 2 (ε < ln 3), E = 1.01 … 10 and E = 3; then the sup 4r²(α−1) is "
                     "at w_i = w_j = c ± r");
}

Verdict CheckRoleSymmetryHalf(const CheckOptions& o) {
  // D6: for p_x = 1/2 the literal joint's π++ is unchanged when the clients swap roles. Flip:
  // p_x = 1/3, where the spec says the law is asymmetric.
  Search s;
  const Rational px = o.flip ? Q(1, 3) : Q(1, 2);
  ForEachPairInstance(o, o.quick ? 6 : 10, [&](const PairInstance& x) {
    s.Count();
    const Rational alpha = ref::AlphaFromE(x.E);
    const Rational P1 = ref::LdpqProbPlus(alpha, x.c, x.r, x.w1), P2 = ref::LdpqProbPlus(alpha, x.c, x.r, x.w2);
    const Joint a = Literal(px, x.d, P1, P2), b = Literal(px, x.d, P2, P1);
    if (a.pp != b.pp) s.Violation(x.Describe() + " p_x=" + S(px) + ": π++ = " + S(a.pp) + " vs roles swapped " + S(b.pp));
  });
  return s.AsVerdict("D6: for p_x = 1/2 swapping the roles leaves the literal π++ unchanged");
}

// D9: the joint view of a pair (both outputs, the partner's weight fixed at the centre) has an
// unbounded likelihood ratio. Decided from the literal PerturbWeight (CoqJointBruteForce): a
// cell possible with w_A at one end of the range and impossible at the other. Flip: d = 0
// (independent coins), where every cell is possible under both ends.
Verdict CheckJointViewD9(const CheckOptions& o) {
  Search s;
  std::string example;
  for (const Rational& E : {Q(2), Q(3), Q(2719, 1000)})
    for (int d : {1, 2, 5})
      for (const Rational& px : {Q(1, 2), Q(1, 3)}) {
        s.Count();
        const int dd = o.flip ? 0 : d;
        const Rational hi = E / (1 + E), lo = 1 / (1 + E), centre(1, 2);
        const auto P = ref::CoqJointBruteForce(px, dd, hi, centre, CoqList::kCorrected);
        const auto R = ref::CoqJointBruteForce(px, dd, lo, centre, CoqList::kCorrected);
        Rational inf = 0;
        for (const auto& [a, b] : {std::pair{P.pp, R.pp}, std::pair{P.pm, R.pm}, std::pair{P.mp, R.mp}, std::pair{P.mm, R.mm}})
          if ((a == 0) != (b == 0)) inf += a + b;
        if (inf == 0) s.Violation("E=" + S(E) + " d=" + std::to_string(dd) + " p_x=" + S(px) + ": every cell is possible "
                                  "under both ends or under neither (finite joint-view loss)");
        else if (example.empty())
          example = "E=" + S(E) + " d=" + std::to_string(dd) + " p_x=" + S(px) + ": P(a cell seen under one end only) = " +
                    S(inf);
      }
  return s.AsVerdict("D9: with the partner at the centre, some (U_A, U_B) is possible with w_A at one end and impossible "
                     "at the other, for every E, d, p_x checked (the server sees both outputs: loss +∞); " + example);
}

}  // namespace

void AddSeed001Claims(Catalog& c) {
  const std::string seed = "001";
  c.push_back({"001/Lemma1/unbiased", seed, "E[w_i*] = w_i for the LDP-FL perturbation (Eq. 2)", "spec 001 §4.1", {},
               Status::kPass, CheckLemma1, "the output levels c ± r (α widening dropped)"});
  c.push_back({"001/Thm1/eps-ldp", seed, "Eq. (2) is ε-LDP for w ∈ [c − r, c + r]", "spec 001 §4.2", {"E24", "E25"},
               Status::kPass, CheckThm1Ldp, "the bound e^ε multiplied by 999/1000 (the ratio is tight at c ± r)"});
  c.push_back({"001/Eq3/variance", seed, "r²(α²−1) ≤ Var(w*) ≤ r²α²", "spec 001 §4.3", {}, Status::kPass, CheckEq3,
               "the lower bound multiplied by 1001/1000 (attained at w = c ± r)"});
  c.push_back({"001/Eq4/variance-of-mean", seed, "Var(mean) = (1/n²)Σ Var + (2/n²) Σ_{i≠j} Cov", "spec 001 §4.4",
               {"E5"}, Status::kPassCorrected, CheckEq4, "the corrected coefficient 2/n² replaced by 1/n² for Σ_{i<j}"});
  c.push_back({"001/Lemma2/covariance", seed, "pair covariance of the coupling is Eq. (5)", "spec 001 §4.5", {"E6", "E7"},
               Status::kPass, CheckLemma2, "Eq. (5) with its two branches swapped"});
  c.push_back({"001/Eq6/pair-sum-variance", seed, "Var(w_i* + w_j*) is Eq. (6)", "spec 001 §4.6", {}, Status::kPass,
               CheckEq6, "Eq. (6)'s factor 4 replaced by 2"});
  c.push_back({"001/AppB/joint-table", seed, "Appendix B: π+- = P_A, π-+ = P_B", "spec 001 §4.5", {"E6"},
               Status::kPassCorrected, CheckAppendixBTable, "the corrected entries replaced by the printed P_A, P_B"});
  c.push_back({"001/Alg3/ProbabilityList", seed, "Alg. 2 with Alg. 3's ProbabilityList has the LDP-FL marginals",
               "spec 001 §3.5, §3.6", {"E1", "E2"}, Status::kPassCorrected, CheckProbabilityList,
               "the corrected side run with the printed (inclusive) list"});
  c.push_back({"001/D2/marginals", seed, "[DERIVED] corrected CoQ-FL marginals = LDP-FL's for every d and p_x",
               "spec 001 §4.9 D2", {}, Status::kPass, CheckMarginalsAllD, "Alg. 3's printed list instead of §3.6's"});
  c.push_back({"001/D3/joint", seed, "[DERIVED] exact finite-d joint pmf (D3) = literal PerturbWeight",
               "spec 001 §4.9 D3", {}, Status::kPass, CheckJointClosedForm,
               "the D3 cases k_A < k_B and k_A > k_B swapped"});
  c.push_back({"001/4.8/d1-equals-ldp-fl", seed, "with d = 1 the scheme is the same as LDP-FL (no negative correlation)",
               "spec 001 §4.8 item 1", {"E14"}, Status::kPassCorrected, CheckD1EqualsLdpFl,
               "the corrected side (d = 0) evaluated at d = 1"});
  c.push_back({"001/Contrib/50pct-budget", seed, "the correlated scheme requires only 50 % of the privacy budget",
               "spec 001 §4.9 D10", {"E16"}, Status::kFail, CheckFiftyPercentBudget,
               "the correlated scheme given the full budget (e^ε_cor = t²)"});
  c.push_back({"001/4.8/local-coin-probability", seed, "each client uses local randomness only w.p. 1/2^(d−1)",
               "spec 001 §4.8 item 2", {"E15"}, Status::kPassCorrected, CheckLocalCoinProbability,
               "Alg. 2 l.13's test I ≥ idx + 1 replaced by I ≥ idx + 2 (coin on two cells)"});
  c.push_back({"001/4.7/boolean-program", seed, "minimum overlap of the two-agent program and its construction",
               "spec 001 §4.7", {"E13"}, Status::kPass, CheckBooleanProgram,
               "the absolute value dropped from 2|n_A + n_B − 2^d| − 2^d"});
  c.push_back({"001/D5/gap", seed, "[DERIVED] finite-d gap to the ideal coupling ≤ p(k)/4", "spec 001 §4.9 D5", {},
               Status::kPass, CheckGapBound, "δ measured against the independent π++ = P_A·P_B"});
  c.push_back({"001/D7/finite-d-sup", seed, "[NUMERIC] finite-d worst-case pair variance = ideal worst case (p_x = 1/2)",
               "spec 001 §4.9 D7", {}, Status::kPass, CheckFiniteDSup, "the ideal supremum multiplied by 999/1000"});
  c.push_back({"001/4.6c/maximiser-outside", seed, "the maximiser of Eq. (6) is outside the admissible range for large α",
               "spec 001 §4.6(c)", {"E11"}, Status::kPass, CheckMaximiserOutside,
               "the admissible range of w_i + w_j taken as [2c − r, 2c + r]"});
  c.push_back({"001/D9/joint-view", seed,
               "[DERIVED] marginal ε-LDP does not extend to whoever sees both outputs of a pair (the server): the "
               "joint view's likelihood ratio is unbounded",
               "spec 001 §4.9 D9, §7 item 15", {"E18"}, Status::kPass, CheckJointViewD9,
               "d = 0 (independent coins) instead of d ∈ {1, 2, 5}"});
  c.push_back({"001/D6/role-symmetry", seed, "[DERIVED] for p_x = 1/2 the joint law is symmetric in the roles",
               "spec 001 §4.9 D6", {}, Status::kPass, CheckRoleSymmetryHalf, "p_x = 1/3 instead of 1/2"});
}

}  // namespace dpfl::proofs
