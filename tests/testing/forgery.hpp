// What a forger does to a certificate in the end-to-end trust tests (tests/e2e): rewrite a file
// and recompute the certificate's unkeyed digest (SHA-256 of its JSON without "digest"), as anyone
// can. Links libsodium.
#pragma once

#include <nlohmann/json.hpp>
#include <sodium.h>

#include <fstream>
#include <string>

namespace dpfl::testing {

inline void WriteFileBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

inline void Redigest(nlohmann::json& cert) {
  nlohmann::json copy = cert;
  copy.erase("digest");
  const std::string text = copy.dump();
  unsigned char h[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  char hex[2 * sizeof h + 1];
  sodium_bin2hex(hex, sizeof hex, h, sizeof h);
  cert["digest"] = std::string(hex);
}

}  // namespace dpfl::testing
