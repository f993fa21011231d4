// ChaCha20 block function, RFC 8439 §2.3 (20 rounds, 32-bit counter, 96-bit nonce), usable
// from host and device code. Tested against the RFC's §2.3.2 vector and against libsodium's
// crypto_stream_chacha20_ietf (tests/unit/rng_test.cpp).
#pragma once

#include <cstdint>

#include "dpfl/hd.hpp"

namespace dpfl::rng {

DPFL_HD std::uint32_t Rotl32(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

DPFL_HD void ChaChaQuarterRound(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c, std::uint32_t& d) {
  a += b; d ^= a; d = Rotl32(d, 16);
  c += d; b ^= c; b = Rotl32(b, 12);
  a += b; d ^= a; d = Rotl32(d, 8);
  c += d; b ^= c; b = Rotl32(b, 7);
}

// out[0..15] = the 16 little-endian words of the keystream block (RFC 8439 §2.3.1).
DPFL_HD void ChaCha20Block(const std::uint32_t key[8], std::uint32_t counter, const std::uint32_t nonce[3],
                           std::uint32_t out[16]) {
  std::uint32_t s[16] = {0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u,
                         key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
                         counter, nonce[0], nonce[1], nonce[2]};
  std::uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = s[i];
  for (int round = 0; round < 10; ++round) {  // 10 double rounds = 20 rounds
    ChaChaQuarterRound(x[0], x[4], x[8], x[12]);
    ChaChaQuarterRound(x[1], x[5], x[9], x[13]);
    ChaChaQuarterRound(x[2], x[6], x[10], x[14]);
    ChaChaQuarterRound(x[3], x[7], x[11], x[15]);
    ChaChaQuarterRound(x[0], x[5], x[10], x[15]);
    ChaChaQuarterRound(x[1], x[6], x[11], x[12]);
    ChaChaQuarterRound(x[2], x[7], x[8], x[13]);
    ChaChaQuarterRound(x[3], x[4], x[9], x[14]);
  }
  for (int i = 0; i < 16; ++i) out[i] = x[i] + s[i];
}

}  // namespace dpfl::rng
