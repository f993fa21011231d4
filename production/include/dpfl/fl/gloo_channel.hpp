// The production Channel (remote_fleet.hpp): LibTorch's c10d — a TCPStore on rank 0 for the
// rendezvous and ProcessGroupGloo's point-to-point send/recv for the frames (docs/scaling.md).
// Free of LibTorch types; defined in dpfl_fl_torch (src/fl/gloo_channel.cpp) when LibTorch and
// the Gloo headers (Debian libgloo-dev) are found, else a stub that refuses --world-size > 1.
#pragma once

#include <memory>
#include <string>

#include "dpfl/fl/remote_fleet.hpp"

namespace dpfl::fl {

struct DistributedOptions {
  int world_size = 1;
  int rank = 0;
  std::string master_addr = "127.0.0.1";  // where rank 0's TCPStore listens
  int master_port = 29500;
  double rendezvous_timeout = 300;  // seconds for every rank to join
  double round_timeout = 3600;      // seconds to wait for one frame (a host's whole local round)
};

// Joins the run: rank 0 listens on master_addr:master_port and waits for every rank; the
// others connect. PeerFailure naming the ranks that did not join in time (rank 0), or saying
// that rank 0 could not be reached (hosts); InvalidArgument for impossible options.
std::unique_ptr<Channel> ConnectGloo(const DistributedOptions& options);
bool HaveGloo();

}  // namespace dpfl::fl
