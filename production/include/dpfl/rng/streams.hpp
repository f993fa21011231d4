// Counter-based random streams addressed by (key, round, entity, purpose, index).
//
// DESIGN.md "Randomness and exact decisions": no generator state anywhere. Every 64-bit
// uniform is a pure function of its address, so CPU and GPU produce bit-identical streams and
// any output can be replayed. `entity` is a client id for private coins and a pair id for
// shared bits; `index` is the parameter index.
//
//  * ChaCha20 (default, cryptographic): key = the 256-bit stream key, nonce = (round, entity,
//    purpose), block counter = index / 8; uniform = words (2k, 2k+1) of the block, k = index % 8
//    (low word first). index < 2^35.
//  * Philox4x32-10 (fast simulation, Random123): key = key words (0, 1) xor (purpose, 0),
//    counter = (index/2 low 32, index/2 high 32, round, entity); uniform = words (2k, 2k+1),
//    k = index % 2 (low word first). index < 2^65.
//
// Decision streams (the quantizers' shared bits and private coins) are drawn lazily
// (docs/production.md "Decision streams"): with a head width h ∈ {8, 16}, the 64-bit uniform of
// parameter j is
//   DecisionUniform64(j, h) = Head(j, h) ‖ top 64 − h bits of Uniform64(TailAddress(addr), j),
// where Head(j, h) is the little-endian h-bit chunk j of the head stream's keystream, i.e. bits
// h·(j % (64/h)) … h·(j % (64/h)) + h − 1 of Uniform64(addr, j / (64/h)). A decision "V < T" is
// settled by the bits of V that come from heads unless they tie with T's (probability 2^−13 to
// 2^−16 per comparison), so the fast paths draw 1 or 2 bytes per parameter and stream instead of
// 8, and fetch the tails only on a tie. The law is unchanged — V is still a uniform 64-bit word —
// and every path (scalar, SIMD, CUDA, replay tests) defines V through these two functions. Which
// width a stream uses is fixed by the quantizer (binary_element.hpp: kLdpqHeadBits,
// SharedHeadBits(d), RolePrivateHeadBits(d)).
#pragma once

#include <Random123/philox.h>

#include <cstdint>

#include "dpfl/hd.hpp"
#include "dpfl/rng/chacha20.hpp"

