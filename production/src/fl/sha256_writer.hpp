// Internal to dpfl_fl: an incremental SHA-256 (libsodium) with explicit little-endian and
// length-prefixed writers, so that the transcript's byte layout (docs/training.md "Transcript
// hash chain") does not depend on the host.
#pragma once

#include <sodium.h>

#include <cstdint>
#include <cstring>
#include <iomanip>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dpfl::fl::internal {

class Sha256Writer {
 public:
  Sha256Writer() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium initialisation failed");
    crypto_hash_sha256_init(&st_);
  }
  void Bytes(const void* p, std::size_t n) {
    crypto_hash_sha256_update(&st_, static_cast<const unsigned char*>(p), static_cast<unsigned long long>(n));
  }
  void U32(std::uint32_t v) { Le(v, 4); }
  void U64(std::uint64_t v) { Le(v, 8); }
  void F64(double x) {
    std::uint64_t v;
    std::memcpy(&v, &x, 8);
    Le(v, 8);
  }
  void F32s(std::span<const float> xs) {
    U64(xs.size());
    for (float x : xs) {
      std::uint32_t v;
      std::memcpy(&v, &x, 4);
      Le(v, 4);
    }
  }
  void Label(std::string_view s) {
    U64(s.size());
    Bytes(s.data(), s.size());
  }
  std::string Hex() {
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&st_, h);
    std::ostringstream o;
    for (unsigned char b : h) o << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(b);
    return o.str();
  }

 private:
  void Le(std::uint64_t v, int bytes) {
    unsigned char b[8];
    for (int i = 0; i < bytes; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    Bytes(b, static_cast<std::size_t>(bytes));
  }
  crypto_hash_sha256_state st_;
};

}  // namespace dpfl::fl::internal
