// The seed-004 loop's FL-layer suite (RunBnnTraining, dpfl/fl/bnn_training.hpp), on the shared
// pieces of tests/testing/loop_wiring_harness.hpp.
//
// Three runs of the real loop with a design model (a BnnLocalModel whose "training" sets the
// latents θ to the design and records the latents and the sample order it was handed), mixing
// β = 0.3, K = 6 clients, T = 4 rounds, d = 2^14 latents: StoSign then RR with γ = 1/4 (the
// implemented γ̃ = ⌈γ 2^64⌉/2^64 = 1/4), Sign then RR, and StoSign without RR (the BNN baseline).
// θ of coordinate j of client i in round t is class ((j >> 1) + t + i) mod 8 of {−1, −1/2, −1/8, 0,
// 1/8, 1/2, 1, 3/4} (the clip edges ±1 and Sign's tie 0 included; the class moves with the round
// and the client, so an old upload or another client's latents carry the law of another θ).
// Categories: the upload bit (1 = "+"); law: ref::BnnUploadPlusProbability(γ̃, θ, StoSign|Sign) or
// ref::StoSignPlusProbability(θ), exact. Checks: law, rounds, clients, coordinates (neighbours;
// (j, j+64), across a 64-bit word), server (the secure aggregate K_j = Σ_i b̃_ij; the broadcast
// W̃_j = (2K_j − n)/n, E9, in rationals; every client's next latents = β W̃ + (1 − β) θ, Alg. E, as
// the model sees them in the next round), replay (every upload equals EncodeBnnUpload under
// DeriveKey(seed, "bnn-client", i), entity i, round t), keys (no upload replays under another
// client's key or stream; the local orders are ShuffledPasses of DeriveKey(seed, "bnn-shuffle", i)
// at (t, i, private coin)).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "dpfl/fl/bnn_training.hpp"
#include "dpfl/fl/stream_util.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/ref/bnn_laws.hpp"
#include "testing/loop_wiring_harness.hpp"

namespace dpfl::testing::loopwiring {

namespace bnn_detail {

inline constexpr std::uint32_t kClients = 6, kRounds = 4;
inline constexpr std::size_t kLatents = std::size_t{1} << 14;
inline constexpr double kGamma = 0.25, kBeta = 0.3;
inline constexpr float kThetas[8] = {-1.0f, -0.5f, -0.125f, 0.0f, 0.125f, 0.5f, 1.0f, 0.75f};

// θ class of coordinate j for client i in round t: moves with the round and the client, so an old
// upload, or another client's latents, carry the law of another θ.
inline int ClassOf(std::size_t j, std::uint32_t round, std::uint32_t client) {
  return static_cast<int>(((j >> 1) + round + client) & 7);
}

class DesignModel final : public fl::BnnLocalModel {
 public:
  explicit DesignModel(std::vector<int> owner) : owner_(std::move(owner)) {}
  std::size_t LatentCount() const override { return kLatents; }
  std::size_t LocalStateCount() const override { return 1; }
  std::string Description() const override { return "loop-wiring design model"; }
  std::vector<float> InitialLatents() const override { return std::vector<float>(kLatents, 0.0f); }
  std::vector<float> InitialLocalState() const override { return {0.0f}; }
  void TrainLocal(std::vector<float>& latents, std::vector<float>&, const data::Dataset& data, const std::vector<std::size_t>& order,
                  int, double, double* mean_loss) override {
    const int client = owner_.at(static_cast<std::size_t>(data.images.at(0)));
    if (client < 0) throw std::logic_error("design model: a shard holds a dropped sample");
    handed[round][static_cast<std::size_t>(client)] = latents;
    orders[{round, static_cast<std::uint32_t>(client)}] = {data.size(), order};
    for (std::size_t j = 0; j < kLatents; ++j) latents[j] = kThetas[ClassOf(j, round, static_cast<std::uint32_t>(client))];
    if (mean_loss) *mean_loss = 0;
  }
  fl::Evaluation Evaluate(const std::vector<float>&, const std::vector<float>&, const data::Dataset&) override { return {}; }
  void NextRound() { ++round; }
  std::uint32_t round = 0;
  std::vector<std::vector<std::vector<float>>> handed =
      std::vector<std::vector<std::vector<float>>>(kRounds, std::vector<std::vector<float>>(kClients));
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<std::size_t, std::vector<std::size_t>>> orders;

