// dpfl-ref's accounting subcommands as a user scripts them (rdp *, accountant, calibrate *, bnn*,
// cepam *, binomial-mechanism): JSON shape (every output names its adjacency and carries an
// error_bound per enclosed value), published and spec values through the binary, independent
// double-precision checks written here, and a bad-input table for every subcommand (exit 2, one
// line on stderr naming the flag, nothing on stdout).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include <boost/multiprecision/gmp.hpp>

#include "dpfl/ref/numbers.hpp"
#include "testing/cli_helpers.hpp"

namespace {

using nlohmann::json;
using Rational = boost::multiprecision::mpq_rational;
using Int = boost::multiprecision::mpz_int;
using Args = std::vector<std::string>;

Rational R(const std::string& s) { return dpfl::ref::ParseRational(s, "test"); }

// Runs a command that must succeed and returns its JSON.
json Ok(const std::vector<std::string>& args) { return dpfl::testing::RunOk(DPFL_REF_BINARY, args); }

// A json member by a dotted path ("precondition.lhs").
const json& At(const json& j, const std::string& path) {
  const json* node = &j;
  size_t start = 0;
  while (true) {
    const size_t dot = path.find('.', start);
    node = &node->at(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return *node;
    start = dot + 1;
  }
}

// The enclosure [value − bound, value + bound] printed for `key`.
struct Printed {
  Rational lo, hi;
};
Printed Enclosed(const json& j, const std::string& key) {
  const Rational v = R(At(j, key).get<std::string>());
  const Rational b = R(At(j["error_bound"], key).get<std::string>());
  EXPECT_GE(b, 0) << key;
  return {v - b, v + b};
}
double Mid(const json& j, const std::string& key) {
  return static_cast<double>(R(At(j, key).get<std::string>()));
}

// Half a unit in the last place of a printed decimal ("2.18075656e-3", "0.747928").
Rational HalfUlp(const std::string& printed) {
  const size_t e = printed.find_first_of("eE");
  const std::string mantissa = printed.substr(0, e);
  const long exponent = e == std::string::npos ? 0 : std::stol(printed.substr(e + 1));
  const size_t dot = mantissa.find('.');
  const long decimals = dot == std::string::npos ? 0 : static_cast<long>(mantissa.size() - dot - 1);
  const long p = exponent - decimals;
  Rational ulp(1);
  for (long i = 0; i < std::labs(p); ++i) ulp = p < 0 ? Rational(ulp / 10) : Rational(ulp * 10);
  return ulp / 2;
}
// The printed enclosure (scaled by `factor`) rounds to `printed` at its digits.
void ExpectPrinted(const json& j, const std::string& key, const std::string& printed, const Rational& factor = 1) {
  const Printed v = Enclosed(j, key);
  const Rational p = R(printed), tol = HalfUlp(printed);
  EXPECT_TRUE(factor * v.lo >= p - tol && factor * v.hi <= p + tol)
      << key << ": [" << dpfl::ref::ToDecimalString(factor * v.lo, 20) << ", "
      << dpfl::ref::ToDecimalString(factor * v.hi, 20) << "] does not round to " << printed;
}
void ExpectRel(const json& j, const std::string& key, double expected, double rel) {
  EXPECT_NEAR(Mid(j, key), expected, rel * std::fabs(expected)) << key;
}

// Every accounting output (docs/accounting.md "Conventions"): adjacency named, natural logs,
// 256-bit default, decimals with ≥ 30 significant digits and an error bound for each enclosed key
// in `keys`.
void ExpectShape(const json& j, const std::vector<std::string>& keys) {
  ASSERT_TRUE(j.contains("adjacency"));
  EXPECT_FALSE(j["adjacency"].get<std::string>().empty());
  EXPECT_EQ(j["log"], "natural");
  EXPECT_EQ(j["exact"], false);
  EXPECT_EQ(j["precision_bits"], 256);
  for (const std::string& key : keys) {
    const std::string v = At(j, key).get<std::string>();
    size_t digits = 0;
    bool leading = true;
    for (char ch : v.substr(0, v.find_first_of("eE"))) {
      if (ch < '0' || ch > '9') continue;
      if (ch != '0') leading = false;
      if (!leading) ++digits;
    }
    ASSERT_TRUE(At(j["error_bound"], key).is_string()) << key;
    // ≥ 30 significant digits, unless trailing zeros were dropped from a 40-digit rounding of
    // an exactly known value (then the stated bound is below 1e-38 relative).
    const Rational bound = R(At(j["error_bound"], key).get<std::string>());
    EXPECT_TRUE(digits >= 30 || bound <= R("1e-38") * abs(R(v))) << key << " = " << v << " +- " << bound;
  }
}

// ---- independent double-precision models (written here, not shared with the reference) -------
double LogSumExp(const std::vector<double>& v) {
  double m = -std::numeric_limits<double>::infinity();
  for (double x : v) m = std::max(m, x);
  double s = 0;
  for (double x : v) s += std::exp(x - m);
  return m + std::log(s);
}
// Integer-order sampled Gaussian RDP: log Σ_k C(α,k) (1−q)^{α−k} q^k e^{(k²−k)/(2σ²)} / (α − 1).
double SgmRdpInt(double q, double sigma, int alpha) {
  std::vector<double> logs;
  for (int k = 0; k <= alpha; ++k)
    logs.push_back(std::lgamma(alpha + 1.0) - std::lgamma(k + 1.0) - std::lgamma(alpha - k + 1.0) +
                   (alpha - k) * std::log1p(-q) + k * std::log(q) + (k * k - k) / (2 * sigma * sigma));
  return LogSumExp(logs) / (alpha - 1);
}
double Phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// ---- rdp gaussian / laplace / randomized-response ----------------------------------------------
TEST(AccountingCli, RdpGaussianIsExact) {
  const json j = Ok({"rdp", "gaussian", "--sigma", "2", "--order", "3"});
  ExpectShape(j, {"value"});
  EXPECT_EQ(j["value_exact"], "3/8");  // α Δ²/(2σ²)
  EXPECT_EQ(R(j["value"].get<std::string>()), Rational(3, 8));
  const json k = Ok({"rdp", "gaussian", "--sigma", "1/2", "--order", "2.5", "--sensitivity", "3"});
  EXPECT_EQ(k["value_exact"], "45");
  EXPECT_NE(k["adjacency"].get<std::string>().find("sensitivity"), std::string::npos);
}

TEST(AccountingCli, RdpLaplaceMatchesMironovClosedForm) {
  for (const char* order : {"2", "1.5", "7"}) {
    const json j = Ok({"rdp", "laplace", "--b", "2", "--order", order});
    ExpectShape(j, {"value", "kl"});
    const double a = std::stod(order), b = 2;
    const double want = std::log(a / (2 * a - 1) * std::exp((a - 1) / b) + (a - 1) / (2 * a - 1) * std::exp(-a / b)) / (a - 1);
    ExpectRel(j, "value", want, 1e-13);
    ExpectRel(j, "kl", 1 / b + std::exp(-1 / b) - 1, 1e-13);  // Mironov 2017 Table II, α → 1
    EXPECT_EQ(R(j["pure_epsilon"].get<std::string>()), Rational(1, 2));
  }
}

TEST(AccountingCli, RdpRandomizedResponseSpec004) {
  // spec 004 §7.2: γ = 0.1 (p = 0.6): ρ(2) = ln(7/6) = 0.154150679827258, S(2) = 7/6; table row
  // KL 0.08109302162, ρ(1.5) 0.1192634208, ρ(∞) 0.4054651081.
  const json j = Ok({"rdp", "randomized-response", "--p", "0.6", "--order", "2"});
  ExpectShape(j, {"value", "kl", "infinity"});
  ExpectPrinted(j, "value", "0.154150679827258");
  EXPECT_EQ(j["S_exact"], "7/6");
  ExpectPrinted(j, "kl", "0.08109302162");
  ExpectPrinted(j, "infinity", "0.4054651081");
  ExpectPrinted(Ok({"rdp", "randomized-response", "--p", "0.6", "--order", "1.5"}), "value", "0.1192634208");
  EXPECT_NE(j["adjacency"].get<std::string>().find("replace-one"), std::string::npos);
  // Symmetric in p ↔ 1 − p.
  const json k = Ok({"rdp", "randomized-response", "--p", "0.4", "--order", "2"});
  EXPECT_EQ(k["value"], j["value"]);
}

// ---- rdp sampled-gaussian ----------------------------------------------------------------------
TEST(AccountingCli, SampledGaussianDpAccountingPublishedValues) {
  // google/differential-privacy dp_accounting rdp_privacy_accountant_test.py,
  // test_compute_rdp_poisson_sampled_gaussian: q = 0.01, σ = 2.5, 50 steps.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"5", "2.18075656e-3"}, {"50", "2.38460375e-2"}, {"100", "1.67416308e2"}};
  for (const auto& [order, printed] : cases) {
    const json j = Ok({"rdp", "sampled-gaussian", "--q", "0.01", "--sigma", "2.5", "--order", order});
    ExpectShape(j, {"value"});
    EXPECT_NE(j["adjacency"].get<std::string>().find("add/remove"), std::string::npos);
    ExpectPrinted(j, "value", printed, 50);
  }
}

TEST(AccountingCli, SampledGaussianFractionalOrdersAgreeWithQuadratureNotDpAccounting) {
  // 50·D_α by mpmath quadrature (quoted in tests/unit/accounting_test.cpp); dp_accounting's test
  // lists 6.70579741e-04 (α = 1.5) and 1.08548710e-03 (α = 2.5), which we do not reproduce.
  const std::vector<std::pair<std::string, std::string>> mp = {
      {"1.5", "0.00065007089718803970969"}, {"2.5", "0.001085418056918124258"}};
  const double dp_accounting[] = {6.70579741e-04, 1.08548710e-03};
  for (size_t i = 0; i < mp.size(); ++i) {
    const json j = Ok({"rdp", "sampled-gaussian", "--q", "0.01", "--sigma", "2.5", "--order", mp[i].first});
    ExpectShape(j, {"value"});
    ExpectPrinted(j, "value", mp[i].second, 50);
    EXPECT_GT(std::fabs(50 * Mid(j, "value") - dp_accounting[i]), 5e-5 * dp_accounting[i]) << "documented discrepancy";
    // The fractional enclosure is tight (Euler-transformed tail): relative radius < 1e-25.
    EXPECT_LT(R(j["error_bound"]["value"].get<std::string>()), R("1e-25") * R(j["value"].get<std::string>()));
    EXPECT_GT(j["series_terms"].get<int>(), 2);
  }
}

TEST(AccountingCli, SampledGaussianIntegerOrdersMatchIndependentDouble) {
  for (const char* q : {"0.001", "0.01", "0.2"})
    for (const char* sigma : {"0.8", "1", "4"})
      for (int a : {2, 8, 32}) {
        const json j = Ok({"rdp", "sampled-gaussian", "--q", q, "--sigma", sigma, "--order", std::to_string(a)});
        ExpectRel(j, "value", SgmRdpInt(std::stod(q), std::stod(sigma), a), 1e-9);
      }
  // q = 1 is the Gaussian mechanism exactly, also at a fractional order.
  const json g = Ok({"rdp", "sampled-gaussian", "--q", "1", "--sigma", "2", "--order", "2.5"});
  EXPECT_EQ(R(g["value"].get<std::string>()), Rational(5, 16));
}

// A_α − 1 = ∫ μ0(z) [((1−q) + q e^{(2z−1)/(2σ²)})^α − 1] dz by the trapezoidal rule in double
// (exponentially convergent for this smooth, Gaussian-decaying integrand), written with
// expm1/log1p so that small D_α keep their relative accuracy.
double SgmRdpQuadrature(double q, double sigma, double alpha) {
  const double lo = -40 * sigma, hi = alpha + 40 * sigma, h = sigma / 200;
  double sum = 0;
  for (double z = lo; z <= hi; z += h) {
    const double t = (2 * z - 1) / (2 * sigma * sigma), w = -z * z / (2 * sigma * sigma);
    // L = log((1−q) + q e^t), without overflow for large t.
    const double L = t > 1 ? t + std::log(q + (1 - q) * std::exp(-t)) : std::log1p(q * std::expm1(t));
    sum += alpha * L < 1 ? std::expm1(alpha * L) * std::exp(w) : std::exp(alpha * L + w) - std::exp(w);
  }
  return std::log1p(sum * h / (sigma * std::sqrt(2 * M_PI))) / (alpha - 1);
}

TEST(AccountingCli, SampledGaussianFractionalOrdersMatchIndependentQuadrature) {
  for (const char* q : {"0.001", "0.01", "0.1", "0.5"})
    for (const char* sigma : {"0.7", "1", "3"})
      for (const char* alpha : {"1.25", "2.5", "5.75", "10.5"}) {
        const json j = Ok({"rdp", "sampled-gaussian", "--q", q, "--sigma", sigma, "--order", alpha});
        ExpectRel(j, "value", SgmRdpQuadrature(std::stod(q), std::stod(sigma), std::stod(alpha)), 1e-9);
      }
}

TEST(AccountingCli, SampledGaussianCoarseEnclosuresContainFineOnes) {
  // Rigor: fewer series terms or fewer bits give wider enclosures that still contain the
  // 256-bit, full-series one (an enclosure that excluded it would be wrong).
  for (const char* alpha : {"1.25", "3.5", "20.25"})
    for (const char* sigma : {"0.6", "2"}) {
      const Args base = {"rdp", "sampled-gaussian", "--q", "0.05", "--sigma", sigma, "--order", alpha};
      const Printed fine = Enclosed(Ok(base), "value");
      for (const std::pair<const char*, const char*>& opt :
           {std::pair<const char*, const char*>{"--max-terms", "6"}, {"--max-terms", "12"}, {"--precision", "64"},
            {"--precision", "40"}}) {
        Args coarse = base;
        coarse.insert(coarse.end(), {opt.first, opt.second});
        const Printed c = Enclosed(Ok(coarse), "value");
        EXPECT_TRUE(c.lo <= fine.lo && fine.hi <= c.hi)
            << "alpha " << alpha << " sigma " << sigma << " " << opt.first << " " << opt.second;
      }
    }
}

TEST(AccountingCli, SampledGaussianFractionalBetweenIntegerNeighbours) {
  // RDP is non-decreasing in the order; the enclosures are rigorous, so they must be ordered.
  Printed prev{0, 0};
  for (const char* order : {"2", "2.25", "2.5", "2.75", "3", "3.5", "4"}) {
    const Printed v = Enclosed(Ok({"rdp", "sampled-gaussian", "--q", "0.05", "--sigma", "1.1", "--order", order}), "value");
    EXPECT_LE(prev.hi, v.lo) << order;
    prev = v;
  }
}

// ---- accountant --------------------------------------------------------------------------------
TEST(AccountingCli, AccountantMatchesIndependentBestOrder) {
  // T = 1000 steps, q = 0.01, σ = 1, δ = 1e-5, orders 2..32, classic conversion.
  std::string orders;
  double best = std::numeric_limits<double>::infinity();
  int best_order = 0;
  for (int a = 2; a <= 32; ++a) {
    orders += (a > 2 ? "," : "") + std::to_string(a);
    const double eps = 1000 * SgmRdpInt(0.01, 1.0, a) + std::log(1e5) / (a - 1);
    if (eps < best) best = eps, best_order = a;
  }
  const json j = Ok({"accountant", "--mechanism", "sampled-gaussian", "--q", "0.01", "--sigma", "1", "--steps", "1000",
                     "--delta", "1e-5", "--orders", orders});
  ExpectShape(j, {"epsilon", "rdp_total"});
  EXPECT_EQ(j["order"], std::to_string(best_order));
  ExpectRel(j, "epsilon", best, 1e-9);
  EXPECT_EQ(j["conversion"], "classic");
  // The improved conversion (Balle et al. 2020) is never worse.
  const json k = Ok({"accountant", "--mechanism", "sampled-gaussian", "--q", "0.01", "--sigma", "1", "--steps", "1000",
                     "--delta", "1e-5", "--orders", orders, "--conversion", "improved"});
  EXPECT_LT(Enclosed(k, "epsilon").hi, Enclosed(j, "epsilon").lo);
  // ε is non-increasing in δ.
  const json loose = Ok({"accountant", "--mechanism", "sampled-gaussian", "--q", "0.01", "--sigma", "1", "--steps",
                         "1000", "--delta", "1e-3", "--orders", orders});
  EXPECT_LT(Enclosed(loose, "epsilon").hi, Enclosed(j, "epsilon").lo);
}

TEST(AccountingCli, AccountantDefaultOrdersIncludeFractional) {
  // With the default 90 orders the best order for this setting is fractional (α < 10); the
  // result equals the one obtained by naming that order alone.
  const json j = Ok({"accountant", "--mechanism", "sampled-gaussian", "--q", "0.05", "--sigma", "1.5", "--steps", "20",
                     "--delta", "1e-5"});
  ExpectShape(j, {"epsilon", "rdp_total"});
  const std::string order = j["order"];
  const json one = Ok({"accountant", "--mechanism", "sampled-gaussian", "--q", "0.05", "--sigma", "1.5", "--steps",
                       "20", "--delta", "1e-5", "--orders", order});
  EXPECT_EQ(one["epsilon"], j["epsilon"]);
  // The reported order is in the default list and the ε is no larger than at any integer order.
  const Rational a = R(order);
  EXPECT_TRUE(a > 1 && a <= 64);
  const json ints = Ok({"accountant", "--mechanism", "sampled-gaussian", "--q", "0.05", "--sigma", "1.5", "--steps",
                        "20", "--delta", "1e-5", "--orders", "2,3,4,5,6,7,8,9,10,11,12,16,20,32,64"});
  EXPECT_LE(Enclosed(j, "epsilon").hi, Enclosed(ints, "epsilon").hi);
}

// ---- calibrate ---------------------------------------------------------------------------------
TEST(AccountingCli, CalibrateClassicAndAnalytic) {
  const json c = Ok({"calibrate", "gaussian-classic", "--eps", "0.5", "--delta", "1e-5"});
  ExpectShape(c, {"sigma"});
  ExpectRel(c, "sigma", std::sqrt(2 * std::log(1.25e5)) / 0.5, 1e-14);
  const json c3 = Ok({"calibrate", "gaussian-classic", "--eps", "0.5", "--delta", "1e-5", "--sensitivity", "3"});
  ExpectRel(c3, "sigma", 3 * std::sqrt(2 * std::log(1.25e5)) / 0.5, 1e-14);
  // Analytic Gaussian (Balle & Wang 2018, Thm 8): δ(σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ)
  // evaluated in double at the returned σ gives back the target δ, and σ beats the classic one.
  for (const char* eps : {"0.5", "1", "3"}) {
    const json a = Ok({"calibrate", "gaussian-analytic", "--eps", eps, "--delta", "1e-5"});
    ExpectShape(a, {"sigma"});
    const double s = Mid(a, "sigma"), e = std::stod(eps);
    const double delta = Phi(1 / (2 * s) - e * s) - std::exp(e) * Phi(-1 / (2 * s) - e * s);
    EXPECT_NEAR(delta, 1e-5, 1e-5 * 1e-6) << eps;
    EXPECT_LT(s, std::sqrt(2 * std::log(1.25e5)) / e) << eps;
  }
}

// ---- spec 004: bnn, bnn-gamma-max, bnn-exact-delta --------------------------------------------
TEST(AccountingCli, BnnSpec004Section55Row) {
  // spec 004 §5.5: T = 100, δ = 1e-5, d = 1, γ = 0.1.
  const json j = Ok({"bnn", "--gamma", "0.1", "--rounds", "100", "--delta", "1e-5"});
  ExpectShape(j, {"eps_thm1", "eps_rdp_opt", "eps_exact", "eps_pure"});
  ExpectPrinted(j, "eps_thm1", "28.31214705");
  ExpectPrinted(j, "eps_rdp_opt", "26.14638278");
  ExpectPrinted(j, "alpha_opt", "2.390");
  ExpectPrinted(j, "eps_exact", "23.65423514");
  ExpectPrinted(j, "eps_pure", "40.54651081");
  // γ = 0.4: the optimal order is α = ∞ (spec §4.7).
  const json inf = Ok({"bnn", "--gamma", "0.4", "--rounds", "100", "--delta", "1e-5"});
  EXPECT_EQ(inf["alpha_opt"], "infinity");
  ExpectPrinted(inf, "eps_rdp_opt", "219.7224577");
}

TEST(AccountingCli, BnnGammaMaxAsPrintedAndCorrected) {
  const json j = Ok({"bnn-gamma-max", "--eps", "1", "--delta", "1e-5", "--rounds", "100"});
  ExpectShape(j, {"alpha_star", "gamma_max_as_printed", "gamma_max_corrected"});
  ExpectPrinted(j, "alpha_star", "24.0258509299");
  ExpectPrinted(j, "gamma_max_corrected", "0.00519866917196863");
  // E3: as printed, γ_max ≈ 1/2 − 1.4e-19.
  EXPECT_NEAR(static_cast<double>(Rational(Rational(1, 2) - R(j["gamma_max_as_printed"].get<std::string>()))), 1.4e-19,
              0.05e-19);
  const json full = Ok({"bnn-gamma-max", "--eps", "1", "--delta", "1e-5", "--rounds", "100", "--hamming", "81848"});
  ExpectPrinted(full, "gamma_max_corrected", "1.78277561652117e-5");
}

TEST(AccountingCli, BnnExactDeltaSpecValues) {
  const json j = Ok({"bnn-exact-delta", "--eps", "1", "--gamma", "0.05", "--k", "10"});
  ExpectShape(j, {"delta"});
  ExpectPrinted(j, "delta", "0.0251009132398138");
  ExpectPrinted(Ok({"bnn-exact-delta", "--eps", "0", "--gamma", "0.2", "--k", "7"}), "delta", "0.747928");
  ExpectPrinted(Ok({"bnn-exact-delta", "--eps", "0.3", "--gamma", "0.25", "--k", "1"}), "delta", "0.412535298105999");
}

TEST(AccountingCli, BnnWholeModelExactByBinomialTails) {
  // k = T·d = 100 · 81 848 > 20000: eps_exact by the binomial-tail method (spec 004 §4.6; the value
  // is the reference's own, cross-checked in tests/unit/accounting_test.cpp Bnn.TailMethod*).
  const json j = Ok({"bnn", "--gamma", "0.1", "--rounds", "100", "--hamming", "81848", "--delta", "1e-5"});
  ExpectShape(j, {"eps_thm1", "eps_rdp_opt", "eps_exact", "eps_pure"});
  ExpectPrinted(j, "eps_exact", "668576.0315897016");
  EXPECT_LT(Enclosed(j, "eps_exact").hi, Enclosed(j, "eps_rdp_opt").lo);  // spec 004 §4.6 ordering
  const json d = Ok({"bnn-exact-delta", "--eps", "113", "--gamma", "0.001", "--k", "8184800"});
  ExpectShape(d, {"delta"});
  EXPECT_GT(Enclosed(d, "delta").lo, R("1e-5"));  // ε_exact(1e-5) = 113.4353… > 113
}

// ---- spec 003: rdp quantized-gaussian ----------------------------------------------------------
TEST(AccountingCli, QuantizedGaussianSpec003TableA) {
  // spec 003 §7.4 Table A: σ = 1, C = 1, k = 2 (12 significant digits).
  const json j = Ok({"rdp", "quantized-gaussian", "--sigma", "1", "--levels", "2", "--clip", "1", "--order", "2"});
  ExpectShape(j, {"value", "bound_theorem2", "gaussian_rdp"});
  EXPECT_EQ(j["order"], "2");
  ExpectRel(j, "value", 0.401371560690, 1e-11);
  ExpectRel(j, "bound_theorem2", 1.31886870969, 1e-11);
  ExpectRel(j, "gaussian_rdp", 1.0, 1e-30);  // α C²/(2σ²)
  EXPECT_LT(Mid(j, "value"), Mid(j, "gaussian_rdp"));  // data processing
  ExpectRel(Ok({"rdp", "quantized-gaussian", "--sigma", "1", "--levels", "64", "--order", "10"}), "value", 1.38875755630,
            1e-11);
  const json kl = Ok({"rdp", "quantized-gaussian", "--sigma", "1", "--levels", "2", "--order", "kl"});
  ExpectRel(kl, "value", 0.228426468352, 1e-11);
  EXPECT_FALSE(kl.contains("bound_theorem2"));  // Theorem 2 bounds α > 1 only
  ExpectRel(Ok({"rdp", "quantized-gaussian", "--sigma", "1", "--levels", "2", "--order", "inf"}), "value",
            0.689048009074, 1e-11);
}

TEST(AccountingCli, QuantizedGaussianSpec003TableCAndVector) {
  // Table C: σ = 0.5, k = 4, α = 3/2.
  const json j = Ok({"rdp", "quantized-gaussian", "--sigma", "0.5", "--levels", "4", "--order", "3/2", "--dimension",
                     "10", "--rounds", "3"});
  ExpectShape(j, {"value", "vector_bound", "vector_coordinates_composed"});
  ExpectRel(j, "value", 2.03590592994, 1e-11);
  // Vector bound T·min{α C²/(2σ²), d·value} = 3·min{3, 20.36} = 9.
  ExpectRel(j, "vector_bound", 9.0, 1e-30);
  ExpectRel(j, "vector_coordinates_composed", 30 * 2.03590592994, 1e-11);
}

// ---- spec 002: cepam ---------------------------------------------------------------------------
TEST(AccountingCli, CepamThm12Spec002) {
  // Paper setting: ε̃ = 5.9, τ = 15, K = 30, γ = 1, n_k = 1666; σ = 2.
  const json j = Ok({"cepam", "thm12", "--sigma", "2", "--eps-tilde", "5.9", "--tau", "15", "--clients", "30", "--n-k", "1666"});
  ExpectShape(j, {"epsilon", "p_s", "delta_as_printed", "delta_as_printed_capped", "delta_sensitivity_corrected",
                  "delta_own_noise"});
  ExpectRel(j, "delta_as_printed", 0.00160041826728238, 1e-14);
  ExpectRel(j, "delta_as_printed_capped", 0.00127444003092534, 1e-14);
  ExpectRel(j, "epsilon", 1.450187141357255945198921, 1e-20);
  ExpectRel(j, "p_s", 0.00896586940349937788899198, 1e-20);
  // E-X1: the paper's δ = 2.48e-2 at σ = 0.001 is not what (16) gives (the σ-free floor 0.0096887…).
  const json small = Ok({"cepam", "thm12", "--sigma", "0.001", "--eps-tilde", "5.9", "--tau", "15", "--clients", "30",
                         "--n-k", "1666"});
  ExpectRel(small, "delta_as_printed", 0.00968873971152297, 1e-14);
  EXPECT_GT(std::fabs(Mid(small, "delta_as_printed") - 2.48e-2), 1e-2);
}

TEST(AccountingCli, CepamThm13Spec002) {
  const json j = Ok({"cepam", "thm13", "--eps-tilde", "30000", "--tau", "15", "--gamma", "1", "--b", "0.001", "--m",
                     "6422", "--n-k", "1666"});
  ExpectShape(j, {"epsilon", "required_eps_tilde_as_printed", "required_eps_tilde_corrected"});
  EXPECT_EQ(j["holds_as_printed"], true);
  EXPECT_EQ(j["holds_corrected"], false);
  ExpectRel(j, "epsilon", 29995.2856698008965769916, 1e-20);
  ExpectRel(j, "required_eps_tilde_corrected", 30000 * std::sqrt(6422.0), 1e-14);
}

TEST(AccountingCli, CepamCalibrateBracketsAndIsMonotoneInDelta) {
  const Args base = {"cepam", "calibrate", "--eps", "3", "--tau", "15", "--clients", "30", "--n-k", "1666",
                     "--tolerance-bits", "20"};
  Args loose = base, tight = base;
  loose.insert(loose.end(), {"--delta", "0.005"});
  tight.insert(tight.end(), {"--delta", "0.001"});
  const json a = Ok(loose), b = Ok(tight);
  ASSERT_EQ(a["any_sigma"], false);
  ASSERT_EQ(b["any_sigma"], false);
  EXPECT_NE(a["adjacency"].get<std::string>(), "");
  // The certified σ sits above the certified-bad one; a smaller δ needs more noise.
  EXPECT_LT(R(a["sigma_certified_bad_below"].get<std::string>()), R(a["sigma"].get<std::string>()));
  EXPECT_LT(R(a["sigma"].get<std::string>()), R(b["sigma_certified_bad_below"].get<std::string>()));
}

TEST(AccountingCli, CepamRatesAndSubsampled) {
  const json r = Ok({"cepam", "rates", "--n", "2"});
  EXPECT_NE(r["adjacency"].get<std::string>().find("not a privacy quantity"), std::string::npos);
  ExpectRel(r, "expected_trials", 4 / M_PI, 1e-15);  // 2^n/V_n = 4/π
  ExpectRel(r, "entropy_bits_h", 0.955168251905, 1e-11);
  EXPECT_EQ(r["golomb_parameter"], 1);
  const json s = Ok({"cepam", "subsampled", "--eps-tilde", "1", "--tau", "5", "--n", "100", "--sigma", "2"});
  ExpectShape(s, {"delta", "epsilon", "p_s"});
  ExpectRel(s, "delta", 4.6656602231748159514e-4, 1e-16);
  ExpectRel(s, "epsilon", 0.080854292099489586875, 1e-16);
}

// ---- binomial-mechanism (cpSGD Theorem 1, spec 000 §4.4) ---------------------------------------
// The ε of spec 000 §4.4 transcribed here in double from the spec text.
double CpSgdEpsilonDouble(double N, double p, double s, double l1, double l2, double linf, double d, double delta) {
  const double npq = N * p * (1 - p), sq = p * p + (1 - p) * (1 - p);
  const double b = 2.0 / 3 * sq + 1 - 2 * p;
  const double c = std::sqrt(2.0) * (3 * p * p * p + 3 * std::pow(1 - p, 3) + 2 * sq);
  const double dp = 4.0 / 3 * sq;
  return l2 * std::sqrt(2 * std::log(1.25 / delta)) / (s * std::sqrt(npq)) +
         (l2 * c * std::sqrt(std::log(10 / delta)) + l1 * b) / (s * npq * (1 - delta / 10)) +
         (2.0 / 3 * linf * std::log(1.25 / delta) + linf * dp * std::log(20 * d / delta) * std::log(10 / delta)) /
             (s * npq);
}

TEST(AccountingCli, BinomialMechanismShapeAndFormula) {
  const json j = Ok({"binomial-mechanism", "--N", "1000", "--p", "1/2", "--s", "1", "--l1", "1", "--l2", "1", "--linf",
                     "1", "--dim", "1", "--delta", "1e-5"});
  ExpectShape(j, {"epsilon", "precondition.lhs", "precondition.rhs", "c_p"});
  for (const auto& [key, want] : {std::pair<std::string, Rational>{"b_p", Rational(1, 3)}, {"d_p", Rational(2, 3)}}) {
    const Printed v = Enclosed(j, key);  // p = 1/2: (2/3)(1/2) + 0 and (4/3)(1/2)
    EXPECT_TRUE(v.lo <= want && want <= v.hi) << key;
  }
  // N p(1−p) = 250 < 23 ln(10^6) ≈ 317.75: the precondition fails (and says so).
  EXPECT_EQ(R(j["precondition"]["lhs"].get<std::string>()), Rational(250));
  ExpectRel(j, "precondition.rhs", 23 * std::log(1e6), 1e-14);
  EXPECT_EQ(j["precondition"]["holds"], false);
  ExpectRel(j, "epsilon", CpSgdEpsilonDouble(1000, 0.5, 1, 1, 1, 1, 1, 1e-5), 1e-13);
  const json big = Ok({"binomial-mechanism", "--N", "100000", "--p", "0.3", "--s", "0.5", "--l1", "4", "--l2", "2",
                       "--linf", "1", "--dim", "16", "--delta", "1e-6"});
  EXPECT_EQ(big["precondition"]["holds"], true);
  ExpectRel(big, "epsilon", CpSgdEpsilonDouble(100000, 0.3, 0.5, 4, 2, 1, 16, 1e-6), 1e-13);
}

TEST(AccountingCli, BinomialMechanismRecomputesThm3CorrectedEpsU) {
  // spec 000 §4.4: ε_u^corr of Thm 3 is cpSGD Theorem 1 in normalized units: E = 3 (α = 2,
  // p = 1/4), n = 100000, γ = 0.2 (N_b = 19999), m = 1024: Δ1 = 2048, Δ2 = 64, Δ∞ = 2, s = 2.
  const json b = Ok({"binomial-mechanism", "--N", "19999", "--p", "1/4", "--s", "2", "--l1", "2048", "--l2", "64",
                     "--linf", "2", "--dim", "1024", "--delta", "1e-6"});
  const json t = Ok({"thm3", "--E", "3", "--n", "100000", "--gamma", "0.2", "--m", "1024", "--delta", "1e-6", "--r", "1"});
  const Printed e = Enclosed(b, "epsilon");
  const Rational u = R(t["eps_u_corrected"].get<std::string>());
  const Rational ub = R(t["error_bound"]["eps_u_corrected"].get<std::string>());
  EXPECT_TRUE(e.lo <= u + ub && u - ub <= e.hi) << t["eps_u_corrected"] << " vs " << b["epsilon"];
}

// ---- bad input: every subcommand -----------------------------------------------------------------
using dpfl::testing::BadInput;
class AccountingBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(AccountingBadInput, ExitsTwoWithOneLineNamingTheFlag) { dpfl::testing::ExpectRejected(DPFL_REF_BINARY, GetParam()); }

Args With(Args base, const std::string& key, const std::string& value) {
  return dpfl::testing::WithFlag(std::move(base), key, value);
}
const Args kGauss = {"rdp", "gaussian", "--sigma", "1", "--order", "2"};
const Args kSgm = {"rdp", "sampled-gaussian", "--q", "0.01", "--sigma", "1", "--order", "2"};
const Args kRr = {"rdp", "randomized-response", "--p", "0.6", "--order", "2"};
const Args kLap = {"rdp", "laplace", "--b", "1", "--order", "2"};
const Args kQg = {"rdp", "quantized-gaussian", "--sigma", "1", "--levels", "4", "--order", "2"};
const Args kAcc = {"accountant", "--mechanism", "sampled-gaussian", "--q", "0.01", "--sigma", "1", "--steps", "10",
                   "--delta", "1e-5", "--orders", "2,3"};
const Args kCalA = {"calibrate", "gaussian-analytic", "--eps", "1", "--delta", "1e-5"};
const Args kCalC = {"calibrate", "gaussian-classic", "--eps", "1", "--delta", "1e-5"};
const Args kBnn = {"bnn", "--gamma", "0.1", "--rounds", "10", "--delta", "1e-5"};
const Args kGmax = {"bnn-gamma-max", "--eps", "1", "--delta", "1e-5"};
const Args kExact = {"bnn-exact-delta", "--eps", "1", "--gamma", "0.1", "--k", "5"};
const Args kT12 = {"cepam", "thm12", "--sigma", "1", "--eps-tilde", "5.9", "--tau", "15", "--clients", "30", "--n-k", "1666"};
const Args kT13 = {"cepam", "thm13", "--eps-tilde", "1", "--tau", "15", "--b", "1", "--m", "10", "--n-k", "100"};
const Args kCcal = {"cepam", "calibrate", "--eps", "1", "--delta", "0.01", "--tau", "15", "--clients", "30", "--n-k", "1666"};
const Args kRates = {"cepam", "rates", "--n", "2"};
const Args kSub = {"cepam", "subsampled", "--eps-tilde", "1", "--tau", "5", "--n", "100", "--sigma", "2"};
const Args kBin = {"binomial-mechanism", "--N", "1000", "--p", "0.5", "--s", "1", "--l1", "1", "--l2", "1", "--linf", "1",
                   "--dim", "1", "--delta", "1e-5"};

std::vector<BadInput> Cases() {
  return {
      // rdp gaussian
      {"gauss_sigma_zero", With(kGauss, "--sigma", "0"), "--sigma"},
      {"gauss_sigma_negative", With(kGauss, "--sigma", "-1"), "--sigma"},
      {"gauss_order_one", With(kGauss, "--order", "1"), "--order"},
      {"gauss_order_below_one", With(kGauss, "--order", "0.5"), "--order"},
      {"gauss_order_nan", With(kGauss, "--order", "nan"), "--order"},
      {"gauss_sensitivity_zero", With(kGauss, "--sensitivity", "0"), "--sensitivity"},
      {"gauss_unknown_flag", With(kGauss, "--bogus", "1"), "--bogus"},
      {"gauss_missing_sigma", {"rdp", "gaussian", "--order", "2"}, "--sigma"},
      // rdp sampled-gaussian
      {"sgm_q_zero", With(kSgm, "--q", "0"), "--q"},
      {"sgm_q_above_one", With(kSgm, "--q", "1.5"), "--q"},
      {"sgm_q_negative", With(kSgm, "--q", "-0.1"), "--q"},
      {"sgm_sigma_zero", With(kSgm, "--sigma", "0"), "--sigma"},
      {"sgm_sigma_inf", With(kSgm, "--sigma", "inf"), "--sigma"},
      {"sgm_order_one", With(kSgm, "--order", "1"), "--order"},
      {"sgm_order_fraction_below_one", With(kSgm, "--order", "1/2"), "--order"},
      {"sgm_max_terms_zero", With(kSgm, "--max-terms", "0"), "--max-terms"},
      {"sgm_unknown_flag", With(kSgm, "--steps", "3"), "--steps"},
      // rdp randomized-response
      {"rr_p_zero", With(kRr, "--p", "0"), "--p"},
      {"rr_p_one", With(kRr, "--p", "1"), "--p"},
      {"rr_p_nan", With(kRr, "--p", "NaN"), "--p"},
      {"rr_order_one", With(kRr, "--order", "1"), "--order"},
      {"rr_unknown_flag", With(kRr, "--gamma", "0.1"), "--gamma"},
      // rdp laplace
      {"lap_b_zero", With(kLap, "--b", "0"), "--b"},
      {"lap_order_one", With(kLap, "--order", "1"), "--order"},
      {"lap_sensitivity_negative", With(kLap, "--sensitivity", "-1"), "--sensitivity"},
      {"lap_b_inf", With(kLap, "--b", "inf"), "--b"},
      // rdp quantized-gaussian
      {"qg_levels_one", With(kQg, "--levels", "1"), "--levels"},
      {"qg_levels_zero", With(kQg, "--levels", "0"), "--levels"},
      {"qg_levels_fraction", With(kQg, "--levels", "2.5"), "--levels"},
      {"qg_sigma_zero", With(kQg, "--sigma", "0"), "--sigma"},
      {"qg_clip_zero", With(kQg, "--clip", "0"), "--clip"},
      {"qg_order_below_one", With(kQg, "--order", "0.5"), "--order"},
      {"qg_order_nan", With(kQg, "--order", "nan"), "--order"},
      {"qg_unknown_flag", With(kQg, "--q", "0.5"), "--q"},
      {"qg_dimension_zero", With(kQg, "--dimension", "0"), "--dimension"},
      {"qg_rounds_zero", With(With(kQg, "--dimension", "3"), "--rounds", "0"), "--rounds"},
      // accountant
      {"acc_mechanism", With(kAcc, "--mechanism", "laplace"), "--mechanism"},
      {"acc_q_zero", With(kAcc, "--q", "0"), "--q"},
      {"acc_q_above_one", With(kAcc, "--q", "2"), "--q"},
      {"acc_sigma_zero", With(kAcc, "--sigma", "0"), "--sigma"},
      {"acc_steps_zero", With(kAcc, "--steps", "0"), "--steps"},
      {"acc_steps_fraction", With(kAcc, "--steps", "1.5"), "--steps"},
      {"acc_delta_zero", With(kAcc, "--delta", "0"), "--delta"},
      {"acc_delta_one", With(kAcc, "--delta", "1"), "--delta"},
      {"acc_delta_inf", With(kAcc, "--delta", "inf"), "--delta"},
      {"acc_orders_with_one", With(kAcc, "--orders", "1,2"), "--orders"},
      {"acc_orders_empty_entry", With(kAcc, "--orders", "2,,3"), "--orders"},
      {"acc_orders_nan", With(kAcc, "--orders", "2,nan"), "--orders"},
      {"acc_conversion", With(kAcc, "--conversion", "tight"), "--conversion"},
      {"acc_unknown_flag", With(kAcc, "--order", "2"), "--order"},
      {"acc_precision_too_low", With(kAcc, "--precision", "8"), "--precision"},
      // calibrate
      {"cala_eps_zero", With(kCalA, "--eps", "0"), "--eps"},
      {"cala_delta_one", With(kCalA, "--delta", "1"), "--delta"},
      {"cala_delta_zero", With(kCalA, "--delta", "0"), "--delta"},
      {"cala_sensitivity_zero", With(kCalA, "--sensitivity", "0"), "--sensitivity"},
      {"calc_eps_negative", With(kCalC, "--eps", "-1"), "--eps"},
      {"calc_delta_above_one", With(kCalC, "--delta", "1.5"), "--delta"},
      {"calc_eps_nan", With(kCalC, "--eps", "nan"), "--eps"},
      {"cal_unknown_method", {"calibrate", "gaussian-exact", "--eps", "1", "--delta", "1e-5"}, "subcommand"},
      // bnn
      {"bnn_gamma_half", With(kBnn, "--gamma", "0.5"), "--gamma"},
      {"bnn_gamma_negative", With(kBnn, "--gamma", "-0.1"), "--gamma"},
      {"bnn_delta_zero", With(kBnn, "--delta", "0"), "--delta"},
      {"bnn_rounds_zero", With(kBnn, "--rounds", "0"), "--rounds"},
      {"bnn_hamming_zero", With(kBnn, "--hamming", "0"), "--hamming"},
      {"bnn_unknown_flag", With(kBnn, "--order", "2"), "--order"},
      {"gmax_eps_zero", With(kGmax, "--eps", "0"), "--eps"},
      {"gmax_delta_one", With(kGmax, "--delta", "1"), "--delta"},
      {"gmax_rounds_fraction", With(kGmax, "--rounds", "2.5"), "--rounds"},
      {"exact_gamma_half", With(kExact, "--gamma", "0.5"), "--gamma"},
      {"exact_k_zero", With(kExact, "--k", "0"), "--k"},
      {"exact_k_too_large", With(kExact, "--k", "1099511627777"), "--k"},
      {"exact_eps_negative", With(kExact, "--eps", "-1"), "--eps"},
      {"exact_k_fraction", With(kExact, "--k", "1.5"), "--k"},
      // cepam
      {"t12_sigma_zero", With(kT12, "--sigma", "0"), "--sigma"},
      {"t12_eps_tilde_zero", With(kT12, "--eps-tilde", "0"), "--eps-tilde"},
      {"t12_tau_zero", With(kT12, "--tau", "0"), "--tau"},
      {"t12_n_k_zero", With(kT12, "--n-k", "0"), "--n-k"},
      {"t12_clients_zero", With(kT12, "--clients", "0"), "--clients"},
      {"t12_sigma_nan", With(kT12, "--sigma", "nan"), "--sigma"},
      {"t13_b_zero", With(kT13, "--b", "0"), "--b"},
      {"t13_m_zero", With(kT13, "--m", "0"), "--m"},
      {"t13_eps_tilde_zero", With(kT13, "--eps-tilde", "0"), "--eps-tilde"},
      {"t13_n_k_zero", With(kT13, "--n-k", "0"), "--n-k"},
      {"ccal_delta_one", With(kCcal, "--delta", "1"), "--delta"},
      {"ccal_eps_zero", With(kCcal, "--eps", "0"), "--eps"},
      {"ccal_variant", With(kCcal, "--variant", "printed"), "--variant"},
      {"ccal_tau_zero", With(kCcal, "--tau", "0"), "--tau"},
      {"ccal_n_k_zero", With(kCcal, "--n-k", "0"), "--n-k"},
      {"rates_target", With(kRates, "--target", "uniform"), "--target"},
      {"rates_n_zero", With(kRates, "--n", "0"), "--n"},
      {"rates_c_below_one", With(kRates, "--c", "0.5"), "--c"},
      {"sub_sigma_zero", With(kSub, "--sigma", "0"), "--sigma"},
      {"sub_tau_zero", With(kSub, "--tau", "0"), "--tau"},
      {"sub_eps_tilde_zero", With(kSub, "--eps-tilde", "0"), "--eps-tilde"},
      {"sub_sensitivity_zero", With(kSub, "--sensitivity", "0"), "--sensitivity"},
      {"sub_unknown_flag", With(kSub, "--delta", "0.1"), "--delta"},
      // binomial-mechanism
      {"bin_N_zero", With(kBin, "--N", "0"), "--N"},
      {"bin_p_zero", With(kBin, "--p", "0"), "--p"},
      {"bin_p_one", With(kBin, "--p", "1"), "--p"},
      {"bin_s_zero", With(kBin, "--s", "0"), "--s"},
      {"bin_l1_negative", With(kBin, "--l1", "-1"), "--l1"},
      {"bin_l2_negative", With(kBin, "--l2", "-1"), "--l2"},
      {"bin_linf_negative", With(kBin, "--linf", "-1"), "--linf"},
      {"bin_dim_zero", With(kBin, "--dim", "0"), "--dim"},
      {"bin_dim_fraction", With(kBin, "--dim", "1.5"), "--dim"},
      {"bin_delta_zero", With(kBin, "--delta", "0"), "--delta"},
      {"bin_delta_one", With(kBin, "--delta", "1"), "--delta"},
      {"bin_N_nan", With(kBin, "--N", "nan"), "--N"},
      {"bin_unknown_flag", With(kBin, "--d", "1"), "--d"},
      {"bin_missing_delta", Args(kBin.begin(), kBin.end() - 2), "--delta"},
      // groups without a subcommand
      {"rdp_without_subcommand", {"rdp"}, "subcommand"},
      {"cepam_without_subcommand", {"cepam"}, "subcommand"},
      {"rdp_unknown_subcommand", {"rdp", "exponential", "--order", "2"}, "subcommand"},
  };
}

INSTANTIATE_TEST_SUITE_P(AllSubcommands, AccountingBadInput, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
