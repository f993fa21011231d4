// CUDA encoders of the binary quantizers and bit aggregation (dpfl/quant/cuda_quantizer.hpp).
//
// Bit identity with the CPU path (docs/cuda.md): every per-element decision is made by the same
// DPFL_HD functions the CPU loops call (LdpqBit, Q1RoleBit, Q2RoleBit, thresholds from
// dpfl/quant/binary_element.hpp; ChaChaUniformBlock, PhiloxUniformBlock, DecisionUniform64 from
// dpfl/rng/streams.hpp),
// on the same stream addresses, with the weight widened float → double as on the CPU. The
// arithmetic is integer plus IEEE double +, −, × and the truncating double → uint64 conversion,
// compiled with -fmad=false (no FMA contraction), so each result is the correctly rounded one on
// both sides.
//
// Work mapping of the encode kernels: thread g handles the 32 parameters 32g … 32g+31, whose
// 16-bit heads (rng::DecisionHead) are exactly one ChaCha20 block (block counter g) or four
// Philox blocks (4g … 4g+3) of each stream (8-bit heads: half a ChaCha20 block or two Philox
// blocks), and builds one 32-bit half of a packed word. Lanes 2q and 2q+1 of a warp hold the
// two halves of word q; one __shfl_xor_sync joins them and lane 2q writes the word. A tie of the
// heads with T >> 48 (probability 2^−13 … 2^−16) recomputes that parameter's full uniforms. A
// message of m parameters runs ⌈m/64⌉·2 threads. Out-of-range threads of the last warp take
// part in the shuffle with zero bits (no early return before it).
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_element.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/cpu_encoders.hpp"
#include "dpfl/quant/cuda_quantizer.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl {
namespace cuda_detail {

void ThrowIfCudaError(int code, const char* expr, const char* file, int line) {
  if (code == static_cast<int>(cudaSuccess)) return;
  const cudaError_t err = static_cast<cudaError_t>(code);
  (void)cudaGetLastError();  // clear a non-sticky error so that later calls are not poisoned
  throw CudaError(code, std::string(expr) + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")",
                  file, line);
}

}  // namespace cuda_detail

namespace quant {
namespace {

constexpr unsigned kBlockThreads = 256;  // a multiple of 32 (whole warps), so lane pairs share a word
static_assert(kBlockThreads % 32 == 0);

enum class Mode { kLdpq, kQ1, kQ2 };

// Owns a device allocation; frees it on scope exit (also when an exception unwinds).
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n) {
    if (n > 0) DPFL_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), n * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (ptr_ != nullptr) (void)cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return ptr_; }

 private:
  T* ptr_ = nullptr;
};

// ---- Kernels ----

// The 8 raw uniforms 8·g … 8·g + 7 of one stream (rng::Uniform64 layout): ChaCha20 block g, or
// Philox blocks 4·g … 4·g + 3. For a decision stream they hold the 16-bit heads of parameters
// 32·g … 32·g + 31 (rng::DecisionHead: head 32·g + k = bits 16·(k % 4) … of uniform k / 4).
template <rng::Generator G>
__device__ __forceinline__ void RawOctet(const rng::StreamKey& key, const rng::StreamAddress& addr, std::uint64_t g,
                                         std::uint64_t u[8]) {
  if constexpr (G == rng::Generator::kChaCha20) {
    rng::ChaChaUniformBlock(key, addr, static_cast<std::uint32_t>(g), u);  // g < 2^32 (m ≤ 2^35)
  } else {
#pragma unroll
    for (int b = 0; b < 4; ++b) rng::PhiloxUniformBlock(key, addr, g * 4 + static_cast<std::uint64_t>(b), u + 2 * b);
  }
}

