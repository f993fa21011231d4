// Holm–Bonferroni over a harness's checks, with a printout of every rejected check and the
// strongest one (the statistical suites and the mutant catalogs of tests/statistical and
// tests/mutants). CheckT has `what`, `statistic`, `p_value` and `samples`.
#pragma once

#include <cstddef>
#include <cstdio>
#include <vector>

#include "testing/stat.hpp"

namespace dpfl::testing {

template <class CheckT>
int ReportHolm(const std::vector<CheckT>& checks, double alpha, bool print) {
  std::vector<double> p;
  for (const CheckT& c : checks) p.push_back(c.p_value);
  const std::vector<bool> reject = stat::HolmReject(p, alpha);
  int n = 0;
  std::size_t best = 0;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    if (checks[i].p_value < checks[best].p_value) best = i;
    if (!reject[i]) continue;
    ++n;
    if (print)
      std::printf("  rejected: %s: statistic %.4g, p %.3g, N %zu\n", checks[i].what.c_str(), checks[i].statistic,
                  checks[i].p_value, checks[i].samples);
  }
  if (print && !checks.empty())
    std::printf("  strongest: %s: statistic %.4g, p %.3g, N %zu (%d of %zu rejected by Holm at %.3g)\n",
                checks[best].what.c_str(), checks[best].statistic, checks[best].p_value, checks[best].samples, n,
                checks.size(), alpha);
  return n;
}

}  // namespace dpfl::testing
