// dpfl-ref as a user scripts it: JSON shape, exactness, exit codes, and agreement of
// `dpfl-ref corbinq` with an independent brute-force model written here (the per-client
// form of spec 000 §3.2 on integer shared indices; it shares no code with the reference's
// closed form or its bit-vector transcription of Alg. 2).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include <boost/multiprecision/gmp.hpp>

#include "dpfl/ref/numbers.hpp"
#include "testing/subprocess.hpp"

namespace {

using nlohmann::json;
using Rational = boost::multiprecision::mpq_rational;
using Int = boost::multiprecision::mpz_int;

using dpfl::testing::RunResult;
RunResult RunDpflRef(const std::vector<std::string>& args) {
  return dpfl::testing::RunProgram(DPFL_REF_BINARY, args, ::testing::TempDir());
}

Rational Q(const std::string& s) {
  const auto slash = s.find('/');
  if (slash == std::string::npos) return Rational(Int(s));
  return Rational(Int(s.substr(0, slash)), Int(s.substr(slash + 1)));
}
std::string S(const Rational& x) {
  return denominator(x) == 1 ? numerator(x).str() : numerator(x).str() + "/" + denominator(x).str();
}

// Independent model: per-client CorBinQ over integer z ∈ {0..2^d−1}; floors by integer
// division of numerator and denominator. Returns P(Q1=s1, Q2=s2) keyed "--","-+","+-","++".
std::map<std::string, Rational> BruteForceJoint(const Rational& E, const Rational& c, const Rational& r,
                                                const Rational& w1, const Rational& w2, int d, bool as_printed) {
  const Rational alpha = (E + 1) / (E - 1);
  const Rational q1 = Rational(1, 2) + (w1 - c) / (2 * r * alpha);
  const Rational q2 = Rational(1, 2) + (w2 - c) / (2 * r * alpha);
  const long N = 1L << d;
  const Rational x1 = q1 * N, x2 = (1 - q2) * N;
  const long t1 = static_cast<long>(Int(numerator(x1) / denominator(x1)));  // x ≥ 0: truncation = floor
  const long t2 = static_cast<long>(Int(numerator(x2) / denominator(x2)));
  const Rational f1 = x1 - t1, f2 = x2 - t2;
  std::map<std::string, Rational> p = {{"--", 0}, {"-+", 0}, {"+-", 0}, {"++", 0}};
  for (long z = 0; z < N; ++z) {
    // Q1 role: + below its threshold cell, − above, private coin (P(+) = f1) inside.
    const Rational a = z < t1 ? Rational(1) : (z > t1 ? Rational(0) : f1);
    // Q2 role: − below its cell, + above, private coin (P(−) = f2) inside. The printed
    // line 14 sends z > t1 (instead of z > t2) to + once z ≥ t2.
    Rational b;
    if (z < t2) b = 0;
    else if (z > (as_printed ? t1 : t2)) b = 1;
    else b = 1 - f2;
    p["++"] += a * b / N;
    p["+-"] += a * (1 - b) / N;
    p["-+"] += (1 - a) * b / N;
    p["--"] += (1 - a) * (1 - b) / N;
  }
  return p;
}

TEST(DpflRefCli, CorBinQJsonShapeAndExactValues) {
  const RunResult r = RunDpflRef({"corbinq", "--E", "3", "--c", "0", "--r", "1", "--d", "2", "--w1", "-3/5", "--w2", "0.2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json j = json::parse(r.out);
  for (const char* key : {"alpha", "q1", "q2", "joint", "mean1", "mean2", "mse", "mse_min", "mse_independent",
                          "thm1_bound_as_printed", "thm1_bound_sharp"})
    EXPECT_TRUE(j.contains(key)) << key;
  for (const char* cell : {"--", "-+", "+-", "++"}) EXPECT_TRUE(j["joint"][cell].is_string()) << cell;
  // spec 000 §7.1 TV1.
  EXPECT_EQ(j["alpha"], "2");
  EXPECT_EQ(j["q1"], "7/20");
  EXPECT_EQ(j["q2"], "11/20");
  EXPECT_EQ(j["joint"]["--"], "3/25");
  EXPECT_EQ(j["joint"]["-+"], "53/100");
  EXPECT_EQ(j["joint"]["+-"], "33/100");
  EXPECT_EQ(j["joint"]["++"], "1/50");
  EXPECT_EQ(j["mean1"], "-3/5");
  EXPECT_EQ(j["mean2"], "1/5");
  EXPECT_EQ(j["mse"], "52/25");
  EXPECT_EQ(j["mse_min"], "36/25");
  EXPECT_EQ(j["mse_independent"], "38/5");
  EXPECT_EQ(j["thm1_bound_as_printed"], "1636/25");
  EXPECT_EQ(j["exact"], true);
}

TEST(DpflRefCli, LdpqKeysAndValues) {
  const RunResult r = RunDpflRef({"ldpq", "--E", "3", "--c", "0", "--r", "1", "--w", "0.5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["alpha"], "2");
  EXPECT_EQ(j["q_plus"], "5/8");
  EXPECT_EQ(j["mean"], "1/2");
  EXPECT_EQ(j["mse"], "15/4");
}

TEST(DpflRefCli, EpsGivesDecimalEnclosuresWithErrorBounds) {
  const RunResult r = RunDpflRef({"ldpq", "--eps", "1", "--c", "0", "--r", "1", "--w", "0.5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["exact"], false);
  EXPECT_EQ(j["precision_bits"], 256);
  // α(1) = coth(1/2) = 2.163953413738652848770004010218023117093… (40 significant digits).
  const std::string alpha = j["alpha"];
  EXPECT_EQ(alpha.substr(0, 36), "2.1639534137386528487700040102180231");
  EXPECT_GE(alpha.size(), 31u);
  // The stated bound is tiny: it prints as "X.YYe-Z" with Z ≥ 39.
  const std::string b = j["error_bound"]["alpha"];
  const auto e = b.find('e');
  ASSERT_NE(e, std::string::npos) << b;
  EXPECT_LE(std::stoi(b.substr(e + 1)), -39) << b;
}

TEST(DpflRefCli, EpsAtACellBoundaryIsUndecidableNotGuessed) {
  // At ε = ln 3 (α = 2) and w1 = 1/4, 2^4 q1 = 8 + 2/α = 9 is an integer. The decimal below
  // exceeds ln 3 by ≈ 2.5e-49: at 256 bits (radius ≈ 1e-77) the cell is decided (t1 = 9),
  const RunResult r = RunDpflRef({"corbinq", "--eps", "1.098612288668109691395245236922525704647490557823", "--c", "0",
                           "--r", "1", "--d", "4", "--w1", "1/4", "--w2", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // while at 32 bits the enclosure straddles 9: exit 3 and no JSON rather than a guess.
  const RunResult low = RunDpflRef({"corbinq", "--eps", "1.098612288668109691395245236922525704647490557823",
                             "--precision", "32", "--c", "0", "--r", "1", "--d", "4", "--w1", "1/4", "--w2", "0"});
  EXPECT_EQ(low.exit_code, 3) << low.out;
  EXPECT_EQ(low.out, "");
}

struct BadInput {
  const char* name;
  std::vector<std::string> args;
  const char* must_mention;
};

class DpflRefBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(DpflRefBadInput, ExitsTwoWithOneLineNamingTheArgument) {
  const BadInput& b = GetParam();
  const RunResult r = RunDpflRef(b.args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "") << "no partial JSON";
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "exactly one line: " << r.err;
  EXPECT_NE(r.err.find(b.must_mention), std::string::npos) << r.err;
}

std::vector<std::string> CorBinQArgs(std::vector<std::pair<std::string, std::string>> overrides) {
  std::vector<std::pair<std::string, std::string>> base = {
      {"--E", "3"}, {"--c", "0"}, {"--r", "1"}, {"--d", "3"}, {"--w1", "0.1"}, {"--w2", "-0.2"}};
  for (auto& [k, v] : overrides)
    for (auto& kv : base)
      if (kv.first == k) kv.second = v;
  std::vector<std::string> args = {"corbinq"};
  for (auto& [k, v] : base) {
    args.push_back(k);
    args.push_back(v);
  }
  return args;
}

const BadInput kBadInputs[] = {
    {"w1_above_range", CorBinQArgs({{"--w1", "1.5"}}), "--w1"},
    {"w2_below_range", CorBinQArgs({{"--w2", "-1.0001"}}), "--w2"},
    {"r_zero", CorBinQArgs({{"--r", "0"}}), "--r"},
    {"r_negative", CorBinQArgs({{"--r", "-1"}}), "--r"},
    {"E_one", CorBinQArgs({{"--E", "1"}}), "--E"},
    {"E_below_one", CorBinQArgs({{"--E", "1/2"}}), "--E"},
    {"d_negative", CorBinQArgs({{"--d", "-1"}}), "--d"},
    {"d_too_large", CorBinQArgs({{"--d", "63"}}), "--d"},
    {"d_not_integer", CorBinQArgs({{"--d", "2.5"}}), "--d"},
    {"malformed_w1", CorBinQArgs({{"--w1", "abc"}}), "--w1"},
    {"nan_c", CorBinQArgs({{"--c", "nan"}}), "--c"},
    {"inf_r", CorBinQArgs({{"--r", "inf"}}), "--r"},
    {"zero_denominator", CorBinQArgs({{"--E", "3/0"}}), "--E"},
    {"empty_number", CorBinQArgs({{"--w2", ""}}), "--w2"},
    {"unknown_flag", {"corbinq", "--E", "3", "--c", "0", "--r", "1", "--d", "3", "--w1", "0", "--w2", "0", "--bogus", "1"}, "--bogus"},
    {"missing_flag", {"corbinq", "--E", "3", "--c", "0", "--r", "1", "--d", "3", "--w1", "0"}, "--w2"},
    {"bad_variant", CorBinQArgs({}) /* replaced below */, "--variant"},
    {"eps_and_E", {"ldpq", "--E", "3", "--eps", "1", "--c", "0", "--r", "1", "--w", "0"}, "--"},
    {"eps_zero", {"ldpq", "--eps", "0", "--c", "0", "--r", "1", "--w", "0"}, "--eps"},
    {"eps_negative", {"ldpq", "--eps", "-0.5", "--c", "0", "--r", "1", "--w", "0"}, "--eps"},
    {"no_privacy_flag", {"ldpq", "--c", "0", "--r", "1", "--w", "0"}, "--E"},
    {"ldpq_w_outside", {"ldpq", "--E", "2", "--c", "1", "--r", "1/2", "--w", "2"}, "--w"},
    {"unknown_subcommand", {"frobnicate"}, "frobnicate"},
    {"no_subcommand", {}, "subcommand"},
};

std::vector<BadInput> BadInputCases() {
  std::vector<BadInput> cases(std::begin(kBadInputs), std::end(kBadInputs));
  for (BadInput& b : cases)
    if (std::string(b.name) == "bad_variant") {
      b.args.push_back("--variant");
      b.args.push_back("printed");
    }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, DpflRefBadInput, ::testing::ValuesIn(BadInputCases()),
                         [](const auto& info) { return std::string(info.param.name); });

// Bad input is one short line (docs/reference.md "Exit codes"; fuzz/README.md F3): a huge exact
// value is echoed rounded, not as 100,000 digits.
TEST(DpflRefCli, HugeValuesAreEchoedShort) {
  const RunResult r = RunDpflRef({"ldpq", "--eps", "1", "--c", "0", "--r", "1", "--w", "1e99999"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_LT(r.err.size(), 300u) << r.err.substr(0, 300);
  EXPECT_NE(r.err.find("≈1e99999"), std::string::npos) << r.err.substr(0, 300);
}

TEST(DpflRefCli, HelpExitsZero) {
  const RunResult r = RunDpflRef({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("corbinq"), std::string::npos);
  const RunResult sub = RunDpflRef({"corbinq", "--help"});
  EXPECT_EQ(sub.exit_code, 0);
  EXPECT_NE(sub.out.find("--variant"), std::string::npos);
}

// The other subcommands through the binary, against spec vectors (spec 001 Appendix A row 1;
// spec 000 §7.1 Thm 2/3 and E12 checks).
TEST(DpflRefCli, CoqAppendixARow1) {
  const RunResult r = RunDpflRef({"coq", "--E", "3", "--c", "0", "--r", "1", "--wA", "1/2", "--wB", "-1/4", "--d", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["joint"]["++"], "3/32");
  EXPECT_EQ(j["joint"]["+-"], "17/32");
  EXPECT_EQ(j["joint"]["-+"], "11/32");
  EXPECT_EQ(j["joint"]["--"], "1/32");
  EXPECT_EQ(j["cov"], "-23/8");
  EXPECT_EQ(j["var_sum"], "31/16");
  EXPECT_EQ(j["ideal"]["var_sum"], "15/16");
  EXPECT_EQ(j["var_sum_independent"], "123/16");
  // E1: the as-printed ProbabilityList shifts Alice's marginal by −2^−d.
  const RunResult printed = RunDpflRef(
      {"coq", "--E", "3", "--c", "0", "--r", "1", "--wA", "1/2", "--wB", "-1/4", "--d", "2", "--list", "as-printed"});
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_EQ(json::parse(printed.out)["marginal_A_plus"], "3/8");
}

TEST(DpflRefCli, Thm2AndE12SpecValues) {
  const RunResult t2 = RunDpflRef({"thm2", "--E", "3", "--r", "1", "--n", "10"});
  ASSERT_EQ(t2.exit_code, 0) << t2.err;
  const json j = json::parse(t2.out);
  EXPECT_EQ(j["bound_as_printed"], "7/20");
  EXPECT_EQ(j["bound_corrected_proof"], "3/10");
  EXPECT_EQ(j["bound_tight"], "1/5");
  const RunResult e12 = RunDpflRef({"e12", "--E", "3", "--c", "0", "--r", "1", "--w1", "1/2", "--w2", "1/2"});
  ASSERT_EQ(e12.exit_code, 0) << e12.err;
  const json k = json::parse(e12.out);
  EXPECT_EQ(k["gamma1"], "-2");
  EXPECT_EQ(k["gamma2"], "3");
  EXPECT_EQ(k["first_failing_d"], 7);
}

TEST(DpflRefCli, Thm3EpsUSpecDigits) {
  const RunResult r = RunDpflRef(
      {"thm3", "--eps", "1", "--n", "100000", "--gamma", "0.2", "--m", "1000", "--delta", "1e-6", "--r", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  // spec 000 §7.1: printed 4.9109454149485, re-derived 3.08524217661346.
  auto rounded = [](const json& v, int digits) {
    return dpfl::ref::ToDecimalString(dpfl::ref::ParseRational(v.get<std::string>(), "json"), digits);
  };
  EXPECT_EQ(rounded(j["eps_u_as_printed"], 14), "4.9109454149485");
  EXPECT_EQ(rounded(j["eps_u_corrected"], 15), "3.08524217661346");
  EXPECT_NE(j["adjacency"].get<std::string>().find("replace-one"), std::string::npos);
}

TEST(DpflRefCli, AggregateIsUnbiasedAndExact) {
  const RunResult r = RunDpflRef({"aggregate", "--E", "3", "--c", "0", "--r", "1", "--d", "3", "--weights",
                                  "0.5,-0.25,0.1,1,-1", "--pairs", "0-1,2-3", "--solo", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["bias"], "0");
  EXPECT_EQ(j["mse"], j["mse_closed_form"]);
}

const BadInput kOtherBadInputs[] = {
    {"coq_px_one", {"coq", "--E", "3", "--c", "0", "--r", "1", "--wA", "0", "--wB", "0", "--d", "2", "--px", "1"}, "--px"},
    {"coq_wB_outside", {"coq", "--E", "3", "--c", "0", "--r", "1", "--wA", "0", "--wB", "2", "--d", "2"}, "--wB"},
    {"thm3_delta_one", {"thm3", "--eps", "1", "--n", "1000", "--gamma", "0.2", "--m", "10", "--delta", "1", "--r", "1"}, "--delta"},
    {"thm3_gamma_zero", {"thm3", "--eps", "1", "--n", "1000", "--gamma", "0", "--m", "10", "--delta", "1e-6", "--r", "1"}, "--gamma"},
    {"thm4_p_zero", {"thm4", "--eps", "1", "--p", "0", "--n", "1000", "--delta", "1e-5", "--delta1", "1e-6", "--r", "1", "--m", "10"}, "--p"},
    {"thm4_delta1_above_delta", {"thm4", "--eps", "1", "--p", "0.1", "--n", "1000", "--delta", "1e-5", "--delta1", "1e-4", "--r", "1", "--m", "10"}, "--delta1"},
    {"thm2_n_odd", {"thm2", "--E", "3", "--r", "1", "--n", "11"}, "--n"},
    {"aggregate_client_twice", {"aggregate", "--E", "3", "--c", "0", "--r", "1", "--d", "3", "--weights", "0,0", "--pairs", "0-1", "--solo", "1"}, "--"},
    {"aggregate_malformed_pairs", {"aggregate", "--E", "3", "--c", "0", "--r", "1", "--d", "3", "--weights", "0,0", "--pairs", "0+1"}, "--pairs"},
};
INSTANTIATE_TEST_SUITE_P(Other, DpflRefBadInput, ::testing::ValuesIn(kOtherBadInputs),
                         [](const auto& info) { return std::string(info.param.name); });

// Random rational instances, both variants: every joint cell and the MSE printed by the CLI
// equal the independent brute-force model exactly.
TEST(DpflRefCli, CorBinQAgreesWithIndependentBruteForce) {
  std::mt19937_64 rng(20261121);
  auto uniform = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
  int checked = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Rational E = 1 + Rational(uniform(1, 40), uniform(1, 40));
    const Rational c(uniform(-8, 8), 4), r(uniform(1, 20), uniform(1, 6));
    const long den = uniform(1, 40);
    const Rational w1 = c - r + 2 * r * Rational(uniform(0, den), den);
    const Rational w2 = c - r + 2 * r * Rational(uniform(0, den), den);
    const int d = static_cast<int>(uniform(0, 10));
    const bool as_printed = trial % 2 == 1;
    const RunResult res = RunDpflRef({"corbinq", "--E", S(E), "--c", S(c), "--r", S(r), "--d", std::to_string(d), "--w1",
                               S(w1), "--w2", S(w2), "--variant", as_printed ? "as-printed" : "corrected"});
    ASSERT_EQ(res.exit_code, 0) << res.err;
    const json j = json::parse(res.out);
    const auto expected = BruteForceJoint(E, c, r, w1, w2, d, as_printed);
    for (const auto& [cell, p] : expected) EXPECT_EQ(Q(j["joint"][cell]), p) << cell << " trial " << trial;
    const Rational alpha = (E + 1) / (E - 1), ra = r * alpha, s = w1 + w2 - 2 * c;
    const Rational mse = expected.at("--") * (-2 * ra - s) * (-2 * ra - s) +
                         expected.at("++") * (2 * ra - s) * (2 * ra - s) +
                         (expected.at("-+") + expected.at("+-")) * s * s;
    EXPECT_EQ(Q(j["mse"]), mse) << "trial " << trial;
    ++checked;
  }
  EXPECT_EQ(checked, 120);
}

}  // namespace
