// Positive control of the layering probes: with the same usage requirements, the shared core
// (dpfl_core) and the target's own headers compile, so a failing reference probe fails for the
// missing header and not for a broken probe setup.
#include "dpfl/error.hpp"
#include "dpfl/format.hpp"

int LayeringProbe() { return dpfl::ShortestDouble(0.5).size() == 3 ? 0 : 1; }
