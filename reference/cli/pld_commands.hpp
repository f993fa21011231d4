// dpfl-ref pld — what the pld command files share (internal to the CLI).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli_common.hpp"

namespace dpfl::cli {

inline constexpr int kPldDigits = 17;  // significant digits of printed ε and δ ends (rounded outward)

// --compositions: an integer in [1, 1e9].
std::uint64_t ParseCompositions(const std::string& text);

// pld central (the aggregate of seed 000's binary mechanisms) and pld bench (PLD against RDP),
// pld_central_commands.cpp.
void RegisterPldCentral(CLI::App* group, std::vector<Command>& commands);
void RegisterPldBench(CLI::App* group, std::vector<Command>& commands);

}  // namespace dpfl::cli
