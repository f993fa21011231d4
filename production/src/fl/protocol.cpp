// See dpfl/fl/protocol.hpp.
#include "dpfl/fl/protocol.hpp"

#include <sodium.h>

#include <cstring>

#include "dpfl/error.hpp"
#include "dpfl/fl/stream_util.hpp"
#ifdef DPFL_FL_WIRING_MUTANTS  // test-only copy of this file (tests/CMakeLists.txt); never in dpfl_fl
#include "testing/fl_wiring_mutants.hpp"
#endif

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

void KeyBytes(const rng::StreamKey& key, unsigned char out[32]) {
  for (int w = 0; w < 8; ++w)
    for (int b = 0; b < 4; ++b) out[4 * w + b] = static_cast<unsigned char>(key.words[w] >> (8 * b));
}

// "dpfl-kx-announce-v1" ‖ round ‖ client ‖ pk: what an announcement's signature covers.
std::vector<std::uint8_t> AnnouncementBytes(const PublicKey& pk, std::uint32_t client, std::uint32_t round) {
  static constexpr char kDomain[] = "dpfl-kx-announce-v1";
  std::vector<std::uint8_t> msg(kDomain, kDomain + sizeof kDomain - 1);
  Put32(msg, round);
  Put32(msg, client);
  msg.insert(msg.end(), pk.begin(), pk.end());
  return msg;
}

}  // namespace

ClientKeys DeriveClientKeys(std::uint64_t seed, std::uint32_t client) {
  EnsureSodium();
  ClientKeys keys;
  unsigned char seed_bytes[32];
  static_assert(crypto_kx_SEEDBYTES == 32 && crypto_sign_SEEDBYTES == 32);
  KeyBytes(DeriveKey(seed, "x25519", client), seed_bytes);
  if (crypto_kx_seed_keypair(keys.public_key.data(), keys.secret_key.data(), seed_bytes) != 0)
    throw std::runtime_error("crypto_kx_seed_keypair failed");
  KeyBytes(DeriveKey(seed, "ed25519-identity", client), seed_bytes);
  if (crypto_sign_seed_keypair(keys.identity_public.data(), keys.identity_secret.data(), seed_bytes) != 0)
    throw std::runtime_error("crypto_sign_seed_keypair failed");
  sodium_memzero(seed_bytes, sizeof seed_bytes);
  keys.private_stream = DeriveKey(seed, "client-private", client);
  return keys;
}

ClientKeys RandomClientKeys() {
  EnsureSodium();
  ClientKeys keys;
  if (crypto_kx_keypair(keys.public_key.data(), keys.secret_key.data()) != 0) throw std::runtime_error("crypto_kx_keypair failed");
  if (crypto_sign_keypair(keys.identity_public.data(), keys.identity_secret.data()) != 0)
    throw std::runtime_error("crypto_sign_keypair failed");
  unsigned char bytes[32];
  randombytes_buf(bytes, sizeof bytes);
  keys.private_stream = KeyFromBytes(bytes);
  sodium_memzero(bytes, sizeof bytes);
  return keys;
}

KeyAnnouncement Announce(const ClientKeys& keys, std::uint32_t client, std::uint32_t round) {
  EnsureSodium();
  KeyAnnouncement a;
  a.public_key = keys.public_key;
  const std::vector<std::uint8_t> msg = AnnouncementBytes(a.public_key, client, round);
  static_assert(crypto_sign_BYTES == 64);
  if (crypto_sign_detached(a.signature.data(), nullptr, msg.data(), msg.size(), keys.identity_secret.data()) != 0)
    throw std::runtime_error("crypto_sign_detached failed");
  return a;
}