// The 4 raw uniforms 4·g … 4·g + 3 of one stream: with 8-bit heads (SharedHeadBits,
// RolePrivateHeadBits) they hold the heads of parameters 32·g … 32·g + 31 — half of ChaCha20
// block g / 2 (both threads of a word compute that block and keep their half), or Philox blocks
// 2·g, 2·g + 1.
template <rng::Generator G>
__device__ __forceinline__ void RawQuartet(const rng::StreamKey& key, const rng::StreamAddress& addr, std::uint64_t g,
                                           std::uint64_t u[4]) {
  if constexpr (G == rng::Generator::kChaCha20) {
    std::uint64_t block[8];
    rng::ChaChaUniformBlock(key, addr, static_cast<std::uint32_t>(g / 2), block);
#pragma unroll
    for (int k = 0; k < 4; ++k) u[k] = block[4 * (g % 2) + static_cast<std::uint64_t>(k)];
  } else {
#pragma unroll
    for (int b = 0; b < 2; ++b) rng::PhiloxUniformBlock(key, addr, g * 2 + static_cast<std::uint64_t>(b), u + 2 * b);
  }
}

// Head k (0 … 31) of a thread's head uniforms as a 16-bit value: 16-bit chunk k of u[0..7], or
// 8-bit chunk k of u[0..3] widened to b << 8 (its bits where a 16-bit head's would be).
__device__ __forceinline__ std::uint32_t Head16(const std::uint64_t* u, int k, bool bytes) {
  return bytes ? rng::HeadChunk(u, static_cast<std::uint64_t>(k), rng::kHeadBits8) << 8
               : rng::HeadChunk(u, static_cast<std::uint64_t>(k), rng::kHeadBits16);
}

// Thread g decides parameters 32·g … 32·g + 31 from their heads (at most one head block per
// stream) and fetches the full 64-bit uniforms (rng::DecisionUniform64) only when the heads tie
// with T >> 48 — the same rule as the CPU's SIMD path, so the bits are identical.
template <rng::Generator G, Mode M>
__global__ void __launch_bounds__(kBlockThreads)
    EncodeKernel(BinaryLevels levels, const float* __restrict__ w, std::uint64_t m, rng::StreamKey private_key,
                 rng::StreamAddress private_addr, rng::StreamKey shared_key, rng::StreamAddress shared_addr, int d,
                 std::uint64_t* __restrict__ bits) {
  const std::uint64_t g = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t first = g * 32;
  std::uint64_t half = 0;
  if (first < m) {
    std::uint64_t priv[8], shared[8] = {};
    const bool shared_bytes = SharedHeadBits(d) == rng::kHeadBits8;
    const bool private_bytes = M != Mode::kLdpq && RolePrivateHeadBits(d) == rng::kHeadBits8;
    // Low bits of V >> 48 that the heads leave unknown: the heads are compared with T >> 48
    // after dropping them, as on the CPU.
    const int unknown = M == Mode::kLdpq ? 0 : RoleHeadUnknownBits(d);
    if (private_bytes) {
      RawQuartet<G>(private_key, private_addr, g, priv);
    } else {
      RawOctet<G>(private_key, private_addr, g, priv);
    }
    if constexpr (M != Mode::kLdpq) {
      if (shared_bytes) {
        RawQuartet<G>(shared_key, shared_addr, g, shared);
      } else {
        RawOctet<G>(shared_key, shared_addr, g, shared);
      }
    }
    const int shift = d < 16 ? d : 16;
    const std::uint32_t high = (0xffffu << (16 - shift)) & 0xffffu;
    const int n = m - first < 32 ? static_cast<int>(m - first) : 32;
    for (int k = 0; k < n; ++k) {
      const std::uint64_t j = first + static_cast<std::uint64_t>(k);
      const double x = ClipWeight(static_cast<double>(w[j]), levels);
      const std::uint32_t t16 =
          static_cast<std::uint32_t>((M == Mode::kQ2 ? MinusThreshold(x, levels) : PlusThreshold(x, levels)) >> 48);
      const std::uint32_t shared16 = Head16(shared, k, shared_bytes);
      const std::uint32_t priv16 = Head16(priv, k, private_bytes);
      const std::uint32_t v_head = (M == Mode::kLdpq ? priv16 : ((shared16 & high) | (priv16 >> shift))) >> unknown;
      const std::uint32_t t_head = t16 >> unknown;
      bool plus;
      if (v_head != t_head) {
        plus = (v_head < t_head) != (M == Mode::kQ2);
      } else {
        const std::uint64_t pu = rng::DecisionUniform64(G, private_key, private_addr, j,
                                                        M == Mode::kLdpq ? kLdpqHeadBits : RolePrivateHeadBits(d));
        if constexpr (M == Mode::kLdpq) {
          plus = LdpqBit(w[j], pu, levels);
        } else {
          const std::uint64_t su = rng::DecisionUniform64(G, shared_key, shared_addr, j, SharedHeadBits(d));
          plus = M == Mode::kQ1 ? Q1RoleBit(w[j], su, pu, d, levels) : Q2RoleBit(w[j], su, pu, d, levels);
        }
      }
      half |= std::uint64_t{plus} << k;
    }
  }
  // Lanes 2q, 2q+1 hold the low and high halves of word q (blockDim is even, so g % 2 = lane % 2).
  std::uint64_t word = half << (32 * (threadIdx.x & 1u));
  word |= __shfl_xor_sync(0xffffffffu, word, 1);
  if ((threadIdx.x & 1u) == 0 && first < m) bits[g / 2] = word;
}

