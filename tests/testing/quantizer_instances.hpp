// The fixed-seed family of quantizer test instances shared by the statistical suite and the
// mutant catalog (the mutants are judged on exactly the instances the real quantizers pass on).
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "dpfl/ref/numbers.hpp"

namespace dpfl::testing {

using ref::Rational;

inline Rational Exact(double x) { return Rational(x); }  // mpq_set_d: exact
inline double ToDouble(const Rational& x) { return x.convert_to<double>(); }

// One random instance. Production sees doubles/floats; the oracle sees their EXACT values
// (c, r are dyadic, so c ± r are exact doubles and the production clip is exact), with E the
// rational the instance was drawn from.
struct Instance {
  Rational E;
  double c, r;
  float w1, w2;
  int d;
  Rational c_x, r_x, w1_x, w2_x;  // exact; w clipped to [c − r, c + r]
  bool outside;                   // some input lies outside [c − r, c + r]
};

inline Rational ClipExact(const Rational& w, const Rational& c, const Rational& r) {
  return ref::Max(Rational(c - r), ref::Min(Rational(c + r), w));
}

// Instance i of the fixed-seed family. E = 1 + a/b; c, r multiples of 1/16; w = c + r·u with u
// rational in [−1, 1] (every 4th instance: one weight with |u| ∈ [1, 2], i.e. clipped);
// d = i mod 9 ∈ 0..8.
inline std::vector<Instance> MakeInstances(int count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  auto uni = [&](std::int64_t lo, std::int64_t hi) {  // inclusive, portable (no std distributions)
    return lo + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  std::vector<Instance> out;
  for (int i = 0; i < count; ++i) {
    Instance in;
    in.E = Rational(1) + Rational(uni(1, 40), uni(1, 20));
    in.c_x = Rational(uni(-32, 32), 16);
    in.r_x = Rational(uni(1, 64), 16);
    in.c = ToDouble(in.c_x);
    in.r = ToDouble(in.r_x);
    in.d = i % 9;
    in.outside = (i % 4 == 3);
    auto weight = [&](bool out_of_range) {
      const std::int64_t den = uni(1, 97);
      Rational u(uni(-den, den), den);
      if (out_of_range) u = (u < 0 ? Rational(-1) : Rational(1)) + u;  // |u| ∈ [1, 2]
      return static_cast<float>(ToDouble(Rational(in.c_x + in.r_x * u)));
    };
    in.w1 = weight(false);
    in.w2 = weight(in.outside);
    if (in.outside && (i % 8 == 3)) std::swap(in.w1, in.w2);  // outside input in either role
    in.w1_x = ClipExact(Exact(in.w1), in.c_x, in.r_x);
    in.w2_x = ClipExact(Exact(in.w2), in.c_x, in.r_x);
    out.push_back(in);
  }
  return out;
}

}  // namespace dpfl::testing
