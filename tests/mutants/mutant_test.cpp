// Planted-mutant catalog (label `mutants`): proves that the statistical harness has teeth.
//
// DESIGN.md "Statistical testing conventions": "A catalog of planted mutants proves the harness
// has teeth." Each mutant is a fault policy deriving from dpfl::quant::NoFaults with one flag
// overridden, instantiated through the production templated encoders (cpu_encoders.hpp), so the
// faults live in *the production code paths*, stream addressing included. The harness below is
// the statistical suite of tests/statistical/quantizer_stat_test.cpp on the Philox generator:
// the same 24 fixed-seed instances, N = 2^20 samples per test, the same checks (CorBinQ joint,
// LDPQ marginal, CoQ-FL joint, lag-1 independence, aggregate bias and MSE), α_test = 1e-3 with
// Holm over the whole family. Every mutant must be flagged; the real quantizers must not be.
// Results (statistic, p-value, sample size) are printed and recorded in docs/mutants.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/cpu_encoders.hpp"  // internal (dpfl_testing_internals)
#include "dpfl/ref/coq.hpp"
#include "dpfl/ref/corbin_fl.hpp"
#include "dpfl/ref/corbinq.hpp"
#include "dpfl/ref/ldpq.hpp"
#include "testing/bit_counts.hpp"
#include "testing/quantizer_instances.hpp"
#include "testing/stat.hpp"

