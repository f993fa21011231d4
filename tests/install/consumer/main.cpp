// The installed-package consumer: one call into each linked library, checked against each other.
// LDPQ (seed 000 Alg. 1) at ε = ln 3, c = 0, r = 1, w = 1/2: the reference gives
// P(+) = (1 + (w − c)/(rα))/2 exactly (α = (E+1)/(E−1) = 2, so 5/8); the production threshold
// T = ⌊q·2^64⌋ is computed from ε = ln 3 in double, so T/2^64 must be 5/8 up to double rounding
// (checked to 10^−12).
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#include "conformance.hpp"
#include "dpfl/error.hpp"
#include "dpfl/quant/binary_element.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/ref/ldpq.hpp"

int main() {
  namespace ref = dpfl::ref;
  const ref::Rational E(3), c(0), r(1), w(1, 2);
  const ref::Rational p_plus = ref::Ldpq<ref::Rational>(E, c, r, w).q_plus;
  if (p_plus != ref::Rational(5, 8)) {
    std::puts("reference: wrong LDPQ probability");
    return 1;
  }
  const dpfl::quant::BinaryLevels k = dpfl::quant::MakeBinaryLevels(std::log(3.0), 0.0, 1.0);
  const double t = static_cast<double>(dpfl::quant::PlusThreshold(dpfl::quant::ClipWeight(0.5, k), k));
  if (std::fabs(t / 18446744073709551616.0 - 0.625) > 1e-12) {
    std::printf("production: threshold %.17g is not 5/8 of 2^64\n", t);
    return 1;
  }
  try {
    (void)dpfl::quant::MakeBinaryLevels(-1.0, 0.0, 1.0);
    std::puts("production: eps = -1 was accepted");
    return 1;
  } catch (const dpfl::InvalidArgument& e) {
    // dpfl::check on the production encoder's exact decision at one input: a sampler that
    // releases c + rα for the first ⌊5n/8⌋ runs of each request and c − rα after it (deterministic,
    // so its law at w = 1/2 is right but its runs are dependent): the check must reject it.
    const dpfl::check::Sampler fixed = [](std::span<const double>, std::uint64_t n) {
      std::vector<std::vector<double>> rows;
      for (std::uint64_t i = 0; i < n; ++i) rows.push_back({i < 5 * n / 8 ? 2.0 : -2.0});
      return rows;
    };
    dpfl::check::CheckOptions o;
    o.samples = 1000;
    o.search_stages = 0;
    const auto report = dpfl::check::RunCheck("ldpq", {{"eps", "1.0986122886681098"}, {"c", "0"}, {"r", "1"}}, fixed, o);
    if (report.ExitCode() == 0) {
      std::puts("check: a deterministic sampler passed");
      return 1;
    }
    std::printf("installed dpfl works: P(+) = 5/8, T/2^64 = %.17g, bad eps -> \"%s\"\n", t / 18446744073709551616.0,
                e.what());
  }
  return 0;
}
