// dpfl-proofs — seed 002 (CEPAM): the reported experiments (Tables I–II, spec §5.4) against the
// paper's own summaries and against the error laws: the gain ranges of §VI, the Conclusion's ranges
// (E-X2), the FL (CNN) baseline that differs between the tables (E-X3), and the accuracies that the
// same error law predicts to agree (E-X8). Table entries are exact decimals (rationals). The tests
// are two-sided Welch tests at level 0.05 on "mean ± 95% CI" over 10 repetitions (§5.2), with the
// Student-t tail enclosed rigorously (Riemann sums of the decreasing density with MPFI, plus a tail
// integral bound): a pair counts as different only if the p-value is certainly < 0.05, and as
// agreeing only if it is certainly ≥ 0.05, under both readings of the ± (half-width t_{0.975,9}·s/√10
// or 1.96·s/√10).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "claims.hpp"
#include "dpfl/ref/enclosure.hpp"
#include "instances.hpp"
#include "seed002_shared.hpp"
#include "printed_values.hpp"

namespace dpfl::proofs {
namespace {

using ref::Enclosure;
using ref::Interval;

Rational D(const char* text) { return ref::ParseRational(text, "table entry"); }

struct Row {
  const char* name;
  Rational mean, half;  // percent; half-width of the 95% CI
};
// Table I (MLP, CNN) and Table II (CNN), spec §5.4.
struct TableI {
  std::vector<Row> mlp, cnn;
};
TableI Table1() {
  return {{{"FL", D("82.06"), D("1.35")},
           {"FL+SDQ", D("82.17"), D("1.31")},
           {"FL+Gaussian", D("82.23"), D("1.23")},
           {"FL+Gaussian+SDQ", D("82.26"), D("1.20")},
           {"CEPAM-Gaussian (n=1)", D("83.99"), D("0.92")},
           {"CEPAM-Gaussian (n=2)", D("83.52"), D("1.00")},
           {"CEPAM-Gaussian (n=3)", D("82.84"), D("1.19")}},
          {{"FL", D("91.70"), D("0.66")},
           {"FL+SDQ", D("91.73"), D("0.68")},
           {"FL+Gaussian", D("91.84"), D("0.72")},
           {"FL+Gaussian+SDQ", D("91.84"), D("0.70")},
           {"CEPAM-Gaussian (n=1)", D("92.74"), D("0.70")},
           {"CEPAM-Gaussian (n=2)", D("92.26"), D("0.64")},
           {"CEPAM-Gaussian (n=3)", D("92.29"), D("0.72")}}};
}
std::vector<Row> Table2() {
  return {{"FL", D("92.92"), D("0.61")},
          {"FL+SDQ", D("92.93"), D("0.62")},
          {"FL+Laplace", D("92.95"), D("0.58")},
          {"FL+Laplace+SDQ", D("92.99"), D("0.57")},
          {"CEPAM-Laplace", D("94.53"), D("0.38")}};
}

// The range [min, max] of CEPAM − baseline over the given CEPAM rows and baseline rows.
std::pair<Rational, Rational> GainRange(const std::vector<Row>& cepam, const std::vector<Row>& base) {
  std::optional<Rational> lo, hi;
  for (const Row& c : cepam)
    for (const Row& b : base) {
      const Rational g = c.mean - b.mean;
      if (!lo || g < *lo) lo = g;
      if (!hi || g > *hi) hi = g;
    }
  return {*lo, *hi};
}
// A printed range "a–b" (one decimal) summarises the computed [lo, hi] if the range widened by half a
// unit in its last place contains [lo, hi] and each printed end is within one unit (0.1) of the
// computed one (not gratuitously wide).
bool Summarises(const Rational& a, const Rational& b, const std::pair<Rational, Rational>& r) {
  const Rational half(Q(1, 20)), unit(Q(1, 10));
  return a - half <= r.first && r.second <= b + half && ref::Abs(Rational(a - r.first)) <= unit &&
         ref::Abs(Rational(b - r.second)) <= unit;
}
// A table value or gain (at most two decimals) in its printed form, e.g. 91.70, 0.58.
std::string Two(const Rational& x) {
  const Rational c = x * 100;
  if (boost::multiprecision::denominator(c) != 1) return S(x);
  const Int n = boost::multiprecision::numerator(c), a = n < 0 ? Int(-n) : n;
  const Int frac = a % 100;
  return std::string(n < 0 ? "-" : "") + (a / 100).str() + "." + (frac < 10 ? "0" : "") + frac.str();
}
std::string Range(const std::pair<Rational, Rational>& r) { return "[" + Two(r.first) + ", " + Two(r.second) + "]"; }

// ---- Student-t tails --------------------------------------------------------------------------------
// f_ν(t) = C_ν (1 + t²/ν)^{−(ν+1)/2}, C_ν = Γ((ν+1)/2)/(√(νπ)Γ(ν/2)), decreasing on t ≥ 0. For c ≥ 0:
// lower bound h·Σ_{i=1..M} f(c + ih) (right endpoints), upper bound h·Σ_{i=0..M−1} f(c + ih) plus
// ∫_L^∞ f ≤ C_ν ν^{(ν+1)/2} L^{−ν}/ν, L = c + Mh.
using seed002::GammaHalfPlusOne;  // Γ(m/2 + 1), m ≥ 0 (seed002_shared.hpp)
Interval StudentTail(long nu, const Rational& c, const Rational& h, long M, mpfr_prec_t w) {
  const Enclosure C = GammaHalfPlusOne(nu - 1, w) / (ref::Sqrt(Rational(nu) * ref::Pi(w)) * GammaHalfPlusOne(nu - 2, w));
  auto g = [&](const Rational& t) {
    const Enclosure x(w, Rational(1 + t * t / nu));
    return nu % 2 ? ref::Pow(x, -(nu + 1) / 2) : ref::Pow(x, -nu / 2) / ref::Sqrt(x);
  };
  Enclosure lower(w, 0L), upper(w, 0L);
  Enclosure prev = g(c);
  for (long i = 1; i <= M; ++i) {
    const Enclosure cur = g(c + i * h);
    upper += prev;
    lower += cur;
    prev = cur;
  }
  const Rational L = c + M * h;
  Rational Lnu(1);
  for (long i = 0; i < nu; ++i) Lnu *= L;
  const Enclosure tail = ref::Pow(ref::Sqrt(Enclosure(w, nu)), nu + 1) / Rational(nu * Lnu);
  const Enclosure lo = C * lower * h, hi = C * (upper * h + tail);
  return Interval(ref::ToInterval(lo).lo(), ref::ToInterval(hi).hi());
}

enum class Welch { kDifferent, kAgree, kUndecided };
struct WelchResult {
  Welch verdict;
  std::string report;
};
// Two-sided Welch test at 0.05 of two rows (10 repetitions each) under one reading of the ±: the
// half-width is q·s/√10 with q = t_{0.975,9} (enclosed in [9/4, 23/10], both ends certified by
// StudentTail) or q = 1.96. t = d·q/√(h1² + h2²); the Welch degrees of freedom
// 9(h1² + h2²)²/(h1⁴ + h2⁴) do not depend on q; the tail is bounded with ⌊df⌋ (heavier, for "different")
// and ⌈df⌉ (lighter, for "agree").
WelchResult WelchTest(const Row& a, const Row& b, bool t_reading, mpfr_prec_t w) {
  const Rational q_lo = t_reading ? Q(9, 4) : Q(49, 25), q_hi = t_reading ? Q(23, 10) : Q(49, 25);
  const Rational d = ref::Abs(Rational(a.mean - b.mean));
  const Rational h2 = a.half * a.half + b.half * b.half;
  const Rational df = 9 * h2 * h2 / (a.half * a.half * a.half * a.half + b.half * b.half * b.half * b.half);
  const long nu_lo = static_cast<long>(ref::FloorInt(df)), nu_hi = nu_lo + 1;
  const Interval root = ref::ToInterval(ref::Sqrt(Enclosure(w, h2)));
  const Rational t_lo = d * q_lo / root.hi(), t_hi = d * q_hi / root.lo();
  // Coarse Riemann sums first (step 1/32 up to c + 32), refined (1/256) only if the decision needs it.
  Interval p_heavy(0), p_light(0);
  for (const long steps : {32L, 256L}) {
    p_heavy = StudentTail(nu_lo, t_lo, Q(1, steps), 32 * steps, w);  // ⊇ a bound ≥ P(T_df > t_obs)
    p_light = StudentTail(nu_hi, t_hi, Q(1, steps), 32 * steps, w);  // ⊇ a bound ≤ P(T_df > t_obs)
    if (2 * p_heavy.hi() < Q(1, 20) || 2 * p_light.lo() >= Q(1, 20)) break;
  }
  const std::string rep = std::string(a.name) + " " + Two(a.mean) + " ± " + Two(a.half) + " vs " + b.name + " " + Two(b.mean) +
                          " ± " + Two(b.half) + " (" + (t_reading ? "t_{0.975,9}" : "1.96") + "-CI reading): t ∈ [" +
                          ref::ToDecimalString(t_lo, 4) + ", " + ref::ToDecimalString(t_hi, 4) + "], Welch df = " +
                          ref::ToDecimalString(df, 4) + ", two-sided p ∈ [" + ref::ToDecimalString(Rational(2 * p_light.lo()), 3) +
                          ", " + ref::ToDecimalString(Rational(2 * p_heavy.hi()), 3) + "]";
  if (2 * p_heavy.hi() < Q(1, 20)) return {Welch::kDifferent, rep};
  if (2 * p_light.lo() >= Q(1, 20)) return {Welch::kAgree, rep};
  return {Welch::kUndecided, rep};
}
// The t_{0.975,9} enclosure [9/4, 23/10] used above, certified: P(T_9 > 9/4) > 0.025 > P(T_9 > 23/10).
void CertifyT9(Search& s, mpfr_prec_t w) {
  s.Count();
  const Interval above_lo = StudentTail(9, Q(9, 4), Q(1, 128), 2048, w), above_hi = StudentTail(9, Q(23, 10), Q(1, 128), 2048, w);
  if (!(above_lo.lo() > Q(1, 40) && above_hi.hi() < Q(1, 40)))
    throw Undecidable("t_{0.975,9} ∈ [9/4, 23/10] not certified: P(T9 > 9/4) ∈ " + Dec(above_lo, 6) + ", P(T9 > 2.3) ∈ " +
                      Dec(above_hi, 6));
}
// "Different" needs certainty under both readings, "agree" under both.
Welch BothReadings(const Row& a, const Row& b, mpfr_prec_t w, std::string* report) {
  const WelchResult t = WelchTest(a, b, true, w), z = WelchTest(a, b, false, w);
  *report = t.report + "; " + z.report;
  if (t.verdict == Welch::kDifferent && z.verdict == Welch::kDifferent) return Welch::kDifferent;
  if (t.verdict == Welch::kAgree && z.verdict == Welch::kAgree) return Welch::kAgree;
  return Welch::kUndecided;
}

// ---- §VI: the gain ranges of Tables I–II ------------------------------------------------------------
Verdict CheckTableGains(const CheckOptions& o) {
  // §VI: CEPAM-Gaussian gains 0.6–2.0% (MLP) and 0.4–1.0% (CNN); CEPAM-Laplace about 1.5–1.6% (CNN):
  // the range of CEPAM − baseline over every CEPAM row and every baseline row of the table.
  // Flip: the gains over CEPAM-Gaussian n = 1 only (a wrong gain definition).
  Search s;
  const TableI t1 = Table1();
  const std::vector<Row> t2 = Table2();
  auto split = [&](const std::vector<Row>& rows, std::vector<Row>& cepam, std::vector<Row>& base) {
    for (const Row& r : rows) (std::string(r.name).rfind("CEPAM", 0) == 0 ? cepam : base).push_back(r);
    if (o.flip) cepam.resize(1);
  };
  struct Case { const char* what; const std::vector<Row>* rows; const char* a; const char* b; };
  for (const Case& c : {Case{"Table I MLP", &t1.mlp, "0.6", "2.0"}, Case{"Table I CNN", &t1.cnn, "0.4", "1.0"},
                        Case{"Table II CNN (Laplace)", &t2, "1.5", "1.6"}}) {
    s.Count();
    std::vector<Row> cepam, base;
    split(*c.rows, cepam, base);
    const auto r = GainRange(cepam, base);
    if (!Summarises(D(c.a), D(c.b), r))
      s.Violation(std::string(c.what) + ": CEPAM − baseline over all pairs spans " + Range(r) + ", printed " + c.a + "–" + c.b + "%");
  }
  return s.AsVerdict("§VI's gain ranges vs the exact CEPAM − baseline ranges of Tables I–II (MLP " +
                     Range(GainRange({t1.mlp.begin() + 4, t1.mlp.end()}, {t1.mlp.begin(), t1.mlp.begin() + 4})) + ", CNN " +
                     Range(GainRange({t1.cnn.begin() + 4, t1.cnn.end()}, {t1.cnn.begin(), t1.cnn.begin() + 4})) + ", Laplace " +
                     Range(GainRange({t2.begin() + 4, t2.end()}, {t2.begin(), t2.begin() + 4})) +
                     "): each printed end within 0.1 of the computed one, the computed range inside the printed ± 0.05");
}

// ---- E-X2: the Conclusion's ranges --------------------------------------------------------------------
Verdict CheckConclusionGains(const CheckOptions& o) {
  // Conclusion: 0.5–2.0% (Gaussian, MLP and CNN together) and 1.5–2.7% (Laplace), by the same criterion.
  // Flip: the Conclusion's ends read as 0.4 (Gaussian lower) and 1.7 (Laplace upper), the values the
  // tables support.
  Search s;
  const TableI t1 = Table1();
  const std::vector<Row> t2 = Table2();
  std::vector<Row> cep, base;
  for (const auto* rows : {&t1.mlp, &t1.cnn}) {
    std::vector<Row> c(rows->begin() + 4, rows->end()), b(rows->begin(), rows->begin() + 4);
    const auto r = GainRange(c, b);
    cep.push_back({"lo", r.first, Q(0)});
    cep.push_back({"hi", r.second, Q(0)});
  }
  std::pair<Rational, Rational> gauss = {cep[0].mean, cep[1].mean};
  for (const Row& r : cep) {
    gauss.first = ref::Min(gauss.first, r.mean);
    gauss.second = ref::Max(gauss.second, r.mean);
  }
  const auto lap = GainRange({t2.begin() + 4, t2.end()}, {t2.begin(), t2.begin() + 4});
  s.Count();
  const char* g_lo_text = o.flip ? "0.4" : "0.5";
  const Rational g_lo = D(g_lo_text);
  if (!Summarises(g_lo, D("2.0"), gauss))
    s.Violation("Gaussian: Table I's CEPAM − baseline over MLP and CNN spans " + Range(gauss) + ", the Conclusion says " + g_lo_text +
                "–2.0% (§VI: 0.6–2.0 MLP, 0.4–1.0 CNN)");
  s.Count();
  const char* l_hi_text = o.flip ? "1.7" : "2.7";
  const Rational l_hi = D(l_hi_text);
  if (!Summarises(D("1.5"), l_hi, lap))
    s.Violation("Laplace: Table II's CEPAM − baseline spans " + Range(lap) + ", the Conclusion says 1.5–" + l_hi_text + "% (§VI: 1.5–1.6)");
  return s.AsVerdict("the Conclusion's gain ranges vs Tables I–II (criterion of 002/VI/table-gains)");
}

// ---- E-X3: the FL (CNN) baseline in Tables I and II -----------------------------------------------------
Verdict CheckFlBaselineConsistency(const CheckOptions& o) {
  // The "same nominal setup" FL (CNN) appears as 91.70 ± 0.66 (Table I) and 92.92 ± 0.61 (Table II).
  // Claim: they estimate the same accuracy. Violation: the Welch test rejects at 0.05 under both readings.
  // Flip: Table II's FL row replaced by Table I's FL+SDQ (CNN) row, an estimate of (nominally) the same.
  Search s;
  const mpfr_prec_t w = 160;
  CertifyT9(s, w);
  const TableI t1 = Table1();
  const Row a = t1.cnn[0], b = o.flip ? t1.cnn[1] : Table2()[0];
  s.Count();
  std::string rep;
  const Welch v = BothReadings(a, b, w, &rep);
  if (v == Welch::kDifferent) s.Violation("FL (CNN) Table I vs Table II: " + rep);
  if (v == Welch::kUndecided) throw Undecidable("the Welch test is undecided: " + rep);
  return s.AsVerdict("two-sided Welch test at 0.05 (10 runs per row), Student-t tails enclosed: " + rep);
}

// ---- E-X8: accuracies that the same error law predicts to agree -----------------------------------------
// CEPAM-Gaussian (n = 1, 2, 3) has FL+Gaussian's error law (002/VI/same-law-as-fl-gaussian), so after the
// same clipping the accuracies agree in distribution.
Verdict CheckGainVsSameLaw(const CheckOptions& o) {
  // Claim (implied by the same law): Table I's CEPAM-Gaussian rows agree with FL+Gaussian statistically.
  // Violation: a pair certainly different under both readings. Flip: the comparison row FL+Gaussian
  // replaced by CEPAM-Gaussian n = 2 (same law, same implementation).
  Search s;
  const mpfr_prec_t w = 160;
  CertifyT9(s, w);
  const TableI t1 = Table1();
  std::string agree;
  for (const auto* rows : {&t1.mlp, &t1.cnn}) {
    const Row ref_row = o.flip ? (*rows)[5] : (*rows)[2];
    for (int i = 4; i <= 6; ++i) {
      s.Count();
      std::string rep;
      const Welch v = BothReadings((*rows)[i], ref_row, w, &rep);
      const std::string model = rows == &t1.mlp ? "MLP: " : "CNN: ";
      if (v == Welch::kDifferent) s.Violation(model + rep);
      else if (agree.empty() && v == Welch::kAgree) agree = model + rep;
    }
  }
  return s.AsVerdict("CEPAM-Gaussian (n = 1, 2, 3) vs FL+Gaussian, MLP and CNN, two-sided Welch at 0.05 under both CI "
                     "readings; a significant gain contradicts the identical error law (E-X8) and points to E-Q1's "
                     "implementation. E.g. " + agree);
}

// ---- §VI: "the same accuracy for n = 1, 2, 3 because Var(f)/n = σ²" -------------------------------------
Verdict CheckSameAccuracyN123(const CheckOptions& o) {
  // Every pair of CEPAM-Gaussian rows (n = 1, 2, 3) of Table I agrees (MLP and CNN): not certainly
  // different under both readings (a certain difference is a violation).
  // Flip: the n = 1 row compared with FL+Gaussian instead of the other CEPAM rows.
  Search s;
  const mpfr_prec_t w = 160;
  CertifyT9(s, w);
  const TableI t1 = Table1();
  std::string last;
  for (const auto* rows : {&t1.mlp, &t1.cnn})
    for (int i = 4; i <= 6; ++i)
      for (int j = i + 1; j <= 6; ++j) {
        s.Count();
        std::string rep;
        const Row other = o.flip ? (*rows)[2] : (*rows)[j];
        const Welch v = BothReadings((*rows)[o.flip ? 4 : i], other, w, &rep);
        const std::string model = rows == &t1.mlp ? "MLP: " : "CNN: ";
        if (v == Welch::kDifferent) s.Violation(model + rep);
        last = model + rep;
      }
  return s.AsVerdict("pairs of CEPAM-Gaussian rows (n = 1, 2, 3) of Table I, two-sided Welch at 0.05 under both CI readings; "
                     "e.g. " + last);
}

}  // namespace

void AddSeed002TablesClaims(Catalog& c) {
  const std::string seed = "002";
  c.push_back({"002/VI/table-gains", seed,
               "CEPAM gains 0.6–2.0% (MLP) and 0.4–1.0% (CNN) over the Gaussian baselines, about 1.5–1.6% (Laplace)",
               "spec 002 §5.4", {}, Status::kPass, CheckTableGains, "the gains over CEPAM-Gaussian n = 1 only"});
  c.push_back({"002/VI/conclusion-gains", seed,
               "the Conclusion's gains 0.5–2.0% (Gaussian) and 1.5–2.7% (Laplace) summarise Tables I–II",
               "spec 002 §5.4, §6", {"E-X2"}, Status::kFail, CheckConclusionGains,
               "the Conclusion's ends read as 0.4 (Gaussian) and 1.7 (Laplace), the values the tables support"});
  c.push_back({"002/VI/fl-baseline-consistency", seed,
               "the FL (CNN) rows of Tables I and II (same nominal setup) estimate the same accuracy",
               "spec 002 §5.4, §6", {"E-X3"}, Status::kFail, CheckFlBaselineConsistency,
               "Table II's FL row replaced by Table I's FL+SDQ (CNN) row"});
  c.push_back({"002/VI/gain-vs-same-law", seed,
               "CEPAM-Gaussian's accuracies agree with FL+Gaussian's (identical error law, E-X8)", "spec 002 §5.4, §6",
               {"E-X8", "E-Q1"}, Status::kFail, CheckGainVsSameLaw,
               "FL+Gaussian replaced by CEPAM-Gaussian n = 2 as the comparison row"});
  c.push_back({"002/VI/same-accuracy-n123", seed,
               "CEPAM-Gaussian has the same accuracy for n = 1, 2, 3 because Var(f)/n = σ²", "spec 002 §5.4, §6 E-X8",
               {"E-X8"}, Status::kPass, CheckSameAccuracyN123, "the n = 1 row compared with FL+Gaussian instead"});
}

}  // namespace dpfl::proofs
