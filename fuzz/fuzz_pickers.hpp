// Hostile numbers for the fuzz targets: each picker returns, by the input's choice, NaN, ±Inf, ±0,
// subnormals, raw bit patterns, powers of two over an exponent range, the type's extremes, or an
// ordinary value in [lo, hi] (STYLE.md "Fuzz targets": bad input must get a clear error).
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace dpfl::fuzzing {

inline double PickDouble(FuzzedDataProvider& p, double lo, double hi, int min_exp2 = -1080, int max_exp2 = 1030) {
  using L = std::numeric_limits<double>;
  switch (p.ConsumeIntegralInRange<int>(0, 9)) {
    case 1: return L::quiet_NaN();
    case 2: return p.ConsumeBool() ? L::infinity() : -L::infinity();
    case 3: return p.ConsumeBool() ? 0.0 : -0.0;
    case 4: return L::denorm_min() * p.ConsumeIntegralInRange<int>(-4, 1 << 20);
    case 5: return std::bit_cast<double>(p.ConsumeIntegral<std::uint64_t>());
    case 6: return std::ldexp(1.0, p.ConsumeIntegralInRange<int>(min_exp2, max_exp2));
    default: return p.ConsumeFloatingPointInRange<double>(lo, hi);
  }
}

inline float PickFloat(FuzzedDataProvider& p, float lo = -2.0f, float hi = 2.0f) {
  using L = std::numeric_limits<float>;
  switch (p.ConsumeIntegralInRange<int>(0, 12)) {
    case 1: return L::quiet_NaN();
    case 2: return p.ConsumeBool() ? L::infinity() : -L::infinity();
    case 3: return (p.ConsumeBool() ? 1 : -1) * L::denorm_min();
    case 4: return std::bit_cast<float>(p.ConsumeIntegral<std::uint32_t>());
    case 5: return p.ConsumeBool() ? 0.0f : -0.0f;
    case 6: return (p.ConsumeBool() ? 1 : -1) * L::max();
    default: return p.ConsumeFloatingPointInRange<float>(lo, hi);
  }
}

}  // namespace dpfl::fuzzing
