// `dpfl sample` as a user scripts it: JSON shape, counts, determinism, stream policy, every bad
// input (exit 2, one stderr line naming the flag, nothing on stdout), and the sampled counts
// against the exact law from the reference (dpfl_reference), never from the CLI's own output.
//
// Statistical cases: Pearson chi-square of the outcome counts against the reference pmf, cells
// with expected count < 10 pooled, critical value quantile(complement(chi_squared(dof), a)) with
// a = kFalseAlarm = 1e-6 per case; fixed seeds, so the suite is deterministic. With another seed
// a correct sampler fails a case with probability ≤ 1e-6 (≤ 1e-5 for the whole suite).
// The reference gets ε as the same decimal (exactly the double the CLI parses) and encloses
// e^ε with MPFR (ref::ExpEnclosure); production computes in double (error ~1e-15, far below
// what n = 2·10^5 draws can see).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <boost/math/distributions/chi_squared.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "dpfl/quant/isa.hpp"
#include "dpfl/ref/bnn_laws.hpp"
#include "dpfl/ref/cepam.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "dpfl/ref/numbers.hpp"
#include "dpfl/ref/quantized_gaussian.hpp"
#include "testing/cli_helpers.hpp"
#include "testing/subprocess.hpp"

namespace {

using nlohmann::json;
using dpfl::ref::Interval;
using dpfl::ref::Rational;
using dpfl::testing::RunResult;

constexpr double kFalseAlarm = 1e-6;

RunResult RunDpfl(const std::vector<std::string>& args) {
  return dpfl::testing::RunProgram(DPFL_BINARY, args, ::testing::TempDir());
}

json RunOk(const std::vector<std::string>& args) {
  const RunResult r = RunDpfl(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

// Replaces the value of `flag` in `args` (appends it if absent).
std::vector<std::string> With(std::vector<std::string> args, const std::string& flag, const std::string& value) {
  return dpfl::testing::WithFlag(std::move(args), flag, value);
}
std::vector<std::string> Without(std::vector<std::string> args, const std::string& flag) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == flag) {
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i), args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      break;
    }
  return args;
}

const std::vector<std::string> kLdpq = {"sample", "ldpq", "--eps", "1", "--c", "0", "--r", "1", "--w", "0.5",
                                        "--n", "1000", "--seed", "42"};
const std::vector<std::string> kCorBinQ = {"sample", "corbinq", "--eps", "1", "--c", "0", "--r", "1", "--w1", "0.25",
                                           "--w2", "-0.5", "--d", "2", "--n", "1000", "--seed", "7"};
const std::vector<std::string> kCoq = {"sample", "coq", "--eps", "1", "--c", "0", "--r", "1", "--w1", "0.25",
                                       "--w2", "-0.5", "--d", "2", "--n", "1000", "--seed", "7"};

std::uint64_t SumCounts(const json& counts) {
  std::uint64_t sum = 0;
  for (const auto& [key, value] : counts.items()) sum += value.get<std::uint64_t>();
  return sum;
}

std::vector<std::string> Keys(const json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

// "T/2^64" → T/2^64 as an exact rational.
Rational ImplementedProbability(const std::string& text) {
  static const std::regex kForm("^([0-9]+)/2\\^64$");
  std::smatch match;
  EXPECT_TRUE(std::regex_match(text, match, kForm)) << text;
  if (match.empty()) return Rational(-1);
  return Rational(dpfl::ref::Int(match[1].str())) / dpfl::ref::Pow2(64);
}

double Mid(const Interval& x) { return x.Mid().convert_to<double>(); }

Interval EnclosedE(const std::string& eps) {
  return dpfl::ref::ExpEnclosure(dpfl::ref::ParseRational(eps, "eps"), 256, "eps");
}

// ---------------------------------------------------------------------------------------------
// Shape, echo, stream policy.

TEST(DpflSample, LdpqJsonShape) {
  const json j = RunOk(kLdpq);
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j["command"], "sample");
  EXPECT_EQ(j["mechanism"], "ldpq");
  EXPECT_EQ(Keys(j["counts"]), (std::vector<std::string>{"+", "-"}));
  EXPECT_EQ(SumCounts(j["counts"]), 1000u);
  EXPECT_EQ(j["parameters"]["eps"], 1.0);
  EXPECT_EQ(j["parameters"]["c"], 0.0);
  EXPECT_EQ(j["parameters"]["r"], 1.0);
  EXPECT_EQ(j["parameters"]["w"], 0.5);
  EXPECT_EQ(j["parameters"]["n"], 1000);
  EXPECT_EQ(j["parameters"]["seed"], 42);
  EXPECT_EQ(j["parameters"]["generator"], "chacha20");
  EXPECT_EQ(j["backend_used"], "cpu");
  ASSERT_TRUE(j["stream"]["key_words"].is_array());
  EXPECT_EQ(j["stream"]["key_words"].size(), 8u);
  EXPECT_NE(j["stream"]["key_policy"].get<std::string>().find("splitmix64"), std::string::npos);
  EXPECT_EQ(j["threshold_plus"].get<std::string>() + "/2^64", j["implemented_q_plus"].get<std::string>());
}