// *first_bad = min(*first_bad, index of the first NaN/±Inf weight). Exponent-bit test, so it
// does not depend on fast-math settings. Grid-stride: a thread's first hit is its smallest.
__global__ void FirstNonFiniteKernel(const float* __restrict__ w, std::uint64_t m,
                                     unsigned long long* __restrict__ first_bad) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t j = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < m; j += stride) {
    if ((__float_as_uint(w[j]) & 0x7f800000u) == 0x7f800000u) {
      atomicMin(first_bad, static_cast<unsigned long long>(j));
      return;
    }
  }
}

// counts[j] += Σ_{i<n} bit j of message i (thread per parameter; the 64 threads of one word read
// the same word, which the cache broadcasts).
__global__ void AccumulateKernel(const std::uint64_t* __restrict__ bits, std::uint64_t n, std::uint64_t words,
                                 std::uint32_t* __restrict__ counts, std::uint64_t m) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t j = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < m; j += stride) {
    const std::uint64_t word = j / 64;
    const unsigned shift = static_cast<unsigned>(j % 64);
    std::uint32_t c = counts[j];
    for (std::uint64_t i = 0; i < n; ++i) c += static_cast<std::uint32_t>((bits[i * words + word] >> shift) & 1u);
    counts[j] = c;
  }
}

// ---- Host helpers ----

unsigned GridStrideBlocks(std::uint64_t items) {
  const std::uint64_t blocks = (items + kBlockThreads - 1) / kBlockThreads;
  return static_cast<unsigned>(blocks < 65535u * 16u ? blocks : 65535u * 16u);
}

void LaunchCheck() {
  DPFL_CUDA_CHECK(cudaGetLastError());
  DPFL_CUDA_CHECK(cudaDeviceSynchronize());
}

// Rejects null and pageable-host pointers (a kernel would fault on them); device, managed and
// pinned (mapped) host memory are accepted.
void CheckDevicePointer(const void* p, const char* name) {
  if (p == nullptr) throw InvalidArgument(name, "null device pointer");
  cudaPointerAttributes attr{};
  DPFL_CUDA_CHECK(cudaPointerGetAttributes(&attr, p));
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged && attr.type != cudaMemoryTypeHost)
    throw InvalidArgument(name, "pointer is not device-accessible (pageable host memory?); use the std::span overload "
                                "for host buffers");
}

// Throws InvalidArgument naming the first NaN/±Inf weight, with the CPU path's message.
void ValidateDeviceWeights(const float* w, std::size_t m) {
  DeviceBuffer<unsigned long long> flag(1);
  const unsigned long long none = ULLONG_MAX;
  DPFL_CUDA_CHECK(cudaMemcpy(flag.get(), &none, sizeof none, cudaMemcpyHostToDevice));
  FirstNonFiniteKernel<<<GridStrideBlocks(m), kBlockThreads>>>(w, m, flag.get());
  LaunchCheck();
  unsigned long long first_bad = none;
  DPFL_CUDA_CHECK(cudaMemcpy(&first_bad, flag.get(), sizeof first_bad, cudaMemcpyDeviceToHost));
  if (first_bad == none) return;
  float value = 0.0f;
  DPFL_CUDA_CHECK(cudaMemcpy(&value, w + first_bad, sizeof value, cudaMemcpyDeviceToHost));
  throw InvalidArgument("w", "weight w[" + std::to_string(first_bad) + "] is " + std::to_string(value) +
                                 " (NaN and +-Inf are rejected; finite values are clipped to [c - r, c + r])");
}

