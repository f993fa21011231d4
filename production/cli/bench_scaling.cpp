// dpfl bench rounds --scaling (docs/benchmarks.md "Scaling"): seconds per round of the
// seed-000/001 loop with 1 and W workers in one process, with 2 processes on localhost (this
// process is rank 0, a child `dpfl train` is the client host), and of the PyTorch FedAvg peer
// (scripts/fedavg_peer.py; same model, data and LDP-FL quantizer) at 1 and W threads — all in
// one run, so the ratios compare measurements taken under the same load.
#include "bench_scaling.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include "dpfl/error.hpp"
#include "dpfl/fl/trainer.hpp"
#include "train_bnn.hpp"
#include "train_command.hpp"

extern char** environ;

namespace dpfl::cli {
namespace {

namespace fs = std::filesystem;

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Starts argv[0] with stdout and stderr to the given files; returns the pid.
pid_t Spawn(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("bench rounds --scaling: cannot start '" + argv[0] + "': " + std::strerror(rc));
  return pid;
}

// Waits for `pid`; throws with the tail of its stderr unless it exited 0.
void Wait(pid_t pid, const std::string& what, const std::string& err_path) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  std::ifstream in(err_path);
  std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (err.size() > 400) err = err.substr(err.size() - 400);
  throw std::runtime_error("bench rounds --scaling: " + what + " failed (" +
                           (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status)) : std::string("signal")) +
                           "): " + err);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A TCP port nobody listens on now (the kernel's choice for port 0).
int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 29500;
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  if (fd >= 0) ::close(fd);
  return port;
}

struct Row {
  std::string name;
  std::size_t cores = 1;  // workers or threads it may use
  std::vector<double> seconds;
  double accuracy = 0;
};

}  // namespace

