// Helpers that turn counter-based 64-bit uniforms (dpfl/rng/streams.hpp) into the values the FL
// loop needs, and derive independent stream keys from a run seed. No generator state: a value
// is a pure function of (key, address, index), so runs are reproducible and resumable.
//
//  * DeriveKey(seed, label, a, b): BLAKE2b-256 (libsodium crypto_generichash, no key) of
//    "dpfl-fl-v1" ‖ len(label) ‖ label ‖ seed ‖ a ‖ b (integers as 64-bit little-endian), the
//    digest read as eight little-endian 32-bit key words. Distinct labels/(a, b) give
//    computationally independent ChaCha20 keys. tests/testing/loop_wiring_harness.hpp
//    (DocumentedKey) recomputes it from this definition.
//  * UnitOpen(v): (⌊v/2^11⌋ + 1/2)·2^−53 ∈ (0, 1), never 0 or 1 (so log(u) is finite); the
//    map is exact in double.
//  * Gaussian: Box–Muller, N = √(−2 ln u1) · cos(2π u2) with u1, u2 = UnitOpen of two
//    consecutive stream indices (2k, 2k+1).
//  * Laplace(b): inverse CDF, x = −b·sgn(u − 1/2)·ln(1 − 2|u − 1/2|), u = UnitOpen(v); |x| is
//    finite because u ∈ (0, 1).
//  * Gamma(β) (Dirichlet shares): Marsaglia–Tsang (2000) for β ≥ 1, and Gamma(β + 1)·u^{1/β}
//    for β < 1; draws consume successive indices of one stream (a cursor passed by reference).
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::fl {

rng::StreamKey DeriveKey(std::uint64_t seed, std::string_view label, std::uint64_t a = 0, std::uint64_t b = 0);
// Key derived from another key (e.g. a per-layer key from a pair key).
rng::StreamKey DeriveSubKey(const rng::StreamKey& key, std::string_view label, std::uint64_t a = 0);

inline double UnitOpen(std::uint64_t v) { return (static_cast<double>(v >> 11) + 0.5) * 0x1.0p-53; }

// A sequential reader of one stream address (index advances by one per 64-bit word).
struct StreamCursor {
  quant::StreamContext ctx;
  rng::StreamAddress addr;
  std::uint64_t index = 0;
  std::uint64_t Next() { return rng::Uniform64(ctx.generator, ctx.key, addr, index++); }
  double NextUnit() { return UnitOpen(Next()); }
  double NextGaussian() {
    const double u1 = NextUnit(), u2 = NextUnit();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
  double NextGamma(double shape);
  // Unbiased integer in [0, bound) (Lemire with rejection), bound ≥ 1.
  std::uint64_t Below(std::uint64_t bound);
};

// A client's local sample order: `want` indices into a shard of `shard` samples, in passes over
// the shard, each pass a Fisher–Yates permutation drawn with cur.Below; empty for an empty shard
// (such a client trains nothing). Shared by both FL loops, so their orders are defined once.
std::vector<std::size_t> ShuffledPasses(StreamCursor& cur, std::size_t shard, std::size_t want);

inline double LaplaceFromUniform(std::uint64_t v, double b) {
  const double u = UnitOpen(v) - 0.5;
  return u < 0 ? b * std::log1p(2.0 * u) : -b * std::log1p(-2.0 * u);
}

}  // namespace dpfl::fl
