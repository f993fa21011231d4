// dpfl::ref — spec 000 §7 R12: the Experiment 8 (Fig. 4) MSE surfaces, exactly. On a rational grid
// of (w1, w2) ∈ [c − r, c + r]² (default c = 0, r = 1/2): the CorBinQ pair MSE m_d(w1, w2) and the
// independent LDPQ pair MSE 2r²α² − w̃1² − w̃2², for rational E = e^ε and any d.
#pragma once

#include <vector>

#include "dpfl/ref/corbinq.hpp"

namespace dpfl::ref {

struct Experiment8Surface {
  std::vector<Rational> w;                   // grid points, K + 1 of them, both ends included
  std::vector<std::vector<Rational>> corbinq;  // [i][j] = m_d(w[i], w[j])
  std::vector<std::vector<Rational>> ldpq;     // [i][j] = 2r²α² − (w[i]−c)² − (w[j]−c)²
};

inline Experiment8Surface Experiment8(const Rational& E, int d, int K, const Rational& c = Rational(0),
                                      const Rational& r = Rational(Int(1), Int(2))) {
  if (K < 1 || K > 512) throw InvalidArgument("grid", "grid intervals must be in [1, 512]");
  Experiment8Surface s;
  for (int i = 0; i <= K; ++i) s.w.push_back(c - r + 2 * r * Rational(Int(i), Int(K)));
  for (const Rational& w1 : s.w) {
    s.corbinq.emplace_back();
    s.ldpq.emplace_back();
    for (const Rational& w2 : s.w) {
      const CorBinQResult<Rational> res = EvaluateCorBinQ(E, c, r, w1, w2, d, Line14::kCorrected);
      s.corbinq.back().push_back(res.mse);
      s.ldpq.back().push_back(res.mse_independent);
    }
  }
  return s;
}

}  // namespace dpfl::ref
