// Host helpers shared by the .cu files of dpfl_cuda (binary_quantizer.cu, randomized_response.cu):
// a device buffer, the launch and device-pointer checks, and the scan for the first NaN/±Inf
// input that the device-pointer overloads run before any encode kernel.
//
// Everything here has internal linkage (an unnamed namespace), so each .cu that includes it gets
// its own copy. That is deliberate: dpfl_cuda is built without relocatable device code, so a
// __global__ function can only be launched from the translation unit that defines it, and the
// scan kernel below must be defined in every .cu that launches it. The scan's per-thread body is
// cuda_kernels::FirstNonFiniteOfThread (kernel_bodies.hpp), which the emulator tests run on the host.
//
// The error texts stay in the callers: each names its own argument, with the message of the
// CPU's validation for the same input (ValidateWeights, ValidateLatents).
//
// Failed CUDA calls: DPFL_CUDA_CHECK would record __FILE__/__LINE__ of this header for every .cu.
// The helpers instead take the caller's std::source_location (a defaulted argument), so a
// dpfl::CudaError names the .cu file and the line that asked for the allocation, launch, pointer
// check or scan, as when these helpers were file-local there.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <source_location>

#include "dpfl/error.hpp"
#include "dpfl/quant/cuda_quantizer.hpp"
#include "kernel_bodies.hpp"

// DPFL_CUDA_CHECK at the location `at` (a std::source_location) rather than at this line.
#define DPFL_CUDA_CHECK_AT(call, at) \
  ::dpfl::cuda_detail::ThrowIfCudaError(static_cast<int>(call), #call, (at).file_name(), static_cast<int>((at).line()))

namespace dpfl::quant {
namespace {

// Owns a device allocation; frees it on scope exit (also when an exception unwinds).
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t n, std::source_location at = std::source_location::current()) {
    if (n > 0) DPFL_CUDA_CHECK_AT(cudaMalloc(reinterpret_cast<void**>(&ptr_), n * sizeof(T)), at);
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

// Reports a failed launch, or a failure of the kernel itself (it waits for the device).
void LaunchCheck(std::source_location at = std::source_location::current()) {
  DPFL_CUDA_CHECK_AT(cudaGetLastError(), at);
  DPFL_CUDA_CHECK_AT(cudaDeviceSynchronize(), at);
}

// Rejects null and pageable-host pointers (a kernel would fault on them); device, managed and
// pinned (mapped) host memory are accepted.
void CheckDevicePointer(const void* p, const char* name, std::source_location at = std::source_location::current()) {
  if (p == nullptr) throw InvalidArgument(name, "null device pointer");
  cudaPointerAttributes attr{};
  DPFL_CUDA_CHECK_AT(cudaPointerGetAttributes(&attr, p), at);
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged && attr.type != cudaMemoryTypeHost)
    throw InvalidArgument(name, "pointer is not device-accessible (pageable host memory?); use the std::span overload "
                                "for host buffers");
}

// *first_bad = min(*first_bad, index of the first NaN/±Inf of x) (grid-stride).
__global__ void FirstNonFiniteKernel(const float* __restrict__ x, std::uint64_t m,
                                     unsigned long long* __restrict__ first_bad) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const std::uint64_t g = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t j = cuda_kernels::FirstNonFiniteOfThread(x, m, g, stride);
  if (j < m) atomicMin(first_bad, static_cast<unsigned long long>(j));
}

// The first NaN/±Inf of a device array and its value.
struct NonFinite {
  std::uint64_t index;
  float value;
};

// Scans the m floats at device pointer x; the first non-finite one, or nothing if all are finite.
std::optional<NonFinite> FirstNonFinite(const float* x, std::size_t m,
                                        std::source_location at = std::source_location::current()) {
  DeviceBuffer<unsigned long long> flag(1, at);
  const unsigned long long none = ULLONG_MAX;
  DPFL_CUDA_CHECK_AT(cudaMemcpy(flag.get(), &none, sizeof none, cudaMemcpyHostToDevice), at);
  FirstNonFiniteKernel<<<cuda_kernels::GridStrideBlocks(m), cuda_kernels::kBlockThreads>>>(x, m, flag.get());
  LaunchCheck(at);
  unsigned long long first_bad = none;
  DPFL_CUDA_CHECK_AT(cudaMemcpy(&first_bad, flag.get(), sizeof first_bad, cudaMemcpyDeviceToHost), at);
  if (first_bad == none) return std::nullopt;
  float value = 0.0f;
  DPFL_CUDA_CHECK_AT(cudaMemcpy(&value, x + first_bad, sizeof value, cudaMemcpyDeviceToHost), at);
  return NonFinite{static_cast<std::uint64_t>(first_bad), value};
}

}  // namespace
}  // namespace dpfl::quant

#undef DPFL_CUDA_CHECK_AT