namespace {

namespace q = dpfl::quant;
namespace ref = dpfl::ref;
namespace stat = dpfl::testing::stat;
using ref::Rational;

// ---- Harness constants (identical to tests/statistical/quantizer_stat_test.cpp) --------------
// α_test = 1e-3: family-wise false-alarm probability (Holm over all m = 98 checks); the real
// quantizers fail this harness with probability ≤ 1e-3 under another key.
// Power (printed by RealQuantizersPassTheHarness): at N = 2^20 and Holm's step-1 level
// 1e-3/98, any shift of ≥ 0.0037 (dof 1) / 0.0039 (dof 3) probability between two outcomes is
// detected with probability ≥ 0.999 (non-central χ², stat::NoncentralityForPower).
constexpr double kAlphaTest = 1e-3;
constexpr double kPower = 0.999;
constexpr int kInstances = 24;
constexpr std::size_t kSamples = std::size_t{1} << 20;
constexpr std::size_t kAggregateParams = std::size_t{1} << 20;
constexpr std::uint64_t kInstanceSeed = 0x5eed000000000001ULL;

// ---- The catalog ---------------------------------------------------------------------------------
// seed-000 E3: Alg. 2 line 14 as printed (Q2 compares with T1).
struct Line14AsPrinted : q::NoFaults {
  static constexpr bool kLine14AsPrinted = true;
};
// seed-001 E1: ProbabilityList off by one (Alice's marginal P − 2^-d).
struct ProbListOffByOne : q::NoFaults {
  static constexpr bool kProbListOffByOne = true;
};
// seed-000 §3.0: U ∈ {0, 1} (decoded levels {c, c + rα}).
struct DecodeZeroOne : q::NoFaults {
  static constexpr bool kDecodeZeroOne = true;
};
// Private tie-break coin dropped (private bits of V forced to 0).
struct DropTieCoin : q::NoFaults {
  static constexpr bool kDropTieCoin = true;
};
// Q1 threshold off by one whole cell, up or down.
struct CellOffsetPlus : q::NoFaults {
  static constexpr int kQ1CellOffset = 1;
};
struct CellOffsetMinus : q::NoFaults {
  static constexpr int kQ1CellOffset = -1;
};
// Parameter 0's shared bits reused for every parameter (marginals right, independence wrong).
struct ReuseSharedBits : q::NoFaults {
  static constexpr bool kReuseSharedBits = true;
};
// Partner roles not reversed (Q2 runs the Q1 rule: comonotone instead of countermonotone).
struct BothRolesQ1 : q::NoFaults {
  static constexpr bool kBothRolesQ1 = true;
};
// Float-threshold rounding: cell index round(2^d q) instead of ⌊2^d q⌋.
struct RoundCellToNearest : q::NoFaults {
  static constexpr bool kRoundCellToNearest = true;
};
// Clipping to [c − rα, c + rα] instead of [c − r, c + r].
struct ClipToAlphaRadius : q::NoFaults {
  static constexpr bool kClipToAlphaRadius = true;
};
// seed-000 E1 (α sign as printed: α = (1+E)/(1−E) = −(E+1)/(E−1)) is a fault of the levels,
// not of the rules: the production levels with α and 1/(2rα) negated (both exact in IEEE
// arithmetic), which then run through the production rules unchanged.
q::BinaryLevels MakeBinaryLevelsAlphaAsPrinted(double eps, double c, double r) {
  q::BinaryLevels k = q::MakeBinaryLevels(eps, c, r);
  k.alpha = -k.alpha;
  k.inv_two_r_alpha = -k.inv_two_r_alpha;
  return k;
}

using LevelsFn = q::BinaryLevels (*)(double, double, double);

// ---- Instances (same fixed-seed family as the statistical suite) -------------------------------
using dpfl::testing::ClipExact;
using dpfl::testing::Exact;
using dpfl::testing::Instance;
using dpfl::testing::ToDouble;
std::vector<Instance> MakeInstances() { return dpfl::testing::MakeInstances(kInstances, kInstanceSeed); }

q::StreamContext Context(std::uint64_t seed, std::uint32_t round) {
  q::StreamContext ctx;
  ctx.generator = dpfl::rng::Generator::kPhilox4x32;
  std::mt19937_64 g(seed);
  for (auto& w : ctx.key.words) w = static_cast<std::uint32_t>(g());
  ctx.round = round;
  return ctx;
}

std::array<double, 4> ToProbs(const Rational& mm, const Rational& mp, const Rational& pm, const Rational& pp) {
  return {ToDouble(mm), ToDouble(mp), ToDouble(pm), ToDouble(pp)};
}
using dpfl::testing::JointCounts;
using dpfl::testing::LagOneCounts;

// ---- Harness -------------------------------------------------------------------------------------
enum class Kind { kCorBinQJoint, kLdpqMarginal, kCoqJoint, kLagOne, kAggregateBias, kAggregateMse };
const char* KindName(Kind k) {
  switch (k) {
    case Kind::kCorBinQJoint: return "CorBinQ joint X2";
    case Kind::kLdpqMarginal: return "LDPQ marginal X2";
    case Kind::kCoqJoint: return "CoQ-FL joint X2";
    case Kind::kLagOne: return "lag-1 independence X2";
    case Kind::kAggregateBias: return "aggregate bias z";
    case Kind::kAggregateMse: return "aggregate MSE z";
  }
  return "?";
}

struct Check {
  Kind kind;
  int instance;  // −1 for aggregate checks
  double statistic;
  int dof;       // 0 for z tests
  double p_value;
  std::size_t n;
  bool rejected = false;
};

struct HarnessResult {
  std::vector<Check> checks;
  std::size_t rejected = 0;
  const Check* Strongest() const {  // smallest p-value, ties broken by the larger statistic
    const Check* best = &checks.front();
    for (const Check& c : checks)
      if (c.p_value < best->p_value || (c.p_value == best->p_value && std::fabs(c.statistic) > std::fabs(best->statistic)))
        best = &c;
    return best;
  }
  bool Rejected(Kind k) const {
    return std::any_of(checks.begin(), checks.end(), [&](const Check& c) { return c.kind == k && c.rejected; });
  }
};

template <class Faults>
HarnessResult RunHarness(LevelsFn make_levels) {
  const std::vector<Instance> instances = MakeInstances();
  HarnessResult out;
  const std::size_t words = q::PackedWords(kSamples);
  std::vector<std::uint64_t> b1(words), b2(words), bl(words), ba(words), bb(words);
  for (int i = 0; i < kInstances; ++i) {
    const Instance& in = instances[static_cast<std::size_t>(i)];
    const q::BinaryLevels lv = make_levels(std::log(ToDouble(in.E)), in.c, in.r);
    const std::vector<float> w1(kSamples, in.w1), w2(kSamples, in.w2);
    const q::StreamContext ctx = Context(0x3117A47 + static_cast<std::uint64_t>(i), static_cast<std::uint32_t>(i));
    q::detail::EncodeCorBinQPairT<Faults>(lv, w1, w2, in.d, ctx, 1, 10, 11, b1, b2, 1);
    q::detail::EncodeLdpqT<Faults>(lv, w1, ctx, 12, bl, 1);
    // CoQ-FL with p_x = 1/2 (what EncodeCoq runs): Alice = Q1 role, Bob = Q2 role.
    q::detail::EncodeCorBinQT<Faults>(lv, w1, in.d, q::PairRole::kQ1, ctx, 2, 13, ba, 1);
    q::detail::EncodeCorBinQT<Faults>(lv, w2, in.d, q::PairRole::kQ2, ctx, 2, 14, bb, 1);

    const auto res = ref::EvaluateCorBinQ<Rational>(in.E, in.c_x, in.r_x, in.w1_x, in.w2_x, in.d, ref::Line14::kCorrected);
    auto add = [&](Kind k, const stat::GofResult& g) {
      out.checks.push_back({k, i, g.statistic, g.dof, g.p_value, kSamples});
    };
    add(Kind::kCorBinQJoint,
        stat::ChiSquareGof(JointCounts(b1, b2), ToProbs(res.joint.mm, res.joint.mp, res.joint.pm, res.joint.pp)));
    const auto ldpq = ref::Ldpq<Rational>(in.E, in.c_x, in.r_x, in.w1_x);
    std::uint64_t ones = 0;
    for (std::uint64_t w : bl) ones += static_cast<std::uint64_t>(std::popcount(w));
    const std::array<std::uint64_t, 2> cl = {kSamples - ones, ones};
    const std::array<double, 2> pl = {ToDouble(ldpq.q_minus), ToDouble(ldpq.q_plus)};
    add(Kind::kLdpqMarginal, stat::ChiSquareGof(cl, pl));
    const auto coq = ref::EvaluateCoq<Rational>(in.E, in.c_x, in.r_x, in.w1_x, in.w2_x, in.d, Rational(1, 2),
                                                ref::CoqList::kCorrected);
    add(Kind::kCoqJoint,
        stat::ChiSquareGof(JointCounts(ba, bb), ToProbs(coq.joint.mm, coq.joint.mp, coq.joint.pm, coq.joint.pp)));
    const Rational p = res.q1, qm = Rational(1) - res.q1;
    add(Kind::kLagOne,
        stat::ChiSquareGof(LagOneCounts(b1), ToProbs(Rational(qm * qm), Rational(qm * p), Rational(p * qm), Rational(p * p))));
  }
  // Aggregate: n = 10 clients, 4 pairs + 2 solo; counts of "+" bits (AccumulateBits) decoded by
  // the production aggregation code DecodeMeanT<Faults> (DecodeMean = DecodeMeanT<NoFaults>).
  {
    const Rational E(5, 2), c(1, 4), r(3, 4);
    const int d = 4;
    const std::array<float, 10> wf = {0.9f, -0.4f, 0.125f, 1.5f, -0.3f, 0.7f, 0.2f, 0.25f, 0.95f, -0.75f};
    ref::ClientLayout layout;
    layout.pairs = {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
    layout.solo = {8, 9};
    std::vector<Rational> wx;
    Rational mean_x(0);
    for (float w : wf) {
      wx.push_back(ClipExact(Exact(w), c, r));
      mean_x += wx.back();
    }
    mean_x /= 10;
    const auto agg = ref::AggregateMse<Rational>(E, c, r, d, wx, layout);
    const double target = ToDouble(mean_x), mse = ToDouble(agg.mse);
    const q::BinaryLevels lv = make_levels(std::log(ToDouble(E)), ToDouble(c), ToDouble(r));
    const q::StreamContext ctx = Context(0xA66, 3);
    std::vector<std::uint32_t> counts(kAggregateParams, 0);
    const std::size_t aw = q::PackedWords(kAggregateParams);
    std::vector<std::uint64_t> x1(aw), x2(aw);
    auto decode = [&](const std::vector<std::uint64_t>& bits) { q::AccumulateBits(bits, counts); };
    for (std::size_t pi = 0; pi < layout.pairs.size(); ++pi) {
      const auto [i, k] = layout.pairs[pi];
      const std::vector<float> w1(kAggregateParams, wf[i]), w2(kAggregateParams, wf[k]);
      q::detail::EncodeCorBinQPairT<Faults>(lv, w1, w2, d, ctx, static_cast<std::uint32_t>(pi),
                                            static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(k), x1, x2, 1);
      decode(x1);
      decode(x2);
    }
    for (std::size_t i : layout.solo) {
      const std::vector<float> w(kAggregateParams, wf[i]);
      q::detail::EncodeLdpqT<Faults>(lv, w, ctx, static_cast<std::uint32_t>(i), x1, 1);
      decode(x1);
    }
    std::vector<float> mean(kAggregateParams);
    q::detail::DecodeMeanT<Faults>(lv, counts, 10, mean);
    std::vector<double> e(kAggregateParams), e2(kAggregateParams);
    for (std::size_t j = 0; j < kAggregateParams; ++j) {
      e[j] = static_cast<double>(mean[j]) - target;
      e2[j] = e[j] * e[j];
    }
    const stat::MeanTest bias = stat::ZTestMean(e, 0.0, std::sqrt(mse));
    const stat::MeanTest mse_t = stat::ZTestMean(e2, mse);
    out.checks.push_back({Kind::kAggregateBias, -1, bias.z, 0, bias.p_value, kAggregateParams});
    out.checks.push_back({Kind::kAggregateMse, -1, mse_t.z, 0, mse_t.p_value, kAggregateParams});
  }
  std::vector<double> pv;
  for (const Check& c : out.checks) pv.push_back(c.p_value);
  const std::vector<bool> reject = stat::HolmReject(pv, kAlphaTest);
  for (std::size_t i = 0; i < reject.size(); ++i) {
    out.checks[i].rejected = reject[i];
    out.rejected += reject[i] ? 1 : 0;
  }
  return out;
}

// One row of the docs/mutants.md table: rejections per check kind, then the strongest check.
void Report(const char* mutant, const char* erratum, const HarnessResult& r, double seconds) {
  std::string by_kind;
  for (Kind k : {Kind::kCorBinQJoint, Kind::kLdpqMarginal, Kind::kCoqJoint, Kind::kLagOne, Kind::kAggregateBias,
                 Kind::kAggregateMse}) {
    const auto n = std::count_if(r.checks.begin(), r.checks.end(), [&](const Check& c) { return c.kind == k && c.rejected; });
    if (n > 0) by_kind += (by_kind.empty() ? "" : ", ") + std::string(KindName(k)) + " " + std::to_string(n);
  }
  if (by_kind.empty()) by_kind = "none";
  const Check* s = r.Strongest();
  char where[64];
  if (s->instance >= 0) std::snprintf(where, sizeof where, "instance #%d, dof %d", s->instance, s->dof);
  else std::snprintf(where, sizeof where, "n=10 clients");
  std::printf("| %s | %s | %zu of %zu (%s) | %s (%s) | %.4g | %.3g | %zu | %.1f s |\n", mutant, erratum, r.rejected,
              r.checks.size(), by_kind.c_str(), KindName(s->kind), where, s->statistic, s->p_value, s->n, seconds);
}

template <class Faults>
HarnessResult RunAndReport(const char* mutant, const char* erratum, LevelsFn make_levels = &q::MakeBinaryLevels) {
  const auto t0 = std::chrono::steady_clock::now();
  HarnessResult r = RunHarness<Faults>(make_levels);
  Report(mutant, erratum, r, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return r;
}

// ---- Tests ---------------------------------------------------------------------------------------

TEST(MutantCatalog, RealQuantizersPassTheHarness) {
  const HarnessResult r = RunAndReport<q::NoFaults>("none (production)", "-");
  EXPECT_EQ(r.rejected, 0u) << "the unmutated production code is flagged: smallest p = " << r.Strongest()->p_value
                            << " (" << KindName(r.Strongest()->kind) << ", instance " << r.Strongest()->instance << ")";
  const double a1 = kAlphaTest / static_cast<double>(r.checks.size());
  std::printf("harness: alpha_test=%g, Holm over m=%zu checks (step-1 level %.3g), N=%zu; power %.3f against any "
              "shift >= %.5f (dof 1) / %.5f (dof 3) of probability between two outcomes\n",
              kAlphaTest, r.checks.size(), a1, kSamples, kPower,
              stat::MinDetectableEffect(1, a1, kPower, kSamples) / 2, stat::MinDetectableEffect(3, a1, kPower, kSamples) / 2);
}

TEST(MutantCatalog, Line14AsPrintedIsFlagged) {
  const HarnessResult r = RunAndReport<Line14AsPrinted>("kLine14AsPrinted", "seed-000 E3");
  EXPECT_TRUE(r.Rejected(Kind::kCorBinQJoint));
}
TEST(MutantCatalog, ProbListOffByOneIsFlagged) {
  const HarnessResult r = RunAndReport<ProbListOffByOne>("kProbListOffByOne", "seed-001 E1");
  EXPECT_TRUE(r.Rejected(Kind::kCoqJoint));
}
TEST(MutantCatalog, DecodeZeroOneIsFlaggedAtTheAggregate) {
  const HarnessResult r = RunAndReport<DecodeZeroOne>("kDecodeZeroOne", "seed-000 §3.0 (U in {0,1})");
  EXPECT_TRUE(r.Rejected(Kind::kAggregateBias));
}
TEST(MutantCatalog, AlphaSignAsPrintedIsFlagged) {
  const HarnessResult r =
      RunAndReport<q::NoFaults>("MakeBinaryLevelsAlphaAsPrinted", "seed-000 E1", &MakeBinaryLevelsAlphaAsPrinted);
  EXPECT_TRUE(r.Rejected(Kind::kLdpqMarginal));
}
TEST(MutantCatalog, DropTieCoinIsFlagged) {
  const HarnessResult r = RunAndReport<DropTieCoin>("kDropTieCoin", "-");
  EXPECT_GT(r.rejected, 0u);
}
TEST(MutantCatalog, CellOffsetPlusOneIsFlagged) {
  const HarnessResult r = RunAndReport<CellOffsetPlus>("kQ1CellOffset = +1", "-");
  EXPECT_TRUE(r.Rejected(Kind::kCorBinQJoint));
}
TEST(MutantCatalog, CellOffsetMinusOneIsFlagged) {
  const HarnessResult r = RunAndReport<CellOffsetMinus>("kQ1CellOffset = -1", "-");
  EXPECT_TRUE(r.Rejected(Kind::kCorBinQJoint));
}
TEST(MutantCatalog, ReuseSharedBitsIsFlaggedByIndependence) {
  const HarnessResult r = RunAndReport<ReuseSharedBits>("kReuseSharedBits", "-");
  EXPECT_TRUE(r.Rejected(Kind::kLagOne));
  const Check* lag = nullptr;  // the strongest lag-1 check, for the catalog
  for (const Check& c : r.checks)
    if (c.kind == Kind::kLagOne && (lag == nullptr || c.statistic > lag->statistic)) lag = &c;
  std::printf("kReuseSharedBits: strongest lag-1 independence check: instance #%d, X2 = %.4g, dof %d, p = %.3g\n",
              lag->instance, lag->statistic, lag->dof, lag->p_value);
}
TEST(MutantCatalog, BothRolesQ1IsFlagged) {
  const HarnessResult r = RunAndReport<BothRolesQ1>("kBothRolesQ1", "-");
  EXPECT_TRUE(r.Rejected(Kind::kCorBinQJoint));
}
TEST(MutantCatalog, RoundCellToNearestIsFlagged) {
  const HarnessResult r = RunAndReport<RoundCellToNearest>("kRoundCellToNearest", "seed-000 §3.0 [RECOMMENDED]");
  EXPECT_GT(r.rejected, 0u);
}
TEST(MutantCatalog, ClipToAlphaRadiusIsFlaggedOnClippedInputs) {
  const HarnessResult r = RunAndReport<ClipToAlphaRadius>("kClipToAlphaRadius", "seed-000 fn. 2, seed-001 E12");
  const std::vector<Instance> instances = MakeInstances();
  bool flagged_on_clipped = false;
  for (const Check& c : r.checks)
    if (c.rejected && c.instance >= 0) {
      EXPECT_TRUE(instances[static_cast<std::size_t>(c.instance)].outside) << "instance " << c.instance;
      flagged_on_clipped = true;
    }
  EXPECT_TRUE(flagged_on_clipped || r.Rejected(Kind::kAggregateBias));
}

}  // namespace
