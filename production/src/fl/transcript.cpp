// See dpfl/fl/training.hpp: the transcript hash chain's round step and the SHA-256 helpers.
#include <sodium.h>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/fl/training.hpp"
#include "sha256_writer.hpp"

namespace dpfl::fl {
namespace {

std::string HexToBytesOrThrow(const std::string& hex) {
  const auto nibble = [&hex](char ch) -> int {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    throw InvalidArgument("transcript", "'" + hex + "' is not 64 lower-case hex digits");
  };
  if (hex.size() != 64) nibble('?');
  std::string out;
  for (std::size_t i = 0; i < 64; i += 2) out.push_back(static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
  return out;
}

}  // namespace

std::string TranscriptRound(const std::string& previous, std::uint32_t round, const std::vector<LayerRange>& ranges,
                            const std::vector<Message>& messages, std::span<const float> global) {
  internal::Sha256Writer h;
  h.Label("dpfl-round-v1");
  const std::string prev = HexToBytesOrThrow(previous);
  h.Bytes(prev.data(), prev.size());
  h.U32(round);
  h.U64(ranges.size());
  for (const LayerRange& range : ranges) {
    h.F64(range.c);
    h.F64(range.r);
  }
  // Messages in ascending client id, whatever order they arrived in.
  std::vector<const Message*> sorted;
  for (const Message& msg : messages) sorted.push_back(&msg);
  std::sort(sorted.begin(), sorted.end(), [](const Message* a, const Message* b) { return a->client < b->client; });
  h.U32(static_cast<std::uint32_t>(sorted.size()));
  for (const Message* msg : sorted) {
    h.U32(msg->client);
    h.U64(msg->bits.size());
    for (std::uint64_t w : msg->bits) h.U64(w);
    h.F32s(msg->values);
  }
  h.F32s(global);
  return h.Hex();
}

std::string Sha256Hex(const void* data, std::size_t size) {
  unsigned char h[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(h, static_cast<const unsigned char*>(data), size);
  std::ostringstream o;
  for (unsigned char b : h) o << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(b);
  return o.str();
}

std::string Sha256Files(const std::vector<std::string>& paths) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium initialisation failed");
  crypto_hash_sha256_state st;
  crypto_hash_sha256_init(&st);
  std::vector<char> buf(1 << 16);
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw InvalidArgument(p, "cannot open '" + p + "' for hashing");
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      crypto_hash_sha256_update(&st, reinterpret_cast<const unsigned char*>(buf.data()), static_cast<unsigned long long>(in.gcount()));
    }
  }
  unsigned char h[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&st, h);
  std::ostringstream o;
  for (unsigned char b : h) o << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(b);
  return o.str();
}

}  // namespace dpfl::fl
