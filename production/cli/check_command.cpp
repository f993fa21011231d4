// dpfl check MECHANISM [parameters] [--alpha A] [--samples N] [--seed S] [--budget-seconds T]
//            [--tolerance R] [--timeout T] [--search-stages K] [--random-inputs K] [--progress]
//            [--json] [--junit FILE] -- COMMAND [ARGS…]
//
// Starts COMMAND, speaks the line protocol with it and judges its outputs against the
// reference's exact law (production/check/conformance.hpp, docs/check.md). Prints the report
// (text, or JSON with --json) on stdout; --junit also writes JUnit XML. Exit 0 conformant,
// 1 nonconformant, 2 usage or protocol error (the report of what ran is still printed).
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "dpfl/error.hpp"
#include "sample_command.hpp"

namespace dpfl::cli {
namespace {

struct CheckArgs {
  std::string mechanism;
  std::map<std::string, std::string> values;  // flag (no dashes) → text, as given
  std::string alpha = "0.001", samples = "20000", seed = "1", budget = "0", tolerance = "1e-9", timeout = "60";
  std::string stages = "4", random_inputs = "8", junit;
  bool json = false, progress = false;
  std::vector<std::string> command;
};

int RunCheckCommand(const CheckArgs& a, const std::vector<std::string>& given) {
  check::CheckOptions o;
  o.alpha = ParseDecimal(a.alpha, "--alpha");
  o.samples = ParseUnsigned(a.samples, "--samples", 100, std::uint64_t{1} << 32);
  o.seed = ParseUnsigned(a.seed, "--seed", 0, UINT64_MAX);
  o.budget_seconds = ParseDecimal(a.budget, "--budget-seconds");
  o.tolerance = ParseDecimal(a.tolerance, "--tolerance");
  o.search_stages = static_cast<int>(ParseUnsigned(a.stages, "--search-stages", 0, 20));
  o.random_inputs = static_cast<int>(ParseUnsigned(a.random_inputs, "--random-inputs", 0, 1000));
  const double timeout = ParseDecimal(a.timeout, "--timeout");
  if (!(timeout > 0 && timeout <= 86400)) throw InvalidArgument("--timeout", "must be in (0, 86400] seconds");
  if (a.command.empty()) throw InvalidArgument("COMMAND", "give the implementation to check after --");
  std::map<std::string, std::string> params;
  for (const std::string& flag : given) params[flag] = a.values.at(flag);
  if (a.progress) o.progress = [](const std::string& line) { std::cerr << "dpfl check: " << line << "\n"; };
  const auto [in_arity, out_arity] = check::MechanismArity(a.mechanism, params);  // validates first
  check::CheckReport report;
  try {
    check::ProcessSampler process(a.command, in_arity, out_arity, timeout);
    const check::Sampler sampler = [&process](std::span<const double> x, std::uint64_t n) { return process(x, n); };
    report = check::RunCheck(a.mechanism, params, sampler, o);
    if (!report.protocol_error) {
      try {
        process.Close();
      } catch (const check::ProtocolError& e) {
        report.protocol_error = e.what();
      }
      if (process.Killed())
        std::cerr << "dpfl check: COMMAND did not exit within 10 s of its input closing; it was killed\n";
    } else {
      process.Abort();  // it broke the protocol: no reason to wait for it
    }
  } catch (const check::ProtocolError& e) {  // could not start it
    throw InvalidArgument("COMMAND", e.what());
  } catch (const InvalidArgument&) {
    throw;
  } catch (const std::exception& e) {  // a failure of dpfl itself is not a finding: never exit 1
    std::cerr << "dpfl check: internal error: " << e.what() << "\n";
    return 2;
  }
  std::cout << (a.json ? check::ReportJson(report) : check::ReportText(report));
  if (!a.junit.empty()) {
    std::ofstream f(a.junit, std::ios::trunc);
    if (!f || !(f << check::ReportJUnit(report))) throw InvalidArgument("--junit", "cannot write '" + a.junit + "'");
  }
  if (report.protocol_error) std::cerr << "dpfl check: protocol error: " << *report.protocol_error << "\n";
  return report.ExitCode();
}

}  // namespace

void RegisterCheckCommand(CLI::App& root, std::vector<Command>& commands) {
  CLI::App* group = root.add_subcommand(
      "check", "hold an implementation (a program speaking the line protocol) to a mechanism's exact law; "
               "exit 0 conformant, 1 nonconformant, 2 usage or protocol error (docs/check.md)");
  group->require_subcommand(1);
  const struct {
    const char* name;
    const char* help;
    std::vector<std::pair<const char*, const char*>> flags;
  } mechanisms[] = {
      {"ldpq", "LDPQ (seed-000 Alg. 1); request: N w", {{"eps", "eps > 0"}, {"c", "center"}, {"r", "radius > 0"}}},
      {"corbinq", "CorBinQ pair (seed-000 Alg. 2, E3 corrected); request: N w1 w2; answer: Q1 Q2",
       {{"eps", "eps > 0"}, {"c", "center"}, {"r", "radius > 0"}, {"d", "shared bits, 0..62"}}},
      {"coq", "CoQ-FL pair (seed 001, E1 corrected); request: N wA wB; answer: Alice Bob",
       {{"eps", "eps > 0"}, {"c", "center"}, {"r", "radius > 0"}, {"d", "codeword bits"}, {"px", "p_x in (0,1), default 0.5"}}},
      {"rr", "randomized response (seed-004 Alg. C); request: N b (b = +1 or -1)", {{"rr-gamma", "gamma in [0, 1/2]"}}},
      {"stosign", "StoSign, hard sigmoid (seed-004 Alg. B); request: N theta", {}},
      {"bnn-upload", "StoSign then RR (seed-004 upload); request: N theta", {{"rr-gamma", "gamma in [0, 1/2]"}}},
      {"qgauss", "quantized Gaussian (seed-003 Alg. 2, Lemma 2); request: N x; answer: the level value",
       {{"sigma", "noise std > 0"}, {"levels", "K, 2..65536"}, {"clip", "C_q > 0 (levels on [-C, C], x clipped to C/2)"}}},
      {"cepam-gaussian", "CEPAM, Gaussian target (seed 002); request: N x_1..x_n; answer: y_1..y_n",
       {{"lattice-dim", "n, 1..8"}, {"sigma", "std per coordinate > 0"}, {"c", "cell scaling >= 1 (accepted; the error law does not depend on it)"}}},
      {"cepam-laplace", "CEPAM, Laplace target (seed 002, n = 1); request: N x; answer: y",
       {{"lattice-dim", "n = 1"}, {"b", "Laplace scale > 0"}, {"c", "cell scaling >= 1 (accepted; the error law does not depend on it)"}}},
      {"gaussian", "seed-000 gaussian baseline on its grid: c - r + (k + Z) 2r/N, Z ~ N_Z(0, sigma2); request: N w",
       {{"c", "center"}, {"r", "radius > 0"}, {"grid-steps", "N (default 1048576 = 2^20)"}, {"sigma2", "sigma^2 in grid units^2"}}},
      {"laplace", "seed-000 laplace baseline on its grid: c - r + (k + Z) 2r/N, Z ~ L_Z(t); request: N w",
       {{"c", "center"}, {"r", "radius > 0"}, {"grid-steps", "N (default 1048576 = 2^20)"}, {"t", "scale t in grid units"},
        {"eps-p", "instead of --t: t = N/eps_p (as dpfl train --mechanism laplace)"}}},
  };
  for (const auto& mech : mechanisms) {
    auto args = std::make_shared<CheckArgs>();
    args->mechanism = mech.name;
    CLI::App* app = group->add_subcommand(mech.name, mech.help);
    for (const auto& [flag, help] : mech.flags) {
      auto* opt = app->add_option("--" + std::string(flag), args->values[flag], help);
      const std::string f = flag;
      const bool optional = f == "px" || f == "grid-steps" || f == "eps-p" || f == "t" || (f == "c" && std::string(mech.name).rfind("cepam", 0) == 0);
      if (!optional) opt->required();
    }
    app->add_option("--alpha", args->alpha, "family-wise false-alarm probability (default 1e-3)");
    app->add_option("--samples", args->samples, "runs per input (default 20000)");
    app->add_option("--seed", args->seed, "seed of the check's own choices (random inputs, search)");
    app->add_option("--budget-seconds", args->budget, "fit the runs to this many seconds (default 0: no budget)");
    app->add_option("--tolerance", args->tolerance, "relative tolerance of support matching (default 1e-9)");
    app->add_option("--timeout", args->timeout, "seconds without progress on a request before it is an error (60)");
    app->add_option("--search-stages", args->stages, "adaptive search stages after the design (default 4)");
    app->add_option("--random-inputs", args->random_inputs, "random inputs in the design, one per stratum of the input domain (default 8)");
    app->add_flag("--json", args->json, "print the report as JSON");
    app->add_option("--junit", args->junit, "also write JUnit XML (one testcase per check) to FILE");
    app->add_flag("--progress", args->progress, "one line per request on stderr");
    app->add_option("command", args->command, "-- COMMAND [ARGS...]: the implementation to check")->expected(-1);
    std::vector<std::string> names;
    for (const auto& f : mech.flags) names.emplace_back(f.first);
    commands.push_back({app, nullptr, [args, app, names] {
                          std::vector<std::string> given_flags;
                          for (const std::string& n : names)
                            if (app->count("--" + n) > 0) given_flags.push_back(n);
                          return RunCheckCommand(*args, given_flags);
                        }});
  }
}

}  // namespace dpfl::cli