nlohmann::json RunScalingBench(const ScalingBenchOptions& o) {
  if (!fl::HaveTorchTrainer()) throw InvalidArgument("bench rounds", "this dpfl was built without LibTorch");
  if (o.workers < 2) throw InvalidArgument("--workers", "the scaling benchmark compares 1 worker with W >= 2");
  if (!o.peer.empty() && o.dataset != "fashion-mnist")
    throw InvalidArgument("--peer", "the PyTorch peer reads Fashion-MNIST: use --dataset fashion-mnist");
  const bool temp = o.out.empty();
  const fs::path root = temp ? fs::temp_directory_path() /
                                   ("dpfl-bench-scaling-" + std::to_string(::getpid()))
                             : fs::path(o.out);
  fs::create_directories(root);
  // The run's flags, as a config file would give them: the in-process runs parse them into
  // TrainArgs, the client host gets them on its command line — one list, so both sides build
  // the same configuration (RemoteFleet checks it at hello).
  const nlohmann::json flags = {{"dataset", o.dataset},       {"max-samples", o.max_samples},
                                {"synthetic-samples", o.synthetic_samples},
                                {"clients", o.clients},       {"rounds", o.rounds},
                                {"local-epochs", o.local_epochs}, {"lr", o.lr},
                                {"mechanism", "ldp-fl"},      {"eps-p", o.eps_p},
                                {"seed", 1},                  {"threads", 1}};
  TrainArgs a;
  ApplyConfigText(a, flags.dump(), "bench rounds --scaling", [](const std::string&) { return false; });
  a.quiet = true;
  a.no_plots = true;
  const LoadedData loaded = LoadData(a);
  const data::Split split = data::SplitTrainValidationTest(loaded.all, a.seed);

  std::vector<Row> rows;
  std::vector<std::string> weights;
  const auto dpfl_row = [&](const std::string& name, std::size_t cores, const fl::TrainResult& r) {
    Row row{name, cores, {}, r.final_test.accuracy};
    for (const auto& rec : r.history) row.seconds.push_back(rec.seconds);
    rows.push_back(row);
    weights.push_back(std::string(reinterpret_cast<const char*>(r.final_weights.data()),
                                  r.final_weights.size() * sizeof(float)));
    if (o.progress) std::cerr << "dpfl bench: " << name << ": median " << Median(row.seconds) << " s/round\n";
  };
  for (std::size_t w : {std::size_t{1}, o.workers}) {
    Execution ex;
    ex.workers = w;
    a.out = (root / ("workers-" + std::to_string(w))).string();
    dpfl_row("dpfl, " + std::to_string(w) + (w == 1 ? " worker" : " workers"), w, RunPldpRounds(a, split, ex));
  }
  {  // 2 processes: this process is the server (rank 0), a child dpfl the client host with W workers.
    const int port_number = o.port > 0 ? o.port : FreePort();
    const std::string port = std::to_string(port_number);
    std::vector<std::string> argv = {fs::read_symlink("/proc/self/exe").string(), "train"};
    for (const auto& [key, value] : flags.items()) {
      argv.push_back("--" + key);
      argv.push_back(value.is_string() ? value.get<std::string>() : value.dump());
    }
    const std::string host_dir = (root / "host").string();
    fs::create_directories(host_dir);
    for (const char* extra : {"--world-size", "2", "--rank", "1", "--master-port", port.c_str(), "--quiet",
                                     "--no-plots", "--out", host_dir.c_str()})
      argv.push_back(extra);
    argv.push_back("--workers");
    argv.push_back(std::to_string(o.workers));
    const pid_t host = Spawn(argv, host_dir + "/host.json", host_dir + "/host.err");
    Execution ex;
    ex.workers = 1;
    ex.process.world_size = 2;
    ex.process.rank = 0;
    ex.process.master_port = port_number;
    a.out = (root / "processes-2").string();
    fl::TrainResult r;
    try {
      r = RunPldpRounds(a, split, ex);
    } catch (...) {
      ::kill(host, SIGKILL);
      Wait(host, "the client host", host_dir + "/host.err");
      throw;
    }
    Wait(host, "the client host", host_dir + "/host.err");
    dpfl_row("dpfl, 2 processes (" + std::to_string(o.workers) + " workers on the host)", o.workers, r);
  }

  if (!o.peer.empty()) {
    struct Peer {
      std::string style;
      std::size_t threads;
    };
    for (const Peer& p : {Peer{"typical", 1}, Peer{"typical", o.workers}, Peer{"lean", 1}, Peer{"lean", o.workers}}) {
      const std::string tag = "peer-" + p.style + "-" + std::to_string(p.threads);
      const std::vector<std::string> argv = {o.python, o.peer, "--max-samples", std::to_string(o.max_samples),
                                             "--clients", std::to_string(o.clients), "--rounds", std::to_string(o.rounds),
                                             "--local-epochs", std::to_string(o.local_epochs), "--lr", nlohmann::json(o.lr).dump(),
                                             "--eps-p", nlohmann::json(o.eps_p).dump(), "--threads", std::to_string(p.threads),
                                             "--style", p.style};
      const std::string out = (root / (tag + ".json")).string(), err = (root / (tag + ".err")).string();
      Wait(Spawn(argv, out, err), "the PyTorch peer (" + tag + ")", err);
      const nlohmann::json j = nlohmann::json::parse(ReadFile(out));
      Row row{"PyTorch peer (" + p.style + "), " + std::to_string(p.threads) + (p.threads == 1 ? " thread" : " threads"),
              p.threads, j.at("round_seconds").get<std::vector<double>>(), j.at("test_accuracy").back().get<double>()};
      rows.push_back(row);
      if (o.progress) std::cerr << "dpfl bench: " << row.name << ": median " << Median(row.seconds) << " s/round\n";
    }
  }

  {  // 1 worker again at the end: the load of a shared machine drifts; the 1-core baseline is the
     // mean of the two medians that bracket every other row.
    Execution ex;
    ex.workers = 1;
    a.out = (root / "workers-1-again").string();
    dpfl_row("dpfl, 1 worker (again, last)", 1, RunPldpRounds(a, split, ex));
  }
  const bool identical = std::all_of(weights.begin(), weights.end(), [&](const std::string& w) { return w == weights[0]; });
  const double w1 = 0.5 * (Median(rows[0].seconds) + Median(rows.back().seconds)), wn = Median(rows[1].seconds),
               p2 = Median(rows[2].seconds);
  nlohmann::json out = {{"dataset", o.dataset}, {"samples", loaded.all.size()}, {"clients", o.clients},
                        {"rounds", o.rounds}, {"local_epochs", o.local_epochs}, {"mechanism", "ldp-fl"},
                        {"eps_p", o.eps_p}, {"lr", o.lr}, {"workers", o.workers}, {"hardware_threads", std::thread::hardware_concurrency()},
                        {"dpfl_final_weights_identical", identical}, {"rows", nlohmann::json::array()}};
  for (const Row& r : rows)
    out["rows"].push_back({{"name", r.name}, {"cores", r.cores}, {"round_seconds", r.seconds},
                           {"median_round_seconds", Median(r.seconds)}, {"final_test_accuracy", r.accuracy}});
  out["one_worker_median_seconds_first_last"] = {Median(rows[0].seconds), Median(rows.back().seconds)};
  out["speedup_workers"] = wn > 0 ? w1 / wn : 0.0;
  out["speedup_processes"] = p2 > 0 ? w1 / p2 : 0.0;
  if (rows.size() >= 8) {
    // Same cores: the peer at 1 thread against 1 worker, at W threads against W workers.
    out["peer_typical_over_dpfl_1_core"] = Median(rows[3].seconds) / w1;
    out["peer_typical_over_dpfl_w_cores"] = Median(rows[4].seconds) / wn;
    out["peer_lean_over_dpfl_1_core"] = Median(rows[5].seconds) / w1;
    out["peer_lean_over_dpfl_w_cores"] = Median(rows[6].seconds) / wn;
  }
  std::ostringstream table;
  table << std::left << std::setw(48) << "contender" << std::right << std::setw(8) << "cores" << std::setw(16)
        << "median s/round" << std::setw(12) << "vs dpfl" << std::setw(12) << "test acc" << "\n";
  for (const Row& r : rows) {
    const double base = r.cores == 1 ? w1 : wn;
    table << std::left << std::setw(48) << r.name << std::right << std::setw(8) << r.cores << std::fixed
          << std::setprecision(3) << std::setw(16) << Median(r.seconds) << std::setw(11) << Median(r.seconds) / base
          << "x" << std::setprecision(4) << std::setw(12) << r.accuracy << "\n";
  }
  table << "speedup 1 -> " << o.workers << " workers: " << std::setprecision(2) << out["speedup_workers"].get<double>()
        << "x; 1 worker -> 2 processes: " << out["speedup_processes"].get<double>() << "x; dpfl weights identical: "
        << (identical ? "yes" : "NO") << "\n";
  if (!o.json) std::cerr << table.str();
  if (temp) {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  return out;
}

}  // namespace dpfl::cli
