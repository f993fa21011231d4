// Layering probe (test seams out of the installed API): compiled by the ctests
// `layering_<target>_cannot_include_internals` with only a production target's usage
// requirements; the build must fail because production/internal/ (the decision rules templated on
// the mutant fault policy) is private to the libraries and to dpfl_testing_internals.
#include "dpfl/quant/binary_rules.hpp"

int LayeringProbe() { return dpfl::quant::NoFaults::kQ1CellOffset; }
