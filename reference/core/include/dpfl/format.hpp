// Numbers in error messages and reports: the shortest decimal that reads back as the same
// double (std::to_chars without a precision), so that `--eps 1e308` is echoed as "1e+308", not
// as a 309-digit integer, and `--r 1e-320` as "1e-320", not as "0.000000" (bad input is one
// short error line: docs/reference.md "Exit codes").
#pragma once

#include <charconv>
#include <string>

namespace dpfl {

inline std::string ShortestDouble(double x) {
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, result.ptr);
}

}  // namespace dpfl
