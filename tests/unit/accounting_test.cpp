// Unit tests: Gaussian, Laplace, sampled Gaussian, randomized response / DPFL-BNN (spec 004),
// accountant. Spec vectors are asserted to their printed digits (half a unit in the last printed
// place); published accountant values cite their source.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "dpfl/ref/accountant.hpp"
#include "dpfl/ref/gaussian.hpp"
#include "dpfl/ref/laplace.hpp"
#include "dpfl/ref/randomized_response.hpp"
#include "dpfl/ref/sampled_gaussian.hpp"

namespace dpfl::ref {
namespace {

Rational R(const std::string& s) { return ParseRational(s, "test"); }

// Half a unit in the last printed place of a decimal string like "0.0396091381" or "1.78e-5".
Rational HalfUlpOfPrinted(const std::string& printed) {
  std::string mant = printed;
  int exp10 = 0;
  const size_t e = printed.find_first_of("eE");
  if (e != std::string::npos) {
    mant = printed.substr(0, e);
    exp10 = std::stoi(printed.substr(e + 1));
  }
  const size_t dot = mant.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mant.size() - dot - 1);
  const int place = exp10 - decimals;
  Rational ulp(1);
  for (int i = 0; i < (place < 0 ? -place : place); ++i) ulp = place < 0 ? ulp / 10 : ulp * 10;
  return ulp / 2;
}

// The whole enclosure rounds to the printed value.
void ExpectPrinted(const Interval& v, const std::string& printed, const std::string& what) {
  const Rational p = R(printed);
  const Rational tol = HalfUlpOfPrinted(printed);
  EXPECT_TRUE(v.lo() >= p - tol && v.hi() <= p + tol)
      << what << ": enclosure [" << ToDecimalString(v.lo(), 20) << ", " << ToDecimalString(v.hi(), 20)
      << "] does not round to printed " << printed;
}

// ---- Gaussian --------------------------------------------------------------------------------

TEST(Gaussian, RdpExact) {
  EXPECT_EQ(GaussianRdp(Rational(2), Rational(3)), Rational(3, 8));
  EXPECT_EQ(GaussianRdp(Rational(1, 2), Rational(5, 2), Rational(3)), Rational(45));
}

TEST(Gaussian, BadArguments) {
  EXPECT_THROW(GaussianRdp(Rational(0), Rational(2)), InvalidArgument);
  EXPECT_THROW(GaussianRdp(Rational(-1), Rational(2)), InvalidArgument);
  EXPECT_THROW(GaussianRdp(Rational(1), Rational(1)), InvalidArgument);
  EXPECT_THROW(GaussianRdp(Rational(1), Rational(2), Rational(0)), InvalidArgument);
  EXPECT_THROW(GaussianClassicSigma(Rational(1), Rational(0), Rational(1)), InvalidArgument);
  EXPECT_THROW(GaussianClassicSigma(Rational(1), Rational(1), Rational(1)), InvalidArgument);
  EXPECT_THROW(GaussianClassicSigma(Rational(0), R("1e-5"), Rational(1)), InvalidArgument);
  EXPECT_THROW(AnalyticGaussianSigma(Rational(1), Rational(2), Rational(1)), InvalidArgument);
  EXPECT_THROW(GaussianClassicSigma(Rational(1), R("1e-5"), Rational(1), 8), InvalidArgument);
}

TEST(Gaussian, ClassicSigmaMatchesDouble) {
  const Interval s = GaussianClassicSigma(Rational(1, 2), R("1e-5"), Rational(1));
  EXPECT_NEAR(static_cast<double>(s.Mid()), std::sqrt(2 * std::log(1.25e5)) / 0.5, 1e-13);
  EXPECT_LT(s.Radius(), R("1e-70"));
}

TEST(Gaussian, AnalyticDeltaMatchesDoubleFormula) {
  // Balle & Wang 2018, Thm 8 evaluated in double (erfc form) as an independent check.
  for (double eps : {0.1, 1.0, 3.0}) {
    for (double sigma : {0.5, 1.0, 4.0}) {
      const double a = 1 / (2 * sigma), b = eps * sigma;
      const double ref = 0.5 * std::erfc(-(a - b) / std::sqrt(2.0)) - std::exp(eps) * 0.5 * std::erfc((a + b) / std::sqrt(2.0));
      const Interval d = AnalyticGaussianDelta(Rational(eps), Rational(sigma), Rational(1));
      EXPECT_NEAR(static_cast<double>(d.Mid()), ref, 1e-14 + 1e-12 * ref) << eps << " " << sigma;
    }
  }
}

TEST(Gaussian, AnalyticCalibrationRoundTripAndBeatsClassic) {
  const Rational eps(1, 2), delta = R("1e-5");
  const AnalyticSigma s = AnalyticGaussianSigma(eps, delta, Rational(1));
  EXPECT_TRUE(s.reached_tolerance);
  EXPECT_LE(s.sigma.hi() - s.sigma.lo(), R("1e-44") * s.sigma.lo());
  // δ(lo) ≥ δ ≥ δ(hi): the true σ is bracketed.
  EXPECT_GT(AnalyticGaussianDelta(eps, s.sigma.lo(), Rational(1)).lo(), delta);
  EXPECT_LT(AnalyticGaussianDelta(eps, s.sigma.hi(), Rational(1)).hi(), delta);
  // Analytic calibration is never worse than the classical one (Balle & Wang 2018, Sec. 4).
  EXPECT_LT(s.sigma.hi(), GaussianClassicSigma(eps, delta, Rational(1)).lo());
  // Sensitivity scales σ linearly.
  const AnalyticSigma s3 = AnalyticGaussianSigma(eps, delta, Rational(3));
  EXPECT_LE(s3.sigma.lo(), 3 * s.sigma.hi());
  EXPECT_GE(s3.sigma.hi(), 3 * s.sigma.lo());
}

// ---- Laplace ---------------------------------------------------------------------------------

TEST(Laplace, PureAndRdpLimits) {
  EXPECT_EQ(LaplacePureEpsilon(Rational(2), Rational(3)), Rational(3, 2));
  // RDP lies between KL and the pure ε, and tends to both ends.
  const Interval kl = LaplaceKl(Rational(1));
  const Interval r2 = LaplaceRdp(Rational(1), Rational(2));
  const Interval r1000 = LaplaceRdp(Rational(1), Rational(1000));
  const Interval r_near1 = LaplaceRdp(Rational(1), R("1.000001"));
  EXPECT_LT(kl.hi(), r2.lo());
  EXPECT_LT(r2.hi(), r1000.lo());
  EXPECT_LT(r1000.hi(), Rational(1));
  EXPECT_NEAR(static_cast<double>(r1000.Mid()), 1.0, 2e-3);
  EXPECT_NEAR(static_cast<double>(r_near1.Mid()), static_cast<double>(kl.Mid()), 1e-5);
  // α = 2 closed form: log(2/3 e^{1/b} + 1/3 e^{-2/b}) at b = 1.
  EXPECT_NEAR(static_cast<double>(r2.Mid()), std::log(2.0 / 3 * std::exp(1.0) + 1.0 / 3 * std::exp(-2.0)), 1e-15);
  // Sensitivity: (b, Δ) behaves as (b/Δ, 1).
  const Interval a = LaplaceRdp(Rational(3), Rational(5, 2), Rational(2));
  const Interval b = LaplaceRdp(Rational(3, 2), Rational(5, 2), Rational(1));
  EXPECT_TRUE(a.lo() <= b.hi() && b.lo() <= a.hi());
  EXPECT_THROW(LaplaceRdp(Rational(0), Rational(2)), InvalidArgument);
  EXPECT_THROW(LaplaceRdp(Rational(1), Rational(1)), InvalidArgument);
}

// ---- Sampled Gaussian ------------------------------------------------------------------------

// Test-only independent computation: the double-precision algorithm of the Opacus / TF-Privacy
// accountants for integer orders (log-space sum of the binomial expansion with lgamma-based
// log binomials). Written from the formula, not copied.
double LogAddExp(double a, double b) {
  const double m = std::max(a, b);
  if (m == -INFINITY) return m;
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}
double OpacusStyleRdpInt(double q, double sigma, int alpha) {
  double log_a = -INFINITY;
  for (int k = 0; k <= alpha; ++k) {
    const double log_binom = std::lgamma(alpha + 1.0) - std::lgamma(k + 1.0) - std::lgamma(alpha - k + 1.0);
    const double term = log_binom + k * std::log(q) + (alpha - k) * std::log1p(-q) + (k * k - k) / (2 * sigma * sigma);
    log_a = LogAddExp(log_a, term);
  }
  return log_a / (alpha - 1);
}

TEST(SampledGaussian, AgreesWithOpacusDoubleAlgorithmOnGrid) {
  int checked = 0;
  for (const char* qs : {"0.001", "0.01", "0.1"}) {
    for (const char* ss : {"0.5", "1", "2", "5"}) {
      for (int a = 2; a <= 64; ++a) {
        const double ref = OpacusStyleRdpInt(std::stod(qs), std::stod(ss), a);
        const SgmRdp v = SampledGaussianRdp(R(qs), R(ss), Rational(a));
        const double mine = static_cast<double>(v.value.Mid());
        EXPECT_LE(std::fabs(mine - ref), 1e-9 * std::fabs(ref)) << "q=" << qs << " sigma=" << ss << " alpha=" << a;
        EXPECT_LT(v.value.Radius(), R("1e-60") * v.value.hi());
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 3 * 4 * 63);
}

TEST(SampledGaussian, PublishedDpAccountingValues) {
  // google/differential-privacy python/dp_accounting/dp_accounting/rdp/rdp_privacy_accountant_test.py,
  // test_compute_rdp_poisson_sampled_gaussian: q = 0.01, σ = 2.5, 50 steps, orders 5, 50, 100 →
  // 2.18075656e-03, 2.38460375e-02, 1.67416308e02 (asserted here to their 9 printed digits).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"5", "2.18075656e-3"}, {"50", "2.38460375e-2"}, {"100", "1.67416308e2"}};
  for (const auto& [order, printed] : cases) {
    const Interval total = Interval(Rational(50)) * SampledGaussianRdp(R("0.01"), R("2.5"), R(order)).value;
    ExpectPrinted(total, printed, "order " + order);
  }
  // The same test lists 6.70579741e-04 (α = 1.5) and 1.08548710e-03 (α = 2.5); we do NOT
  // reproduce them (3 % and 0.006 % off). Our enclosures agree to 20+ digits with a direct
  // numerical integration of A_α = ∫ μ0 ((1−q) + q e^{(2z−1)/(2σ²)})^α (mpmath 1.3.0 quad at 30
  // digits, run for this test: 50·D_1.5 = 0.000650070897188039709694111054912,
  // 50·D_2.5 = 0.00108541805691812425795058220296), the integral dp_accounting's own
  // `_compute_a_mp` checks against.
  const std::vector<std::pair<std::string, std::string>> mp = {
      {"1.5", "0.00065007089718803970969"}, {"2.5", "0.001085418056918124258"}};
  for (const auto& [order, printed] : mp) {
    const SgmRdp v = SampledGaussianRdp(R("0.01"), R("2.5"), R(order));
    const Interval total = Interval(Rational(50)) * v.value;
    ExpectPrinted(total, printed, "order " + order + " vs mpmath quadrature");
    std::cout << "[ sgm ] order " << order << ": 50 x rdp = " << ToDecimalString(total.Mid(), 20) << " +- "
              << ToDecimalString(total.Radius(), 3) << " (terms " << v.terms << ")\n";
  }
}

TEST(SampledGaussian, QOneIsTheGaussianMechanismExactly) {
  for (int a = 2; a <= 20; ++a) {
    const Rational sigma(3, 2);
    const Enclosure log_a = SampledGaussianLogAInteger(Rational(1), sigma, a, 256);
    EXPECT_TRUE(Contains(log_a / Rational(a - 1), GaussianRdp(sigma, Rational(a))));
    const SgmRdp v = SampledGaussianRdp(Rational(1), sigma, Rational(a));
    EXPECT_TRUE(v.value.Contains(GaussianRdp(sigma, Rational(a))));
    EXPECT_LT(v.value.Radius(), R("1e-70"));
  }
  EXPECT_TRUE(SampledGaussianRdp(Rational(1), Rational(2), R("2.5")).value.Contains(GaussianRdp(Rational(2), R("2.5"))));
}

TEST(SampledGaussian, FractionalOrdersConsistentWithIntegerNeighbours) {
  // The fractional series at a near-integer order approaches the integer expansion, and the
  // fractional enclosure is rigorous: monotone in α across integer neighbours.
  const Rational q(1, 100), sigma(1);
  const Interval r3 = SampledGaussianRdp(q, sigma, Rational(3)).value;
  const Interval r35 = SampledGaussianRdp(q, sigma, R("3.5")).value;
  const Interval r4 = SampledGaussianRdp(q, sigma, Rational(4)).value;
  EXPECT_LE(r3.hi(), r35.lo());
  EXPECT_LE(r35.hi(), r4.lo());
  const Interval r3e = SampledGaussianRdp(q, sigma, R("3.000001")).value;
  EXPECT_NEAR(static_cast<double>(r3e.Mid()), static_cast<double>(r3.Mid()), 1e-6 * static_cast<double>(r3.Mid()));
}

TEST(SampledGaussian, BadArguments) {
  EXPECT_THROW(SampledGaussianRdp(Rational(0), Rational(1), Rational(2)), InvalidArgument);
  EXPECT_THROW(SampledGaussianRdp(R("1.5"), Rational(1), Rational(2)), InvalidArgument);
  EXPECT_THROW(SampledGaussianRdp(R("0.1"), Rational(0), Rational(2)), InvalidArgument);
  EXPECT_THROW(SampledGaussianRdp(R("0.1"), Rational(1), Rational(1)), InvalidArgument);
  EXPECT_THROW(SampledGaussianRdp(R("0.1"), Rational(1), R("0.5")), InvalidArgument);
}

// ---- Accountant ------------------------------------------------------------------------------

TEST(Accountant, PublishedPureDpConversion) {
  // google/differential-privacy dp_accounting rdp_privacy_accountant_test.py,
  // test_compute_epsilon_delta_pure_dp: orders 2..32, constant RDP 1.1, δ = 1e-5 →
  // ε = 1.32783806176 at order 32 (dp_accounting uses the improved conversion).
  std::vector<Rational> orders;
  for (int a = 2; a <= 32; ++a) orders.emplace_back(a);
  const AccountantResult r = Account([](const Rational&) { return Enclosure(256, R("1.1")); }, Rational(1),
                                     R("1e-5"), orders, Conversion::kImproved);
  ExpectPrinted(r.epsilon, "1.32783806176", "pure DP improved");
  EXPECT_EQ(r.order, Rational(32));
}

TEST(Accountant, ClassicAndImprovedFormulas) {
  const Enclosure rdp(256, Rational(1, 2));
  const Interval c = ToInterval(RdpToEpsilon(rdp, Rational(3), R("1e-5"), Conversion::kClassic));
  const Interval i = ToInterval(RdpToEpsilon(rdp, Rational(3), R("1e-5"), Conversion::kImproved));
  EXPECT_NEAR(static_cast<double>(c.Mid()), 0.5 + std::log(1e5) / 2, 1e-14);
  EXPECT_NEAR(static_cast<double>(i.Mid()), 0.5 + std::log(2.0 / 3) - (std::log(1e-5) + std::log(3.0)) / 2, 1e-14);
  EXPECT_LT(i.hi(), c.lo());
  EXPECT_THROW(ParseConversion("tight", "--conversion"), InvalidArgument);
  EXPECT_EQ(DefaultOrders().size(), 90u);
}

TEST(Accountant, SampledGaussian64OrdersTiming) {
  std::vector<Rational> orders;
  for (int a = 2; a <= 65; ++a) orders.emplace_back(a);
  const auto t0 = std::chrono::steady_clock::now();
  const AccountantResult r = SampledGaussianAccountant(R("0.01"), Rational(1), Rational(1000), R("1e-5"), orders,
                                                       Conversion::kClassic);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "[ timing ] accountant, 64 integer orders, 256 bits: " << ms << " ms; eps = "
            << ToDecimalString(r.epsilon.Mid(), 12) << " at order " << ToExactString(r.order) << "\n";
  // Independent double check of the chosen value.
  const int a = static_cast<int>(boost::multiprecision::numerator(r.order));
  const double ref = 1000 * OpacusStyleRdpInt(0.01, 1.0, a) + std::log(1e5) / (a - 1);
  EXPECT_NEAR(static_cast<double>(r.epsilon.Mid()), ref, 1e-9 * ref);
  const auto t1 = std::chrono::steady_clock::now();
  SampledGaussianAccountant(R("0.01"), Rational(1), Rational(1000), R("1e-5"), DefaultOrders(), Conversion::kImproved);
  std::cout << "[ timing ] accountant, 90 default orders (27 fractional): "
            << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count() << " ms\n";
}

// ---- Randomized response (spec 004) ----------------------------------------------------------

struct RhoVector {
  const char* gamma;
  const char* values[8];  // α = 1 (KL), 1.5, 2, 4, 8, 16, 32, ∞
};
// seed-004 §7.2, ρ_γ(α) table.
const RhoVector kRho[] = {
    {"0.05", {"0.02006706955", "0.02995099756", "0.0396091381", "0.07455517406", "0.1221386248", "0.1609472753", "0.1813857352", "0.2006706955"}},
    {"0.1", {"0.08109302162", "0.1192634208", "0.1541506798", "0.2541495488", "0.332815884", "0.3714102983", "0.3889868622", "0.4054651081"}},
    {"0.2", {"0.3389191442", "0.4711933974", "0.5663954749", "0.7292902388", "0.7963447287", "0.8235195308", "0.835792217", "0.8472978604"}},
    {"0.3", {"0.8317766167", "1.061256502", "1.178654996", "1.311933522", "1.354416711", "1.371418124", "1.379096182", "1.386294361"}},
    {"0.4", {"1.757779662", "2.011043731", "2.093234864", "2.162104475", "2.182173075", "2.190200543", "2.193825851", "2.197224577"}},
    {"0.45", {"2.649995081", "2.847384897", "2.893291468", "2.927341215", "2.937111366", "2.941019426", "2.942784357", "2.944438979"}},
};

TEST(RandomizedResponse, Seed004RhoTable) {
  const char* orders[] = {"1.5", "2", "4", "8", "16", "32"};
  for (const RhoVector& row : kRho) {
    const Rational p = Rational(1, 2) + R(row.gamma);
    ExpectPrinted(RrKl(p), row.values[0], std::string("KL gamma ") + row.gamma);
    for (int i = 0; i < 6; ++i)
      ExpectPrinted(RrRdp(p, R(orders[i])), row.values[i + 1], std::string("gamma ") + row.gamma + " alpha " + orders[i]);
    ExpectPrinted(RrInfinity(p), row.values[7], std::string("inf gamma ") + row.gamma);
  }
}

TEST(RandomizedResponse, Seed004ExactS) {
  // seed-004 §7.2 exact S(α, γ).
  const Rational p1 = Rational(1, 2) + Rational(1, 10), p2 = Rational(3, 4), p3 = Rational(9, 10);
  EXPECT_EQ(RrSInteger(p1, 2), Rational(7, 6));
  EXPECT_EQ(RrSInteger(p1, 3), Rational(55, 36));
  EXPECT_EQ(RrSInteger(p1, 4), Rational(463, 216));
  EXPECT_EQ(RrSInteger(p2, 2), Rational(7, 3));
  EXPECT_EQ(RrSInteger(p2, 3), Rational(61, 9));
  EXPECT_EQ(RrSInteger(p2, 4), Rational(547, 27));
  EXPECT_EQ(RrSInteger(p3, 2), Rational(73, 9));
  EXPECT_EQ(RrSInteger(p3, 3), Rational(5905, 81));
  EXPECT_EQ(RrSInteger(p3, 4), Rational(478297, 729));
  ExpectPrinted(RrRdp(p1, Rational(2)), "0.154150679827258", "rho_{1/10}(2) = ln(7/6)");
  // ρ_{1/4}(3) = ½ ln(61/9): the enclosure contains the independently enclosed value.
  const Interval a = RrRdp(p2, Rational(3));
  const Interval b = ToInterval(LogQ(256, Rational(61, 9)) / Rational(2));
  EXPECT_TRUE(a.lo() <= b.hi() && b.lo() <= a.hi());
}

TEST(RandomizedResponse, Seed004ExactDelta) {
  // seed-004 §7.2: γ = 1/4, e^ε = 2: k = 1 → 1/4; k = 2 → 7/16; k = 3 → 17/32 (ε = ln 2 enclosed).
  const Rational g(1, 4);
  const char* expected[] = {"1/4", "7/16", "17/32"};
  for (int k = 1; k <= 3; ++k) {
    // ε = ln 2 is irrational: bracket it by two rationals and use monotonicity of δ(ε).
    const Interval ln2 = ToInterval(LogQ(256, Rational(2)));
    const Interval above = BnnExactDelta(ln2.lo(), g, Rational(k));
    const Interval below = BnnExactDelta(ln2.hi(), g, Rational(k));
    const Rational want = R(expected[k - 1]);
    EXPECT_LE(below.lo(), want);
    EXPECT_GE(above.hi(), want);
    EXPECT_LT(above.hi() - below.lo(), R("1e-70"));
  }
  ExpectPrinted(BnnExactDelta(Rational(0), R("0.2"), Rational(7)), "0.747928", "TV gamma 0.2 k 7");
  ExpectPrinted(BnnExactDelta(Rational(1), R("0.05"), Rational(10)), "0.0251009132398138", "delta(1) gamma 0.05 k 10");
  ExpectPrinted(BnnExactDelta(R("0.3"), R("0.25"), Rational(1)), "0.412535298105999", "delta(0.3) gamma 0.25 k 1");
  ExpectPrinted(BnnExactDelta(R("23.65423514"), R("0.1"), Rational(100)), "1.00000000024e-5", "delta(23.65) k 100");
}

TEST(Bnn, Seed004Section55Table) {
  // seed-004 §5.5: T = 100, δ = 1e-5, d = 1.
  struct Row { const char *gamma, *thm1, *rdp_opt, *alpha_opt, *exact, *pure, *rdp_opt_full; };
  const Row rows[] = {
      {"0.01", "1.961790019", "1.955176876", "13.858", "1.532548363", "4.000533461", "7097.796197"},
      {"0.05", "11.55872849", "11.23954325", "3.654", "9.789940984", "20.06706955", nullptr},
      {"0.1", "28.31214705", "26.14638278", "2.390", "23.65423514", "40.54651081", "669183.362"},
      {"0.2", "83.34267836", "67.6335844", "1.791", "63.93091499", "84.72978604", "2784643.554"},
      {"0.3", "180.9169344", "128.2196387", "1.670", "124.2079428", "138.6294361", "6823143.864"},
      {"0.4", "361.8247486", "219.7224577", nullptr, "219.2500734", "219.7224577", "14405159.77"},
  };
  for (const Row& row : rows) {
    BnnSetting s;
    s.gamma = R(row.gamma);
    s.rounds = 100;
    s.delta = R("1e-5");
    const std::string g = row.gamma;
    ExpectPrinted(BnnEpsilonThm1(s), row.thm1, "eps_thm1 gamma " + g);
    const RdpOptimum opt = BnnEpsilonRdpOpt(s);
    ExpectPrinted(opt.epsilon, row.rdp_opt, "eps_rdp_opt gamma " + g);
    if (row.alpha_opt != nullptr) {
      ASSERT_TRUE(opt.order.has_value()) << g;
      ExpectPrinted(Interval(*opt.order), row.alpha_opt, "alpha_opt gamma " + g);
    } else {
      EXPECT_FALSE(opt.order.has_value()) << "gamma 0.4: the optimum is alpha = infinity (spec §4.7)";
    }
    ExpectPrinted(BnnEpsilonExact(s), row.exact, "eps_exact gamma " + g);
    ExpectPrinted(BnnEpsilonPure(s), row.pure, "eps_pure = T ell, gamma " + g);
    if (row.rdp_opt_full != nullptr) {
      BnnSetting full = s;
      full.hamming = 81848;
      ExpectPrinted(BnnEpsilonRdpOpt(full).epsilon, row.rdp_opt_full, "eps_rdp_opt d=81848 gamma " + g);
    }
  }
}

TEST(Bnn, Seed004GammaMaxTable) {
  // seed-004 §5.5: γ_max of the corrected Theorem 1, T = 100, δ = 1e-5.
  struct Row { const char *eps, *alpha_star, *d1, *dfull; };
  const Row rows[] = {
      {"1", "24.0258509299", "0.00519866917196863", "1.78277561652117e-5"},
      {"2", "12.512925465", "0.0101869591989603", nullptr},
      {"4", "6.75646273249", "0.0196018365464237", nullptr},
      {"8", "3.87823136624", "0.0365656741652493", nullptr},
      {"10", "3.30258509299", "0.0442826829549317", "0.000152057925023352"},
  };
  const Rational delta = R("1e-5");
  for (const Row& row : rows) {
    const std::string e = row.eps;
    ExpectPrinted(BnnAlphaStar(R(row.eps), delta), row.alpha_star, "alpha* eps " + e);
    ExpectPrinted(BnnGammaMax(R(row.eps), delta, Rational(100), Rational(1), false), row.d1, "gamma_max d=1 eps " + e);
    if (row.dfull != nullptr)
      ExpectPrinted(BnnGammaMax(R(row.eps), delta, Rational(100), Rational(81848), false), row.dfull,
                    "gamma_max d=81848 eps " + e);
  }
  ExpectPrinted(BnnGammaMax(Rational(1), delta, Rational(1), Rational(1), false), "0.127208285403643", "T=1");
  // E3: as printed, (1/δ)/T gives γ_max ≈ 1/2 − 1.4e-19 (spec 004 §6 E3, 2 digits).
  const Interval printed = BnnGammaMax(Rational(1), delta, Rational(100), Rational(1), true);
  ExpectPrinted(Interval(Rational(Rational(1, 2) - printed.hi()), Rational(Rational(1, 2) - printed.lo())), "1.4e-19",
                "1/2 - gamma_max as printed");
}

TEST(Bnn, Thm1RoundTripAndBadArguments) {
  // At γ_max the Lemma-1 bound at α* equals ε (spec 004 §4.5): ε_thm1(γ_max) ≈ ε.
  const Interval g = BnnGammaMax(Rational(4), R("1e-5"), Rational(100), Rational(1), false);
  BnnSetting s;
  s.gamma = g.lo();
  s.rounds = 100;
  s.delta = R("1e-5");
  const Interval e = BnnEpsilonThm1(s);
  EXPECT_NEAR(static_cast<double>(e.Mid()), 4.0, 1e-30 + 1e-25);
  EXPECT_LE(e.hi(), Rational(4) + R("1e-30"));
  s.gamma = Rational(1, 2);
  EXPECT_THROW(BnnEpsilonThm1(s), InvalidArgument);
  s.gamma = Rational(-1, 10);
  EXPECT_THROW(BnnEpsilonRdpOpt(s), InvalidArgument);
  EXPECT_THROW(RrRdp(Rational(0), Rational(2)), InvalidArgument);
  EXPECT_THROW(RrRdp(Rational(1), Rational(2)), InvalidArgument);
  EXPECT_THROW(RrRdp(Rational(1, 3), Rational(1)), InvalidArgument);
  EXPECT_THROW(BnnExactDelta(Rational(1), Rational(1, 10), Rational(kBnnExactMaxBits + 1)), InvalidArgument);
}


// ---- DPFL-BNN exact profile for large k: the binomial-tail method (spec 004 §4.6, §7 item 7) ---

// Seconds since t0 (for the timing lines).
double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
// Both ends agree to a relative 1e-30 (δ > 0).
void ExpectNarrow(const Interval& v, const std::string& what) {
  EXPECT_GT(v.lo(), 0) << what;
  EXPECT_LE(v.hi() - v.lo(), R("1e-30") * v.lo()) << what << ": [" << ToDecimalString(v.lo(), 40) << ", "
                                                  << ToDecimalString(v.hi(), 40) << "]";
}
bool Overlap(const Interval& a, const Interval& b) { return a.lo() <= b.hi() && b.lo() <= a.hi(); }
bool Same(const Interval& a, const Interval& b) { return a.lo() == b.lo() && a.hi() == b.hi(); }

TEST(Bnn, TailMethodAgreesWithRationalSums) {
  // The two independent methods on the overlap k ≤ 20000: ε = c·k·ℓ (rounded down to a rational)
  // for c ∈ {0, 1/20, 3/10, 9/10}, and ε = 1 where δ(1) > 0. The rational method costs ~k² (one
  // pmf pair per call: ~1 s at k = 5000, ~25 s at k = 20000), so the largest k get fewer points.
  struct Case { unsigned long k; std::vector<const char*> gammas; std::vector<Rational> cs; bool eps_one; };
  const std::vector<Rational> all_c = {Rational(0), Rational(1, 20), Rational(3, 10), Rational(9, 10)};
  const Case cases[] = {{1, {"0.01", "0.1", "0.4"}, all_c, true},
                        {7, {"0.01", "0.1", "0.4"}, all_c, true},
                        {100, {"0.01", "0.1", "0.4"}, all_c, true},
                        {1000, {"0.01", "0.1", "0.4"}, all_c, true},
                        {5000, {"0.1"}, {Rational(0), Rational(3, 10)}, true}};
  for (const Case& c : cases) {
    for (const char* gs : c.gammas) {
      const Rational g = R(gs), p = Rational(1, 2) + g;
      const Rational ell = RrInfinity(p).lo();
      std::vector<Rational> eps;
      for (const Rational& f : c.cs) eps.push_back(Rational(FloorInt(Rational(f * Rational(c.k) * ell * 1000000))) / 1000000);
      if (c.eps_one && Rational(c.k) * ell > 2) eps.push_back(Rational(1));
      for (const Rational& e : eps) {
        const std::string what = std::string("gamma ") + gs + " k " + std::to_string(c.k) + " eps " + ToDecimalString(e, 12);
        const Interval rational = BnnExactDelta(e, g, Rational(c.k));
        const Interval tail = BnnExactDeltaTail(e, g, Rational(c.k));
        EXPECT_TRUE(Overlap(rational, tail)) << what << ": [" << ToDecimalString(rational.lo(), 30) << ", "
                                             << ToDecimalString(rational.hi(), 30) << "] vs ["
                                             << ToDecimalString(tail.lo(), 30) << ", " << ToDecimalString(tail.hi(), 30)
                                             << "]";
        ExpectNarrow(rational, what + " (rational)");
        ExpectNarrow(tail, what + " (tail)");
      }
    }
  }
  // k = 20000, the largest k of the rational method: ε_exact by both (one rational pmf pair).
  BnnSetting s;
  s.gamma = R("0.1");
  s.rounds = 200;
  s.hamming = 100;
  s.delta = R("1e-5");
  auto t0 = std::chrono::steady_clock::now();
  const Interval rational = BnnEpsilonExact(s);
  const double t_rational = SecondsSince(t0);
  t0 = std::chrono::steady_clock::now();
  const Interval tail = BnnEpsilonExactTail(s);
  const double t_tail = SecondsSince(t0);
  std::cout << "[ timing ] eps_exact k = 20000 gamma 0.1: rational " << t_rational << " s, tail " << t_tail
            << " s; eps = " << ToDecimalString(tail.Mid(), 20) << "\n";
  EXPECT_TRUE(Overlap(rational, tail));
  EXPECT_LE(tail.hi() - tail.lo(), R("1e-30") * tail.lo());
  EXPECT_LE(rational.hi() - rational.lo(), R("1e-30") * rational.lo());
  // The bracket brackets: δ(hi) < δ < δ(lo).
  EXPECT_LT(BnnExactDeltaTail(tail.hi(), s.gamma, Rational(20000)).hi(), s.delta);
  EXPECT_GT(BnnExactDeltaTail(tail.lo(), s.gamma, Rational(20000)).lo(), s.delta);
}

TEST(Bnn, TailMethodSpec004Vectors) {
  // seed-004 §7.2 by the tail method: γ = 1/4, e^ε = 2 → 1/4, 7/16, 17/32 (ε = ln 2 bracketed).
  const Interval ln2 = ToInterval(LogQ(256, Rational(2)));
  const char* expected[] = {"1/4", "7/16", "17/32"};
  for (int k = 1; k <= 3; ++k) {
    const Interval above = BnnExactDeltaTail(ln2.lo(), Rational(1, 4), Rational(k));
    const Interval below = BnnExactDeltaTail(ln2.hi(), Rational(1, 4), Rational(k));
    EXPECT_LE(below.lo(), R(expected[k - 1])) << k;
    EXPECT_GE(above.hi(), R(expected[k - 1])) << k;
    EXPECT_LT(above.hi() - below.lo(), R("1e-70")) << k;
  }
  ExpectPrinted(BnnExactDeltaTail(Rational(0), R("0.2"), Rational(7)), "0.747928", "TV gamma 0.2 k 7");
  ExpectPrinted(BnnExactDeltaTail(Rational(1), R("0.05"), Rational(10)), "0.0251009132398138", "delta(1) gamma 0.05 k 10");
  ExpectPrinted(BnnExactDeltaTail(R("0.3"), R("0.25"), Rational(1)), "0.412535298105999", "delta(0.3) gamma 0.25 k 1");
  ExpectPrinted(BnnExactDeltaTail(R("23.65423514"), R("0.1"), Rational(100)), "1.00000000024e-5", "delta(23.65) k 100");
  // k = 1: δ(0) = 2γ exactly inside the enclosure; δ(ε) = 0 from ε = kℓ on, δ ≡ 0 at γ = 0.
  EXPECT_TRUE(BnnExactDeltaTail(Rational(0), R("0.15"), Rational(1)).Contains(R("0.3")));
  EXPECT_TRUE(Same(BnnExactDeltaTail(Rational(100), R("0.1"), Rational(100)), Interval(Rational(0))));
  EXPECT_TRUE(Same(BnnExactDeltaTail(Rational(1), Rational(0), Rational(10000000)), Interval(Rational(0))));
  // seed-004 §5.5, the ε_exact column (T = 100, d = 1, δ = 1e-5).
  const char* rows[][2] = {{"0.01", "1.532548363"}, {"0.05", "9.789940984"}, {"0.1", "23.65423514"},
                           {"0.2", "63.93091499"},  {"0.3", "124.2079428"}, {"0.4", "219.2500734"}};
  for (const auto& row : rows) {
    BnnSetting s;
    s.gamma = R(row[0]);
    s.rounds = 100;
    s.delta = R("1e-5");
    ExpectPrinted(BnnEpsilonExactTail(s), row[1], std::string("eps_exact (tail) gamma ") + row[0]);
  }
}

TEST(Bnn, TailMethodLargeKWholeModel) {
  // The DPFL-BNN certificate: T = 100 rounds of the d = 81 848 binarized weights, k = 8 184 800.
  for (const char* gs : {"0.001", "0.1"}) {
    BnnSetting s;
    s.gamma = R(gs);
    s.rounds = 100;
    s.hamming = 81848;
    s.delta = R("1e-5");
    const Rational k(8184800);
    const auto t0 = std::chrono::steady_clock::now();
    const Interval exact = BnnEpsilonExact(s);
    const double t_exact = SecondsSince(t0);
    const Interval rdp = BnnEpsilonRdpOpt(s).epsilon;
    const Interval thm1 = BnnEpsilonThm1(s);
    const Interval pure = BnnEpsilonPure(s);
    std::cout << "[ timing ] eps_exact k = 8184800 gamma " << gs << ": " << t_exact << " s; eps_exact = ["
              << ToDecimalString(exact.lo(), 16) << ", " << ToDecimalString(exact.hi(), 16)
              << "], eps_rdp_opt = " << ToDecimalString(rdp.Mid(), 12) << ", eps_thm1 = " << ToDecimalString(thm1.Mid(), 12)
              << ", k ell = " << ToDecimalString(pure.Mid(), 12) << "\n";
    EXPECT_LT(t_exact, 30.0) << "a few seconds expected on 2 cores";
    // spec 004 §4.6 / §7.3 property 13: ε_exact ≤ ε_rdp-opt ≤ ε_thm1, and ε_exact ≤ kℓ.
    EXPECT_LT(exact.hi(), rdp.lo()) << gs;
    EXPECT_LE(rdp.hi(), thm1.hi()) << gs;
    EXPECT_LT(exact.hi(), pure.lo()) << gs;
    EXPECT_LE(exact.hi() - exact.lo(), R("1e-30") * exact.lo()) << gs;
    // The bracket really brackets: δ(hi) < δ < δ(lo) (one fresh evaluation each, timed).
    const auto t1 = std::chrono::steady_clock::now();
    const Interval d_hi = BnnExactDelta(exact.hi(), s.gamma, k);
    std::cout << "[ timing ] one delta(eps) at k = 8184800 gamma " << gs << ": " << SecondsSince(t1) << " s\n";
    EXPECT_LT(d_hi.hi(), s.delta) << gs;
    EXPECT_GT(BnnExactDelta(exact.lo(), s.gamma, k).lo(), s.delta) << gs;
    // RDP validity (§7.3 property 13): δ_exact(ε_rdp-opt) ≤ δ.
    EXPECT_LT(BnnExactDeltaTail(rdp.lo(), s.gamma, k).hi(), s.delta) << gs;
    // Precision independence: 320 bits gives an overlapping, no wider-than-needed enclosure.
    const Interval d320 = BnnExactDeltaTail(exact.hi(), s.gamma, k, 320);
    EXPECT_TRUE(Overlap(d_hi, d320)) << gs;
    ExpectNarrow(d320, std::string("delta at 320 bits gamma ") + gs);
  }
}

TEST(Bnn, TailMethodMonotoneInEpsilonAtLargeK) {
  // δ(ε) is strictly decreasing while ε < kℓ (δ'(ε) = −e^ε P[Bin(k,q) ≥ j*] < 0): consecutive grid
  // points must be certainly ordered. k = 8 184 800, γ = 1e-3 (kℓ ≈ 32 739.3), ε = 0, 5, …, 200,
  // then 1000, 5000, 30000 and 40000 (where δ = 0 exactly).
  BnnTailProfile profile(R("0.001"), Rational(8184800));
  std::vector<Rational> grid;
  for (int e = 0; e <= 200; e += 5) grid.emplace_back(e);
  for (int e : {1000, 5000, 30000}) grid.emplace_back(e);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<Interval> d;
  for (const Rational& e : grid) d.push_back(ToInterval(profile.Delta(e)));
  std::cout << "[ timing ] " << grid.size() << " delta(eps) at k = 8184800 (cached tails): " << SecondsSince(t0) << " s\n";
  for (size_t i = 0; i + 1 < d.size(); ++i) EXPECT_GT(d[i].lo(), d[i + 1].hi()) << ToDecimalString(grid[i], 6);
  EXPECT_TRUE(Same(ToInterval(profile.Delta(Rational(40000))), Interval(Rational(0))));
  // δ(0) is the TV distance of Bin(k, p) and Bin(k, q): below 1, above δ(5).
  EXPECT_LT(d.front().hi(), 1);
  // The uncached entry point agrees at a few points.
  for (size_t i : {size_t{0}, size_t{20}, size_t{40}})
    EXPECT_TRUE(Overlap(d[i], BnnExactDelta(grid[i], R("0.001"), Rational(8184800)))) << i;
}

TEST(Bnn, TailMethodClampsAndCaps) {
  // k = 100 000, γ = 0.1, ε = (k − 1)ℓ rounded down: j* = k, δ = p^k − e^ε q^k < p^k < 2^−65536,
  // reported as [0, 2^−65536].
  const Rational k(100000);
  const Rational eps = Rational(FloorInt(Rational(Rational(99999) * RrInfinity(R("0.6")).lo() * 1000))) / 1000;
  EXPECT_TRUE(Same(BnnExactDeltaTail(eps, R("0.1"), k), Interval(Rational(0), Pow2(-65536))));
  EXPECT_THROW(BnnExactDeltaTail(Rational(1), R("0.1"), Rational(kBnnExactMaxBits + 1)), InvalidArgument);
  EXPECT_THROW(BnnExactDeltaTail(Rational(-1), R("0.1"), Rational(10)), InvalidArgument);
  EXPECT_THROW(BnnExactDeltaTail(Rational(1), R("0.5"), Rational(10)), InvalidArgument);
  // The term budget: 2^40 bits at 100 000 bits of precision would need ~10^9 terms per tail.
  EXPECT_THROW(BnnTailProfile(R("0.1"), Rational(kBnnExactMaxBits), 100000), InvalidArgument);
}

}  // namespace
}  // namespace dpfl::ref
