// dpfl::ref::pld — central view of the binary mechanisms (see pld_central.hpp for the argument).
#include "dpfl/ref/pld_central.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "dpfl/ref/accountant.hpp"
#include "dpfl/ref/coq_codebook.hpp"
#include "dpfl/ref/corbinq.hpp"
#include "pld_central_dropout.hpp"
#include "dpfl/validate.hpp"

namespace dpfl::ref::pld {
namespace {

void ValidatePair(const PmfPair& pair) {
  if (pair.p.empty() || pair.p.size() != pair.q.size())
    throw InvalidArgument("pairs", "each pair needs two pmfs of the same, non-zero length");
  Rational sp = 0, sq = 0;
  for (std::size_t i = 0; i < pair.p.size(); ++i) {
    if (pair.p[i] < 0 || pair.q[i] < 0) throw InvalidArgument("pairs", "negative probability");
    sp += pair.p[i];
    sq += pair.q[i];
  }
  if (sp != 1 || sq != 1) throw InvalidArgument("pairs", "a pmf does not sum to 1");
}

}  // namespace

std::vector<Rational> detail::ConvolvePmfs(const std::vector<Rational>& a, const std::vector<Rational>& b) {
  std::vector<Rational> c(a.size() + b.size() - 1, Rational(0));
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != 0)
      for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
  return c;
}

std::vector<Rational> detail::PairCount(PairScheme scheme, const Rational& q, const Rational& partner, int d,
                                       bool target_first) {
  const Rational& a = target_first ? q : partner;
  const Rational& b = target_first ? partner : q;
  if (scheme == PairScheme::kCorBinQ) {
    const JointPmf<Rational> j = CorBinQJointClosedForm(a, b, d, Line14::kCorrected);
    return {j.mm, Rational(j.mp + j.pm), j.pp};
  }
  const CoqCodebook book(Rational(1, 2), d);
  const CoqJoint<Rational> j = CoqJointClosedForm(book, a, b);
  return {j.mm, Rational(j.mp + j.pm), j.pp};
}

bool detail::CentrePairIsConstant(PairScheme scheme, int d) {
  const std::vector<Rational> c = PairCount(scheme, Rational(1, 2), Rational(1, 2), d, true);
  return c[0] == 0 && c[2] == 0;
}

namespace {

std::vector<Rational> Convolve(const std::vector<Rational>& a, const std::vector<Rational>& b) {
  return detail::ConvolvePmfs(a, b);
}

// One pair's curve, swept over ascending x: δ(x) = inf + Σ_{r_i > x} (p_i − x q_i).
class CurveSweep {
 public:
  explicit CurveSweep(const PmfPair& pair) {
    for (std::size_t i = 0; i < pair.p.size(); ++i) {
      if (pair.p[i] == 0) continue;
      if (pair.q[i] == 0) {
        inf_ += pair.p[i];
      } else {
        items_.push_back({Rational(pair.p[i] / pair.q[i]), pair.p[i], pair.q[i]});
        a_ += pair.p[i];
        b_ += pair.q[i];
      }
    }
    std::sort(items_.begin(), items_.end(), [](const Item& x, const Item& y) { return x.r < y.r; });
  }
  // x must not decrease between calls.
  Rational At(const Rational& x) {
    while (next_ < items_.size() && items_[next_].r <= x) {
      a_ -= items_[next_].p;
      b_ -= items_[next_].q;
      ++next_;
    }
    return inf_ + a_ - x * b_;
  }
  const Rational& Infinity() const { return inf_; }

 private:
  struct Item {
    Rational r, p, q;
  };
  std::vector<Item> items_;
  std::size_t next_ = 0;
  Rational a_ = 0, b_ = 0, inf_ = 0;
};

}  // namespace

Rational HockeyStick(const PmfPair& pair, const Rational& x) {
  Rational s = 0;
  for (std::size_t i = 0; i < pair.p.size(); ++i) {
    const Rational t = pair.p[i] - x * pair.q[i];
    if (t > 0) s += t;
  }
  return s;
}

