// See certificate.hpp: what the certificate records about the build and the machine, so that a
// replay that differs can be told apart from a forgery. LibTorch chooses its CPU kernels at run
// time from the CPU's features (ATen: default, AVX2 or AVX-512 — LibTorch 1.13 took AVX2 on an
// AVX-512 machine unless told otherwise — overridden by ATEN_CPU_CAPABILITY; oneDNN its own ISA,
// capped by DNNL_MAX_CPU_ISA), and kernels of different widths round differently, so the same seed
// and code can give other weights on another CPU.
#include <cstdlib>
#include <string>
#include <vector>

#include "certificate.hpp"

#ifndef DPFL_LIBTORCH_VERSION
#define DPFL_LIBTORCH_VERSION ""
#endif

namespace dpfl::certify {
namespace {

nlohmann::json EnvironmentVariable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return nullptr;
  return std::string(value);
}

nlohmann::json CpuFeatures() {
  nlohmann::json features = nlohmann::json::array();
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  // The features ATen's and oneDNN's dispatch depend on (AVX-512 needs F, BW, VL and DQ).
  if (__builtin_cpu_supports("avx2")) features.push_back("avx2");
  if (__builtin_cpu_supports("fma")) features.push_back("fma");
  if (__builtin_cpu_supports("avx512f")) features.push_back("avx512f");
  if (__builtin_cpu_supports("avx512bw")) features.push_back("avx512bw");
  if (__builtin_cpu_supports("avx512vl")) features.push_back("avx512vl");
  if (__builtin_cpu_supports("avx512dq")) features.push_back("avx512dq");
#endif
  return features;
}

}  // namespace

nlohmann::json RunEnvironment() {
  const std::string torch = DPFL_LIBTORCH_VERSION;
#if defined(__x86_64__)
  const char* arch = "x86_64";
#elif defined(__aarch64__)
  const char* arch = "aarch64";
#else
  const char* arch = "other";
#endif
  return {{"libtorch", torch.empty() ? nlohmann::json(nullptr) : nlohmann::json(torch)},
          {"architecture", arch},
          {"cpu_features", CpuFeatures()},
          {"ATEN_CPU_CAPABILITY", EnvironmentVariable("ATEN_CPU_CAPABILITY")},
          {"DNNL_MAX_CPU_ISA", EnvironmentVariable("DNNL_MAX_CPU_ISA")},
          {"statement",
           "recorded, not verified: LibTorch picks its CPU kernels at run time from these, and kernels of other widths "
           "round differently, so a bit-for-bit replay needs the same LibTorch build and the same kernel choice (on "
           "another CPU, set ATEN_CPU_CAPABILITY and DNNL_MAX_CPU_ISA to what both support)"}};
}

std::vector<std::string> EnvironmentDifferences(const nlohmann::json& recorded, const nlohmann::json& here) {
  std::vector<std::string> out;
  if (!recorded.is_object()) return out;  // older certificates record nothing
  for (const char* key : {"libtorch", "architecture", "cpu_features", "ATEN_CPU_CAPABILITY", "DNNL_MAX_CPU_ISA"}) {
    const nlohmann::json was = recorded.contains(key) ? recorded.at(key) : nlohmann::json(nullptr);
    const nlohmann::json now = here.contains(key) ? here.at(key) : nlohmann::json(nullptr);
    if (was != now) out.push_back(std::string(key) + " " + was.dump() + " in the certificate, " + now.dump() + " here");
  }
  return out;
}

}  // namespace dpfl::certify
