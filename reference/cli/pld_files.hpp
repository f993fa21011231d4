// dpfl-ref pld — the JSON inputs of `pld pmf --file` and `pld compose --file` (docs/accounting.md).
// Parsing only: structure, key names, exact rationals, sizes; the mathematics (a pmf summing to 1,
// parameter domains) is validated where the PLD is built, and names the field there. Every
// malformed input throws InvalidArgument naming `--file` with the reason; nothing else escapes
// (fuzz/fuzz_pld_files.cc holds the parser to that).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dpfl/ref/numbers.hpp"

namespace dpfl::cli {

inline constexpr std::size_t kMaxPmfSupport = 1000000;  // entries per pmf
inline constexpr std::size_t kMaxComposeItems = 64;

// {"p": [...], "q": [...]}: exact rationals as strings ("1/3", "0.25", "1e-3") or JSON integers.
struct PmfPairInput {
  std::vector<ref::Rational> p, q;
};
PmfPairInput ParsePmfPairText(const std::string& text);
PmfPairInput ReadPmfPairFile(const std::string& path);  // also names an unreadable path

// {"mechanisms": [item, ...]}, 1 to kMaxComposeItems items, each an object with "mechanism" and
// "compositions" (a JSON integer in [1, 1e9], default 1) and exactly the parameters of that
// mechanism, rationals as strings or JSON numbers (a JSON number is read exactly as written):
//   gaussian: sigma, [sensitivity = 1], [sampling_rate]     laplace: b, [sensitivity = 1], [sampling_rate]
//   randomized-response: p                                   binomial: trials, p, [sensitivity = 1], [sampling_rate]
//   pmf: p, q (arrays as above), [sampling_rate]
struct ComposeItem {
  std::string mechanism;
  std::uint64_t compositions = 1;
  std::map<std::string, ref::Rational> values;  // scalar parameters, by their JSON key
  PmfPairInput pmf;                             // mechanism "pmf" only
};
std::vector<ComposeItem> ParseComposeText(const std::string& text);
std::vector<ComposeItem> ReadComposeFile(const std::string& path);

}  // namespace dpfl::cli
