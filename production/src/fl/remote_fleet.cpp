// See dpfl/fl/remote_fleet.hpp.
#include "dpfl/fl/remote_fleet.hpp"

#include <string>

#include "dpfl/error.hpp"
#include "dpfl/fl/round_wire.hpp"

namespace dpfl::fl {
namespace {

constexpr std::uint32_t kProtocol = 1;

std::string ClientBlock(const std::vector<std::uint32_t>& c) {
  if (c.empty()) return "no clients";
  return c.size() == 1 ? "client " + std::to_string(c[0])
                       : "clients " + std::to_string(c.front()) + "-" + std::to_string(c.back());
}

}  // namespace

std::vector<std::uint32_t> HostedClients(std::uint32_t clients, int world_size, int rank) {
  if (world_size < 2) throw InvalidArgument("--world-size", "client hosts exist only with a world size of at least 2");
  if (rank < 1 || rank >= world_size)
    throw InvalidArgument("--rank", "a client host's rank must be in 1.." + std::to_string(world_size - 1));
  const auto hosts = static_cast<std::uint64_t>(world_size - 1), h = static_cast<std::uint64_t>(rank - 1);
  const auto lo = static_cast<std::uint32_t>(clients * h / hosts), hi = static_cast<std::uint32_t>(clients * (h + 1) / hosts);
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = lo; i < hi; ++i) out.push_back(i);
  return out;
}

RemoteFleet::RemoteFleet(Channel& channel, const TrainConfig& config, const std::string& transcript_start,
                         const std::string& data_sha256)
    : channel_(channel), config_(config) {
  const int n = channel.world_size();
  if (channel.rank() != 0) throw InvalidArgument("--rank", "the server is rank 0");
  if (static_cast<std::uint64_t>(n - 1) > config.clients)
    throw InvalidArgument("--world-size", "more client hosts (" + std::to_string(n - 1) + ") than clients (" +
                                              std::to_string(config.clients) + ")");
  hosted_.resize(static_cast<std::size_t>(n));
  std::uint32_t workers = 0;
  for (int h = 1; h < n; ++h) {
    hosted_[h] = HostedClients(config.clients, n, h);
    wire::Hello hello;
    try {
      hello = wire::DecodeHello(channel.Recv(h));
    } catch (const PeerFailure& e) {
      throw PeerFailure(h, "rank " + std::to_string(h) + " did not say hello: " + e.what());
    } catch (const wire::WireError& e) {
      throw PeerFailure(h, "rank " + std::to_string(h) + " sent a malformed hello: " + e.what());
    }
    const auto refuse = [h](const std::string& why) {
      throw PeerFailure(h, "rank " + std::to_string(h) + " cannot join this run: " + why);
    };
    if (hello.protocol != kProtocol)
      refuse("it speaks protocol " + std::to_string(hello.protocol) + ", rank 0 speaks " + std::to_string(kProtocol));
    if (hello.rank != static_cast<std::uint32_t>(h) || hello.world_size != static_cast<std::uint32_t>(n))
      refuse("it believes it is rank " + std::to_string(hello.rank) + " of " + std::to_string(hello.world_size));
    if (hello.transcript_start != transcript_start)
      refuse("its configuration differs from rank 0's (transcript start " + hello.transcript_start + " vs " +
             transcript_start + "): every rank must run the same dpfl train flags");
    if (hello.data_sha256 != data_sha256)
      refuse("its training data differ from rank 0's (SHA-256 " + hello.data_sha256 + " vs " + data_sha256 + ")");
    if (hello.clients != hosted_[h]) refuse("it hosts " + ClientBlock(hello.clients) + ", not " + ClientBlock(hosted_[h]));
    workers += hello.workers;
  }
  description_ = std::to_string(n) + " processes (" + std::to_string(n - 1) + (n == 2 ? " client host" : " client hosts") +
                 ", " + std::to_string(workers) + " workers) over " + channel.Describe();
}

void RemoteFleet::Fail(int host, std::uint32_t round, const std::string& phase, const std::exception& e) const {
  throw PeerFailure(host, "round " + std::to_string(round + 1) + ": client host rank " + std::to_string(host) + " (" +
                              ClientBlock(hosted_[host]) + ") failed " + phase + ": " + e.what() +
                              ". The round fails closed: no certificate is written; checkpoint.bin holds the rounds "
                              "completed so far: restart every rank with --resume");
}

std::vector<KeyAnnouncement> RemoteFleet::Announcements(std::uint32_t round) {
  const int n = channel_.world_size();
  const std::string begin = wire::EncodeBegin(round);
  for (int h = 1; h < n; ++h) {
    try {
      channel_.Send(h, begin);
    } catch (const std::exception& e) {
      Fail(h, round, "at the start of the round", e);
    }
  }
  std::vector<KeyAnnouncement> out(config_.clients);
  for (int h = 1; h < n; ++h) {
    try {
      const auto [t, keys] = wire::DecodeAnnounce(channel_.Recv(h));
      if (t != round) throw wire::WireError("announcements for round " + std::to_string(t + 1));
      if (keys.size() != hosted_[h].size()) throw wire::WireError("announcements for " + std::to_string(keys.size()) + " clients");
      for (std::size_t k = 0; k < keys.size(); ++k) {
        if (keys[k].first != hosted_[h][k]) throw wire::WireError("an announcement for client " + std::to_string(keys[k].first));
        out[keys[k].first] = keys[k].second;
      }
    } catch (const std::exception& e) {
      Fail(h, round, "to announce its clients' keys", e);
    }
  }
  return out;
}

