// The central view with dropout (pld_central.hpp "Dropout"): the labelled mixture of PLDs against
// the exact hockey-stick curve of the joint pmf, the pattern law against an enumeration of every
// schedule (solo set, presence), and the enclosure against brute force over every configuration
// of the other clients' inputs, with the schedule law enumerated and CorBinQ's joint pmf taken
// from the literal Alg. 2 (CorBinQJointBruteForce), not from the closed form the lower end uses.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "dpfl/ref/coq.hpp"
#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/pld_central.hpp"

namespace {

using dpfl::ref::Interval;
using dpfl::ref::Rational;
namespace pld = dpfl::ref::pld;

Rational R(const std::string& s) { return dpfl::ref::ParseRational(s, "test"); }

// Exact δ at x = e^ε of a labelled joint law: outcomes (label, value) with P and Q masses.
using Joint = std::map<std::vector<int>, std::pair<Rational, Rational>>;
Rational HockeyStickOf(const Joint& j, const Rational& x, bool forward) {
  Rational d = 0;
  for (const auto& [k, pq] : j) {
    const Rational t = forward ? pq.first - x * pq.second : pq.second - x * pq.first;
    if (t > 0) d += t;
  }
  return d;
}
// e^ε enclosed; `for_upper_bound_of_delta` takes its lower end (δ is decreasing in x).
Rational ExpEnd(const Rational& eps, bool for_upper_bound_of_delta) {
  const Interval e = dpfl::ref::ToInterval(dpfl::ref::ExpQ(128, eps));
  return for_upper_bound_of_delta ? e.lo() : e.hi();
}

TEST(PldMixture, EnclosesTheLabelledJointCurveAlsoAfterComposition) {
  std::mt19937_64 g(7);
  std::uniform_int_distribution<int> u(0, 9);
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<std::vector<Rational>> ps, qs;
    for (int j = 0; j < 3; ++j) {
      for (auto* v : {&ps, &qs}) {
        std::vector<int> w(3);
        int total = 0;
        for (int& x : w) total += (x = u(g) + (v == &qs && trial % 2 == 0 ? 0 : 1));
        if (total == 0) w[0] = total = 1;
        std::vector<Rational> pmf;
        for (int x : w) pmf.push_back(Rational(x, total));
        v->push_back(pmf);
      }
    }
    const std::vector<Rational> weights = {R("1/2"), R("1/3"), R("1/6")};
    const Rational step = R("1/256");
    std::vector<pld::Pld> parts;
    for (int j = 0; j < 3; ++j) parts.push_back(pld::FromPmfs(ps[j], qs[j], step));
    const pld::Pld mixed = pld::Mixture(weights, parts);
    const pld::Pld twice = pld::SelfCompose(mixed, 2);
    Joint one, two;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) one[{j, i}] = {weights[j] * ps[j][i], weights[j] * qs[j][i]};
    for (const auto& [a, pa] : one)
      for (const auto& [b, pb] : one) two[{a[0], a[1], b[0], b[1]}] = {pa.first * pb.first, pa.second * pb.second};
    for (const char* e : {"0", "0.1", "0.5", "1", "2"}) {
      const Rational eps = R(e);
      for (const auto& [pldv, joint] : {std::pair{&mixed, &one}, std::pair{&twice, &two}}) {
        const pld::DeltaBounds b = pld::DeltaForEpsilon(*pldv, eps);
        EXPECT_LE(b.lo, HockeyStickOf(*joint, ExpEnd(eps, false), true)) << "trial " << trial << " eps " << e;
        EXPECT_GE(b.hi, HockeyStickOf(*joint, ExpEnd(eps, true), true)) << "trial " << trial << " eps " << e;
      }
    }
  }
}

TEST(PldMixture, RejectsWeightsThatDoNotSumToOneAndMixedSteps) {
  const pld::Pld a = pld::IdentityPld(R("1/64")), b = pld::IdentityPld(R("1/32"));
  EXPECT_THROW(pld::Mixture({R("1/2"), R("1/3")}, {a, a}), dpfl::InvalidArgument);
  EXPECT_THROW(pld::Mixture({R("3/2"), R("-1/2")}, {a, a}), dpfl::InvalidArgument);
  EXPECT_THROW(pld::Mixture({R("1/2"), R("1/2")}, {a, b}), dpfl::InvalidArgument);
  EXPECT_THROW(pld::Mixture(std::vector<Rational>{}, std::vector<pld::Pld>{}), dpfl::InvalidArgument);
}

