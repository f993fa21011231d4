// dpfl::ref::pld — the central view of the binary mechanisms with dropout (pld_central.hpp
// "Dropout" for the argument): a mixture over the round's public pattern, composed over T rounds.
#include <algorithm>
#include <cmath>
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

// Hoeffding: a sum X of N independent Bernoullis has P(X ≤ E X − t) ≤ e^{−2t²/N}. With
// t = ⌈√(22.19 N)⌉ + 1, 2t²/N ≥ 44.38 > 64 ln 2, so P(X < the returned floor) ≤ kManySoloTail.
long HoeffdingFloor(const Rational& mean, long summands) {
  if (summands == 0) return FloorInt(mean).convert_to<long>();  // a constant
  const long t = static_cast<long>(std::ceil(std::sqrt(22.19 * static_cast<double>(summands)))) + 1;
  return FloorInt(Rational(mean - t)).convert_to<long>();
}

// The fair coins among `other_solo` solo bits (each one w.p. 2 q_lo, independently), at least
// this many except with probability ≤ kManySoloTail (0 when the floor is negative).
long CoinsAtLeast(long other_solo, const Rational& q_lo) {
  return std::max(0L, HoeffdingFloor(Rational(2 * q_lo * other_solo), other_solo));
}

// P(Binomial(k, r) = j), j = 0 … k, enclosed (MPFI, from (1 − r)^k by the ratio recurrence).
std::vector<Enclosure> BinomialEnclosures(long k, const Rational& r, mpfr_prec_t prec) {
  std::vector<Enclosure> b;
  b.reserve(static_cast<std::size_t>(k + 1));
  Enclosure first(prec, 1L), base(prec, Rational(1 - r));
  for (long e = k; e > 0; e >>= 1, base = base * base)
    if (e & 1) first = first * base;
  b.push_back(first);
  const Rational odds = r / (1 - r);
  for (long j = 0; j < k; ++j) b.push_back(b.back() * Rational(odds * Rational(k - j, j + 1)));
  return b;
}

// (p0 ∗ B, q0 ∗ B), B ~ Bin(k, r) (r < 1): a base pair (the target's own contribution) plus the
// other solo clients' bits — fair coins (r = 1/2) for the upper end (pld_central.hpp "Many solo
// clients": solo target (Bern(q_hi), Bern(q_lo)), paired ((0, 1), (1, 0)), both symmetric under
// j ↦ k + 1 − j, so one direction), the other solo clients at the centre (r = 1/2) or, without
// pairs and dropout, at the bottom end (r = q_lo) for the lower one. Only the atoms within t = ⌈√(69.32·k)⌉ + 1 of B's mean are kept (Hoeffding:
// P(|B − kr| ≥ t) ≤ 2e^{−2t²/k} ≤ 2^−199); each side's tail mass, at most 2^−199, becomes an atom
// only that side can reach — P's at +∞ in the upper measure (the pair still dominates: H_α gains at
// least the tail's Σ (p − αq)_+), dropped from the lower one (which then under-states the exact
// pair's, as a lower end must). Without the cut the exact tails would make FromPmfEnclosures'
// rationals huge.
Pld BinomialPairPld(const std::vector<Rational>& p0, const std::vector<Rational>& q0, long k, const Rational& r,
                    const GridOptions& grid) {
  const mpfr_prec_t prec = std::max<mpfr_prec_t>(grid.prec, 128);
  const std::vector<Enclosure> b = BinomialEnclosures(k, r, prec);
  const long width = static_cast<long>(p0.size()) - 1;  // atoms j = 0 … k + width
  const long t = static_cast<long>(std::ceil(std::sqrt(69.32 * static_cast<double>(k)))) + 1;
  // B ∈ (kr − t, kr + t).
  const long b_first = std::max(0L, FloorInt(Rational(k * r - t)).convert_to<long>() + 1);
  const long b_last = std::min(k, Int(-FloorInt(Rational(-k * r - t))).convert_to<long>() - 1);
  const bool cut = b_first > 0 || b_last < k;
  std::vector<Enclosure> P, Q;
  for (long j = b_first; j <= b_last + width; ++j) {
    Enclosure pj(prec, 0L), qj(prec, 0L);
    for (long i = 0; i <= width; ++i) {
      const long k = j - i;
      if (k < b_first || k > b_last) continue;
      pj += p0[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(k)];
      qj += q0[static_cast<std::size_t>(i)] * b[static_cast<std::size_t>(k)];
    }
    P.push_back(pj);
    Q.push_back(qj);
  }
  if (cut) {
    const Enclosure tail = Hull(Enclosure(prec, 0L), Enclosure(prec, Pow2(-199)));
    P.push_back(tail);  // reachable under P only
    Q.emplace_back(prec, 0L);
    P.emplace_back(prec, 0L);  // reachable under Q only
    Q.push_back(tail);
  }
  return FromPmfEnclosures(P, Q, grid.step, prec);
}

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