PmfPair DominatingEnvelope(const std::vector<PmfPair>& pairs) {
  if (pairs.empty()) throw InvalidArgument("pairs", "no pair to dominate");
  std::set<Rational> breaks;
  for (const PmfPair& pair : pairs) {
    ValidatePair(pair);
    for (std::size_t i = 0; i < pair.p.size(); ++i)
      if (pair.p[i] > 0 && pair.q[i] > 0) breaks.insert(pair.p[i] / pair.q[i]);
  }
  std::vector<Rational> x{Rational(0)};
  for (const Rational& b : breaks)
    if (b > 0) x.push_back(b);
  std::vector<CurveSweep> sweeps;
  sweeps.reserve(pairs.size());
  for (const PmfPair& pair : pairs) sweeps.emplace_back(pair);
  std::vector<Rational> h(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    Rational best = 0;
    for (CurveSweep& s : sweeps) best = Max(best, s.At(x[k]));
    h[k] = best;
  }
  Rational inf = 0;
  for (const CurveSweep& s : sweeps) inf = Max(inf, s.Infinity());
  // Chord slopes between consecutive points, then 0 beyond the last (every curve is constant there).
  const std::size_t L = x.size() - 1;
  std::vector<Rational> slope(L + 2, Rational(0));
  for (std::size_t k = 1; k <= L; ++k) slope[k] = (h[k] - h[k - 1]) / (x[k] - x[k - 1]);
  PmfPair out;
  Rational q_points = 0;
  for (std::size_t k = 1; k <= L; ++k) {
    const Rational jump = slope[k + 1] - slope[k];  // ≥ 0: the interpolant of a convex function is convex
    if (jump < 0) throw Undecidable("envelope: the chord interpolation is not convex (internal error)");
    if (jump == 0) continue;
    out.p.push_back(x[k] * jump);
    out.q.push_back(jump);
    q_points += jump;
  }
  if (inf > 0) {
    out.p.push_back(inf);
    out.q.push_back(0);
  }
  if (q_points < 1) {
    out.p.push_back(0);
    out.q.push_back(1 - q_points);
  }
  ValidatePair(out);  // Σp = H(0) = 1 and Σq = 1 hold exactly by construction; checked, not assumed
  return out;
}

namespace {
void ValidateSetting(const CentralBinarySetting& s) {
  if (s.clients < 1) throw InvalidArgument("clients", "must be >= 1, got " + std::to_string(s.clients));
  if (s.solo < 0 || s.solo > s.clients)
    throw InvalidArgument("solo", "must be in [0, clients], got " + std::to_string(s.solo));
  if (s.solo > kCentralMaxSolo)
    throw InvalidArgument("solo", "exact Poisson-binomial pmfs are computed for at most " +
                                      std::to_string(kCentralMaxSolo) + " solo clients, got " + std::to_string(s.solo));
  if (!(s.q_lo > 0 && s.q_lo <= Rational(1, 2))) throw InvalidArgument("q_lo", "must be in (0, 1/2], got " + EchoValue(s.q_lo));
  if (!(s.q_hi >= Rational(1, 2) && s.q_hi < 1)) throw InvalidArgument("q_hi", "must be in [1/2, 1), got " + EchoValue(s.q_hi));
  if ((s.clients - s.solo) % 2 != 0)
    throw InvalidArgument("solo", "clients - solo must be even (pairs have two members), got " +
                                      std::to_string(s.clients - s.solo));
  if (!(s.dropout >= 0 && s.dropout < 1)) throw InvalidArgument("dropout", "must be in [0, 1), got " + EchoValue(s.dropout));
  if (s.shared_bits < 0 || s.shared_bits > 64)
    throw InvalidArgument("shared_bits", "must be in [0, 64], got " + std::to_string(s.shared_bits));
}
}  // namespace

