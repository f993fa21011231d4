// dpfl::ref::pld — the atoms of pmf pairs for the connect-the-dots discretization (pld.hpp
// PrepareAtoms, ProductAtoms): masses and losses as outward-rounded doubles.
#include <algorithm>

#include "dpfl/ref/pld.hpp"
#include "pld_internal.hpp"

namespace dpfl::ref::pld {

using detail::Down;
using detail::Up;

PmfAtoms PrepareAtoms(const std::vector<Rational>& p, const std::vector<Rational>& q, mpfr_prec_t prec) {
  ValidatePmfPair(p, q);
  PmfAtoms out;
  Enclosure inf(prec, 0L);
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0) continue;
    const Enclosure P(prec, p[i]);
    if (q[i] == 0) {
      inf = inf + P;
      continue;
    }
    const Enclosure Q(prec, q[i]);
    const Enclosure L = Log(P) - Log(Q);
    out.finite.push_back({std::max(0.0, P.LoDouble()), P.HiDouble(), std::max(0.0, Q.LoDouble()), Q.HiDouble(),
                          L.LoDouble(), L.HiDouble()});
  }
  std::sort(out.finite.begin(), out.finite.end(),
            [](const PmfAtoms::Atom& a, const PmfAtoms::Atom& b) { return a.loss_lo > b.loss_lo; });
  out.infinity_lo = std::max(0.0, inf.LoDouble());
  out.infinity_hi = inf.HiDouble();
  return out;
}

PmfAtoms PrepareAtoms(const std::vector<Enclosure>& p, const std::vector<Enclosure>& q, mpfr_prec_t prec) {
  const auto [P, Q] = detail::ValidatePmfEnclosures(p, q);
  PmfAtoms out;
  Rational inf_hi = 0, inf_lo = 0;
  for (std::size_t i = 0; i < P.size(); ++i) {
    const Rational p_lo = Max(P[i].lo(), Rational(0)), p_hi = P[i].hi();
    if (p_hi <= 0) continue;
    if (Q[i].lo() <= 0) {  // Q may be 0 here
      inf_hi += p_hi;
      if (Q[i].hi() <= 0) inf_lo += p_lo;
      continue;
    }
    const Enclosure Lhi = Log(Enclosure(prec, Rational(p_hi / Q[i].lo())));
    const double loss_hi = Lhi.HiDouble();
    // P may be 0 (p_lo = 0): the loss is only bounded above; the upper side then treats the atom as
    // sitting at that bound (a move up, valid) and the lower side skips it (p_lo = 0).
    const double loss_lo = p_lo > 0 ? Log(Enclosure(prec, Rational(p_lo / Q[i].hi()))).LoDouble() : Lhi.HiDouble();
    out.finite.push_back({std::max(0.0, Enclosure(prec, p_lo).LoDouble()), Enclosure(prec, p_hi).HiDouble(),
                          std::max(0.0, Enclosure(prec, Q[i].lo()).LoDouble()), Enclosure(prec, Q[i].hi()).HiDouble(),
                          loss_lo, loss_hi});
  }
  std::sort(out.finite.begin(), out.finite.end(),
            [](const PmfAtoms::Atom& a, const PmfAtoms::Atom& b) { return a.loss_lo > b.loss_lo; });
  out.infinity_lo = std::max(0.0, Enclosure(prec, inf_lo).LoDouble());
  out.infinity_hi = Enclosure(prec, inf_hi).HiDouble();
  return out;
}

PmfAtoms ProductAtoms(const PmfAtoms& a, const PmfAtoms& b) {
  PmfAtoms out;
  out.finite.reserve(a.finite.size() * b.finite.size());
  for (const PmfAtoms::Atom& x : a.finite)
    for (const PmfAtoms::Atom& y : b.finite)
      out.finite.push_back({Down(x.p_lo * y.p_lo), Up(x.p_hi * y.p_hi), Down(x.q_lo * y.q_lo), Up(x.q_hi * y.q_hi),
                            std::nextafter(x.loss_lo + y.loss_lo, -HUGE_VAL), std::nextafter(x.loss_hi + y.loss_hi, HUGE_VAL)});
  std::sort(out.finite.begin(), out.finite.end(),
            [](const PmfAtoms::Atom& u, const PmfAtoms::Atom& v) { return u.loss_lo > v.loss_lo; });
  // P(some factor is at +∞) = inf_a + (1 − inf_a)·inf_b, bounded at each end (1 − x is rounded at
  // most once, and Down/Up undo it).
  out.infinity_hi = std::min(1.0, Up(a.infinity_hi + Up(Up(1.0 - a.infinity_lo) * b.infinity_hi)));
  out.infinity_lo = Down(a.infinity_lo + Down(Down(1.0 - a.infinity_hi) * b.infinity_lo));
  return out;
}

}  // namespace dpfl::ref::pld
