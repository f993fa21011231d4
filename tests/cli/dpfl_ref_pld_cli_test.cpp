// dpfl-ref pld * and calibrate gaussian-analytic --sigma through the real binary: the issue's
// "Must show" commands print epsilon_lo/epsilon_hi (or delta_lo/delta_hi) as outward-rounded
// decimal strings with the true value inside (closed forms computed here in double, with a margin
// far below the enclosures' widths, or published dp_accounting numbers), every output names its
// adjacency, and bad input exits 2 naming the flag.
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "dpfl/ref/numbers.hpp"
#include "testing/cli_helpers.hpp"

namespace {

using nlohmann::json;
using dpfl::ref::Rational;
using dpfl::testing::BadInput;
using dpfl::testing::CliArgs;

Rational R(const std::string& s) { return dpfl::ref::ParseRational(s, "test"); }
json Ok(const CliArgs& args) { return dpfl::testing::RunOk(DPFL_REF_BINARY, args); }

double Phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
// Balle–Wang δ(ε) of a Gaussian with μ = Δ/σ (independent double model).
double GaussDelta(double eps, double mu) { return Phi(-eps / mu + mu / 2) - std::exp(eps) * Phi(-eps / mu - mu / 2); }
// ε with GaussDelta(ε) = δ, by bisection in double (accurate to ~1e-12 here).
double GaussEps(double delta, double mu) {
  double lo = 0, hi = 100;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (GaussDelta(mid, mu) > delta ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

// lo ≤ truth ≤ hi with a margin for the double model; the printed ends are decimal strings.
void ExpectEncloses(const json& j, const std::string& lo_key, const std::string& hi_key, double truth,
                    double margin) {
  ASSERT_TRUE(j.contains(lo_key) && j.contains(hi_key)) << j.dump();
  const Rational lo = R(j[lo_key].get<std::string>()), hi = R(j[hi_key].get<std::string>());
  EXPECT_LE(lo, hi);
  EXPECT_LE(lo.convert_to<double>(), truth + margin) << j.dump();
  EXPECT_GE(hi.convert_to<double>(), truth - margin) << j.dump();
}

TEST(PldCli, GaussianComposedEpsilonEnclosesTheClosedForm) {
  const json j = Ok({"pld", "gaussian", "--sigma", "20", "--sensitivity", "1", "--compositions", "1000", "--delta",
                     "1e-5"});
  ExpectEncloses(j, "epsilon_lo", "epsilon_hi", GaussEps(1e-5, std::sqrt(1000.0) / 20), 1e-9);
  EXPECT_LE(R(j["relative_width"].get<std::string>()), R("0.01"));
  EXPECT_EQ(j["compositions"], 1000);
  EXPECT_EQ(j["log"], "natural");
  EXPECT_NE(j["adjacency"].get<std::string>().find("add/remove"), std::string::npos);
  EXPECT_TRUE(j["cpu_seconds"].is_number());
}

TEST(PldCli, GaussianDeltaForEpsilonAndReplaceOneLabel) {
  const json j = Ok({"pld", "gaussian", "--sigma", "2", "--compositions", "4", "--epsilon", "1", "--adjacency",
                     "replace-one"});
  ExpectEncloses(j, "delta_lo", "delta_hi", GaussDelta(1, 1.0), 1e-12);
  EXPECT_NE(j["adjacency"].get<std::string>().find("replace one"), std::string::npos);
}

// The discrete Gaussian at σ = N = 2^15 is the continuous μ = 1 Gaussian up to its lattice (the
// exact one-release check against Canonne-Kamath-Steinke's closed form is in
// pld_discrete_gaussian_test); the discrete Laplace at t = N is pure 1-DP, so δ(1) = 0.
TEST(PldCli, DiscreteNoisesOfTheBaselines) {
  const json g = Ok({"pld", "discrete-gaussian", "--sigma2", "1073741824", "--sensitivity", "32768", "--compositions",
                     "4", "--epsilon", "1"});
  ExpectEncloses(g, "delta_lo", "delta_hi", GaussDelta(1, 2.0), 1e-3);
  EXPECT_EQ(g["mechanism"], "discrete-gaussian");
  EXPECT_NE(g["adjacency"].get<std::string>().find("replace one"), std::string::npos);
  const json l = Ok({"pld", "discrete-laplace", "--t", "64", "--sensitivity", "64", "--epsilon", "1"});
  EXPECT_EQ(R(l["delta_lo"].get<std::string>()), 0) << l.dump();
  EXPECT_LE(R(l["delta_hi"].get<std::string>()), R("1e-12")) << l.dump();
}

TEST(PldCli, CalibrateGaussianAnalyticFromSigma) {
  // σ = 3.7306316348… calibrates ε = 1 at δ = 1e-5 (docs/accounting.md); the inverse must give 1.
  const json j = Ok({"calibrate", "gaussian-analytic", "--sigma", "3.730631634815941832249822575037427818843",
                     "--delta", "1e-5"});
  ExpectEncloses(j, "epsilon_lo", "epsilon_hi", 1.0, 1e-12);
  EXPECT_LE(R(j["epsilon_hi"].get<std::string>()) - R(j["epsilon_lo"].get<std::string>()), R("1e-15"));
  const json k = Ok({"calibrate", "gaussian-analytic", "--sigma", "1", "--delta", "1e-5", "--sensitivity", "2"});
  ExpectEncloses(k, "epsilon_lo", "epsilon_hi", GaussEps(1e-5, 2.0), 1e-9);
}

// dp_accounting privacy_loss_mechanism_test.py: Laplace b = 2, Δ = 4, ε = 0.5 → 0.5276334473;
// subsampled (q = 0.8) REMOVE → 0.4039564635032081 (the worse direction, which pld prints).
TEST(PldCli, LaplacePlainAndSubsampled) {
  const json plain = Ok({"pld", "laplace", "--b", "2", "--sensitivity", "4", "--epsilon", "0.5"});
  ExpectEncloses(plain, "delta_lo", "delta_hi", 1 - std::exp((0.5 - 2) / 2), 1e-12);
  const json sub = Ok({"pld", "laplace", "--b", "2", "--sensitivity", "4", "--sampling-rate", "0.8", "--epsilon",
                       "0.5", "--relative-width", "0.001"});
  ExpectEncloses(sub, "delta_lo", "delta_hi", 0.4039564635032081, 1e-7);
}

TEST(PldCli, SubsampledGaussianDpSgd) {
  // tensorflow/privacy compute_dp_sgd_privacy_test.py: q = 0.01, σ = 0.7, 120 steps, δ = 1e-5,
  // dp_accounting PLD (pessimistic, grid 1e-4): 2.4612381, within its discretization error.
  const json j = Ok({"pld", "gaussian", "--sigma", "0.7", "--sampling-rate", "0.01", "--compositions", "120",
                     "--delta", "1e-5"});
  ExpectEncloses(j, "epsilon_lo", "epsilon_hi", 2.4612381, 0.012);
  EXPECT_LE(R(j["epsilon_lo"].get<std::string>()), R("2.4612381"));
}

TEST(PldCli, RandomizedResponseComposedMatchesBinomialSum) {
  const json j = Ok({"pld", "randomized-response", "--p", "0.75", "--compositions", "20", "--epsilon", "1"});
  double exact = 0;  // Σ_j C(20,j) (p^j q^{20−j} − e q^j p^{20−j})_+
  for (int i = 0; i <= 20; ++i) {
    const double c = std::tgamma(21.0) / (std::tgamma(i + 1.0) * std::tgamma(21.0 - i));
    exact += c * std::max(0.0, std::pow(0.75, i) * std::pow(0.25, 20 - i) - std::exp(1.0) * std::pow(0.25, i) *
                                                                                 std::pow(0.75, 20 - i));
  }
  ExpectEncloses(j, "delta_lo", "delta_hi", exact, 1e-12);
}

TEST(PldCli, TwoPmfFileAndBinomial) {
  const std::string path = ::testing::TempDir() + "/pld_pmf.json";
  {
    std::ofstream f(path);
    f << R"({"p": ["3/4", "1/4"], "q": ["1/4", "3/4"]})";
  }
  const json j = Ok({"pld", "pmf", "--file", path, "--compositions", "20", "--epsilon", "1"});
  const json rr = Ok({"pld", "randomized-response", "--p", "0.75", "--compositions", "20", "--epsilon", "1"});
  // Same pair, both through exact rationals: the two enclosures overlap.
  EXPECT_LE(R(j["delta_lo"].get<std::string>()), R(rr["delta_hi"].get<std::string>()));
  EXPECT_LE(R(rr["delta_lo"].get<std::string>()), R(j["delta_hi"].get<std::string>()));
  // Binomial N = 1, p = 1/2, Δ = 1 is the pair ((0, 1/2, 1/2), (1/2, 1/2, 0)): infinite loss 1/2.
  const json b = Ok({"pld", "binomial", "--trials", "1", "--p", "0.5", "--delta", "0.1"});
  EXPECT_EQ(b["epsilon_lo"], "inf");
  EXPECT_EQ(b["epsilon_hi"], "inf");
}

// One solo client present with probability 1 − p: the observer sees randomized response or
// nothing, so δ(ε) = (1 − p)(q_hi − e^ε q_lo) below ln E; with E = 3, p = 1/2, δ = 1/10:
// e^ε = 3 − 4δ/(1 − p) = 2.2.
TEST(PldCli, CentralWithDropoutIsTheMixtureWithNothing) {
  const json j = Ok({"pld", "central", "--clients", "1", "--solo", "1", "--E", "3", "--delta", "0.1", "--dropout", "1/2"});
  ExpectEncloses(j, "epsilon_lo", "epsilon_hi", std::log(2.2), 1e-12);
  EXPECT_EQ(j["parameters"]["dropout"], "1/2");
  EXPECT_NE(j["observer"].get<std::string>().find("schedule"), std::string::npos);
  // Without dropout it is randomized response: e^ε = 3 − 4δ = 2.6.
  const json k = Ok({"pld", "central", "--clients", "1", "--solo", "1", "--E", "3", "--delta", "0.1"});
  ExpectEncloses(k, "epsilon_lo", "epsilon_hi", std::log(2.6), 1e-12);
}

// Seed 003 with k = 2 levels at ±C: stochastic rounding of clamp(x + σZ, −C, C) sends +C with
// probability P = (E[clamp] + C)/(2C), so the pair at x = ±C/2 is randomized response with
// P(+) = P vs 1 − P and ε(δ) = log((P − δ)/(1 − P)) for small δ; E[clamp] in closed form (double).
TEST(PldCli, QuantizedGaussianTwoLevelsIsRandomizedResponse) {
  const double sigma = 1, C = 2, mu = C / 2, a = (-C - mu) / sigma, b = (C - mu) / sigma;
  auto phi = [](double x) { return std::exp(-x * x / 2) / std::sqrt(2 * M_PI); };
  const double mean = -C * Phi(a) + C * (1 - Phi(b)) + mu * (Phi(b) - Phi(a)) + sigma * (phi(a) - phi(b));
  const double P = (mean + C) / (2 * C);
  const json j = Ok({"pld", "quantized-gaussian", "--sigma", "1", "--levels", "2", "--clip", "2", "--delta", "0.1",
                     "--relative-width", "0.001"});
  ExpectEncloses(j, "epsilon_lo", "epsilon_hi", std::log((P - 0.1) / (1 - P)), 1e-9);
  EXPECT_NE(j["worst_case"].get<std::string>().find("E10"), std::string::npos);
  // Post-processing: the quantized pair leaks no more than the Gaussian with Δ = C.
  EXPECT_LE(R(j["epsilon_lo"].get<std::string>()), R(j["epsilon_hi_unquantized_gaussian"].get<std::string>()));
  EXPECT_NEAR(R(j["epsilon_hi_unquantized_gaussian"].get<std::string>()).convert_to<double>(), GaussEps(0.1, C / sigma),
              0.02 * GaussEps(0.1, C / sigma));
}

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// Heterogeneous Gaussians compose to a Gaussian with μ² = Σ K_i Δ²/σ_i²: 10 × σ = 2 and 40 × σ = 4
// give μ = √5 (closed form, independent double model).
TEST(PldCli, ComposeHeterogeneousGaussiansMatchesTheClosedForm) {
  const std::string f = WriteFile("compose_gauss.json",
                                  R"({"mechanisms": [{"mechanism": "gaussian", "sigma": "2", "compositions": 10},
                                                     {"mechanism": "gaussian", "sigma": 4, "compositions": 40}]})");
  const json j = Ok({"pld", "compose", "--file", f, "--delta", "1e-5"});
  ExpectEncloses(j, "epsilon_lo", "epsilon_hi", GaussEps(1e-5, std::sqrt(5.0)), 1e-9);
  EXPECT_EQ(j["compositions"], 50);
  EXPECT_LE(R(j["relative_width"].get<std::string>()), R("0.01"));
}

// RR(3/4) twice and three times is RR(3/4) five times: δ(ε) = Σ_k C(5,k) (3/4)^k (1/4)^{5−k}
// (1 − e^{ε − (2k − 5) log 3})_+ (exact up to double rounding).
TEST(PldCli, ComposeSplitRandomizedResponseIsTheFiveFold) {
  const std::string f = WriteFile("compose_rr.json",
                                  R"({"mechanisms": [{"mechanism": "randomized-response", "p": "3/4", "compositions": 2},
                                                     {"mechanism": "randomized-response", "p": 0.75, "compositions": 3}]})");
  const json j = Ok({"pld", "compose", "--file", f, "--epsilon", "1", "--relative-width", "0.001"});
  double d = 0;
  for (int k = 0; k <= 5; ++k) {
    const double mass = std::tgamma(6) / (std::tgamma(k + 1) * std::tgamma(6 - k)) * std::pow(0.75, k) * std::pow(0.25, 5 - k);
    d += mass * std::max(0.0, 1 - std::exp(1 - (2 * k - 5) * std::log(3.0)));
  }
  ExpectEncloses(j, "delta_lo", "delta_hi", d, 1e-12);
  EXPECT_NE(j["adjacency"].get<std::string>().find("replace one"), std::string::npos);
}

