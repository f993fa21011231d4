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
// The kernels' per-thread bodies and the work mapping are in kernel_bodies.hpp (DPFL_HD), so
// that tests/unit/cuda_emulator_test.cpp can run them on the host over every thread index; the
// kernels below add only what needs a device (thread indices, the warp shuffle, atomics). The
// host helpers shared with randomized_response.cu (device buffer, pointer and launch checks, the
// non-finite scan) are in device_support.cuh.
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/quant/binary_element.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/cpu_encoders.hpp"
#include "dpfl/quant/cuda_quantizer.hpp"
#include "dpfl/rng/streams.hpp"
#include "device_support.cuh"
#include "kernel_bodies.hpp"

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

using cuda_kernels::kBlockThreads;
using cuda_kernels::Mode;

// ---- Kernels ----

// Thread g encodes parameters 32·g … 32·g + 31 (cuda_kernels::EncodeThreadBits); the lanes of
// a word join their halves with one shuffle and the even lane writes it.
template <rng::Generator G, Mode M>
__global__ void __launch_bounds__(kBlockThreads)
    EncodeKernel(BinaryLevels levels, const float* __restrict__ w, std::uint64_t m, rng::StreamKey private_key,
                 rng::StreamAddress private_addr, rng::StreamKey shared_key, rng::StreamAddress shared_addr, int d,
                 std::uint64_t* __restrict__ bits) {
  const std::uint64_t g = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t half = cuda_kernels::EncodeThreadBits<G, M>(levels, w, m, private_key, private_addr, shared_key,
                                                                  shared_addr, d, g);
  // No early return before the shuffle: every lane of the warp takes part.
  std::uint64_t word = cuda_kernels::HalfInWord(half, threadIdx.x);
  word |= __shfl_xor_sync(0xffffffffu, word, 1);
  if (cuda_kernels::WritesWord(threadIdx.x, g, m)) bits[cuda_kernels::WordOfThread(g)] = word;
}

// counts[j] += Σ_{i<n} bit j of message i (grid-stride, thread per parameter).
__global__ void AccumulateKernel(const std::uint64_t* __restrict__ bits, std::uint64_t n, std::uint64_t words,
                                 std::uint32_t* __restrict__ counts, std::uint64_t m) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const std::uint64_t g = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  cuda_kernels::AccumulateThread(bits, n, words, counts, m, g, stride);
}

// ---- Host helpers ----

using cuda_kernels::GridStrideBlocks;

// Throws InvalidArgument naming the first NaN/±Inf weight, with the CPU path's message
// (ValidateWeights).
void ValidateDeviceWeights(const float* w, std::size_t m) {
  const std::optional<NonFinite> bad = FirstNonFinite(w, m);
  if (!bad) return;
  throw InvalidArgument("w", "weight w[" + std::to_string(bad->index) + "] is " + std::to_string(bad->value) +
                                 " (NaN and +-Inf are rejected; finite values are clipped to [c - r, c + r])");
}

// `ctx` addresses the client's private coins, `shared_ctx` the pair's shared bits (the same
// context in the one-key simulation form), as in fast::EncodeCorBinQFast on the CPU.
template <rng::Generator G, Mode M>
void LaunchEncodeT(const BinaryLevels& levels, const float* w, std::size_t m, const StreamContext& shared_ctx,
                   const StreamContext& ctx, std::uint32_t pair, std::uint32_t client, int d, std::uint64_t* bits) {
  const cuda_kernels::EncodeLaunch launch = cuda_kernels::MakeEncodeLaunch(m, shared_ctx, ctx, pair, client);
  if (launch.blocks > static_cast<std::uint64_t>(INT_MAX))
    throw InvalidArgument("m", "too many parameters for one launch");
  EncodeKernel<G, M><<<static_cast<unsigned>(launch.blocks), kBlockThreads>>>(
      levels, w, m, ctx.key, launch.private_addr, shared_ctx.key, launch.shared_addr, d, bits);
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
  const std::uint64_t g = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  cuda_kernels::FillBenchWeightsThread(w, m, g, stride);
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