std::vector<ClientOutput> RemoteFleet::RunRound(const RoundInput& in, const std::function<void()>& client_done) {
  const int n = channel_.world_size();
  const std::string frame = wire::EncodeRound(in);
  traffic_ = {};
  for (int h = 1; h < n; ++h) {
    try {
      channel_.Send(h, frame);
    } catch (const std::exception& e) {
      Fail(h, in.round, "to receive the round", e);
    }
    traffic_.broadcast_bytes += frame.size();
  }
  std::vector<ClientOutput> all;
  for (int h = 1; h < n; ++h) {
    try {
      const std::string bytes = channel_.Recv(h);
      std::uint64_t message_bytes = 0;
      auto [t, outputs] = wire::DecodeOutputs(bytes, &message_bytes);
      if (t != in.round) throw wire::WireError("outputs for round " + std::to_string(t + 1));
      // Exactly the present hosted clients, ascending; CQ rows of the model's size.
      std::size_t k = 0;
      for (std::uint32_t i : hosted_[h]) {
        if (!in.view.present[i]) continue;
        if (k >= outputs.size() || outputs[k].client != i)
          throw wire::WireError("no output for present client " + std::to_string(i));
        if (config_.mechanism.kind == MechanismKind::kCq && outputs[k].weights.size() != in.global.size())
          throw wire::WireError("a CQ row of " + std::to_string(outputs[k].weights.size()) + " weights from client " +
                                std::to_string(i));
        ++k;
      }
      if (k != outputs.size()) throw wire::WireError("outputs for clients that are absent or not its own");
      traffic_.message_bytes += message_bytes;
      traffic_.monitor_bytes += bytes.size() - message_bytes;
      for (auto& o : outputs) {
        all.push_back(std::move(o));
        if (client_done) client_done();
      }
    } catch (const std::exception& e) {
      Fail(h, in.round, "to deliver its clients' messages", e);
    }
  }
  return all;  // hosts hold ascending blocks, so `all` is in ascending client id
}

void RemoteFleet::Finish() {
  const std::string stop = wire::EncodeStop();
  for (int h = 1; h < channel_.world_size(); ++h) {
    try {
      channel_.Send(h, stop);
    } catch (const std::exception&) {
      // The run is complete and checkpointed; a host that left early changes nothing.
    }
  }
}

HostSummary ServeClients(Channel& channel, ClientHost& host, const std::string& transcript_start,
                         const std::string& data_sha256, const std::function<void(std::uint32_t)>& before_round) {
  HostSummary s;
  s.rank = static_cast<std::uint32_t>(channel.rank());
  s.clients = host.clients();
  const auto send = [&](const std::string& frame) {
    channel.Send(0, frame);
    s.bytes_sent += frame.size();
  };
  wire::Hello hello;
  hello.protocol = kProtocol;
  hello.rank = s.rank;
  hello.world_size = static_cast<std::uint32_t>(channel.world_size());
  hello.transcript_start = transcript_start;
  hello.data_sha256 = data_sha256;
  hello.clients = host.clients();
  hello.workers = static_cast<std::uint32_t>(host.workers());
  send(wire::EncodeHello(hello));
  for (;;) {
    std::string frame;
    try {
      frame = channel.Recv(0);
    } catch (const PeerFailure& e) {
      throw PeerFailure(0, std::string("the server (rank 0) failed or left: ") + e.what());
    }
    s.bytes_received += frame.size();
    wire::Kind kind{};
    RoundInput in;
    std::uint32_t begin = 0;
    try {
      kind = wire::KindOf(frame);
      if (kind == wire::Kind::kBegin) begin = wire::DecodeBegin(frame);
      if (kind == wire::Kind::kRound) in = wire::DecodeRound(frame);
    } catch (const wire::WireError& e) {
      throw PeerFailure(0, std::string("the server (rank 0) sent a malformed frame: ") + e.what());
    }
    switch (kind) {
      case wire::Kind::kBegin:
        send(wire::EncodeAnnounce(begin, host.Announce(begin)));
        break;
      case wire::Kind::kRound: {
        if (before_round) before_round(in.round);
        std::uint64_t message_bytes = 0;
        send(wire::EncodeOutputs(in.round, host.Run(in), &message_bytes));
        s.message_bytes += message_bytes;
        ++s.rounds;
        break;
      }
      case wire::Kind::kStop:
        return s;
      default:
        throw PeerFailure(0, "the server (rank 0) sent a frame of kind " + std::to_string(static_cast<int>(kind)) +
                                 ", which only hosts send");
    }
  }
}

}  // namespace dpfl::fl
