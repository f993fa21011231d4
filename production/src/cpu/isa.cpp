// See dpfl/quant/isa.hpp.
#include "dpfl/quant/isa.hpp"

#include <atomic>
#include <cstdlib>
#include <string>

#include "dpfl/error.hpp"

namespace dpfl::quant::fast {
namespace {

// -1: not chosen yet; otherwise the Isa value. Relaxed atomics suffice: every thread that reads
// the environment computes the same value.
std::atomic<int> g_active{-1};

bool Supported(Isa isa) { return static_cast<int>(isa) <= static_cast<int>(BestIsa()); }

}  // namespace

Isa BestIsa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw"))
    return Isa::kAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")) return Isa::kAvx2;
  return Isa::kBaseline;
}

std::string_view IsaName(Isa isa) {
  switch (isa) {
    case Isa::kAvx512: return "avx512";
    case Isa::kAvx2: return "avx2";
    case Isa::kBaseline: return "baseline";
  }
  return "baseline";
}

std::optional<Isa> ParseIsa(std::string_view name) {
  for (const Isa isa : {Isa::kAvx512, Isa::kAvx2, Isa::kBaseline})
    if (name == IsaName(isa)) return isa;
  return std::nullopt;
}

Isa ActiveIsa() {
  const int chosen = g_active.load(std::memory_order_relaxed);
  if (chosen >= 0) return static_cast<Isa>(chosen);
  Isa isa = BestIsa();
  if (const char* env = std::getenv("DPFL_ISA"); env != nullptr && *env != '\0') {
    const std::optional<Isa> wanted = ParseIsa(env);
    if (!wanted) throw InvalidArgument("DPFL_ISA", "must be avx512, avx2 or baseline, got '" + std::string(env) + "'");
    if (!Supported(*wanted))
      throw InvalidArgument("DPFL_ISA", std::string(env) + " is not supported by this CPU (widest: " +
                                            std::string(IsaName(BestIsa())) + ")");
    isa = *wanted;
  }
  g_active.store(static_cast<int>(isa), std::memory_order_relaxed);
  return isa;
}

void SetActiveIsa(Isa isa) {
  if (!Supported(isa))
    throw InvalidArgument("isa", std::string(IsaName(isa)) + " is not supported by this CPU (widest: " +
                                     std::string(IsaName(BestIsa())) + ")");
  g_active.store(static_cast<int>(isa), std::memory_order_relaxed);
}

}  // namespace dpfl::quant::fast