namespace dpfl::rng {

enum class Generator : std::uint32_t { kChaCha20 = 0, kPhilox4x32 = 1 };

// What a stream is used for; part of every address so that streams never overlap.
enum class Purpose : std::uint32_t {
  kSharedBits = 1,   // Z of a pair (CorBinQ, CoQ-FL), entity = pair id
  kPrivateCoin = 2,  // a client's own uniforms (LDPQ, tie-break coins), entity = client id
  kPairing = 3,      // server's pairing / solo selection, entity = 0
  kDropout = 4,      // dropout decisions, entity = client id
  kCqPermutation = 5,  // CQ baseline shared permutations, entity = 0
  kMonitor = 6,      // runtime statistical monitor sampling
  kStoSign = 7,      // DPFL-BNN stochastic binarization coins (seed 004 Alg. B), entity = client id
  kRandomizedResponse = 8,  // DPFL-BNN randomized-response flips (seed 004 Alg. C), entity = client id
  kCepamLayer = 9,   // CEPAM layer Ũ_j (seed 002 §3.4), entity = client id, index 64 j + slot
  kCepamDither = 10,  // CEPAM dithers V_{j,i} (seed 002 §3.3), entity = client id, index ((i−1)N + j)n + l
  kQgaussNoise = 11,     // quantized Gaussian noise N_Z(0, s²) (seed 003 Alg. 1 l. 8), entity = client id, chunk h from index h·2^20
  kQgaussRounding = 12,  // quantized Gaussian rounding coins (seed 003 Def. 1), entity = client id, index = coordinate
  kTableNoiseFirst = 13,  // the table sampler's first word per coordinate (SampleTableNoise), index = coordinate
  kTableNoiseSlow = 14,   // the table sampler's further words, chunk h from index h·2^20
};

struct StreamKey {
  std::uint32_t words[8];
};

struct StreamAddress {
  std::uint32_t round;
  std::uint32_t entity;
  Purpose purpose;
};

inline constexpr std::uint64_t kChaChaMaxIndex = std::uint64_t{1} << 35;

DPFL_HD std::uint64_t Combine(std::uint32_t lo, std::uint32_t hi) {
  return static_cast<std::uint64_t>(lo) | (static_cast<std::uint64_t>(hi) << 32);
}

// The 8 uniforms of ChaCha20 block `block` (indices 8·block … 8·block + 7).
DPFL_HD void ChaChaUniformBlock(const StreamKey& key, const StreamAddress& addr, std::uint32_t block,
                                std::uint64_t out[8]) {
  const std::uint32_t nonce[3] = {addr.round, addr.entity, static_cast<std::uint32_t>(addr.purpose)};
  std::uint32_t words[16];
  ChaCha20Block(key.words, block, nonce, words);
  for (int k = 0; k < 8; ++k) out[k] = Combine(words[2 * k], words[2 * k + 1]);
}

// The 2 uniforms of Philox block `block` (indices 2·block, 2·block + 1).
DPFL_HD void PhiloxUniformBlock(const StreamKey& key, const StreamAddress& addr, std::uint64_t block,
                                std::uint64_t out[2]) {
  r123::Philox4x32 philox;
  r123::Philox4x32::key_type k = {{key.words[0] ^ static_cast<std::uint32_t>(addr.purpose), key.words[1]}};
  r123::Philox4x32::ctr_type c = {{static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
                                   addr.round, addr.entity}};
  const r123::Philox4x32::ctr_type r = philox(c, k);
  out[0] = Combine(r.v[0], r.v[1]);
  out[1] = Combine(r.v[2], r.v[3]);
}

// One uniform by address (slow path for tests and replay; kernels use the block functions).
DPFL_HD std::uint64_t Uniform64(Generator gen, const StreamKey& key, const StreamAddress& addr, std::uint64_t index) {
  if (gen == Generator::kChaCha20) {
    std::uint64_t block[8];
    ChaChaUniformBlock(key, addr, static_cast<std::uint32_t>(index >> 3), block);
    return block[index & 7];
  }
  std::uint64_t block[2];
  PhiloxUniformBlock(key, addr, index >> 1, block);
  return block[index & 1];
}

// The tail stream of a decision stream: same key, round and entity, purpose with bit 8 set
// (disjoint from every Purpose value, so no tail overlaps any other stream).
inline constexpr std::uint32_t kTailPurposeBit = 0x100u;
DPFL_HD StreamAddress TailAddress(const StreamAddress& addr) {
  return {addr.round, addr.entity, static_cast<Purpose>(static_cast<std::uint32_t>(addr.purpose) | kTailPurposeBit)};
}

// Head widths of a decision stream (bits of V drawn from the head stream).
inline constexpr int kHeadBits8 = 8, kHeadBits16 = 16;

// Callers pass the constants above; any other value is read as 16.
DPFL_HD int ValidHeadBits(int head_bits) { return head_bits == kHeadBits8 ? kHeadBits8 : kHeadBits16; }

// h-bit chunk k of raw uniforms laid end to end in little-endian order (raw[k / (64/h)] holds
// it): the heads of a stream's parameters from the raw uniforms of its head stream.
DPFL_HD std::uint32_t HeadChunk(const std::uint64_t* raw, std::uint64_t k, int head_bits) {
  head_bits = ValidHeadBits(head_bits);
  const unsigned per_uniform = 64u / static_cast<unsigned>(head_bits);
  return static_cast<std::uint32_t>(raw[k / per_uniform] >> (head_bits * static_cast<int>(k % per_uniform))) &
         ((1u << head_bits) - 1u);
}

// Head(j, h): h-bit chunk j of the head stream (little-endian keystream order), h ∈ {8, 16}.
DPFL_HD std::uint32_t DecisionHead(Generator gen, const StreamKey& key, const StreamAddress& addr, std::uint64_t j,
                                   int head_bits) {
  const std::uint64_t per_uniform = 64u / static_cast<unsigned>(ValidHeadBits(head_bits));
  const std::uint64_t raw = Uniform64(gen, key, addr, j / per_uniform);
  return HeadChunk(&raw, j % per_uniform, head_bits);
}

// V = head ‖ top 64 − h bits of the raw tail uniform (Uniform64(TailAddress(addr), j)).
DPFL_HD std::uint64_t DecisionUniformFromParts(std::uint32_t head, std::uint64_t tail, int head_bits) {
  head_bits = ValidHeadBits(head_bits);
  return (static_cast<std::uint64_t>(head) << (64 - head_bits)) | (tail >> head_bits);
}

// The 64-bit uniform of parameter j of a decision stream: Head(j, h) ‖ (64 − h)-bit tail.
DPFL_HD std::uint64_t DecisionUniform64(Generator gen, const StreamKey& key, const StreamAddress& addr, std::uint64_t j,
                                        int head_bits) {
  return DecisionUniformFromParts(DecisionHead(gen, key, addr, j, head_bits),
                                  Uniform64(gen, key, TailAddress(addr), j), head_bits);
}

}  // namespace dpfl::rng
