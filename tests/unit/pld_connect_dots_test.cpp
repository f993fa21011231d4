// Connect-the-dots discretization (reference/include/dpfl/ref/pld.hpp, pld_connect_dots.cpp)
// against exact arithmetic: the hockey-stick curve H_x of every measure it builds, evaluated here
// in MPFI at 128 bits from the stored doubles, must lie above (upper measure) or below (lower
// measure) the exact curve of the pmf pair, itself a sum of exact rationals; after composition, δ(ε)
// of the composed measures must bracket δ(ε) of the composed pair computed by brute force over the
// product space (every choice of candidate per step, for the envelope). A failure below is a
// certain violation: a check fails only when the enclosure of the computed side lies entirely on
// the wrong side of the exact value.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "dpfl/ref/discrete_noise.hpp"
#include "dpfl/ref/pld_central.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"

namespace {

using dpfl::ref::Enclosure;
using dpfl::ref::Interval;
using dpfl::ref::Rational;
namespace pld = dpfl::ref::pld;

Rational R(const std::string& s) { return dpfl::ref::ParseRational(s, "test"); }

std::vector<Rational> RandomPmf(std::mt19937_64& g, std::size_t n, int zero_weight) {
  std::uniform_int_distribution<int> u(0, 12);
  std::vector<int> w(n);
  int total = 0;
  for (int& x : w) {
    x = u(g);
    if (x < zero_weight) x = 0;
    total += x;
  }
  if (total == 0) {
    w[0] = 1;
    total = 1;
  }
  std::vector<Rational> p;
  for (int x : w) p.push_back(Rational(x, total));
  return p;
}

// Exact H_x = Σ (p_i − x q_i)_+ for rational x ≥ 0 (an atom with q = 0 counts p).
Rational ExactH(const pld::PmfPair& pair, const Rational& x) { return pld::HockeyStick(pair, x); }

// H_x of a grid measure, enclosed: Σ_k m_k (1 − x e^{−(offset+k)h})_+ + m_∞ (− deficit).
Interval MeasureH(const pld::GridMeasure& m, const Rational& step, const Rational& x) {
  const mpfr_prec_t prec = 128;
  Enclosure sum(prec, Rational(m.infinity) - Rational(m.deficit));
  for (std::size_t k = 0; k < m.mass.size(); ++k) {
    if (m.mass[k] == 0) continue;
    const Rational loss = step * (m.offset + static_cast<std::int64_t>(k));
    const Enclosure f = Enclosure(prec, 1L) - x * Exp(-Enclosure(prec, loss));
    if (dpfl::ref::CertainlyNonPositive(f)) continue;
    const Enclosure pos = dpfl::ref::CertainlyNonNegative(f) ? f : dpfl::ref::Hull(Enclosure(prec, 0L), f);
    sum = sum + Rational(m.mass[k]) * pos;
  }
  return dpfl::ref::ToInterval(sum);
}

// Points x = e^ε to test at: 0, every breakpoint of the pair and of the grid near them (their
// rational neighbours), and points in between.
std::vector<Rational> TestPoints(const std::vector<pld::PmfPair>& pairs, const Rational& step) {
  std::vector<Rational> xs = {R("0"), R("1/1000"), R("1/2"), R("1"), R("2"), R("1000")};
  for (const auto& pr : pairs)
    for (std::size_t i = 0; i < pr.p.size(); ++i)
      if (pr.p[i] > 0 && pr.q[i] > 0) {
        const Rational r = pr.p[i] / pr.q[i];
        for (const char* f : {"1", "1.001", "0.999", "1.05", "0.95"}) xs.push_back(r * R(f));
      }
  for (int k = -40; k <= 40; ++k) {  // grid points e^{kh}, enclosed by rationals on both sides
    const Interval e = dpfl::ref::ToInterval(dpfl::ref::ExpQ(128, step * k));
    xs.push_back(e.lo());
    xs.push_back(e.hi());
  }
  return xs;
}

void ExpectBracket(const pld::Pld& d, const pld::PmfPair& pair, const std::vector<Rational>& xs,
                   const std::string& what) {
  for (const Rational& x : xs) {
    const Rational exact = ExactH(pair, x);
    const Interval up = MeasureH(d.upper, d.step, x), lo = MeasureH(d.lower, d.step, x);
    EXPECT_FALSE(up.hi() < exact) << what << ": upper curve below the exact one at x = " << x;
    EXPECT_FALSE(lo.lo() > exact) << what << ": lower curve above the exact one at x = " << x;
  }
}

TEST(PldConnectDots, EachStepBracketsTheExactCurveOfRandomPairs) {
  std::mt19937_64 g(20261129);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 2 + trial % 6;
    pld::PmfPair pair{RandomPmf(g, n, trial % 3), RandomPmf(g, n, trial % 4 == 0 ? 3 : 0)};
    const Rational step = trial % 2 ? R("1/64") : Rational(1, 3 + trial % 7);
    const pld::PmfAtoms atoms = pld::PrepareAtoms(pair.p, pair.q);
    ExpectBracket(pld::ConnectDots(atoms, step), pair, TestPoints({pair}, step), "trial " + std::to_string(trial));
  }
}

