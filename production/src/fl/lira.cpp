// See dpfl/fl/lira.hpp.
#include "dpfl/fl/lira.hpp"

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

#include "dpfl/error.hpp"
#include "dpfl/fl/trainer.hpp"

namespace dpfl::fl {

std::vector<float> LocalTrainer::Logits(const std::vector<float>&, const data::Dataset&) {
  throw std::logic_error("this trainer does not expose logits (needed by dpfl audit lira)");
}

double LogitConfidence(std::span<const float> z, std::int64_t label) {
  if (z.size() < 2 || label < 0 || static_cast<std::size_t>(label) >= z.size())
    throw InvalidArgument("logits", "need >= 2 classes and a label in range");
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < z.size(); ++j)
    if (static_cast<std::int64_t>(j) != label) top = std::max(top, static_cast<double>(z[j]));
  double sum = 0;
  for (std::size_t j = 0; j < z.size(); ++j)
    if (static_cast<std::int64_t>(j) != label) sum += std::exp(static_cast<double>(z[j]) - top);
  return static_cast<double>(z[static_cast<std::size_t>(label)]) - (top + std::log(sum));
}

namespace {

struct Fit {
  double mean = 0, sd = 0;
  std::size_t n = 0;
};

Fit FitOf(const std::vector<double>& v) {
  Fit f;
  f.n = v.size();
  if (v.empty()) return f;
  f.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  if (v.size() >= 2) {
    double ss = 0;
    for (double x : v) ss += (x - f.mean) * (x - f.mean);
    f.sd = std::sqrt(ss / static_cast<double>(v.size() - 1));
  }
  return f;
}

double LogNormalPdf(double x, double mean, double sd) {
  const double z = (x - mean) / sd;
  return -0.5 * z * z - std::log(sd) - 0.5 * std::log(2 * M_PI);
}

}  // namespace

LiraScores LiraScore(const std::vector<std::vector<double>>& conf, const std::vector<std::vector<bool>>& member,
                     const std::vector<double>& target, LiraVariance variance) {
  const std::size_t M = conf.size(), n = target.size();
  if (M == 0 || member.size() != M) throw InvalidArgument("shadows", "need >= 1 shadow with a membership mask each");
  for (std::size_t m = 0; m < M; ++m)
    if (conf[m].size() != n || member[m].size() != n) throw InvalidArgument("shadows", "every shadow needs one value per example");
  std::vector<Fit> in(n), out(n);
  double ss_in = 0, ss_out = 0;
  std::size_t df_in = 0, df_out = 0;
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<double> a, b;
    for (std::size_t m = 0; m < M; ++m) (member[m][j] ? a : b).push_back(conf[m][j]);
    in[j] = FitOf(a);
    out[j] = FitOf(b);
    for (double x : a) ss_in += (x - in[j].mean) * (x - in[j].mean);
    for (double x : b) ss_out += (x - out[j].mean) * (x - out[j].mean);
    df_in += a.size() > 1 ? a.size() - 1 : 0;
    df_out += b.size() > 1 ? b.size() - 1 : 0;
  }
  LiraScores s;
  constexpr double kFloor = 1e-6;  // a degenerate fit (all shadows equal) must not divide by zero
  s.global_sd_in = std::max(kFloor, df_in ? std::sqrt(ss_in / static_cast<double>(df_in)) : 1.0);
  s.global_sd_out = std::max(kFloor, df_out ? std::sqrt(ss_out / static_cast<double>(df_out)) : 1.0);
  if (df_out == 0 && df_in > 0) s.global_sd_out = s.global_sd_in;
  if (df_in == 0 && df_out > 0) s.global_sd_in = s.global_sd_out;
  s.offline.resize(n);
  s.online.resize(n);
  const boost::math::normal_distribution<double> unit(0.0, 1.0);
  for (std::size_t j = 0; j < n; ++j) {
    const bool per = variance == LiraVariance::kPerExample;
    const double sd_in = per && in[j].n >= 2 ? std::max(kFloor, in[j].sd) : s.global_sd_in;
    const double sd_out = per && out[j].n >= 2 ? std::max(kFloor, out[j].sd) : s.global_sd_out;
    const double x = target[j];
    if (out[j].n > 0) {
      s.offline[j] = boost::math::cdf(unit, std::clamp((x - out[j].mean) / sd_out, -37.0, 37.0));
    } else {
      s.offline[j] = 0.5;  // no OUT shadow: no evidence either way
    }
    const double lin = in[j].n > 0 ? LogNormalPdf(x, in[j].mean, sd_in) : 0.0;
    const double lout = out[j].n > 0 ? LogNormalPdf(x, out[j].mean, sd_out) : 0.0;
    s.online[j] = lin - lout;
  }
  return s;
}

RocCurve Roc(std::span<const double> scores, const std::vector<bool>& labels) {
  if (scores.size() != labels.size()) throw InvalidArgument("labels", "one label per score");
  const std::size_t pos = static_cast<std::size_t>(std::count(labels.begin(), labels.end(), true));
  const std::size_t neg = labels.size() - pos;
  if (pos == 0 || neg == 0) throw InvalidArgument("labels", "need at least one member and one non-member");
  std::vector<std::size_t> idx(scores.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  RocCurve r;
  r.fpr.push_back(0);
  r.tpr.push_back(0);
  r.threshold.push_back(std::numeric_limits<double>::infinity());
  std::size_t tp = 0, fp = 0;
  double area = 0;
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t j = i, dtp = 0, dfp = 0;
    while (j < idx.size() && scores[idx[j]] == scores[idx[i]]) {
      (labels[idx[j]] ? dtp : dfp) += 1;
      ++j;
    }
    area += static_cast<double>(dfp) * (static_cast<double>(tp) + 0.5 * static_cast<double>(dtp));  // ties count ½
    tp += dtp;
    fp += dfp;
    r.fpr.push_back(static_cast<double>(fp) / static_cast<double>(neg));
    r.tpr.push_back(static_cast<double>(tp) / static_cast<double>(pos));
    r.threshold.push_back(scores[idx[i]]);
    i = j;
  }
  r.auc = area / (static_cast<double>(pos) * static_cast<double>(neg));
  return r;
}