TEST(DpflSample, LdpqImplementedProbabilityIsTheReferenceProbability) {
  // q = 1/2 + (w − c)/(2rα) from the reference (α enclosed for ε = 1); the CLI states T/2^64,
  // T = ⌊q̃·2^64⌋ with q̃ computed in double: they agree to ~1e-16.
  const json j = RunOk(kLdpq);
  ASSERT_FALSE(j.empty());
  const auto law = dpfl::ref::Ldpq(EnclosedE("1"), Rational(0), Rational(1), Rational(1, 2));
  const Rational implemented = ImplementedProbability(j["implemented_q_plus"]);
  EXPECT_LT(std::fabs((implemented - law.q_plus.Mid()).convert_to<double>()), 1e-14);
  EXPECT_NEAR(j["alpha"].get<double>(), Mid(law.alpha), 1e-14);
  EXPECT_NEAR(j["levels"]["plus"].get<double>(), Mid(law.level_plus), 1e-14);
}

TEST(DpflSample, PairJsonShapeForCorBinQAndCoq) {
  for (const auto& args : {kCorBinQ, kCoq}) {
    const json j = RunOk(args);
    ASSERT_FALSE(j.empty());
    EXPECT_EQ(j["mechanism"], args[1]);
    EXPECT_EQ(Keys(j["counts"]), (std::vector<std::string>{"++", "+-", "-+", "--"}));
    EXPECT_EQ(SumCounts(j["counts"]), 1000u);
    EXPECT_EQ(j["parameters"]["w1"], 0.25);
    EXPECT_EQ(j["parameters"]["w2"], -0.5);
    EXPECT_EQ(j["parameters"]["d"], 2);
    // P(Q2 = +) + P(Q2 = −) = 1 exactly.
    const Rational q2 = ImplementedProbability(j["implemented_q2"]);
    const Rational q2_minus = ImplementedProbability(j["implemented_q2_minus"]);
    EXPECT_EQ(q2 + q2_minus, Rational(1));
    const auto res = dpfl::ref::EvaluateCorBinQ(EnclosedE("1"), Rational(0), Rational(1), Rational(1, 4),
                                                Rational(-1, 2), 2, dpfl::ref::Line14::kCorrected);
    EXPECT_LT(std::fabs((ImplementedProbability(j["implemented_q1"]) - res.q1.Mid()).convert_to<double>()), 1e-14);
    EXPECT_LT(std::fabs((q2 - res.q2.Mid()).convert_to<double>()), 1e-14);
  }
  EXPECT_EQ(RunOk(kCoq)["parameters"]["px"], 0.5);
}

TEST(DpflSample, WeightsAreRoundedToFloatAndEchoed) {
  const json j = RunOk(With(kLdpq, "--w", "0.1"));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j["parameters"]["w"].get<double>(), static_cast<double>(0.1f));
}

// ---------------------------------------------------------------------------------------------
// Determinism and the stream policy.

TEST(DpflSample, SameSeedSameOutput) {
  for (const auto& args : {kLdpq, kCorBinQ, kCoq}) {
    const RunResult a = RunDpfl(args), b = RunDpfl(args);
    ASSERT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(a.out, b.out);
  }
}

TEST(DpflSample, DifferentSeedsAndGeneratorsGiveDifferentCounts) {
  // n = 10^5 pair draws: the 3 free joint counts have standard deviations ≥ 100, so two
  // independent runs agree on all of them with probability < (1/250)^3 ≈ 6e-8.
  const auto args = With(kCorBinQ, "--n", "100000");
  const json a = RunOk(With(args, "--seed", "1"));
  const json b = RunOk(With(args, "--seed", "2"));
  const json c = RunOk(With(With(args, "--seed", "1"), "--generator", "philox"));
  EXPECT_NE(a["counts"], b["counts"]);
  EXPECT_NE(a["counts"], c["counts"]);
  EXPECT_NE(a["stream"]["key_words"], b["stream"]["key_words"]);
}

TEST(DpflSample, KeyWordsFollowTheDocumentedSplitMix64Expansion) {
  // splitmix64 written out here from its definition (Steele, Lea, Flood 2014), not from the CLI.
  std::uint64_t state = 42;
  std::vector<std::uint32_t> expected;
  for (int i = 0; i < 4; ++i) {
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    expected.push_back(static_cast<std::uint32_t>(z));
    expected.push_back(static_cast<std::uint32_t>(z >> 32));
  }
  const json j = RunOk(kLdpq);
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j["stream"]["key_words"].get<std::vector<std::uint32_t>>(), expected);
}

TEST(DpflSample, ThreadCountDoesNotChangeCountsAcrossChunks) {
  // 2.5·2^20 draws: three chunks (rounds 0, 1, 2), the last one partial.
  const auto args = With(kCorBinQ, "--n", "2621440");
  const json one = RunOk(With(args, "--threads", "1"));
  const json three = RunOk(With(args, "--threads", "3"));
  EXPECT_EQ(one["counts"], three["counts"]);
  EXPECT_EQ(SumCounts(one["counts"]), 2621440u);
}

TEST(DpflSample, CoqEqualsCorBinQAtHalf) {
  // CoQ-FL with p_x = 1/2 is the CorBinQ rule on the same streams (seed-001 §3.7).
  const json a = RunOk(kCorBinQ), b = RunOk(kCoq);
  EXPECT_EQ(a["counts"], b["counts"]);
}

TEST(DpflSample, BackendCudaFailsCleanlyOrRuns) {
  const RunResult r = RunDpfl(With(kLdpq, "--backend", "cuda"));
  if (r.exit_code == 0) {  // built with dpfl_cuda and a device present
    const json j = json::parse(r.out);
    EXPECT_EQ(j["backend_used"], "cuda");
    EXPECT_EQ(j["counts"], RunOk(kLdpq)["counts"]);  // bit-identical streams
  } else {
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("--backend"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("cuda"), std::string::npos) << r.err;
  }
  const json j = RunOk(With(kLdpq, "--backend", "auto"));
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j["counts"], RunOk(kLdpq)["counts"]);
}