// The two-step block: its curve is that of the product pair (P1×P2, Q1×Q2), exact here.
TEST(PldConnectDots, ProductAtomsBracketTheProductPair) {
  std::mt19937_64 g(7);
  for (int trial = 0; trial < 12; ++trial) {
    const std::size_t n = 2 + trial % 4;
    pld::PmfPair a{RandomPmf(g, n, trial % 3), RandomPmf(g, n, trial % 2 ? 4 : 0)};
    pld::PmfPair prod;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        prod.p.push_back(a.p[i] * a.p[j]);
        prod.q.push_back(a.q[i] * a.q[j]);
      }
    const pld::PmfAtoms atoms = pld::PrepareAtoms(a.p, a.q);
    const Rational step = R("1/16");
    ExpectBracket(pld::ConnectDots(pld::ProductAtoms(atoms, atoms), step), prod, TestPoints({prod}, step),
                  "product trial " + std::to_string(trial));
  }
}

TEST(PldConnectDots, EnvelopeDominatesEveryCandidateEverywhere) {
  std::mt19937_64 g(11);
  for (int trial = 0; trial < 15; ++trial) {
    std::vector<pld::PmfPair> cands;
    std::vector<pld::PmfAtoms> atoms;
    const std::size_t n = 2 + trial % 5;
    for (int c = 0; c < 2 + trial % 4; ++c) {
      cands.push_back({RandomPmf(g, n, c % 2), RandomPmf(g, n, trial % 5 == 0 ? 3 : 0)});
      atoms.push_back(pld::PrepareAtoms(cands.back().p, cands.back().q));
    }
    const Rational step = trial % 2 ? R("1/32") : R("1/5");
    const pld::Pld env = pld::ConnectDotsEnvelope(atoms, step, static_cast<std::size_t>(trial) % atoms.size());
    for (const Rational& x : TestPoints(cands, step)) {
      Rational worst = 0;
      for (const auto& c : cands) worst = dpfl::ref::Max(worst, ExactH(c, x));
      EXPECT_FALSE(MeasureH(env.upper, step, x).hi() < worst) << "trial " << trial << ": envelope below a candidate at x = " << x;
      const Rational own = ExactH(cands[static_cast<std::size_t>(trial) % cands.size()], x);
      EXPECT_FALSE(MeasureH(env.lower, step, x).lo() > own) << "trial " << trial << ": lower above its candidate at x = " << x;
    }
  }
}

// δ(ε) of a K-step composition where the adversary picks, at each step, one of the candidates:
// brute force over every choice sequence and the product space, exact in e^ε enclosed (the low
// end of e^ε gives an upper bound of δ, the high end a lower bound).
Rational BruteDelta(const std::vector<pld::PmfPair>& cands, int K, const Rational& x, std::vector<std::size_t>& choice) {
  if (static_cast<int>(choice.size()) == K) {
    // product space of the chosen candidates
    std::vector<std::pair<Rational, Rational>> cells{{Rational(1), Rational(1)}};
    for (std::size_t c : choice) {
      std::vector<std::pair<Rational, Rational>> next;
      for (const auto& [p, q] : cells)
        for (std::size_t i = 0; i < cands[c].p.size(); ++i) next.push_back({p * cands[c].p[i], q * cands[c].q[i]});
      cells = std::move(next);
    }
    Rational d = 0;
    for (const auto& [p, q] : cells)
      if (p - x * q > 0) d += p - x * q;
    return d;
  }
  Rational worst = 0;
  for (std::size_t c = 0; c < cands.size(); ++c) {
    choice.push_back(c);
    worst = dpfl::ref::Max(worst, BruteDelta(cands, K, x, choice));
    choice.pop_back();
  }
  return worst;
}