// Every schedule of n clients: solo set (each of the C(n, s) subsets), a fixed matching of the
// rest (the pattern does not depend on which), presence of each client. Client 0 is the target.
std::map<std::tuple<bool, bool, long>, Rational> EnumeratePatterns(long n, long s, const Rational& p) {
  std::map<std::tuple<bool, bool, long>, Rational> out;
  long subsets = 0;
  for (long mask = 0; mask < (1L << n); ++mask)
    if (__builtin_popcountl(static_cast<unsigned long>(mask)) == s) ++subsets;
  for (long mask = 0; mask < (1L << n); ++mask) {
    if (__builtin_popcountl(static_cast<unsigned long>(mask)) != s) continue;
    std::vector<long> partner(static_cast<std::size_t>(n), -1), rest;
    for (long i = 0; i < n; ++i)
      if (!(mask >> i & 1)) rest.push_back(i);
    for (std::size_t k = 0; k + 1 < rest.size(); k += 2) {
      partner[static_cast<std::size_t>(rest[k])] = rest[k + 1];
      partner[static_cast<std::size_t>(rest[k + 1])] = rest[k];
    }
    for (long present = 0; present < (1L << n); ++present) {
      Rational w = Rational(1, subsets);
      for (long i = 0; i < n; ++i) w *= (present >> i & 1) ? Rational(1 - p) : p;
      auto solo_now = [&](long i) {
        const long j = partner[static_cast<std::size_t>(i)];
        return j < 0 || !(present >> j & 1);
      };
      if (!(present & 1)) {
        out[{false, false, 0}] += w;
        continue;
      }
      long others = 0;
      for (long i = 1; i < n; ++i) others += (present >> i & 1) && solo_now(i);
      out[{true, solo_now(0), others}] += w;
    }
  }
  return out;
}

TEST(PldCentralDropout, PatternLawMatchesEnumerationOfEverySchedule) {
  for (const auto& [n, s, p] : {std::tuple{6L, 0L, R("1/3")}, std::tuple{5L, 1L, R("1/4")}, std::tuple{7L, 3L, R("2/5")},
                                std::tuple{4L, 4L, R("1/7")}}) {
    pld::CentralBinarySetting st;
    st.clients = n;
    st.solo = s;
    st.dropout = p;
    std::map<std::tuple<bool, bool, long>, Rational> got;
    Rational total = 0;
    for (const pld::DropoutPattern& pt : pld::DropoutPatterns(st)) {
      got[{pt.present, pt.solo, pt.other_solo}] += pt.weight;
      total += pt.weight;
    }
    EXPECT_EQ(total, 1);
    std::map<std::tuple<bool, bool, long>, Rational> want = EnumeratePatterns(n, s, p);
    std::erase_if(want, [](const auto& kv) { return kv.second == 0; });
    EXPECT_EQ(got, want) << "n " << n << " s " << s;
  }
}

// Large n: the law is exact up to kDropoutExactSolo other solo clients and lumped beyond; at
// n = 200 000, p = 1/2 (CorBin-FL), P(present, paired, partner present, no lone survivor among the
// other 99 999 pairs) = (1/2)(1/2)(1/2)^99999 exactly.
TEST(PldCentralDropout, PatternLawAtLargeNIsExactAtTheLowEndAndSumsToOne) {
  pld::CentralBinarySetting st;
  st.clients = 200000;
  st.solo = 0;
  st.dropout = R("1/2");
  const std::vector<pld::DropoutPattern> law = pld::DropoutPatterns(st);
  Rational total = 0;
  int lumped = 0, split = 0;
  for (const pld::DropoutPattern& pt : law) {
    total += pt.weight;
    lumped += pt.or_more;
    if (pt.other_solo > pld::kDropoutExactSolo + 1) {  // the Hoeffding floor of ~N(50 000, 158²)
      ++split;
      EXPECT_TRUE(pt.or_more);
      EXPECT_GT(pt.other_solo, 48000);  // mean 49 999.5, Hoeffding t ≈ 1 491
      EXPECT_LT(pt.other_solo, 50000);
      EXPECT_GT(pt.at_most, 50000);
      EXPECT_LT(pt.at_most, 52000);
    }
    if (pt.present && !pt.solo && pt.other_solo == 0) {
      EXPECT_FALSE(pt.or_more);
      EXPECT_EQ(pt.weight, R("1/4") * dpfl::ref::Pow2(-99999));
    }
  }
  EXPECT_EQ(total, 1);
  EXPECT_EQ(lumped, 4);  // per role: "at least L" and the remainder above the last level
  EXPECT_EQ(split, 2);
  EXPECT_LE(law.size(), static_cast<std::size_t>(2 * (pld::kDropoutExactSolo + 3) + 1));
}

