// dpfl::ref::pld — connect-the-dots discretization of pmf pairs and of envelopes of candidate
// pairs (pld.hpp "connect-the-dots" says why each operation below is valid).
//
// Rounding. Masses are doubles. Every value that enters a measure is a bound in the right
// direction: products and sums of non-negative doubles are nudged by Up/Down (one rounding has
// relative error ≤ u = 2^−53 < 2^−50; nextafter covers the absolute error of a subnormal result),
// sums of n non-negative terms by γ_n (Higham 2002, §3.1), and every transcendental (log of a mass
// ratio, e^{kh}, 1 − e^{−y}) is taken from an MPFI enclosure at the needed end.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "dpfl/ref/pld.hpp"
#include "dpfl/validate.hpp"
#include "pld_internal.hpp"

namespace dpfl::ref::pld {
namespace {

constexpr double kU = 0x1p-53;
constexpr mpfr_prec_t kPrec = 64;

double Gamma(double k) { return k * kU / (1.0 - k * kU) * (1 + 0x1p-50); }
using detail::Down;
using detail::Up;

void ValidateStep(const Rational& step) {
  if (!(step > 0)) throw InvalidArgument("step", "the grid step must be > 0, got " + EchoValue(step));
}

// ⌊x/h⌋ and ⌈x/h⌉ for a double x (exact: a double is a dyadic rational).
std::int64_t FloorIndex(double x, const Rational& step) {
  const Int f = FloorInt(Rational(Rational(x) / step));
  if (f > Int(std::int64_t{1} << 60) || f < -Int(std::int64_t{1} << 60))
    throw InvalidArgument("step", "the loss range over the grid step exceeds 2^60 points");
  return f.convert_to<std::int64_t>();
}
std::int64_t CeilIndex(double x, const Rational& step) { return -FloorIndex(-x, step); }

using Sparse = std::map<std::int64_t, double>;

// A sparse accumulator whose entries are sums of at most `terms` bounds, as a dense measure with
// each entry's summation error (γ_terms) undone in the measure's direction.
GridMeasure Densify(const Sparse& s, std::size_t terms, bool upper, double infinity) {
  GridMeasure m;
  m.infinity = infinity;
  if (s.empty()) return m;
  const double g = Gamma(static_cast<double>(terms + 2));
  m.offset = s.begin()->first;
  m.mass.assign(static_cast<std::size_t>(s.rbegin()->first - m.offset + 1), 0.0);
  for (const auto& [k, v] : s)
    m.mass[static_cast<std::size_t>(k - m.offset)] = upper ? Up(v * (1 + g)) : Down(v * (1 - g));
  return m;
}

// Upper: each atom's P-mass (its upper end) split between a = ⌊loss_lo/h⌋h and b = ⌈loss_hi/h⌉h so
// that its P- and Q-mass are kept: the share at b is (1 − e^{−(y − a)})/(1 − e^{−(b − a)}),
// increasing in y, so y's enclosure gives an upper end for each share (pld.hpp: split + add).
GridMeasure SplitUpper(const PmfAtoms& atoms, const Rational& step) {
  Sparse up;
  std::map<std::int64_t, Enclosure> width_cache;  // 1 − e^{−(b − a)h} per b − a
  for (const PmfAtoms::Atom& at : atoms.finite) {
    const std::int64_t a = FloorIndex(at.loss_lo, step), b = CeilIndex(at.loss_hi, step);
    if (a == b) {
      up[a] += at.p_hi;
      continue;
    }
    auto it = width_cache.find(b - a);
    if (it == width_cache.end())
      it = width_cache.emplace(b - a, -Expm1(-Enclosure(kPrec, Rational(step * (b - a))))).first;
    const Rational base = step * a;
    const Enclosure y = Hull(Enclosure(kPrec, Rational(Rational(at.loss_lo) - base)),
                             Enclosure(kPrec, Rational(Rational(at.loss_hi) - base)));
    const Enclosure share_b = -Expm1(-y) / it->second;
    const Enclosure share_a = Rational(1) - share_b;
    up[b] += Up(at.p_hi * std::min(1.0, share_b.HiDouble()));
    up[a] += Up(at.p_hi * std::min(1.0, std::max(0.0, share_a.HiDouble())));
  }
  return Densify(up, 2 * atoms.finite.size(), true, atoms.infinity_hi);
}

// e^{−kh}, bounded from below.
double ExpNegLo(std::int64_t k, const Rational& step) { return Exp(-Enclosure(kPrec, Rational(step * k))).LoDouble(); }

// An atom as the lower merge sees it: P-content ≥ p_lo, Q-content ≤ q_hi, loss ≥ k·h.
struct LowerAtom {
  double p_lo, q_hi;
  std::int64_t k;
};

// Lower: consecutive atoms (by loss, descending) merged into groups whose merged loss is a grid
// point. A group at index k holds pieces of atoms with P-content ≥ W and Q-content ≤ S, S ≤ t·W,
// t ≤ e^{−kh}: its true merged loss log(P/Q) is then ≥ kh, and placing W at kh is a merge, a move
// down and a drop (pld.hpp). Atoms enter with P-content p_lo (a drop) and Q-content ≤ q_hi. A piece
// of an atom whose own loss is below kh raises the group's Q/P ratio; the fraction f that fills the
// group to exactly t is taken (less a margin of 2^−44 of its Q-content, and only if the check S ≤ t·W then holds), the
// group is closed and the rest of the atom opens the next group at the atom's own index.
// `atom(i)` gives the i-th atom (descending loss), `neg_exp_lo(k)` a lower bound of e^{−kh};
// `add(k, W)` receives each group. Returns the number of groups.
template <class AtomAt, class NegExpLo, class Add>
std::size_t MergeGroups(std::size_t count, const AtomAt& atom, const NegExpLo& neg_exp_lo, const Add& add) {
  std::size_t groups = 0;
  bool open = false;
  std::int64_t k = 0;
  double t = 0, W = 0, S = 0;
  auto close = [&]() {
    if (open && W > 0) {
      add(k, W);
      ++groups;
    }
    open = false;
  };
  // Opens a group with the fraction `rem` of an atom; leaves it closed if nothing of it survives
  // rounding (then the piece is dropped, which is valid).
  auto start = [&](const LowerAtom& at, double rem) {
    W = Down(rem * at.p_lo);
    S = Up(rem * at.q_hi);
    if (W <= 0) return;
    k = at.k;
    for (int tries = 0; tries < 64; ++tries, --k) {
      t = neg_exp_lo(k);
      if (S <= Down(t * W)) {
        open = true;
        return;
      }
    }
  };
  for (std::size_t i = 0; i < count; ++i) {
    const LowerAtom at = atom(i);
    if (!(at.p_lo > 0)) continue;
    double rem = 1.0;  // ≤ the exact fraction of this atom not yet used
    while (rem > 0) {
      if (!open) {
        start(at, rem);
        break;
      }
      const double w = at.p_lo, s = at.q_hi;
      const double gap = s - t * w;  // > 0: the atom's ratio exceeds t (its loss is below kh)
      double f = rem;
      // The fraction that fills the group, less a margin of 2^−44 of its Q-content: the roundings
      // of the check below (a few times 2^−50 of it) must not eat the margin, or the group would
      // close unfilled, up to a whole grid step above its grid point (a first-order error: at
      // h = 1.5e-5 a relative shave of 2^−30 of the slack h/2 was below the rounding).
      if (gap > 0) f = std::min(rem, (t * W - S - 0x1p-44 * (S + (t * W - S) / gap * s)) / gap);
      if (!(f > 0)) {
        close();
        start(at, rem);
        break;
      }
      const double W2 = Down(W + Down(f * w)), S2 = Up(S + Up(f * s));
      if (!(S2 <= Down(t * W2))) {  // rounding ate the margin: close without this piece
        close();
        start(at, rem);
        break;
      }
      W = W2;
      S = S2;
      if (f >= rem) break;  // the whole rest of the atom fits
      close();
      rem = std::nextafter(rem - f, 0.0);  // ≤ the exact rest
    }
  }
  close();
  return groups;
}

// The same merge run from the lowest loss up: a group opened by an atom of loss > a·h aims at the
// grid point (a + 1)·h above it and takes atoms of higher loss (each lowers the group's Q/P ratio)
// until S ≤ t·W, t ≤ e^{−(a+1)h}, holds — the last one in the fraction that balances it (plus a
// margin of 2^−44 of the Q-content, and only if the check then holds) — then closes; the rest of that atom opens the next
// group. The closed groups satisfy the same invariant as above, so the same argument applies. A
// group the remaining atoms cannot balance (at the top) is placed at the highest grid point where
// it balances, as `start` does above. Descending, the first-order loss sits at the bottom group;
// ascending, at the top one: for a law whose mass piles up at its lowest loss (the remove
// direction of Poisson subsampling, L ≥ log(1 − q)) ascending is the better of the two.
template <class AtomAt, class NegExpLo, class Add>
std::size_t MergeGroupsAscending(std::size_t count, const AtomAt& atom, const NegExpLo& neg_exp_lo, const Add& add) {
  std::size_t groups = 0;
  bool open = false;
  std::int64_t k = 0;
  double t = 0, W = 0, S = 0;
  // An unbalanced group at the end: placed at the highest grid point ≤ its target where S ≤ t·W.
  auto settle = [&]() {
    if (!open || !(W > 0)) return;
    for (int tries = 0; tries < 64; ++tries, --k) {
      if (S <= Down(neg_exp_lo(k) * W)) {
        add(k, W);
        ++groups;
        return;
      }
    }
  };
  for (std::size_t i = 0; i < count; ++i) {
    const LowerAtom at = atom(i);
    if (!(at.p_lo > 0)) continue;
    double rem = 1.0;
    while (rem > 0) {
      if (!open) {
        W = S = 0;
        k = at.k + 1;
        t = neg_exp_lo(k);
        open = true;
      }
      const double w = at.p_lo, s = at.q_hi;
      const double need = S - t * W;   // > 0: the group still lies below k·h
      const double gain = t * w - s;   // > 0: this atom lies above k·h
      double f = rem;
      // The fraction that balances it, plus a margin of 2^−44 of its Q-content (see MergeGroups).
      if (need > 0 && gain > 0) f = std::min(rem, (need + 0x1p-44 * (S + need / gain * s)) / gain);
      const double W0 = W, S0 = S;
      W = Down(W0 + Down(f * w));
      S = Up(S0 + Up(f * s));
      if (f < rem && !(S <= Down(t * W))) {  // the fraction did not balance after rounding: all of it
        f = rem;
        W = Down(W0 + Down(rem * w));
        S = Up(S0 + Up(rem * s));
      }
      if (S <= Down(t * W)) {  // balanced: close at k
        add(k, W);
        ++groups;
        open = false;
        if (f >= rem) break;
        rem = std::nextafter(rem - f, 0.0);  // ≤ the exact rest (a sliver is dropped: valid)
        continue;
      }
      break;  // still unbalanced with all of this atom: the next atom continues the group
    }
  }
  settle();
  return groups;
}

// Both merge orders give valid lower measures; the one with the smaller Q-mass Σ m_k e^{−kh} (a
// group's Q-content only grows when it is placed on the grid, so the smaller the closer to the
// truth) is kept. The choice needs no rigour (either is valid): plain doubles.
template <class Measure>
bool AscendingIsBetter(const Measure& down, const Measure& up, double h) {
  double q_down = 0, q_up = 0;
  for (const auto& [k, w] : down) q_down += w * std::exp(-static_cast<double>(k) * h);
  for (const auto& [k, w] : up) q_up += w * std::exp(-static_cast<double>(k) * h);
  return q_up < q_down;
}

GridMeasure MergeLower(const PmfAtoms& atoms, const Rational& step) {
  const std::size_t n = atoms.finite.size();
  const auto atom = [&](std::size_t i) {
    const PmfAtoms::Atom& a = atoms.finite[i];
    return LowerAtom{a.p_lo, a.q_hi, a.p_lo > 0 ? FloorIndex(a.loss_lo, step) : 0};
  };
  const auto neg = [&](std::int64_t k) { return ExpNegLo(k, step); };
  Sparse down, up;
  const std::size_t groups_down =
      MergeGroups(n, atom, neg, [&](std::int64_t k, double w) { down[k] += w; });
  const std::size_t groups_up =
      MergeGroupsAscending(n, [&](std::size_t j) { return atom(n - 1 - j); }, neg, [&](std::int64_t k, double w) { up[k] += w; });
  if (AscendingIsBetter(down, up, step.convert_to<double>()))
    return Densify(up, std::max<std::size_t>(groups_up, 1), false, atoms.infinity_lo);
  return Densify(down, std::max<std::size_t>(groups_down, 1), false, atoms.infinity_lo);
}

// e^{±kh} for k_lo ≤ k ≤ k_hi, bounded: MPFI at every 32nd index, products with e^{±h} (enclosed)
// between them, each rounded outward (Up/Down: a relative error ≤ 2^−50 per step, 31 steps at most).
// Values beyond the double range are +∞ (upper ends) and 0 (lower ends).
class ExpGrid {
 public:
  ExpGrid(const Rational& step, std::int64_t k_lo, std::int64_t k_hi) : k_lo_(k_lo) {
    const std::size_t n = static_cast<std::size_t>(k_hi - k_lo + 1);
    pos_lo_.resize(n);
    pos_hi_.resize(n);
    neg_lo_.resize(n);
    neg_hi_.resize(n);
    const Enclosure eh = Exp(Enclosure(kPrec, step)), emh = Exp(-Enclosure(kPrec, step));
    const double eh_lo = eh.LoDouble(), eh_hi = eh.HiDouble(), emh_lo = emh.LoDouble(), emh_hi = emh.HiDouble();
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 32 == 0) {
        const Enclosure L(kPrec, Rational(step * (k_lo + static_cast<std::int64_t>(i))));
        const Enclosure P = Exp(L), N = Exp(-L);
        pos_lo_[i] = P.LoDouble();
        pos_hi_[i] = P.HiDouble();
        neg_lo_[i] = std::max(0.0, N.LoDouble());
        neg_hi_[i] = N.HiDouble();
      } else {
        pos_lo_[i] = Down(pos_lo_[i - 1] * eh_lo);
        pos_hi_[i] = Up(pos_hi_[i - 1] * eh_hi);
        neg_lo_[i] = Down(neg_lo_[i - 1] * emh_lo);
        neg_hi_[i] = Up(neg_hi_[i - 1] * emh_hi);
      }
    }
  }
  double PosLo(std::int64_t k) const { return pos_lo_[Index(k)]; }
  double PosHi(std::int64_t k) const { return pos_hi_[Index(k)]; }
  double NegLo(std::int64_t k) const { return neg_lo_[Index(k)]; }