TEST(PldConnectDots, CompositionsBracketBruteForce) {
  std::mt19937_64 g(3);
  for (int trial = 0; trial < 6; ++trial) {
    const int K = 2 + trial % 3;
    pld::PmfPair pair{RandomPmf(g, 3, 0), RandomPmf(g, 3, trial == 5 ? 4 : 0)};
    const pld::PmfAtoms atoms = pld::PrepareAtoms(pair.p, pair.q);
    const Rational step = R("1/32");
    const pld::Pld one = pld::ConnectDots(atoms, step);
    const pld::Pld composed = pld::SelfCompose(one, static_cast<std::uint64_t>(K));
    // The same K steps as two-step blocks (K even) or blocks plus one step.
    const pld::Pld block = pld::ConnectDots(pld::ProductAtoms(atoms, atoms), step);
    pld::Pld blocks = pld::SelfCompose(block, static_cast<std::uint64_t>(K / 2));
    if (K % 2) blocks = pld::Compose(blocks, one);
    for (const char* e : {"0", "0.05", "0.2", "0.5", "1", "2"}) {
      const Rational eps = R(e);
      const Interval ex = dpfl::ref::ToInterval(dpfl::ref::ExpQ(128, eps));
      std::vector<std::size_t> choice;
      const Rational truth_hi = BruteDelta({pair}, K, ex.lo(), choice);
      const Rational truth_lo = BruteDelta({pair}, K, ex.hi(), choice);
      for (const pld::Pld* d : std::vector<const pld::Pld*>{&composed, &blocks}) {
        const pld::DeltaBounds b = pld::DeltaForEpsilon(*d, eps);
        EXPECT_LE(b.lo, truth_hi) << "trial " << trial << " K " << K << " eps " << e << ": lower end above the truth";
        EXPECT_GE(b.hi, truth_lo) << "trial " << trial << " K " << K << " eps " << e << ": upper end below the truth";
      }
    }
  }
}

TEST(PldConnectDots, EnvelopeCompositionCoversEveryChoiceOfCandidates) {
  std::mt19937_64 g(5);
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<pld::PmfPair> cands;
    std::vector<pld::PmfAtoms> atoms;
    for (int c = 0; c < 3; ++c) {
      cands.push_back({RandomPmf(g, 3, 0), RandomPmf(g, 3, 0)});
      atoms.push_back(pld::PrepareAtoms(cands.back().p, cands.back().q));
    }
    const int K = 3;
    const Rational step = R("1/40");
    const pld::Pld env = pld::SelfCompose(pld::ConnectDotsEnvelope(atoms, step, 0), K);
    for (const char* e : {"0", "0.1", "0.5", "1"}) {
      const Rational eps = R(e);
      const Interval ex = dpfl::ref::ToInterval(dpfl::ref::ExpQ(128, eps));
      std::vector<std::size_t> choice;
      const Rational worst = BruteDelta(cands, K, ex.lo(), choice);  // the adversary's best sequence
      EXPECT_GE(pld::DeltaForEpsilon(env, eps).hi, BruteDelta(cands, K, ex.hi(), choice))
          << "trial " << trial << " eps " << e << ": the envelope's upper end misses a choice sequence (truth <= "
          << worst << ")";
    }
  }
}

// The point of the discretization: at the same step its enclosure is narrower than rounding's for
// many compositions, and the two independent discretizations agree. Randomized response is the
// hard case for the lower side (two atoms 2·log(3/2) apart: the merge costs ~h·Δ, not h², per
// step), so only a factor 3 is asked here; the upper end alone moves by ~K·h²/8 against ~K·h/2.
TEST(PldConnectDots, ManyCompositionsNarrowAtACoarseStepAndAgreeWithRounding) {
  const Rational p = R("3/5");  // randomized response, keep probability 3/5
  pld::AccountOptions ctd, rnd;
  ctd.step = rnd.step = R("1/64");
  ctd.discretization = pld::Discretization::kConnectDots;
  const std::uint64_t K = 10000;
  const auto build = [&](const pld::GridOptions& gopt) { return pld::RandomizedResponsePld(p, gopt); };
  const pld::AccountResult a = pld::EpsilonOfComposition(build, K, R("1e-6"), ctd);
  const pld::AccountResult b = pld::EpsilonOfComposition(build, K, R("1e-6"), rnd);
  ASSERT_TRUE(a.epsilon.lo && a.epsilon.hi && b.epsilon.lo && b.epsilon.hi);
  const Rational wa = *a.epsilon.hi - *a.epsilon.lo, wb = *b.epsilon.hi - *b.epsilon.lo;
  EXPECT_LT(wa * 3, wb) << "connect-the-dots [" << *a.epsilon.lo << ", " << *a.epsilon.hi << "] vs rounding [" << *b.epsilon.lo << ", " << *b.epsilon.hi << "]";
  EXPECT_LE(*a.epsilon.lo, *b.epsilon.hi);
  EXPECT_LE(*b.epsilon.lo, *a.epsilon.hi);
  // The upper end moves least: rounding's lies above connect-the-dots' by more than the latter's width.
  EXPECT_GT(*b.epsilon.hi - *a.epsilon.hi, wa);
}

