// The FL-layer harness of the update-based loops (seed 002 CEPAM, seed 003 quantized Gaussian,
// seed 004 DPFL-BNN): the pieces the three loop suites share (tests/testing/loop_wiring_{qgauss,
// cepam,bnn}.hpp). The suites run the REAL loops (RunQgaussTraining, RunCepamTraining,
// RunBnnTraining) with a design trainer in place of the network and read what crossed the wire
// through the loops' RoundObserver (dpfl/fl/round_observer.hpp). They are behaviour-level: they
// see messages, decodes, participation and broadcasts, never the loops' internals, so a
// refactoring of the loops (one round engine) runs under them unchanged.
//
// Every observed coordinate of every message becomes a *category* whose exact law given the
// client's input the reference states (seed 003: the level index, QuantizedGaussianGridPmf; seed
// 004: the upload bit, BnnUploadPlusProbability; seed 002: the bin of the reconstruction error
// under the exact normal CDF). The checks (each one p-value; Holm over the whole suite at
// α_suite = 1e-3, DESIGN.md "Statistical testing conventions"):
//   law          counts per input against the exact pmf (G-test);
//   rounds       the joint table of (category in round t, category in round t + 1) of the same
//                client and coordinate against Σ_pairs p ⊗ p' (the product of the exact marginals);
//   clients      the same for two clients in one round, same coordinate;
//   coordinates  the same for coordinates j, j' of one message (neighbours, and across the
//                mechanism's chunk/block/word boundaries);
//   participation (seed 003) the Poisson sampling: marginal, across rounds, across clients;
//   sampling     the local sample orders: the first sample of each pass over a shard (a uniform
//                permutation), or every sample drawn with replacement (seed 002), ~ Unif[n];
//   server       the server's decode of every message and its aggregate/broadcast recomputed by
//                the test from the messages (exact; p = 0 on a difference, else 1);
//   replay       every message reproduced from the keys and stream addresses the docs state,
//                with the mechanism-level encoder (itself held to the reference by the
//                mechanism harnesses); exact, p = 0 or 1;
//   keys         key separation: no client's message is reproduced under any other client's
//                documented key, at its own entity or at the other client's (the other's whole
//                stream: a reuse); every local sample order comes from its own documented
//                purpose key (a training stream keyed like a mechanism stream shows here); exact.
//   certificate  the facts the loop reports and its certificate states (participants, uplink
//                bits and clipped clients per round, the most rounds any client took part in, the
//                smallest shard n_k) equal what the observer saw; exact.
// A run that stops on an exception (the loop's own consistency checks, e.g. a corrupt bitstream
// under a wrong decode) is a failed server check "the loop runs every round to the end".
// A pooled pair table mixes pairs whose inputs differ; its expected counts are the sums of the
// pairs' exact product laws, and Pearson/G statistics of such sums of independent non-identical
// categorical draws are stochastically no larger than χ² (the variance of a sum of
// non-identical Bernoullis is at most the binomial one): the stated α is conservative.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sodium.h>

#include "dpfl/data/datasets.hpp"
#include "dpfl/fl/round_observer.hpp"
#include "dpfl/fl/trainer.hpp"
#include "dpfl/rng/streams.hpp"
#include "testing/stat.hpp"