// `dpfl bench quantizers --backend cuda`: GPU encoders against the device copy bandwidth, or a
// clean exit 2 naming --backend where there is no device or no CUDA build.
TEST(DpflBench, QuantizersBackendCudaFailsCleanlyOrReportsFractionOfCopy) {
  const RunResult r = RunDpfl({"bench", "quantizers", "--backend", "cuda", "--m", "65536", "--reps", "2", "--json"});
  if (r.exit_code == 0) {
    const json j = json::parse(r.out);
    EXPECT_EQ(j["backend"], "cuda");
    ASSERT_EQ(j["results"].size(), 3u);
    for (const auto& row : j["results"]) {
      EXPECT_GT(row["params_per_s"].get<double>(), 0.0);
      EXPECT_GT(row["fraction_of_copy"].get<double>(), 0.0);
    }
  } else {
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("--backend"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// The instruction-set switch (dpfl/quant/isa.hpp): `bench quantizers --isa` reports the set it ran
// on and the read-only pass next to memcpy; DPFL_ISA lowers the library's set for any command and
// changes no bit (the same counts as the default set); a bad value is one clear line, exit 2.
TEST(DpflBench, QuantizersIsaSwitchAndDpflIsaVariable) {
  const json j = RunOk({"bench", "quantizers", "--isa", "baseline", "--m", "4096", "--reps", "1", "--json"});
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j["isa"], "baseline");
  ASSERT_EQ(j["results"].size(), 9u);
  for (const auto& row : j["results"]) {
    EXPECT_GT(row["read_params_per_s"].get<double>(), 0.0) << row;
    EXPECT_GT(row["fraction_of_read"].get<double>(), 0.0) << row;
  }
  const RunResult bad_flag = RunDpfl({"bench", "quantizers", "--isa", "sse9", "--m", "4096"});
  EXPECT_EQ(bad_flag.exit_code, 2);
  EXPECT_NE(bad_flag.err.find("--isa"), std::string::npos) << bad_flag.err;

  const auto with_env = [](const std::string& isa, const std::vector<std::string>& args) {
    std::vector<std::string> a = {"DPFL_ISA=" + isa, DPFL_BINARY};
    a.insert(a.end(), args.begin(), args.end());
    return dpfl::testing::RunProgram("/usr/bin/env", a, ::testing::TempDir());
  };
  const json best = RunOk(kLdpq);
  for (const char* isa : {"baseline", "avx2", "avx512"}) {
    const RunResult r = with_env(isa, kLdpq);
    const bool supported = static_cast<int>(*dpfl::quant::fast::ParseIsa(isa)) <=
                           static_cast<int>(dpfl::quant::fast::BestIsa());
    if (supported) {
      ASSERT_EQ(r.exit_code, 0) << isa << ": " << r.err;
      EXPECT_EQ(json::parse(r.out)["counts"], best["counts"]) << isa;
    } else {
      EXPECT_EQ(r.exit_code, 2) << isa;
      EXPECT_NE(r.err.find("not supported by this CPU"), std::string::npos) << r.err;
    }
  }
  const RunResult bogus = with_env("sse9", kLdpq);
  EXPECT_EQ(bogus.exit_code, 2);
  EXPECT_EQ(bogus.out, "");
  EXPECT_NE(bogus.err.find("DPFL_ISA"), std::string::npos) << bogus.err;
  EXPECT_EQ(std::count(bogus.err.begin(), bogus.err.end(), '\n'), 1) << bogus.err;
}

// `dpfl bench aggregate` checks AccumulateMessages against the per-message loop inside the run
// (it fails if they disagree) and reports both rates.
TEST(DpflBench, AggregateReportsBothRatesAndRejectsBadFlags) {
  const json j = RunOk({"bench", "aggregate", "--m", "1000", "--n", "9", "--threads", "2", "--reps", "1", "--json"});
  EXPECT_EQ(j["m"], 1000);
  EXPECT_EQ(j["n"], 9);
  EXPECT_GT(j["per_message_accumulate_bits_per_s"].get<double>(), 0.0);
  EXPECT_GT(j["accumulate_messages_bits_per_s"].get<double>(), 0.0);
  for (const char* flag : {"--m", "--n", "--threads", "--reps"}) {
    const RunResult r = RunDpfl({"bench", "aggregate", flag, "0"});
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
  }
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit 2, nothing on stdout, exactly one line on stderr naming the flag.

struct BadCase {
  std::vector<std::string> args;
  std::string flag;
};

std::vector<BadCase> BadCases() {
  std::vector<BadCase> cases;
  auto bad = [&](const std::vector<std::string>& base, const std::string& flag, const std::vector<std::string>& values) {
    for (const std::string& v : values) cases.push_back({With(base, flag, v), flag});
  };
  const std::vector<std::string> not_decimals = {"nan", "NaN", "inf", "-inf", "Infinity", "1e999", "-1e999", "1.0x",
                                                 "", " 1", "1 ", "0x1p0", "1/2", "1e", ".", "--", "1,5", "e5"};
  bad(kCorBinQ, "--eps", not_decimals);
  bad(kCorBinQ, "--eps", {"0", "-0", "-1", "1000"});  // ε ≤ 0; ε = 1000 gives α = 1 in double
  bad(kCorBinQ, "--c", {"nan", "inf", "1e400", "abc"});
  bad(kCorBinQ, "--r", {"0", "-0", "-1", "nan", "1e400", "1.7e308"});
  bad(kCorBinQ, "--w1", {"nan", "-inf", "1e39", "0.5.5", ""});
  bad(kCorBinQ, "--w2", {"inf", "-1e39", "x"});
  bad(kCorBinQ, "--d", {"-1", "63", "1.5", "abc", "", " 2", "+2", "99999999999999999999"});
  bad(kCorBinQ, "--n", {"0", "-1", "1.5", "abc", "1e3", "281474976710657"});
  bad(kCorBinQ, "--seed", {"-1", "abc", "18446744073709551616", "1e3", ""});
  bad(kCorBinQ, "--threads", {"0", "-1", "1025", "x"});
  bad(kCorBinQ, "--generator", {"foo", "ChaCha20", ""});
  bad(kCorBinQ, "--backend", {"gpu", "CPU", ""});
  bad(kCoq, "--px", {"0.3", "1/2", "nan", "", "0.50001"});
  bad(kLdpq, "--w", {"nan", "1e39", "1e400", "w"});
  bad(kLdpq, "--eps", {"nan", "0"});
  for (const char* flag : {"--eps", "--c", "--r", "--w1", "--w2", "--d", "--n", "--seed"})
    cases.push_back({Without(kCorBinQ, flag), flag});  // missing required flag
  cases.push_back({With(kLdpq, "--w1", "0.25"), "--w1"});  // a pair flag on ldpq
  cases.push_back({With(kLdpq, "--d", "2"), "--d"});
  cases.push_back({With(kCorBinQ, "--px", "0.5"), "--px"});  // --px belongs to coq only
  return cases;
}

TEST(DpflSample, EveryBadInputExits2WithOneLineNamingTheFlag) {
  for (const BadCase& c : BadCases()) {
    std::string shown;
    for (const std::string& a : c.args) shown += "'" + a + "' ";
    const RunResult r = RunDpfl(c.args);
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.out << r.err;
    EXPECT_EQ(r.out, "") << shown;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << shown << "\n" << r.err;
    EXPECT_FALSE(r.err.empty() || r.err.back() != '\n') << shown;
    EXPECT_NE(r.err.find(c.flag), std::string::npos) << shown << "\n" << r.err;
  }
}

TEST(DpflSample, UnknownMechanismAndMissingMechanismExit2) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"sample", "foo", "--eps", "1"}, std::vector<std::string>{"sample"},
        std::vector<std::string>{}, std::vector<std::string>{"nosuchcommand"}}) {
    const RunResult r = RunDpfl(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// ---------------------------------------------------------------------------------------------
// Counts against the reference's exact pmf.

// Pearson statistic with cells of expected count < 10 pooled (pool merged into the smallest
// other cell while it is still < 10). Cells of probability exactly 0 must be empty and are
// dropped. Returns {statistic, dof}.
std::pair<double, int> ChiSquare(const std::vector<std::uint64_t>& counts, const std::vector<double>& probs,
                                 std::uint64_t n) {
  std::vector<std::pair<double, double>> cells;  // (expected, observed)
  double pool_expected = 0, pool_observed = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double expected = probs[i] * static_cast<double>(n), observed = static_cast<double>(counts[i]);
    if (probs[i] == 0) {
      EXPECT_EQ(counts[i], 0u) << "an outcome of exact probability 0 occurred (cell " << i << ")";
      continue;
    }
    if (expected < 10) {
      pool_expected += expected;
      pool_observed += observed;
    } else {
      cells.emplace_back(expected, observed);
    }
  }
  if (pool_expected > 0) {
    if (pool_expected < 10 && !cells.empty()) {
      auto smallest = std::min_element(cells.begin(), cells.end());
      smallest->first += pool_expected;
      smallest->second += pool_observed;
    } else {
      cells.emplace_back(pool_expected, pool_observed);
    }
  }
  double stat = 0;
  for (const auto& [e, o] : cells) stat += (o - e) * (o - e) / e;
  return {stat, static_cast<int>(cells.size()) - 1};
}

double Critical(int dof) {
  return boost::math::quantile(boost::math::complement(boost::math::chi_squared(dof), kFalseAlarm));
}

struct StatCase {
  std::string mechanism, eps, c, r, w1, w2;  // w1 = w for ldpq
  int d;
  std::string generator;
  std::uint64_t seed;
};

Rational Clip(const Rational& w, const Rational& c, const Rational& r) {
  return w < c - r ? Rational(c - r) : (w > c + r ? Rational(c + r) : w);
}

// Exact probabilities of the outcomes in the CLI's key order ("+","-" or "--","-+","+-","++").
std::vector<double> ReferencePmf(const StatCase& s, dpfl::ref::Line14 line14) {
  const Interval E = EnclosedE(s.eps);
  const Rational c = dpfl::ref::ParseRational(s.c, "c"), r = dpfl::ref::ParseRational(s.r, "r");
  const Rational w1 = Clip(dpfl::ref::ParseRational(s.w1, "w1"), c, r);
  if (s.mechanism == "ldpq") {
    const auto law = dpfl::ref::Ldpq(E, c, r, w1);
    return {Mid(law.q_plus), Mid(law.q_minus)};
  }
  const Rational w2 = Clip(dpfl::ref::ParseRational(s.w2, "w2"), c, r);
  const auto res = dpfl::ref::EvaluateCorBinQ(E, c, r, w1, w2, s.d, line14);
  return {Mid(res.joint.mm), Mid(res.joint.mp), Mid(res.joint.pm), Mid(res.joint.pp)};
}

constexpr std::uint64_t kStatDraws = 200000;

std::vector<std::uint64_t> SampleCounts(const StatCase& s) {
  std::vector<std::string> args = {"sample", s.mechanism, "--eps", s.eps, "--c", s.c, "--r", s.r,
                                   "--n", std::to_string(kStatDraws), "--seed", std::to_string(s.seed),
                                   "--generator", s.generator};
  if (s.mechanism == "ldpq") {
    args.insert(args.end(), {"--w", s.w1});
  } else {
    args.insert(args.end(), {"--w1", s.w1, "--w2", s.w2, "--d", std::to_string(s.d)});
  }
  const json j = RunOk(args);
  if (j.empty()) return {};
  const json& k = j["counts"];
  if (s.mechanism == "ldpq") return {k["+"].get<std::uint64_t>(), k["-"].get<std::uint64_t>()};
  return {k["--"].get<std::uint64_t>(), k["-+"].get<std::uint64_t>(), k["+-"].get<std::uint64_t>(),
          k["++"].get<std::uint64_t>()};
}

// All weights are exact in float (multiples of 1/8), so the reference sees the CLI's weights.
const std::vector<StatCase> kStatCases = {
    {"ldpq", "1", "0", "1", "0.5", "", 0, "chacha20", 11},
    {"ldpq", "0.5", "0.25", "0.5", "2", "", 0, "philox", 12},  // w clipped to c + r
    {"corbinq", "1", "0", "1", "-0.625", "0.25", 2, "chacha20", 13},
    {"corbinq", "2", "0", "1", "0.375", "0.375", 0, "philox", 14},
    {"corbinq", "0.5", "1", "2", "2.5", "-0.5", 8, "chacha20", 15},
    {"corbinq", "1.5", "-1", "0.5", "-3", "-0.875", 3, "philox", 16},  // w1 clipped to c − r
    {"coq", "1", "0", "1", "-0.625", "0.25", 3, "chacha20", 17},
    {"coq", "1.5", "0", "1", "0.875", "-0.125", 1, "philox", 18},
};

TEST(DpflSampleStat, CountsMatchTheReferencePmf) {
  for (const StatCase& s : kStatCases) {
    const std::vector<std::uint64_t> counts = SampleCounts(s);
    ASSERT_FALSE(counts.empty()) << s.mechanism << " seed " << s.seed;
    const std::vector<double> pmf = ReferencePmf(s, dpfl::ref::Line14::kCorrected);
    const auto [stat, dof] = ChiSquare(counts, pmf, kStatDraws);
    ASSERT_GE(dof, 1) << s.mechanism << " seed " << s.seed;
    EXPECT_LT(stat, Critical(dof)) << s.mechanism << " eps=" << s.eps << " w1=" << s.w1 << " w2=" << s.w2
                                   << " d=" << s.d << " seed=" << s.seed << " dof=" << dof;
  }
}

TEST(DpflSampleStat, TheTestRejectsTheAsPrintedLine14Law) {
  // Power: the same statistic against seed-000 E3 (Alg. 2 line 14 as printed) must reject.
  // Here t1 = 1 < t2 = 2 and the two laws differ by > 0.1 in a cell (checked below), which
  // n = 2·10^5 detects with overwhelming probability.
  const StatCase s{"corbinq", "1", "0", "1", "-0.875", "-0.5", 2, "chacha20", 19};
  const std::vector<double> corrected = ReferencePmf(s, dpfl::ref::Line14::kCorrected);
  const std::vector<double> printed = ReferencePmf(s, dpfl::ref::Line14::kAsPrinted);
  double gap = 0;
  for (std::size_t i = 0; i < 4; ++i) gap = std::max(gap, std::fabs(corrected[i] - printed[i]));
  ASSERT_GT(gap, 0.1);
  const std::vector<std::uint64_t> counts = SampleCounts(s);
  ASSERT_FALSE(counts.empty());
  const auto [ok_stat, ok_dof] = ChiSquare(counts, corrected, kStatDraws);
  EXPECT_LT(ok_stat, Critical(ok_dof));
  // Cells of probability 0 under the as-printed law may occur here; count them as rejection.
  bool impossible_outcome = false;
  for (std::size_t i = 0; i < 4; ++i) impossible_outcome = impossible_outcome || (printed[i] == 0 && counts[i] > 0);
  if (!impossible_outcome) {
    const auto [bad_stat, bad_dof] = ChiSquare(counts, printed, kStatDraws);
    EXPECT_GT(bad_stat, Critical(bad_dof));
  }
}

// ---------------------------------------------------------------------------------------------
// seed 004: `dpfl sample rr` and `dpfl sample stosign` (DPFL-BNN, Alg. C and B).

struct BnnCase {
  std::string mechanism, value;  // rr: γ (decimal, exact dyadic) with `input`; stosign: θ
  int input;
  std::string generator;
  std::uint64_t seed;
};

std::vector<std::string> BnnArgs(const BnnCase& c, std::uint64_t n) {
  std::vector<std::string> args = {"sample", c.mechanism, "--n", std::to_string(n), "--seed", std::to_string(c.seed),
                                   "--generator", c.generator};
  if (c.mechanism == "rr") {
    args.insert(args.end(), {"--rr-gamma", c.value, "--input", c.input > 0 ? "+1" : "-1"});
  } else {
    args.insert(args.end(), {"--theta", c.value});
  }
  return args;
}

// P(+) from the reference laws (dpfl/ref/bnn_laws.hpp); values are exact dyadics, so the
// reference sees exactly what the CLI parses.
Rational BnnPlus(const BnnCase& c) {
  const Rational v = dpfl::ref::ParseRational(c.value, "value");
  return c.mechanism == "rr" ? dpfl::ref::RrPlusProbability(v, c.input) : dpfl::ref::StoSignPlusProbability(v);
}

const std::vector<BnnCase> kBnnCases = {
    {"rr", "0.1015625", 1, "chacha20", 21}, {"rr", "0.375", -1, "philox", 22}, {"rr", "0", 1, "chacha20", 23},
    {"rr", "0.5", -1, "philox", 24},        {"stosign", "0.3125", 0, "chacha20", 25},
    {"stosign", "-0.875", 0, "philox", 26}, {"stosign", "1.5", 0, "chacha20", 27}, {"stosign", "-0.0", 0, "philox", 28},
};

TEST(DpflSampleBnn, JsonShapeAndImplementedProbabilities) {
  const json rr = RunOk(BnnArgs(kBnnCases[0], 1000));
  ASSERT_FALSE(rr.empty());
  EXPECT_EQ(rr["mechanism"], "rr");
  EXPECT_EQ(rr["counts"]["+"].get<std::uint64_t>() + rr["counts"]["-"].get<std::uint64_t>(), 1000u);
  // γ = 0.1015625 = 13/128: T_flip = (1/2 − 13/128)·2^64 exactly, keep = 2^64 − T.
  const Rational t_flip = (Rational(1, 2) - Rational(13, 128)) * dpfl::ref::Pow2(64);
  EXPECT_EQ(rr["flip_threshold"], dpfl::ref::ToExactString(t_flip));
  EXPECT_EQ(rr["implemented_gamma"], dpfl::ref::ToExactString(Rational(13, 128) * dpfl::ref::Pow2(64)) + "/2^64");
  EXPECT_EQ(rr["parameters"]["input"], "+1");
  const json st = RunOk(BnnArgs(kBnnCases[4], 1000));
  ASSERT_FALSE(st.empty());
  EXPECT_EQ(st["mechanism"], "stosign");
  EXPECT_EQ(st["implemented_q_plus"],
            dpfl::ref::ToExactString((Rational(5, 16) + 1) / 2 * dpfl::ref::Pow2(64)) + "/2^64");
  EXPECT_EQ(RunOk(BnnArgs(kBnnCases[6], 10))["counts"]["+"], 10);  // θ ≥ 1: always +
  EXPECT_EQ(RunOk(BnnArgs(kBnnCases[3], 10))["counts"]["-"], 10);  // γ = 1/2: never flips
}

TEST(DpflSampleBnn, CountsMatchTheReferenceLaw) {
  for (const BnnCase& c : kBnnCases) {
    const json j = RunOk(BnnArgs(c, kStatDraws));
    ASSERT_FALSE(j.empty());
    const std::vector<std::uint64_t> counts = {j["counts"]["+"].get<std::uint64_t>(), j["counts"]["-"].get<std::uint64_t>()};
    const Rational p = BnnPlus(c);
    const std::vector<double> pmf = {p.convert_to<double>(), Rational(1 - p).convert_to<double>()};
    const auto [stat, dof] = ChiSquare(counts, pmf, kStatDraws);
    if (dof >= 1) {
      EXPECT_LT(stat, Critical(dof)) << c.mechanism << " " << c.value << " seed " << c.seed;
    }
  }
  // Power: the flip probability read as γ (seed-004 E27) is rejected by the same statistic.
  const BnnCase c = kBnnCases[0];
  const json j = RunOk(BnnArgs(c, kStatDraws));
  const std::vector<std::uint64_t> counts = {j["counts"]["+"].get<std::uint64_t>(), j["counts"]["-"].get<std::uint64_t>()};
  const double keep_if_gamma_were_flip = 1 - 0.1015625;
  const auto [bad, bad_dof] = ChiSquare(counts, {keep_if_gamma_were_flip, 1 - keep_if_gamma_were_flip}, kStatDraws);
  EXPECT_GT(bad, Critical(bad_dof));
}

TEST(DpflSampleBnn, BadInputExits2NamingTheFlag) {
  const std::vector<std::string> rr = {"sample", "rr", "--rr-gamma", "0.1", "--input", "+1", "--n", "10", "--seed", "1"};
  const std::vector<std::string> st = {"sample", "stosign", "--theta", "0.1", "--n", "10", "--seed", "1"};
  std::vector<std::pair<std::vector<std::string>, std::string>> cases;
  for (const char* g : {"-0.1", "0.51", "nan", "inf", "1/4", ""}) cases.push_back({With(rr, "--rr-gamma", g), "--rr-gamma"});
  for (const char* in : {"0", "2", "+", "x", "-1.0"}) cases.push_back({With(rr, "--input", in), "--input"});
  for (const char* t : {"nan", "inf", "1e39", "t"}) cases.push_back({With(st, "--theta", t), "--theta"});
  cases.push_back({With(st, "--n", "0"), "--n"});
  cases.push_back({With(rr, "--generator", "mt"), "--generator"});
  cases.push_back({Without(rr, "--input"), "--input"});
  cases.push_back({Without(st, "--theta"), "--theta"});
  cases.push_back({With(st, "--rr-gamma", "0.1"), "--rr-gamma"});  // an rr flag on stosign
  for (const auto& [args, flag] : cases) {
    const RunResult r = RunDpfl(args);
    EXPECT_EQ(r.exit_code, 2) << flag << "\n" << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
  }
}


// ---- dpfl sample cepam (seed 002) ------------------------------------------------------------
const std::vector<std::string> kCepamGaussian = {"sample", "cepam", "--noise", "gaussian", "--lattice-dim", "2",
                                                 "--sigma", "0.5", "--x", "0.3", "--x=-0.7", "--n", "20000", "--seed", "9"};
const std::vector<std::string> kCepamLaplace = {"sample", "cepam", "--noise", "laplace", "--lattice-dim", "1",
                                                "--b", "0.4", "--x", "2.5", "--n", "20000", "--seed", "9"};

std::vector<double> ReadRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<double> v(bytes.size() / 8);
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::uint64_t bits = 0;
    for (int b = 0; b < 8; ++b) bits |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[8 * i + b])) << (8 * b);
    std::memcpy(&v[i], &bits, 8);
  }
  return v;
}