// The checker above has teeth: a measure that is not an upper bound (the lower measure offered
// as the upper one, or an upper measure with its mass moved one grid step down) is caught.
TEST(PldConnectDots, TheCurveCheckCatchesAMeasureThatIsNotABound) {
  const pld::PmfPair pair{{R("1/2"), R("1/3"), R("1/6")}, {R("1/6"), R("1/3"), R("1/2")}};
  const Rational step = R("1/16");
  const pld::Pld d = pld::ConnectDots(pld::PrepareAtoms(pair.p, pair.q), step);
  pld::GridMeasure shifted = d.upper;
  shifted.offset -= 1;
  int caught_lower = 0, caught_shift = 0;
  for (const Rational& x : TestPoints({pair}, step)) {
    const Rational exact = ExactH(pair, x);
    if (MeasureH(d.lower, step, x).hi() < exact) ++caught_lower;
    if (MeasureH(shifted, step, x).hi() < exact) ++caught_shift;
  }
  EXPECT_GT(caught_lower, 0);
  EXPECT_GT(caught_shift, 0);
}

// The central row with the new discretization stays above every candidate configuration's own ε
// (each computed independently, by rounding, from the exact candidate pair) and the realisable
// lower end stays below the upper end.
TEST(PldConnectDots, CentralUpperEndCoversEveryCandidateConfiguration) {
  pld::CentralBinarySetting s;  // LDP-FL, 5 clients (with pairs the paired candidate's ε is +∞ here)
  s.clients = 5;
  s.solo = 5;
  s.q_lo = R("1/4");
  s.q_hi = R("3/4");
  s.coordinates = 5;
  s.rounds = 2;
  const Rational delta = R("1e-3");
  pld::AccountOptions o;
  o.relative_width = R("0.002");
  const pld::CentralResult r = pld::CentralBinaryEpsilon(s, delta, o);
  ASSERT_TRUE(r.epsilon.lo && r.epsilon.hi);
  EXPECT_LE(*r.epsilon.lo, *r.epsilon.hi);
  for (const pld::PmfPair& c : pld::CentralCandidatePairs(s)) {
    pld::AccountOptions ro;
    ro.relative_width = R("0.01");
    const pld::AccountResult own = pld::EpsilonOfComposition(
        [&](const pld::GridOptions& gopt) { return pld::TwoPmfPld(c.p, c.q, gopt); }, 10, delta, ro);
    if (!own.epsilon.lo) {  // a candidate with infinite ε (a paired target's deterministic sum): so is the envelope
      EXPECT_FALSE(r.upper.epsilon.hi.has_value());
      continue;
    }
    ASSERT_TRUE(r.upper.epsilon.hi.has_value());
    EXPECT_LE(*own.epsilon.lo, *r.upper.epsilon.hi) << "the envelope's PLD upper end is below a candidate's epsilon";
  }
}

TEST(PldConnectDots, BadInputIsNamed) {
  auto names = [](auto f, const std::string& arg) {
    try {
      f();
      ADD_FAILURE() << "no throw for " << arg;
    } catch (const dpfl::InvalidArgument& e) {
      EXPECT_EQ(e.argument(), arg);
    }
  };
  const pld::PmfAtoms ok = pld::PrepareAtoms({R("1/2"), R("1/2")}, {R("1/3"), R("2/3")});
  names([&] { pld::ConnectDots(ok, R("0")); }, "step");
  names([&] { pld::ConnectDots(ok, R("-1/8")); }, "step");
  names([&] { pld::ConnectDotsEnvelope({}, R("1/8"), 0); }, "candidates");
  names([&] { pld::ConnectDotsEnvelope({ok}, R("1/8"), 1); }, "candidates");
  names([&] { pld::PrepareAtoms({R("1/2"), R("1/3")}, {R("1/2"), R("1/2")}); }, "p");
  names([&] { pld::PrepareAtoms({R("1/2"), R("1/2")}, {R("1/2")}); }, "q");
  names([&] { pld::PrepareAtoms(std::vector<Rational>{}, std::vector<Rational>{}); }, "p");
}

}  // namespace

