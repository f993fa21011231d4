// Stand-in for libtorch_quantizers.cpp when LibTorch is not found: no baselines (the benchmark
// then reports libtorch_ops_params_per_s as null and says why).
#include "quantizer_bench.hpp"

namespace dpfl::bench {
bool HaveLibTorch() { return false; }
std::vector<TorchBaseline> MakeTorchBaselines(std::size_t, int, int) { return {}; }
}  // namespace dpfl::bench
