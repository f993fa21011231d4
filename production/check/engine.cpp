// The plan of `dpfl check` (conformance.hpp): the design's inputs, each asked for in two
// requests of N/2 runs (all first halves, then all second halves, so that consecutive requests
// carry different inputs and the two halves of one input are far apart in time), the per-input
// and global checks, then the adaptive search stages, and weighted Holm over all of it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <random>

#include "conformance.hpp"
#include "dpfl/format.hpp"
#include "dpfl/error.hpp"
#include "mechanism_laws.hpp"
#include "statistics.hpp"

namespace dpfl::check {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kStageInputs = 4;
constexpr std::size_t kLags[] = {1, 2, 3, 4, 8, 16, 64, 256, 1024, 4096};
constexpr int kGlobalChecks = 2 + static_cast<int>(std::size(kLags));

// The runs collected at one input.
struct Tested {
  std::vector<double> x;
  InputLaw law;
  std::string phase;
  std::vector<std::vector<double>> first, second;  // the two requests' rows
  std::vector<int> cells;                            // each row's cell, classified once (first, then second)
  double score = 0;                                  // the largest standardised discrepancy
};

struct RequestLog {
  std::size_t input;  // index into the tested inputs
  bool second;
};

class Engine {
 public:
  Engine(const std::string& mechanism, const std::map<std::string, std::string>& params, const Sampler& sampler,
         const CheckOptions& o)
      : law_(MakeMechanismLaw(mechanism, params)), sampler_(sampler), o_(o), rng_(o.seed) {
    report_.mechanism = mechanism;
    report_.parameters = params;
    report_.options = o;
  }

  CheckReport Run() {
    const auto start = Clock::now();
    std::vector<std::vector<double>> design = law_->Design(rng_, o_.random_inputs);
    const int per_input = 2 + law_->output_arity();  // law, bias per output, mse
    const double design_share = o_.search_stages > 0 ? 0.5 : 1.0;
    const double design_weight = design_share / static_cast<double>(design.size() * per_input + kGlobalChecks);
    std::uint64_t n = std::max<std::uint64_t>(o_.samples + (o_.samples & 1), 100);
    try {
      for (const auto& x : design) tested_.push_back({x, law_->LawAt(x), "design", {}, {}, {}, 0});
      // Budget: time the first request at N/2 runs, then scale N for the rest of the plan.
      if (o_.budget_seconds > 0) {
        const auto t0 = Clock::now();
        Ask(0, false, n / 2);
        const double per_run = Seconds(t0) / static_cast<double>(n / 2) + 1e-9;
        const double planned_runs = static_cast<double>(design.size() + kStageInputs * o_.search_stages) * n;
        const double fit = 0.8 * o_.budget_seconds / (per_run * planned_runs);
        if (fit < 1) n = std::max<std::uint64_t>(200, 2 * static_cast<std::uint64_t>(fit * n / 2));
      }
      for (std::size_t i = 0; i < tested_.size(); ++i)
        if (tested_[i].first.empty()) Ask(i, false, n / 2);
      for (std::size_t i = 0; i < tested_.size(); ++i) Ask(i, true, n / 2);
    } catch (const ProtocolError& e) {
      report_.protocol_error = e.what();
    }
    report_.runs_per_input = n;
    for (Tested& t : tested_) PerInputChecks(t, design_weight);
    GlobalChecks(design_weight);

    // Adaptive search for bias: stage s re-tests the worst input so far, two inputs near the two
    // worst, and one random input, on fresh runs, with total weight share 2^−s (renormalised).
    double stage_norm = 0;
    for (int s = 1; s <= o_.search_stages; ++s) stage_norm += std::ldexp(1.0, -s);
    for (int s = 1; s <= o_.search_stages && !report_.protocol_error; ++s) {
      if (o_.budget_seconds > 0 && Seconds(start) * (1.0 + 1.0 / s) > o_.budget_seconds) break;
      const double share = (1 - design_share) * std::ldexp(1.0, -s) / stage_norm;
      const double weight = share / static_cast<double>(kStageInputs * per_input);
      std::vector<std::size_t> order(tested_.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
        return tested_[a].score > tested_[b].score;
      });
      const double scale = std::ldexp(0.25, -s);
      std::vector<std::vector<double>> next = {tested_[order[0]].x,
                                               law_->Perturb(tested_[order[0]].x, scale, rng_),
                                               law_->Perturb(tested_[order.size() > 1 ? order[1] : order[0]].x, scale, rng_),
                                               law_->Perturb(tested_[order[0]].x, 4.0, rng_)};
      const std::size_t first = tested_.size();
      try {
        for (const auto& x : next) {
          // A perturbed input whose law the reference cannot decide at its precision (a cell
          // boundary it cannot separate: dpfl::Undecidable) is skipped; its weight stays unspent.
          try {
            tested_.push_back({x, law_->LawAt(x), "search " + std::to_string(s), {}, {}, {}, 0});
          } catch (const Undecidable&) {
          }
        }
        for (std::size_t i = first; i < tested_.size(); ++i) Ask(i, false, n / 2);
        for (std::size_t i = first; i < tested_.size(); ++i) Ask(i, true, n / 2);
      } catch (const ProtocolError& e) {
        report_.protocol_error = e.what();
      }
      for (std::size_t i = first; i < tested_.size(); ++i) PerInputChecks(tested_[i], weight);
      report_.stages_run = s;
    }

