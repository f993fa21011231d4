// FL protocol and mechanisms on flat vectors (docs/training.md "One round"): the server's view
// holds public keys, the pairing, presence and the quantized bits only; mechanisms validate and
// aggregate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "dpfl/error.hpp"
#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/fl/protocol.hpp"
#include "dpfl/fl/stream_util.hpp"

namespace {

using namespace dpfl::fl;
using dpfl::InvalidArgument;

bool Contains(const std::vector<std::uint8_t>& hay, const void* needle, std::size_t n) {
  const auto* p = static_cast<const std::uint8_t*>(needle);
  return std::search(hay.begin(), hay.end(), p, p + n) != hay.end();
}

TEST(Protocol, ServerViewHoldsNoSecretsSharedBitsOrWeights) {
  constexpr std::uint32_t kN = 6, kRound = 2;
  constexpr std::uint64_t kSeed = 77;
  constexpr std::size_t kM = 300;
  MechanismConfig cfg;
  cfg.kind = MechanismKind::kCorBinFl;
  cfg.eps_p = 1.0;
  std::vector<ClientKeys> keys;
  std::vector<PublicKey> pks, ids;
  std::vector<KeyAnnouncement> ann;
  for (std::uint32_t i = 0; i < kN; ++i) {
    keys.push_back(DeriveClientKeys(kSeed, i));
    pks.push_back(keys.back().public_key);
    ids.push_back(keys.back().identity_public);
    ann.push_back(Announce(keys.back(), i, kRound));
  }
  std::vector<std::vector<float>> w(kN, std::vector<float>(kM));
  for (std::uint32_t i = 0; i < kN; ++i)
    for (std::size_t j = 0; j < kM; ++j) w[i][j] = 0.001f * static_cast<float>((i + 1) * 1000 + j) - 0.3f;
  const std::vector<LayerRange> ranges = {{0, 100, 0.0, 1.0}, {100, 200, 0.1, 0.5}};
  ServerView view = BeginRound(cfg, kN, kRound, kSeed, ann);
  ASSERT_EQ(view.pairing.pairs.size(), 3u);
  for (std::uint32_t i = 0; i < kN; ++i)
    view.messages.push_back(EncodeClient(cfg, w[i], ranges, SlotFor(view, i, keys[i], ids), keys[i].private_stream, kRound));

  // Structure: exactly five members of these types (a new member breaks this line).
  const auto& [round, announcements, pairing, present, messages] = view;
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(announcements)>, std::vector<KeyAnnouncement>>);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(messages)>, std::vector<Message>>);
  EXPECT_EQ(round, kRound);
  EXPECT_EQ(present.size(), kN);
  EXPECT_EQ(pairing.solo.size(), 0u);
  for (const Message& msg : messages) EXPECT_TRUE(msg.values.empty()) << "binary mechanism sends no floats";

  const std::vector<std::uint8_t> bytes = SerializeView(view);
  for (const auto& [q1, q2] : view.pairing.pairs) {
    // The pair key and the X25519 secrets never appear; both sides agree on the key.
    const dpfl::rng::StreamKey k1 = PairKey(keys[q1], pks[q2], true), k2 = PairKey(keys[q2], pks[q1], false);
    ASSERT_EQ(std::memcmp(k1.words, k2.words, sizeof k1.words), 0);
    EXPECT_FALSE(Contains(bytes, k1.words, 16));
    EXPECT_FALSE(Contains(bytes, keys[q1].secret_key.data(), 16));
    EXPECT_FALSE(Contains(bytes, keys[q2].secret_key.data(), 16));
    EXPECT_FALSE(Contains(bytes, keys[q1].identity_secret.data(), 16));
    EXPECT_FALSE(Contains(bytes, keys[q2].identity_secret.data(), 16));
    // The pair's shared stream (first layer key) never appears: neither the raw words of its head
    // stream (which hold the heads of Z) nor those of its tail stream.
    const dpfl::rng::StreamKey layer = DeriveSubKey(k1, "layer", 0);
    std::uint32_t pair_index = 0;
    while (view.pairing.pairs[pair_index] != std::make_pair(q1, q2)) ++pair_index;
    const dpfl::rng::StreamAddress shared{kRound, pair_index, dpfl::rng::Purpose::kSharedBits};
    for (const dpfl::rng::StreamAddress& addr : {shared, dpfl::rng::TailAddress(shared)})
      for (std::uint64_t j = 0; j < 8; ++j) {
        const std::uint64_t z = dpfl::rng::Uniform64(cfg.generator, layer, addr, j);
        EXPECT_FALSE(Contains(bytes, &z, 8));
      }
  }
  for (std::uint32_t i = 0; i < kN; ++i) {
    EXPECT_FALSE(Contains(bytes, keys[i].private_stream.words, 16));
    for (std::size_t j = 0; j + 2 <= kM; j += 50) EXPECT_FALSE(Contains(bytes, &w[i][j], 8)) << "weights of client " << i;
  }
  // The server computes the mean from the view alone; it is near the true mean only on average,
  // but always within the decoded levels c ± rα.
  const auto mean = ServerAggregate(cfg, view, ranges, kM);
  ASSERT_EQ(mean.size(), kM);
  const double alpha = (std::exp(1.0) + 1) / (std::exp(1.0) - 1);
  for (std::size_t j = 0; j < 100; ++j) EXPECT_LE(std::fabs(mean[j]), alpha * 1.0 + 1e-5);
}