QuantizedEnds EndsForEpsilon(const Rational& eps) {
  Require("eps", eps, Domain::OpenClosed(0, 50), EchoValue);
  const Interval E = ExpEnclosure(eps, 128, "eps");
  const Rational two64 = Pow2(64);
  const Rational hi = E.hi() / (1 + E.hi());  // ≥ e^ε/(1+e^ε): increasing in E
  QuantizedEnds out;
  out.q_hi = Rational(-FloorInt(Rational(-hi * two64))) / two64;  // ceiling
  out.q_lo = 1 - out.q_hi;                                         // ≤ 1/(1+e^ε), exactly symmetric
  return out;
}

std::vector<PmfPair> TargetCandidatePairs(bool target_solo, long other_solo, const Rational& q_lo, const Rational& q_hi) {
  if (other_solo < 0 || other_solo > kCentralMaxSolo)
    throw InvalidArgument("solo", "must be in [0, " + std::to_string(kCentralMaxSolo) + "], got " +
                                      std::to_string(other_solo));
  std::vector<std::vector<Rational>> bin_hi, bin_lo;  // Bin(k, q_hi), Bin(k, q_lo), k = 0 … other_solo
  for (long k = 0; k <= other_solo; ++k) {
    bin_hi.push_back(k == 0 ? std::vector<Rational>{1} : Convolve(bin_hi.back(), {Rational(1 - q_hi), q_hi}));
    bin_lo.push_back(k == 0 ? std::vector<Rational>{1} : Convolve(bin_lo.back(), {Rational(1 - q_lo), q_lo}));
  }
  std::vector<PmfPair> pairs;
  auto add_both = [&](std::vector<Rational> p, std::vector<Rational> q) {
    const std::size_t n = std::max(p.size(), q.size());
    p.resize(n, Rational(0));
    q.resize(n, Rational(0));
    pairs.push_back({p, q});
    pairs.push_back({q, p});
  };
  for (long a = 0; a <= other_solo; ++a) {
    const std::vector<Rational> R = Convolve(bin_hi[a], bin_lo[other_solo - a]);
    if (target_solo) {  // Bern(q_hi) + R_a vs Bern(q_lo) + R_a
      add_both(Convolve({Rational(1 - q_hi), q_hi}, R), Convolve({Rational(1 - q_lo), q_lo}, R));
    } else {  // 1 + R'_a vs R'_a
      std::vector<Rational> shifted(R.size() + 1, Rational(0));
      std::copy(R.begin(), R.end(), shifted.begin() + 1);
      add_both(shifted, R);
    }
  }
  return pairs;
}

std::vector<PmfPair> CentralCandidatePairs(const CentralBinarySetting& s) {
  ValidateSetting(s);
  std::vector<PmfPair> pairs;
  if (s.solo >= 1) pairs = TargetCandidatePairs(true, s.solo - 1, s.q_lo, s.q_hi);
  if (s.clients - s.solo >= 2) {
    std::vector<PmfPair> paired = TargetCandidatePairs(false, s.solo, s.q_lo, s.q_hi);
    pairs.insert(pairs.end(), paired.begin(), paired.end());
  }
  return pairs;
}

PmfPair CentralCoordinatePair(const CentralBinarySetting& s) { return DominatingEnvelope(CentralCandidatePairs(s)); }

std::optional<Enclosure> RenyiDivergence(const PmfPair& pair, const Rational& order, mpfr_prec_t prec) {
  if (!(order > 1)) throw InvalidArgument("order", "must be > 1, got " + EchoValue(order));
  Enclosure sum(prec, 0L);
  const Enclosure one_minus_a(prec, Rational(1 - order));
  for (std::size_t i = 0; i < pair.p.size(); ++i) {
    if (pair.p[i] == 0) continue;
    if (pair.q[i] == 0) return std::nullopt;
    // p^α q^{1−α} = p·(q/p)^{1−α}
    sum = sum + pair.p[i] * Exp(one_minus_a * LogQ(prec, Rational(pair.q[i] / pair.p[i])));
  }
  return Log(sum) / Rational(order - 1);
}