double TprAtFpr(const RocCurve& roc, double fpr) {
  double best = 0;
  for (std::size_t i = 0; i < roc.fpr.size(); ++i)
    if (roc.fpr[i] <= fpr) best = std::max(best, roc.tpr[i]);
  return best;
}

Bounds ClopperPearson(std::uint64_t k, std::uint64_t n, double alpha) {
  if (n == 0 || k > n || !(alpha > 0 && alpha < 1)) throw InvalidArgument("alpha", "need 0 <= k <= n, n >= 1, alpha in (0, 1)");
  Bounds b;
  const double kd = static_cast<double>(k), nd = static_cast<double>(n);
  b.lo = k == 0 ? 0.0 : boost::math::quantile(boost::math::beta_distribution<double>(kd, nd - kd + 1), alpha / 2);
  b.hi = k == n ? 1.0 : boost::math::quantile(boost::math::beta_distribution<double>(kd + 1, nd - kd), 1 - alpha / 2);
  return b;
}

LiraBootstrap BootstrapRoc(std::span<const double> scores, const std::vector<bool>& labels,
                           const std::vector<double>& fprs, int resamples, double alpha, std::uint64_t seed) {
  std::mt19937_64 rng(seed);  // resampling indices for an interval estimate: not a privacy mechanism
  std::uniform_int_distribution<std::size_t> pick(0, scores.size() - 1);
  std::vector<double> aucs;
  std::vector<std::vector<double>> tprs(fprs.size());
  std::vector<double> s(scores.size());
  std::vector<bool> l(scores.size());
  for (int b = 0; b < resamples; ++b) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const std::size_t j = pick(rng);
      s[i] = scores[j];
      l[i] = labels[j];
    }
    const std::size_t pos = static_cast<std::size_t>(std::count(l.begin(), l.end(), true));
    if (pos == 0 || pos == l.size()) continue;
    const RocCurve r = Roc(s, l);
    aucs.push_back(r.auc);
    for (std::size_t f = 0; f < fprs.size(); ++f) tprs[f].push_back(TprAtFpr(r, fprs[f]));
  }
  const auto percentile = [alpha](std::vector<double> v) {
    Bounds out;
    if (v.empty()) return out;
    std::sort(v.begin(), v.end());
    const auto at = [&v](double p) {
      const double pos = p * static_cast<double>(v.size() - 1);
      return v[static_cast<std::size_t>(std::floor(pos))];
    };
    out.lo = at(alpha / 2);
    out.hi = v[static_cast<std::size_t>(std::ceil((1 - alpha / 2) * static_cast<double>(v.size() - 1)))];
    return out;
  };
  LiraBootstrap r;
  r.auc = percentile(aucs);
  for (auto& t : tprs) r.tpr_at.push_back(percentile(t));
  return r;
}

EmpiricalEpsilon EmpiricalEpsilonLowerBound(std::span<const double> scores, const std::vector<bool>& labels, double delta,
                                            double alpha, int grid) {
  if (!(delta >= 0 && delta < 1)) throw InvalidArgument("delta", "must be in [0, 1)");
  if (grid < 1) throw InvalidArgument("grid", "need >= 1 threshold");
  EmpiricalEpsilon e;
  e.confidence = 1 - alpha;
  e.thresholds_tried = grid;
  std::vector<double> sorted(scores.begin(), scores.end());
  std::sort(sorted.begin(), sorted.end());
  for (bool x : labels) (x ? e.members : e.non_members) += 1;
  if (e.members == 0 || e.non_members == 0) throw InvalidArgument("labels", "need members and non-members");
  const double per_rate = alpha / (2.0 * grid);
  for (int g = 1; g <= grid; ++g) {
    const double tau = sorted[static_cast<std::size_t>(std::floor(static_cast<double>(g) / (grid + 1) * static_cast<double>(sorted.size() - 1)))];
    std::uint64_t tp = 0, fp = 0;
    for (std::size_t j = 0; j < scores.size(); ++j)
      if (scores[j] >= tau) (labels[j] ? tp : fp) += 1;
    const Bounds t = ClopperPearson(tp, e.members, per_rate), f = ClopperPearson(fp, e.non_members, per_rate);
    double eps = 0;
    if (t.lo - delta > 0 && f.hi > 0) eps = std::max(eps, std::log((t.lo - delta) / f.hi));
    // TNR ≤ e^ε·FNR + δ: the lower bound of TNR = 1 − FPR is 1 − FPR_hi, the upper bound of FNR is 1 − TPR_lo.
    if ((1 - f.hi) - delta > 0 && (1 - t.lo) > 0) eps = std::max(eps, std::log(((1 - f.hi) - delta) / (1 - t.lo)));
    if (eps > e.epsilon) {
      e.epsilon = eps;
      e.threshold = tau;
      e.tpr = static_cast<double>(tp) / static_cast<double>(e.members);
      e.fpr = static_cast<double>(fp) / static_cast<double>(e.non_members);
    }
  }
  return e;
}

}  // namespace dpfl::fl
