// The counter-based generators of dpfl/rng/streams.hpp, 16 lanes at a time: ChaCha20 on 16
// blocks and Philox4x32-10 on 64 counters per call, giving the raw uniforms of 512 parameters
// (docs/production.md "Decision streams"). Bit-identical to the scalar generators: tests/unit/
// fast_encoder_test.cpp compares the encoders built on them word for word.
//
// Private to the fast CPU path: included by fast_encoders.cpp (and the vector types by
// fast_accumulate.cpp) only. Everything is in an anonymous namespace on purpose — internal
// linkage keeps the 512-bit vector returns out of any ABI (GCC's -Wpsabi note) and leaves
// the inliner free, exactly as when these lived in one file; do not include this header from
// a second translation unit of the same binary expecting shared definitions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/rng/streams.hpp"
#include "simd_vectors.hpp"

namespace dpfl::quant::fast {
namespace {  // NOLINT(google-build-namespaces): see above

// ChaCha20's quarter round on vectors of any width (lane = block).
template <class V>
DPFL_ALWAYS_INLINE void QuarterRound(V& a, V& b, V& c, V& d) {
  a += b; d ^= a; d = (d << 16) | (d >> 16);
  c += d; b ^= c; b = (b << 12) | (b >> 20);
  a += b; d ^= a; d = (d << 8) | (d >> 24);
  c += d; b ^= c; b = (b << 7) | (b >> 25);
}

// The 20 rounds (10 double rounds) on the state x, one block per lane.
template <class V>
DPFL_ALWAYS_INLINE void ChaChaRounds(V x[16]) {
  for (int round = 0; round < 10; ++round) {
    QuarterRound(x[0], x[4], x[8], x[12]);
    QuarterRound(x[1], x[5], x[9], x[13]);
    QuarterRound(x[2], x[6], x[10], x[14]);
    QuarterRound(x[3], x[7], x[11], x[15]);
    QuarterRound(x[0], x[5], x[10], x[15]);
    QuarterRound(x[1], x[6], x[11], x[12]);
    QuarterRound(x[2], x[7], x[8], x[13]);
    QuarterRound(x[3], x[4], x[9], x[14]);
  }
}

// One butterfly stage of a 16×16 transpose of 32-bit elements (rows = vectors): for the row
// pair (a, b) = (rows r, r + G), r with bit G clear, the G-wide column blocks with bit G set in a
// and clear in b are exchanged. After the stages G = 8, 4, 2, 1 the matrix is transposed.
template <int G>
DPFL_ALWAYS_INLINE void TransposeStage(U32x16& a, U32x16& b) {
  U32x16 na, nb;
  if constexpr (G == 8) {
    na = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
    nb = __builtin_shufflevector(a, b, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
  } else if constexpr (G == 4) {
    na = __builtin_shufflevector(a, b, 0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
    nb = __builtin_shufflevector(a, b, 4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
  } else if constexpr (G == 2) {
    na = __builtin_shufflevector(a, b, 0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29);
    nb = __builtin_shufflevector(a, b, 2, 3, 18, 19, 6, 7, 22, 23, 10, 11, 26, 27, 14, 15, 30, 31);
  } else {
    na = __builtin_shufflevector(a, b, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
    nb = __builtin_shufflevector(a, b, 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31);
  }
  a = na;
  b = nb;
}

template <int G>
DPFL_ALWAYS_INLINE void TransposeStages(U32x16 x[16]) {
  for (int r = 0; r < 16; ++r)
    if ((r & G) == 0) TransposeStage<G>(x[r], x[r + G]);
}

// One stream's generator input with everything that does not depend on the group laid out once
// per encode: the ChaCha20 rows as 16-lane vectors (lane b = block b of a group; row 12 holds
// the lane offset, the group's first block counter is added per group), the Philox key and the
// constant counter words. Built from scalar arrays, because GCC assembles `vector + scalar` lane
// by lane (16 dependent masked broadcasts per row), which made every group pay for rebuilding
// them (docs/benchmarks.md).
struct StreamLanes {
  rng::Generator generator;
  U32x16 chacha_rows[16];
  U32x8 chacha_rows8[2][16];  // the same rows as two 8-lane halves (blocks 0–7, 8–15): AVX2
  U32x4 chacha_rows4[4][16];  // and as four 4-lane quarters: baseline x86-64 (SSE2)
  U64x8 philox_round, philox_entity;
  std::uint32_t philox_k0, philox_k1;
};

StreamLanes MakeStreamLanes(const StreamContext& ctx, const rng::StreamAddress& addr) {
  StreamLanes lanes{};
  lanes.generator = ctx.generator;
  std::uint32_t rows[16][16];
  const std::uint32_t constants[4] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u};  // RFC 8439 §2.3
  for (std::uint32_t b = 0; b < 16; ++b) {
    for (int i = 0; i < 4; ++i) rows[i][b] = constants[i];
    for (int i = 0; i < 8; ++i) rows[4 + i][b] = ctx.key.words[i];
    rows[12][b] = b;
    rows[13][b] = addr.round;
    rows[14][b] = addr.entity;
    rows[15][b] = static_cast<std::uint32_t>(addr.purpose);
  }
  std::memcpy(lanes.chacha_rows, rows, sizeof(rows));
  for (int i = 0; i < 16; ++i) {
    for (int h = 0; h < 2; ++h) std::memcpy(&lanes.chacha_rows8[h][i], &rows[i][8 * h], sizeof(U32x8));
    for (int h = 0; h < 4; ++h) std::memcpy(&lanes.chacha_rows4[h][i], &rows[i][4 * h], sizeof(U32x4));
  }
  std::uint64_t round[8], entity[8];
  std::fill(round, round + 8, std::uint64_t{addr.round});
  std::fill(entity, entity + 8, std::uint64_t{addr.entity});
  std::memcpy(&lanes.philox_round, round, sizeof(round));
  std::memcpy(&lanes.philox_entity, entity, sizeof(entity));
  lanes.philox_k0 = ctx.key.words[0] ^ static_cast<std::uint32_t>(addr.purpose);
  lanes.philox_k1 = ctx.key.words[1];
  return lanes;
}

// ChaCha20 blocks first_block … first_block + 15 (RFC 8439 §2.3), 16 blocks in the 16 lanes;
// out[b] = the 64 keystream bytes of block first_block + b, in order, i.e. the raw uniforms
// 8·(first_block + b) … + 7 of rng::ChaChaUniformBlock.
DPFL_ALWAYS_INLINE void ChaCha16Blocks(const StreamLanes& lanes, std::uint32_t first_block, U64x8 out[16]) {
  U32x16 x[16];
  for (int i = 0; i < 16; ++i) x[i] = lanes.chacha_rows[i];
  x[12] += first_block;
  ChaChaRounds(x);
  for (int i = 0; i < 16; ++i) x[i] += lanes.chacha_rows[i];  // x[w] lane b = word w of block b
  x[12] += first_block;
  TransposeStages<8>(x);
  TransposeStages<4>(x);
  TransposeStages<2>(x);
  TransposeStages<1>(x);  // x[b] lane w = word w of block b
  std::memcpy(out, x, sizeof(x));
}

// The same 16 blocks in two passes of 8 lanes (AVX2: 16 ymm registers hold one pass's state,
// where the 16-lane form would spill every round) or four passes of 4 lanes (SSE2). Each pass
// transposes its words back to blocks with the butterfly stages of TransposeStage (8 × 8 or 4 × 4
// blocks of 32-bit words) and stores block b's 64 bytes at out[b].
template <int G, class V>
DPFL_ALWAYS_INLINE void TransposeStageNarrow(V& a, V& b) {
  V na, nb;
  if constexpr (sizeof(V) == 32) {
    if constexpr (G == 4) {
      na = __builtin_shufflevector(a, b, 0, 1, 2, 3, 8, 9, 10, 11);
      nb = __builtin_shufflevector(a, b, 4, 5, 6, 7, 12, 13, 14, 15);
    } else if constexpr (G == 2) {
      na = __builtin_shufflevector(a, b, 0, 1, 8, 9, 4, 5, 12, 13);
      nb = __builtin_shufflevector(a, b, 2, 3, 10, 11, 6, 7, 14, 15);
    } else {
      na = __builtin_shufflevector(a, b, 0, 8, 2, 10, 4, 12, 6, 14);
      nb = __builtin_shufflevector(a, b, 1, 9, 3, 11, 5, 13, 7, 15);
    }
  } else {
    if constexpr (G == 2) {
      na = __builtin_shufflevector(a, b, 0, 1, 4, 5);
      nb = __builtin_shufflevector(a, b, 2, 3, 6, 7);
    } else {
      na = __builtin_shufflevector(a, b, 0, 4, 2, 6);
      nb = __builtin_shufflevector(a, b, 1, 5, 3, 7);
    }
  }
  a = na;
  b = nb;
}

// Transposes the kLanes × kLanes block of rows x[0 … kLanes) in place.
template <int kLanes, class V>
DPFL_ALWAYS_INLINE void TransposeSquare(V* x) {
  if constexpr (kLanes == 8) {
    for (int r = 0; r < 8; ++r)
      if ((r & 4) == 0) TransposeStageNarrow<4>(x[r], x[r + 4]);
  }
  for (int r = 0; r < kLanes; ++r)
    if ((r & 2) == 0) TransposeStageNarrow<2>(x[r], x[r + 2]);
  for (int r = 0; r < kLanes; ++r)
    if ((r & 1) == 0) TransposeStageNarrow<1>(x[r], x[r + 1]);
}

template <int kLanes>
DPFL_ALWAYS_INLINE void ChaChaBlocksNarrow(const StreamLanes& lanes, std::uint32_t first_block, U64x8 out[16]) {
  using V = std::conditional_t<kLanes == 8, U32x8, U32x4>;
  for (int pass = 0; pass < 16 / kLanes; ++pass) {
    const V* rows = kLanes == 8 ? reinterpret_cast<const V*>(lanes.chacha_rows8[pass])
                                : reinterpret_cast<const V*>(lanes.chacha_rows4[pass]);
    V x[16];
    for (int i = 0; i < 16; ++i) x[i] = rows[i];
    x[12] += first_block;
    ChaChaRounds(x);
    for (int i = 0; i < 16; ++i) x[i] += rows[i];
    x[12] += first_block;
    for (int q = 0; q < 16; q += kLanes) TransposeSquare<kLanes>(x + q);  // x[q + b] = words q … of block b
    char* dst = reinterpret_cast<char*>(out) + 64 * kLanes * pass;
    for (int b = 0; b < kLanes; ++b)
      for (int q = 0; q < 16; q += kLanes) std::memcpy(dst + 64 * b + 4 * q, &x[q + b], sizeof(V));
  }
}

// Philox4x32-10 (Random123 round function and Weyl key schedule) on 8 counters per vector,
// 32-bit values held in 64-bit lanes so that the 32×32→64 products are single multiplies.
DPFL_ALWAYS_INLINE void Philox8(U64x8 c[4], std::uint32_t k0, std::uint32_t k1) {
  const U64x8 mask = U64x8{} + 0xffffffffull;
  for (int round = 0; round < 10; ++round) {
    // Operands masked to 32 bits so the compiler can use 32×32→64 multiplies (vpmuludq).
    const U64x8 p0 = (c[0] & mask) * 0xD2511F53ull, p1 = (c[2] & mask) * 0xCD9E8D57ull;
    const U64x8 n0 = (p1 >> 32) ^ c[1] ^ k0, n2 = (p0 >> 32) ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = p1 & mask;
    c[2] = n2;
    c[3] = p0 & mask;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

// Philox blocks first_block … first_block + 63 as 16 vectors of 8 consecutive raw uniforms
// 2·first_block … 2·first_block + 127 (rng::PhiloxUniformBlock: block b holds uniforms 2b, 2b + 1).
DPFL_ALWAYS_INLINE void Philox64Blocks(const StreamLanes& lanes, std::uint64_t first_block, U64x8 out[16]) {
  const U64x8 lane = U64x8{0, 1, 2, 3, 4, 5, 6, 7};
  for (int group = 0; group < 8; ++group) {
    const U64x8 block = lane + (first_block + static_cast<std::uint64_t>(8 * group));
    U64x8 c[4] = {block & 0xffffffffull, block >> 32, lanes.philox_round, lanes.philox_entity};
    Philox8(c, lanes.philox_k0, lanes.philox_k1);
    const U64x8 even = c[0] | (c[1] << 32), odd = c[2] | (c[3] << 32);  // uniforms 2b, 2b + 1
    out[2 * group] = __builtin_shufflevector(even, odd, 0, 8, 1, 9, 2, 10, 3, 11);
    out[2 * group + 1] = __builtin_shufflevector(even, odd, 4, 12, 5, 13, 6, 14, 7, 15);
  }
}

// The raw uniforms 128·i … 128·i + 127 of one stream (16 ChaCha20 blocks from 16·i, or 64 Philox
// blocks from 64·i) as 16 vectors of 8 consecutive uniforms. For a decision stream with 16-bit
// heads these are the heads of parameters 512·i … 512·i + 511 (rng::DecisionHead: head j is
// 16-bit chunk j % 4 of raw uniform j / 4), so vector v read as 32 little-endian 16-bit lanes is
// heads 512·i + 32·v + (0…31); with 8-bit heads they are the heads of parameters 1024·i … + 1023
// in byte order.
//
// kLanes: the ChaCha20 lanes per pass — 16 (AVX-512), 8 (AVX2) or 4 (baseline); the words are the
// same for every width.
template <int kLanes = 16>
DPFL_ALWAYS_INLINE void RawUniforms128(const StreamLanes& lanes, std::size_t i, U64x8 out[16]) {
  if (lanes.generator == rng::Generator::kChaCha20) {
    if constexpr (kLanes == 16) {
      ChaCha16Blocks(lanes, static_cast<std::uint32_t>(i * 16), out);
    } else {
      ChaChaBlocksNarrow<kLanes>(lanes, static_cast<std::uint32_t>(i * 16), out);
    }
  } else {
    Philox64Blocks(lanes, static_cast<std::uint64_t>(i) * 64, out);
  }
}

}  // namespace
}  // namespace dpfl::quant::fast
