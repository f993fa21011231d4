// fuzz_check_protocol — what `dpfl check` reads from an untrusted implementation (contract:
// production/check/conformance.hpp, docs/check.md "Protocol"):
//   P1  ParseAnswerLine on any bytes, with the arity taken from the first byte (1..4): either a
//       dpfl::check::ProtocolError, or exactly `arity` finite doubles.
//   P2  the engine on any answers: RunCheck("ldpq", …) with a sampler that returns rows of raw
//       doubles from the input (NaN, ±Inf, off-support values, rows of the wrong length): the
//       report is complete (exit code 0, 1 or 2), a protocol error names a request, and nothing
//       else is thrown.
// Any other exception, a sanitizer report, a hang or > 2 GB RSS aborts.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string_view>
#include <vector>

#include "conformance.hpp"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_check_protocol: %s\n", what);
  std::abort();
}

void CheckParser(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return;
  const int arity = 1 + data[0] % 4;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const std::vector<double> v = dpfl::check::ParseAnswerLine(text, arity);
    if (static_cast<int>(v.size()) != arity) Fail("P1: wrong number of values accepted");
    for (double x : v)
      if (!std::isfinite(x)) Fail("P1: a non-finite value accepted");
  } catch (const dpfl::check::ProtocolError&) {
  }
}

void CheckEngine(const std::uint8_t* data, std::size_t size) {
  if (size < 9) return;
  std::vector<double> pool;
  for (std::size_t i = 1; i + 8 <= size; i += 8) {
    double v;
    std::memcpy(&v, data + i, 8);
    pool.push_back(v);
  }
  const std::size_t width = 1 + data[0] % 2;  // 2: rows of the wrong length
  std::size_t next = 0;
  const dpfl::check::Sampler sampler = [&](std::span<const double>, std::uint64_t n) {
    std::vector<std::vector<double>> rows(n);
    for (auto& row : rows)
      for (std::size_t k = 0; k < width; ++k) row.push_back(pool[next++ % pool.size()]);
    return rows;
  };
  dpfl::check::CheckOptions o;
  o.samples = 100;
  o.search_stages = 1;
  o.random_inputs = 0;
  const dpfl::check::CheckReport r = dpfl::check::RunCheck("ldpq", {{"eps", "1"}, {"c", "0"}, {"r", "1"}}, sampler, o);
  const int code = r.ExitCode();
  if (code < 0 || code > 2) Fail("P2: exit code outside 0..2");
  if (r.protocol_error && r.protocol_error->find("request") == std::string::npos) Fail("P2: protocol error names no request");
  (void)dpfl::check::ReportJson(r);
  (void)dpfl::check::ReportJUnit(r);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    CheckParser(data, size);
    CheckEngine(data, size);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_check_protocol: unexpected exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
