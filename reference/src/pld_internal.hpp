// dpfl::ref::pld (internal) — what FromLossLaw (pld.cpp) and FromLossLawConnectDots
// (pld_connect_dots.cpp) share.
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <future>
#include <utility>

#include "dpfl/ref/pld.hpp"

namespace dpfl::ref::pld::detail {

// The kept index range [k_min, k_max] of a loss law's finite part at this step: from
// law.Range(tail), k_min = ⌊t_lo/h⌋, k_max = max(k_min + 1, ⌈t_hi/h⌉). Names "mechanism" (a range
// that is not finite) and "step" (≤ 0, more than 5e7 points, or indices beyond 2^60).
struct LossIndexRange {
  std::int64_t k_min, k_max;
};
LossIndexRange KeptRange(const LossLaw& law, const Rational& step, double tail);

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