// ---- loss laws with a Q side (FromLossLawConnectDots) ---------------------------------------
// The exact H_{e^ε} of the Gaussian pairs, in MPFI from the closed forms (pld_mechanisms.hpp):
//  * plain, μ = Δ/σ: Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ);
//  * subsampled remove (P = (1−q)N(0,σ²) + qN(Δ,σ²), Q = N(0,σ²)): with x* = (σ²/Δ)log((e^ε − 1 + q)/q)
//    + Δ/2 (the x where L = ε), (1−q)Φ̄(x*/σ) + qΦ̄((x*−Δ)/σ) − e^ε Φ̄(x*/σ); 1 − e^ε if e^ε ≤ 1 − q;
//  * subsampled add (the reverse pair), L = ε at x* for e^{−ε}: Φ(x*/σ) − e^ε((1−q)Φ(x*/σ) +
//    qΦ((x*−Δ)/σ)); 0 if e^{−ε} ≤ 1 − q.
Enclosure GaussianH(const Rational& sigma, const Rational& sens, const Rational& q, bool remove, const Rational& eps) {
  const mpfr_prec_t prec = 128;
  const Enclosure x = Exp(Enclosure(prec, eps));
  using dpfl::ref::NormalCdf;
  if (q == 1) {
    const Rational mu = sens / sigma;
    return NormalCdf(Enclosure(prec, Rational(mu / 2 - eps / mu))) - x * NormalCdf(Enclosure(prec, Rational(-mu / 2 - eps / mu)));
  }
  const Enclosure s = remove ? x : Exp(Enclosure(prec, Rational(-eps)));
  const Enclosure arg = s - Rational(1 - q);
  if (!dpfl::ref::CertainlyPositive(arg)) return remove ? Enclosure(prec, 1L) - x : Enclosure(prec, 0L);
  const Enclosure xs = Rational(sigma * sigma / sens) * Log(arg / Rational(q)) + Rational(sens / 2);
  const Enclosure z1 = xs / sigma, z2 = (xs - sens) / sigma;
  if (remove)
    return Rational(1 - q) * NormalCdf(-z1) + q * NormalCdf(-z2) - x * NormalCdf(-z1);
  return NormalCdf(z1) - x * (Rational(1 - q) * NormalCdf(z1) + q * NormalCdf(z2));
}

// H_{e^ε} of a grid measure, enclosed: Σ_k m_k (1 − e^{ε − (offset+k)h})_+ + m_∞ (− deficit).
Interval MeasureHAt(const pld::GridMeasure& m, const Rational& step, const Rational& eps) {
  const mpfr_prec_t prec = 128;
  Enclosure sum(prec, Rational(m.infinity) - Rational(m.deficit));
  for (std::size_t k = 0; k < m.mass.size(); ++k) {
    const Rational loss = step * (m.offset + static_cast<std::int64_t>(k));
    if (m.mass[k] == 0 || loss <= eps) continue;
    sum = sum + Rational(m.mass[k]) * -Expm1(Enclosure(prec, Rational(eps - loss)));
  }
  return dpfl::ref::ToInterval(sum);
}

struct GaussianCase {
  const char *sigma, *sens, *q, *step;
};

// One step: the upper measure's curve lies above the exact one and the lower measure's below, at
// grid points and between them, for both directions — the per-step property every composition
// inherits (pld.hpp). Steps from coarse to fine; q = 1 is the plain Gaussian.
TEST(PldConnectDotsLaws, EachStepBracketsTheExactGaussianCurve) {
  const GaussianCase cases[] = {{"1", "1", "1", "1/64"},        {"3/10", "1", "1", "1/16"},
                                {"1", "1", "1/100", "1/256"},   {"11/10", "1", "1/234", "1/1024"},
                                {"7/10", "2", "1/10", "1/128"}, {"5", "1", "1/2", "1/512"}};
  for (const GaussianCase& c : cases) {
    const Rational sigma = R(c.sigma), sens = R(c.sens), q = R(c.q), step = R(c.step);
    pld::GridOptions g{step, 1e-18, 64, pld::Discretization::kConnectDots};
    const pld::PldPair pair = pld::SubsampledGaussianPld(sigma, sens, q, g);
    for (int dir = 0; dir < (pair.backward ? 2 : 1); ++dir) {
      const pld::Pld& d = dir == 0 ? pair.forward : *pair.backward;
      const bool remove = dir == 0;
      int checked = 0;
      for (int j = -40; j <= 160; j += 7) {
        // Grid points and points a third of a step past them.
        for (const Rational& eps : {Rational(step * j), Rational(step * j + step / 3)}) {
          const Rational e = eps * 8;  // spread over [−320h, 1280h]
          const Interval exact = dpfl::ref::ToInterval(GaussianH(sigma, sens, q, remove, e));
          const Interval up = MeasureHAt(d.upper, step, e), lo = MeasureHAt(d.lower, step, e);
          EXPECT_GE(up.hi(), exact.lo()) << c.sigma << " " << c.q << " dir " << dir << " eps " << e;
          EXPECT_LE(lo.lo(), exact.hi()) << c.sigma << " " << c.q << " dir " << dir << " eps " << e;
          ++checked;
        }
      }
      EXPECT_GT(checked, 50);
    }
  }
}

