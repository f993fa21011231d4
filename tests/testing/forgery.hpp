// What a forger does to a certificate in the end-to-end trust tests (tests/e2e): rewrite a file
// and recompute the certificate's unkeyed digest (SHA-256 of its JSON without "digest"), as anyone
// can; and the verifier's verdict on a run directory. Links libsodium.
#pragma once

#include <nlohmann/json.hpp>
#include <sodium.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "testing/subprocess.hpp"

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

// A copy of the run directory `genuine` at `dir` whose certificate.json is `cert`, redigested
// unless told otherwise (what a forger does). Returns `dir`.
inline std::string ForgedCopy(const std::string& genuine, const std::string& dir, nlohmann::json cert,
                              bool redigest = true) {
  std::filesystem::remove_all(dir);
  std::filesystem::copy(genuine, dir, std::filesystem::copy_options::recursive);
  if (redigest) Redigest(cert);
  WriteFileBytes(dir + "/certificate.json", cert.dump(2) + "\n");
  return dir;
}

// `dpfl verify-certificate DIR/certificate.json [extra…]` run by `binary` in `scratch`.
struct Verdict {
  int exit_code;
  nlohmann::json out;
  std::string err;
};
inline Verdict VerifyRun(const std::string& binary, const std::string& dir, const std::string& scratch,
                         const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"verify-certificate", dir + "/certificate.json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = RunProgram(binary, args, scratch);
  Verdict v{r.exit_code, nlohmann::json(), r.err};
  if (!r.out.empty()) v.out = nlohmann::json::parse(r.out);
  return v;
}

}  // namespace dpfl::testing