namespace dpfl::testing::loopwiring {

inline constexpr double kSuiteAlpha = 1e-3;
inline constexpr double kPower = 0.999;

enum class Kind { kLaw, kRounds, kClients, kCoordinates, kParticipation, kSampling, kServer, kReplay, kKeys, kCertificate };
inline constexpr Kind kAllKinds[] = {Kind::kLaw,      Kind::kRounds, Kind::kClients, Kind::kCoordinates, Kind::kParticipation,
                                     Kind::kSampling, Kind::kServer, Kind::kReplay,  Kind::kKeys,        Kind::kCertificate};
inline const char* KindName(Kind k) {
  switch (k) {
    case Kind::kLaw: return "law";
    case Kind::kRounds: return "rounds";
    case Kind::kClients: return "clients";
    case Kind::kCoordinates: return "coordinates";
    case Kind::kParticipation: return "participation";
    case Kind::kSampling: return "sampling";
    case Kind::kServer: return "server";
    case Kind::kReplay: return "replay";
    case Kind::kKeys: return "keys";
    case Kind::kCertificate: return "certificate";
  }
  return "?";
}

struct Check {
  Kind kind = Kind::kLaw;
  std::string what;
  double statistic = 0;
  int dof = 0;          // 0 for the exact checks
  double p_value = 1;
  std::size_t samples = 0;
  bool rejected = false;
};

struct SuiteResult {
  std::string loop;
  std::vector<Check> checks;
  std::string error;     // an exception from the loop or the fixture (the suite then fails)
  double seconds = 0;
  std::size_t RejectedCount() const {
    return static_cast<std::size_t>(std::count_if(checks.begin(), checks.end(), [](const Check& c) { return c.rejected; }));
  }
  std::size_t Count(Kind k) const {
    return static_cast<std::size_t>(std::count_if(checks.begin(), checks.end(), [k](const Check& c) { return c.kind == k; }));
  }
  std::size_t Rejected(Kind k) const {
    return static_cast<std::size_t>(
        std::count_if(checks.begin(), checks.end(), [k](const Check& c) { return c.kind == k && c.rejected; }));
  }
  std::string RejectedByKind() const {
    std::string s;
    for (Kind k : kAllKinds)
      if (Rejected(k)) s += (s.empty() ? "" : ", ") + std::string(KindName(k)) + " " + std::to_string(Rejected(k));
    return s.empty() ? "none" : s;
  }
  const Check* Strongest() const {
    const Check* best = nullptr;
    for (const Check& c : checks)
      if (!best || c.p_value < best->p_value) best = &c;
    return best;
  }
};

// Holm over the suite; sets `rejected`.
inline void ApplyHolm(SuiteResult& r) {
  std::vector<double> p;
  for (const Check& c : r.checks) p.push_back(c.p_value);
  const std::vector<bool> reject = stat::HolmReject(p, kSuiteAlpha);
  for (std::size_t i = 0; i < r.checks.size(); ++i) r.checks[i].rejected = reject[i];
}

inline Check GCheck(Kind kind, const std::string& what, std::span<const std::uint64_t> counts, std::span<const double> probs) {
  const stat::GofResult g = stat::GTestGof(counts, probs);
  std::uint64_t n = 0;
  for (std::uint64_t c : counts) n += c;
  return {kind, what, g.statistic, g.dof, g.p_value, static_cast<std::size_t>(n), false};
}

inline Check ExactCheck(Kind kind, const std::string& what, std::size_t compared, std::size_t differing,
                        const std::string& first_difference) {
  Check c{kind, what, static_cast<double>(differing), 0, differing ? 0.0 : 1.0, compared, false};
  if (differing) c.what += " [" + std::to_string(differing) + " differ; first: " + first_difference + "]";
  return c;
}

// An exact check being counted: comparisons made, how many differed, where the first one did.
struct Tally {
  std::size_t compared = 0, differing = 0;
  std::string first;
  // One comparison; `where()` (called only for the first difference) names it.
  template <class Where>
  void Add(bool differs, Where where) {
    ++compared;
    if (differs && !differing++) first = where();
  }
  Check Finish(Kind kind, const std::string& what) const { return ExactCheck(kind, what, compared, differing, first); }
};

inline double Norm2(std::span<const float> x) {
  double n2 = 0;
  for (float v : x) n2 += static_cast<double>(v) * v;
  return std::sqrt(n2);
}

// The server's aggregate of round t: broadcast_j = previous_j + sum_j/divisor (previous_j when
// divisor = 0: nobody took part), to 1e-6 relative (the loops sum in double, round to float once).
inline void CompareBroadcast(std::uint32_t t, const std::vector<float>& previous, const std::vector<double>& sum, double divisor,
                             const std::vector<float>& broadcast, Tally& tally) {
  for (std::size_t j = 0; j < previous.size(); ++j) {
    const double want = static_cast<double>(previous[j]) + (divisor > 0 ? sum[j] / divisor : 0.0);
    const bool differs = j >= broadcast.size() || std::fabs(static_cast<double>(broadcast[j]) - want) > 1e-6 * (1 + std::fabs(want));
    tally.Add(differs, [&] { return "round " + std::to_string(t) + " coordinate " + std::to_string(j); });
  }
}

// Runs one loop configuration and its analysis; an exception becomes a failed server check.
template <class F>
void GuardedRun(const std::string& tag, std::vector<Check>& out, F&& run) {
  const std::string what = tag + ": the loop runs every round to the end";
  try {
    run();
    out.push_back(ExactCheck(Kind::kServer, what, 1, 0, ""));
  } catch (const std::exception& e) {
    out.push_back(ExactCheck(Kind::kServer, what, 1, 1, e.what()));
  }
}

// A loop's suite: `body(checks)` runs the loop's configurations (each under GuardedRun); a
// fixture exception ends it with `error` set; then Holm over all checks, and the time.
template <class Body>
SuiteResult RunSuite(const std::string& loop, Body body) {
  SuiteResult r;
  r.loop = loop;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    body(r.checks);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  ApplyHolm(r);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// The categorical observations of one suite: category and law (an index into `laws`) of
// coordinate j of client i's message in round t.
struct Observations {
  std::vector<std::vector<double>> laws;  // exact pmfs (reference enclosures' midpoints)
  std::vector<std::string> law_names;
  struct Cell {
    int category = -1;  // -1: not observed (client absent)
    int law = -1;
  };
  std::uint32_t rounds = 0, clients = 0;
  std::size_t coordinates = 0;
  std::vector<Cell> cells;  // [t][i][j]
  void Reset(std::uint32_t t, std::uint32_t k, std::size_t m) {
    rounds = t;
    clients = k;
    coordinates = m;
    cells.assign(static_cast<std::size_t>(t) * k * m, Cell{});
  }
  Cell& At(std::uint32_t t, std::uint32_t i, std::size_t j) { return cells[(static_cast<std::size_t>(t) * clients + i) * coordinates + j]; }
  const Cell& At(std::uint32_t t, std::uint32_t i, std::size_t j) const {
    return cells[(static_cast<std::size_t>(t) * clients + i) * coordinates + j];
  }
  int Categories() const { return laws.empty() ? 0 : static_cast<int>(laws[0].size()); }
};

// Law checks: one G-test per law, pooling every cell observed under it.
inline void LawChecks(const Observations& o, const std::string& tag, std::vector<Check>& out) {
  const int k = o.Categories();
  std::vector<std::vector<std::uint64_t>> counts(o.laws.size(), std::vector<std::uint64_t>(static_cast<std::size_t>(k), 0));
  for (const Observations::Cell& c : o.cells)
    if (c.category >= 0) ++counts[static_cast<std::size_t>(c.law)][static_cast<std::size_t>(c.category)];
  for (std::size_t l = 0; l < o.laws.size(); ++l) {
    std::uint64_t n = 0;
    for (std::uint64_t c : counts[l]) n += c;
    if (n == 0) continue;
    out.push_back(GCheck(Kind::kLaw, tag + ": " + o.law_names[l], counts[l], o.laws[l]));
  }
}

// One pooled pair table: pairs of observed cells, against Σ p_a ⊗ p_b.
class PairTable {
 public:
  explicit PairTable(int categories) : k_(categories) {
    counts_.resize(static_cast<std::size_t>(categories) * static_cast<std::size_t>(categories));
    expected_.resize(counts_.size());
  }
  void Add(const Observations& o, const Observations::Cell& a, const Observations::Cell& b) {
    if (a.category < 0 || b.category < 0) return;
    ++counts_[static_cast<std::size_t>(a.category * k_ + b.category)];
    const std::vector<double>& pa = o.laws[static_cast<std::size_t>(a.law)];
    const std::vector<double>& pb = o.laws[static_cast<std::size_t>(b.law)];
    for (int x = 0; x < k_; ++x)
      for (int y = 0; y < k_; ++y) expected_[static_cast<std::size_t>(x * k_ + y)] += pa[static_cast<std::size_t>(x)] * pb[static_cast<std::size_t>(y)];
    ++pairs_;
  }
  Check Finish(Kind kind, const std::string& what) const {
    std::vector<double> probs(expected_.size());
    for (std::size_t c = 0; c < probs.size(); ++c) probs[c] = pairs_ ? expected_[c] / static_cast<double>(pairs_) : 0.0;
    return GCheck(kind, what, counts_, probs);
  }
  std::size_t pairs() const { return pairs_; }

 private:
  int k_;
  std::vector<std::uint64_t> counts_;
  std::vector<double> expected_;
  std::size_t pairs_ = 0;
};

// The three independence families. Within one table every observed cell enters at most one pair,
// so the pairs are independent draws under the null (a cell paired twice would count its own
// fluctuation twice). Rounds: (t, t + 1) for even t, and for odd t, all clients and coordinates. Clients, pooled
// over rounds: neighbours (i, i + 1) for even i, for odd i, and the halves (i, i + ⌈K/2⌉).
// Coordinates: (j, j + 1) for even j, and for each offset d of `boundaries` (the mechanism's
// chunk, block or word boundaries) the pairs (j, j + d) with ⌊j/d⌋ even.
inline void IndependenceChecks(const Observations& o, const std::string& tag, const std::vector<std::size_t>& boundaries,
                               std::vector<Check>& out) {
  const int k = o.Categories();
  for (std::uint32_t parity = 0; parity < 2; ++parity) {
    PairTable table(k);
    for (std::uint32_t t = parity; t + 1 < o.rounds; t += 2)
      for (std::uint32_t i = 0; i < o.clients; ++i)
        for (std::size_t j = 0; j < o.coordinates; ++j) table.Add(o, o.At(t, i, j), o.At(t + 1, i, j));
    if (table.pairs())
      out.push_back(table.Finish(Kind::kRounds, tag + ": rounds (t, t+1), t " + (parity ? "odd" : "even")));
  }
  const std::uint32_t half = (o.clients + 1) / 2;
  struct Family {
    std::string name;
    std::uint32_t first, step, offset, end;
  };
  const Family families[] = {{"clients (i, i+1), i even", 0, 2, 1, o.clients},
                             {"clients (i, i+1), i odd", 1, 2, 1, o.clients},
                             {"clients (i, i+" + std::to_string(half) + ")", 0, 1, half, o.clients - half}};
  for (const Family& f : families) {
    if (f.offset == 0) continue;
    PairTable table(k);
    for (std::uint32_t t = 0; t < o.rounds; ++t)
      for (std::uint32_t i = f.first; i < f.end && i + f.offset < o.clients; i += f.step)
        for (std::size_t j = 0; j < o.coordinates; ++j) table.Add(o, o.At(t, i, j), o.At(t, i + f.offset, j));
    if (table.pairs()) out.push_back(table.Finish(Kind::kClients, tag + ": " + f.name));
  }
  PairTable neighbours(k);
  std::vector<PairTable> across;
  for (std::size_t b = 0; b < boundaries.size(); ++b) across.emplace_back(k);
  for (std::uint32_t t = 0; t < o.rounds; ++t)
    for (std::uint32_t i = 0; i < o.clients; ++i) {
      for (std::size_t j = 0; j + 1 < o.coordinates; j += 2) neighbours.Add(o, o.At(t, i, j), o.At(t, i, j + 1));
      for (std::size_t b = 0; b < boundaries.size(); ++b)
        for (std::size_t j = 0; j + boundaries[b] < o.coordinates; ++j)
          if ((j / boundaries[b]) % 2 == 0) across[b].Add(o, o.At(t, i, j), o.At(t, i, j + boundaries[b]));
    }
  if (neighbours.pairs()) out.push_back(neighbours.Finish(Kind::kCoordinates, tag + ": coordinates (j, j+1), j even"));
  for (std::size_t b = 0; b < boundaries.size(); ++b)
    if (across[b].pairs())
      out.push_back(across[b].Finish(Kind::kCoordinates, tag + ": coordinates (j, j+" + std::to_string(boundaries[b]) + ")"));
}

// ---- keys, derived as docs/production.md and dpfl/fl/stream_util.hpp state them ---------------------

// DeriveKey(seed, label, a, b), computed here from its documented definition and not with the
// production function: BLAKE2b-256 (libsodium crypto_generichash, no key) of "dpfl-fl-v1" ‖
// len(label) ‖ label ‖ seed ‖ a ‖ b (integers as 64-bit little-endian), the digest read as eight
// little-endian 32-bit words. The suites replay every message and stream under these keys, so a
// derivation that drops seed bits or a label is a replay failure.
inline rng::StreamKey DocumentedKey(std::uint64_t seed, std::string_view label, std::uint64_t a = 0, std::uint64_t b = 0) {
  std::vector<unsigned char> msg{'d', 'p', 'f', 'l', '-', 'f', 'l', '-', 'v', '1'};
  const auto le64 = [&msg](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) msg.push_back(static_cast<unsigned char>(v >> (8 * i)));
  };
  le64(label.size());
  msg.insert(msg.end(), label.begin(), label.end());
  le64(seed);
  le64(a);
  le64(b);
  unsigned char digest[32];
  if (sodium_init() < 0 || crypto_generichash(digest, sizeof digest, msg.data(), msg.size(), nullptr, 0) != 0)
    throw std::runtime_error("libsodium failed");
  rng::StreamKey key{};
  for (int w = 0; w < 8; ++w)
    for (int byte = 0; byte < 4; ++byte) key.words[w] |= static_cast<std::uint32_t>(digest[4 * w + byte]) << (8 * byte);
  return key;
}

// The local sample orders' law: for each pass over a shard (ShuffledPasses, a uniform
// permutation) the shard index at the pass's first position is Unif[n]; pooled over the passes of
// every client and round with the same n (one G-test per shard size with at least 10 n samples).
// Samples drawn with replacement (seed 002) are Unif[n] each.
template <class Orders>
void OrderLawChecks(const std::string& what, const Orders& orders, bool with_replacement, std::vector<Check>& out) {
  std::map<std::size_t, std::vector<std::uint64_t>> counts;  // shard size → counts
  for (const auto& [at, got] : orders) {
    const std::size_t n = got.first;
    if (n == 0) continue;
    std::vector<std::uint64_t>& c = counts.try_emplace(n, std::vector<std::uint64_t>(n, 0)).first->second;
    const std::vector<std::size_t>& order = got.second;
    if (with_replacement) {
      for (std::size_t v : order)
        if (v < n) ++c[v];
    } else {
      for (std::size_t p = 0; p < order.size(); p += n)
        if (order[p] < n) ++c[order[p]];
    }
  }
  for (const auto& [n, c] : counts)
    if (std::accumulate(c.begin(), c.end(), std::uint64_t{0}) >= 10 * n)  // at least 10 samples per cell expected
      out.push_back(GCheck(Kind::kSampling, what + ", shards of " + std::to_string(n), c, std::vector<double>(n, 1.0 / static_cast<double>(n))));
}

// ---- the fixture: a data set whose samples name themselves, and a design trainer ----------------

// n samples of one 1×1×1 "pixel" equal to the sample's index (exact in float for n < 2^24): a
// shard tells whose it is. The loops never look at pixels; the design trainer does.
inline data::Split IdentitySplit(std::size_t n) {
  data::Dataset d;
  d.channels = d.height = d.width = 1;
  d.classes = 10;
  for (std::size_t s = 0; s < n; ++s) {
    d.images.push_back(static_cast<float>(s));
    d.labels.push_back(static_cast<std::int64_t>(s % 10));
  }
  data::Split split;
  split.train = d;
  split.validation = d.Subset({0, 1});
  split.test = d.Subset({0, 1});
  return split;
}

// owner[s] = the client holding train sample s (IID shares of the loops; -1 for dropped samples).
inline std::vector<int> Owners(const std::vector<std::vector<std::size_t>>& shares, std::size_t n) {
  std::vector<int> owner(n, -1);
  for (std::size_t i = 0; i < shares.size(); ++i)
    for (std::size_t s : shares[i]) owner[s] = static_cast<int>(i);
  return owner;
}

// (round, client) → the model the loop handed to the client's trainer.
using HandedModels = std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<float>>;

// A LocalTrainer whose "training" adds the design update h(client, round) to the model it is
// given: the loop then computes W^k − W_t ≈ h (float subtraction) and encodes it. The round is
// the number of observer calls so far (the suites' observers call NextRound()). Safe to hand to
// several of a loop's workers at once (--workers W).
class DesignTrainer final : public fl::LocalTrainer {
 public:
  using Design = std::function<std::vector<float>(std::uint32_t client, std::uint32_t round)>;
  DesignTrainer(std::size_t m, std::vector<int> owner, Design design) : m_(m), owner_(std::move(owner)), design_(std::move(design)) {}
  std::vector<std::size_t> LayerSizes() const override { return {m_}; }
  std::vector<float> InitialWeights() const override { return std::vector<float>(m_, 0.0f); }
  std::vector<float> TrainLocal(const std::vector<float>& w, const data::Dataset& data, const std::vector<std::size_t>& order, int,
                                double* mean_loss) override {
    const int client = owner_.at(static_cast<std::size_t>(data.images.at(0)));
    if (client < 0) throw std::logic_error("design trainer: a shard holds a dropped sample");
    {
      const std::lock_guard<std::mutex> lock(mutex_);  // the loops' workers call in parallel
      orders[{round_, static_cast<std::uint32_t>(client)}] = {data.size(), order};
      handed[{round_, static_cast<std::uint32_t>(client)}] = w;
    }
    const std::vector<float> h = design_(static_cast<std::uint32_t>(client), round_);
    std::vector<float> local(w.size());
    for (std::size_t j = 0; j < w.size(); ++j) local[j] = w[j] + h[j];
    if (mean_loss) *mean_loss = 0;
    return local;
  }
  fl::Evaluation Evaluate(const std::vector<float>&, const data::Dataset&) override { return {}; }
  void NextRound() { ++round_; }
  // (round, client) → (shard size, the local sample order the loop handed over), and the model.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::size_t, std::vector<std::size_t>>> orders;
  HandedModels handed;