// `ctx` addresses the client's private coins, `shared_ctx` the pair's shared bits (the same
// context in the one-key simulation form), as in fast::EncodeCorBinQFast on the CPU.
template <rng::Generator G, Mode M>
void LaunchEncodeT(const BinaryLevels& levels, const float* w, std::size_t m, const StreamContext& shared_ctx,
                   const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, int d, std::uint64_t* bits) {
  const std::uint64_t threads = PackedWords(m) * 2;  // 2 lanes (32 parameters each) per packed word
  const std::uint64_t blocks = (threads + kBlockThreads - 1) / kBlockThreads;
  if (blocks > static_cast<std::uint64_t>(INT_MAX)) throw InvalidArgument("m", "too many parameters for one launch");
  const rng::StreamAddress private_addr{ctx.round, client, rng::Purpose::kPrivateCoin};
  const rng::StreamAddress shared_addr{shared_ctx.round, pair, rng::Purpose::kSharedBits};
  EncodeKernel<G, M><<<static_cast<unsigned>(blocks), kBlockThreads>>>(levels, w, m, ctx.key, private_addr,
                                                                       shared_ctx.key, shared_addr, d, bits);
  LaunchCheck();
}

template <Mode M>
void LaunchEncode(const BinaryLevels& levels, const float* w, std::size_t m, const StreamContext& shared_ctx,
                  const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, int d, std::uint64_t* bits) {
  if (m == 0) return;
  if (ctx.generator == rng::Generator::kChaCha20)
    LaunchEncodeT<rng::Generator::kChaCha20, M>(levels, w, m, shared_ctx, ctx, pair, client, d, bits);
  else
    LaunchEncodeT<rng::Generator::kPhilox4x32, M>(levels, w, m, shared_ctx, ctx, pair, client, d, bits);
}

