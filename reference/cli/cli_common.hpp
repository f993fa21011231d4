// dpfl-ref — shared CLI plumbing.
//
// Output contract (README "dpfl-ref"): one JSON object on stdout, printed only once the whole
// result is computed (never partial JSON). With --E (rational E = e^ε) every number is exact,
// a string "p/q" or "p". With --eps (ε as a decimal) α and everything after it are rigorous
// enclosures: each value is a decimal string with 40 significant digits and "error_bound"
// holds, under the same key, an upper bound on |printed − true value|.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dpfl/ref/numbers.hpp"

namespace dpfl::cli {

using nlohmann::json;
using ref::Interval;
using ref::Rational;

inline constexpr int kDecimalDigits = 40;

// --E / --eps / --precision, shared by every quantizer command.
struct PrivacyOptions {
  std::string E, eps;
  int precision_bits = 256;
  void Register(CLI::App* app);
  // True unless --eps was given (with neither flag, ExactE() reports the missing flag).
  bool Exact() const { return !E.empty() || eps.empty(); }
  Rational ExactE() const;         // validated E > 1
  Interval EnclosedE() const;      // validated ε > 0, e^ε enclosed at precision_bits
};

// Collects results; Put<Rational> writes exact strings, Put<Interval> writes a decimal
// midpoint and an error bound.
class JsonResult {
 public:
  explicit JsonResult(bool exact, int precision_bits);
  void Put(const std::string& key, const Rational& v) { values_[key] = ref::ToExactString(v); }
  void Put(const std::string& key, const Interval& v);
  void Put(const std::string& parent, const std::string& key, const Rational& v) {
    values_[parent][key] = ref::ToExactString(v);
  }
  void Put(const std::string& parent, const std::string& key, const Interval& v);
  void PutInt(const std::string& key, const ref::Int& v) { values_[key] = v.str(); }
  void PutRaw(const std::string& key, json v) { values_[key] = std::move(v); }
  json Finish() &&;

 private:
  json values_ = json::object();
  json errors_ = json::object();
  bool exact_;
  int precision_bits_;
};

// A rational flag: parsed exactly; a malformed value throws InvalidArgument naming it.
Rational ParseFlag(const std::string& text, const std::string& flag);

// One subcommand: its CLI11 app and the function that computes its JSON.
struct Command {
  CLI::App* app;
  std::function<json()> run;
};
// ldpq, corbinq (quantizer_commands.cpp)
void RegisterQuantizerCommands(CLI::App& root, std::vector<Command>& commands);
// coq (coq_commands.cpp)
void RegisterCoqCommands(CLI::App& root, std::vector<Command>& commands);
// thm2, thm3, thm4, aggregate, e12 (corbin_fl_commands.cpp)
void RegisterCorbinFlCommands(CLI::App& root, std::vector<Command>& commands);
// report: a human-readable exact summary of LDPQ vs CorBinQ and errata E3/E12 (report_command.cpp)
void RegisterReportCommand(CLI::App& root, std::vector<Command>& commands);
// rdp group, accountant, calibrate, binomial-mechanism, bnn* (accounting_commands.cpp, which calls
// one registration function per family; see accounting_commands.hpp). RdpGroup creates "rdp" once.
void RegisterAccountingCommands(CLI::App& root, std::vector<Command>& commands); CLI::App* RdpGroup(CLI::App& root);
// rdp quantized-gaussian, cepam {thm12, thm13, calibrate, rates, subsampled} (noise_commands.cpp)
void RegisterNoiseCommands(CLI::App& root, std::vector<Command>& commands);

}  // namespace dpfl::cli
