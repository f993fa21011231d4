// Internal to the reference's PLD files: the dropout path of CentralBinaryEpsilon
// (pld_central.hpp "Dropout") and the exact pmf convolution both files use.
#pragma once

#include "dpfl/ref/pld_central.hpp"

namespace dpfl::ref::pld::detail {

std::vector<Rational> ConvolvePmfs(const std::vector<Rational>& a, const std::vector<Rational>& b);
// The "+" count {0, 1, 2} of a pair with the target at q and the partner at `partner`, the target
// first (CorBinQ's Q1, CoQ's Alice) or second, exact (d ∈ [1, 62]).
std::vector<Rational> PairCount(PairScheme scheme, const Rational& q, const Rational& partner, int d, bool target_first);
// Whether a pair with both members at the centre sends exactly one "+" (then other pairs at the
// centre add a constant).
bool CentrePairIsConstant(PairScheme scheme, int d);
// The exact pmf pairs behind CentralAchievablePairs (one direction each; TwoPmfPld adds the other).
std::vector<PmfPair> CentralAchievablePmfs(const CentralBinarySetting& setting);
CentralResult CentralDropoutEpsilon(const CentralBinarySetting& setting, const Rational& delta,
                                    const AccountOptions& options, bool with_lower);

}  // namespace dpfl::ref::pld::detail