 private:
  std::size_t Index(std::int64_t k) const { return static_cast<std::size_t>(k - k_lo_); }
  std::int64_t k_lo_;
  std::vector<double> pos_lo_, pos_hi_, neg_lo_, neg_hi_;
};

}  // namespace

Pld ConnectDots(const PmfAtoms& atoms, const Rational& step) {
  ValidateStep(step);
  Pld out;
  out.step = step;
  out.upper = SplitUpper(atoms, step);
  out.lower = MergeLower(atoms, step);
  return out;
}

Pld FromLossLawConnectDots(const LossLaw& law, const Rational& step, double tail, mpfr_prec_t prec) {
  // Named copies, not a structured binding: the lambdas below capture them, which clang before 16
  // rejects for structured bindings (the clang fuzz build compiles this file).
  const detail::LossIndexRange range = detail::KeptRange(law, step, tail);
  const std::int64_t k_min = range.k_min, k_max = range.k_max;
  const std::size_t n = static_cast<std::size_t>(k_max - k_min);  // bins (k_min + i, k_min + i + 1]
  std::optional<LossLaw::PairBinBounds> bins = law.PairBinMasses(k_min, n, step, prec);
  if (!bins) throw InvalidArgument("mechanism", "this loss law has no Q side: connect-the-dots does not apply");
  const LossLaw::BinBounds& P = bins->p;
  const LossLaw::BinBounds& Q = bins->q;
  const Enclosure F_first = law.Cdf(Rational(step * k_min), prec);
  const Enclosure F_last = law.Cdf(Rational(step * k_max), prec);
  const Enclosure inf = law.InfiniteMass(prec);
  const ExpGrid e(step, k_min - 64, k_max);
  const Enclosure H(kPrec, step);
  const double d1_lo = (-Expm1(-H)).LoDouble(), d2_lo = Expm1(H).LoDouble();  // 1 − e^{−h}, e^{h} − 1
  Pld out;
  out.step = step;
  // Upper: index i ↔ k_min + i; each entry is a sum of at most three bounds (the bottom tail, and
  // the two bins around it), each summand an upper bound: γ_3 undone at the end.
  std::vector<double> up(n + 1, 0.0);
  up[0] = std::max(0.0, F_first.HiDouble());
  for (std::size_t i = 0; i < n; ++i) {
    const double p_hi = P.hi[i], p_lo = P.lo[i], q_lo = Q.lo[i], q_hi = Q.hi[i];
    if (!(p_hi > 0)) continue;
    const std::int64_t a = k_min + static_cast<std::int64_t>(i), b = a + 1;
    // m_b = (p − e^{ah}q)/(1 − e^{−h}) ≤ (p_hi − ⌊q_lo·e^{ah}⌋)/(1 − e^{−h}) (a difference that
    // rounds to ≤ 0 is ≤ 0 exactly); m_a = (e^{bh}q − p)/(e^{h} − 1) likewise; both ≤ p.
    double mb = p_hi, ma = p_hi;
    const double qa = Down(q_lo * e.PosLo(a));
    if (std::isfinite(qa)) {
      const double num = p_hi - qa;
      mb = num > 0 ? std::min(p_hi, Up(Up(num) / d1_lo)) : 0.0;
    }
    const double qb = Up(q_hi * e.PosHi(b));
    if (std::isfinite(qb)) {
      const double num = qb - p_lo;
      ma = num > 0 ? std::min(p_hi, Up(Up(num) / d2_lo)) : 0.0;
    }
    up[i] += ma;
    up[i + 1] += mb;
  }
  const double g3 = Gamma(5);
  for (double& v : up) v = v > 0 ? Up(v * (1 + g3)) : 0.0;
  out.upper.offset = k_min;
  out.upper.mass = std::move(up);
  out.upper.infinity = std::max(0.0, (Enclosure(prec, 1L) - F_last).HiDouble());
  // Lower: bins from the top down (a bin's loss is > (k_min + i)h), merged into groups; the finite
  // mass above k_max·h moved down to k_max·h, the mass at or below k_min·h dropped.
  // Both merge orders; the better kept (AscendingIsBetter).
  const auto neg = [&](std::int64_t k) { return k >= k_min - 64 && k <= k_max ? e.NegLo(k) : 0.0; };
  const auto cell = [&](std::size_t i) { return LowerAtom{P.lo[i], Q.hi[i], k_min + static_cast<std::int64_t>(i)}; };
  std::vector<double> lo(n + 1 + 64, 0.0), lo_up(n + 1 + 64, 0.0);  // index k − (k_min − 64)
  auto into = [&](std::vector<double>& v) {
    return [&v, k_min](std::int64_t k, double w) {
      if (k >= k_min - 64 && k - (k_min - 64) < static_cast<std::int64_t>(v.size()))
        v[static_cast<std::size_t>(k - (k_min - 64))] += w;  // else dropped (valid)
    };
  };
  std::size_t groups = MergeGroups(n, [&](std::size_t j) { return cell(n - 1 - j); }, neg, into(lo));
  const std::size_t groups_up = MergeGroupsAscending(n, cell, neg, into(lo_up));
  std::vector<std::pair<std::int64_t, double>> down_list, up_list;
  for (std::size_t j = 0; j < lo.size(); ++j) {
    const std::int64_t k = k_min - 64 + static_cast<std::int64_t>(j);
    if (lo[j] > 0) down_list.emplace_back(k, lo[j]);
    if (lo_up[j] > 0) up_list.emplace_back(k, lo_up[j]);
  }
  if (AscendingIsBetter(down_list, up_list, step.convert_to<double>())) {
    lo.swap(lo_up);
    groups = groups_up;
  }
  const double g = Gamma(static_cast<double>(std::max<std::size_t>(groups, 1) + 2));
  for (double& v : lo) v = Down(v * (1 - g));
  lo[n + 64] = Down(lo[n + 64] + std::max(0.0, (Enclosure(prec, 1L) - F_last - inf).LoDouble()));
  std::size_t first = 0;
  while (first + 1 < lo.size() && lo[first] == 0) ++first;
  out.lower.offset = k_min - 64 + static_cast<std::int64_t>(first);
  out.lower.mass.assign(lo.begin() + static_cast<std::ptrdiff_t>(first), lo.end());
  out.lower.infinity = std::max(0.0, inf.LoDouble());
  return out;
}

