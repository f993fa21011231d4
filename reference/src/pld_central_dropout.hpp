// Internal to the reference's PLD files: the dropout path of CentralBinaryEpsilon
// (pld_central.hpp "Dropout") and the exact pmf convolution both files use.
#pragma once

#include "dpfl/ref/pld_central.hpp"

namespace dpfl::ref::pld::detail {

std::vector<Rational> ConvolvePmfs(const std::vector<Rational>& a, const std::vector<Rational>& b);
CentralResult CentralDropoutEpsilon(const CentralBinarySetting& setting, const Rational& delta,
                                    const AccountOptions& options, bool with_lower);

}  // namespace dpfl::ref::pld::detail
