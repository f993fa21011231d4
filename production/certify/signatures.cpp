// See certificate.hpp: operator keys and detached Ed25519 signatures (libsodium crypto_sign).
#include <sodium.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "certificate.hpp"
#include "dpfl/error.hpp"

namespace dpfl::certify {
namespace {

constexpr char kSecretHeader[] = "dpfl-ed25519-secret-v1";
constexpr char kPublicHeader[] = "dpfl-ed25519-public-v1";
constexpr char kSignatureHeader[] = "dpfl-ed25519-signature-v1";

void EnsureSodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium initialisation failed");
}

// "HEADER\n" + 2n hex digits + optional "\n": exactly that, nothing else.
std::vector<std::uint8_t> ParseKeyText(const std::string& text, const char* header, std::size_t n, const std::string& argument) {
  const std::string head = std::string(header) + "\n";
  std::string body = text.size() >= head.size() && text.compare(0, head.size(), head) == 0 ? text.substr(head.size()) : "";
  if (!body.empty() && body.back() == '\n') body.pop_back();
  if (text.compare(0, head.size(), head) != 0 || body.size() != 2 * n)
    throw InvalidArgument(argument, std::string("not a ") + header + " file (expected the line '" + header + "' and " +
                                        std::to_string(2 * n) + " hex digits)");
  std::vector<std::uint8_t> out(n);
  std::size_t bin_len = 0;
  if (sodium_hex2bin(out.data(), n, body.data(), body.size(), nullptr, &bin_len, nullptr) != 0 || bin_len != n)
    throw InvalidArgument(argument, std::string("bad hex digits in the ") + header + " file");
  return out;
}

}  // namespace

std::string Hex(const std::uint8_t* bytes, std::size_t n) {
  std::string out(2 * n + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, n);
  out.pop_back();
  return out;
}

KeyPair GenerateKeyPair() {
  EnsureSodium();
  KeyPair k;
  if (crypto_sign_keypair(k.public_key.data(), k.secret_key.data()) != 0) throw std::runtime_error("crypto_sign_keypair failed");
  return k;
}

std::string PublicKeyText(const KeyPair& k) { return std::string(kPublicHeader) + "\n" + Hex(k.public_key.data(), 32) + "\n"; }
std::string SecretKeyText(const KeyPair& k) { return std::string(kSecretHeader) + "\n" + Hex(k.secret_key.data(), 64) + "\n"; }

KeyPair ParseSecretKey(const std::string& text, const std::string& argument) {
  EnsureSodium();
  const std::vector<std::uint8_t> sk = ParseKeyText(text, kSecretHeader, 64, argument);
  KeyPair k;
  std::copy(sk.begin(), sk.end(), k.secret_key.begin());
  // libsodium's secret key is seed ‖ public key; re-derive from the seed and insist they agree.
  unsigned char pk[32], sk2[64];
  crypto_sign_seed_keypair(pk, sk2, k.secret_key.data());
  if (sodium_memcmp(sk2, k.secret_key.data(), 64) != 0) throw InvalidArgument(argument, "inconsistent Ed25519 secret key");
  sodium_memzero(sk2, sizeof sk2);
  std::copy(pk, pk + 32, k.public_key.begin());
  return k;
}

std::array<std::uint8_t, 32> ParsePublicKey(const std::string& text, const std::string& argument) {
  EnsureSodium();
  const std::vector<std::uint8_t> pk = ParseKeyText(text, kPublicHeader, 32, argument);
  std::array<std::uint8_t, 32> out{};
  std::copy(pk.begin(), pk.end(), out.begin());
  return out;
}

std::string Sign(const std::string& bytes, const KeyPair& keys) {
  EnsureSodium();
  unsigned char sig[crypto_sign_BYTES];
  crypto_sign_detached(sig, nullptr, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), keys.secret_key.data());
  return std::string(kSignatureHeader) + "\n" + Hex(sig, sizeof sig) + "\n";
}

bool VerifySignature(const std::string& bytes, const std::string& signature_text, const std::array<std::uint8_t, 32>& public_key) {
  EnsureSodium();
  const std::vector<std::uint8_t> sig = ParseKeyText(signature_text, kSignatureHeader, crypto_sign_BYTES, "signature");
  return crypto_sign_verify_detached(sig.data(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
                                     public_key.data()) == 0;
}

nlohmann::json ParseCertificateText(const std::string& bytes, const std::string& name, const std::string& argument) {
  nlohmann::json cert;
  try {
    cert = nlohmann::json::parse(bytes);
  } catch (const std::exception&) {
    throw InvalidArgument(argument, "'" + name + "' is not valid JSON");
  }
  if (JsonDepth(cert) > kMaxCertificateDepth)
    throw InvalidArgument(argument, "'" + name + "' is nested deeper than " + std::to_string(kMaxCertificateDepth) +
                                        " levels: not a dpfl certificate");
  return cert;
}

Authenticity CheckAuthenticity(const std::string& certificate_bytes, const nlohmann::json& cert,
                               const std::optional<std::string>& signature_text, const std::string& signature_name,
                               const std::optional<std::array<std::uint8_t, 32>>& public_key) {
  Authenticity out;
  const bool claims_signed = cert.is_object() && cert.contains("authenticity") && cert["authenticity"].is_object() &&
                             cert["authenticity"].value("signed", false) == true;
  if (!public_key) {
    out.status = claims_signed ? "signed, not checked (no --public-key): integrity only" : "unsigned";
    return out;
  }
  const std::string hex = Hex(public_key->data(), public_key->size());
  if (!claims_signed) {
    out.problems.push_back("--public-key was given but the certificate says it is unsigned");
  } else if (!signature_text) {
    out.problems.push_back("no signature file '" + signature_name + "' beside the certificate");
  } else if (cert["authenticity"].value("public_key", std::string()) != hex) {
    out.problems.push_back("the certificate names signing key " +
                           cert["authenticity"].value("public_key", std::string("?")) + ", not the --public-key " + hex);
  } else if (!VerifySignature(certificate_bytes, *signature_text, *public_key)) {
    out.problems.push_back("the Ed25519 signature does not verify: certificate.json was changed after it was signed");
  } else {
    out.status = "signed";
    out.checked.push_back("Ed25519 signature of certificate.json under --public-key");
    return out;
  }
  out.status = "rejected";
  return out;
}

}  // namespace dpfl::certify