// Host buffers: copy in, encode, copy the ⌈m/64⌉ message words out (bits may be longer, as on the CPU).
template <Mode M>
void EncodeHostBuffers(const BinaryLevels& levels, std::span<const float> w, const StreamContext& shared_ctx,
                       const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, int d,
                       std::span<std::uint64_t> bits) {
  if (w.empty()) return;
  const std::size_t words = PackedWords(w.size());
  DeviceBuffer<float> w_dev(w.size());
  DeviceBuffer<std::uint64_t> bits_dev(words);
  DPFL_CUDA_CHECK(cudaMemcpy(w_dev.get(), w.data(), w.size_bytes(), cudaMemcpyHostToDevice));
  LaunchEncode<M>(levels, w_dev.get(), w.size(), shared_ctx, ctx, pair, client, d, bits_dev.get());
  DPFL_CUDA_CHECK(cudaMemcpy(bits.data(), bits_dev.get(), words * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
}

void LaunchAccumulate(const std::uint64_t* bits, std::size_t n, std::uint32_t* counts, std::size_t m) {
  if (n == 0 || m == 0) return;
  AccumulateKernel<<<GridStrideBlocks(m), kBlockThreads>>>(bits, n, PackedWords(m), counts, m);
  LaunchCheck();
}

Mode RoleMode(PairRole role) { return role == PairRole::kQ1 ? Mode::kQ1 : Mode::kQ2; }

}  // namespace

bool CudaAvailable() noexcept {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return count > 0;
}

// ---- Device buffers ----

void CudaEncodeLdpq(const BinaryLevels& levels, const float* w, std::size_t m, const StreamContext& ctx,
                    std::uint32_t client, std::uint64_t* bits) {
  detail::CheckIndexRange(ctx, m);
  if (m == 0) return;
  CheckDevicePointer(w, "w");
  CheckDevicePointer(bits, "bits");
  ValidateDeviceWeights(w, m);
  LaunchEncode<Mode::kLdpq>(levels, w, m, ctx, ctx, 0, client, 0, bits);
}

void CudaEncodeCorBinQ(const BinaryLevels& levels, const float* w, std::size_t m, int d, PairRole role,
                       const StreamContext& shared_ctx, const StreamContext& private_ctx, std::uint32_t pair,
                       std::uint32_t client, std::uint64_t* bits) {
  ValidateSameGenerator(shared_ctx, private_ctx);
  ValidateSharedBits(d);
  detail::CheckIndexRange(private_ctx, m);
  if (m == 0) return;
  CheckDevicePointer(w, "w");
  CheckDevicePointer(bits, "bits");
  ValidateDeviceWeights(w, m);
  if (RoleMode(role) == Mode::kQ1)
    LaunchEncode<Mode::kQ1>(levels, w, m, shared_ctx, private_ctx, pair, client, d, bits);
  else
    LaunchEncode<Mode::kQ2>(levels, w, m, shared_ctx, private_ctx, pair, client, d, bits);
}

void CudaEncodeCorBinQ(const BinaryLevels& levels, const float* w, std::size_t m, int d, PairRole role,
                       const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, std::uint64_t* bits) {
  CudaEncodeCorBinQ(levels, w, m, d, role, ctx, ctx, pair, client, bits);
}

void CudaAccumulateBits(const std::uint64_t* bits, std::size_t n, std::uint32_t* counts, std::size_t m) {
  if (n == 0 || m == 0) return;
  CheckDevicePointer(bits, "bits");
  CheckDevicePointer(counts, "counts");
  LaunchAccumulate(bits, n, counts, m);
}

// ---- Host buffers ----

void CudaEncodeLdpq(const BinaryLevels& levels, std::span<const float> w, const StreamContext& ctx,
                    std::uint32_t client, std::span<std::uint64_t> bits) {
  ValidateWeights(w, bits.size());
  detail::CheckIndexRange(ctx, w.size());
  EncodeHostBuffers<Mode::kLdpq>(levels, w, ctx, ctx, 0, client, 0, bits);
}

void CudaEncodeCorBinQ(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                       const StreamContext& shared_ctx, const StreamContext& private_ctx, std::uint32_t pair,
                       std::uint32_t client, std::span<std::uint64_t> bits) {
  ValidateSameGenerator(shared_ctx, private_ctx);
  ValidateWeights(w, bits.size());
  ValidateSharedBits(d);
  detail::CheckIndexRange(private_ctx, w.size());
  if (RoleMode(role) == Mode::kQ1)
    EncodeHostBuffers<Mode::kQ1>(levels, w, shared_ctx, private_ctx, pair, client, d, bits);
  else
    EncodeHostBuffers<Mode::kQ2>(levels, w, shared_ctx, private_ctx, pair, client, d, bits);
}

void CudaEncodeCorBinQ(const BinaryLevels& levels, std::span<const float> w, int d, PairRole role,
                       const StreamContext& ctx, std::uint32_t pair, std::uint32_t client,
                       std::span<std::uint64_t> bits) {
  CudaEncodeCorBinQ(levels, w, d, role, ctx, ctx, pair, client, bits);
}

void CudaAccumulateBits(std::span<const std::uint64_t> bits, std::size_t n, std::span<std::uint32_t> counts) {
  const std::size_t words = PackedWords(counts.size());
  if (n != 0 && words > SIZE_MAX / n) throw InvalidArgument("n", "n * words overflows");
  if (bits.size() != n * words)
    throw InvalidArgument("bits", "holds " + std::to_string(bits.size()) + " words, need n * ceil(m/64) = " +
                                      std::to_string(n) + " * " + std::to_string(words));
  if (n == 0 || counts.empty()) return;
  DeviceBuffer<std::uint64_t> bits_dev(bits.size());
  DeviceBuffer<std::uint32_t> counts_dev(counts.size());
  DPFL_CUDA_CHECK(cudaMemcpy(bits_dev.get(), bits.data(), bits.size_bytes(), cudaMemcpyHostToDevice));
  DPFL_CUDA_CHECK(cudaMemcpy(counts_dev.get(), counts.data(), counts.size_bytes(), cudaMemcpyHostToDevice));
  LaunchAccumulate(bits_dev.get(), n, counts_dev.get(), counts.size());
  DPFL_CUDA_CHECK(cudaMemcpy(counts.data(), counts_dev.get(), counts.size_bytes(), cudaMemcpyDeviceToHost));
}

// ---- Benchmarks ----

namespace {

// Owns a CUDA event (destroyed on scope exit, also when an exception unwinds).
class Event {
 public:
  Event() { DPFL_CUDA_CHECK(cudaEventCreate(&event_)); }
  ~Event() { (void)cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// Milliseconds of device time between events recorded before and after run().
template <class Fn>
float ElapsedMs(Fn&& run) {
  Event start, stop;
  DPFL_CUDA_CHECK(cudaEventRecord(start.get()));
  run();
  DPFL_CUDA_CHECK(cudaEventRecord(stop.get()));
  DPFL_CUDA_CHECK(cudaEventSynchronize(stop.get()));
  float ms = 0.0f;
  DPFL_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  return ms;
}

__global__ void FillBenchWeightsKernel(float* __restrict__ w, std::uint64_t m) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t j = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < m; j += stride)
    w[j] = static_cast<float>(0.8 * sin(0.001 * static_cast<double>(j)));
}
}  // namespace

double CudaEncodeThroughput(CudaBenchRule rule, const BinaryLevels& levels, std::size_t m, int d,
                            rng::Generator generator, int reps) {
  if (m == 0) throw InvalidArgument("m", "must be > 0");
  if (reps < 1) throw InvalidArgument("reps", "must be >= 1");
  ValidateSharedBits(d);
  StreamContext ctx;
  ctx.generator = generator;
  for (int i = 0; i < 8; ++i) ctx.key.words[i] = 0x243F6A88u + static_cast<std::uint32_t>(i);
  detail::CheckIndexRange(ctx, m);
  DeviceBuffer<float> w(m);
  DeviceBuffer<std::uint64_t> bits(PackedWords(m));
  FillBenchWeightsKernel<<<GridStrideBlocks(m), kBlockThreads>>>(w.get(), m);
  LaunchCheck();
  const auto encode = [&] {
    switch (rule) {
      case CudaBenchRule::kLdpq: LaunchEncode<Mode::kLdpq>(levels, w.get(), m, ctx, ctx, 0, 1, 0, bits.get()); break;
      case CudaBenchRule::kQ1: LaunchEncode<Mode::kQ1>(levels, w.get(), m, ctx, ctx, 7, 1, d, bits.get()); break;
      case CudaBenchRule::kQ2: LaunchEncode<Mode::kQ2>(levels, w.get(), m, ctx, ctx, 7, 2, d, bits.get()); break;
    }
  };
  encode();  // warm-up
  const float ms = ElapsedMs([&] {
    for (int i = 0; i < reps; ++i) encode();
  });
  if (!(ms > 0.0f)) throw CudaError(0, "encode timed at 0 ms; use a larger m", __FILE__, __LINE__);
  return static_cast<double>(m) * reps / (static_cast<double>(ms) * 1e-3);
}

double CudaCopyBandwidth(std::size_t bytes) {
  if (bytes == 0) throw InvalidArgument("bytes", "must be > 0");
  constexpr int kIterations = 20;
  DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  DPFL_CUDA_CHECK(cudaMemset(src.get(), 0x5a, bytes));
  DPFL_CUDA_CHECK(cudaMemcpy(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice));  // warm-up
  DPFL_CUDA_CHECK(cudaDeviceSynchronize());
  const float ms = ElapsedMs([&] {
    for (int i = 0; i < kIterations; ++i)
      DPFL_CUDA_CHECK(cudaMemcpy(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice));
  });
  if (!(ms > 0.0f)) throw CudaError(0, "copy timed at 0 ms; use a larger buffer", __FILE__, __LINE__);
  // Read + write: 2·bytes move per copy.
  return 2.0 * static_cast<double>(bytes) * kIterations / (static_cast<double>(ms) * 1e-3) / 1e9;
}

}  // namespace quant
}  // namespace dpfl
