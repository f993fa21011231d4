// See dpfl/fl/gloo_channel.hpp. The one LibTorch translation unit of multi-process training.
//
// Rendezvous: rank 0 hosts a c10d::TCPStore; every rank writes "dpfl/joined/<rank>", and rank 0
// waits for all of them (so a rank that never joins is named), then every rank builds a
// c10d::ProcessGroupGloo on the store. A frame is two point-to-point transfers: its length (one
// int64) and its bytes (uint8), each waited for with the round timeout. Gloo reports a peer
// whose process died as a closed connection at once; a peer that stalls, at the timeout.
#include "dpfl/fl/gloo_channel.hpp"

#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "dpfl/error.hpp"

namespace dpfl::fl {
namespace {

constexpr int kTagLength = 1, kTagBytes = 2;
constexpr std::int64_t kMaxFrame = std::int64_t{1} << 36;  // 64 GiB: larger is a corrupt length

std::chrono::milliseconds Millis(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(seconds * 1000)));
}

bool IsLoopback(const std::string& host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

class GlooChannel final : public Channel {
 public:
  explicit GlooChannel(const DistributedOptions& o) : o_(o) {
    const std::string where = o.master_addr + ":" + std::to_string(o.master_port);
    c10d::TCPStoreOptions so;
    so.port = static_cast<std::uint16_t>(o.master_port);
    so.isServer = o.rank == 0;
    so.numWorkers = static_cast<std::size_t>(o.world_size);
    so.waitWorkers = false;  // rank 0 waits below, so that it can name who is missing
    so.timeout = Millis(o.rendezvous_timeout);
    try {
      store_ = c10::make_intrusive<c10d::TCPStore>(o.master_addr, so);
    } catch (const std::exception& e) {
      if (o.rank == 0)
        throw PeerFailure(0, "rank 0 cannot listen on " + where + ": " + FirstLine(e.what()));
      throw PeerFailure(0, "rank " + std::to_string(o.rank) + " cannot reach rank 0 at " + where + " within " +
                               std::to_string(o.rendezvous_timeout) + " s: " + FirstLine(e.what()));
    }
    store_->set("dpfl/joined/" + std::to_string(o.rank), std::vector<std::uint8_t>{1});
    if (o.rank == 0) WaitForRanks(where);
    auto options = c10d::ProcessGroupGloo::Options::create(Millis(o.round_timeout));
    const char* ifname = std::getenv("GLOO_SOCKET_IFNAME");
    if (ifname && *ifname)
      options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
    else if (IsLoopback(o.master_addr))
      options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
    else
      options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    options->threads = 1;
    try {
      pg_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store_, o.rank, o.world_size, options);
    } catch (const std::exception& e) {
      throw PeerFailure(0, "rank " + std::to_string(o.rank) + " could not connect to the other ranks: " + FirstLine(e.what()));
    }
  }

  int rank() const override { return o_.rank; }
  int world_size() const override { return o_.world_size; }

  void Send(int peer, const std::string& frame) override {
    try {
      std::vector<at::Tensor> length{torch::full({1}, static_cast<std::int64_t>(frame.size()), torch::kInt64)};
      pg_->send(length, peer, kTagLength)->wait(Millis(o_.round_timeout));
      // Gloo reads the bytes in place; the frame outlives the wait.
      std::vector<at::Tensor> bytes{torch::from_blob(const_cast<char*>(frame.data()),
                                                     {static_cast<std::int64_t>(frame.size())}, torch::kUInt8)};
      pg_->send(bytes, peer, kTagBytes)->wait(Millis(o_.round_timeout));
    } catch (const std::exception& e) {
      throw PeerFailure(peer, "sending to rank " + std::to_string(peer) + ": " + FirstLine(e.what()));
    }
  }

  std::string Recv(int peer) override {
    try {
      std::vector<at::Tensor> length{torch::zeros({1}, torch::kInt64)};
      pg_->recv(length, peer, kTagLength)->wait(Millis(o_.round_timeout));
      const std::int64_t n = length[0].item<std::int64_t>();
      if (n < 1 || n > kMaxFrame) throw std::runtime_error("frame length " + std::to_string(n) + " out of range");
      std::string frame(static_cast<std::size_t>(n), '\0');
      std::vector<at::Tensor> bytes{torch::from_blob(frame.data(), {n}, torch::kUInt8)};
      pg_->recv(bytes, peer, kTagBytes)->wait(Millis(o_.round_timeout));
      return frame;
    } catch (const PeerFailure&) {
      throw;
    } catch (const std::exception& e) {
      throw PeerFailure(peer, "receiving from rank " + std::to_string(peer) + ": " + FirstLine(e.what()));
    }
  }

  std::string Describe() const override {
    return "c10d ProcessGroupGloo (TCP), rendezvous at " + o_.master_addr + ":" + std::to_string(o_.master_port);
  }

 private:
  // LibTorch errors carry a C++ backtrace after the first line; the message is the first line.
  static std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

  void WaitForRanks(const std::string& where) {
    const auto deadline = std::chrono::steady_clock::now() + Millis(o_.rendezvous_timeout);
    for (;;) {
      std::vector<int> missing;
      for (int r = 1; r < o_.world_size; ++r)
        if (!store_->check({"dpfl/joined/" + std::to_string(r)})) missing.push_back(r);
      if (missing.empty()) return;
      if (std::chrono::steady_clock::now() >= deadline) {
        std::string list;
        for (int r : missing) list += (list.empty() ? "" : ", ") + std::to_string(r);
        throw PeerFailure(missing.front(), std::string(missing.size() == 1 ? "rank " : "ranks ") + list +
                                               " did not join within " + std::to_string(o_.rendezvous_timeout) +
                                               " s (world size " + std::to_string(o_.world_size) + ", rendezvous at " +
                                               where + ")");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  DistributedOptions o_;
  c10::intrusive_ptr<c10d::TCPStore> store_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg_;
};

}  // namespace

std::unique_ptr<Channel> ConnectGloo(const DistributedOptions& o) {
  if (o.world_size < 2) throw InvalidArgument("--world-size", "a channel needs at least 2 ranks");
  if (o.rank < 0 || o.rank >= o.world_size)
    throw InvalidArgument("--rank", "must be in 0.." + std::to_string(o.world_size - 1) + ", got " + std::to_string(o.rank));
  if (o.master_port < 1 || o.master_port > 65535)
    throw InvalidArgument("--master-port", "must be in 1..65535, got " + std::to_string(o.master_port));
  if (o.master_addr.empty()) throw InvalidArgument("--master-addr", "must name rank 0's host");
  if (!(o.rendezvous_timeout > 0) || !std::isfinite(o.rendezvous_timeout))
    throw InvalidArgument("--rendezvous-timeout", "must be a finite number of seconds > 0");
  if (!(o.round_timeout > 0) || !std::isfinite(o.round_timeout))
    throw InvalidArgument("--round-timeout", "must be a finite number of seconds > 0");
  return std::make_unique<GlooChannel>(o);
}

bool HaveGloo() { return true; }

}  // namespace dpfl::fl