// One-sample KS statistic √N·D of the errors against an exact CDF (reference enclosures).
template <class Cdf>
double KsRootN(std::vector<double> x, Cdf cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double u = cdf(x[i]);
    d = std::max({d, (static_cast<double>(i) + 1) / n - u, u - static_cast<double>(i) / n});
  }
  return std::sqrt(n) * d;
}

TEST(DpflSampleCepam, RawErrorsFitTheExactGaussianAndLaplaceLaws) {
  // Kolmogorov: P(√N·D > 2.2) ≈ 1.3e-4 under the law (one false alarm in ~8000 runs; the seeds
  // are fixed). The E-Q1 / wrong-scale alternatives give √N·D in the tens.
  const std::string g = ::testing::TempDir() + "cepam_gauss.f64", l = ::testing::TempDir() + "cepam_laplace.f64";
  const json jg = RunOk(With(kCepamGaussian, "--raw", g));
  ASSERT_FALSE(jg.empty());
  EXPECT_EQ(jg["mechanism"], "cepam");
  EXPECT_NEAR(jg["summary"]["acceptance_probability"].get<double>(), 0.7853981633974483, 1e-15);
  const std::vector<double> eg = ReadRaw(g);
  ASSERT_EQ(eg.size(), 40000u);  // N × lattice-dim
  std::vector<double> c0, c1, norm2;
  for (std::size_t i = 0; i < eg.size(); i += 2) {
    c0.push_back(eg[i]);
    c1.push_back(eg[i + 1]);
    norm2.push_back((eg[i] * eg[i] + eg[i + 1] * eg[i + 1]) / 0.25);
  }
  auto phi = [](double e) { return dpfl::ref::NormalCdf(dpfl::ref::Enclosure(64, Rational(e) / Rational(1, 2))).MidDouble(); };
  EXPECT_LT(KsRootN(c0, phi), 2.2);
  EXPECT_LT(KsRootN(c1, phi), 2.2);
  EXPECT_LT(KsRootN(norm2, [](double s) { return dpfl::ref::GaussianErrorNormCdfTarget(2, Rational(s), 64).MidDouble(); }), 2.2);
  // A wrong scale (σ = 0.55) is rejected by the same statistic.
  EXPECT_GT(KsRootN(c0, [](double e) {
              return dpfl::ref::NormalCdf(dpfl::ref::Enclosure(64, Rational(e) / Rational(11, 20))).MidDouble();
            }),
            2.2);
  const json jl = RunOk(With(kCepamLaplace, "--raw", l));
  ASSERT_FALSE(jl.empty());
  const std::vector<double> el = ReadRaw(l);
  ASSERT_EQ(el.size(), 20000u);
  auto laplace = [](double e) {
    const Rational q(e), b(2, 5);
    const double half = (dpfl::ref::Exp(dpfl::ref::Enclosure(64, (q < 0 ? q : -q) / b)) / Rational(2)).MidDouble();
    return q < 0 ? half : 1 - half;
  };
  EXPECT_LT(KsRootN(el, laplace), 2.2);
  EXPECT_EQ(jl["summary"]["mean_h_bits"], 0.0);  // Laplace n = 1, c = 1: every trial accepted, no bits for h
}

