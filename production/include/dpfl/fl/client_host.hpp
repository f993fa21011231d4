// The client side of a round of the seed-000/001 loop, and where the clients run
// (docs/scaling.md). The server's loop (RunTraining, training.hpp) talks to a ClientFleet: it asks
// for the clients' signed X25519 announcements, draws the pairing (BeginRound), broadcasts a
// RoundInput, and gets back one ClientOutput per present client. A fleet is either
//  * LocalFleet: every client in this process, trained by W workers (dpfl train --workers W), or
//  * RemoteFleet (remote_fleet.hpp): clients on other processes or machines, reached through a
//    Channel (LibTorch c10d / Gloo in production: gloo_channel.hpp).
// A ClientHost holds what only clients have — their shards, their key pairs, the identity
// directory they trust — and never leaves its process; the server holds none of it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "dpfl/data/datasets.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/fl/protocol.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/fl/training.hpp"

namespace dpfl::fl {

// What the server sends every client host at the start of round t (seed-000 Alg. 3 l.1–3): the
// per-layer (c, r), the global model, and its view so far (the signed announcements it relays,
// the pairing, who is present; no messages yet).
struct RoundInput {
  std::uint32_t round = 0;
  std::vector<double> c, r;
  std::vector<float> global;
  ServerView view;
};

// What one present client returns: its message (the uplink), or for the CQ baseline its trained
// row (CQ encodes all clients jointly, EncodeCqClients; it has no privacy and nothing to hide);
// its training loss; whether its shard was empty (it then sends the global weights it got); and
// the runtime monitor's samples (DESIGN.md "Certificate"): a self-test of the deployment, not
// part of the protocol — shipped to the server only because this simulation runs the monitor
// there; RemoteFleet counts their bytes apart from the uplink.
struct ClientOutput {
  std::uint32_t client = 0;
  bool idle = false;
  double loss = 0;
  Message message;
  std::vector<float> weights;
  std::vector<MonitorSample> monitor;
  double encode_seconds = 0;  // wall time of this client's clip + encode + monitor sampling
};

// The clients a host runs: `clients` (ascending ids below config.clients), with one worker per
// LocalTrainer in `workers` (model replicas; distinct objects, used one client at a time each).
class ClientHost {
 public:
  ClientHost(const TrainConfig& config, const data::Dataset& train, std::vector<std::uint32_t> clients,
             std::vector<LocalTrainer*> workers);
  const std::vector<std::uint32_t>& clients() const { return clients_; }
  std::size_t workers() const { return workers_.size(); }
  const std::vector<LocalTrainer*>& replicas() const { return workers_; }
  // Each hosted client's signed X25519 key for `round`, ascending client id.
  std::vector<std::pair<std::uint32_t, KeyAnnouncement>> Announce(std::uint32_t round) const;
  // Local training and encoding of the hosted clients present in `in.view`, in parallel over the
  // workers; outputs in ascending client id. `client_done` (may be empty) is called once per
  // finished client, one call at a time.
  std::vector<ClientOutput> Run(const RoundInput& in, const std::function<void()>& client_done = {});

 private:
  TrainConfig config_;
  std::vector<std::uint32_t> clients_;
  std::vector<data::Dataset> shards_;  // by position in clients_
  std::vector<ClientKeys> keys_;       // by position in clients_
  std::vector<PublicKey> directory_;   // every client's Ed25519 identity key (trusted at setup)
  std::vector<LocalTrainer*> workers_;
};

// Every client's shard indices into the training set (seed-000 §5: IID equal shares, or
// Dirichlet(β) label shares), a function of the configuration only.
std::vector<std::vector<std::size_t>> ClientShardIndices(const TrainConfig& config, const data::Dataset& train);

// Present clients that send as solo (LDPQ) clients: planned solo, or a pair's survivor.
std::uint32_t CountSolo(const ServerView& view);

// The server's side of the clients (RunTraining).
class ClientFleet {
 public:
  virtual ~ClientFleet() = default;
  // Every client's signed key for `round`, indexed by client id (size: config.clients).
  virtual std::vector<KeyAnnouncement> Announcements(std::uint32_t round) = 0;
  // The present clients' outputs, ascending client id; `client_done` as in ClientHost::Run.
  virtual std::vector<ClientOutput> RunRound(const RoundInput& in, const std::function<void()>& client_done) = 0;
  // The run is over (remote hosts are told to exit).
  virtual void Finish() {}
  // Bytes that crossed a process boundary in the last RunRound: uplink messages, monitor
  // samples, and the downlink broadcast (0 for an in-process fleet).
  struct Traffic {
    std::uint64_t message_bytes = 0, monitor_bytes = 0, broadcast_bytes = 0;
  };
  virtual Traffic LastTraffic() const { return {}; }
  virtual std::string Describe() const = 0;  // e.g. "1 process, 2 workers"
  // Model replicas in this process that are idle between rounds (LocalFleet's workers), which
  // the server may use to evaluate in parallel; empty for remote clients.
  virtual std::vector<LocalTrainer*> LocalReplicas() const { return {}; }
};

// Every client in this process.
class LocalFleet final : public ClientFleet {
 public:
  LocalFleet(const TrainConfig& config, const data::Dataset& train, std::vector<LocalTrainer*> workers);
  std::vector<KeyAnnouncement> Announcements(std::uint32_t round) override;
  std::vector<ClientOutput> RunRound(const RoundInput& in, const std::function<void()>& client_done) override;
  std::string Describe() const override;
  std::vector<LocalTrainer*> LocalReplicas() const override { return host_.replicas(); }

 private:
  ClientHost host_;
};

}  // namespace dpfl::fl
