// Outcome counts of bit-packed quantizer messages (bit j = word j/64, bit j%64; 1 = "+"), shared
// by the statistical suite and the mutant catalog. Cell order everywhere: (−,−), (−,+), (+,−), (+,+).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>

namespace dpfl::testing {

// Joint table of two equally long messages; the first sign is message 1.
inline std::array<std::uint64_t, 4> JointCounts(std::span<const std::uint64_t> b1, std::span<const std::uint64_t> b2) {
  std::array<std::uint64_t, 4> n{};
  for (std::size_t k = 0; k < b1.size(); ++k) {
    n[0] += static_cast<std::uint64_t>(std::popcount(~b1[k] & ~b2[k]));
    n[1] += static_cast<std::uint64_t>(std::popcount(~b1[k] & b2[k]));
    n[2] += static_cast<std::uint64_t>(std::popcount(b1[k] & ~b2[k]));
    n[3] += static_cast<std::uint64_t>(std::popcount(b1[k] & b2[k]));
  }
  return n;
}

// Lag-1 table of one message: pairs (bit 2i, bit 2i+1), in the cell order above. Detects
// dependence between neighbouring parameters (e.g. shared bits reused across parameters).
inline std::array<std::uint64_t, 4> LagOneCounts(std::span<const std::uint64_t> b) {
  constexpr std::uint64_t kEven = 0x5555555555555555ULL;
  std::array<std::uint64_t, 4> n{};
  for (std::uint64_t w : b) {
    const std::uint64_t x = w & kEven, y = (w >> 1) & kEven;
    n[0] += static_cast<std::uint64_t>(std::popcount(~x & ~y & kEven));
    n[1] += static_cast<std::uint64_t>(std::popcount(~x & y & kEven));
    n[2] += static_cast<std::uint64_t>(std::popcount(x & ~y & kEven));
    n[3] += static_cast<std::uint64_t>(std::popcount(x & y));
  }
  return n;
}

}  // namespace dpfl::testing
