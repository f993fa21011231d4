// Where the clients of the seed-000/001 loop run (client_host.hpp, remote_fleet.hpp,
// round_wire.hpp, worker_pool.hpp), without LibTorch (so also under ASan+UBSan):
//  * the worker pool runs every item once and reports the lowest failed item's error;
//  * every wire frame round-trips, and every truncation, oversized count, trailing byte and
//    wrong kind is a WireError (never a crash or an over-allocation);
//  * the round loop gives the same final weights and transcript hashes with the clients in this
//    process (W = 1, 2, 3 workers) and on 1, 2 or 3 client hosts behind an in-memory Channel,
//    for pairs (corbin-fl), solo clients (ldp-fl), real-valued messages with dropout (gaussian)
//    and the CQ baseline's rows;
//  * a host that dies mid-round makes the round fail closed naming its rank, and a resume from
//    the checkpoint ends with the uninterrupted run's weights; a host with another
//    configuration or other data is refused at hello.
// The trainer is a small deterministic stand-in (no LibTorch), which is all the wiring needs:
// the e2e test (tests/e2e/scale_e2e_test.cpp) runs the real models across real processes.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "dpfl/data/datasets.hpp"
#include "dpfl/error.hpp"
#include "dpfl/fl/client_host.hpp"
#include "dpfl/fl/remote_fleet.hpp"
#include "dpfl/fl/round_wire.hpp"
#include "dpfl/fl/training.hpp"
#include "dpfl/fl/worker_pool.hpp"