// A binomial entry composed twice is the binomial command with --compositions 2 (both exact
// pmfs): the two enclosures overlap.
TEST(PldCli, ComposeBinomialAgreesWithTheBinomialCommand) {
  const std::string f = WriteFile("compose_binomial.json",
                                  R"({"mechanisms": [{"mechanism": "binomial", "trials": 10, "p": "1/2", "compositions": 2}]})");
  const json c = Ok({"pld", "compose", "--file", f, "--epsilon", "1"});
  const json b = Ok({"pld", "binomial", "--trials", "10", "--p", "1/2", "--compositions", "2", "--epsilon", "1"});
  EXPECT_LE(R(c["delta_lo"].get<std::string>()), R(b["delta_hi"].get<std::string>()));
  EXPECT_LE(R(b["delta_lo"].get<std::string>()), R(c["delta_hi"].get<std::string>()));
}

class PldBadInput : public ::testing::TestWithParam<BadInput> {};
TEST_P(PldBadInput, ExitsTwoWithOneLineNamingTheFlag) { dpfl::testing::ExpectRejected(DPFL_REF_BINARY, GetParam()); }

std::vector<BadInput> Cases() {
  using dpfl::testing::WithFlag;
  const CliArgs g = {"pld", "gaussian", "--sigma", "1", "--delta", "1e-5"};
  const CliArgs ca = {"calibrate", "gaussian-analytic", "--sigma", "1", "--delta", "1e-5"};
  const std::string missing = ::testing::TempDir() + "/no_such_pmf.json";
  // Cases() runs in every test process (ctest runs them in parallel), so each writes these files:
  // to a file of its own first, then renamed into place (atomic), so that no process ever reads a
  // file another one is still writing (a CI run once read an empty c8.json).
  auto file = [](const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "/" + name;
    const std::string tmp = path + ".tmp" + std::to_string(::getpid());
    std::ofstream(tmp) << text;
    std::rename(tmp.c_str(), path.c_str());
    return path;
  };
  auto compose = [&](const std::string& name, const std::string& text) {
    return CliArgs{"pld", "compose", "--file", file(name, text), "--delta", "1e-5"};
  };
  return {
      {"sigma_zero", WithFlag(g, "--sigma", "0"), "sigma"},
      {"delta_one", WithFlag(g, "--delta", "1"), "--delta"},
      {"delta_nan", WithFlag(g, "--delta", "nan"), "--delta"},
      {"delta_and_epsilon", WithFlag(g, "--epsilon", "1"), "--"},
      {"neither_delta_nor_epsilon", {"pld", "gaussian", "--sigma", "1"}, "--delta"},
      {"compositions_zero", WithFlag(g, "--compositions", "0"), "--compositions"},
      {"compositions_fraction", WithFlag(g, "--compositions", "2.5"), "--compositions"},
      {"rate_above_one", WithFlag(g, "--sampling-rate", "1.5"), "q"},
      {"replace_one_sampled", WithFlag(WithFlag(g, "--sampling-rate", "0.1"), "--adjacency", "replace-one"),
       "--adjacency"},
      {"adjacency_unknown", WithFlag(g, "--adjacency", "swap"), "--adjacency"},
      {"step_zero", WithFlag(g, "--step", "0"), "--step"},
      {"width_one", WithFlag(g, "--relative-width", "1"), "--relative-width"},
      {"rr_p_half", {"pld", "randomized-response", "--p", "0.5", "--delta", "1e-5"}, "p"},
      {"rr_sampled", {"pld", "randomized-response", "--p", "0.6", "--delta", "1e-5", "--sampling-rate", "0.1"},
       "--sampling-rate"},
      {"rr_add_remove", {"pld", "randomized-response", "--p", "0.6", "--delta", "1e-5", "--adjacency", "add-remove"},
       "--adjacency"},
      {"binomial_trials", {"pld", "binomial", "--trials", "0", "--p", "0.5", "--delta", "1e-5"}, "--trials"},
      {"binomial_shift", {"pld", "binomial", "--trials", "4", "--p", "0.5", "--sensitivity", "5", "--delta", "1e-5"},
       "--sensitivity"},
      {"pmf_missing_file", {"pld", "pmf", "--file", missing, "--delta", "1e-5"}, "--file"},
      {"cal_sigma_and_eps", WithFlag(ca, "--eps", "1"), "--"},
      {"cal_sigma_zero", WithFlag(ca, "--sigma", "0"), "sigma"},
      {"pld_without_subcommand", {"pld"}, "subcommand"},
      {"dg_sigma2_zero", {"pld", "discrete-gaussian", "--sigma2", "0", "--sensitivity", "3", "--delta", "1e-5"}, "sigma2"},
      {"dg_fractional_shift", {"pld", "discrete-gaussian", "--sigma2", "4", "--sensitivity", "2.5", "--delta", "1e-5"},
       "--sensitivity"},
      {"dg_sampled", {"pld", "discrete-gaussian", "--sigma2", "4", "--sampling-rate", "0.5", "--delta", "1e-5"},
       "--sampling-rate"},
      {"dl_t_negative", {"pld", "discrete-laplace", "--t", "-1", "--delta", "1e-5"}, "t"},
      {"compose_not_json", compose("c1.json", "{mechanisms"), "--file"},
      {"compose_empty", compose("c2.json", R"({"mechanisms": []})"), "--file"},
      {"compose_unknown_mechanism", compose("c3.json", R"({"mechanisms": [{"mechanism": "cauchy"}]})"), "--file"},
      {"compose_unknown_key", compose("c4.json", R"({"mechanisms": [{"mechanism": "gaussian", "sigma": 1, "mu": 2}]})"),
       "--file"},
      {"compose_zero_compositions",
       compose("c5.json", R"({"mechanisms": [{"mechanism": "gaussian", "sigma": 1, "compositions": 0}]})"), "--file"},
      {"compose_missing_sigma", compose("c6.json", R"({"mechanisms": [{"mechanism": "gaussian"}]})"), "--file"},
      {"compose_rr_and_sampling",
       compose("c7.json", R"({"mechanisms": [{"mechanism": "randomized-response", "p": "3/4"},
                                             {"mechanism": "gaussian", "sigma": 1, "sampling_rate": "0.1"}]})"),
       "--file"},
      {"compose_binomial_shift",
       compose("c11.json", R"({"mechanisms": [{"mechanism": "binomial", "trials": 4, "p": "1/2", "sensitivity": 5}]})"),
       "sensitivity"},
      {"compose_sigma_zero", compose("c8.json", R"({"mechanisms": [{"mechanism": "gaussian", "sigma": 0}]})"), "sigma"},
      {"compose_pmf_not_summing",
       compose("c9.json", R"({"mechanisms": [{"mechanism": "pmf", "p": ["1/2"], "q": ["1"]}]})"), "p"},
      {"compose_global_compositions", WithFlag(compose("c10.json", R"({"mechanisms": [{"mechanism": "gaussian", "sigma": 1}]})"),
                                               "--compositions", "3"),
       "--compositions"},
      {"compose_missing_file", {"pld", "compose", "--file", missing, "--delta", "1e-5"}, "--file"},
      {"pmf_unknown_key", {"pld", "pmf", "--file", file("p1.json", R"({"p": ["1"], "q": ["1"], "r": 1})"), "--delta", "1e-5"},
       "--file"},
      {"qg_one_level", {"pld", "quantized-gaussian", "--sigma", "1", "--levels", "1", "--delta", "1e-5"}, "levels"},
      {"qg_sigma_zero", {"pld", "quantized-gaussian", "--sigma", "0", "--levels", "4", "--delta", "1e-5"}, "sigma"},
      {"qg_sampled", {"pld", "quantized-gaussian", "--sigma", "1", "--levels", "4", "--delta", "1e-5", "--sampling-rate", "0.1"},
       "--sampling-rate"},
      {"central_pairs_unknown",
       {"pld", "central", "--clients", "2", "--solo", "0", "--E", "3", "--delta", "0.1", "--pairs", "cq"}, "--pairs"},
      {"central_dropout_one", {"pld", "central", "--clients", "2", "--solo", "2", "--E", "3", "--delta", "0.1", "--dropout", "1"},
       "--dropout"},
      {"central_dropout_negative",
       {"pld", "central", "--clients", "2", "--solo", "2", "--E", "3", "--delta", "0.1", "--dropout", "-0.5"}, "--dropout"},
  };
}
INSTANTIATE_TEST_SUITE_P(AllPldCommands, PldBadInput, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace

namespace {

// pld calibrate: the bracket holds the analytic σ = 3.7306316… of (1, 1e-5) for one Gaussian, is at
// most the tolerance wide, and bad flags exit 2 naming them. --discretization is checked too.
TEST(PldCli, CalibrateBracketsTheAnalyticSigmaAndNamesBadFlags) {
  const json j = Ok({"pld", "calibrate", "--epsilon", "1", "--delta", "1e-5", "--tolerance", "0.005"});
  const Rational lo = R(j["sigma_lo"].get<std::string>()), hi = R(j["sigma_hi"].get<std::string>());
  EXPECT_LE(lo, R("3.7306316348"));
  EXPECT_GE(hi, R("3.7306316349"));
  EXPECT_LE(hi - lo, hi * R("0.005"));
  EXPECT_GT(j["evaluations"].get<int>(), 3);
  BadInput(DPFL_REF_BINARY, {"pld", "calibrate", "--epsilon", "0", "--delta", "1e-5"}, "--epsilon");
  BadInput(DPFL_REF_BINARY, {"pld", "calibrate", "--epsilon", "1", "--delta", "2"}, "--delta");
  BadInput(DPFL_REF_BINARY, {"pld", "calibrate", "--epsilon", "1", "--delta", "1e-5", "--sampling-rate", "0"},
           "--sampling-rate");
  BadInput(DPFL_REF_BINARY, {"pld", "calibrate", "--epsilon", "1", "--delta", "1e-5", "--tolerance", "1"}, "--tolerance");
  BadInput(DPFL_REF_BINARY, {"pld", "gaussian", "--sigma", "1", "--delta", "1e-5", "--discretization", "exact"},
           "--discretization");
}

// Both discretizations through the CLI enclose the closed form of 64 Gaussian steps (μ = 2), and
// connect-the-dots is the narrower at the same step.
TEST(PldCli, BothDiscretizationsEncloseTheGaussianAndConnectDotsIsNarrower) {
  const json c = Ok({"pld", "gaussian", "--sigma", "4", "--compositions", "64", "--delta", "1e-5", "--step", "1/256"});
  const json r = Ok({"pld", "gaussian", "--sigma", "4", "--compositions", "64", "--delta", "1e-5", "--step", "1/256",
                     "--discretization", "rounding"});
  const double truth = GaussEps(1e-5, 2.0);
  ExpectEncloses(c, "epsilon_lo", "epsilon_hi", truth, 1e-9);
  ExpectEncloses(r, "epsilon_lo", "epsilon_hi", truth, 1e-9);
  EXPECT_EQ(c["discretization"], "connect-dots");
  EXPECT_EQ(r["discretization"], "rounding");
  auto width = [](const json& j) { return R(j["epsilon_hi"].get<std::string>()) - R(j["epsilon_lo"].get<std::string>()); };
  EXPECT_LT(width(c) * 10, width(r));
}

}  // namespace
