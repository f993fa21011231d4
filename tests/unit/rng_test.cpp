// Counter-based generators: published known-answer vectors and an independent implementation.
#include <gtest/gtest.h>
#include <sodium.h>

#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "dpfl/rng/streams.hpp"

namespace dpfl::rng {
namespace {

// RFC 8439 §2.3.2 "Test Vector for the ChaCha20 Block Function": key 00:01:…:1f, nonce
// 00:00:00:09:00:00:00:4a:00:00:00:00, block counter 1 (serialized output, transcribed).
TEST(ChaCha20, Rfc8439Section232BlockVector) {
  std::uint32_t key[8];
  for (int i = 0; i < 8; ++i)
    key[i] = static_cast<std::uint32_t>(4 * i) | static_cast<std::uint32_t>(4 * i + 1) << 8 |
             static_cast<std::uint32_t>(4 * i + 2) << 16 | static_cast<std::uint32_t>(4 * i + 3) << 24;
  const std::uint32_t nonce[3] = {0x09000000u, 0x4a000000u, 0x00000000u};
  const unsigned char expected[64] = {
      0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20, 0x71, 0xc4,
      0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22, 0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e,
      0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa, 0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2,
      0xb5, 0x12, 0x9c, 0xd1, 0xde, 0x16, 0x4e, 0xb9, 0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e};
  std::uint32_t out[16];
  ChaCha20Block(key, 1, nonce, out);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(static_cast<unsigned>((out[i / 4] >> (8 * (i % 4))) & 0xffu), expected[i]) << "byte " << i;
}

// libsodium's crypto_stream_chacha20_ietf_xor_ic is an independent implementation of the same
// RFC 8439 keystream; compare 1000 random (key, nonce, counter) blocks.
TEST(ChaCha20, MatchesLibsodiumKeystream) {
  ASSERT_GE(sodium_init(), 0);
  std::mt19937_64 rng(8439);
  for (int trial = 0; trial < 1000; ++trial) {
    unsigned char key_bytes[32], nonce_bytes[12];
    for (unsigned char& b : key_bytes) b = static_cast<unsigned char>(rng());
    for (unsigned char& b : nonce_bytes) b = static_cast<unsigned char>(rng());
    const std::uint32_t counter = static_cast<std::uint32_t>(rng());
    unsigned char zeros[64] = {0}, sodium_out[64];
    crypto_stream_chacha20_ietf_xor_ic(sodium_out, zeros, 64, nonce_bytes, counter, key_bytes);
    std::uint32_t key[8], nonce[3], out[16];
    std::memcpy(key, key_bytes, 32);  // little-endian words (x86-64)
    std::memcpy(nonce, nonce_bytes, 12);
    ChaCha20Block(key, counter, nonce, out);
    ASSERT_EQ(std::memcmp(out, sodium_out, 64), 0) << "trial " << trial;
  }
}

// Random123 tests/kat_vectors, the three "philox4x32 10" lines (ctr[4] key[2] → out[4]).
TEST(Philox4x32, Random123KnownAnswers) {
  struct Kat {
    std::uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& kat : kats) {
    // Through the stream layer: key words (0,1) ^ (purpose, 0); counter (block lo, block hi,
    // round, entity). Choose the address that reproduces the raw KAT input.
    StreamKey key{};
    key.words[0] = kat.key[0] ^ static_cast<std::uint32_t>(Purpose::kPrivateCoin);
    key.words[1] = kat.key[1];
    const StreamAddress addr{kat.ctr[2], kat.ctr[3], Purpose::kPrivateCoin};
    const std::uint64_t block = Combine(kat.ctr[0], kat.ctr[1]);
    std::uint64_t out[2];
    PhiloxUniformBlock(key, addr, block, out);
    EXPECT_EQ(out[0], Combine(kat.out[0], kat.out[1]));
    EXPECT_EQ(out[1], Combine(kat.out[2], kat.out[3]));
  }
}

TEST(Streams, AddressesDoNotCollideAndUniform64MatchesBlocks) {
  StreamKey key{};
  for (int i = 0; i < 8; ++i) key.words[i] = 0x9e3779b9u * static_cast<std::uint32_t>(i + 1);
  for (Generator gen : {Generator::kChaCha20, Generator::kPhilox4x32}) {
    std::set<std::uint64_t> seen;
    for (std::uint32_t round = 0; round < 3; ++round)
      for (std::uint32_t entity = 0; entity < 3; ++entity)
        for (Purpose purpose : {Purpose::kSharedBits, Purpose::kPrivateCoin})
          for (std::uint64_t index = 0; index < 20; ++index)
            seen.insert(Uniform64(gen, key, {round, entity, purpose}, index));
    EXPECT_EQ(seen.size(), 3u * 3u * 2u * 20u);  // 64-bit collisions would be astronomically unlikely
    std::uint64_t block[8];
    ChaChaUniformBlock(key, {1, 2, Purpose::kSharedBits}, 3, block);
    EXPECT_EQ(Uniform64(Generator::kChaCha20, key, {1, 2, Purpose::kSharedBits}, 3 * 8 + 5), block[5]);
  }
}

// The decision-stream layout, stated against libsodium's keystream (not against our own block
// function): with head width h ∈ {8, 16}, Head(j, h) is the little-endian h-bit chunk j of the
// ChaCha20 keystream with nonce (round, entity, purpose) starting at block 0, and the tail of j
// is the top 64 − h bits of the 8 keystream bytes 8j … 8j + 7 of the same key with
// purpose | 0x100.
TEST(Streams, DecisionUniformIsHeadChunkAndTailOfTheLibsodiumKeystream) {
  ASSERT_GE(sodium_init(), 0);
  StreamKey key{};
  for (int i = 0; i < 8; ++i) key.words[i] = 0x7f4a7c15u * static_cast<std::uint32_t>(i + 3);
  constexpr std::size_t kParams = 300;  // 16-bit heads span 10 blocks, 8-bit heads 5, tails 38
  for (const Purpose purpose : {Purpose::kPrivateCoin, Purpose::kSharedBits}) {
    const StreamAddress addr{7, 12345, purpose};
    auto keystream = [&](std::uint32_t purpose_word, std::size_t bytes) {
      const std::uint32_t nonce_words[3] = {addr.round, addr.entity, purpose_word};
      unsigned char nonce[12], key_bytes[32];
      std::memcpy(nonce, nonce_words, 12);  // little-endian words (x86-64)
      std::memcpy(key_bytes, key.words, 32);
      std::vector<unsigned char> zeros(bytes, 0), out(bytes);
      crypto_stream_chacha20_ietf_xor_ic(out.data(), zeros.data(), bytes, nonce, 0, key_bytes);
      return out;
    };
    const auto heads = keystream(static_cast<std::uint32_t>(purpose), 2 * kParams);
    const auto tails = keystream(static_cast<std::uint32_t>(purpose) | 0x100u, 8 * kParams);
    for (const int h : {8, 16}) {
      SCOPED_TRACE("purpose " + std::to_string(static_cast<int>(purpose)) + ", head bits " + std::to_string(h));
      for (std::size_t j = 0; j < kParams; ++j) {
        const std::uint64_t head =
            h == 8 ? heads[j] : heads[2 * j] | static_cast<std::uint64_t>(heads[2 * j + 1]) << 8;
        std::uint64_t tail = 0;
        for (int b = 7; b >= 0; --b) tail = tail << 8 | tails[8 * j + static_cast<std::size_t>(b)];
        EXPECT_EQ(DecisionHead(Generator::kChaCha20, key, addr, j, h), head) << j;
        ASSERT_EQ(DecisionUniform64(Generator::kChaCha20, key, addr, j, h), head << (64 - h) | tail >> h) << j;
      }
    }
  }
}

}  // namespace
}  // namespace dpfl::rng