namespace dpfl::fl {
namespace {

namespace fs = std::filesystem;

// ---- worker pool ----

TEST(WorkerPool, RunsEveryItemExactlyOnceOnAtMostWWorkers) {
  for (std::size_t workers : {1u, 2u, 3u, 8u}) {
    std::vector<std::atomic<int>> seen(37);
    std::set<std::size_t> slots;
    std::mutex m;
    ForEachItem(workers, seen.size(), [&](std::size_t worker, std::size_t item) {
      ++seen[item];
      const std::lock_guard<std::mutex> lock(m);
      slots.insert(worker);
    });
    for (const auto& s : seen) EXPECT_EQ(s.load(), 1);
    EXPECT_LE(slots.size(), workers);
    EXPECT_LT(*slots.rbegin(), workers);
  }
  ForEachItem(2, 0, [](std::size_t, std::size_t) { FAIL() << "no item"; });
  EXPECT_THROW(ForEachItem(0, 3, [](std::size_t, std::size_t) {}), InvalidArgument);
}

TEST(WorkerPool, RethrowsTheLowestFailedItem) {
  for (std::size_t workers : {1u, 3u}) {
    try {
      ForEachItem(workers, 20, [](std::size_t, std::size_t item) {
        if (item == 4 || item == 9) throw std::runtime_error("item " + std::to_string(item));
      });
      FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "item 4");
    }
  }
}

// ---- wire ----

RoundInput SampleRound() {
  RoundInput in;
  in.round = 3;
  in.c = {0.5, -0.25};
  in.r = {1.5, 0.125};
  in.global = {1.0f, -2.0f, 0.5f};
  in.view.round = 3;
  for (int k = 0; k < 4; ++k) {
    KeyAnnouncement a;
    for (std::size_t b = 0; b < a.public_key.size(); ++b) a.public_key[b] = static_cast<std::uint8_t>(k * 7 + b);
    for (std::size_t b = 0; b < a.signature.size(); ++b) a.signature[b] = static_cast<std::uint8_t>(k * 3 + b);
    in.view.announcements.push_back(a);
  }
  in.view.pairing.pairs = {{0, 2}};
  in.view.pairing.solo = {1, 3};
  in.view.present = {true, false, true, true};
  return in;
}

std::vector<ClientOutput> SampleOutputs() {
  ClientOutput a;
  a.client = 2;
  a.loss = 0.75;
  a.message.client = 2;
  a.message.bits = {0xdeadbeefULL, 7};
  a.monitor.push_back({0.5, 0.0, 1.0, true, 0.0, 0.0});
  ClientOutput b;
  b.client = 3;
  b.idle = true;
  b.message.client = 3;
  b.message.values = {1.5f, -0.5f};
  b.weights = {9.0f};
  return {a, b};
}

TEST(RoundWire, EveryFrameRoundTrips) {
  wire::Hello h;
  h.rank = 2;
  h.world_size = 3;
  h.transcript_start = "ab12";
  h.data_sha256 = "ff";
  h.clients = {4, 5, 6};
  h.workers = 2;
  const wire::Hello h2 = wire::DecodeHello(wire::EncodeHello(h));
  EXPECT_EQ(h2.rank, 2u);
  EXPECT_EQ(h2.world_size, 3u);
  EXPECT_EQ(h2.transcript_start, "ab12");
  EXPECT_EQ(h2.data_sha256, "ff");
  EXPECT_EQ(h2.clients, h.clients);
  EXPECT_EQ(h2.workers, 2u);
  EXPECT_EQ(wire::DecodeBegin(wire::EncodeBegin(41)), 41u);

  const RoundInput in = SampleRound();
  const RoundInput back = wire::DecodeRound(wire::EncodeRound(in));
  EXPECT_EQ(back.round, in.round);
  EXPECT_EQ(back.c, in.c);
  EXPECT_EQ(back.r, in.r);
  EXPECT_EQ(back.global, in.global);
  EXPECT_EQ(SerializeView(back.view), SerializeView(in.view));

  std::vector<std::pair<std::uint32_t, KeyAnnouncement>> keys = {{1, in.view.announcements[1]}, {3, in.view.announcements[3]}};
  const auto [t, keys2] = wire::DecodeAnnounce(wire::EncodeAnnounce(5, keys));
  EXPECT_EQ(t, 5u);
  ASSERT_EQ(keys2.size(), 2u);
  EXPECT_EQ(keys2[1].first, 3u);
  EXPECT_EQ(keys2[1].second.signature, keys[1].second.signature);

  std::uint64_t sent = 0, received = 0;
  const std::string frame = wire::EncodeOutputs(3, SampleOutputs(), &sent);
  const auto [round, outs] = wire::DecodeOutputs(frame, &received);
  EXPECT_EQ(round, 3u);
  EXPECT_EQ(sent, received);
  // Uplink bytes: per client its id (4), three u64 counts (24) and the payload.
  EXPECT_EQ(sent, (4 + 24 + 2 * 8) + (4 + 24 + 2 * 4 + 1 * 4));
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_EQ(outs[0].message.bits, SampleOutputs()[0].message.bits);
  EXPECT_EQ(outs[0].message.client, 2u);
  EXPECT_TRUE(outs[0].monitor[0].plus);
  EXPECT_TRUE(outs[1].idle);
  EXPECT_EQ(outs[1].message.values, SampleOutputs()[1].message.values);
  EXPECT_EQ(outs[1].weights, std::vector<float>{9.0f});
  EXPECT_EQ(wire::KindOf(wire::EncodeStop()), wire::Kind::kStop);
}

// Every strict prefix of a frame, the frame with a trailing byte, and the frame under another
// kind byte are WireErrors.
template <class Decode>
void ExpectStrict(const std::string& frame, Decode decode) {
  for (std::size_t n = 0; n < frame.size(); ++n)
    EXPECT_THROW(decode(std::string_view(frame).substr(0, n)), wire::WireError) << "prefix of " << n << " bytes";
  EXPECT_THROW(decode(frame + '\0'), wire::WireError);
  std::string other = frame;
  other[0] = static_cast<char>(other[0] == 6 ? 1 : other[0] + 1);
  EXPECT_THROW(decode(other), wire::WireError);
}

TEST(RoundWire, MalformedFramesAreWireErrors) {
  ExpectStrict(wire::EncodeRound(SampleRound()), [](std::string_view f) { return wire::DecodeRound(f); });
  ExpectStrict(wire::EncodeOutputs(3, SampleOutputs()), [](std::string_view f) { return wire::DecodeOutputs(f); });
  ExpectStrict(wire::EncodeAnnounce(1, {{0, SampleRound().view.announcements[0]}}),
               [](std::string_view f) { return wire::DecodeAnnounce(f); });
  wire::Hello h;
  h.clients = {1, 2};
  ExpectStrict(wire::EncodeHello(h), [](std::string_view f) { return wire::DecodeHello(f); });
  ExpectStrict(wire::EncodeBegin(2), [](std::string_view f) { return wire::DecodeBegin(f); });
  EXPECT_THROW(wire::KindOf(""), wire::WireError);
  EXPECT_THROW(wire::KindOf(std::string(1, '\x09')), wire::WireError);

  // A count far beyond the bytes left is refused before anything is allocated.
  std::string huge = wire::EncodeRound(SampleRound());
  for (int b = 0; b < 8; ++b) huge[5 + b] = '\xff';  // the u64 count of c
  EXPECT_THROW(wire::DecodeRound(huge), wire::WireError);
  // Semantic checks: a pair naming a client beyond the announcements, a flag that is not 0/1.
  RoundInput bad = SampleRound();
  bad.view.pairing.pairs = {{0, 9}};
  EXPECT_THROW(wire::DecodeRound(wire::EncodeRound(bad)), wire::WireError);
  std::string flag = wire::EncodeRound(SampleRound());
  flag.back() = 2;
  EXPECT_THROW(wire::DecodeRound(flag), wire::WireError);
}

TEST(RemoteFleet, HostedClientsPartitionTheClientsInContiguousBlocks) {
  for (std::uint32_t n : {1u, 5u, 100u, 1001u})
    for (int world = 2; world <= 6; ++world) {
      if (static_cast<std::uint32_t>(world - 1) > n) continue;
      std::uint32_t next = 0;
      for (int r = 1; r < world; ++r) {
        const auto c = HostedClients(n, world, r);
        ASSERT_FALSE(c.empty());
        EXPECT_EQ(c.front(), next);
        for (std::size_t k = 1; k < c.size(); ++k) EXPECT_EQ(c[k], c[k - 1] + 1);
        next = c.back() + 1;
      }
      EXPECT_EQ(next, n);
    }
  EXPECT_THROW(HostedClients(10, 1, 0), InvalidArgument);
  EXPECT_THROW(HostedClients(10, 3, 0), InvalidArgument);
  EXPECT_THROW(HostedClients(10, 3, 3), InvalidArgument);
}

// ---- the round loop over fleets ----

// Deterministic stand-in for the LibTorch trainer: "training" moves weights toward pixel values
// in the visited order, so every client's result depends on its data, its order and w.
class StandInTrainer final : public LocalTrainer {
 public:
  std::vector<std::size_t> LayerSizes() const override { return {40, 24}; }
  std::vector<float> InitialWeights() const override {
    std::vector<float> w(64);
    for (std::size_t j = 0; j < w.size(); ++j) w[j] = 0.02f * static_cast<float>(j % 9) - 0.08f;
    return w;
  }
  std::vector<float> TrainLocal(const std::vector<float>& w, const data::Dataset& d, const std::vector<std::size_t>& order,
                                int, double* loss) override {
    std::vector<float> out = w;
    const std::size_t s = d.SampleSize();
    double sum = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::size_t j = (order[k] * 7 + k) % out.size();
      const float x = d.images[order[k] * s + (k % s)] + 0.1f * static_cast<float>(d.labels[order[k]]);
      out[j] += 0.2f * (x - out[j]);
      sum += std::abs(x - out[j]);
    }
    if (loss) *loss = order.empty() ? 0.0 : sum / static_cast<double>(order.size());
    return out;
  }
  Evaluation Evaluate(const std::vector<float>& w, const data::Dataset& d) override {
    double s = 0;
    for (float x : w) s += x * x;
    std::size_t positive = 0;
    for (float x : w) positive += x > 0 ? 1 : 0;
    return {s / static_cast<double>(w.size()) + 1e-6 * static_cast<double>(d.size()),
            static_cast<double>(positive) / static_cast<double>(w.size())};
  }
};

