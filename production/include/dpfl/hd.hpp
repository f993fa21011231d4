// DPFL_HD marks functions compiled for both host and device (CUDA) code. Per-element math
// under DPFL_HD is plain integer/IEEE double code with no FMA contraction (the build sets
// -ffp-contract=off / -fmad=false), so CPU and GPU produce bit-identical results.
#pragma once

#if defined(__CUDACC__)
#define DPFL_HD __host__ __device__ __forceinline__
#else
#define DPFL_HD inline
#endif
