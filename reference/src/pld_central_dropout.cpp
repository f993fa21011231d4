// dpfl::ref::pld — the central view of the binary mechanisms with dropout (pld_central.hpp
// "Dropout" for the argument): a mixture over the round's public pattern, composed over T rounds.
#include <algorithm>
#include <map>
#include <tuple>

#include "dpfl/ref/corbinq.hpp"
#include "dpfl/validate.hpp"
#include "pld_central_dropout.hpp"

namespace dpfl::ref::pld {
namespace {

// Bin(k, r) exactly, by the closed form C(k, i) r^i (1 − r)^{k−i}.
std::vector<Rational> Binomial(long k, const Rational& r) {
  std::vector<Rational> out(static_cast<std::size_t>(k + 1));
  std::vector<Rational> pow_r{Rational(1)}, pow_s{Rational(1)};
  for (long i = 1; i <= k; ++i) {
    pow_r.push_back(pow_r.back() * r);
    pow_s.push_back(pow_s.back() * (1 - r));
  }
  Int c = 1;
  for (long i = 0; i <= k; ++i) {
    out[static_cast<std::size_t>(i)] = Rational(c) * pow_r[static_cast<std::size_t>(i)] * pow_s[static_cast<std::size_t>(k - i)];
    c = c * (k - i) / (i + 1);
  }
  return out;
}

// Levels for `other_solo`: the largest level ≤ s (upper) or the smallest level ≥ s (lower; -1
// beyond the last level, meaning "use loss 0").
long LevelDown(long s) {
  long out = 0;
  for (long l : kDropoutSoloLevels)
    if (l <= s) out = l;
  return out;
}
long LevelUp(long s) {
  for (long l : kDropoutSoloLevels)
    if (l >= s) return l;
  return -1;
}

// The sum of "+" levels of a pair (target at q, partner at 1/2) for the target in either role,
// exact (spec 000 §4.2, corrected line 14).
std::vector<Rational> PairCountAtCentre(const Rational& q, int d, bool target_first) {
  const JointPmf<Rational> j = target_first ? CorBinQJointClosedForm(q, Rational(1, 2), d, Line14::kCorrected)
                                            : CorBinQJointClosedForm(Rational(1, 2), q, d, Line14::kCorrected);
  return {j.mm, Rational(j.mp + j.pm), j.pp};
}

struct Group {
  bool solo;
  long other_solo;
  bool operator<(const Group& o) const { return std::tie(solo, other_solo) < std::tie(o.solo, o.other_solo); }
};

}  // namespace

std::vector<DropoutPattern> DropoutPatterns(const CentralBinarySetting& s) {
  using detail::ConvolvePmfs;
  if (s.clients < 1) throw InvalidArgument("clients", "must be >= 1, got " + std::to_string(s.clients));
  if (s.solo < 0 || s.solo > s.clients || (s.clients - s.solo) % 2 != 0)
    throw InvalidArgument("solo", "must be in [0, clients] with clients - solo even, got " + std::to_string(s.solo));
  if (!(s.dropout >= 0 && s.dropout < 1)) throw InvalidArgument("dropout", "must be in [0, 1), got " + EchoValue(s.dropout));
  const Rational p = s.dropout, stay = 1 - s.dropout, lone = 2 * s.dropout * (1 - s.dropout);
  const long pairs = (s.clients - s.solo) / 2;
  std::vector<DropoutPattern> out;
  if (p > 0) out.push_back({false, false, 0, p});
  auto add = [&](bool solo, const Rational& w, const std::vector<Rational>& law) {
    for (std::size_t i = 0; i < law.size(); ++i)
      if (w * law[i] > 0) out.push_back({true, solo, static_cast<long>(i), Rational(w * law[i])});
  };
  const Rational n = s.clients;
  if (s.solo >= 1)  // assigned solo: the other s − 1 solo clients stay, every pair may leave one
    add(true, Rational(stay * s.solo / n), ConvolvePmfs(Binomial(s.solo - 1, stay), Binomial(pairs, lone)));
  if (pairs >= 1) {  // paired: its partner stays (paired) or not (solo)
    const std::vector<Rational> law = ConvolvePmfs(Binomial(s.solo, stay), Binomial(pairs - 1, lone));
    const Rational w = stay * (n - s.solo) / n;
    add(true, Rational(w * p), law);
    add(false, Rational(w * stay), law);
  }
  return out;
}

namespace detail {

CentralResult CentralDropoutEpsilon(const CentralBinarySetting& s, const Rational& delta, const AccountOptions& options,
                                    bool with_lower) {
  const std::vector<DropoutPattern> patterns = DropoutPatterns(s);
  const std::uint64_t m = s.coordinates;
  Rational absent = 0;
  std::map<Group, Rational> upper_groups, lower_groups;
  for (const DropoutPattern& pt : patterns) {
    if (!pt.present) {
      absent += pt.weight;
      continue;
    }
    upper_groups[{pt.solo, LevelDown(pt.other_solo)}] += pt.weight;
    lower_groups[{pt.solo, LevelUp(pt.other_solo)}] += pt.weight;  // −1: loss 0
  }
  CentralResult out;
  // Upper: the envelope per group, exact, built once.
  std::vector<Rational> weights;
  std::vector<PmfPair> envelopes;
  for (const auto& [g, w] : upper_groups) {
    envelopes.push_back(DominatingEnvelope(TargetCandidatePairs(g.solo, g.other_solo, s.q_lo, s.q_hi)));
    weights.push_back(w);
    for (std::size_t i = 0; i < envelopes.back().p.size(); ++i)
      if (envelopes.back().q[i] == 0) out.infinite_mass_upper += w * envelopes.back().p[i];
  }
  AccountOptions o = options;
  o.step_compositions = m * s.rounds;
  auto mixture = [&](const GridOptions& grid, const std::vector<Rational>& ws, const std::vector<PldPair>& parts) {
    std::vector<Rational> all_w = ws;
    std::vector<PldPair> all = parts;
    if (absent > 0) {
      all_w.push_back(absent);
      all.push_back(PldPair{IdentityPld(grid.step), std::nullopt});
    }
    return Mixture(all_w, all);
  };
  // The envelopes hold both directions of every candidate: one direction suffices.
  out.upper = EpsilonOfComposition(
      [&](const GridOptions& grid) {
        std::vector<PldPair> parts;
        for (const PmfPair& e : envelopes)
          parts.push_back(PldPair{SelfCompose(FromPmfs(e.p, e.q, grid.step, grid.prec), m, o.compose), std::nullopt});
        return mixture(grid, weights, parts);
      },
      s.rounds, delta, o);
  out.epsilon.hi = out.upper.epsilon.hi;
  if (!with_lower) return out;
  // Lower: every other client at the centre; the target at the two ends.
  const bool pairs_realisable = s.shared_bits >= 1 && s.shared_bits <= kMaxSharedBits;
  const bool others_in_pairs = s.clients - s.solo >= 4 || (s.clients - s.solo >= 2 && s.solo >= 1);
  if (others_in_pairs && !pairs_realisable) {  // the others' pairs are not constant: no realisable bound here
    out.epsilon.lo = Rational(0);
    return out;
  }
  std::vector<Rational> lw;
  std::vector<PmfPair> lpairs;
  Rational zero_loss = 0;  // groups beyond the last level, or paired without d
  for (const auto& [g, w] : lower_groups) {
    if (g.other_solo < 0 || (!g.solo && !pairs_realisable)) {
      zero_loss += w;
      continue;
    }
    const std::vector<Rational> noise = Binomial(g.other_solo, Rational(1, 2));
    if (g.solo) {
      lpairs.push_back({ConvolvePmfs({Rational(1 - s.q_hi), s.q_hi}, noise), ConvolvePmfs({Rational(1 - s.q_lo), s.q_lo}, noise)});
      lw.push_back(w);
      continue;
    }
    for (bool first : {true, false}) {  // the role is part of the public schedule, each w.p. 1/2
      lpairs.push_back({ConvolvePmfs(PairCountAtCentre(s.q_hi, s.shared_bits, first), noise),
                        ConvolvePmfs(PairCountAtCentre(s.q_lo, s.shared_bits, first), noise)});
      lw.push_back(w / 2);
    }
  }
  absent += zero_loss;
  out.lower.push_back(EpsilonOfComposition(
      [&](const GridOptions& grid) {
        std::vector<PldPair> parts;
        for (const PmfPair& pr : lpairs) parts.push_back(SelfCompose(TwoPmfPld(pr.p, pr.q, grid), m, o.compose));
        return mixture(grid, lw, parts);
      },
      s.rounds, delta, o));
  const EpsilonBounds& e = out.lower.back().epsilon;
  if (!e.lo && !out.epsilon.hi) out.epsilon.lo.reset();
  else out.epsilon.lo = e.lo ? *e.lo : *out.epsilon.hi;
  if (out.epsilon.lo && out.epsilon.hi && *out.epsilon.lo > *out.epsilon.hi) out.epsilon.lo = out.epsilon.hi;
  return out;
}

}  // namespace detail
}  // namespace dpfl::ref::pld