// Frames between threads; a rank marked dead makes its peers' Send/Recv fail at once, as a
// closed TCP connection does.
class MemoryNet {
 public:
  void Push(int from, int to, std::string frame) {
    const std::lock_guard<std::mutex> lock(m_);
    if (dead_.count(from) || dead_.count(to)) throw PeerFailure(to, "connection closed by peer");
    queues_[{from, to}].push_back(std::move(frame));
    cv_.notify_all();
  }
  std::string Pop(int from, int to) {
    std::unique_lock<std::mutex> lock(m_);
    auto& q = queues_[{from, to}];
    if (!cv_.wait_for(lock, std::chrono::seconds(30), [&] { return !q.empty() || dead_.count(from) > 0; }))
      throw PeerFailure(from, "timed out");
    if (q.empty()) throw PeerFailure(from, "connection closed by peer");
    std::string f = std::move(q.front());
    q.pop_front();
    return f;
  }
  void Kill(int rank) {
    const std::lock_guard<std::mutex> lock(m_);
    dead_.insert(rank);
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::map<std::pair<int, int>, std::deque<std::string>> queues_;
  std::set<int> dead_;
};

class MemoryChannel final : public Channel {
 public:
  MemoryChannel(MemoryNet& net, int rank, int world) : net_(net), rank_(rank), world_(world) {}
  int rank() const override { return rank_; }
  int world_size() const override { return world_; }
  void Send(int peer, const std::string& frame) override { net_.Push(rank_, peer, frame); }
  std::string Recv(int peer) override { return net_.Pop(peer, rank_); }
  std::string Describe() const override { return "memory"; }