TEST(Protocol, DropoutSurvivorRunsLdpqAndAbsentClientHasNoSlot) {
  MechanismConfig cfg;
  cfg.kind = MechanismKind::kCorBinFl;
  cfg.dropout = 0.5;
  std::vector<ClientKeys> keys;
  std::vector<PublicKey> ids;
  for (std::uint32_t i = 0; i < 20; ++i) {
    keys.push_back(DeriveClientKeys(1, i));
    ids.push_back(keys.back().identity_public);
  }
  bool saw_lone_survivor = false;
  for (std::uint32_t round = 0; round < 5; ++round) {
    std::vector<KeyAnnouncement> ann;
    for (std::uint32_t i = 0; i < 20; ++i) ann.push_back(Announce(keys[i], i, round));
    const ServerView view = BeginRound(cfg, 20, round, 1, ann);
    for (const auto& [a, b] : view.pairing.pairs) {
      if (view.present[a] != view.present[b]) {
        const std::uint32_t survivor = view.present[a] ? a : b, gone = view.present[a] ? b : a;
        EXPECT_EQ(SlotFor(view, survivor, keys[survivor], ids).role, Role::kSolo);
        EXPECT_THROW(SlotFor(view, gone, keys[gone], ids), InvalidArgument);
        saw_lone_survivor = true;
      } else if (view.present[a]) {
        EXPECT_EQ(SlotFor(view, a, keys[a], ids).role, Role::kQ1);
        EXPECT_EQ(SlotFor(view, b, keys[b], ids).role, Role::kQ2);
      }
    }
  }
  EXPECT_TRUE(saw_lone_survivor);
}

