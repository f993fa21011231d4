// Membership inference by the likelihood-ratio attack LiRA (Carlini et al. 2022, "Membership
// inference attacks from first principles"; seed 003 Alg. 3, spec §3) and the statistics of an
// empirical privacy audit: per-example Gaussian fits of shadow-model confidences, offline and
// online scores, the ROC curve, AUC, TPR at fixed FPR, bootstrap intervals, Clopper–Pearson
// intervals and the empirical ε lower bound. Pure functions on numbers (no LibTorch): the
// orchestration (shadow trainings) is `dpfl audit lira` (production/cli/audit_lira.cpp).
//
// Confidence: the logit-scaled confidence φ = log(p_y/(1 − p_y)) of the true label (Carlini et al.
// §IV-C; the seed's Alg. 3 says "loss" — φ is a monotone function of the cross-entropy loss
// −log p_y, so a one-sided test on φ is the seed's test on the loss, and φ is closer to Gaussian),
// computed stably as z_y − logsumexp_{j≠y} z_j from the logits z.
// Scores (higher = more likely a member):
//  * offline (the seed's variant): Φ((φ − μ_out)/σ_out), the OUT fit N(μ_out, σ_out²) of the example
//    over the shadows that did not train on it (spec Alg. 3 line 6, with φ for −loss);
//  * online: log N(φ; μ_in, σ_in²) − log N(φ; μ_out, σ_out²) (Carlini et al. Alg. 1).
//  Variances: per example, or one global variance pooled over all examples (for few shadows:
//  Carlini et al. §VI-A); a fit with fewer than 2 observations falls back to the global value; a
//  missing IN or OUT fit gives the score of the other side alone (offline needs OUT).
// Empirical ε (the standard conversion, e.g. Jagielski et al. 2020, Nasr et al. 2021): an (ε, δ)-DP
// mechanism makes every test satisfy TPR ≤ e^ε·FPR + δ and 1 − FPR ≤ e^ε·(1 − TPR) + δ, so at a
// threshold ε ≥ max{log((TPR_lo − δ)/FPR_hi), log((1 − FPR_hi − δ)/(1 − TPR_lo))} with Clopper–Pearson
// bounds; taken over a fixed grid of thresholds with a Bonferroni split of the confidence level,
// so the maximum is a lower bound with the stated confidence. It treats the audited examples as
// independent trials (each example's membership is an independent fair coin; the examples share
// one trained model, the usual one-run audit heuristic): a bound for comparison, not a proof.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace dpfl::fl {

// φ = z_y − logsumexp_{j≠y} z_j for one row of logits (classes ≥ 2; label in range).
double LogitConfidence(std::span<const float> logits, std::int64_t label);

enum class LiraVariance { kPerExample, kGlobal };

struct LiraScores {
  std::vector<double> offline, online;  // one per example
  double global_sd_in = 0, global_sd_out = 0;
};
// confidences[m][j]: shadow m on example j; member[m][j]: whether shadow m trained on j;
// target[j]: the target model's φ. All shadows of equal length n ≥ 1; M ≥ 1.
LiraScores LiraScore(const std::vector<std::vector<double>>& confidences, const std::vector<std::vector<bool>>& member,
                     const std::vector<double>& target, LiraVariance variance);

struct RocCurve {
  std::vector<double> fpr, tpr, threshold;  // from (0, 0) to (1, 1); "member" iff score ≥ threshold
  double auc = 0;                           // P(score_member > score_non) + ½P(=)
};
// labels[j]: true = member. Needs at least one member and one non-member.
RocCurve Roc(std::span<const double> scores, const std::vector<bool>& labels);
// The largest TPR over the thresholds with FPR ≤ fpr.
double TprAtFpr(const RocCurve& roc, double fpr);

struct Bounds {
  double lo = 0, hi = 1;
};
// Two-sided Clopper–Pearson interval for k successes in n trials at confidence 1 − alpha.
Bounds ClopperPearson(std::uint64_t k, std::uint64_t n, double alpha);

// Percentile bootstrap (B resamples of the examples, fixed seed) of the AUC and of TPR at the given FPRs.
struct LiraBootstrap {
  Bounds auc;
  std::vector<Bounds> tpr_at;  // one per fpr
};
LiraBootstrap BootstrapRoc(std::span<const double> scores, const std::vector<bool>& labels,
                           const std::vector<double>& fprs, int resamples, double alpha, std::uint64_t seed);

struct EmpiricalEpsilon {
  double epsilon = 0;  // the lower bound (0 if no threshold gives a positive one)
  double threshold = 0, tpr = 0, fpr = 0;
  std::uint64_t members = 0, non_members = 0;
  int thresholds_tried = 0;
  double confidence = 0.95;
};
// ε lower bound at δ over `grid` thresholds (the score quantiles 1/(grid+1) … grid/(grid+1)), with
// Clopper–Pearson at alpha/(2·grid) per rate (Bonferroni), overall confidence 1 − alpha.
EmpiricalEpsilon EmpiricalEpsilonLowerBound(std::span<const double> scores, const std::vector<bool>& labels,
                                            double delta, double alpha, int grid);

}  // namespace dpfl::fl