TEST(DpflSampleCepam, BadInputExits2NamingTheFlag) {
  std::vector<std::pair<std::vector<std::string>, std::string>> cases;
  for (const char* v : {"0", "-1", "nan", "x"}) cases.push_back({With(kCepamGaussian, "--sigma", v), "--sigma"});
  for (const char* v : {"0", "9", "2.5"}) cases.push_back({With(kCepamGaussian, "--lattice-dim", v), "--lattice-dim"});
  cases.push_back({With(kCepamGaussian, "--noise", "uniform"), "--noise"});
  cases.push_back({With(kCepamGaussian, "--c", "0.5"), "--c"});
  cases.push_back({With(kCepamGaussian, "--b", "0.4"), "--b"});  // a Laplace flag on gaussian
  cases.push_back({Without(kCepamGaussian, "--sigma"), "--sigma"});
  cases.push_back({With(kCepamLaplace, "--b", "inf"), "--b"});
  cases.push_back({With(kCepamLaplace, "--x", "nan"), "--x"});
  cases.push_back({With(kCepamGaussian, "--n", "0"), "--n"});
  cases.push_back({With(kCepamGaussian, "--raw", "/nonexistent-dir/x.f64"), "--raw"});
  std::vector<std::string> three_x = kCepamGaussian;
  three_x.push_back("--x");
  three_x.push_back("0.1");
  cases.push_back({three_x, "--x"});  // 3 coordinates for n = 2
  for (const auto& [args, flag] : cases) {
    const RunResult r = RunDpfl(args);
    EXPECT_EQ(r.exit_code, 2) << flag << "\n" << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
  }
}


