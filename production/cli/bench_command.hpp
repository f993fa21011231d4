// dpfl bench — benchmarks that run their baselines in the same process (docs/benchmarks.md).
#pragma once

#include "sample_command.hpp"

namespace dpfl::cli {

// `dpfl bench quantizers [--m M] [--threads T] [--reps R] [--d D] [--generator G] [--json]` and
// `dpfl bench rounds` (per-round time of each mechanism vs vanilla FL, one process).
void RegisterBenchCommand(CLI::App& root, std::vector<Command>& commands);

}  // namespace dpfl::cli
