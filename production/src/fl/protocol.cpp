// See dpfl/fl/protocol.hpp.
#include "dpfl/fl/protocol.hpp"

#include <sodium.h>

#include <cstring>

#include "dpfl/error.hpp"
#include "dpfl/fl/stream_util.hpp"

namespace dpfl::fl {
namespace {

void EnsureSodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium initialisation failed");
}

rng::StreamKey KeyFromBytes(const unsigned char* bytes) {
  rng::StreamKey key{};
  for (int w = 0; w < 8; ++w)
    key.words[w] = static_cast<std::uint32_t>(bytes[4 * w]) | (static_cast<std::uint32_t>(bytes[4 * w + 1]) << 8) |
                   (static_cast<std::uint32_t>(bytes[4 * w + 2]) << 16) | (static_cast<std::uint32_t>(bytes[4 * w + 3]) << 24);
  return key;
}

void Put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace

ClientKeys DeriveClientKeys(std::uint64_t seed, std::uint32_t client) {
  EnsureSodium();
  ClientKeys keys;
  const rng::StreamKey kx_seed = DeriveKey(seed, "x25519", client);
  unsigned char seed_bytes[crypto_kx_SEEDBYTES];
  static_assert(crypto_kx_SEEDBYTES == 32);
  for (int w = 0; w < 8; ++w)
    for (int b = 0; b < 4; ++b) seed_bytes[4 * w + b] = static_cast<unsigned char>(kx_seed.words[w] >> (8 * b));
  if (crypto_kx_seed_keypair(keys.public_key.data(), keys.secret_key.data(), seed_bytes) != 0)
    throw std::runtime_error("crypto_kx_seed_keypair failed");
  sodium_memzero(seed_bytes, sizeof seed_bytes);
  keys.private_stream = DeriveKey(seed, "client-private", client);
  return keys;
}

rng::StreamKey PairKey(const ClientKeys& self, const PublicKey& partner, bool self_is_q1) {
  EnsureSodium();
  unsigned char shared[crypto_scalarmult_BYTES];
  if (crypto_scalarmult(shared, self.secret_key.data(), partner.data()) != 0)
    throw InvalidArgument("public_key", "degenerate X25519 public key from the partner");
  const PublicKey& q1 = self_is_q1 ? self.public_key : partner;
  const PublicKey& q2 = self_is_q1 ? partner : self.public_key;
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, 32);
  static constexpr char kDomain[] = "dpfl-pair-key-v1";
  crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(kDomain), sizeof kDomain - 1);
  crypto_generichash_update(&st, shared, sizeof shared);
  crypto_generichash_update(&st, q1.data(), q1.size());
  crypto_generichash_update(&st, q2.data(), q2.size());
  unsigned char out[32];
  crypto_generichash_final(&st, out, sizeof out);
  const rng::StreamKey key = KeyFromBytes(out);
  sodium_memzero(shared, sizeof shared);
  sodium_memzero(out, sizeof out);
  return key;
}

ServerView BeginRound(const MechanismConfig& config, std::uint32_t n, std::uint32_t round, std::uint64_t seed,
                      const std::vector<PublicKey>& public_keys) {
  ValidateMechanism(config, n);
  if (public_keys.size() != n) throw InvalidArgument("public_keys", "one per client");
  quant::StreamContext ctx;
  ctx.generator = config.generator;
  ctx.key = DeriveKey(seed, "server");
  ctx.round = round;
  ServerView view;
  view.round = round;
  view.public_keys = public_keys;
  view.pairing = protocol::DrawAssignment(n, EffectiveGamma(config), ctx);
  view.present = protocol::DrawPresence(n, config.dropout, ctx);
  return view;
}

ClientSlot SlotFor(const ServerView& view, std::uint32_t client, const ClientKeys& keys) {
  if (client >= view.present.size() || !view.present[client])
    throw InvalidArgument("client", "client " + std::to_string(client) + " is not present this round");
  ClientSlot slot;
  slot.client = client;
  for (std::uint32_t p = 0; p < view.pairing.pairs.size(); ++p) {
    const auto [q1, q2] = view.pairing.pairs[p];
    if (client != q1 && client != q2) continue;
    const std::uint32_t partner = client == q1 ? q2 : q1;
    if (!view.present[partner]) return slot;  // seed-000 §3.5: the survivor runs LDPQ
    slot.role = client == q1 ? Role::kQ1 : Role::kQ2;
    slot.pair = p;
    slot.pair_key = PairKey(keys, view.public_keys[partner], client == q1);
    return slot;
  }
  return slot;  // solo
}

std::vector<float> ServerAggregate(const MechanismConfig& config, const ServerView& view,
                                   const std::vector<LayerRange>& ranges, std::size_t m) {
  for (const Message& msg : view.messages)
    if (msg.client >= view.present.size() || !view.present[msg.client])
      throw InvalidArgument("messages", "message from absent client " + std::to_string(msg.client));
  return Aggregate(config, view.messages, ranges, m);
}

std::vector<std::uint8_t> SerializeView(const ServerView& view) {
  std::vector<std::uint8_t> out;
  Put32(out, view.round);
  for (const PublicKey& pk : view.public_keys) out.insert(out.end(), pk.begin(), pk.end());
  for (const auto& [a, b] : view.pairing.pairs) {
    Put32(out, a);
    Put32(out, b);
  }
  for (std::uint32_t s : view.pairing.solo) Put32(out, s);
  for (bool p : view.present) out.push_back(p ? 1 : 0);
  for (const Message& msg : view.messages) {
    Put32(out, msg.client);
    for (std::uint64_t w : msg.bits)
      for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(w >> (8 * i)));
    for (float v : msg.values) {
      std::uint8_t b[4];
      std::memcpy(b, &v, 4);
      out.insert(out.end(), b, b + 4);
    }
  }
  return out;
}

}  // namespace dpfl::fl