// Brute force over the other clients' inputs for CorBin-FL (n = 4, d = 2) with dropout and
// LDP-FL (n = 3) with dropout: the observer sees the schedule (matching with roles, presence) and
// the per-coordinate "+" counts of m = 2 coordinates, which share the round's schedule.
struct BruteForce {
  long n = 4, solo = 0;
  int d = 2;
  bool coq = false;  // CoQ pairs with p_x = 1/2 (literal PerturbWeight) instead of CorBinQ (literal Alg. 2)
  Rational p, q_lo, q_hi;

  // Per schedule: its probability and, for each present message group, its count law.
  Joint Law(const std::vector<Rational>& q, int coordinates) const {
    Joint out;
    std::vector<std::vector<std::pair<long, long>>> matchings;  // (Q1, Q2) pairs, roles included
    if (solo == n) {
      matchings.push_back({});
    } else {  // n = 4, all paired: 3 matchings × 4 role choices
      for (const auto& m : std::vector<std::vector<std::pair<long, long>>>{{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}})
        for (int roles = 0; roles < 4; ++roles) {
          auto mm = m;
          for (int k = 0; k < 2; ++k)
            if (roles >> k & 1) std::swap(mm[static_cast<std::size_t>(k)].first, mm[static_cast<std::size_t>(k)].second);
          matchings.push_back(mm);
        }
    }
    const Rational w_match = Rational(1, static_cast<long>(matchings.size()));
    for (std::size_t mi = 0; mi < matchings.size(); ++mi)
      for (long present = 0; present < (1L << n); ++present) {
        Rational w = w_match;
        for (long i = 0; i < n; ++i) w *= (present >> i & 1) ? Rational(1 - p) : p;
        // The count law of one coordinate under this schedule.
        std::vector<Rational> law{Rational(1)};
        auto add = [&](const std::vector<Rational>& f) {
          std::vector<Rational> c(law.size() + f.size() - 1, Rational(0));
          for (std::size_t i = 0; i < law.size(); ++i)
            for (std::size_t j = 0; j < f.size(); ++j) c[i + j] += law[i] * f[j];
          law = c;
        };
        std::vector<bool> done(static_cast<std::size_t>(n), false);
        for (const auto& [a, b] : matchings[mi]) {
          const bool pa = present >> a & 1, pb = present >> b & 1;
          if (pa && pb) {
            const Rational& qa = q[static_cast<std::size_t>(a)];
            const Rational& qb = q[static_cast<std::size_t>(b)];
            if (coq) {
              const auto j = dpfl::ref::CoqJointBruteForce(Rational(1, 2), d, qa, qb, dpfl::ref::CoqList::kCorrected);
              add({j.mm, Rational(j.mp + j.pm), j.pp});
            } else {
              const auto j = dpfl::ref::CorBinQJointBruteForce(qa, qb, d, dpfl::ref::Line14::kCorrected);
              add({j.mm, Rational(j.mp + j.pm), j.pp});
            }
          }
          done[static_cast<std::size_t>(a)] = done[static_cast<std::size_t>(b)] = pa && pb;  // lone survivors: solo
        }
        for (long i = 0; i < n; ++i)
          if ((present >> i & 1) && !done[static_cast<std::size_t>(i)])
            add({Rational(1 - q[static_cast<std::size_t>(i)]), q[static_cast<std::size_t>(i)]});
        // m coordinates share the schedule: the joint law is the product of the count laws.
        std::vector<std::pair<std::vector<int>, Rational>> cells{{{static_cast<int>(mi), static_cast<int>(present)}, w}};
        for (int c = 0; c < coordinates; ++c) {
          std::vector<std::pair<std::vector<int>, Rational>> next;
          for (const auto& [key, mass] : cells)
            for (std::size_t v = 0; v < law.size(); ++v) {
              auto k2 = key;
              k2.push_back(static_cast<int>(v));
              next.push_back({k2, mass * law[v]});
            }
          cells = std::move(next);
        }
        for (const auto& [key, mass] : cells) out[key].first += mass;
      }
    return out;
  }
  // The joint of D (target at q_hi) and D' (target at q_lo) for the others' inputs `others`.
  Joint Pair(const std::vector<Rational>& others, int coordinates) const {
    std::vector<Rational> a{q_hi}, b{q_lo};
    a.insert(a.end(), others.begin(), others.end());
    b.insert(b.end(), others.begin(), others.end());
    Joint P = Law(a, coordinates), Q = Law(b, coordinates), out;
    for (const auto& [k, v] : P) out[k].first = v.first;
    for (const auto& [k, v] : Q) out[k].second = v.first;
    return out;
  }
};

