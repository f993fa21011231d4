// dpfl::ref — LDPQ, the binary-output stochastic quantizer of LDP-FL.
//
// seed-000 §3.1 Alg. 1 [PAPER], §4.1 Prop. 1; seed-001 §3.1 Eq. (2), §4.2–4.3; spec 000
// §7 R1–R2. Exact when Real = Rational (E = e^ε rational); an enclosure when Real = Interval.
#pragma once

#include <string>

#include "dpfl/ref/numbers.hpp"
#include "dpfl/validate.hpp"

namespace dpfl::ref {

// R1: α(ε) = (e^ε + 1)/(e^ε − 1) with E = e^ε. seed-000 E1: §II-C of the paper prints
// (1 + e^ε)/(1 − e^ε) = −α; every algorithm uses the positive form implemented here.
template <class Real>
Real AlphaFromE(const Real& E) {
  return (E + Real(1)) / (E - Real(1));
}
// The as-printed sign of seed-000 §II-C (erratum E1), kept so that users can compare.
template <class Real>
Real AlphaFromEAsPrinted(const Real& E) {
  return (Real(1) + E) / (Real(1) - E);
}
// Inverse of R1: E = (α + 1)/(α − 1).
template <class Real>
Real EFromAlpha(const Real& alpha) {
  return (alpha + Real(1)) / (alpha - Real(1));
}

// q(w) = 1/2 + (w − c)/(2 r α): probability of the "+" level c + rα (Alg. 1 l.2).
template <class Real>
Real LdpqProbPlus(const Real& alpha, const Rational& c, const Rational& r, const Rational& w) {
  return Real(Rational(1, 2)) + Real(Rational(w - c)) / (Real(Rational(2 * r)) * alpha);
}

// Validates (E, c, r) and that every w lies in [c − r, c + r] (the quantizers need clipped
// inputs: seed-000 footnote 2, seed-001 E12). Throws InvalidArgument naming the argument.
template <class Real>
void ValidateBinaryQuantizerDomain(const Real& E, const Rational& r) {
  if (!(E > Real(1))) throw InvalidArgument("E", "must satisfy E = e^eps > 1 (eps > 0)");
  Require("r", r, Domain::Positive(), EchoValue);
}
inline void ValidateWeightInRange(const Rational& c, const Rational& r, const Rational& w,
                                  const std::string& name) {
  if (w < c - r || w > c + r)
    throw InvalidArgument(name, "weight " + EchoValue(w) + " is outside [c - r, c + r] = [" +
                                    EchoValue(Rational(c - r)) + ", " +
                                    EchoValue(Rational(c + r)) + "]; clip it first");
}

template <class Real>
struct LdpqLaw {
  Real alpha;        // α = (E+1)/(E−1)
  Real q_plus;       // P(Q = c + rα)
  Real q_minus;      // P(Q = c − rα)
  Real level_minus;  // c − rα
  Real level_plus;   // c + rα
  Real mean;         // E Q  (= w exactly: Lemma 1 / C1)
  Real mse;          // E (Q − w)² = r²α² − (w − c)²  (R2; seed-001 Eq. 3)
  Real pldp_ratio;   // max over w, w' and both outputs of P(Q(w)=·)/P(Q(w')=·) (= E, R2)
};

// The law of LDPQ(ε, c, r, w), computed from its definition (not from the closed forms
// above, which tests assert against it).
template <class Real>
LdpqLaw<Real> Ldpq(const Real& E, const Rational& c, const Rational& r, const Rational& w) {
  ValidateBinaryQuantizerDomain(E, r);
  ValidateWeightInRange(c, r, w, "w");
  LdpqLaw<Real> law;
  law.alpha = AlphaFromE(E);
  const Real r_alpha = Real(r) * law.alpha;
  law.q_plus = LdpqProbPlus(law.alpha, c, r, w);
  law.q_minus = Real(1) - law.q_plus;
  law.level_minus = Real(c) - r_alpha;
  law.level_plus = Real(c) + r_alpha;
  law.mean = law.q_minus * law.level_minus + law.q_plus * law.level_plus;
  const Real dm = law.level_minus - Real(w), dp = law.level_plus - Real(w);
  law.mse = law.q_minus * dm * dm + law.q_plus * dp * dp;
  // The extreme probabilities of each output are attained at w = c ± r (q is affine in w).
  const Real q_hi = LdpqProbPlus(law.alpha, c, r, Rational(c + r));
  const Real q_lo = LdpqProbPlus(law.alpha, c, r, Rational(c - r));
  law.pldp_ratio = Max(q_hi / q_lo, (Real(1) - q_lo) / (Real(1) - q_hi));
  return law;
}

}  // namespace dpfl::ref
