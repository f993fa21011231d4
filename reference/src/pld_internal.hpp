// dpfl::ref::pld (internal) — what FromLossLaw (pld.cpp) and FromLossLawConnectDots
// (pld_connect_dots.cpp) share.
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <future>
#include <utility>
#include <vector>

#include "dpfl/ref/pld.hpp"
#include "dpfl/ref/pld_mechanisms.hpp"

namespace dpfl::ref::pld::detail {

// The kept index range [k_min, k_max] of a loss law's finite part at this step: from
// law.Range(tail), k_min = ⌊t_lo/h⌋, k_max = max(k_min + 1, ⌈t_hi/h⌉). Names "mechanism" (a range
// that is not finite) and "step" (≤ 0, more than 5e7 points, or indices beyond 2^60).
struct LossIndexRange {
  std::int64_t k_min, k_max;
};
LossIndexRange KeptRange(const LossLaw& law, const Rational& step, double tail);

// One direction of a loss law, discretized as the grid options say: connect-the-dots where asked
// for and the law has a Q side (LossLaw::PairBinMasses), rounding (FromLossLaw) otherwise.
Pld LawDirection(const LossLaw& law, const GridOptions& grid);

// A non-negative value that has been rounded once, bounded from above / below (relative error
// ≤ 2^−53 < 2^−50; nextafter covers the absolute error of a subnormal result).
inline double Up(double v) { return std::nextafter(v * (1 + 0x1p-50), HUGE_VAL); }
inline double Down(double v) { return std::max(0.0, std::nextafter(v * (1 - 0x1p-50), 0.0)); }

// The checks of FromPmfEnclosures (names "p", "q": empty, lengths, a negative upper end, a sum
// that cannot be 1), returning the enclosures as exact intervals.
std::pair<std::vector<Interval>, std::vector<Interval>> ValidatePmfEnclosures(const std::vector<Enclosure>& p,
                                                                              const std::vector<Enclosure>& q);

// f() on a second thread (std::async), which frees its MPFR caches (π, sin/cos, ...) when done:
// MPFR keeps them per thread, and LeakSanitizer reports them otherwise.
template <class F>
auto OnSecondThread(F f) -> std::future<decltype(f())> {
  return std::async(std::launch::async, [f = std::move(f)]() {
    struct FreeMpfrCaches {
      ~FreeMpfrCaches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
    } free_caches;
    return f();
  });
}

}  // namespace dpfl::ref::pld::detail