 private:
  std::size_t m_;
  std::vector<int> owner_;
  Design design_;
  std::uint32_t round_ = 0;  // written only between rounds (by the observer)
  std::mutex mutex_;
};

// The key-separation check of the local sample orders: every order the loop handed to a client's
// trainer equals `documented(round, client, shard size)` (the derivation the loop's docs state).
template <class Orders, class Documented>
Check OrderReplayCheck(const std::string& what, const Orders& orders, Documented documented) {
  std::size_t bad = 0;
  std::string first;
  for (const auto& [at, got] : orders)
    if (documented(at.first, at.second, got.first) != got.second && !bad++)
      first = "round " + std::to_string(at.first) + " client " + std::to_string(at.second);
  return ExactCheck(Kind::kKeys, what, orders.size(), bad, first);
}

// The inputs the loop encoded: each participant of round t trained on its own shard, from the model
// the server broadcast after round t − 1 (`initial` before round 0), and the mechanism's input is
// its design update h(client, t) up to the float subtraction W^k − W_t (|error| ≤ 1e-6 here); a
// client that holds no data trained nothing and encodes zeros. Exact (server family).
template <class Design>
void InputChecks(const std::string& tag, const std::vector<fl::ObservedRound>& rounds, const HandedModels& handed,
                 const std::vector<float>& initial, Design design, std::vector<Check>& out) {
  Tally model, input;
  const std::vector<float>* previous = &initial;
  for (std::uint32_t t = 0; t < rounds.size(); ++t) {
    for (const fl::ObservedUplink& u : rounds[t].uplinks) {
      const auto at = [&] { return "round " + std::to_string(t) + " client " + std::to_string(u.client); };
      const auto it = handed.find({t, u.client});
      const bool trained = it != handed.end();
      if (trained) model.Add(it->second != *previous, at);
      const std::vector<float> h = trained ? design(u.client, t) : std::vector<float>(u.input.size(), 0.0f);
      bool differs = h.size() != u.input.size();
      for (std::size_t j = 0; !differs && j < h.size(); ++j) differs = std::fabs(static_cast<double>(u.input[j]) - h[j]) > 1e-6;
      input.Add(differs, at);
    }
    // Nobody trains who did not send (a shard trained twice or under another client's name).
    std::size_t sent = 0;
    for (const auto& [at, w] : handed) sent += at.first == t ? 1 : 0;
    std::size_t with_data = 0;
    for (const fl::ObservedUplink& u : rounds[t].uplinks) with_data += handed.count({t, u.client});
    model.Add(sent != with_data, [&] { return "round " + std::to_string(t) + ": a shard trained for a client that sent nothing"; });
    previous = &rounds[t].broadcast;
  }
  out.push_back(model.Finish(Kind::kServer, tag + ": every participant trains its own shard from the last broadcast"));
  out.push_back(input.Finish(Kind::kServer, tag + ": every message encodes its client's own update"));
}

// Power, as DESIGN.md asks: the smallest Cohen w each check detects with probability ≥ kPower at
// the Holm step-1 level α/m (the most demanding step), from its own sample size and dof.
inline void PrintPower(const SuiteResult& r) {
  const double level = kSuiteAlpha / static_cast<double>(std::max<std::size_t>(1, r.checks.size()));
  for (Kind k : kAllKinds) {
    double worst = 0;
    std::size_t n = 0, exact = 0;
    for (const Check& c : r.checks) {
      if (c.kind != k) continue;
      ++n;
      if (c.dof == 0) {
        ++exact;
        continue;
      }
      worst = std::max(worst, stat::MinDetectableEffect(c.dof, level, kPower, static_cast<double>(c.samples)));
    }
    if (!n) continue;
    if (exact == n)
      std::printf("[%s]   %-13s %3zu exact checks (false-alarm probability 0; any difference rejects)\n", r.loop.c_str(), KindName(k), n);
    else
      std::printf("[%s]   %-13s %3zu checks: every one detects Cohen w >= %.4f w.p. >= %.3f at the step-1 level %.3g\n",
                  r.loop.c_str(), KindName(k), n, worst, kPower, level);
  }
}

inline void PrintSummary(const SuiteResult& r) {
  const Check* s = r.Strongest();
  std::printf("[%s] alpha_suite=%g, Holm over m=%zu checks; %zu rejected (%s); smallest p=%.3g (%s); time %.2f s\n", r.loop.c_str(),
              kSuiteAlpha, r.checks.size(), r.RejectedCount(), r.RejectedByKind().c_str(), s ? s->p_value : 1.0,
              s ? s->what.c_str() : "-", r.seconds);
  for (const Check& c : r.checks)
    if (c.rejected) std::printf("[%s]   rejected %s: %s (statistic %.4g, dof %d, p %.3g, N %zu)\n", r.loop.c_str(), KindName(c.kind),
                                c.what.c_str(), c.statistic, c.dof, c.p_value, c.samples);
}

}  // namespace dpfl::testing::loopwiring
