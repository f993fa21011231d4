// dpfl::ref::pld — the central view of the binary mechanisms with dropout (pld_central.hpp
// "Dropout" for the argument): a mixture over the round's public pattern, composed over T rounds.
#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>

#include "dpfl/ref/corbinq.hpp"
#include "dpfl/validate.hpp"
#include "pld_central_dropout.hpp"

namespace dpfl::ref::pld {
namespace {

// P(Bin(k, r) = i) for i = 0 … min(k, limit), exactly, by the ratio recurrence from (1 − r)^k: a
// few big-number products however large k is.
std::vector<Rational> LowBinomial(long k, const Rational& r, long limit) {
  std::vector<Rational> out;
  if (r == 1) {  // only i = k has mass
    for (long i = 0; i <= std::min(k, limit); ++i) out.push_back(Rational(i == k ? 1 : 0));
    return out;
  }
  const Rational one_minus = 1 - r;
  Rational first = 1, base = one_minus;  // (1 − r)^k by squaring
  for (long e = k; e > 0; e >>= 1, base *= base)
    if (e & 1) first *= base;
  out.push_back(first);
  const Rational ratio = r / one_minus;
  for (long i = 0; i < std::min(k, limit); ++i)
    out.push_back(out.back() * Rational(k - i, i + 1) * ratio);
  return out;
}

// Binomial(k, 1/2) in full, for the lower end's noise (k ≤ kDropoutExactSolo).
std::vector<Rational> Binomial(long k, const Rational& r) { return LowBinomial(k, r, k); }

// Levels for `other_solo`: the largest level ≤ s (upper) or the smallest level ≥ s (lower; -1
// beyond the last level, meaning "use loss 0").
static_assert(kDropoutSoloLevels[std::size(kDropoutSoloLevels) - 1] == kDropoutExactSolo);
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
  constexpr long kLimit = kDropoutExactSolo;
  std::vector<DropoutPattern> out;
  if (p > 0) out.push_back({false, false, 0, false, p});
  // law = P(other_solo = i) for i ≤ kLimit (exact); the rest of w goes to one "or more" pattern.
  auto add = [&](bool solo, const Rational& w, std::vector<Rational> law) {
    if (law.size() > static_cast<std::size_t>(kLimit + 1)) law.resize(static_cast<std::size_t>(kLimit + 1));
    Rational rest = w;
    for (std::size_t i = 0; i < law.size(); ++i)
      if (w * law[i] > 0) {
        out.push_back({true, solo, static_cast<long>(i), false, Rational(w * law[i])});
        rest -= out.back().weight;
      }
    if (rest > 0) out.push_back({true, solo, kLimit + 1, true, rest});
  };
  auto law_of = [&](long solo_others, long pair_others) {  // the low part of Bin(·, stay) ∗ Bin(·, lone)
    return ConvolvePmfs(LowBinomial(solo_others, stay, kLimit), LowBinomial(pair_others, lone, kLimit));
  };
  const Rational n = s.clients;
  if (s.solo >= 1)  // assigned solo: the other s − 1 solo clients stay, every pair may leave one
    add(true, Rational(stay * s.solo / n), law_of(s.solo - 1, pairs));
  if (pairs >= 1) {  // paired: its partner stays (paired) or not (solo)
    const std::vector<Rational> law = law_of(s.solo, pairs - 1);
    const Rational w = stay * (n - s.solo) / n;
    add(true, Rational(w * p), law);
    add(false, Rational(w * stay), law);
  }
  return out;
}

namespace detail {

CentralResult CentralDropoutEpsilon(const CentralBinarySetting& s, const Rational& delta, const AccountOptions& options,
                                    bool with_lower) {
  if (!(s.q_lo > 0 && s.q_lo <= Rational(1, 2))) throw InvalidArgument("q_lo", "must be in (0, 1/2], got " + EchoValue(s.q_lo));
  if (!(s.q_hi >= Rational(1, 2) && s.q_hi < 1)) throw InvalidArgument("q_hi", "must be in [1/2, 1), got " + EchoValue(s.q_hi));
  if (s.shared_bits < 0 || s.shared_bits > 64)
    throw InvalidArgument("shared_bits", "must be in [0, 64], got " + std::to_string(s.shared_bits));
  const std::vector<DropoutPattern> patterns = DropoutPatterns(s);
  const std::uint64_t m = s.coordinates;
  Rational absent = 0;
  std::map<Group, Rational> upper_groups, lower_groups;
  // Patterns of weight below 2^-128 are not worth an envelope: the upper end moves them to the worst
  // pattern (paired, no other solo client: a shift of one, loss +∞), the lower end to loss 0.
  const Rational negligible = Pow2(-128);
  for (const DropoutPattern& pt : patterns) {
    if (!pt.present) {
      absent += pt.weight;
      continue;
    }
    const bool tiny = pt.weight < negligible;
    upper_groups[tiny ? Group{false, 0} : Group{pt.solo, LevelDown(pt.other_solo)}] += pt.weight;
    lower_groups[tiny ? Group{true, -1} : Group{pt.solo, LevelUp(pt.other_solo)}] += pt.weight;  // −1: loss 0
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
  const bool pairs_realisable =
      s.shared_bits >= 1 && s.shared_bits <= kMaxSharedBits && detail::CentrePairIsConstant(s.pairs, s.shared_bits);
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
      const Rational centre(1, 2);
      lpairs.push_back({ConvolvePmfs(PairCount(s.pairs, s.q_hi, centre, s.shared_bits, first), noise),
                        ConvolvePmfs(PairCount(s.pairs, s.q_lo, centre, s.shared_bits, first), noise)});
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
