// dpfl check — hold an implementation of a mechanism to its exact law (docs/check.md).
//
// The engine asks an implementation for independent runs of the mechanism at inputs of its own
// choosing and judges the released outputs against the reference's exact law (dpfl::ref):
//  * law: the output's law at each input (for pairs the joint law; CEPAM: the error's law on
//    exact χ²/exponential bins and its sign) by a chi-square test, cells with expected count < 5
//    pooled; an output the law gives probability 0 at that input rejects outright;
//  * bias: the mean of every released coordinate against the exact mean (z test);
//  * mse: the mean loss against the exact one (the pair sum's squared error for pairs, ‖y − x‖²
//    for CEPAM, (y − x)² otherwise; z test with the exact variance of the loss);
//  * independence: disjoint lag-1 pairs within each request, run i of one request against run i
//    of the next request, and the two requests of one input against each other (a stratified
//    correlation test: observed means per stratum, so a wrong law alone does not reject it);
//  * inputs: a fixed design (clip ends, centre, cell boundaries, just inside and beyond the clip,
//    random ones), then an adaptive search for bias: stages of inputs near the largest
//    standardised discrepancies seen so far, each on fresh runs.
// One family-wise α over everything: weighted Holm with weights fixed before any data (half for
// the design, 2^−s/2 renormalised for adaptive stage s), so a conformant implementation is
// flagged with probability ≤ α whatever the search chooses (the union bound behind Holm holds
// for p-values valid given the inputs, which fresh runs are).
//
// Thread-safety: RunCheck is re-entrant; a Sampler is called from the calling thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace dpfl::check {

// An implementation of the mechanism: `runs` independent runs at `input`, each row the released
// outputs of one run. Throws ProtocolError when it cannot answer (a process that exited, …).
using Sampler = std::function<std::vector<std::vector<double>>(std::span<const double> input, std::uint64_t runs)>;

// A failure of the implementation to follow the protocol (not a statistical finding).
class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The mechanisms: "ldpq", "corbinq", "coq", "rr", "stosign", "bnn-upload", "qgauss",
// "cepam-gaussian", "cepam-laplace", "gaussian", "laplace". Parameters by flag name without
// dashes, as `dpfl sample` names them: eps, c, r, d, px, rr-gamma, sigma, levels, clip,
// lattice-dim, b; the grid baselines take c, r, grid-steps (default 2^20) and sigma2 / t.
std::vector<std::string> MechanismNames();

struct CheckOptions {
  double alpha = 1e-3;             // family-wise false-alarm probability
  std::uint64_t samples = 20000;   // runs per input (split into two requests)
  std::uint64_t seed = 1;          // the engine's own randomness (random inputs, search)
  double budget_seconds = 0;       // > 0: scale the runs per input to fit, stop the search on time
  double tolerance = 1e-9;         // relative tolerance of support matching
  int search_stages = 4;           // adaptive stages after the design
  int random_inputs = 8;           // random inputs in the design, one per stratum of the domain
  std::function<void(const std::string&)> progress;  // optional progress lines
};

struct CheckResult {
  std::string name;      // "law", "bias[0]", "mse", "independence/runs", …
  std::string phase;     // "design", "search 1", …, "global"
  std::vector<double> input;
  double statistic = 0;  // chi-square or z
  double p_value = 1;
  double weight = 0;     // its share of α in the weighted Holm
  bool rejected = false;
  std::string detail;    // expected vs observed (frequencies, means)
};

struct InputPower {
  std::vector<double> input;
  std::uint64_t runs = 0;
  double tv = 0;    // smallest total variation (on the test's cells) detected with power ≥ 0.99
  double bias = 0;  // smallest |bias| of the first coordinate detected with power ≥ 0.99
};

struct CheckReport {
  std::string mechanism;
  std::map<std::string, std::string> parameters;
  CheckOptions options;
  std::uint64_t runs_per_input = 0, total_runs = 0, requests = 0;
  int stages_run = 0;
  double seconds = 0;
  std::vector<CheckResult> checks;
  std::vector<InputPower> power;
  std::optional<std::string> protocol_error;  // set: exit 2, the checks are what ran before it
  bool Conformant() const;                    // no rejection and no protocol error
  int ExitCode() const;                       // 0 conformant, 1 nonconformant, 2 protocol error
};

// Throws dpfl::InvalidArgument (naming the flag, e.g. "--eps") for bad parameters or options.
CheckReport RunCheck(const std::string& mechanism, const std::map<std::string, std::string>& parameters,
                     const Sampler& sampler, const CheckOptions& options);

// A Sampler that starts `command` (argv, searched on PATH) once and speaks the line protocol of
// docs/check.md on its stdin/stdout; `timeout_seconds` without progress on a request is a
// ProtocolError. Close it (or destroy the returned object's last copy) to end the process.
class ProcessSampler {
 public:
  ProcessSampler(std::vector<std::string> command, int input_arity, int output_arity, double timeout_seconds);
  ~ProcessSampler();
  ProcessSampler(const ProcessSampler&) = delete;
  ProcessSampler& operator=(const ProcessSampler&) = delete;
  std::vector<std::vector<double>> operator()(std::span<const double> input, std::uint64_t runs);
  // Closes stdin, waits for the exit (killing it after the timeout); throws ProtocolError for
  // output beyond the last answer. Idempotent.
  void Close();
  // Ends the process (and its process group) at once, as after a protocol error. Idempotent.
  void Abort();
  // True if Close() had to kill the process (it did not exit within 10 s of its input closing).
  bool Killed() const;

 private:
  struct State;
  State* state_;
};

// The arity (numbers per request line, numbers per answer line) of a mechanism.
std::pair<int, int> MechanismArity(const std::string& mechanism, const std::map<std::string, std::string>& parameters);

// Parses one answer line: exactly `arity` finite decimal numbers separated by spaces or tabs.
// Throws ProtocolError describing the problem (never crashes on any bytes).
std::vector<double> ParseAnswerLine(std::string_view line, int arity);

// Numbers in requests and reports are dpfl::ShortestDouble (dpfl/format.hpp): the shortest
// decimal that reads back as the same double.

// Reports: human-readable summary, JSON, JUnit XML (one testcase per check).
std::string ReportText(const CheckReport& report);
std::string ReportJson(const CheckReport& report);
std::string ReportJUnit(const CheckReport& report);

}  // namespace dpfl::check
