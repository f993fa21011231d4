// The options of `dpfl train` and its `--config FILE.json` (a parser of
// untrusted bytes, fuzzed by fuzz/fuzz_train_config.cc).
//
// A config file is one JSON object whose keys are the long flag names without "--"
// ("eps-p", "clients", ...). Every key must be known and every value must have the flag's type:
// strings for text flags, JSON numbers for numeric ones; integers must be integral and inside
// the flag's range (a negative or fractional --clients is rejected, never wrapped or truncated).
// Flags given on the command line win over the file.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>

namespace dpfl::cli {

struct TrainArgs {
  std::string dataset = "fashion-mnist", mechanism = "corbin-fl", data_dir, config_file, out, split = "iid";
  std::string model = "auto", optimizer = "sgd", generator = "chacha20";
  std::string keys = "simulated", signing_key;
  std::string target_mode = "calibrate";  // with target_epsilon > 0: calibrate eps_p, or stop early
  double target_epsilon = 0;              // 0: no target (docs/training.md "Target epsilon")
  double eps_p = 1.0, gamma = 0.2, dropout = 0.0, lambda = 1.0, delta = 1e-5, delta_u = 1e-5, lr = 0.05, momentum = 0.0;
  double beta = 0.5, radius_scale = 1.25;
  int d = 5, local_epochs = 1, local_steps = 0, batch = 64, patience = 5, threads = 1;
  std::uint32_t clients = 10, rounds = 10;
  std::uint64_t seed = 1;
  std::uint64_t max_samples = 0, synthetic_samples = 3000, monitor_samples = 64;
  bool resume = false, lambda_grid = false, quiet = false, no_plots = false;
  // DPFL-BNN (seed 004; --mechanism dpfl-bnn only): RR bias (NaN = absent: no RR, the baseline),
  // binarizer, mixing weight β, Adam β1, lr schedule ("none" or "step:S:F"), clients evaluated
  // per round (0 = all), test samples they are evaluated on (0 = all).
  double rr_gamma = std::numeric_limits<double>::quiet_NaN(), mix_beta = 0.3, adam_beta1 = 0.9;
  std::string binarizer = "stosign", lr_schedule = "none";
  std::uint32_t eval_clients = 0;
  std::uint64_t eval_samples = 0;  // first N test samples for the per-client evaluation (0: all)
  // Seed 002 (cepam-gaussian, cepam-laplace, fl, fl-sdq, fl-gaussian[-sdq], fl-laplace[-sdq]): lattice
  // dimension, update clipping γ, noise σ or b, SDQ step, per-round target ε (NaN = absent).
  int lattice_dim = 1;
  double clip = 1.0;
  double sigma = std::numeric_limits<double>::quiet_NaN(), b = std::numeric_limits<double>::quiet_NaN();
  double sdq_step = std::numeric_limits<double>::quiet_NaN(), eps = std::numeric_limits<double>::quiet_NaN();
  std::string calibration = "printed";  // the guarantee row --eps calibrates: printed | corrected | server
  // Seed 003 (qgauss, qgauss-gaussian, qgauss-vanilla): quantizer levels k, client sampling
  // ("full" or "poisson:q"); --sigma, --clip (C_q) and --delta are shared with seed 002.
  std::uint32_t levels = 16;
  std::string client_sampling = "full";
  // Execution (docs/scaling.md; not part of what is sent, so not bound into the transcript):
  // parallel client trainers per process (0: one per core), and the process group of a
  // multi-process run — world size, rank, rank 0's address and port (-1 / "": not given on
  // the command line, so WORLD_SIZE, RANK, MASTER_ADDR, MASTER_PORT or the single-process
  // default), rendezvous and per-frame timeouts in seconds. Only --workers may come from a file.
  int workers = 0;
  int world_size = -1, rank = -1, master_port = -1;
  std::string master_addr;
  double rendezvous_timeout = 300, round_timeout = 3600;
  bool delta_given = false;  // not a flag: whether --delta was given (a seed-002 target), set by the CLI
};

// Applies the JSON object in `text` to `args`, skipping keys for which `on_command_line(key)`
// is true. Throws InvalidArgument("--config", ...) naming `source` and the offending key for
// text that is not a JSON object, an unknown key, or a value of the wrong type or range.
void ApplyConfigText(TrainArgs& args, std::string_view text, const std::string& source,
                     const std::function<bool(const std::string& key)>& on_command_line);

}  // namespace dpfl::cli
