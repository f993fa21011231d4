// See dpfl/fl/client_host.hpp.
#include "dpfl/fl/client_host.hpp"

#include <chrono>
#include <mutex>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/fl/worker_pool.hpp"

namespace dpfl::fl {
namespace {

// The client's sample order for the round: its counter-based "shuffle" stream (no torch RNG).
std::vector<std::size_t> SampleOrder(const TrainConfig& config, std::uint32_t client, std::uint32_t round,
                                     std::size_t shard) {
  StreamCursor cur;
  cur.ctx.key = DeriveKey(config.seed, "shuffle", client);
  cur.addr = {round, client, rng::Purpose::kPrivateCoin};
  // An empty shard (possible with a Dirichlet split of few samples over many clients) has no
  // sample order: the client trains nothing this round (ShuffledPasses returns none).
  const std::size_t want = config.local_steps > 0 ? static_cast<std::size_t>(config.local_steps) * config.batch
                                                  : static_cast<std::size_t>(config.local_epochs) * shard;
  return ShuffledPasses(cur, shard, want);
}

}  // namespace

std::vector<std::vector<std::size_t>> ClientShardIndices(const TrainConfig& config, const data::Dataset& train) {
  return config.split == "iid" ? data::IidShares(train.size(), config.clients, config.seed)
                               : data::DirichletShares(train.labels, train.classes, config.clients,
                                                       config.dirichlet_beta, config.seed);
}

std::uint32_t CountSolo(const ServerView& view) {
  std::uint32_t solo = 0;
  for (std::uint32_t s : view.pairing.solo)
    if (s < view.present.size() && view.present[s]) ++solo;
  for (const auto& [a, b] : view.pairing.pairs) {
    if (a >= view.present.size() || b >= view.present.size()) continue;
    if (view.present[a] != view.present[b]) ++solo;  // seed-000 §3.5: the survivor runs LDPQ
  }
  return solo;
}

ClientHost::ClientHost(const TrainConfig& config, const data::Dataset& train, std::vector<std::uint32_t> clients,
                       std::vector<LocalTrainer*> workers)
    : config_(config), clients_(std::move(clients)), workers_(std::move(workers)) {
  if (workers_.empty()) throw InvalidArgument("--workers", "must be >= 1");
  for (std::size_t k = 0; k < clients_.size(); ++k)
    if (clients_[k] >= config.clients || (k > 0 && clients_[k] <= clients_[k - 1]))
      throw InvalidArgument("clients", "hosted clients must be ascending ids below --clients");
  const auto indices = ClientShardIndices(config, train);
  for (std::uint32_t i : clients_) shards_.push_back(train.Subset(indices[i]));
  // Keys (protocol.hpp): simulated keys are derived from the seed, so every host computes the
  // whole identity directory itself (the stand-in for a PKI). Random keys exist only in the
  // process that drew them, so a host with random keys must host every client.
  if (config.keys == "random") {
    if (clients_.size() != config.clients)
      throw InvalidArgument("--keys", "random keys need every client in one process (their identity directory is "
                                      "never distributed); use --keys simulated with --world-size > 1");
    for (std::uint32_t i = 0; i < config.clients; ++i) {
      keys_.push_back(RandomClientKeys());
      directory_.push_back(keys_.back().identity_public);
    }
  } else {
    std::size_t k = 0;
    for (std::uint32_t i = 0; i < config.clients; ++i) {
      ClientKeys keys = DeriveClientKeys(config.seed, i);
      directory_.push_back(keys.identity_public);
      if (k < clients_.size() && clients_[k] == i) {
        keys_.push_back(keys);
        ++k;
      }
    }
  }
}

std::vector<std::pair<std::uint32_t, KeyAnnouncement>> ClientHost::Announce(std::uint32_t round) const {
  std::vector<std::pair<std::uint32_t, KeyAnnouncement>> out;
  for (std::size_t k = 0; k < clients_.size(); ++k) out.emplace_back(clients_[k], fl::Announce(keys_[k], clients_[k], round));
  return out;
}

std::vector<ClientOutput> ClientHost::Run(const RoundInput& in, const std::function<void()>& client_done) {
  const ServerView& view = in.view;
  if (view.present.size() != config_.clients) throw InvalidArgument("round input", "presence flags for every client expected");
  std::vector<std::size_t> layer_sizes = workers_[0]->LayerSizes();
  if (in.c.size() != layer_sizes.size() || in.r.size() != layer_sizes.size())
    throw InvalidArgument("round input", "one (c, r) per layer expected");
  std::vector<LayerRange> ranges;
  std::size_t offset = 0;
  for (std::size_t l = 0; l < layer_sizes.size(); ++l) {
    ranges.push_back({offset, layer_sizes[l], in.c[l], in.r[l]});
    offset += layer_sizes[l];
  }
  if (in.global.size() != offset) throw InvalidArgument("round input", "global model size differs from the model");
  std::vector<std::size_t> present;  // positions in clients_
  for (std::size_t k = 0; k < clients_.size(); ++k)
    if (view.present[clients_[k]]) present.push_back(k);
  std::vector<ClientOutput> outputs(present.size());
  std::mutex done_mutex;
  const rng::StreamKey monitor_key = DeriveKey(config_.seed, "monitor");
  ForEachItem(workers_.size(), present.size(), [&](std::size_t worker, std::size_t item) {
    const std::size_t k = present[item];
    const std::uint32_t i = clients_[k];
    ClientOutput& out = outputs[item];
    out.client = i;
    const std::vector<std::size_t> order = SampleOrder(config_, i, in.round, shards_[k].size());
    // A client without data sends the global weights it received, encoded like any other
    // update (so its message and the privacy ledger are unchanged); it is counted in
    // RoundRecord::idle and metrics.csv, and left out of the mean training loss.
    out.idle = order.empty();
    std::vector<float> w =
        out.idle ? in.global : workers_[worker]->TrainLocal(in.global, shards_[k], order, config_.batch, &out.loss);
    if (config_.mechanism.kind == MechanismKind::kCq) {
      out.weights = std::move(w);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      const ClientSlot slot = SlotFor(view, i, keys_[k], directory_);
      out.message = EncodeClient(config_.mechanism, w, ranges, slot, keys_[k].private_stream, in.round);
      out.monitor = SampleForMonitor(config_.mechanism, w, ranges, out.message, monitor_key, in.round,
                                     config_.monitor_samples);
      out.encode_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    if (client_done) {
      const std::lock_guard<std::mutex> lock(done_mutex);
      client_done();
    }
  });
  return outputs;
}

LocalFleet::LocalFleet(const TrainConfig& config, const data::Dataset& train, std::vector<LocalTrainer*> workers)
    : host_(config, train,
            [&config] {
              std::vector<std::uint32_t> all(config.clients);
              for (std::uint32_t i = 0; i < config.clients; ++i) all[i] = i;
              return all;
            }(),
            std::move(workers)) {}

std::vector<KeyAnnouncement> LocalFleet::Announcements(std::uint32_t round) {
  std::vector<KeyAnnouncement> out;
  for (auto& [client, a] : host_.Announce(round)) out.push_back(a);
  return out;
}

std::vector<ClientOutput> LocalFleet::RunRound(const RoundInput& in, const std::function<void()>& client_done) {
  return host_.Run(in, client_done);
}

std::string LocalFleet::Describe() const {
  return "1 process, " + std::to_string(host_.workers()) + (host_.workers() == 1 ? " worker" : " workers");
}

}  // namespace dpfl::fl