std::vector<Rational> CentralOrders() {
  std::vector<Rational> out;
  for (const char* a : {"1.002", "1.005", "1.01", "1.02", "1.03", "1.05", "1.075", "1.1", "1.15", "1.2", "1.3", "1.5",
                        "2", "3", "5", "10", "20", "64"})
    out.push_back(ParseRational(a, "order"));
  return out;
}

std::vector<PmfPair> detail::CentralAchievablePmfs(const CentralBinarySetting& s) {
  ValidateSetting(s);
  const std::vector<Rational> bern_hi{Rational(1 - s.q_hi), s.q_hi}, bern_lo{Rational(1 - s.q_lo), s.q_lo};
  std::vector<PmfPair> out;
  if (s.solo >= 1) {
    std::vector<Rational> others_hi{Rational(1)}, others_lo{Rational(1)};
    for (long k = 0; k < s.solo - 1; ++k) {
      others_hi = Convolve(others_hi, bern_hi);
      others_lo = Convolve(others_lo, bern_lo);
    }
    for (const auto* R : {&others_hi, &others_lo}) out.push_back({Convolve(bern_hi, *R), Convolve(bern_lo, *R)});
  }
  const long paired = s.clients - s.solo;
  if (paired >= 2 && s.shared_bits >= 1 && s.shared_bits <= 62 && detail::CentrePairIsConstant(s.pairs, s.shared_bits)) {
    std::vector<Rational> R{Rational(1)};
    for (long k = 0; k < s.solo; ++k) R = Convolve(R, bern_hi);
    std::vector<Rational> pair_p(3, Rational(0)), pair_q(3, Rational(0));
    for (bool first : {true, false}) {  // roles are uniform and unseen: the average of the two laws
      const std::vector<Rational> a = detail::PairCount(s.pairs, s.q_hi, Rational(1, 2), s.shared_bits, first);
      const std::vector<Rational> b = detail::PairCount(s.pairs, s.q_lo, Rational(1, 2), s.shared_bits, first);
      for (int i = 0; i < 3; ++i) {
        pair_p[i] += a[i] / 2;
        pair_q[i] += b[i] / 2;
      }
    }
    out.push_back({Convolve(pair_p, R), Convolve(pair_q, R)});
  }
  return out;
}

std::vector<PldPair> CentralAchievablePairs(const CentralBinarySetting& s, const GridOptions& grid) {
  std::vector<PldPair> out;
  for (const PmfPair& pair : detail::CentralAchievablePmfs(s)) out.push_back(TwoPmfPld(pair.p, pair.q, grid));
  return out;
}

namespace {

// A candidate pair prepared for the RDP bound: P-masses and log(Q/P) per atom, enclosed.
struct RenyiAtoms {
  std::vector<Enclosure> p, log_ratio;
  bool infinite = false;  // some p > 0 = q: D_α = +∞ at every order
};
RenyiAtoms PrepareRenyi(const PmfPair& pair, mpfr_prec_t prec) {
  RenyiAtoms out;
  for (std::size_t i = 0; i < pair.p.size(); ++i) {
    if (pair.p[i] == 0) continue;
    if (pair.q[i] == 0) {
      out.infinite = true;
      continue;
    }
    const Enclosure P(prec, pair.p[i]);
    out.log_ratio.push_back(Log(Enclosure(prec, pair.q[i])) - Log(P));
    out.p.push_back(P);
  }
  return out;
}
// D_α = (1/(α−1)) log Σ_i p_i e^{(1−α) log(q_i/p_i)}, enclosed (as RenyiDivergence).
Enclosure Renyi(const RenyiAtoms& a, const Rational& order, mpfr_prec_t prec) {
  Enclosure sum(prec, 0L);
  const Enclosure one_minus_a(prec, Rational(1 - order));
  for (std::size_t i = 0; i < a.p.size(); ++i) sum = sum + a.p[i] * Exp(one_minus_a * a.log_ratio[i]);
  return Log(sum) / Rational(order - 1);
}

// The candidate whose composition is likely the least private (largest K·mean + 3·sqrt(K·var) of
// its loss, an infinite loss first): its lower measure stands for the envelope's lower end, which
// only steers the step refinement (the reported lower end comes from the realisable pairs).
std::size_t LikelyWorstCandidate(const std::vector<PmfAtoms>& atoms, std::uint64_t k) {
  std::size_t best = 0;
  double best_score = -HUGE_VAL;
  for (std::size_t j = 0; j < atoms.size(); ++j) {
    double mean = 0, second = 0;
    for (const PmfAtoms::Atom& a : atoms[j].finite) {
      const double loss = 0.5 * (a.loss_lo + a.loss_hi);
      mean += a.p_hi * loss;
      second += a.p_hi * loss * loss;
    }
    const double K = static_cast<double>(k);
    double score = K * mean + 3 * std::sqrt(std::max(0.0, K * (second - mean * mean)));
    if (atoms[j].infinity_hi > 0) score = HUGE_VAL * atoms[j].infinity_hi;
    if (score > best_score) {
      best_score = score;
      best = j;
    }
  }
  return best;
}

}  // namespace