// K-fold Gaussian = Gaussian with μ√K (closed form): the composed enclosure contains the exact δ(ε),
// and at the same step it is far narrower than rounding's (error ~K·h² against ~K·h).
TEST(PldConnectDotsLaws, ComposedGaussianBracketsTheClosedFormAndNarrows) {
  const Rational sigma = R("4"), sens = 1, step = R("1/256");
  const std::uint64_t K = 64;  // μ√K = 2
  const Rational eps = R("1");
  const Interval exact = dpfl::ref::ToInterval(GaussianH(Rational(sigma / 8), sens, 1, true, eps));
  pld::AccountOptions ctd, rnd;
  ctd.step = rnd.step = step;
  ctd.discretization = pld::Discretization::kConnectDots;
  const auto build = [&](const pld::GridOptions& g) { return pld::GaussianPld(sigma, sens, g); };
  const pld::AccountResult a = pld::DeltaOfComposition(build, K, eps, ctd);
  const pld::AccountResult b = pld::DeltaOfComposition(build, K, eps, rnd);
  EXPECT_LE(a.delta.lo, exact.lo());
  EXPECT_GE(a.delta.hi, exact.hi());
  EXPECT_LE(b.delta.lo, exact.lo());
  EXPECT_GE(b.delta.hi, exact.hi());
  EXPECT_LT((a.delta.hi - a.delta.lo) * 20, b.delta.hi - b.delta.lo)
      << "connect-the-dots [" << a.delta.lo << ", " << a.delta.hi << "] vs rounding [" << b.delta.lo << ", "
      << b.delta.hi << "]";
}

// The checker has teeth here too: the upper measure moved one step down, or the rounding lower
// measure offered as an upper one, falls below the exact curve somewhere.
TEST(PldConnectDotsLaws, TheGaussianCurveCheckCatchesAMeasureThatIsNotABound) {
  const Rational sigma = 1, sens = 1, q = R("1/100"), step = R("1/256");
  pld::GridOptions g{step, 1e-18, 64, pld::Discretization::kConnectDots};
  const pld::PldPair pair = pld::SubsampledGaussianPld(sigma, sens, q, g);
  pld::GridMeasure shifted = pair.forward.upper;
  shifted.offset -= 1;
  int caught = 0, caught_lower = 0;
  for (int j = 0; j <= 200; j += 5) {
    const Rational e = step * j;
    const Interval exact = dpfl::ref::ToInterval(GaussianH(sigma, sens, q, true, e));
    if (MeasureHAt(shifted, step, e).hi() < exact.lo()) ++caught;
    // The upper measure offered as a lower one lies above the exact curve.
    if (MeasureHAt(pair.forward.upper, step, e).lo() > exact.hi()) ++caught_lower;
  }
  EXPECT_GT(caught, 10);
  EXPECT_GT(caught_lower, 10);
}

// A law with a distribution function only (uniform loss on [0, 1]).
class CdfOnlyLaw final : public pld::LossLaw {
 public:
  Enclosure Cdf(const Rational& t, mpfr_prec_t prec) const override {
    return Enclosure(prec, t < 0 ? Rational(0) : t > 1 ? Rational(1) : t);
  }
  std::pair<double, double> Range(double) const override { return {0.0, 1.0}; }
};

TEST(PldConnectDotsLaws, ALawWithoutAQSideIsNamed) {
  try {
    (void)pld::FromLossLawConnectDots(CdfOnlyLaw(), R("1/16"), 1e-18);
    ADD_FAILURE() << "a law without a Q side was discretized";
  } catch (const dpfl::InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "mechanism");
  }
}

