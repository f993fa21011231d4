// dpfl-proofs — seed 004 (DPFL-BNN): claims for errata that no other claim evaluates (the errata
// registry's pending list, errata_registry.cpp), each evaluating the printed and the corrected
// form: exact enumeration of the aggregate, the exact δ(ε) of k randomized-response bits.
#include <string>
#include <vector>

#include "claims.hpp"
#include "dpfl/ref/randomized_response.hpp"
#include "instances.hpp"

namespace dpfl::proofs {
namespace {

// E9: Alg. 1 mixes the latent weights as β·(aggregate) + (1 − β)·W̄ with W̄ ∈ [−1, 1] and the
// aggregate of the n clients' ±1 reports; the spec needs the result in [−1, 1] (§7.3 item 17).
// Printed: the aggregate is the sum Σ W̃ ∈ [−n, n]; corrected: the average (1/n)Σ W̃. Every
// report vector's sum is enumerated (its support), with W̄ at both ends.
Verdict CheckMixingRange(const CheckOptions& o) {
  Search printed, corrected;
  const int n_max = o.quick ? 6 : 12;
  for (int n = 1; n <= n_max; ++n)
    for (const Rational& beta : {Q(1, 5), Q(3, 10), Q(1, 2), Q(9, 10)})
      for (long reports = 0; reports < (1L << n); ++reports) {
        long sum = 0;
        for (int i = 0; i < n; ++i) sum += (reports >> i & 1) ? 1 : -1;
        // Flip: the latent taken before the clip of §II-D (W̄ = ±11/10), not in [−1, 1].
        for (const Rational& wbar : {o.flip ? Q(-11, 10) : Q(-1), o.flip ? Q(11, 10) : Q(1)}) {
          const Rational as_printed = beta * sum + (1 - beta) * wbar;
          const Rational averaged = beta * Rational(sum, n) + (1 - beta) * wbar;
          const std::string where = "n=" + std::to_string(n) + " β=" + S(beta) + " Σ W̃=" + std::to_string(sum) +
                                    " W̄=" + S(wbar);
          printed.Count();
          if (as_printed < -1 || as_printed > 1) printed.Violation(where + ": β·Σ + (1 − β)W̄ = " + S(as_printed));
          corrected.Count();
          if (averaged < -1 || averaged > 1) corrected.Violation(where + ": β·mean + (1 − β)W̄ = " + S(averaged));
        }
      }
  return CompareVariants(printed, corrected, "the mixed latent in [−1, 1] for every report vector (n ≤ 12), with the "
                                             "sum (printed) and the average (corrected)");
}

// E11: Alg. 1's loop t = 0, …, T runs T + 1 rounds, so a client releases T + 1 RR bits per
// coordinate, while Theorem 1 calibrates γ for T. At γ = γ_max(ε, δ, T) (corrected Theorem 1,
// its certified lower end) the exact δ(ε) of k RR bits (binomial tail form) must be ≤ δ: with
// k = T it is (Theorem 1 is a valid bound), with k = T + 1 it need not be.
Verdict CheckRoundCount(const CheckOptions& o) {
  Search printed, corrected;
  const Rational delta(1, 100000);
  std::vector<long> Ts = {1, 2, 5, 10};
  if (!o.quick) Ts.push_back(100);
  for (const Rational& eps : {Q(1), Q(4)})
    for (long T : Ts) {
      // Flip: γ_max calibrated for T + 1 rounds, the count the printed loop really runs.
      const Rational gamma = ref::BnnGammaMax(eps, delta, Rational(o.flip ? T + 1 : T), Rational(1), false).lo();
      const std::string where = "ε=" + S(eps) + " δ=1e-5 T=" + std::to_string(T) + " γ=γ_max(T)";
      printed.Count();
      const ref::Interval d_printed = ref::BnnExactDelta(eps, gamma, Rational(T + 1));
      if (d_printed.lo() > delta)
        printed.Violation(where + ": T + 1 = " + std::to_string(T + 1) + " releases have exact δ(ε) ≥ " +
                          ref::ToDecimalString(d_printed.lo(), 6) + " > δ");
      corrected.Count();
      const ref::Interval d_corrected = ref::BnnExactDelta(eps, gamma, Rational(T));
      if (!(d_corrected.hi() <= delta))
        corrected.Violation(where + ": T releases have exact δ(ε) up to " + ref::ToDecimalString(d_corrected.hi(), 6));
    }
  return CompareVariants(printed, corrected, "exact δ(ε) of the RR bits a client releases at γ = γ_max(ε, δ, T): "
                                             "T + 1 of them (loop t = 0..T, printed) or T (t = 1..T, corrected)");
}

// E24: "all communication is 1 bit per coordinate". The upload is ±1 (1 bit); the aggregate a
// client downloads (or a secure-aggregation modulus must hold) is Σ of n reports, whose support —
// enumerated — has n + 1 values, so it needs ⌈log2(n + 1)⌉ bits.
Verdict CheckCommunication(const CheckOptions& o) {
  Search printed, corrected;
  const int n_max = o.quick ? 10 : 16;
  for (int n = 1; n <= n_max; ++n) {
    std::vector<bool> seen(static_cast<std::size_t>(2 * n + 1), false);
    for (long reports = 0; reports < (1L << n); ++reports) {
      long sum = 0;
      for (int i = 0; i < n; ++i) sum += (reports >> i & 1) ? 1 : -1;
      // Flip: a server that re-binarizes, broadcasting Sign(Σ) (Sign(0) = +1): a majority vote,
      // which Alg. 1 does not do.
      if (o.flip) sum = sum >= 0 ? 1 : -1;
      seen[static_cast<std::size_t>(sum + n)] = true;
    }
    long values = 0;
    for (bool b : seen) values += b;
    int bits = 0;
    while ((1L << bits) < values) ++bits;
    printed.Count();
    if (bits > 1)
      printed.Violation("n=" + std::to_string(n) + ": the aggregate takes " + std::to_string(values) +
                        " values, " + std::to_string(bits) + " bits per coordinate");
    corrected.Count();
    int want = 0;
    while ((1L << want) < n + 1) ++want;
    if (values != n + 1 || bits != want)
      corrected.Violation("n=" + std::to_string(n) + ": " + std::to_string(values) + " values");
  }
  int bits_100 = 0;  // the paper's n = 100, by the corrected formula
  while ((1L << bits_100) < 101) ++bits_100;
  return CompareVariants(printed, corrected, "bits per coordinate of the aggregate of n ±1 uploads, from its enumerated "
                                             "support: 1 (printed) or ⌈log2(n + 1)⌉ (corrected; the upload itself is 1 "
                                             "bit; the paper's n = 100 needs " + std::to_string(bits_100) + ")");
}

}  // namespace

void AddSeed004ErrataClaims(Catalog& c) {
  const std::string seed = "004";
  c.push_back({"004/Alg1/mixing-range", seed, "the mixed latent β·Σ W̃ + (1 − β)W̄ stays in [−1, 1]", "spec 004 §3, §7.3 item 17",
               {"E9"}, Status::kPassCorrected, CheckMixingRange,
               "the latent W̄ taken before the clip (±11/10) instead of in [−1, 1]"});
  c.push_back({"004/Alg1/round-count", seed, "Alg. 1 (t = 0..T) is (ε, δ)-DP at γ ≤ γ_max(ε, δ, T)", "spec 004 §3, §4.5",
               {"E11"}, Status::kPassCorrected, CheckRoundCount,
               "γ_max calibrated for T + 1 rounds (the printed loop's count), so the T + 1 releases are covered"});
  c.push_back({"004/5.4/communication", seed, "all communication is 1 bit per coordinate", "spec 004 §5.4", {"E24"},
               Status::kPassCorrected, CheckCommunication,
               "the server broadcasts Sign(Σ W̃) (a majority vote) instead of the sum"});
}

}  // namespace dpfl::proofs
