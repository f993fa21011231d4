// fuzz_certificate — the certificate verifier behind `dpfl verify-certificate FILE` (contract:
// production/certify/certificate.hpp): nlohmann::json::parse of the input bytes (a parse error
// is a fine outcome), then dpfl::certify::VerifyCertificate on the document.
// The ONLY acceptable outcomes are a Verification, dpfl::InvalidArgument or dpfl::Undecidable
// (certificate.cpp reports malformed documents as problems, so the two exceptions are only
// tolerated, not expected); after a Verification:
//   V1  ok == problems.empty(), and every problem is a non-empty line;
//   V2  determinism: verifying the same document again gives the same verdict and problems
//       (checked for every certificate that verifies and for one input in 8 otherwise: a
//       verification takes up to ~0.1 s under the sanitizers);
//   V3  ok only for a document that is an object with a "digest" string and a "format" string
//       (a certificate without its digest must never verify).
// Any other exception, a sanitizer report, a hang or > 2 GB RSS aborts.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "certificate.hpp"
#include "dpfl/error.hpp"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_certificate: invariant broken: %s\n", what);
  std::abort();
}

// The PLD accountant behind the "tight central" row takes seconds to minutes on large settings,
// which a mutated certificate reaches easily; the harness checks the verifier's parsing and
// invariants, so that row is not recomputed here (the verifier then lists it as not checked).
dpfl::certify::VerifyOptions Options() {
  dpfl::certify::VerifyOptions o;
  o.recompute_tight_central = false;
  return o;
}

void Check(const nlohmann::json& doc, bool recheck) {
  dpfl::certify::Verification v;
  try {
    v = dpfl::certify::VerifyCertificate(doc, Options());
  } catch (const dpfl::InvalidArgument&) {
    return;
  } catch (const dpfl::Undecidable&) {
    return;
  }
  if (v.ok != v.problems.empty()) Fail("V1: ok disagrees with the problem list");
  for (const std::string& p : v.problems)
    if (p.empty()) Fail("V1: empty problem");
  if (v.ok || recheck) {
    const dpfl::certify::Verification again = dpfl::certify::VerifyCertificate(doc, Options());
    if (again.ok != v.ok || again.problems != v.problems) Fail("V2: a second verification differs");
  }
  if (v.ok && !(doc.is_object() && doc.contains("digest") && doc["digest"].is_string() && doc.contains("format") &&
                doc["format"].is_string()))
    Fail("V3: a document without digest or format verified");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  try {
    const nlohmann::json doc = nlohmann::json::parse(bytes, bytes + size, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_discarded()) Check(doc, size % 8 == 0);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_certificate: unexpected exception: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz_certificate: unexpected non-std exception\n");
    std::abort();
  }
  return 0;
}