CentralResult CentralBinaryEpsilon(const CentralBinarySetting& setting, const Rational& delta,
                                   const AccountOptions& options, bool with_lower) {
  if (setting.coordinates < 1 || setting.rounds < 1) throw InvalidArgument("coordinates", "m and T must be >= 1");
  if (setting.coordinates > 1000000000ull / setting.rounds)
    throw InvalidArgument("coordinates", "m T must be at most 1e9 compositions");
  // More solo clients than the exact envelope takes: the pattern path (pld_central.hpp "Many solo
  // clients"), which with dropout 0 is the mixture over the target's public role.
  if (setting.dropout > 0 || setting.solo > kCentralMaxSolo)
    return detail::CentralDropoutEpsilon(setting, delta, options, with_lower);
  const std::uint64_t k = setting.coordinates * setting.rounds;
  const std::vector<PmfPair> candidates = CentralCandidatePairs(setting);
  CentralResult out;
  // The envelope's atom at +∞ is the largest of the candidates' (its curve's value at x = ∞).
  for (const PmfPair& c : candidates) {
    Rational inf = 0;
    for (std::size_t i = 0; i < c.p.size(); ++i)
      if (c.q[i] == 0) inf += c.p[i];
    out.infinite_mass_upper = Max(out.infinite_mass_upper, inf);
  }
  // Connect-the-dots on both sides (pld.hpp): the error grows like K·h², not K·h.
  AccountOptions o = options;
  o.discretization = Discretization::kConnectDots;
  // Progress lines say which part of the computation they belong to.
  auto told = [&](const std::string& part) {
    std::function<void(const std::string&)> f;
    if (options.progress) f = [&options, part](const std::string& line) { options.progress(part + ": " + line); };
    return f;
  };

  // Lower end first: the realisable configurations, each a single pmf pair; their last step is a
  // good step for the envelope too (same loss scale, same K), which then needs one pass. A pair
  // that is another's mirror image (counts c ↔ n − c: its forward PLD is the other's backward one,
  // as for LDP-FL's "all others at q_hi" and "all at q_lo") has the same ε and is skipped. Each is
  // composed as K/2 two-step blocks (ProductAtoms: dense atoms, so the lower side's merge costs
  // ~h² rather than h·Δ), plus one single step when K is odd.
  Rational lo = 0;
  bool lo_infinite = false;
  std::vector<PmfPair> achievable = with_lower ? detail::CentralAchievablePmfs(setting) : std::vector<PmfPair>{};
  std::optional<Rational> step;
  for (std::size_t i = 0; i < achievable.size(); ++i) {
    const PmfPair& a = achievable[i];
    bool mirror = false;
    for (std::size_t j = 0; j < i && !mirror; ++j) {
      const PmfPair& b = achievable[j];
      mirror = (a.p == b.p && a.q == b.q) ||
               (a.p.size() == b.q.size() && std::equal(a.p.begin(), a.p.end(), b.q.rbegin()) &&
                std::equal(a.q.begin(), a.q.end(), b.p.rbegin()));
    }
    if (mirror) continue;
    const PmfAtoms fwd = PrepareAtoms(a.p, a.q, o.prec);
    const std::optional<PmfAtoms> bwd = a.p == a.q ? std::nullopt : std::optional<PmfAtoms>(PrepareAtoms(a.q, a.p, o.prec));
    auto pair_at = [](const PmfAtoms& f, const std::optional<PmfAtoms>& b, const Rational& h) {
      PldPair p;
      p.forward = ConnectDots(f, h);
      if (b) p.backward = ConnectDots(*b, h);
      return p;
    };
    AccountOptions ol = o;
    ol.progress = told("lower end, realisable configuration " + std::to_string(i + 1) + " of " +
                       std::to_string(achievable.size()));
    std::uint64_t blocks = k;
    std::optional<PmfAtoms> fwd2, bwd2;
    if (k >= 2) {
      blocks = k / 2;
      fwd2 = ProductAtoms(fwd, fwd);
      if (bwd) bwd2 = ProductAtoms(*bwd, *bwd);
      if (k % 2 == 1) ol.remainder = [&](const GridOptions& g) { return pair_at(fwd, bwd, g.step); };
    }
    out.lower.push_back(EpsilonOfComposition(
        [&](const GridOptions& g) { return fwd2 ? pair_at(*fwd2, bwd2, g.step) : pair_at(fwd, bwd, g.step); }, blocks,
        delta, ol));
    const EpsilonBounds& e = out.lower.back().epsilon;
    if (!e.lo) lo_infinite = true;
    else lo = Max(lo, *e.lo);
    if (e.hi && (!step || out.lower.back().step < *step)) step = out.lower.back().step;
  }
  // Upper end: the envelope of every candidate at the grid points (ConnectDotsEnvelope), which
  // already contains both directions of every candidate pair: one direction suffices.
  std::vector<PmfAtoms> atoms;
  atoms.reserve(candidates.size());
  for (const PmfPair& c : candidates) atoms.push_back(PrepareAtoms(c.p, c.q, o.prec));
  const std::size_t worst = LikelyWorstCandidate(atoms, k);
  AccountOptions o_up = o;
  o_up.progress = told("upper end, envelope of " + std::to_string(candidates.size()) + " candidate pairs");
  if (step) o_up.step = step;
  out.upper = EpsilonOfComposition(
      [&](const GridOptions& g) {
        PldPair p;
        p.forward = ConnectDotsEnvelope(atoms, g.step, worst);
        return p;
      },
      k, delta, o_up);
  out.epsilon.hi = out.upper.epsilon.hi;

  // RDP over the candidates (no envelope): K·max_j D_α(pair_j).
  std::vector<RenyiAtoms> renyi;
  bool rdp_finite = true;
  for (const PmfPair& c : candidates) {
    renyi.push_back(PrepareRenyi(c, options.prec));
    if (renyi.back().infinite) rdp_finite = false;
  }
  if (rdp_finite) {
    if (options.progress) options.progress("upper end, RDP over " + std::to_string(candidates.size()) + " candidate pairs");
    const AccountantResult rdp = Account(
        [&](const Rational& a) {
          std::optional<Enclosure> worst_d;
          for (const RenyiAtoms& c : renyi) {
            const Enclosure d = Renyi(c, a, options.prec);
            worst_d = worst_d ? Max(*worst_d, d) : d;
          }
          return *worst_d;
        },
        Rational(static_cast<long>(k)), delta, CentralOrders(), Conversion::kImproved);
    out.rdp_upper = rdp.epsilon;
    if (!out.epsilon.hi || rdp.epsilon.hi() < *out.epsilon.hi) out.epsilon.hi = rdp.epsilon.hi();
  }

  if (lo_infinite && !out.epsilon.hi) out.epsilon.lo.reset();
  else out.epsilon.lo = lo_infinite ? *out.epsilon.hi : lo;
  if (out.epsilon.lo && out.epsilon.hi && *out.epsilon.lo > *out.epsilon.hi) out.epsilon.lo = out.epsilon.hi;
  return out;
}

}  // namespace dpfl::ref::pld