// Threat model (docs/training.md): a malicious server that substitutes its own X25519 key for a
// client's (to sit between the two clients of a pair and learn their shared bits) is refused by
// the partner, and so are announcements replayed from another round or another client. The
// honest relay works.
TEST(Protocol, PartnerRefusesSubstitutedOrReplayedKeys) {
  constexpr std::uint32_t kN = 4, kRound = 3;
  MechanismConfig cfg;
  cfg.kind = MechanismKind::kCorBinFl;
  std::vector<ClientKeys> keys;
  std::vector<PublicKey> ids;
  std::vector<KeyAnnouncement> ann;
  for (std::uint32_t i = 0; i < kN; ++i) {
    keys.push_back(DeriveClientKeys(5, i));
    ids.push_back(keys.back().identity_public);
    ann.push_back(Announce(keys.back(), i, kRound));
  }
  const ServerView honest = BeginRound(cfg, kN, kRound, 5, ann);
  const auto [q1, q2] = honest.pairing.pairs.at(0);
  const ClientSlot s1 = SlotFor(honest, q1, keys[q1], ids), s2 = SlotFor(honest, q2, keys[q2], ids);
  EXPECT_EQ(std::memcmp(s1.pair_key.words, s2.pair_key.words, sizeof s1.pair_key.words), 0);

  // The server's own key pair, with a signature it can make (its own identity key): substituted
  // for q2's key in the view that q1 receives.
  const ClientKeys mallory = DeriveClientKeys(666, 0);
  ServerView forged = honest;
  forged.announcements[q2] = Announce(mallory, q2, kRound);
  EXPECT_THROW(SlotFor(forged, q1, keys[q1], ids), AuthenticationFailure);
  // The same key with q2's genuine signature copied over: the signature covers the key.
  forged.announcements[q2].signature = honest.announcements[q2].signature;
  EXPECT_THROW(SlotFor(forged, q1, keys[q1], ids), AuthenticationFailure);
  // Had q1 accepted, the server would share a pair key with q1: show that this is what the
  // check prevents (the server's key agreement with q1 equals what q1 would compute).
  const dpfl::rng::StreamKey server_side = PairKey(mallory, keys[q1].public_key, false);
  const dpfl::rng::StreamKey q1_side = PairKey(keys[q1], mallory.public_key, true);
  EXPECT_EQ(std::memcmp(server_side.words, q1_side.words, sizeof q1_side.words), 0);
  // Replays: q2's genuine announcement of another round, or another client's announcement.
  ServerView replayed = honest;
  replayed.announcements[q2] = Announce(keys[q2], q2, kRound + 1);
  EXPECT_THROW(SlotFor(replayed, q1, keys[q1], ids), AuthenticationFailure);
  replayed.announcements[q2] = honest.announcements[q1];  // q1's own genuine key, relayed as q2's
  EXPECT_THROW(SlotFor(replayed, q1, keys[q1], ids), AuthenticationFailure);
  // A wrong directory (the server handing out identity keys) is not something the protocol
  // accepts either: the directory must reach clients at setup (protocol.hpp).
  std::vector<PublicKey> bad_ids = ids;
  bad_ids[q2] = mallory.identity_public;
  EXPECT_THROW(SlotFor(honest, q1, keys[q1], bad_ids), AuthenticationFailure);
}

TEST(Protocol, RandomKeysDifferAndStillPair) {
  const ClientKeys a = RandomClientKeys(), b = RandomClientKeys();
  EXPECT_NE(a.public_key, b.public_key);
  EXPECT_NE(a.identity_public, b.identity_public);
  EXPECT_TRUE(VerifyAnnouncement(Announce(a, 7, 2), a.identity_public, 7, 2));
  EXPECT_FALSE(VerifyAnnouncement(Announce(a, 7, 2), b.identity_public, 7, 2));
  const auto k1 = PairKey(a, b.public_key, true), k2 = PairKey(b, a.public_key, false);
  EXPECT_EQ(std::memcmp(k1.words, k2.words, sizeof k1.words), 0);
}

TEST(Mechanisms, ValidationRejectsImpossibleCombinations) {
  MechanismConfig cfg;
  cfg.kind = MechanismKind::kCorBinFl;
  EXPECT_THROW(ValidateMechanism(cfg, 5), InvalidArgument);
  EXPECT_NO_THROW(ValidateMechanism(cfg, 6));
  cfg.eps_p = 0;
  EXPECT_THROW(ValidateMechanism(cfg, 6), InvalidArgument);
  cfg.eps_p = std::nan("");
  EXPECT_THROW(ValidateMechanism(cfg, 6), InvalidArgument);
  cfg.eps_p = 1;
  cfg.d = 63;
  EXPECT_THROW(ValidateMechanism(cfg, 6), InvalidArgument);
  cfg.d = 5;
  cfg.kind = MechanismKind::kAugCorBinFl;
  cfg.gamma = 0.2;
  EXPECT_NO_THROW(ValidateMechanism(cfg, 10));  // 2 solo, 8 paired
  EXPECT_NO_THROW(ValidateMechanism(cfg, 15));  // round(3) = 3 solo, 12 paired
}

TEST(Mechanisms, AugCorBinOddPairedCountRejected) {
  MechanismConfig cfg;
  cfg.kind = MechanismKind::kAugCorBinFl;
  cfg.gamma = 0.2;
  EXPECT_THROW(ValidateMechanism(cfg, 11), InvalidArgument);  // round(2.2) = 2 solo, 9 paired
  cfg.kind = MechanismKind::kLdpFl;
  EXPECT_NO_THROW(ValidateMechanism(cfg, 11));
  cfg.dropout = 1.0;
  EXPECT_THROW(ValidateMechanism(cfg, 11), InvalidArgument);
}