Pld ConnectDotsEnvelope(const std::vector<PmfAtoms>& candidates, const Rational& step, std::size_t lower_from) {
  ValidateStep(step);
  if (candidates.empty()) throw InvalidArgument("candidates", "no candidate pair");
  if (lower_from >= candidates.size())
    throw InvalidArgument("candidates", "lower_from " + std::to_string(lower_from) + " is out of range");
  Pld out;
  out.step = step;
  out.lower = MergeLower(candidates[lower_from], step);

  // Grid nodes x_i = e^{(k0 + i)h} spanning every candidate's finite losses, one beyond the top.
  bool any = false;
  double loss_min = 0, loss_max = 0, inf_max = 0;
  for (const PmfAtoms& c : candidates) {
    inf_max = std::max(inf_max, c.infinity_hi);
    if (c.finite.empty()) continue;
    loss_max = any ? std::max(loss_max, c.finite.front().loss_hi) : c.finite.front().loss_hi;
    loss_min = any ? std::min(loss_min, c.finite.back().loss_lo) : c.finite.back().loss_lo;
    for (const PmfAtoms::Atom& a : c.finite) loss_max = std::max(loss_max, a.loss_hi);
    any = true;
  }
  std::vector<double> G;  // upper bounds of M(x_i)
  std::vector<double> x_lo, x_hi, x_mid;
  std::int64_t k0 = 0;
  if (any) {
    k0 = FloorIndex(loss_min, step);
    const std::int64_t k1 = CeilIndex(loss_max, step) + 1;
    if (k1 - k0 > 50000000)
      throw InvalidArgument("step", "the candidates' losses span more than 5e7 grid points at this step");
    const std::size_t n = static_cast<std::size_t>(k1 - k0 + 1);
    G.assign(n, 0.0);
    x_lo.resize(n);
    x_hi.resize(n);
    x_mid.resize(n);
    std::vector<double> node_loss(n);  // (k0 + i)h rounded down
    for (std::size_t i = 0; i < n; ++i) {
      const Rational loss = step * (k0 + static_cast<std::int64_t>(i));
      const Enclosure L(kPrec, loss);
      const Enclosure X = Exp(L);
      x_lo[i] = X.LoDouble();
      x_hi[i] = X.HiDouble();
      x_mid[i] = X.MidDouble();
      node_loss[i] = L.LoDouble();
    }
    // H_x(candidate) = inf + Σ_{loss > log x} (p − x q): each term bounded above by
    // fl(p_hi − fl(x_lo q_lo)) + 4u(p_hi + x_lo q_lo) (two roundings of relative size ≤ u each,
    // and the nudge's own), the sum by γ_n; atoms whose loss is certainly ≤ log x contribute 0.
    // An underflowing product adds at most 2^−1075 of absolute error: 2^−1070 per term covers it.
    for (const PmfAtoms& c : candidates) {
      const double g = Gamma(static_cast<double>(c.finite.size() + 4));
      double wmax = 0;  // the widest loss enclosure, for the early exit
      for (const PmfAtoms::Atom& a : c.finite) wmax = std::max(wmax, a.loss_hi - a.loss_lo);
      for (std::size_t i = 0; i < n; ++i) {
        double sum = 0;
        for (const PmfAtoms::Atom& a : c.finite) {
          if (a.loss_hi < node_loss[i]) {  // certainly below log x_i: contributes 0
            // Sorted by loss_lo: every later atom has loss_hi ≤ loss_lo + wmax, below log x_i too.
            if (a.loss_lo + 2 * wmax < node_loss[i]) break;
            continue;
          }
          const double xq = x_lo[i] * a.q_lo;
          const double term = (a.p_hi - xq) + 4 * kU * (a.p_hi + xq) + 0x1p-1070;
          if (term > 0) sum += term;
        }
        const double H = Up(Up(sum * (1 + g)) + c.infinity_hi);
        G[i] = std::max(G[i], H);
      }
    }
  }
  const std::size_t n = G.size();
  // Masses from the interpolant's slope changes (any values would do: the check below decides).
  // Its curve: 1 at x = 0, G_i at x_i, constant G_{n−1} beyond x_{n−1} (the mass at +∞).
  std::vector<double> m(n, 0.0);
  double m_inf = n > 0 ? G[n - 1] : inf_max;
  if (n > 0) {
    std::vector<double> slope(n + 1, 0.0);
    slope[0] = (G[0] - 1.0) / x_mid[0];
    for (std::size_t i = 1; i < n; ++i) slope[i] = (G[i] - G[i - 1]) / (x_mid[i] - x_mid[i - 1]);
    for (std::size_t i = 0; i < n; ++i) m[i] = std::max(0.0, x_mid[i] * (slope[i + 1] - slope[i]));
  }
  // Check: H_{x_i}(μ) = m_∞ + Σ_{l>i} m_l (1 − e^{−(l−i)h}) ≥ G_i, bounded from below (products and
  // a sum of non-negative terms: γ_{n+2}); the largest shortfall goes to +∞, as does 1 − total.
  double shortfall = 0;
  if (n > 0) {
    std::vector<double> c(n, 0.0);  // c_d ≤ 1 − e^{−dh}
    for (std::size_t d = 1; d < n; ++d)
      c[d] = std::max(0.0, (-Expm1(-Enclosure(kPrec, Rational(step * static_cast<long>(d))))).LoDouble());
    const double g = Gamma(static_cast<double>(n + 4));
    for (std::size_t i = 0; i < n; ++i) {
      double acc = 0;
      for (std::size_t l = i + 1; l < n; ++l) acc += m[l] * c[l - i];
      // (minus n·2^−1074 for products that underflow)
      const double lb = Down(std::max(0.0, Down(acc * (1 - g)) - static_cast<double>(n) * 0x1p-1074) + m_inf);
      if (G[i] > lb) shortfall = std::max(shortfall, Up(G[i] - lb));
    }
  }
  double total = 0;
  for (double v : m) total += v;
  const double total_lo = Down(Down(total * (1 - Gamma(static_cast<double>(n + 2)))) + m_inf);
  if (total_lo < 1) shortfall = std::max(shortfall, Up(1.0 - total_lo));
  out.upper.offset = k0;
  out.upper.mass = std::move(m);
  out.upper.infinity = Up(m_inf + shortfall);
  return out;
}

}  // namespace dpfl::ref::pld
