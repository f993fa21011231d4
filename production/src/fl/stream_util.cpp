// See dpfl/fl/stream_util.hpp.
#include "dpfl/fl/stream_util.hpp"

#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#ifdef DPFL_FL_WIRING_MUTANTS  // test-only copy of this file (tests/CMakeLists.txt); never in dpfl_fl
#include "testing/fl_wiring_mutants.hpp"
#endif

namespace dpfl::fl {
namespace {

void PutLe64(std::vector<unsigned char>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

rng::StreamKey HashToKey(const std::vector<unsigned char>& msg) {
  unsigned char digest[32];
  crypto_generichash(digest, sizeof digest, msg.data(), msg.size(), nullptr, 0);
  rng::StreamKey key{};
  for (int w = 0; w < 8; ++w) {
    key.words[w] = static_cast<std::uint32_t>(digest[4 * w]) | (static_cast<std::uint32_t>(digest[4 * w + 1]) << 8) |
                   (static_cast<std::uint32_t>(digest[4 * w + 2]) << 16) |
                   (static_cast<std::uint32_t>(digest[4 * w + 3]) << 24);
  }
  sodium_memzero(digest, sizeof digest);
  return key;
}

}  // namespace

rng::StreamKey DeriveKey(std::uint64_t seed, std::string_view label, std::uint64_t a, std::uint64_t b) {
  static constexpr char kDomain[] = "dpfl-fl-v1";
  std::vector<unsigned char> msg(kDomain, kDomain + sizeof kDomain - 1);
  PutLe64(msg, label.size());
  msg.insert(msg.end(), label.begin(), label.end());
  PutLe64(msg, seed);
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kDeriveKeySeed32)) std::fill(msg.end() - 4, msg.end(), 0);  // uint32(seed)
#endif

  PutLe64(msg, a);
  PutLe64(msg, b);
  return HashToKey(msg);
}

rng::StreamKey DeriveSubKey(const rng::StreamKey& key, std::string_view label, std::uint64_t a) {
  static constexpr char kDomain[] = "dpfl-fl-sub-v1";
  std::vector<unsigned char> msg(kDomain, kDomain + sizeof kDomain - 1);
  for (std::uint32_t w : key.words) PutLe64(msg, w);
  PutLe64(msg, label.size());
  msg.insert(msg.end(), label.begin(), label.end());
  PutLe64(msg, a);
  return HashToKey(msg);
}

double StreamCursor::NextGamma(double shape) {
  if (shape < 1.0) {
    const double g = NextGamma(shape + 1.0);
    return g * std::pow(NextUnit(), 1.0 / shape);
  }
  // Marsaglia & Tsang (2000), "A simple method for generating gamma variables".
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = NextGaussian();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = NextUnit();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

std::uint64_t StreamCursor::Below(std::uint64_t bound) {
  for (;;) {
    const unsigned __int128 product = static_cast<unsigned __int128>(Next()) * bound;
    const std::uint64_t low = static_cast<std::uint64_t>(product);
    if (low >= bound || low >= (-bound) % bound) return static_cast<std::uint64_t>(product >> 64);
  }
}

std::vector<std::size_t> ShuffledPasses(StreamCursor& cur, std::size_t shard, std::size_t want) {
  std::vector<std::size_t> order;
  if (shard == 0) return order;
  order.reserve(want);
  std::vector<std::size_t> perm(shard);
  while (order.size() < want) {
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    std::uint64_t cyclic = 0;
#ifdef DPFL_FL_WIRING_MUTANTS  // loop wiring mutant (docs/mutants.md, loop wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kShuffleCyclic)) cyclic = 1;  // Sattolo: only the cyclic permutations
#endif
    for (std::size_t i = shard; i > 1; --i) std::swap(perm[i - 1], perm[cur.Below(i - cyclic)]);
    for (std::size_t k = 0; k < shard && order.size() < want; ++k) order.push_back(perm[k]);
  }
  return order;
}

}  // namespace dpfl::fl
