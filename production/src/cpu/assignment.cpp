// Per-round assignment of clients (see dpfl/protocol/assignment.hpp).
#include "dpfl/protocol/assignment.hpp"

#include <cmath>
#include <numeric>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_element.hpp"

namespace dpfl::protocol {

std::uint64_t UniformBelow(std::uint64_t bound, const quant::StreamContext& ctx, const rng::StreamAddress& addr,
                           std::uint64_t& index) {
  if (bound == 0) throw InvalidArgument("bound", "must be > 0");
  // x·bound = hi·2^64 + lo; hi is uniform on [0, bound) once draws with lo < (2^64 mod bound)
  // are rejected (Lemire 2019).
  const std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const std::uint64_t x = rng::Uniform64(ctx.generator, ctx.key, addr, index++);
    const unsigned __int128 product = static_cast<unsigned __int128>(x) * bound;
    if (static_cast<std::uint64_t>(product) >= threshold) return static_cast<std::uint64_t>(product >> 64);
  }
}

std::uint32_t SoloCount(std::uint32_t n, double gamma) {
  if (!(gamma >= 0.0 && gamma <= 1.0)) throw InvalidArgument("gamma", "solo fraction must be in [0, 1]");
  // round(γn): exact when γn is an integer as E43 requires (0.2·10 is 2.0000000000000004 in
  // double, so a ceiling would be wrong).
  std::uint32_t solo = static_cast<std::uint32_t>(std::llround(gamma * n));
  if ((n - solo) % 2 == 1) ++solo;
  return solo;
}

Assignment DrawAssignment(std::uint32_t n, double gamma, const quant::StreamContext& ctx) {
  if (n == 0) throw InvalidArgument("n", "number of clients must be > 0");
  if (!(gamma >= 0.0 && gamma <= 1.0)) throw InvalidArgument("gamma", "solo fraction must be in [0, 1]");
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  const rng::StreamAddress addr{ctx.round, 0, rng::Purpose::kPairing};
  std::uint64_t index = 0;
  for (std::uint32_t i = n - 1; i > 0; --i) {  // Fisher–Yates: uniform over all n! orders
    const std::uint64_t j = UniformBelow(std::uint64_t{i} + 1, ctx, addr, index);
    std::swap(order[i], order[static_cast<std::size_t>(j)]);
  }
  const std::uint32_t solo = SoloCount(n, gamma);
  Assignment a;
  a.solo.assign(order.begin(), order.begin() + solo);
  for (std::uint32_t k = solo; k + 1 < n; k += 2) a.pairs.emplace_back(order[k], order[k + 1]);
  return a;
}

std::vector<bool> DrawPresence(std::uint32_t n, double p_drop, const quant::StreamContext& ctx) {
  if (!(p_drop >= 0.0 && p_drop < 1.0)) throw InvalidArgument("dropout", "probability must be in [0, 1)");
  const std::uint64_t absent_below = quant::ProbabilityToThreshold(p_drop);
  std::vector<bool> present(n);
  for (std::uint32_t i = 0; i < n; ++i)
    present[i] = !(rng::Uniform64(ctx.generator, ctx.key, {ctx.round, i, rng::Purpose::kDropout}, 0) < absent_below);
  return present;
}

EffectiveAssignment ApplyDropout(const Assignment& planned, const std::vector<bool>& present) {
  EffectiveAssignment out;
  auto is_present = [&](std::uint32_t i) {
    if (i >= present.size()) throw InvalidArgument("present", "client " + std::to_string(i) + " has no presence flag");
    return static_cast<bool>(present[i]);
  };
  for (std::uint32_t i : planned.solo)
    if (is_present(i)) out.assignment.solo.push_back(i);
  for (const auto& [a, b] : planned.pairs) {
    const bool pa = is_present(a), pb = is_present(b);
    if (pa && pb) out.assignment.pairs.emplace_back(a, b);
    else if (pa) out.assignment.solo.push_back(a);
    else if (pb) out.assignment.solo.push_back(b);
  }
  out.survivors = static_cast<std::uint32_t>(out.assignment.solo.size() + 2 * out.assignment.pairs.size());
  return out;
}

}  // namespace dpfl::protocol
