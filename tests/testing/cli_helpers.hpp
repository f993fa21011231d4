// Helpers for the tests that run a real binary (tests/cli/*): a JSON result that must succeed,
// argument lists with one flag replaced, and the bad-input contract every CLI keeps (exit 2,
// nothing on stdout, exactly one line on stderr naming the flag).
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "testing/subprocess.hpp"

namespace dpfl::testing {

using CliArgs = std::vector<std::string>;

// Runs `binary args` (in the test's temp dir); the command must exit 0 with an empty stderr.
inline nlohmann::json RunOk(const std::string& binary, const CliArgs& args) {
  const RunResult r = RunProgram(binary, args, ::testing::TempDir());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  if (r.exit_code != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out);
}

// `base` with the value after flag `key` replaced (or the pair appended when absent).
inline CliArgs WithFlag(CliArgs base, const std::string& key, const std::string& value) {
  for (size_t i = 0; i + 1 < base.size(); ++i)
    if (base[i] == key) {
      base[i + 1] = value;
      return base;
    }
  base.push_back(key);
  base.push_back(value);
  return base;
}

struct BadInput {
  const char* name;
  CliArgs args;
  const char* must_mention;
};
inline void PrintTo(const BadInput& b, std::ostream* os) { *os << b.name; }

inline void ExpectRejected(const std::string& binary, const BadInput& b) {
  const RunResult r = RunProgram(binary, b.args, ::testing::TempDir());
  EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
  EXPECT_EQ(r.out, "") << "no partial JSON";
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "exactly one line: " << r.err;
  EXPECT_NE(r.err.find(b.must_mention), std::string::npos) << r.err;
}

}  // namespace dpfl::testing
