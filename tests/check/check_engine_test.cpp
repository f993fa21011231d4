// dpfl::check through its C++ API (the callable form GoogleTest users take): a correct LDPQ and
// CorBinQ written here from the spec (std::mt19937_64, independent of production and reference)
// are conformant; planted faults are flagged with the failing input named; protocol failures of
// a process are ProtocolErrors naming the request, with partial results kept; the answer parser
// rejects every malformed line without crashing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <random>
#include <thread>

#include "conformance.hpp"
#include "dpfl/error.hpp"

namespace dpfl::check {
namespace {

const std::map<std::string, std::string> kLdpq = {{"eps", "1"}, {"c", "0.5"}, {"r", "2"}};

// LDPQ (seed-000 Alg. 1 after seed-001 E12's clip), `shift` added to q when planted.
Sampler Ldpq(std::uint64_t seed, double shift = 0, bool clip = true) {
  auto rng = std::make_shared<std::mt19937_64>(seed);
  return [rng, shift, clip](std::span<const double> x, std::uint64_t n) {
    const double e = std::exp(1.0), alpha = (e + 1) / (e - 1), c = 0.5, r = 2;
    const double w = clip ? std::clamp(x[0], c - r, c + r) : x[0];
    const double q = 0.5 + (w - c) / (2 * r * alpha) + shift;
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<std::vector<double>> rows;
    for (std::uint64_t i = 0; i < n; ++i) rows.push_back({u(*rng) < q ? c + r * alpha : c - r * alpha});
    return rows;
  };
}

CheckOptions Fast() {
  CheckOptions o;
  o.samples = 4000;
  o.search_stages = 2;
  return o;
}

// False alarm of this test: at most 5 seeds × α = 5·10⁻³ (fixed seeds: deterministic in CI).
TEST(CheckEngine, CorrectLdpqIsConformantOverSeeds) {
  for (std::uint64_t s = 1; s <= 5; ++s) {
    CheckOptions o = Fast();
    o.seed = s;
    const CheckReport r = RunCheck("ldpq", kLdpq, Ldpq(s), o);
    EXPECT_TRUE(r.Conformant()) << ReportText(r);
    EXPECT_EQ(r.ExitCode(), 0);
    EXPECT_GT(r.checks.size(), 30u);
    EXPECT_EQ(r.stages_run, 2);
  }
}

TEST(CheckEngine, BiasedAndUnclippedLdpqAreFlaggedWithTheInput) {
  const CheckReport biased = RunCheck("ldpq", kLdpq, Ldpq(1, 0.05), Fast());
  EXPECT_EQ(biased.ExitCode(), 1);
  const CheckReport unclipped = RunCheck("ldpq", kLdpq, Ldpq(1, 0, false), Fast());
  EXPECT_EQ(unclipped.ExitCode(), 1);
  // Only inputs beyond the clip can show the missing clip, and some law check does.
  int law_rejections = 0;
  for (const CheckResult& c : unclipped.checks)
    if (c.rejected && c.name == "law") {
      ++law_rejections;
      EXPECT_GT(std::fabs(c.input[0] - 0.5), 2.0) << c.detail;
    }
  EXPECT_GT(law_rejections, 0);
  EXPECT_NE(ReportText(unclipped).find("REJECTED"), std::string::npos);
  EXPECT_NE(ReportJUnit(unclipped).find("<failure"), std::string::npos);
  EXPECT_NE(ReportJson(unclipped).find("\"conformant\": false"), std::string::npos);
}

TEST(CheckEngine, ARestartedStreamFailsIndependenceOnly) {
  // Same seed at every request: each request's law is right, the requests are copies.
  const Sampler restart = [](std::span<const double> x, std::uint64_t n) { return Ldpq(7)(x, n); };
  const CheckReport r = RunCheck("ldpq", kLdpq, restart, Fast());
  EXPECT_EQ(r.ExitCode(), 1);
  bool independence = false;
  for (const CheckResult& c : r.checks) {
    if (c.rejected) {
      EXPECT_EQ(c.name.rfind("independence/", 0), 0u) << c.name;
      independence = true;
    }
  }
  EXPECT_TRUE(independence);
}

// CorBinQ's joint law (seed-000 Alg. 2, line 14 corrected), with the shared Z optionally drawn
// separately by each client: marginals right, the joint wrong.
Sampler CorBinQ(std::uint64_t seed, bool independent_z) {
  auto rng = std::make_shared<std::mt19937_64>(seed);
  return [rng, independent_z](std::span<const double> x, std::uint64_t n) {
    const double e = std::exp(1.0), alpha = (e + 1) / (e - 1), c = 0, r = 1;
    const double N = 8;  // d = 3
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<std::vector<double>> rows;
    const double q1 = 0.5 + std::clamp(x[0], -1.0, 1.0) / (2 * alpha), q2 = 0.5 + std::clamp(x[1], -1.0, 1.0) / (2 * alpha);
    const double x1 = N * q1, x2 = N * (1 - q2), t1 = std::floor(x1), t2 = std::floor(x2);
    for (std::uint64_t i = 0; i < n; ++i) {
      const double z = std::floor(u(*rng) * N), z2 = independent_z ? std::floor(u(*rng) * N) : z;
      const bool plus1 = z < t1 || (z == t1 && u(*rng) < x1 - t1);
      const bool minus2 = z2 < t2 || (z2 == t2 && u(*rng) < x2 - t2);
      rows.push_back({plus1 ? c + r * alpha : c - r * alpha, minus2 ? c - r * alpha : c + r * alpha});
    }
    return rows;
  };
}

TEST(CheckEngine, CorBinQJointLawIsHeld) {
  const std::map<std::string, std::string> p = {{"eps", "1"}, {"c", "0"}, {"r", "1"}, {"d", "3"}};
  EXPECT_EQ(RunCheck("corbinq", p, CorBinQ(3, false), Fast()).ExitCode(), 0);
  const CheckReport r = RunCheck("corbinq", p, CorBinQ(3, true), Fast());
  EXPECT_EQ(r.ExitCode(), 1);
  EXPECT_GT(std::count_if(r.checks.begin(), r.checks.end(), [](const CheckResult& c) { return c.rejected; }), 0);
  for (const CheckResult& c : r.checks)
    if (c.rejected) {
      EXPECT_TRUE(c.name == "law" || c.name == "mse") << c.name << ": the marginals are right";
    }
}

TEST(CheckEngine, BudgetScalesTheRunsAndSaysWhatTheyBought) {
  // 5 µs per run: the full plan (about 27 inputs × 20000 runs) would take about 2.7 s.
  const Sampler inner = Ldpq(2);
  const Sampler slow = [&inner](std::span<const double> x, std::uint64_t n) {
    std::this_thread::sleep_for(std::chrono::microseconds(5 * n));
    return inner(x, n);
  };
  CheckOptions o;
  o.samples = 20000;
  o.budget_seconds = 0.5;
  const CheckReport r = RunCheck("ldpq", kLdpq, slow, o);
  EXPECT_EQ(r.ExitCode(), 0) << ReportText(r);
  EXPECT_LT(r.runs_per_input, 20000u);
  EXPECT_GE(r.runs_per_input, 200u);
  EXPECT_LT(r.seconds, 1.5);
  // The power statement follows the runs actually used.
  ASSERT_FALSE(r.power.empty());
  EXPECT_GT(r.power.front().tv, RunCheck("ldpq", kLdpq, Ldpq(2), CheckOptions{}).power.front().tv);
}

TEST(CheckEngine, ProtocolErrorKeepsPartialResults) {
  int calls = 0;
  const Sampler failing = [&calls](std::span<const double> x, std::uint64_t n) {
    if (++calls == 6) throw ProtocolError("request 6: gone");
    return Ldpq(1)(x, n);
  };
  const CheckReport r = RunCheck("ldpq", kLdpq, failing, Fast());
  EXPECT_EQ(r.ExitCode(), 2);
  ASSERT_TRUE(r.protocol_error.has_value());
  EXPECT_NE(r.protocol_error->find("request 6"), std::string::npos);
  EXPECT_GT(r.checks.size(), 0u);  // the five answered inputs were judged
  // An answer off the support is a protocol error naming it.
  const Sampler off = [](std::span<const double>, std::uint64_t n) {
    return std::vector<std::vector<double>>(n, std::vector<double>{0.123});
  };
  const CheckReport o = RunCheck("ldpq", kLdpq, off, Fast());
  ASSERT_TRUE(o.protocol_error.has_value());
  EXPECT_NE(o.protocol_error->find("not in the mechanism's support"), std::string::npos);
}

TEST(CheckEngine, BadParametersNameTheFlag) {
  const Sampler s = Ldpq(1);
  const auto flag = [&](const std::string& mech, std::map<std::string, std::string> p) {
    try {
      RunCheck(mech, p, s, Fast());
    } catch (const InvalidArgument& e) {
      return e.argument();
    }
    return std::string("(none)");
  };
  EXPECT_EQ(flag("ldpq", {{"eps", "0"}, {"c", "0"}, {"r", "1"}}), "--eps");
  EXPECT_EQ(flag("ldpq", {{"eps", "1"}, {"c", "0"}, {"r", "-1"}}), "--r");
  EXPECT_EQ(flag("ldpq", {{"eps", "nan"}, {"c", "0"}, {"r", "1"}}), "--eps");
  EXPECT_EQ(flag("ldpq", {{"eps", "1"}, {"c", "0"}}), "--r");
  EXPECT_EQ(flag("ldpq", {{"eps", "1"}, {"c", "0"}, {"r", "1"}, {"d", "3"}}), "--d");
  EXPECT_EQ(flag("qgauss", {{"sigma", "1"}, {"levels", "1"}, {"clip", "1"}}), "--levels");
  EXPECT_EQ(flag("cepam-laplace", {{"lattice-dim", "2"}, {"b", "1"}}), "--lattice-dim");
  EXPECT_EQ(flag("nope", {}), "MECHANISM");
  EXPECT_EQ(flag("cepam-gaussian", {{"lattice-dim", "2"}, {"sigma", "1"}, {"c", "0.5"}}), "--c");
  EXPECT_EQ(flag("laplace", {{"c", "0"}, {"r", "1"}}), "--t");
  EXPECT_EQ(flag("laplace", {{"c", "0"}, {"r", "1"}, {"eps-p", "-1"}}), "--eps-p");
  EXPECT_EQ(flag("gaussian", {{"c", "0"}, {"r", "1"}, {"sigma2", "4"}, {"grid-steps", "0"}}), "--grid-steps");
  CheckOptions o = Fast();
  o.alpha = 0;
  EXPECT_THROW(RunCheck("ldpq", kLdpq, s, o), InvalidArgument);
}

TEST(CheckProtocol, AnswerLinesAreParsedStrictly) {
  EXPECT_EQ(ParseAnswerLine("1.5 -2", 2), (std::vector<double>{1.5, -2}));
  EXPECT_EQ(ParseAnswerLine("+1\t 3e-2\r", 2), (std::vector<double>{1, 0.03}));
  for (const char* bad : {"nan", "inf", "1e999", "abc", "1.0.0", "", "1 2", "0x10", "--1", "+"})
    EXPECT_THROW(ParseAnswerLine(bad, 1), ProtocolError) << bad;
}

// A process: sh -c SCRIPT, with the answers it gives.
std::string ErrorOf(const std::string& script, double timeout = 5) {
  try {
    ProcessSampler p({"sh", "-c", script}, 1, 1, timeout);
    const std::vector<double> x = {0.25};
    p(x, 3);
    p(x, 3);
    p.Close();
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "";
}

TEST(CheckProtocol, ProcessFailuresAreNamed) {
  EXPECT_EQ(ErrorOf("while read n x; do printf '1\\n2\\n3\\n'; done"), "");
  EXPECT_NE(ErrorOf("exit 3").find("exited with status 3"), std::string::npos) << ErrorOf("exit 3");
  EXPECT_NE(ErrorOf("read l; printf '1\\n2\\n'").find("closed its output after 2 of 3"), std::string::npos);
  EXPECT_NE(ErrorOf("read l; printf '1\\n2\\nx\\n'").find("answer line 3"), std::string::npos);
  EXPECT_NE(ErrorOf("while read n x; do printf '1\\n2\\n3\\n4\\n'; done").find("more than"), std::string::npos);
  EXPECT_NE(ErrorOf("read l; sleep 30", 0.5).find("no complete answer within"), std::string::npos);
  EXPECT_NE(ErrorOf("while read n x; do printf '1\\n2\\n3\\n'; done; echo extra").find("beyond the last answer"),
            std::string::npos);
  EXPECT_THROW(ProcessSampler({"/nonexistent/implementation"}, 1, 1, 5), ProtocolError);
}

TEST(CheckProtocol, EndingTheProcess) {
  const std::vector<double> x = {0.25};
  {  // exits when its input closes: reaped, not killed
    ProcessSampler p({"sh", "-c", "while read n x; do echo 1; done"}, 1, 1, 5);
    p(x, 1);
    p.Close();
    EXPECT_FALSE(p.Killed());
  }
  {  // ignores the end of its input: killed after the (here 0.5 s) grace period
    ProcessSampler p({"sh", "-c", "while read n x; do echo 1; done; sleep 30"}, 1, 1, 0.5);
    p(x, 1);
    const auto t0 = std::chrono::steady_clock::now();
    p.Close();
    EXPECT_TRUE(p.Killed());
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
  }
  {  // floods its output: the request fails, Abort ends it at once
    ProcessSampler p({"sh", "-c", "yes 1"}, 1, 1, 5);
    EXPECT_THROW(p(x, 3), ProtocolError);
    const auto t0 = std::chrono::steady_clock::now();
    p.Abort();
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0);
  }
}

}  // namespace
}  // namespace dpfl::check
