// Federated training across processes and machines (dpfl train --world-size N; docs/scaling.md).
// Rank 0 is the server: pairing, aggregation, evaluation, checkpoints, certificate. Ranks
// 1…N−1 are client hosts, each running a contiguous block of the simulated clients
// (HostedClients) with its own ClientHost. They exchange only the protocol's messages
// (round_wire.hpp), over a Channel:
//   host → server  hello (configuration and data digests, hosted clients), once
//   server → host  begin t;   host → server  the hosted clients' signed X25519 keys
//   server → host  RoundInput (c, r, global model, announcements, pairing, presence)
//   host → server  the present clients' messages (bit-packed) and monitor samples
//   server → host  stop
// The pair keys are computed by the two clients of a pair from each other's relayed, signed
// public keys; the server never receives a shared secret, a shared bit or a weight (CQ, a
// baseline without privacy, sends its rows: docs/scaling.md). Every transfer names the rank
// it waits for; a host that dies or stalls makes the round fail closed (PeerFailure), and
// `--resume` from the server's checkpoint completes the run with the same final weights.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpfl/fl/client_host.hpp"

namespace dpfl::fl {

// A peer process failed, left, stalled past the timeout, or sent what the protocol does not allow.
class PeerFailure : public std::runtime_error {
 public:
  PeerFailure(int rank, const std::string& what) : std::runtime_error(what), rank_(rank) {}
  int rank() const { return rank_; }

 private:
  int rank_;
};

// Point-to-point byte frames between the ranks of one run. Send/Recv throw PeerFailure (naming
// the peer) when the peer's process is gone or nothing arrives within the channel's timeout.
class Channel {
 public:
  virtual ~Channel() = default;
  virtual int rank() const = 0;
  virtual int world_size() const = 0;
  virtual void Send(int peer, const std::string& frame) = 0;
  virtual std::string Recv(int peer) = 0;
  virtual std::string Describe() const = 0;
};

// The clients of rank `rank` (1 ≤ rank < world_size): block rank−1 of world_size−1 near-equal
// contiguous blocks of 0…clients−1. InvalidArgument if world_size < 2 or rank is out of range.
std::vector<std::uint32_t> HostedClients(std::uint32_t clients, int world_size, int rank);

// Rank 0's view of the hosts. The constructor receives every host's hello and checks that each
// runs this configuration (same transcript start h_0) on the same data, hosts its block of
// clients, and speaks this protocol; otherwise PeerFailure naming the rank and the difference.
class RemoteFleet final : public ClientFleet {
 public:
  RemoteFleet(Channel& channel, const TrainConfig& config, const std::string& transcript_start,
              const std::string& data_sha256);
  std::vector<KeyAnnouncement> Announcements(std::uint32_t round) override;
  std::vector<ClientOutput> RunRound(const RoundInput& in, const std::function<void()>& client_done) override;
  void Finish() override;
  Traffic LastTraffic() const override { return traffic_; }
  std::string Describe() const override { return description_; }

 private:
  [[noreturn]] void Fail(int host, std::uint32_t round, const std::string& phase, const std::exception& e) const;
  Channel& channel_;
  TrainConfig config_;
  std::vector<std::vector<std::uint32_t>> hosted_;  // by rank (0: none)
  Traffic traffic_;
  std::string description_;
};

// A client host's run (rank ≥ 1): hello, then rounds until the server's stop.
struct HostSummary {
  std::uint32_t rank = 0, rounds = 0;
  std::vector<std::uint32_t> clients;
  std::uint64_t bytes_sent = 0, bytes_received = 0, message_bytes = 0;
};
// `before_round` (may be empty) is called with each round's 0-based index before the host trains
// it (the CLI's fault injection for tests: DPFL_FAULT_KILL_HOST_AT_ROUND, docs/scaling.md).
HostSummary ServeClients(Channel& channel, ClientHost& host, const std::string& transcript_start,
                         const std::string& data_sha256, const std::function<void(std::uint32_t)>& before_round = {});

}  // namespace dpfl::fl
