// dpfl::ref — exact DPFL-BNN output laws (see bnn_laws.hpp).
#include "dpfl/ref/bnn_laws.hpp"

#include <string>

#include "dpfl/error.hpp"
#include "dpfl/validate.hpp"

namespace dpfl::ref {
namespace {
void ValidateGamma(const Rational& gamma) { Require("gamma", gamma, Domain::Closed(0, 0.5), EchoValue); }
Rational Clip(const Rational& theta) { return theta < -1 ? Rational(-1) : (theta > 1 ? Rational(1) : theta); }
}  // namespace

Rational RrPlusProbability(const Rational& gamma, int input) {
  ValidateGamma(gamma);
  if (input != 1 && input != -1) throw InvalidArgument("input", "must be +1 or -1, got " + std::to_string(input));
  return Rational(1, 2) + gamma * input;
}

Rational StoSignPlusProbability(const Rational& theta) { return (Clip(theta) + 1) / 2; }

Rational SignPlusProbability(const Rational& theta) { return theta >= 0 ? Rational(1) : Rational(0); }

Rational BnnUploadPlusProbability(const Rational& gamma, const Rational& theta, bool stochastic) {
  ValidateGamma(gamma);
  // P(+) = σ·(1/2 + γ) + (1 − σ)·(1/2 − γ) = 1/2 + γ(2σ − 1), σ = P(bin(θ) = +1).
  const Rational sigma = stochastic ? StoSignPlusProbability(theta) : SignPlusProbability(theta);
  return Rational(1, 2) + gamma * (2 * sigma - 1);
}

std::vector<Rational> PoissonBinomialPmf(const std::vector<Rational>& probs) {
  std::vector<Rational> pmf = {Rational(1)};
  for (std::size_t i = 0; i < probs.size(); ++i) {
    const Rational& p = probs[i];
    if (p < 0 || p > 1)
      throw InvalidArgument("probs", "probs[" + std::to_string(i) + "] = " + ToExactString(p) + " is not in [0, 1]");
    std::vector<Rational> next(pmf.size() + 1, Rational(0));
    for (std::size_t k = 0; k < pmf.size(); ++k) {
      next[k] += pmf[k] * (1 - p);
      next[k + 1] += pmf[k] * p;
    }
    pmf = std::move(next);
  }
  return pmf;
}

BnnAverageMoments BnnAverageLaw(const std::vector<Rational>& probs) {
  if (probs.empty()) throw InvalidArgument("probs", "at least one upload is needed");
  BnnAverageMoments m{Rational(0), Rational(0)};
  for (std::size_t i = 0; i < probs.size(); ++i) {
    const Rational& p = probs[i];
    if (p < 0 || p > 1)
      throw InvalidArgument("probs", "probs[" + std::to_string(i) + "] = " + ToExactString(p) + " is not in [0, 1]");
    m.mean += 2 * p - 1;
    m.variance += 4 * p * (1 - p);
  }
  const Rational n(static_cast<long>(probs.size()));
  m.mean /= n;
  m.variance /= n * n;
  return m;
}

}  // namespace dpfl::ref