// The upper end (when finite) against every configuration with others in {q_lo, 1/2, q_hi}; the
// lower end against the centre configuration it is built from: ε_lo > 0 needs δ_centre(ε_lo) ≥ δ,
// ε_lo = +∞ needs the centre configuration's infinite-loss mass ≥ δ. Returns the result.
pld::CentralResult CheckAgainstBruteForce(const BruteForce& bf, const Rational& delta, int coordinates) {
  pld::CentralBinarySetting s;
  s.clients = bf.n;
  s.solo = bf.solo;
  s.q_lo = bf.q_lo;
  s.q_hi = bf.q_hi;
  s.coordinates = static_cast<std::uint64_t>(coordinates);
  s.rounds = 1;
  s.shared_bits = bf.solo == bf.n ? 0 : bf.d;
  s.dropout = bf.p;
  s.pairs = bf.coq ? pld::PairScheme::kCoq : pld::PairScheme::kCorBinQ;
  const pld::CentralResult r = pld::CentralBinaryEpsilon(s, delta);
  if (r.epsilon.hi) {
    const std::vector<Rational> levels{bf.q_lo, Rational(1, 2), bf.q_hi};
    Rational worst = 0;
    for (int c = 0; c < (bf.n == 3 ? 9 : 27); ++c) {
      std::vector<Rational> others;
      for (int k = 0, v = c; k < bf.n - 1; ++k, v /= 3) others.push_back(levels[static_cast<std::size_t>(v % 3)]);
      const Joint j = bf.Pair(others, coordinates);
      for (bool fwd : {true, false}) worst = dpfl::ref::Max(worst, HockeyStickOf(j, ExpEnd(*r.epsilon.hi, true), fwd));
    }
    EXPECT_LE(worst, delta) << "a configuration violates the certified upper end";
  }
  const Joint centre = bf.Pair(std::vector<Rational>(static_cast<std::size_t>(bf.n - 1), Rational(1, 2)), coordinates);
  if (!r.epsilon.lo) {
    Rational inf_mass = 0;
    for (const auto& [k, pq] : centre) inf_mass = inf_mass + (pq.second == 0 ? pq.first : Rational(0));
    Rational inf_back = 0;
    for (const auto& [k, pq] : centre) inf_back = inf_back + (pq.first == 0 ? pq.second : Rational(0));
    EXPECT_GE(dpfl::ref::Max(inf_mass, inf_back), delta) << "lower end +inf, but the centre configuration's infinite mass is below delta";
  } else if (*r.epsilon.lo > 0) {
    const Rational at_lo = dpfl::ref::Max(HockeyStickOf(centre, ExpEnd(*r.epsilon.lo, false), true),
                                          HockeyStickOf(centre, ExpEnd(*r.epsilon.lo, false), false));
    EXPECT_GE(at_lo, delta) << "the lower end exceeds the centre configuration's epsilon";
  }
  return r;
}

// The brute-force settings of the tests below: ends 1/4 and 3/4 (E = 3), d = 2.
BruteForce Fixture(long n, long solo, const Rational& p, bool coq = false) {
  BruteForce bf;
  bf.n = n;
  bf.solo = solo;
  bf.d = 2;
  bf.coq = coq;
  bf.p = p;
  bf.q_lo = R("1/4");
  bf.q_hi = R("3/4");
  return bf;
}