bool VerifyAnnouncement(const KeyAnnouncement& a, const PublicKey& identity_public, std::uint32_t client,
                        std::uint32_t round) {
  EnsureSodium();
  const std::vector<std::uint8_t> msg = AnnouncementBytes(a.public_key, client, round);
  return crypto_sign_verify_detached(a.signature.data(), msg.data(), msg.size(), identity_public.data()) == 0;
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
                      const std::vector<KeyAnnouncement>& announcements) {
  ValidateMechanism(config, n);
  if (announcements.size() != n) throw InvalidArgument("announcements", "one per client");
  quant::StreamContext ctx;
  ctx.generator = config.generator;
  ctx.key = DeriveKey(seed, "server");
  ctx.round = round;
#ifdef DPFL_FL_WIRING_MUTANTS  // wiring mutant (docs/mutants.md, FL wiring mutants)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kPairingNotPerRound)) ctx.round = 0;
#endif
  ServerView view;
  view.round = round;
  view.announcements = announcements;
  view.pairing = protocol::DrawAssignment(n, EffectiveGamma(config), ctx);
  view.present = protocol::DrawPresence(n, config.dropout, ctx);
  return view;
}

ClientSlot SlotFor(const ServerView& view, std::uint32_t client, const ClientKeys& keys,
                   const std::vector<PublicKey>& identity_directory) {
  if (client >= view.present.size() || !view.present[client])
    throw InvalidArgument("client", "client " + std::to_string(client) + " is not present this round");
  if (identity_directory.size() != view.present.size() || view.announcements.size() != view.present.size())
    throw InvalidArgument("identity_directory", "one identity key and one announcement per client");
  ClientSlot slot;
  slot.client = client;
  for (std::uint32_t p = 0; p < view.pairing.pairs.size(); ++p) {
    const auto [q1, q2] = view.pairing.pairs[p];
    if (client != q1 && client != q2) continue;
    const std::uint32_t partner = client == q1 ? q2 : q1;
    if (!view.present[partner]) return slot;  // seed-000 §3.5: the survivor runs LDPQ
    slot.role = client == q1 ? Role::kQ1 : Role::kQ2;
#ifdef DPFL_FL_WIRING_MUTANTS  // wiring mutants (docs/mutants.md, FL wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kBothRolesQ1)) slot.role = Role::kQ1;
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kRolesSwapped)) slot.role = client == q1 ? Role::kQ2 : Role::kQ1;
#endif
    slot.pair = p;
    const KeyAnnouncement& theirs = view.announcements[partner];
    if (!VerifyAnnouncement(theirs, identity_directory[partner], partner, view.round))
      throw AuthenticationFailure("client " + std::to_string(client) + " refuses the X25519 key relayed for client " +
                                  std::to_string(partner) + " in round " + std::to_string(view.round + 1) +
                                  ": its Ed25519 signature does not verify (substituted or replayed by the server?)");
    slot.pair_key = PairKey(keys, theirs.public_key, client == q1);
#ifdef DPFL_FL_WIRING_MUTANTS  // wiring mutant (docs/mutants.md, FL wiring mutants)
    if (testing::FlWiringMutantIs(testing::FlWiringMutant::kPairKeyRoleOrder)) slot.pair_key = PairKey(keys, theirs.public_key, true);
#endif
    return slot;
  }
  return slot;  // solo
}

std::vector<float> ServerAggregate(const MechanismConfig& config, const ServerView& view,
                                   const std::vector<LayerRange>& ranges, std::size_t m) {
  for (const Message& msg : view.messages)
    if (msg.client >= view.present.size() || !view.present[msg.client])
      throw InvalidArgument("messages", "message from absent client " + std::to_string(msg.client));
#ifdef DPFL_FL_WIRING_MUTANTS  // FL wiring mutant (docs/mutants.md): Alg. 3 l.23 as printed, 1/n (E31)
  if (testing::FlWiringMutantIs(testing::FlWiringMutant::kDivideByN)) {
    std::vector<float> mean = Aggregate(config, view.messages, ranges, m);
    for (float& v : mean) v = static_cast<float>(static_cast<double>(v) * view.messages.size() / view.present.size());
    return mean;
  }
#endif
  return Aggregate(config, view.messages, ranges, m);
}

std::vector<std::uint8_t> SerializeView(const ServerView& view) {
  std::vector<std::uint8_t> out;
  Put32(out, view.round);
  for (const KeyAnnouncement& a : view.announcements) {
    out.insert(out.end(), a.public_key.begin(), a.public_key.end());
    out.insert(out.end(), a.signature.begin(), a.signature.end());
  }
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
