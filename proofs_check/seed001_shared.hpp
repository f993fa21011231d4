// dpfl-proofs — seed 001 (CoQ-FL / LDP-FedCR draft): what seed001_coq_fl.cpp, seed001_errata.cpp
// and seed001_results.cpp share. The literal Alg. 2 (spec 001 §3.4 with the §3.6 list), the CR law
// (§3.7) and the law of n outputs are defined in seed001_coq_fl.cpp; the small helpers below are
// inline.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dpfl/ref/coq.hpp"
#include "instances.hpp"

namespace dpfl::proofs {

// ---- defined in seed001_coq_fl.cpp: the literal Alg. 2, the CR law, the law of n outputs ----------
const std::vector<Rational>& Seed001CrCdf(const Rational& px, int d);
const std::vector<Rational>& Seed001List(const Rational& px, int d, ref::CoqList variant);
bool Seed001FindIndex(const std::vector<Rational>& list, const Rational& v, ref::CoqList variant, std::size_t* idx);
std::optional<ref::CoqJoint<Rational>> Seed001LiteralJoint(const Rational& px, int d, const Rational& P_A,
                                                          const Rational& P_B, ref::CoqList variant, int coin_cells,
                                                          bool bob_reflected);
std::vector<std::pair<Rational, std::vector<Rational>>> Seed001OutputLaw(
    const Rational& E, const Rational& c, const Rational& r, const std::vector<Rational>& w,
    const std::vector<std::pair<std::size_t, std::size_t>>& pairs, int d, const Rational& px);

namespace seed001 {

// A law of n outputs (probability, outputs), as Seed001OutputLaw returns it; pairs (Alice, Bob).
using Law = std::vector<std::pair<Rational, std::vector<Rational>>>;
using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

// The literal joint with the corrected list, one coin cell, Bob reflected (the spec's Alg. 2).
inline ref::CoqJoint<Rational> Literal(const Rational& px, int d, const Rational& P_A, const Rational& P_B) {
  return *Seed001LiteralJoint(px, d, P_A, P_B, ref::CoqList::kCorrected, 1, true);
}

// E[f(outputs)] under an enumerated law.
template <class F>
Rational Expect(const Law& law, F&& f) {
  Rational sum(0);
  for (const auto& [p, out] : law) sum += p * f(out);
  return sum;
}
inline Rational SumOf(const std::vector<Rational>& v) {
  Rational s(0);
  for (const Rational& x : v) s += x;
  return s;
}
inline std::string List(const std::vector<Rational>& v) {
  std::string out = "(";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + S(v[i]);
  return out + ")";
}
// Every parameter of a pair except d (for claims that fix d themselves).
inline std::string DescribeNoD(const PairInstance& x) {
  return "E=" + S(x.E) + " c=" + S(x.c) + " r=" + S(x.r) + " w_A=" + S(x.w1) + " w_B=" + S(x.w2);
}

}  // namespace seed001
}  // namespace dpfl::proofs