    // One family: weighted Holm over every check, planned weights summing to 1.
    std::vector<double> p, w;
    for (const CheckResult& c : report_.checks) p.push_back(c.p_value), w.push_back(c.weight);
    const std::vector<bool> rejected = WeightedHolm(p, w, 1.0, o_.alpha);
    for (std::size_t i = 0; i < rejected.size(); ++i) report_.checks[i].rejected = rejected[i];
    report_.seconds = Seconds(start);
    return std::move(report_);
  }

 private:
  static double Seconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

  void Ask(std::size_t i, bool second, std::uint64_t runs) {
    Tested& t = tested_[i];
    if (o_.progress)
      o_.progress("request " + std::to_string(report_.requests + 1) + ": " + std::to_string(runs) + " runs at input " +
                  std::to_string(i) + " (" + t.phase + ")");
    ++report_.requests;
    std::vector<std::vector<double>> rows = sampler_(t.x, runs);
    if (rows.size() != runs)
      throw ProtocolError("request " + std::to_string(report_.requests) + " asked for " + std::to_string(runs) +
                          " runs and got " + std::to_string(rows.size()));
    std::vector<int> cells;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (rows[k].size() != static_cast<std::size_t>(law_->output_arity()))
        throw ProtocolError("request " + std::to_string(report_.requests) + ", answer " + std::to_string(k + 1) +
                            ": expected " + std::to_string(law_->output_arity()) + " numbers");
      for (double v : rows[k])
        if (!std::isfinite(v))
          throw ProtocolError("request " + std::to_string(report_.requests) + ", answer " + std::to_string(k + 1) +
                              ": not a finite number");
      cells.push_back(law_->Cell(t.law, t.x, rows[k], o_.tolerance));
      if (cells.back() < 0) {
        std::string y;
        for (double v : rows[k]) y += (y.empty() ? "" : " ") + ShortestDouble(v);
        std::string x;
        for (double v : t.x) x += " " + ShortestDouble(v);
        throw ProtocolError("request " + std::to_string(report_.requests) + " (" + std::to_string(runs) + x +
                            "), answer " + std::to_string(k + 1) + ": '" + y +
                            "' is not in the mechanism's support " + law_->SupportText() + " (relative tolerance " +
                            ShortestDouble(o_.tolerance) + ")");
      }
    }
    report_.total_runs += rows.size();
    t.cells.insert(t.cells.end(), cells.begin(), cells.end());
    (second ? t.second : t.first) = std::move(rows);
    log_.push_back({i, second});
  }

  void Add(const Tested& t, const std::string& name, double statistic, double p, double weight, std::string detail) {
    CheckResult c;
    c.name = name;
    c.phase = t.phase;
    c.input = t.x;
    c.statistic = statistic;
    c.p_value = p;
    c.weight = weight;
    c.detail = std::move(detail);
    report_.checks.push_back(std::move(c));
  }

  // A standard error no smaller than what the support tolerance allows: outputs may sit that far
  // from their support points, and a degenerate law (sd 0: e.g. the loss at the centre, where both
  // levels are equally far) must not turn rounding into a finding.
  double Floor(double se, double expected, double sd) const {
    return std::max(se, 4 * o_.tolerance * std::max({std::fabs(expected), sd, 1e-300}));
  }

  void PerInputChecks(Tested& t, double weight) {
    const InputLaw& law = t.law;
    std::vector<const std::vector<double>*> rows;
    for (const auto& r : t.first) rows.push_back(&r);
    for (const auto& r : t.second) rows.push_back(&r);
    if (rows.empty()) return;  // never answered (protocol error before it)
    const std::uint64_t n = rows.size();
    const double nd = static_cast<double>(n);
    std::vector<std::uint64_t> counts(law.cell_prob.size(), 0);
    const std::size_t k = static_cast<std::size_t>(law_->output_arity());
    std::vector<double> sum(k, 0);
    double loss = 0;
    for (std::size_t j = 0; j < rows.size(); ++j) {
      const std::vector<double>* r = rows[j];
      ++counts[static_cast<std::size_t>(t.cells[j])];
      for (std::size_t i = 0; i < k; ++i) sum[i] += (*r)[i];
      loss += law_->Loss(law, t.x, *r);
    }
    const ChiSquare chi = ChiSquareTest(counts, law.cell_prob, law.cell_names);
    Add(t, "law", chi.statistic, chi.p_value, weight, chi.detail);
    t.score = std::max(t.score, chi.p_value > 0 ? -std::log10(chi.p_value) : 400.0);
    for (std::size_t i = 0; i < k; ++i) {
      const double mean = sum[i] / nd;
      const double se = Floor(law.sd[i] / std::sqrt(nd), law.mean[i], law.sd[i]);
      const double z = (mean - law.mean[i]) / se;
      Add(t, "bias[" + std::to_string(i) + "]", z, TwoSidedNormal(z), weight,
          "mean expected " + ShortestDouble(law.mean[i]) + ", observed " + ShortestDouble(mean));
      t.score = std::max(t.score, -std::log10(std::max(TwoSidedNormal(z), 1e-300)));
    }
    const double lm = loss / nd, lse = Floor(law.loss_sd / std::sqrt(nd), law.loss_mean, law.loss_sd);
    const double zl = (lm - law.loss_mean) / lse;
    Add(t, "mse", zl, TwoSidedNormal(zl), weight,
        "expected " + ShortestDouble(law.loss_mean) + ", observed " + ShortestDouble(lm));
    InputPower pw;
    pw.input = t.x;
    pw.runs = n;
    pw.tv = DetectableTv(PooledGroups(law.cell_prob, n), o_.alpha * weight, n);
    pw.bias = DetectableShift(o_.alpha * weight, law.sd[0], n);
    report_.power.push_back(pw);
  }

  void GlobalChecks(double weight) {
    Tested global;
    global.phase = "global";
    // Within a request: the lag-L autocorrelation of the runs, for lags that catch a pairing
    // (1–4), a block structure (8–64) and a short period (256–4096).
    std::vector<Stratum> consecutive, repeat;
    std::vector<std::vector<double>> series;
    const auto summary = [this](const Tested& t, const std::vector<double>& y) { return law_->Summary(t.x, y); };
    for (const RequestLog& r : log_) {
      const Tested& t = tested_[r.input];
      std::vector<double> x;
      for (const auto& row : r.second ? t.second : t.first) x.push_back(summary(t, row));
      series.push_back(std::move(x));
    }
    for (const std::size_t lag : kLags) {
      int used = 0;
      const double z = LagCorrelationZ(series, lag, &used);
      Add(global, "independence/runs lag " + std::to_string(lag), z, TwoSidedNormal(z), weight,
          "lag-" + std::to_string(lag) + " autocorrelation of the runs within each request: z over " +
              std::to_string(used) + " requests");
    }
    // Across requests: run i of request 2j against run i of request 2j + 1 (different inputs:
    // a stream restarted per request shows here), and the two halves of each input.
    for (std::size_t j = 0; j + 1 < log_.size(); j += 2) {
      const Tested& ta = tested_[log_[j].input];
      const Tested& tb = tested_[log_[j + 1].input];
      const auto& ra = log_[j].second ? ta.second : ta.first;
      const auto& rb = log_[j + 1].second ? tb.second : tb.first;
      Stratum s;
      for (std::size_t i = 0; i < std::min(ra.size(), rb.size()); ++i) {
        s.a.push_back(summary(ta, ra[i]));
        s.b.push_back(summary(tb, rb[i]));
      }
      consecutive.push_back(std::move(s));
    }
    for (const Tested& t : tested_) {
      Stratum s;
      for (std::size_t i = 0; i < std::min(t.first.size(), t.second.size()); ++i) {
        s.a.push_back(summary(t, t.first[i]));
        s.b.push_back(summary(t, t.second[i]));
      }
      repeat.push_back(std::move(s));
    }
    const struct {
      const char* name;
      std::vector<Stratum>* strata;
      const char* what;
    } tests[] = {{"independence/requests", &consecutive, "run i of request 2j vs run i of request 2j+1"},
                 {"independence/repeat", &repeat, "run i of an input's first vs second request"}};
    for (const auto& test : tests) {
      int used = 0;
      const double z = StratifiedCorrelationZ(*test.strata, &used);
      Add(global, test.name, z, TwoSidedNormal(z), weight,
          std::string(test.what) + ": stratified correlation z over " + std::to_string(used) + " strata");
    }
  }

  std::unique_ptr<MechanismLaw> law_;
  const Sampler& sampler_;
  CheckOptions o_;
  std::mt19937_64 rng_;
  CheckReport report_;
  std::vector<Tested> tested_;
  std::vector<RequestLog> log_;
};

