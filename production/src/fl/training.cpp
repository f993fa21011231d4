// See dpfl/fl/training.hpp.
#include "dpfl/fl/training.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <numeric>
#include <span>
#include <string_view>
#include <algorithm>
#include <sstream>

#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/client_host.hpp"
#include "dpfl/fl/protocol.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/fl/worker_pool.hpp"
#include "sha256_writer.hpp"

namespace dpfl::fl {
namespace {

namespace fs = std::filesystem;
constexpr char kMagic[8] = {'D', 'P', 'F', 'L', 'C', 'K', 'P', '1'};

std::string Str(double x) { return ShortestDouble(x); }

// The configuration fields that determine the weights (a resumed run must match them).
nlohmann::json Fingerprint(const TrainConfig& c, std::size_t m) {
  return {{"mechanism", MechanismName(c.mechanism.kind)}, {"eps_p", c.mechanism.eps_p}, {"d", c.mechanism.d},
          {"gamma", c.mechanism.gamma}, {"delta", c.mechanism.delta}, {"dropout", c.mechanism.dropout},
          {"generator", static_cast<int>(c.mechanism.generator)}, {"clients", c.clients}, {"rounds", c.rounds},
          {"lambda", c.lambda}, {"seed", c.seed}, {"local_epochs", c.local_epochs}, {"local_steps", c.local_steps},
          {"batch", c.batch}, {"patience", c.patience}, {"radius_scale", c.radius_scale}, {"split", c.split},
          {"dirichlet_beta", c.dirichlet_beta}, {"keys", c.keys}, {"parameters", m}};
}

}  // namespace

std::string TranscriptStart(const TrainConfig& config, std::size_t m) {
  internal::Sha256Writer h;
  h.Label("dpfl-transcript-v1");
  h.Label(Fingerprint(config, m).dump());
  h.Label(config.transcript_context);
  return h.Hex();
}

namespace {

nlohmann::json RecordToJson(const RoundRecord& r) {
  return {{"round", r.round}, {"train_loss", r.train_loss}, {"val_loss", r.val_loss}, {"val_accuracy", r.val_accuracy},
          {"test_loss", r.test_loss}, {"test_accuracy", r.test_accuracy}, {"reloaded_best", r.reloaded_best},
          {"survivors", r.survivors}, {"pairs", r.pairs}, {"solo", r.solo}, {"idle", r.idle}, {"uplink_bits", r.uplink_bits},
          {"seconds", r.seconds}, {"mechanism_seconds", r.mechanism_seconds}, {"c", r.c}, {"r", r.r},
          {"wire_message_bytes", r.wire_message_bytes}, {"wire_broadcast_bytes", r.wire_broadcast_bytes},
          {"transcript", r.transcript},
          {"monitor", {{"applicable", r.monitor.applicable}, {"passed", r.monitor.passed}, {"test", r.monitor.test},
                       {"statistic", r.monitor.statistic}, {"critical", r.monitor.critical},
                       {"alpha", r.monitor.alpha}, {"samples", r.monitor.samples}}}};
}

RoundRecord RecordFromJson(const nlohmann::json& j) {
  RoundRecord r;
  r.round = j.at("round");
  r.train_loss = j.at("train_loss");
  r.val_loss = j.at("val_loss");
  r.val_accuracy = j.at("val_accuracy");
  r.test_loss = j.at("test_loss");
  r.test_accuracy = j.at("test_accuracy");
  r.reloaded_best = j.at("reloaded_best");
  r.survivors = j.at("survivors");
  r.pairs = j.at("pairs");
  r.solo = j.at("solo");
  r.idle = j.value("idle", 0u);
  r.uplink_bits = j.at("uplink_bits");
  r.seconds = j.at("seconds");
  r.mechanism_seconds = j.value("mechanism_seconds", 0.0);
  r.wire_message_bytes = j.value("wire_message_bytes", std::uint64_t{0});
  r.wire_broadcast_bytes = j.value("wire_broadcast_bytes", std::uint64_t{0});
  r.transcript = j.at("transcript").get<std::string>();
  r.c = j.at("c").get<std::vector<double>>();
  r.r = j.at("r").get<std::vector<double>>();
  const auto& m = j.at("monitor");
  r.monitor.applicable = m.at("applicable");
  r.monitor.passed = m.at("passed");
  r.monitor.test = m.at("test");
  r.monitor.statistic = m.at("statistic");
  r.monitor.critical = m.at("critical");
  r.monitor.alpha = m.at("alpha");
  r.monitor.samples = m.at("samples");
  return r;
}

struct State {
  std::uint32_t next_round = 0;
  std::vector<float> global, best;
  double best_val = -1;
  int since_best = 0;
  std::vector<RoundRecord> history;
};

void WriteAtomic(const fs::path& path, const std::string& bytes) {
  const fs::path tmp = path.string() + ".tmp";
  // Failures are filesystem_errors carrying errno, so the CLI reports them as one line (exit 2).
  const auto fail = [&tmp](const char* what) {
    throw fs::filesystem_error(what, tmp, std::error_code(errno, std::generic_category()));
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) fail("cannot create file");
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t k = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (k < 0) {
      const int err = errno;
      ::close(fd);
      errno = err;
      fail("cannot write file");
    }
    done += static_cast<std::size_t>(k);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    errno = err;
    fail("cannot sync file");
  }
  if (::close(fd) != 0) fail("cannot close file");
  fs::rename(tmp, path);
}

std::string FloatsToBytes(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

void SaveCheckpoint(const fs::path& path, const nlohmann::json& fingerprint, const State& s) {
  nlohmann::json meta = {{"fingerprint", fingerprint}, {"next_round", s.next_round}, {"best_val", s.best_val},
                         {"since_best", s.since_best}, {"history", nlohmann::json::array()}};
  for (const auto& r : s.history) meta["history"].push_back(RecordToJson(r));
  const std::string text = meta.dump();
  std::string bytes(kMagic, sizeof kMagic);
  const std::uint64_t len = text.size(), m = s.global.size();
  bytes.append(reinterpret_cast<const char*>(&len), 8);
  bytes += text;
  bytes.append(reinterpret_cast<const char*>(&m), 8);
  bytes += FloatsToBytes(s.global);
  bytes += FloatsToBytes(s.best);
  WriteAtomic(path, bytes);
}

State LoadCheckpoint(const fs::path& path, const nlohmann::json& fingerprint) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument("--resume", "no checkpoint '" + path.string() + "' to resume from");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](std::size_t at, const std::string& what) {
    throw InvalidArgument("--resume", what + " at byte offset " + std::to_string(at) + " of '" + path.string() + "'");
  };
  if (bytes.size() < 16 || std::memcmp(bytes.data(), kMagic, 8) != 0) bad(0, "not a dpfl checkpoint");
  std::uint64_t len = 0, m = 0;
  std::memcpy(&len, bytes.data() + 8, 8);
  if (bytes.size() < 24 + len) bad(16, "truncated checkpoint metadata");
  nlohmann::json meta;
  try {
    meta = nlohmann::json::parse(bytes.substr(16, len));
  } catch (const std::exception&) {
    bad(16, "corrupt checkpoint metadata");
  }
  std::memcpy(&m, bytes.data() + 16 + len, 8);
  const std::size_t need = 24 + len + 2 * m * sizeof(float);
  if (bytes.size() != need) bad(24 + len, "checkpoint size " + std::to_string(bytes.size()) + " != expected " + std::to_string(need));
  if (meta.at("fingerprint") != fingerprint)
    throw InvalidArgument("--resume", "checkpoint '" + path.string() + "' was written with a different configuration: " +
                                          meta.at("fingerprint").dump() + " vs " + fingerprint.dump());
  State s;
  s.next_round = meta.at("next_round");
  s.best_val = meta.at("best_val");
  s.since_best = meta.at("since_best");
  for (const auto& r : meta.at("history")) s.history.push_back(RecordFromJson(r));
  s.global.resize(m);
  s.best.resize(m);
  std::memcpy(s.global.data(), bytes.data() + 24 + len, m * sizeof(float));
  std::memcpy(s.best.data(), bytes.data() + 24 + len + m * sizeof(float), m * sizeof(float));
  return s;
}

