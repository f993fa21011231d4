// One FL round's protocol between the server and the clients (seed-000 §3.3 Alg. 3 l.1–3,
// l.21–23; DESIGN.md "Randomness and exact decisions"; docs/training.md "One round").
//
//  * Keys: client i has a long-term Ed25519 identity key pair (libsodium crypto_sign), an
//    X25519 key pair and a private-coin stream key. Two key policies (docs/training.md "Threat model"):
//    - simulated (DeriveClientKeys): all three derived from the run seed with BLAKE2b, so runs
//      are reproducible, resumable and replayable. Anyone who knows the seed (it is in the
//      certificate) can recompute every key: this protects nothing against a real adversary.
//    - random (RandomClientKeys): drawn with randombytes; runs are then not bit-reproducible.
//    The identity public keys form a directory that every client trusts (in a deployment: a PKI
//    or keys exchanged at enrolment; here: handed to every client at setup, never via the server).
//  * Announcement: each round, client i signs "dpfl-kx-announce-v1" ‖ round ‖ i ‖ pk_X25519
//    (little-endian u32s) with its identity key and gives (pk, signature) to the server, which
//    relays it. A client verifies its partner's announcement against the directory before it
//    uses the key; a key substituted by a malicious server (to sit between the two clients of a
//    pair) or replayed from another round or client fails, and the client refuses to encode
//    (AuthenticationFailure).
//  * Pairing: the server draws it each round (DrawAssignment on its own "server" key stream),
//    and dropout (DrawPresence).
//  * Pair key: the two clients compute s = X25519(sk_self, pk_partner) (crypto_scalarmult) and
//    StreamKey = BLAKE2b-256(s ‖ pk_Q1 ‖ pk_Q2) — the ChaCha20 key of the pair's shared bits Z.
//    The server relays public keys only.
//  * Server view: exactly the round, the signed key announcements, the pairing, the presence flags and the
//    messages (quantized bits; for real-valued mechanisms the noisy floats). ServerAggregate
//    computes the mean from the view alone; tests/unit/protocol_test.cpp checks that the view
//    contains no shared secret, no pair key, no shared bits and no weight.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/protocol/assignment.hpp"

namespace dpfl::fl {

using PublicKey = std::array<std::uint8_t, 32>;
using Signature = std::array<std::uint8_t, 64>;

struct ClientKeys {
  PublicKey public_key{};                        // X25519
  std::array<std::uint8_t, 32> secret_key{};     // X25519
  PublicKey identity_public{};                   // Ed25519
  std::array<std::uint8_t, 64> identity_secret{};  // Ed25519 (libsodium layout: seed ‖ public key)
  rng::StreamKey private_stream{};
};
// Simulated keys: every key of client `client` derived from the run seed (reproducible).
ClientKeys DeriveClientKeys(std::uint64_t seed, std::uint32_t client);
// Random keys: every key drawn with randombytes (not reproducible).
ClientKeys RandomClientKeys();

// A client's X25519 public key for one round, signed with its identity key.
struct KeyAnnouncement {
  PublicKey public_key{};
  Signature signature{};
};
KeyAnnouncement Announce(const ClientKeys& keys, std::uint32_t client, std::uint32_t round);
// True iff `a` is client `client`'s signed key for `round` under `identity_public`.
bool VerifyAnnouncement(const KeyAnnouncement& a, const PublicKey& identity_public, std::uint32_t client,
                        std::uint32_t round);

// A partner's key announcement does not verify: the client refuses to use it.
class AuthenticationFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The pair's stream key from one side: X25519(sk_self, pk_partner), hashed with the two public
// keys in role order. Both sides get the same key. Throws InvalidArgument if the shared point
// is degenerate (crypto_scalarmult fails).
rng::StreamKey PairKey(const ClientKeys& self, const PublicKey& partner, bool self_is_q1);

// Everything the server sees in one round; nothing else.
struct ServerView {
  std::uint32_t round = 0;
  std::vector<KeyAnnouncement> announcements;  // signed X25519 keys, relayed to the partners
  protocol::Assignment pairing;           // planned pairs (Q1, Q2) and solo clients
  std::vector<bool> present;              // who sent a message
  std::vector<Message> messages;          // uplink, one per present client
};

// Server, start of a round: the clients' announcements, pairing, presence (messages empty).
ServerView BeginRound(const MechanismConfig& config, std::uint32_t n, std::uint32_t round, std::uint64_t seed,
                      const std::vector<KeyAnnouncement>& announcements);
// What client `client` learns from the view to encode: its role, pair index and (computed
// locally from its own secret key and the partner's verified announcement) the pair key.
// `identity_directory[j]` is client j's Ed25519 public key. Absent clients: InvalidArgument;
// a partner announcement that does not verify: AuthenticationFailure.
ClientSlot SlotFor(const ServerView& view, std::uint32_t client, const ClientKeys& keys,
                   const std::vector<PublicKey>& identity_directory);
// Server, end of a round: the mean from the view alone.
std::vector<float> ServerAggregate(const MechanismConfig& config, const ServerView& view,
                                   const std::vector<LayerRange>& ranges, std::size_t m);
// Bytes of the view (every field, in order) — what a transcript of the server would hold.
std::vector<std::uint8_t> SerializeView(const ServerView& view);

}  // namespace dpfl::fl
