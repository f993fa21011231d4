// dpfl-proofs — exact rational instances: (a) exhaustive small grids and (b) seeded random
// rational instances. Grids enumerate from small to large so the first violation is the
// smallest counterexample in that order.
#pragma once

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "claims.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::proofs {

using ref::Int;
using ref::Rational;

inline Rational Q(long p, long q = 1) { return Rational(Int(p), Int(q)); }
inline std::string S(const Rational& x) { return ref::ToExactString(x); }
// x^n for an integer n ≥ 0, exactly.
inline Rational PowQ(const Rational& x, long n) {
  Rational out(1);
  for (long i = 0; i < n; ++i) out *= x;
  return out;
}

// One pair instance of a binary quantizer: E = e^ε, center, radius, two weights, d.
struct PairInstance {
  Rational E, c, r, w1, w2;
  int d = 0;
  std::string Describe() const {
    return "E=" + S(E) + " c=" + S(c) + " r=" + S(r) + " w1=" + S(w1) + " w2=" + S(w2) + " d=" + std::to_string(d);
  }
};

// Grid: E ∈ {3/2, 2, 3, 5}, c ∈ {0, 1/3}, r ∈ {1, 3/4}, w, w' on K+1 points of [c − r, c + r]
// (both ends included), d ∈ 0..max_d; then `random` seeded random rational instances with
// E = 1 + a/b, c = k/8, r = a/b, weights on a random grid, d ∈ 0..max_d.
template <class Fn>
void ForEachPairInstance(const CheckOptions& o, int max_d, Fn&& fn) {
  const int K = o.quick ? 4 : 8;
  const int grid_max_d = o.quick ? std::min(max_d, 6) : max_d;
  for (const Rational& E : {Q(3, 2), Q(2), Q(3), Q(5)})
    for (const Rational& c : {Q(0), Q(1, 3)})
      for (const Rational& r : {Q(1), Q(3, 4)})
        for (int d = 0; d <= grid_max_d; ++d)
          for (int i = 0; i <= K; ++i)
            for (int j = 0; j <= K; ++j)
              fn(PairInstance{E, c, r, c - r + 2 * r * Q(i, K), c - r + 2 * r * Q(j, K), d});
  std::mt19937_64 rng(o.seed);
  auto uniform = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  const int random = o.quick ? 300 : 4000;
  for (int t = 0; t < random; ++t) {
    const Rational E = 1 + Q(uniform(1, 60), uniform(1, 60));
    const Rational c = Q(uniform(-16, 16), 8), r = Q(uniform(1, 40), uniform(1, 9));
    const long den = uniform(1, 64);
    fn(PairInstance{E, c, r, c - r + 2 * r * Q(uniform(0, den), den), c - r + 2 * r * Q(uniform(0, den), den),
                    static_cast<int>(uniform(0, max_d))});
  }
}

}  // namespace dpfl::proofs
