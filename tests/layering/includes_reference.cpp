// Layering probe (DESIGN.md: production never samples through the reference). Compiled by the
// ctests `layering_<target>_cannot_include_reference` with only a production target's usage
// requirements; the build must fail because dpfl/ref/ headers are not on its include path.
#include "dpfl/ref/numbers.hpp"

int LayeringProbe() { return 0; }