void WriteMetrics(const fs::path& path, const std::vector<RoundRecord>& history) {
  std::ostringstream o;
  o << "round,train_loss,val_loss,val_accuracy,test_loss,test_accuracy,survivors,pairs,solo,uplink_bits,reloaded_best,"
       "monitor_passed,seconds,mechanism_seconds,idle_clients,wire_message_bytes,wire_broadcast_bytes\n";
  o << std::setprecision(9);
  for (const auto& r : history)
    o << r.round + 1 << ',' << r.train_loss << ',' << r.val_loss << ',' << r.val_accuracy << ',' << r.test_loss << ','
      << r.test_accuracy << ',' << r.survivors << ',' << r.pairs << ',' << r.solo << ',' << r.uplink_bits << ','
      << (r.reloaded_best ? 1 : 0) << ',' << (r.monitor.applicable ? (r.monitor.passed ? "1" : "0") : "na") << ','
      << r.seconds << ',' << r.mechanism_seconds << ',' << r.idle << ',' << r.wire_message_bytes << ','
      << r.wire_broadcast_bytes << '\n';
  WriteAtomic(path, o.str());
}

// The server's evaluation of a fixed set (validation or test), in fixed chunks of 1,000
// samples spread over the idle replicas and combined in chunk order: the numbers do not depend
// on how many replicas there are (--workers), only on the chunking.
class ChunkedEvaluation {
 public:
  explicit ChunkedEvaluation(const data::Dataset& d) : n_(d.size()) {
    for (std::size_t start = 0; start < d.size(); start += kChunk) {
      std::vector<std::size_t> idx;
      for (std::size_t i = start; i < std::min(d.size(), start + kChunk); ++i) idx.push_back(i);
      chunks_.push_back(d.Subset(idx));
    }
  }
  Evaluation Run(const std::vector<LocalTrainer*>& replicas, const std::vector<float>& w) const {
    Evaluation e;
    if (n_ == 0) return e;
    std::vector<Evaluation> parts(chunks_.size());
    ForEachItem(replicas.size(), chunks_.size(),
                [&](std::size_t worker, std::size_t k) { parts[k] = replicas[worker]->Evaluate(w, chunks_[k]); });
    double loss_sum = 0;
    std::uint64_t correct = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const auto n = static_cast<double>(chunks_[k].size());
      loss_sum += parts[k].loss * n;
      correct += static_cast<std::uint64_t>(std::llround(parts[k].accuracy * n));  // an exact count
    }
    e.loss = loss_sum / static_cast<double>(n_);
    e.accuracy = static_cast<double>(correct) / static_cast<double>(n_);
    return e;
  }

 private:
  static constexpr std::size_t kChunk = 1000;
  std::size_t n_;
  std::vector<data::Dataset> chunks_;
};

}  // namespace

