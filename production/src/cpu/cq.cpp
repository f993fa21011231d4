// CQ baseline of Suresh et al. (see dpfl/quant/cq.hpp).
#include "dpfl/quant/cq.hpp"

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/protocol/assignment.hpp"

namespace dpfl::quant {

CqRange MakeCqRange(double c, double r) {
  if (!std::isfinite(c)) throw InvalidArgument("c", "center must be finite");
  if (!std::isfinite(r) || !(r > 0)) throw InvalidArgument("r", "radius must be finite and > 0");
  if (!std::isfinite(c - r) || !std::isfinite(c + r)) throw InvalidArgument("r", "c +- r overflows double");
  return {c - r, c + r};
}

void CqPermutation(std::uint32_t n, std::uint64_t coordinate, const StreamContext& ctx, std::span<std::uint32_t> perm) {
  if (perm.size() != n) throw InvalidArgument("perm", "size must be n");
  std::iota(perm.begin(), perm.end(), 0u);
  const rng::StreamAddress addr{ctx.round, static_cast<std::uint32_t>(coordinate), rng::Purpose::kCqPermutation};
  std::uint64_t index = (coordinate >> 32) << 32;  // coordinates ≥ 2^32 continue in the index space
  for (std::uint32_t i = n - 1; i > 0 && n > 1; --i) {
    const std::uint64_t j = protocol::UniformBelow(std::uint64_t{i} + 1, ctx, addr, index);
    std::swap(perm[i], perm[static_cast<std::size_t>(j)]);
  }
}

void EncodeCq(const CqRange& range, std::uint32_t n, std::span<const float> weights, std::size_t m,
              const StreamContext& ctx, std::span<std::uint64_t> bits) {
  if (n == 0) throw InvalidArgument("n", "number of clients must be > 0");
  if (weights.size() != std::size_t{n} * m) throw InvalidArgument("weights", "size must be n*m");
  const std::size_t words = PackedWords(m);
  if (bits.size() < std::size_t{n} * words) throw InvalidArgument("bits", "needs n*ceil(m/64) words");
  ValidateWeights(weights, PackedWords(weights.size()));
  std::fill(bits.begin(), bits.begin() + static_cast<std::ptrdiff_t>(std::size_t{n} * words), 0);
  std::vector<std::uint32_t> perm(n);
  const double width = range.hi - range.lo;
  for (std::size_t j = 0; j < m; ++j) {
    CqPermutation(n, j, ctx, perm);
    for (std::uint32_t i = 0; i < n; ++i) {
      double w = weights[std::size_t{i} * m + j];
      w = w < range.lo ? range.lo : (w > range.hi ? range.hi : w);
      const double np = n * ((w - range.lo) / width);  // n·p ∈ [0, n]
      // ⌊n·p·2^64⌋ = hi·2^64 + lo (n·p is a double, so the scaling is exact).
      const double hi_part = std::floor(np);
      const std::uint64_t hi = static_cast<std::uint64_t>(hi_part);
      const std::uint64_t lo = ProbabilityToThreshold(np - hi_part);
      const std::uint64_t g = rng::Uniform64(ctx.generator, ctx.key, {ctx.round, i, rng::Purpose::kPrivateCoin}, j);
      const bool bit = perm[i] < hi || (perm[i] == hi && g < lo);
      bits[std::size_t{i} * words + j / 64] |= std::uint64_t{bit} << (j % 64);
    }
  }
}

void DecodeCqMean(const CqRange& range, std::span<const std::uint32_t> counts, std::uint32_t n, std::span<float> mean) {
  if (n == 0) throw InvalidArgument("n", "cannot average zero messages");
  if (mean.size() != counts.size()) throw InvalidArgument("mean", "size differs from counts");
  for (std::size_t j = 0; j < counts.size(); ++j)
    mean[j] = static_cast<float>(range.lo + (range.hi - range.lo) * counts[j] / n);
}

}  // namespace dpfl::quant