TEST(PldCentralDropout, CorBinFlEnclosureIsConsistentWithBruteForceOverEveryConfiguration) {
  const BruteForce bf = Fixture(4, 0, R("1/4"));
  // δ = 3/4: a finite upper end (the centre configuration leaks less than that even at ε = 0).
  const pld::CentralResult wide = CheckAgainstBruteForce(bf, R("0.75"), 2);
  EXPECT_TRUE(wide.epsilon.hi);
  // δ = 1/20: the lower end must say something (positive or +∞).
  const pld::CentralResult narrow = CheckAgainstBruteForce(bf, R("0.05"), 2);
  EXPECT_TRUE(!narrow.epsilon.lo || *narrow.epsilon.lo > 0);
}

TEST(PldCentralDropout, CoqFlEnclosureIsConsistentWithBruteForceOverEveryConfiguration) {
  const BruteForce bf = Fixture(4, 0, R("1/4"), true);
  EXPECT_TRUE(CheckAgainstBruteForce(bf, R("0.75"), 2).epsilon.hi);
  const pld::CentralResult narrow = CheckAgainstBruteForce(bf, R("0.05"), 2);
  EXPECT_TRUE(!narrow.epsilon.lo || *narrow.epsilon.lo > 0);
}

// CoQ-FL without dropout: every client paired, a pair at the centre sends exactly one "+", so the
// realisable configuration (target against a partner at the centre) has an infinite loss with
// probability q_hi − 1/2 per coordinate: [inf, inf], the lower end certified.
TEST(PldCentral, CoqFlWithoutSoloClientsHasNoFiniteEpsilon) {
  pld::CentralBinarySetting s;
  s.clients = 4;
  s.solo = 0;
  s.q_lo = R("1/4");
  s.q_hi = R("3/4");
  s.coordinates = 3;
  s.shared_bits = 3;
  s.pairs = pld::PairScheme::kCoq;
  const pld::CentralResult r = pld::CentralBinaryEpsilon(s, R("1e-3"));
  EXPECT_FALSE(r.epsilon.hi);
  EXPECT_FALSE(r.epsilon.lo);
  ASSERT_EQ(r.lower.size(), 1u);
  EXPECT_FALSE(r.lower[0].epsilon.lo) << "the realisable CoQ pair must certify +inf";
}

TEST(PldCentralDropout, LdpFlEnclosureIsConsistentWithBruteForceOverEveryConfiguration) {
  const BruteForce bf = Fixture(3, 3, R("1/3"));
  const pld::CentralResult r = CheckAgainstBruteForce(bf, R("0.05"), 2);
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi);
  EXPECT_GT(*r.epsilon.lo, 0);
}

// CorBin-FL at n = 10 with p = 1/10: with probability (1 − p)^2 (1 − 2p(1 − p))^4 ≈ 0.32 a round has
// the target paired and no solo client at all, and then every coordinate's loss is +∞ in the worst
// case; lone survivors do not remove that, so no finite ε exists at δ = 1e-5, as without dropout.
TEST(PldCentralDropout, CorBinFlAtTenClientsWithDropoutHasNoFiniteEpsilon) {
  pld::CentralBinarySetting s;
  s.clients = 10;
  s.solo = 0;
  const pld::QuantizedEnds ends = pld::EndsForEpsilon(R("2"));
  s.q_lo = ends.q_lo;
  s.q_hi = ends.q_hi;
  s.coordinates = 100;
  s.rounds = 2;
  s.shared_bits = 5;
  s.dropout = R("1/10");
  const pld::CentralResult r = pld::CentralBinaryEpsilon(s, R("1e-5"));
  EXPECT_FALSE(r.epsilon.hi);
  EXPECT_FALSE(r.epsilon.lo);
  EXPECT_GT(r.infinite_mass_upper, R("0.3"));
}

TEST(PldCentralDropout, BadDropoutIsNamed) {
  pld::CentralBinarySetting s;
  s.clients = 4;
  s.solo = 4;
  s.q_lo = R("1/4");
  s.q_hi = R("3/4");
  for (const char* p : {"-0.1", "1", "2"}) {
    s.dropout = R(p);
    try {
      pld::CentralBinaryEpsilon(s, R("1e-5"));
      ADD_FAILURE() << "dropout " << p << " accepted";
    } catch (const dpfl::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("dropout"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
