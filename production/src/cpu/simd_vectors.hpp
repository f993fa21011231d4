// GCC vector types of the fast CPU path: 16 × 32-bit and 8 × 64-bit lanes (one 512-bit
// register on AVX-512, two or four on AVX2 / baseline x86-64, which GCC splits).
//
// Private to the fast CPU path: included by fast_encoders.cpp (and the vector types by
// fast_accumulate.cpp) only. Everything is in an anonymous namespace on purpose — internal
// linkage keeps the 512-bit vector returns out of any ABI (GCC's -Wpsabi note) and leaves
// the inliner free, exactly as when these lived in one file; do not include this header from
// a second translation unit of the same binary expecting shared definitions.
#pragma once

#include <cstdint>

namespace dpfl::quant::fast {
namespace {  // NOLINT(google-build-namespaces): see above

typedef std::uint32_t U32x16 __attribute__((vector_size(64)));
typedef std::uint64_t U64x8 __attribute__((vector_size(64)));
typedef std::int32_t I32x16 __attribute__((vector_size(64)));
typedef double F64x8 __attribute__((vector_size(64)));
typedef float F32x8 __attribute__((vector_size(32)));
typedef std::int32_t I32x8 __attribute__((vector_size(32)));
typedef std::uint16_t U16x16 __attribute__((vector_size(32)));
typedef std::uint8_t U8x16 __attribute__((vector_size(16)));

#define DPFL_ALWAYS_INLINE inline __attribute__((always_inline))

DPFL_ALWAYS_INLINE U32x16 Rotl(U32x16 x, int n) { return (x << n) | (x >> (32 - n)); }

}  // namespace
}  // namespace dpfl::quant::fast
