// ConnectGloo for builds without LibTorch or without the Gloo headers (Debian libgloo-dev):
// `dpfl train --world-size N` (N > 1) then says so; one-process training is unaffected.
#include "dpfl/error.hpp"
#include "dpfl/fl/gloo_channel.hpp"

namespace dpfl::fl {

std::unique_ptr<Channel> ConnectGloo(const DistributedOptions&) {
  throw InvalidArgument("--world-size", "this dpfl was built without LibTorch's c10d/Gloo (LibTorch and libgloo-dev are "
                                        "needed for multi-process training)");
}

bool HaveGloo() { return false; }

}  // namespace dpfl::fl