// ---- dpfl sample qgauss (seed 003) -----------------------------------------------------------
// The counts against Lemma 2's *continuous* pmf at σ (ref::QuantizedGaussianPmf), as an
// independent checker would use it: the grid law the CLI samples differs from it by ~1e-10
// (tests/unit/quantized_gaussian_grid_test.cpp), far below what 10^6 draws resolve. Inputs inside,
// at the edge and outside [−C/2, C/2] (clipped to C/2 before the law is evaluated).
struct QgaussCase {
  std::string x, sigma, levels, clip, generator;
  std::uint64_t seed;
};

std::vector<std::string> QgaussArgs(const QgaussCase& c, std::uint64_t n) {
  return {"sample", "qgauss", "--x", c.x, "--sigma", c.sigma, "--levels", c.levels, "--clip", c.clip,
          "--n", std::to_string(n), "--seed", std::to_string(c.seed), "--generator", c.generator, "--threads", "2"};
}

TEST(DpflSampleQgauss, CountsFitLemma2) {
  const std::vector<QgaussCase> cases = {{"0.5", "1", "4", "1", "chacha20", 31},
                                         {"0.9", "0.25", "8", "1", "philox", 32},
                                         {"-0.3", "0.5", "3", "2", "chacha20", 33},
                                         {"0.125", "0.0625", "16", "1", "philox", 34}};
  constexpr std::uint64_t kDraws = 1000000;
  for (const QgaussCase& c : cases) {
    const json j = RunOk(QgaussArgs(c, kDraws));
    ASSERT_FALSE(j.empty());
    const std::vector<std::uint64_t> counts = j["counts"].get<std::vector<std::uint64_t>>();
    const Rational clip = dpfl::ref::ParseRational(c.clip, "clip");
    Rational x = dpfl::ref::ParseRational(c.x, "x");
    x = std::max(Rational(-clip / 2), std::min(Rational(clip / 2), x));
    const long k = std::stol(c.levels);
    const auto pmf_enc = dpfl::ref::QuantizedGaussianPmf({dpfl::ref::ParseRational(c.sigma, "sigma"), k, clip}, x, 64);
    std::vector<double> pmf;
    for (const auto& e : pmf_enc) pmf.push_back(e.MidDouble());
    ASSERT_EQ(counts.size(), pmf.size());
    const auto [stat, dof] = ChiSquare(counts, pmf, kDraws);
    EXPECT_LT(stat, Critical(dof)) << "x=" << c.x << " sigma=" << c.sigma << " k=" << c.levels;
    // The levels echo B(r) = −C + r·2C/(k − 1).
    EXPECT_DOUBLE_EQ(j["level_values"][0].get<double>(), -clip.convert_to<double>());
    EXPECT_DOUBLE_EQ(j["level_values"][k - 1].get<double>(), clip.convert_to<double>());
  }
  // Power: the same counts against the law at σ·0.9 are rejected (a 10 % error in σ).
  const QgaussCase c = cases[0];
  const json j = RunOk(QgaussArgs(c, kDraws));
  const auto off = dpfl::ref::QuantizedGaussianPmf({Rational(9, 10), 4, Rational(1)}, Rational(1, 2), 64);
  std::vector<double> pmf;
  for (const auto& e : off) pmf.push_back(e.MidDouble());
  const auto [bad, bad_dof] = ChiSquare(j["counts"].get<std::vector<std::uint64_t>>(), pmf, kDraws);
  EXPECT_GT(bad, Critical(bad_dof));
}