Pld ManySoloPairPld(bool target_solo, long other_solo, const Rational& q_lo, const Rational& q_hi,
                    const GridOptions& grid) {
  if (other_solo < 0) throw InvalidArgument("other_solo", "must be >= 0, got " + std::to_string(other_solo));
  if (!(q_lo > 0 && q_lo <= Rational(1, 2))) throw InvalidArgument("q_lo", "must be in (0, 1/2], got " + EchoValue(q_lo));
  if (!(q_hi >= Rational(1, 2) && q_hi < 1)) throw InvalidArgument("q_hi", "must be in [1/2, 1), got " + EchoValue(q_hi));
  // The decomposition needs a range symmetric about 1/2: widen it (a wider range is less private).
  const Rational lo = Min(q_lo, Rational(1 - q_hi)), hi = 1 - lo;
  const std::vector<Rational> p0 = target_solo ? std::vector<Rational>{Rational(1 - hi), hi}
                                               : std::vector<Rational>{Rational(0), Rational(1)};
  const std::vector<Rational> q0 = target_solo ? std::vector<Rational>{Rational(1 - lo), lo}
                                               : std::vector<Rational>{Rational(1), Rational(0)};
  // K ≥ K* coins w.p. ≥ 1 − 2^−64 (fewer coins is less noise), else none at all.
  return Mixture({Rational(1 - kManySoloTail), kManySoloTail},
                 {BinomialPairPld(p0, q0, CoinsAtLeast(other_solo, lo), Rational(1, 2), grid),
                  BinomialPairPld(p0, q0, 0, Rational(1, 2), grid)});
}

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
  // other_solo = Bin(solo_others, stay) + Bin(pair_others, lone): its law for i ≤ kLimit (exact);
  // the rest of w goes to "at least L" (L the Hoeffding floor, weight rest − w·2^−64 ≤ the true
  // w·P(X ≥ L)) and "more than kLimit" (the remainder, ≥ the true w·P(kLimit < X < L)): mass only
  // ever moves to fewer solo clients.
  auto add = [&](bool solo, const Rational& w, long solo_others, long pair_others) {
    std::vector<Rational> law =
        ConvolvePmfs(LowBinomial(solo_others, stay, kLimit), LowBinomial(pair_others, lone, kLimit));
    if (law.size() > static_cast<std::size_t>(kLimit + 1)) law.resize(static_cast<std::size_t>(kLimit + 1));
    Rational rest = w;
    for (std::size_t i = 0; i < law.size(); ++i)
      if (w * law[i] > 0) {
        out.push_back({true, solo, static_cast<long>(i), false, Rational(w * law[i])});
        rest -= out.back().weight;
      }
    if (rest <= 0) return;
    const Rational mean = stay * solo_others + lone * pair_others;
    // Hoeffding counts only summands with a range: without dropout the count is exactly the mean.
    const long summands = (stay < 1 ? solo_others : 0) + (lone > 0 ? pair_others : 0);
    const long at_least = HoeffdingFloor(mean, summands);
    const Rational tail = w * kManySoloTail;
    if (at_least >= kManySoloMin && rest > tail) {
      // By symmetry of Hoeffding, X ≤ 2·mean − HoeffdingFloor(mean) except w.p. ≤ 2^−64.
      const long at_most = std::min(solo_others + pair_others, Int(-FloorInt(Rational(at_least - 2 * mean))).convert_to<long>());
      out.push_back({true, solo, at_least, true, Rational(rest - tail), at_most});
      out.push_back({true, solo, kLimit + 1, true, tail});
    } else {
      out.push_back({true, solo, kLimit + 1, true, rest});
    }
  };
  const Rational n = s.clients;
  if (s.solo >= 1)  // assigned solo: the other s − 1 solo clients stay, every pair may leave one
    add(true, Rational(stay * s.solo / n), s.solo - 1, pairs);
  if (pairs >= 1) {  // paired: its partner stays (paired) or not (solo)
    const Rational w = stay * (n - s.solo) / n;
    add(true, Rational(w * p), s.solo, pairs - 1);
    add(false, Rational(w * stay), s.solo, pairs - 1);
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
  // Patterns of weight below 2^-60 are not worth an envelope: the upper end moves them to the worst
  // pattern (paired, no other solo client: a shift of one, loss +∞), the lower end to loss 0.
  const Rational negligible = Pow2(-60);  // e.g. the 2^-64 Hoeffding remainders
  for (const DropoutPattern& pt : patterns) {
    if (!pt.present) {
      absent += pt.weight;
      continue;
    }
    const bool tiny = pt.weight < negligible;
    // "At least L" patterns use the fair-coin pair when it has enough coins to beat the exact
    // envelope at the last level (an optimization only: either is an upper bound).
    const bool many = pt.or_more && pt.other_solo > kDropoutExactSolo + 1 &&
                      CoinsAtLeast(pt.other_solo, Min(s.q_lo, Rational(1 - s.q_hi))) >= 4 * kDropoutExactSolo;
    upper_groups[tiny ? Group{false, 0} : Group{pt.solo, many ? pt.other_solo : LevelDown(pt.other_solo)}] += pt.weight;
    if (!tiny && pt.or_more && pt.at_most > kDropoutExactSolo) {
      // Count in [L, at_most] except w.p. ≤ 2^−64 (a sub-measure: that part gets loss 0).
      const Rational sure = Max(Rational(0), Rational(pt.weight - kManySoloTail));
      lower_groups[Group{pt.solo, pt.at_most}] += sure;
      lower_groups[Group{true, -1}] += pt.weight - sure;
      continue;
    }
    lower_groups[tiny ? Group{true, -1} : Group{pt.solo, LevelUp(pt.other_solo)}] += pt.weight;  // −1: loss 0
  }
  CentralResult out;
  // Upper: the envelope per group, exact, built once; groups beyond the last level (many solo
  // clients) the fair-coin mixture instead (no envelope: its pair is symmetric).
  std::vector<Rational> weights;
  std::vector<PmfPair> envelopes;  // empty p: a fair-coin group
  std::vector<Group> groups;
  for (const auto& [g, w] : upper_groups) {
    weights.push_back(w);
    groups.push_back(g);
    if (g.other_solo > kDropoutExactSolo) {
      envelopes.emplace_back();
      if (!g.solo) out.infinite_mass_upper += w * kManySoloTail;  // the no-coin part: (1, 0)
      continue;
    }
    envelopes.push_back(DominatingEnvelope(TargetCandidatePairs(g.solo, g.other_solo, s.q_lo, s.q_hi)));
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
        for (std::size_t i = 0; i < envelopes.size(); ++i) {
          const PmfPair& e = envelopes[i];
          Pld one;
          if (e.p.empty()) {  // K ≥ K* coins w.p. ≥ 1 − 2^−64 (fewer coins is less noise), else none
            const Group& g = groups[i];
            one = ManySoloPairPld(g.solo, g.other_solo, s.q_lo, s.q_hi, grid);
          } else {
            one = FromPmfs(e.p, e.q, grid.step, grid.prec);
          }
          parts.push_back(PldPair{SelfCompose(one, m, o.compose), std::nullopt});
        }
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
  // Each part: the target's base pair plus Bin(coins, 1/2) from the other solo clients at the
  // centre — exact below the last level, enclosed with cut tails above it (BinomialPairPld).
  struct LowerPart {
    PmfPair base;
    long coins;
  };
  std::vector<Rational> lw;
  std::vector<LowerPart> lparts;
  Rational zero_loss = 0;  // groups beyond the last level, or paired without d
  for (const auto& [g, w] : lower_groups) {
    if (g.other_solo < 0 || (!g.solo && !pairs_realisable)) {
      zero_loss += w;
      continue;
    }
    if (g.solo) {
      lparts.push_back({{{Rational(1 - s.q_hi), s.q_hi}, {Rational(1 - s.q_lo), s.q_lo}}, g.other_solo});
      lw.push_back(w);
      continue;
    }
    for (bool first : {true, false}) {  // the role is part of the public schedule, each w.p. 1/2
      const Rational centre(1, 2);
      lparts.push_back({{PairCount(s.pairs, s.q_hi, centre, s.shared_bits, first),
                         PairCount(s.pairs, s.q_lo, centre, s.shared_bits, first)},
                        g.other_solo});
      lw.push_back(w / 2);
    }
  }
  absent += zero_loss;
  // The lower end is ONE configuration of the other clients' inputs for every pattern (inputs do not
  // depend on the round's schedule): every other client at the centre. The exception: without
  // pairs and without dropout (LDP-FL, s > kCentralMaxSolo) there is one pattern that matters, and
  // every other client at the bottom end q_lo is a configuration with less noise (Bin(s − 1, q_lo)).
  const Rational noise_rate = s.solo == s.clients && s.dropout == 0 ? s.q_lo : Rational(1, 2);
  out.lower.push_back(EpsilonOfComposition(
      [&](const GridOptions& grid) {
        std::vector<PldPair> parts;
        for (const LowerPart& lp : lparts) {
          if (lp.coins > kDropoutExactSolo) {  // beyond the last level: enclosures with cut tails
            parts.push_back(PldPair{SelfCompose(BinomialPairPld(lp.base.p, lp.base.q, lp.coins, noise_rate, grid), m, o.compose),
                                    std::nullopt});
            continue;
          }
          const std::vector<Rational> noise = Binomial(lp.coins, Rational(1, 2));
          parts.push_back(SelfCompose(TwoPmfPld(ConvolvePmfs(lp.base.p, noise), ConvolvePmfs(lp.base.q, noise), grid), m,
                                      o.compose));
        }
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
