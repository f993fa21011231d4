// See train_execution.hpp.
#include "train_execution.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <iostream>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/fl/worker_pool.hpp"

namespace dpfl::cli {
namespace {

// An integer environment variable in [lo, hi], or `fallback` when unset or empty.
long EnvInteger(const char* name, long fallback, long lo, long hi) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  errno = 0;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  if (errno != 0 || end == v || *end != '\0' || x < lo || x > hi)
    throw InvalidArgument(name, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                    "], got '" + std::string(v).substr(0, 32) + "'");
  return x;
}

}  // namespace

void AddExecutionFlags(CLI::App& app, TrainArgs& a) {
  app.add_option("--workers", a.workers,
                 "client trainers in this process, each with its own model replica and --threads intra-op threads "
                 "(default 0: one per core); the final weights are the same for every value");
  app.add_option("--world-size", a.world_size,
                 "processes of a multi-process run: rank 0 is the server, ranks 1..N-1 host the clients "
                 "(default: $WORLD_SIZE, else 1)");
  app.add_option("--rank", a.rank, "this process's rank in 0..N-1 (default: $RANK)");
  app.add_option("--master-addr", a.master_addr, "host of rank 0's rendezvous store (default: $MASTER_ADDR, else 127.0.0.1)");
  app.add_option("--master-port", a.master_port, "port of rank 0's rendezvous store (default: $MASTER_PORT, else 29500)");
  app.add_option("--rendezvous-timeout", a.rendezvous_timeout, "seconds for every rank to join (default 300)");
  app.add_option("--round-timeout", a.round_timeout,
                 "seconds to wait for one message from a peer, e.g. a host's whole local round (default 3600)");
}

Execution ResolveExecution(const TrainArgs& a) {
  Execution e;
  if (a.workers < 0) throw InvalidArgument("--workers", "must be >= 0 (0: one per core), got " + std::to_string(a.workers));
  e.workers = a.workers == 0 ? fl::DefaultWorkers() : static_cast<std::size_t>(a.workers);
  constexpr long kMaxWorld = 1 << 20;
  fl::DistributedOptions& p = e.process;
  p.world_size = a.world_size != -1 ? a.world_size : static_cast<int>(EnvInteger("WORLD_SIZE", 1, 1, kMaxWorld));
  if (p.world_size < 1 || p.world_size > kMaxWorld)
    throw InvalidArgument("--world-size", "must be in [1, " + std::to_string(kMaxWorld) + "], got " + std::to_string(p.world_size));
  p.rank = a.rank >= 0 ? a.rank : static_cast<int>(EnvInteger("RANK", 0, 0, kMaxWorld));
  if (a.rank < -1) throw InvalidArgument("--rank", "must be >= 0, got " + std::to_string(a.rank));
  if (p.rank >= p.world_size)
    throw InvalidArgument(a.rank >= 0 ? "--rank" : "RANK", "must be in 0.." + std::to_string(p.world_size - 1) +
                                                               " for a world size of " + std::to_string(p.world_size) +
                                                               ", got " + std::to_string(p.rank));
  if (!a.master_addr.empty()) {
    p.master_addr = a.master_addr;
  } else if (const char* v = std::getenv("MASTER_ADDR"); v != nullptr && *v != '\0') {
    p.master_addr = v;
  }
  if (a.master_port != -1 && (a.master_port < 1 || a.master_port > 65535))
    throw InvalidArgument("--master-port", "must be in 1..65535, got " + std::to_string(a.master_port));
  p.master_port = a.master_port != -1 ? a.master_port : static_cast<int>(EnvInteger("MASTER_PORT", 29500, 1, 65535));
  if (!(a.rendezvous_timeout > 0) || !std::isfinite(a.rendezvous_timeout))
    throw InvalidArgument("--rendezvous-timeout", "must be a finite number of seconds > 0");
  if (!(a.round_timeout > 0) || !std::isfinite(a.round_timeout))
    throw InvalidArgument("--round-timeout", "must be a finite number of seconds > 0");
  p.rendezvous_timeout = a.rendezvous_timeout;
  p.round_timeout = a.round_timeout;
  return e;
}

Replicas MakeReplicas(const fl::TrainerOptions& options, const data::Dataset& train, std::size_t count) {
  Replicas r;
  for (std::size_t k = 0; k < std::max<std::size_t>(count, 1); ++k) {
    r.owned.push_back(fl::MakeTorchTrainer(options, train.channels, train.height, train.width, train.classes));
    r.workers.push_back(r.owned.back().get());
  }
  return r;
}

// Fault injection for the multi-process tests (docs/scaling.md "Faults"): with
// DPFL_FAULT_KILL_HOST_AT_ROUND=R (1-based) in its environment, a client host kills itself with
// SIGKILL when round R's input arrives — an abrupt death, as of a machine that loses power.
std::function<void(std::uint32_t)> FaultInjection(const Execution& ex) {
  const char* v = std::getenv("DPFL_FAULT_KILL_HOST_AT_ROUND");
  if (v == nullptr || *v == '\0') return {};
  char* end = nullptr;
  const unsigned long r = std::strtoul(v, &end, 10);
  if (end == v || *end != '\0' || r == 0)
    throw InvalidArgument("DPFL_FAULT_KILL_HOST_AT_ROUND", "must be a round number >= 1, got '" + std::string(v).substr(0, 32) + "'");
  return [r, rank = ex.process.rank](std::uint32_t round) {
    if (round + 1 != r) return;
    std::cerr << "dpfl: fault injection: rank " << rank << " kills itself at round " << r << "\n";
    std::raise(SIGKILL);
  };
}

nlohmann::json HostJson(const fl::HostSummary& h, const Execution& ex) {
  return {{"role", "client host"}, {"rank", h.rank}, {"world_size", ex.process.world_size},
          {"clients", {h.clients.empty() ? 0u : h.clients.front(), h.clients.empty() ? 0u : h.clients.back()}},
          {"workers", ex.workers}, {"rounds_served", h.rounds}, {"bytes_sent", h.bytes_sent},
          {"bytes_received", h.bytes_received}, {"message_bytes", h.message_bytes},
          {"note", "rank 0 writes the run's outputs and certificate"}};
}

// Upload traffic per client and round, as measured on the wire (RemoteFleet) or, in one
// process, as the messages' payload (RoundRecord::uplink_bits).
nlohmann::json TrafficJson(const fl::TrainResult& r, std::size_t m) {
  std::uint64_t payload_bits = 0, wire_bytes = 0, broadcast = 0, messages = 0;
  for (const auto& rec : r.history) {
    payload_bits += rec.uplink_bits;
    wire_bytes += rec.wire_message_bytes;
    broadcast += rec.wire_broadcast_bytes;
    messages += rec.survivors;
  }
  nlohmann::json t = {{"messages", messages}, {"parameters", m},
                      {"payload_bits_per_parameter", messages && m ? static_cast<double>(payload_bits) / messages / m : 0.0}};
  if (wire_bytes > 0) {
    t["wire_bytes_per_message"] = static_cast<double>(wire_bytes) / messages;
    t["wire_bits_per_parameter"] = 8.0 * wire_bytes / messages / m;
    t["broadcast_bytes_per_round"] = r.history.empty() ? 0.0 : static_cast<double>(broadcast) / r.history.size();
  }
  return t;
}

}  // namespace dpfl::cli