void Validate(const CheckOptions& o) {
  if (!(o.alpha > 0 && o.alpha <= 0.5)) throw InvalidArgument("--alpha", "must be in (0, 0.5]");
  if (o.samples < 100 || o.samples > (std::uint64_t{1} << 32))
    throw InvalidArgument("--samples", "must be in [100, 2^32] (runs per input)");
  if (!(o.budget_seconds >= 0) || !std::isfinite(o.budget_seconds))
    throw InvalidArgument("--budget-seconds", "must be a finite number >= 0 (0: no budget)");
  if (!(o.tolerance > 0 && o.tolerance <= 0.01)) throw InvalidArgument("--tolerance", "must be in (0, 0.01]");
  if (o.search_stages < 0 || o.search_stages > 20) throw InvalidArgument("--search-stages", "must be in [0, 20]");
  if (o.random_inputs < 0 || o.random_inputs > 1000) throw InvalidArgument("--random-inputs", "must be in [0, 1000]");
}

}  // namespace

std::vector<std::string> MechanismNames() {
  return {"ldpq",   "corbinq", "coq", "rr", "stosign", "bnn-upload", "qgauss", "cepam-gaussian", "cepam-laplace",
          "gaussian", "laplace"};
}

std::pair<int, int> MechanismArity(const std::string& mechanism, const std::map<std::string, std::string>& parameters) {
  const auto law = MakeMechanismLaw(mechanism, parameters);
  return {law->input_arity(), law->output_arity()};
}

bool CheckReport::Conformant() const {
  if (protocol_error) return false;
  return std::none_of(checks.begin(), checks.end(), [](const CheckResult& c) { return c.rejected; });
}

int CheckReport::ExitCode() const { return protocol_error ? 2 : (Conformant() ? 0 : 1); }

CheckReport RunCheck(const std::string& mechanism, const std::map<std::string, std::string>& parameters,
                     const Sampler& sampler, const CheckOptions& options) {
  Validate(options);
  Engine engine(mechanism, parameters, sampler, options);
  return engine.Run();
}

}  // namespace dpfl::check
