// GCC vector types of the fast CPU path: 16 × 32-bit and 8 × 64-bit lanes (one 512-bit
// register on AVX-512, two or four on AVX2 / baseline x86-64, which GCC splits).
//
// Private to the fast CPU path: included by fast_encoders.cpp (and the vector types by
// fast_accumulate.cpp) only. Everything is in an anonymous namespace on purpose — internal
// linkage keeps the 512-bit vector returns out of any ABI (GCC's -Wpsabi note) and leaves
// the inliner free, exactly as when these lived in one file; do not include this header from
// a second translation unit of the same binary expecting shared definitions.
#pragma once

#include <xmmintrin.h>

#include <cstdint>

namespace dpfl::quant::fast {
namespace {  // NOLINT(google-build-namespaces): see above

typedef std::uint32_t U32x16 __attribute__((vector_size(64)));
typedef std::uint32_t U32x8 __attribute__((vector_size(32)));
typedef std::uint32_t U32x4 __attribute__((vector_size(16)));
typedef std::uint64_t U64x8 __attribute__((vector_size(64)));
typedef std::int32_t I32x16 __attribute__((vector_size(64)));
typedef double F64x8 __attribute__((vector_size(64)));
typedef float F32x8 __attribute__((vector_size(32)));
typedef float F32x16 __attribute__((vector_size(64)));
typedef std::int32_t I32x8 __attribute__((vector_size(32)));
typedef std::uint16_t U16x16 __attribute__((vector_size(32)));
typedef std::uint8_t U8x16 __attribute__((vector_size(16)));

#define DPFL_ALWAYS_INLINE inline __attribute__((always_inline))

// Vectors of one native register for the portable (GCC vector extension) paths: W 32-bit lanes,
// W = 8 on AVX2 (ymm) and W = 4 on baseline x86-64 (xmm). GCC 12 lowers comparisons and selects
// of vectors wider than the target's registers to scalar code (a comparison of two 16-lane float
// vectors on AVX2 becomes 16 vcomiss), so the portable decisions work one register at a time.
// The "h" types hold W/2 lanes: a float half converts to one register of doubles.
template <int W>
struct NativeVectors {
  static_assert(W == 4 || W == 8, "one xmm (4 lanes) or one ymm (8 lanes)");
  typedef float F32 __attribute__((vector_size(4 * W)));
  typedef std::int32_t I32 __attribute__((vector_size(4 * W)));
  typedef std::uint16_t U16 __attribute__((vector_size(2 * W)));
  typedef std::uint8_t U8 __attribute__((vector_size(W)));
  typedef float F32h __attribute__((vector_size(2 * W)));
  typedef double F64h __attribute__((vector_size(4 * W)));
  typedef std::int32_t I32h __attribute__((vector_size(2 * W)));
};

// Bit i = lane i of an all-ones/all-zeros mask of W lanes (movmskps per 4 lanes).
template <int W>
DPFL_ALWAYS_INLINE std::uint32_t MaskBits(typename NativeVectors<W>::I32 m) {
  __m128 q[W / 4];
  __builtin_memcpy(q, &m, sizeof(q));
  std::uint32_t bits = 0;
  for (int i = 0; i < W / 4; ++i) bits |= static_cast<std::uint32_t>(_mm_movemask_ps(q[i])) << (4 * i);
  return bits;
}

// W lanes of 16-bit (kBytes false) or 8-bit heads (kBytes true, as b << 8) from `h`, as 32-bit ints.
template <int W, bool kBytes>
DPFL_ALWAYS_INLINE typename NativeVectors<W>::I32 HeadsW(const void* h) {
  using N = NativeVectors<W>;
  if constexpr (kBytes) {
    typename N::U8 b;
    __builtin_memcpy(&b, h, sizeof(b));
    return __builtin_convertvector(b, typename N::I32) << 8;
  } else {
    typename N::U16 b;
    __builtin_memcpy(&b, h, sizeof(b));
    return __builtin_convertvector(b, typename N::I32);
  }
}

}  // namespace
}  // namespace dpfl::quant::fast
