// dpfl::ref::pld — central view of the binary mechanisms (see pld_central.hpp for the argument).
#include "dpfl/ref/pld_central.hpp"

#include <algorithm>
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

std::vector<PldPair> CentralAchievablePairs(const CentralBinarySetting& s, const GridOptions& grid) {
  ValidateSetting(s);
  const std::vector<Rational> bern_hi{Rational(1 - s.q_hi), s.q_hi}, bern_lo{Rational(1 - s.q_lo), s.q_lo};
  std::vector<PldPair> out;
  if (s.solo >= 1) {
    std::vector<Rational> others_hi{Rational(1)}, others_lo{Rational(1)};
    for (long k = 0; k < s.solo - 1; ++k) {
      others_hi = Convolve(others_hi, bern_hi);
      others_lo = Convolve(others_lo, bern_lo);
    }
    for (const auto* R : {&others_hi, &others_lo})
      out.push_back(TwoPmfPld(Convolve(bern_hi, *R), Convolve(bern_lo, *R), grid));
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
    out.push_back(TwoPmfPld(Convolve(pair_p, R), Convolve(pair_q, R), grid));
  }
  return out;
}

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
  const PmfPair pair = DominatingEnvelope(candidates);
  CentralResult out;
  for (std::size_t i = 0; i < pair.p.size(); ++i)
    if (pair.q[i] == 0) out.infinite_mass_upper += pair.p[i];
  // The envelope already contains both directions of every candidate pair: one direction suffices.
  out.upper = EpsilonOfComposition(
      [&](const GridOptions& g) {
        PldPair p;
        p.forward = FromPmfs(pair.p, pair.q, g.step, g.prec);
        return p;
      },
      k, delta, options);
  out.epsilon.hi = out.upper.epsilon.hi;
  // RDP over the candidates (no envelope): K·max_j D_α(pair_j).
  bool rdp_finite = true;
  for (const PmfPair& c : candidates)
    for (std::size_t i = 0; i < c.p.size() && rdp_finite; ++i)
      if (c.p[i] > 0 && c.q[i] == 0) rdp_finite = false;
  if (rdp_finite) {
    const AccountantResult rdp = Account(
        [&](const Rational& a) {
          std::optional<Enclosure> worst;
          for (const PmfPair& c : candidates) {
            const Enclosure d = *RenyiDivergence(c, a, options.prec);
            worst = worst ? Max(*worst, d) : d;
          }
          return *worst;
        },
        Rational(static_cast<long>(k)), delta, CentralOrders(), Conversion::kImproved);
    out.rdp_upper = rdp.epsilon;
    if (!out.epsilon.hi || rdp.epsilon.hi() < *out.epsilon.hi) out.epsilon.hi = rdp.epsilon.hi();
  }
  Rational lo = 0;
  bool lo_infinite = false;
  const std::size_t n_lower = with_lower ? CentralAchievablePairs(setting, GridOptions{Rational(1, 64)}).size() : 0;
  for (std::size_t i = 0; i < n_lower; ++i) {
    out.lower.push_back(EpsilonOfComposition(
        [&](const GridOptions& g) { return CentralAchievablePairs(setting, g)[i]; }, k, delta, options));
    const EpsilonBounds& e = out.lower.back().epsilon;
    if (!e.lo) lo_infinite = true;
    else lo = Max(lo, *e.lo);
  }
  if (lo_infinite && !out.epsilon.hi) out.epsilon.lo.reset();
  else out.epsilon.lo = lo_infinite ? *out.epsilon.hi : lo;
  if (out.epsilon.lo && out.epsilon.hi && *out.epsilon.lo > *out.epsilon.hi) out.epsilon.lo = out.epsilon.hi;
  return out;
}

}  // namespace dpfl::ref::pld
