// One FL round's protocol between the server and the clients (seed-000 §3.3 Alg. 3 l.1–3,
// l.21–23; DESIGN.md "Randomness and exact decisions"; issue 6 "Protocol").
//
//  * Keys: client i has an X25519 key pair and a private-coin stream key. In this simulation
//    both are derived from the run seed with BLAKE2b (so runs are reproducible and resumable):
//    the X25519 secret is BLAKE2b("dpfl-fl-v1", "x25519", seed, i) (crypto_kx_seed_keypair), the
//    private-coin key DeriveKey(seed, "client-private", i). A deployment would draw both with
//    randombytes instead; nothing else changes.
//  * Pairing: the server draws it each round (DrawAssignment on its own "server" key stream),
//    and dropout (DrawPresence).
//  * Pair key: the two clients compute s = X25519(sk_self, pk_partner) (crypto_scalarmult) and
//    StreamKey = BLAKE2b-256(s ‖ pk_Q1 ‖ pk_Q2) — the ChaCha20 key of the pair's shared bits Z.
//    The server relays public keys only.
//  * Server view: exactly the round, the public keys, the pairing, the presence flags and the
//    messages (quantized bits; for real-valued mechanisms the noisy floats). ServerAggregate
//    computes the mean from the view alone; tests/unit/protocol_test.cpp checks that the view
//    contains no shared secret, no pair key, no shared bits and no weight.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "dpfl/fl/mechanisms.hpp"
#include "dpfl/protocol/assignment.hpp"

namespace dpfl::fl {

using PublicKey = std::array<std::uint8_t, 32>;

struct ClientKeys {
  PublicKey public_key{};
  std::array<std::uint8_t, 32> secret_key{};
  rng::StreamKey private_stream{};
};
ClientKeys DeriveClientKeys(std::uint64_t seed, std::uint32_t client);

// The pair's stream key from one side: X25519(sk_self, pk_partner), hashed with the two public
// keys in role order. Both sides get the same key. Throws InvalidArgument if the shared point
// is degenerate (crypto_scalarmult fails).
rng::StreamKey PairKey(const ClientKeys& self, const PublicKey& partner, bool self_is_q1);

// Everything the server sees in one round; nothing else.
struct ServerView {
  std::uint32_t round = 0;
  std::vector<PublicKey> public_keys;     // relayed to the partners
  protocol::Assignment pairing;           // planned pairs (Q1, Q2) and solo clients
  std::vector<bool> present;              // who sent a message
  std::vector<Message> messages;          // uplink, one per present client
};

// Server, start of a round: public keys, pairing, presence (messages empty).
ServerView BeginRound(const MechanismConfig& config, std::uint32_t n, std::uint32_t round, std::uint64_t seed,
                      const std::vector<PublicKey>& public_keys);
// What client `client` learns from the view to encode: its role, pair index and (computed
// locally from its own secret key) the pair key. Absent clients: throws InvalidArgument.
ClientSlot SlotFor(const ServerView& view, std::uint32_t client, const ClientKeys& keys);
// Server, end of a round: the mean from the view alone.
std::vector<float> ServerAggregate(const MechanismConfig& config, const ServerView& view,
                                   const std::vector<LayerRange>& ranges, std::size_t m);
// Bytes of the view (every field, in order) — what a transcript of the server would hold.
std::vector<std::uint8_t> SerializeView(const ServerView& view);

}  // namespace dpfl::fl
