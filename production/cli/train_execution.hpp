// How `dpfl train` runs (docs/scaling.md): parallel client trainers in one process (--workers W,
// --threads T per worker) and multi-process runs on LibTorch c10d / Gloo (--world-size N --rank R
// --master-addr HOST --master-port P, or torchrun's WORLD_SIZE, RANK, MASTER_ADDR, MASTER_PORT;
// flags win over the environment). None of it changes what is sent: the final weights and every
// transcript hash are the same for every W and N.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "dpfl/data/datasets.hpp"
#include "dpfl/fl/gloo_channel.hpp"
#include "dpfl/fl/training.hpp"
#include "dpfl/fl/trainer.hpp"
#include "train_config.hpp"

namespace dpfl::cli {

struct Execution {
  std::size_t workers = 1;          // client trainers in this process
  fl::DistributedOptions process;   // world_size 1: one process
  bool IsHost() const { return process.world_size > 1 && process.rank > 0; }
};

// Registers --workers, --world-size, --rank, --master-addr, --master-port, --rendezvous-timeout
// and --round-timeout on `app`.
void AddExecutionFlags(CLI::App& app, TrainArgs& a);
// The execution of `a`: flags, else the environment, else one process with one worker per core.
// InvalidArgument naming the flag or variable for a bad value (a non-integer WORLD_SIZE, a rank
// outside 0..N−1, --workers < 0, a timeout ≤ 0).
Execution ResolveExecution(const TrainArgs& a);

// `count` LocalTrainer replicas of the model (one per worker) and their pointers; the first also
// evaluates.
struct Replicas {
  std::vector<std::unique_ptr<fl::LocalTrainer>> owned;
  std::vector<fl::LocalTrainer*> workers;
};
Replicas MakeReplicas(const fl::TrainerOptions& options, const data::Dataset& train, std::size_t count);

// DPFL_FAULT_KILL_HOST_AT_ROUND=R (tests, docs/scaling.md "Faults"): a client host's hook that
// SIGKILLs the process when round R (1-based) arrives; empty when the variable is unset.
std::function<void(std::uint32_t)> FaultInjection(const Execution& ex);
// A client host's summary on stdout (rank 0 writes the run's outputs).
nlohmann::json HostJson(const fl::HostSummary& h, const Execution& ex);
// Upload traffic per client and round of a finished run (rank 0's summary "traffic").
nlohmann::json TrafficJson(const fl::TrainResult& r, std::size_t m);

}  // namespace dpfl::cli