TEST(DpflSampleQgauss, SameSeedSameCountsAnyThreads) {
  const QgaussCase c{"0.25", "0.3", "16", "1", "chacha20", 5};
  std::vector<std::string> one = QgaussArgs(c, 20000), two = QgaussArgs(c, 20000);
  one = With(one, "--threads", "1");
  two = With(two, "--threads", "3");
  EXPECT_EQ(RunOk(one)["counts"], RunOk(two)["counts"]);
  EXPECT_NE(RunOk(one)["counts"], RunOk(With(one, "--seed", "6"))["counts"]);
}

TEST(DpflSampleQgauss, BadInputExits2NamingTheFlag) {
  const std::vector<std::string> base = {"sample", "qgauss", "--x", "0.1", "--sigma", "1", "--levels", "4",
                                         "--clip", "1", "--n", "10", "--seed", "1"};
  std::vector<std::pair<std::vector<std::string>, std::string>> cases;
  for (const char* v : {"0", "-1", "nan", "inf", "1e400", "", "1e30"}) cases.push_back({With(base, "--sigma", v), "--sigma"});
  for (const char* v : {"1", "0", "65537", "x", "-4", "2.5"}) cases.push_back({With(base, "--levels", v), "--levels"});
  for (const char* v : {"0", "-1", "nan", "inf", "c"}) cases.push_back({With(base, "--clip", v), "--clip"});
  for (const char* v : {"nan", "inf", "-inf", "1e39", ""}) cases.push_back({With(base, "--x", v), "--x"});
  for (const char* v : {"0", "134217729", "-5"}) cases.push_back({With(base, "--n", v), "--n"});
  for (const char* flag : {"--x", "--sigma", "--levels", "--clip", "--n", "--seed"})
    cases.push_back({Without(base, flag), flag});
  cases.push_back({With(base, "--generator", "mt"), "--generator"});
  for (const auto& [args, flag] : cases) {
    std::string shown;
    for (const std::string& a : args) shown += "'" + a + "' ";
    const RunResult r = RunDpfl(args);
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << r.err;
    EXPECT_EQ(r.out, "") << shown;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << shown << "\n" << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << shown << "\n" << r.err;
  }
}

}  // namespace