 private:
  std::vector<int> owner_;
};

inline bool Bit(const std::vector<std::uint64_t>& words, std::size_t j) {
  return j / 64 < words.size() && ((words[j / 64] >> (j % 64)) & 1);
}

struct Run {
  quant::Binarizer binarizer = quant::Binarizer::kStoSign;
  std::optional<double> gamma;  // absent: the no-noise BNN baseline
  std::string tag;
};

inline void Analyse(const Run& run, std::uint64_t seed, std::vector<Check>& out) {
  const bool stochastic = run.binarizer == quant::Binarizer::kStoSign;
  fl::BnnTrainConfig c;
  c.clients = kClients;
  c.rounds = kRounds;
  c.local_steps = 4;
  c.batch = 8;  // four passes over an 8-sample shard per round
  c.mix_beta = kBeta;
  c.rr_gamma = run.gamma;
  c.binarizer = run.binarizer;
  c.seed = seed;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("dpfl-loop-wiring-bnn-" + std::to_string(::getpid()) + "-" + run.tag);
  c.out_dir = dir.string();
  const std::size_t n = 8 * kClients;
  const data::Split split = IdentitySplit(n);
  DesignModel model(Owners(data::IidShares(n, kClients, seed), n));
  std::vector<fl::ObservedRound> rounds;
  c.observer = [&](const fl::ObservedRound& o) {
    rounds.push_back(o);
    model.NextRound();
  };
  const fl::BnnTrainResult result = fl::RunBnnTraining(c, split, model);
  std::filesystem::remove_all(dir);
  if (rounds.size() != kRounds) throw std::runtime_error("the observer saw " + std::to_string(rounds.size()) + " rounds");

  // The implemented γ̃ = ⌈γ 2^64⌉/2^64 (exact for γ = 1/4) and the exact upload laws per θ class.
  Observations o;
  o.Reset(kRounds, kClients, kLatents);
  std::optional<quant::RandomizedResponse> rr;
  std::optional<ref::Rational> gamma;
  if (run.gamma) {
    const ref::Rational two64(ref::Int(1) << 64);
    const ref::Rational scaled = ref::Rational(*run.gamma) * two64;
    ref::Int num = ref::FloorInt(scaled);
    if (ref::Rational(num) != scaled) num += 1;
    gamma = ref::Rational(num) / two64;
    rr = quant::MakeRandomizedResponse(*run.gamma);
  }
  for (float theta : kThetas) {
    const ref::Rational th(static_cast<double>(theta));
    const ref::Rational plus = gamma ? ref::BnnUploadPlusProbability(*gamma, th, stochastic)
                                     : (stochastic ? ref::StoSignPlusProbability(th) : ref::SignPlusProbability(th));
    const double p = plus.convert_to<double>();
    o.laws.push_back({1 - p, p});
    o.law_names.push_back("upload law at theta = " + ref::ToExactString(th));
  }
  Tally shape, counts, average, mixing, replay, keys, facts, input;
  for (std::uint32_t t = 0; t < kRounds; ++t) {
    const fl::ObservedRound& seen = rounds[t];
    const bool complete = seen.uplinks.size() == kClients && seen.counts.size() == kLatents && seen.broadcast.size() == kLatents;
    shape.Add(!complete, [&] { return "round " + std::to_string(t); });
    if (!complete) continue;
    std::vector<std::uint32_t> count(kLatents, 0);
    for (const fl::ObservedUplink& u : seen.uplinks) {
      if (u.client >= kClients || u.input.size() != kLatents) throw std::runtime_error("observed uplink of the wrong shape");
      const std::string at = "round " + std::to_string(t) + " client " + std::to_string(u.client);
      bool own = true;
      for (std::size_t j = 0; j < kLatents; ++j) {
        const bool plus = Bit(u.words, j);
        count[j] += plus ? 1 : 0;
        Observations::Cell& cell = o.At(t, u.client, j);
        cell.category = plus ? 1 : 0;
        // The law of the θ the client binarized (the observer's input), by its class.
        int cls = 0;
        while (cls < 7 && kThetas[cls] != u.input[j]) ++cls;
        if (kThetas[cls] != u.input[j]) throw std::runtime_error("a latent outside the design at " + at);
        cell.law = cls;
        own = own && cls == ClassOf(j, t, u.client);
      }
      // The upload binarizes the client's own latents, trained on its own shard this round.
      input.Add(!own || !model.orders.count({t, u.client}), [&] { return at; });
      // What the certificate states: d bits in ⌈d/64⌉ words per upload, as the round reports.
      facts.Add(u.bits != 64 * quant::PackedWords(kLatents) || u.words.size() != quant::PackedWords(kLatents) ||
                    result.history.at(t).uplink_bits != u.bits,
                [&] { return at; });
      // Replay from the documented key, entity and round; key separation: no other client's key
      // reproduces the upload, at this client's entity or at the other's (the other's stream).
      quant::StreamContext ctx;
      ctx.generator = c.generator;
      ctx.key = DocumentedKey(seed, "bnn-client", u.client);
      ctx.round = t;
      std::vector<std::uint64_t> bits(quant::PackedWords(kLatents));
      quant::EncodeBnnUpload(c.binarizer, rr ? &*rr : nullptr, u.input, ctx, u.client, bits);
      replay.Add(bits != u.words, [&] { return at; });
      for (std::uint32_t other = 0; other < kClients; ++other) {
        if (other == u.client) continue;
        ctx.key = DocumentedKey(seed, "bnn-client", other);
        for (std::uint32_t entity : {u.client, other}) {
          quant::EncodeBnnUpload(c.binarizer, rr ? &*rr : nullptr, u.input, ctx, entity, bits);
          keys.Add(bits == u.words, [&] { return at + " under client " + std::to_string(other) + "'s key, entity " + std::to_string(entity); });
        }
      }
      // Alg. E: what the model is handed next round.
      if (t + 1 < kRounds) {
        const std::vector<float>& next = model.handed[t + 1][u.client];
        for (std::size_t j = 0; j < kLatents; ++j) {
          const double want = kBeta * static_cast<double>(seen.broadcast[j]) + (1.0 - kBeta) * static_cast<double>(u.input[j]);
          mixing.Add(next.size() != kLatents || std::fabs(static_cast<double>(next[j]) - want) > 1e-6,
                     [&] { return at + " coordinate " + std::to_string(j); });
        }
      }
    }
    for (std::size_t j = 0; j < kLatents; ++j) {
      const auto where = [&] { return "round " + std::to_string(t) + " coordinate " + std::to_string(j); };
      counts.Add(count[j] != seen.counts[j], where);
      // W̃_j = (2K_j − n)/n (E9) from the counts the server saw, in rationals.
      const double w = (ref::Rational(2 * static_cast<long>(seen.counts[j]) - static_cast<long>(kClients)) / kClients).convert_to<double>();
      average.Add(std::fabs(static_cast<double>(seen.broadcast[j]) - w) > 1e-6, where);
    }
  }
  const std::string& tag = run.tag;
  out.push_back(facts.Finish(Kind::kCertificate, tag + ": uploads are d bits in ceil(d/64) words, as reported"));
  out.push_back(ExactCheck(Kind::kCertificate, tag + ": reported latents d", 1, result.latents != kLatents, std::to_string(result.latents)));
  out.push_back(shape.Finish(Kind::kServer, tag + ": every round has all clients' uploads, the counts and the broadcast"));
  LawChecks(o, tag, out);
  IndependenceChecks(o, tag, {64}, out);
  out.push_back(counts.Finish(Kind::kServer, tag + ": secure aggregate K_j = sum of the uploads' bits"));
  out.push_back(average.Finish(Kind::kServer, tag + ": broadcast = (2K - n)/n (E9)"));
  out.push_back(mixing.Finish(Kind::kServer, tag + ": next latents = beta W~ + (1 - beta) theta (Alg. E)"));
  out.push_back(input.Finish(Kind::kServer, tag + ": every upload binarizes its client's own latents, trained on its own shard"));
  OrderLawChecks(tag + ": the first sample of every local pass ~ Unif[n]", model.orders, false, out);
  out.push_back(replay.Finish(Kind::kReplay, tag + ": uploads replay from DeriveKey(seed, \"bnn-client\", i), entity i, round t"));
  out.push_back(keys.Finish(Kind::kKeys, tag + ": no upload replays under another client's key or stream"));
  out.push_back(OrderReplayCheck(tag + ": local orders replay from DeriveKey(seed, \"bnn-shuffle\", i) at (t, i, private coin)",
                                 model.orders, [&](std::uint32_t t, std::uint32_t i, std::size_t shard) {
                                   fl::StreamCursor cur;
                                   cur.ctx.key = DocumentedKey(seed, "bnn-shuffle", i);
                                   cur.addr = {t, i, rng::Purpose::kPrivateCoin};
                                   return fl::ShuffledPasses(cur, shard, static_cast<std::size_t>(c.local_steps) * c.batch);
                                 }));
}

}  // namespace bnn_detail

inline SuiteResult RunBnnLoopSuite(std::uint64_t seed = 0x4000000000000004) {
  return RunSuite("loop-bnn", [seed](std::vector<Check>& checks) {
    const bnn_detail::Run runs[] = {{quant::Binarizer::kStoSign, bnn_detail::kGamma, "stosign-rr"},
                                    {quant::Binarizer::kSign, bnn_detail::kGamma, "sign-rr"},
                                    {quant::Binarizer::kStoSign, std::nullopt, "stosign"}};
    for (const bnn_detail::Run& run : runs) GuardedRun(run.tag, checks, [&] { bnn_detail::Analyse(run, seed, checks); });
  });
}

}  // namespace dpfl::testing::loopwiring