void ValidateTrainConfig(const TrainConfig& c) {
  ValidateMechanism(c.mechanism, c.clients);
  if (c.rounds == 0) throw InvalidArgument("--rounds", "must be >= 1");
  if (!(c.lambda > 0 && c.lambda <= 1)) throw InvalidArgument("--lambda", "must be in (0, 1], got " + Str(c.lambda));
  if (c.local_epochs < 1) throw InvalidArgument("--local-epochs", "must be >= 1");
  if (c.local_steps < 0) throw InvalidArgument("--local-steps", "must be >= 0");
  if (c.batch < 1) throw InvalidArgument("--batch", "must be >= 1");
  if (c.patience < 1) throw InvalidArgument("--patience", "must be >= 1");
  if (!(c.radius_scale >= 1) || !std::isfinite(c.radius_scale))
    throw InvalidArgument("--radius-scale", "must be finite and >= 1, got " + Str(c.radius_scale));
  if (c.split != "iid" && c.split != "dirichlet") throw InvalidArgument("--split", "must be iid or dirichlet, got '" + c.split + "'");
  if (c.split == "dirichlet" && (!(c.dirichlet_beta > 0) || !std::isfinite(c.dirichlet_beta)))
    throw InvalidArgument("--beta", "must be finite and > 0");
  if (c.out_dir.empty()) throw InvalidArgument("--out", "an output directory is required");
  if (c.keys != "simulated" && c.keys != "random")
    throw InvalidArgument("--keys", "must be simulated or random, got '" + c.keys + "'");
  if (c.keys == "random" && c.resume)
    throw InvalidArgument("--resume", "a run with --keys random cannot be resumed: its keys were never stored");
}