TEST(Mechanisms, LaplaceAndGaussianCalibration) {
  EXPECT_DOUBLE_EQ(LaplaceScale(2.0, 1.0), 0.5);
  // Balle & Wang: σ decreases with ε, and δ(σ) at the returned σ is ≤ δ.
  const double s1 = AnalyticGaussianSigma(1.0, 1e-5, 1.0), s5 = AnalyticGaussianSigma(5.0, 1e-5, 1.0);
  EXPECT_GT(s1, s5);
  EXPECT_GT(s1, 3.0);  // classical bound σ = √(2 ln 1.25e5)/1 ≈ 4.84 is larger; analytic ≈ 3.73
  EXPECT_LT(s1, 4.84);
  EXPECT_THROW(AnalyticGaussianSigma(0, 1e-5, 1), InvalidArgument);
  EXPECT_THROW(AnalyticGaussianSigma(1, 1, 1), InvalidArgument);
}

TEST(Mechanisms, VanillaAggregateIsTheMeanAndNoisyMeansAreUnbiased) {
  const std::vector<LayerRange> ranges = {{0, 4000, 0.0, 1.0}};
  MechanismConfig cfg;
  cfg.kind = MechanismKind::kVanilla;
  std::vector<Message> msgs;
  for (std::uint32_t i = 0; i < 2; ++i) {
    ClientSlot slot;
    slot.client = i;
    msgs.push_back(EncodeClient(cfg, std::vector<float>(4000, i == 0 ? 0.25f : 0.75f), ranges, slot, DeriveKey(1, "c", i), 0));
  }
  EXPECT_FLOAT_EQ(Aggregate(cfg, msgs, ranges, 4000)[17], 0.5f);
  // LDP-FL and Laplace: mean over 4000 coordinates of one client's decoded 0.3 is within
  // 5 standard errors (false-alarm ≈ 6e-7 each).
  for (MechanismKind kind : {MechanismKind::kLdpFl, MechanismKind::kLaplace}) {
    cfg.kind = kind;
    cfg.eps_p = 1.0;
    ClientSlot slot;
    const Message msg = EncodeClient(cfg, std::vector<float>(4000, 0.3f), ranges, slot, DeriveKey(2, "c"), 0);
    const auto mean = Aggregate(cfg, {msg}, ranges, 4000);
    double sum = 0;
    for (float v : mean) sum += v;
    const double alpha = (std::exp(1.0) + 1) / (std::exp(1.0) - 1);
    const double sd = kind == MechanismKind::kLdpFl ? std::sqrt(alpha * alpha - 0.09) : std::sqrt(2.0) * 2.0;
    EXPECT_NEAR(sum / 4000, 0.3, 5 * sd / std::sqrt(4000.0)) << MechanismName(kind);
  }
}

TEST(Mechanisms, RejectsNonFiniteWeightsAndEmptyRounds) {
  const std::vector<LayerRange> ranges = {{0, 3, 0.0, 1.0}};
  MechanismConfig cfg;
  cfg.kind = MechanismKind::kLdpFl;
  ClientSlot slot;
  EXPECT_THROW(EncodeClient(cfg, std::vector<float>{0, NAN, 0}, ranges, slot, DeriveKey(1, "c"), 0), InvalidArgument);
  EXPECT_THROW(EncodeClient(cfg, std::vector<float>{0, 0}, ranges, slot, DeriveKey(1, "c"), 0), InvalidArgument);
  EXPECT_THROW(Aggregate(cfg, {}, ranges, 3), InvalidArgument);
  EXPECT_THROW(ParseMechanism("dp-sgd"), InvalidArgument);
}

TEST(Mechanisms, RangesFromWeights) {
  const std::vector<float> w = {-1, 1, 0, 2, 2, 2};
  const auto r = RangesFromWeights(w, {2, 1, 3}, 1.0, 1e-3);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_DOUBLE_EQ(r[0].c, 0.0);
  EXPECT_DOUBLE_EQ(r[0].r, 1.0);
  EXPECT_DOUBLE_EQ(r[1].r, 1e-3);  // a one-element layer gets the minimum radius
  EXPECT_DOUBLE_EQ(r[2].c, 2.0);
  EXPECT_THROW(RangesFromWeights(w, {2, 1}, 1.0), InvalidArgument);
}

}  // namespace
