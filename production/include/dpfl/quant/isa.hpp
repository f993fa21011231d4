// Which instruction set the CPU fast paths run on (docs/production.md "Instruction sets").
//
// Every fast path (src/cpu/fast_*.cpp) is compiled three times — AVX-512 (F, DQ, VL, BW), AVX2
// (with BMI2) and baseline x86-64 — and all three give the same bits (the tests compare each with
// the scalar loops on every instruction set the machine has). The library's encoders run on
// ActiveIsa(): the widest set the CPU supports, lowered by the environment variable DPFL_ISA
// (`avx512`, `avx2` or `baseline`), read once, at the first call. So one machine can measure every
// instruction set (`DPFL_ISA=avx2 dpfl bench quantizers`, or `dpfl bench quantizers --isa avx2`,
// which calls SetActiveIsa).
#pragma once

#include <optional>
#include <string_view>

namespace dpfl::quant::fast {

enum class Isa { kBaseline, kAvx2, kAvx512 };

// The widest instruction set this CPU supports (cpuid).
Isa BestIsa();

// The instruction set the library's encoders use: BestIsa(), or DPFL_ISA when it is set. Throws
// InvalidArgument("DPFL_ISA") when the variable names no instruction set or one this CPU lacks
// (running it would stop the process with SIGILL); the next call reads the variable again.
Isa ActiveIsa();

// Sets the instruction set of ActiveIsa() for the whole process (benchmarks, tests). Throws
// InvalidArgument("isa") if the CPU lacks it.
void SetActiveIsa(Isa isa);

// "avx512", "avx2", "baseline".
std::string_view IsaName(Isa isa);
// The inverse of IsaName; nullopt for any other text.
std::optional<Isa> ParseIsa(std::string_view name);

}  // namespace dpfl::quant::fast