// Poisson subsampling piles the remove direction's mass up at its lowest loss log(1 − q); merged
// from the top down, that pile is the last group and is moved down a whole grid step (a first-order
// error: at h = 1/512 the enclosure of δ(1/2) after 1000 steps was [3.4e-6, 8.0e-5]). The builder
// also merges from the bottom up and keeps the better measure: the lower end is then within 35 %
// at h = 1/512 and within 3 % at h = 1/2048, and the two enclosures overlap.
TEST(PldConnectDotsLaws, SubsampledLowerSideIsNotPushedDownAtThePile) {
  const Rational sigma = R("11/10"), q = R("256/60000"), eps = R("1/2");
  const auto build = [&](const pld::GridOptions& g) { return pld::SubsampledGaussianPld(sigma, 1, q, g); };
  pld::AccountOptions coarse, fine;
  coarse.discretization = fine.discretization = pld::Discretization::kConnectDots;
  coarse.step = R("1/512");
  fine.step = R("1/2048");
  const pld::AccountResult a = pld::DeltaOfComposition(build, 1000, eps, coarse);
  const pld::AccountResult b = pld::DeltaOfComposition(build, 1000, eps, fine);
  EXPECT_GT(a.delta.lo, a.delta.hi * Rational(65, 100)) << a.delta.lo << " " << a.delta.hi;
  EXPECT_GT(b.delta.lo, b.delta.hi * Rational(97, 100)) << b.delta.lo << " " << b.delta.hi;
  EXPECT_LE(a.delta.lo, b.delta.hi);
  EXPECT_LE(b.delta.lo, a.delta.hi);
}

// The discrete noises' Q sides (dpfl's integer baselines): P = N + Z, Q = Z. Exact curve
// H_{e^ε} = Σ_y (P(y) − e^ε Q(y))_+ over atoms, from the laws in discrete_noise.hpp (MPFI, 128 bits):
//  * discrete Laplace: y ≤ 0 one atom (loss −N/t), 1 ≤ y ≤ N − 1, y ≥ N one atom (loss N/t);
//  * discrete Gaussian (σ² = 4): y ∈ [−60, 60 + N] term by term, the rest (mass < e^{−400}) added to
//    the upper end of the enclosure.
Interval DiscreteH(bool gaussian, const Rational& param, long N, const Rational& eps) {
  const mpfr_prec_t p = 128;
  const Enclosure x = Exp(Enclosure(p, eps));
  Enclosure sum(p, 0L);
  auto add = [&](const Enclosure& pm, const Enclosure& qm) {
    const Enclosure d = pm - x * qm;
    if (dpfl::ref::CertainlyNonPositive(d)) return;
    sum = sum + (dpfl::ref::CertainlyNonNegative(d) ? d : dpfl::ref::Hull(Enclosure(p, 0L), d));
  };
  using dpfl::ref::Int;
  if (!gaussian) {
    auto tail = [&](long a) { return dpfl::ref::DiscreteLaplaceUpperTail(param, Int(a), p); };
    add(Enclosure(p, 1L) - tail(1 - N), Enclosure(p, 1L) - tail(1));  // y ≤ 0: Z ≤ −N vs Z ≤ 0
    for (long y = 1; y < N; ++y)
      add(dpfl::ref::DiscreteLaplacePmf(param, Int(y - N), p), dpfl::ref::DiscreteLaplacePmf(param, Int(y), p));
    add(tail(0), tail(N));  // y ≥ N
    return dpfl::ref::ToInterval(sum);
  }
  const dpfl::ref::DiscreteGaussianLaw law(param, p);
  for (long y = -60; y <= 60 + N; ++y) add(law.Pmf(Int(y - N)), law.Pmf(Int(y)));
  const Interval s = dpfl::ref::ToInterval(sum);
  return Interval(s.lo(), Rational(s.hi() + R("1e-150")));
}

TEST(PldConnectDotsLaws, EachStepBracketsTheExactDiscreteNoiseCurves) {
  struct Case {
    bool gaussian;
    const char* param;
    long N;
    const char* step;
  };
  for (const Case& c : {Case{false, "8", 4, "1/64"}, Case{false, "3", 5, "1/100"}, Case{true, "4", 2, "1/64"},
                        Case{true, "4", 3, "1/512"}}) {
    const Rational param = R(c.param), step = R(c.step);
    pld::GridOptions g{step, 1e-18, 64, pld::Discretization::kConnectDots};
    const pld::PldPair pair =
        c.gaussian ? pld::DiscreteGaussianPld(param, c.N, g) : pld::DiscreteLaplacePld(param, c.N, g);
    int checked = 0;
    for (int j = -30; j <= 200; j += 7) {
      for (const Rational& eps : {Rational(step * j), Rational(step * j + step / 3)}) {
        const Interval exact = DiscreteH(c.gaussian, param, c.N, eps);
        EXPECT_GE(MeasureHAt(pair.forward.upper, step, eps).hi(), exact.lo()) << c.param << " eps " << eps;
        EXPECT_LE(MeasureHAt(pair.forward.lower, step, eps).lo(), exact.hi()) << c.param << " eps " << eps;
        ++checked;
      }
    }
    EXPECT_GT(checked, 60);
  }
}