TrainResult RunTraining(const TrainConfig& config, const data::Split& split, LocalTrainer& trainer,
                        const TrainHooks& hooks) {
  ValidateTrainConfig(config);
  LocalFleet fleet(config, split.train, {&trainer});
  return RunTraining(config, split, fleet, trainer, hooks);
}

TrainResult RunTraining(const TrainConfig& config, const data::Split& split, ClientFleet& fleet, LocalTrainer& trainer,
                        const TrainHooks& hooks) {
  ValidateTrainConfig(config);
  const fs::path dir(config.out_dir);
  fs::create_directories(dir);
  TrainResult result;
  result.layer_sizes = trainer.LayerSizes();
  const std::size_t m = std::accumulate(result.layer_sizes.begin(), result.layer_sizes.end(), std::size_t{0});
  const nlohmann::json fingerprint = Fingerprint(config, m);
  result.checkpoint_path = (dir / "checkpoint.bin").string();
  result.metrics_path = (dir / "metrics.csv").string();
  result.transcript_start = TranscriptStart(config, m);
  result.weights_path = (dir / "final_weights.bin").string();
  result.fleet = fleet.Describe();
  // The server holds no client key, shard or weight: the clients (their shards, key pairs and
  // the identity directory they trust) live in the fleet (client_host.hpp).
  const rng::StreamKey cq_key = DeriveKey(config.seed, "cq");
  std::vector<LocalTrainer*> evaluators = fleet.LocalReplicas();
  if (evaluators.empty()) evaluators = {&trainer};
  const ChunkedEvaluation validation(split.validation), test_set(split.test);

  State state;
  if (config.resume && fs::exists(result.checkpoint_path)) {
    state = LoadCheckpoint(result.checkpoint_path, fingerprint);
  } else if (config.resume) {
    throw InvalidArgument("--resume", "no checkpoint '" + result.checkpoint_path + "' to resume from");
  } else {
    state.global = trainer.InitialWeights();
    state.best = state.global;
  }
  if (state.global.size() != m) throw std::runtime_error("model size mismatch");

  const auto start = std::chrono::steady_clock::now();
  const std::uint32_t first_round = state.next_round;
  // TrainHooks::progress after each client of round t, and once at the end (finished).
  const auto report_progress = [&](std::uint32_t t, std::uint32_t clients_done, bool finished) {
    if (!hooks.progress) return;
    TrainProgress p;
    p.mechanism = MechanismName(config.mechanism.kind);
    p.round = t;
    p.rounds = config.rounds;
    p.first_round = first_round;
    p.clients_done = clients_done;
    p.clients = config.clients;
    p.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!state.history.empty()) p.last_val_accuracy = state.history.back().val_accuracy;
    p.finished = finished;
    hooks.progress(p);
  };
  for (std::uint32_t t = state.next_round; t < config.rounds; ++t) {
    const auto round_start = std::chrono::steady_clock::now();
    RoundRecord rec;
    rec.round = t;
    const std::vector<LayerRange> ranges = RangesFromWeights(state.global, result.layer_sizes, config.radius_scale);
    for (const auto& range : ranges) {
      rec.c.push_back(range.c);
      rec.r.push_back(range.r);
    }
    // Accumulates the directly timed mechanism work of this round (RoundRecord::mechanism_seconds).
    const auto timed = [&rec](auto&& fn) {
      const auto t0 = std::chrono::steady_clock::now();
      fn();
      rec.mechanism_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    // Announcements (the clients' signed X25519 keys) are the clients' work; the pairing and
    // dropout draw the server's.
    const std::vector<KeyAnnouncement> announcements = fleet.Announcements(t);
    RoundInput input;
    input.round = t;
    input.c = rec.c;
    input.r = rec.r;
    input.global = state.global;
    timed([&] { input.view = BeginRound(config.mechanism, config.clients, t, config.seed, announcements); });
    ServerView& view = input.view;
    std::uint32_t clients_done = 0;
    const std::vector<ClientOutput> outputs =
        fleet.RunRound(input, [&] { report_progress(t, ++clients_done, false); });
    const ClientFleet::Traffic traffic = fleet.LastTraffic();
    rec.wire_message_bytes = traffic.message_bytes;
    rec.wire_broadcast_bytes = traffic.broadcast_bytes;
    std::vector<MonitorSample> monitor_samples;
    std::vector<std::vector<float>> cq_rows;
    std::vector<std::uint32_t> cq_clients;
    double loss_sum = 0;
    std::uint32_t trained = 0;
    for (const ClientOutput& out : outputs) {
      if (out.idle) {
        ++rec.idle;
      } else {
        loss_sum += out.loss;
        ++trained;
      }
      rec.mechanism_seconds += out.encode_seconds;
      if (config.mechanism.kind == MechanismKind::kCq) {
        cq_rows.push_back(out.weights);
        cq_clients.push_back(out.client);
      } else {
        view.messages.push_back(out.message);
        monitor_samples.insert(monitor_samples.end(), out.monitor.begin(), out.monitor.end());
      }
    }
    if (config.mechanism.kind != MechanismKind::kCq) rec.solo = CountSolo(view);
    if (config.mechanism.kind == MechanismKind::kCq && !cq_rows.empty())
      timed([&] { view.messages = EncodeCqClients(config.mechanism, cq_rows, cq_clients, ranges, cq_key, t); });
    rec.survivors = static_cast<std::uint32_t>(view.messages.size());
    rec.pairs = (rec.survivors - rec.solo) / 2;
    for (const auto& msg : view.messages) rec.uplink_bits += msg.UplinkBits();
    if (hooks.monitor) {
      timed([&] { rec.monitor = hooks.monitor(config.mechanism, t, monitor_samples); });
      if (!rec.monitor.passed)
        throw MonitorFailure("runtime monitor rejected round " + std::to_string(t + 1) + ": " + rec.monitor.test +
                             " statistic " + Str(rec.monitor.statistic) + " > critical " + Str(rec.monitor.critical) +
                             " (alpha " + Str(rec.monitor.alpha) + "); the run is stopped and no certificate is written");
    }
    if (view.messages.empty()) {
      rec.survivors = 0;  // every client dropped out: the global model stays
    } else {
      std::vector<float> w_final;
      timed([&] { w_final = ServerAggregate(config.mechanism, view, ranges, m); });
      const auto lambda = static_cast<float>(config.lambda);
      for (std::size_t j = 0; j < m; ++j) state.global[j] = (1.0f - lambda) * state.global[j] + lambda * w_final[j];
    }
    rec.train_loss = trained ? loss_sum / trained : 0.0;
    const Evaluation val = validation.Run(evaluators, state.global);
    rec.val_loss = val.loss;
    rec.val_accuracy = val.accuracy;
    if (val.accuracy > state.best_val) {
      state.best_val = val.accuracy;
      state.best = state.global;
      state.since_best = 0;
    } else if (++state.since_best >= config.patience) {
      state.global = state.best;  // seed-000 §5: reload with patience
      state.since_best = 0;
      rec.reloaded_best = true;
    }
    rec.transcript = TranscriptRound(state.history.empty() ? result.transcript_start : state.history.back().transcript, t,
                                     ranges, view.messages, state.global);
    const Evaluation test = test_set.Run(evaluators, state.global);
    rec.test_loss = test.loss;
    rec.test_accuracy = test.accuracy;
    rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - round_start).count();
    state.history.push_back(rec);
    state.next_round = t + 1;
    SaveCheckpoint(result.checkpoint_path, fingerprint, state);
    WriteMetrics(result.metrics_path, state.history);
  }
  fleet.Finish();
  report_progress(config.rounds, config.clients, true);
  WriteMetrics(result.metrics_path, state.history);
  WriteAtomic(result.weights_path, FloatsToBytes(state.global));
  result.final_weights = state.global;
  result.final_test = test_set.Run(evaluators, state.global);
  result.history = state.history;
  return result;
}

void WriteFileAtomic(const std::string& path, const std::string& bytes) { WriteAtomic(path, bytes); }

TrainProgress MakeProgress(const std::string& mechanism, std::uint32_t round, std::uint32_t rounds,
                           std::uint32_t clients_done, std::uint32_t clients, double elapsed_seconds,
                           std::optional<double> last_accuracy, bool finished) {
  TrainProgress p;
  p.mechanism = mechanism;
  p.round = round;
  p.rounds = rounds;
  p.clients_done = clients_done;
  p.clients = clients;
  p.elapsed_seconds = elapsed_seconds;
  p.last_val_accuracy = last_accuracy;
  p.finished = finished;
  return p;
}

}  // namespace dpfl::fl