 private:
  MemoryNet& net_;
  int rank_, world_;
};

struct Fixture {
  data::Split split = data::SplitTrainValidationTest(data::MakeSynthetic(400, 3), 3);
};

TrainConfig Config(const std::string& mechanism, const std::string& out, double dropout = 0) {
  TrainConfig c;
  c.mechanism.kind = ParseMechanism(mechanism);
  c.mechanism.eps_p = 2;
  c.mechanism.dropout = dropout;
  c.clients = 6;
  c.rounds = 3;
  c.seed = 17;
  c.local_steps = 3;
  c.batch = 4;
  c.monitor_samples = 8;
  c.out_dir = out;
  return c;
}

std::string Dir(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("dpfl_fleet_test_" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  return p.string();
}

struct RunOutcome {
  std::vector<float> weights;
  std::vector<std::string> transcripts;
};

RunOutcome Collect(const TrainResult& r) {
  RunOutcome out{r.final_weights, {}};
  for (const auto& rec : r.history) out.transcripts.push_back(rec.transcript);
  return out;
}

RunOutcome InProcess(const TrainConfig& config, const data::Split& split, std::size_t workers) {
  std::vector<StandInTrainer> trainers(workers);
  std::vector<LocalTrainer*> ptrs;
  for (auto& t : trainers) ptrs.push_back(&t);
  LocalFleet fleet(config, split.train, ptrs);
  return Collect(RunTraining(config, split, fleet, trainers[0]));
}

// Rank 0 in this thread, the hosts in threads; `kill_rank` (if > 0) dies when round
// `kill_round` (0-based) arrives.
RunOutcome Distributed(const TrainConfig& config, const data::Split& split, int world, int kill_rank = 0,
                std::uint32_t kill_round = 0) {
  MemoryNet net;
  StandInTrainer server;
  const std::string h0 = TranscriptStart(config, 64), digest = wire::DatasetDigest(split.train);
  std::vector<std::thread> hosts;
  for (int r = 1; r < world; ++r)
    hosts.emplace_back([&, r] {
      MemoryChannel ch(net, r, world);
      std::vector<StandInTrainer> trainers(2);
      ClientHost host(config, split.train, HostedClients(config.clients, world, r), {&trainers[0], &trainers[1]});
      try {
        ServeClients(ch, host, h0, digest, [&](std::uint32_t t) {
          if (r == kill_rank && t == kill_round) throw std::runtime_error("killed");
        });
      } catch (const std::exception&) {
        net.Kill(r);
      }
    });
  MemoryChannel ch(net, 0, world);
  RunOutcome out;
  try {
    RemoteFleet fleet(ch, config, h0, digest);
    out = Collect(RunTraining(config, split, fleet, server));
  } catch (...) {
    net.Kill(0);
    for (auto& h : hosts) h.join();
    throw;
  }
  for (auto& h : hosts) h.join();
  return out;
}

class FleetEquivalence : public ::testing::TestWithParam<std::pair<const char*, double>> {};

TEST_P(FleetEquivalence, SameWeightsAndTranscriptsForEveryWorkerCountAndProcessCount) {
  const auto [mechanism, dropout] = GetParam();
  const Fixture f;
  const std::string tag = std::string(mechanism) + (dropout > 0 ? "_drop" : "");
  const RunOutcome one = InProcess(Config(mechanism, Dir(tag + "_w1"), dropout), f.split, 1);
  ASSERT_EQ(one.transcripts.size(), 3u);
  for (std::size_t w : {2u, 3u}) {
    const RunOutcome r = InProcess(Config(mechanism, Dir(tag + "_w" + std::to_string(w)), dropout), f.split, w);
    EXPECT_EQ(r.weights, one.weights) << w << " workers";
    EXPECT_EQ(r.transcripts, one.transcripts) << w << " workers";
  }
  for (int world : {2, 3, 4}) {
    const RunOutcome r = Distributed(Config(mechanism, Dir(tag + "_p" + std::to_string(world)), dropout), f.split, world);
    EXPECT_EQ(r.weights, one.weights) << world << " processes";
    EXPECT_EQ(r.transcripts, one.transcripts) << world << " processes";
  }
  // The weights moved: the equality above is not that of untouched initial weights.
  EXPECT_NE(one.weights, StandInTrainer().InitialWeights());
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, FleetEquivalence,
                         ::testing::Values(std::make_pair("corbin-fl", 0.0), std::make_pair("ldp-fl", 0.0),
                                           std::make_pair("gaussian", 0.3), std::make_pair("cq", 0.0),
                                           std::make_pair("vanilla", 0.0)));

TEST(RemoteFleet, AHostThatDiesFailsTheRoundClosedAndResumeEndsWithTheSameWeights) {
  const Fixture f;
  const RunOutcome whole = InProcess(Config("corbin-fl", Dir("kill_ref")), f.split, 1);
  const std::string dir = Dir("kill");
  try {
    Distributed(Config("corbin-fl", dir), f.split, 3, /*kill_rank=*/2, /*kill_round=*/1);
    FAIL() << "the round should fail";
  } catch (const PeerFailure& e) {
    EXPECT_EQ(e.rank(), 2);
    const std::string what = e.what();
    EXPECT_NE(what.find("round 2: client host rank 2 (clients 3-5)"), std::string::npos) << what;
    EXPECT_NE(what.find("--resume"), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(fs::path(dir) / "final_weights.bin"));
  TrainConfig resume = Config("corbin-fl", dir);
  resume.resume = true;
  const RunOutcome resumed = Distributed(resume, f.split, 3);
  EXPECT_EQ(resumed.weights, whole.weights);
  EXPECT_EQ(resumed.transcripts, whole.transcripts);
}

TEST(RemoteFleet, AHostRefusesAMalformedFrameFromTheServerNamingRank0) {
  const Fixture f;
  const TrainConfig config = Config("corbin-fl", Dir("malformed"));
  MemoryNet net;
  StandInTrainer t;
  ClientHost host(config, f.split.train, HostedClients(6, 2, 1), {&t});
  MemoryChannel server(net, 0, 2), ch(net, 1, 2);
  server.Send(1, wire::EncodeBegin(0).substr(0, 3));  // a truncated begin
  try {
    ServeClients(ch, host, TranscriptStart(config, 64), wire::DatasetDigest(f.split.train));
    FAIL() << "accepted";
  } catch (const PeerFailure& e) {
    EXPECT_EQ(e.rank(), 0);
    EXPECT_NE(std::string(e.what()).find("the server (rank 0) sent a malformed frame"), std::string::npos) << e.what();
  }
  EXPECT_EQ(wire::KindOf(server.Recv(1)), wire::Kind::kHello);  // the host said hello first
}

TEST(RemoteFleet, AHostWithAnotherConfigurationOrOtherDataIsRefusedAtHello) {
  const Fixture f;
  const TrainConfig config = Config("corbin-fl", Dir("hello"));
  for (int variant = 0; variant < 3; ++variant) {
    MemoryNet net;
    TrainConfig host_config = config;
    data::Dataset host_data = f.split.train;
    if (variant == 0) host_config.mechanism.eps_p = 3;
    if (variant == 1) host_data.images[0] += 1;
    std::thread host([&] {
      MemoryChannel ch(net, 1, 2);
      StandInTrainer t;
      ClientHost h(host_config, host_data, HostedClients(6, 2, 1), {&t});
      try {
        ServeClients(ch, h, TranscriptStart(host_config, 64), wire::DatasetDigest(host_data));
      } catch (const std::exception&) {
        net.Kill(1);
      }
    });
    MemoryChannel ch(net, 0, 2);
    if (variant == 2) {  // the same host is fine
      StandInTrainer server;
      RemoteFleet fleet(ch, config, TranscriptStart(config, 64), wire::DatasetDigest(f.split.train));
      EXPECT_EQ(RunTraining(config, f.split, fleet, server).history.size(), 3u);
    } else {
      try {
        RemoteFleet fleet(ch, config, TranscriptStart(config, 64), wire::DatasetDigest(f.split.train));
        ADD_FAILURE() << "variant " << variant << " accepted";
      } catch (const PeerFailure& e) {
        EXPECT_EQ(e.rank(), 1);
        EXPECT_NE(std::string(e.what()).find(variant == 0 ? "configuration differs" : "training data differ"),
                  std::string::npos)
            << e.what();
      }
      net.Kill(0);
    }
    host.join();
  }
}

}  // namespace
}  // namespace dpfl::fl