// Laplace (b, Δ): δ(ε) = 1 − e^{(ε − Δ/b)/2} on [0, Δ/b], 0 above (the pair's closed form). The
// subsampled Laplace has no closed form here: its connect-the-dots enclosure must overlap the
// rounding one at a fine step (both are valid), and be narrower than rounding at the same step.
TEST(PldConnectDotsLaws, LaplaceBracketsItsClosedFormAndSubsampledAgreesWithRounding) {
  const Rational b = 2, sens = 1, step = R("1/128");
  pld::GridOptions g{step, 1e-18, 64, pld::Discretization::kConnectDots};
  const pld::PldPair lap = pld::LaplacePld(b, sens, g);
  for (int j = 0; j <= 80; j += 3) {
    const Rational eps = step * j + step / 5;
    const mpfr_prec_t p = 128;
    const Interval exact = eps >= sens / b ? Interval(Rational(0), Rational(0))
                                           : dpfl::ref::ToInterval(Enclosure(p, 1L) - Exp(Enclosure(p, Rational((eps - sens / b) / 2))));
    EXPECT_GE(MeasureHAt(lap.forward.upper, step, eps).hi(), exact.lo()) << eps;
    EXPECT_LE(MeasureHAt(lap.forward.lower, step, eps).lo(), exact.hi()) << eps;
  }
  const auto build = [&](const pld::GridOptions& gg) { return pld::SubsampledLaplacePld(b, sens, R("1/10"), gg); };
  pld::AccountOptions ctd, rnd, fine;
  ctd.discretization = pld::Discretization::kConnectDots;
  ctd.step = rnd.step = R("1/256");
  fine.step = R("1/8192");
  const pld::AccountResult a = pld::EpsilonOfComposition(build, 100, R("1e-6"), ctd);
  const pld::AccountResult r = pld::EpsilonOfComposition(build, 100, R("1e-6"), rnd);
  const pld::AccountResult f = pld::EpsilonOfComposition(build, 100, R("1e-6"), fine);
  ASSERT_TRUE(a.epsilon.lo && a.epsilon.hi && r.epsilon.lo && r.epsilon.hi && f.epsilon.lo && f.epsilon.hi);
  EXPECT_LE(*a.epsilon.lo, *f.epsilon.hi);
  EXPECT_LE(*f.epsilon.lo, *a.epsilon.hi);
  EXPECT_LT((*a.epsilon.hi - *a.epsilon.lo) * 3, *r.epsilon.hi - *r.epsilon.lo);
}

// The merge's margin: a group is filled to within 2^−44 of its Q-content, not left up to a grid
// step above its grid point. With a relative shave of 2^−30 of the slack (about h/2), at h = 2^−16
// the roundings ate the margin and half the groups closed unfilled: the lower measure's Q-mass
// Σ m_k e^{−kh} exceeded 1 by 3e-6 (its mean loss 4e-6 below the true 2e-8). Both directions of a
// Poisson-subsampled Gaussian whose single-step loss spans ~30 steps.
TEST(PldConnectDotsLaws, FineStepsFillTheMergedGroups) {
  const Rational step = R("1/65536");
  pld::GridOptions g{step, 1e-18, 64, pld::Discretization::kConnectDots};
  const pld::PldPair pair = pld::SubsampledGaussianPld(5, 1, R("1/1000"), g);
  const double h = step.convert_to<double>();
  for (const pld::Pld* d : {&pair.forward, &*pair.backward}) {
    double q_lower = 0, q_upper = 0;
    for (std::size_t i = 0; i < d->lower.mass.size(); ++i)
      q_lower += d->lower.mass[i] * std::exp(-static_cast<double>(d->lower.offset + static_cast<std::int64_t>(i)) * h);
    for (std::size_t i = 0; i < d->upper.mass.size(); ++i)
      q_upper += d->upper.mass[i] * std::exp(-static_cast<double>(d->upper.offset + static_cast<std::int64_t>(i)) * h);
    EXPECT_LT(q_lower - 1, 1e-9);
    // The upper side's excess (the split's difference of masses over h, bins at 128-bit ends).
    EXPECT_LT(q_upper - 1, 1e-7);
  }
}
