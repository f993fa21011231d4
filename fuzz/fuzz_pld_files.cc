// fuzz_pld_files — the parsers of `dpfl-ref pld pmf --file` and `pld compose --file` (contract:
// reference/cli/pld_files.hpp). The first input byte picks the parser (even: pmf pair, odd:
// composition); the rest is the file's text. The ONLY acceptable outcomes are
// dpfl::InvalidArgument naming "--file", or success, after which an oracle written here from the
// contract (nlohmann_json parses the text independently) must agree:
//   P1  pmf: the text is one JSON object whose keys are "p" and "q" only, both arrays of at most
//       kMaxPmfSupport strings or integers, and the returned vectors have their lengths;
//   P2  pmf: for two pmfs of equal length ≤ 64 with non-negative entries summing to 1 exactly, the
//       PLD (step 1/16) and ε(δ = 1/1000) are computed without any exception, lo ≤ hi;
//   C1  compose: the text is {"mechanisms": [...]} with 1 … kMaxComposeItems objects, each
//       "mechanism" one of the five names and as returned, "compositions" the JSON integer given
//       (1 when absent) in [1, 1e9], the compositions summing to at most 1e9.
//   M   an error message has no control character (keys and names from the file are escaped).
// Any other exception, a sanitizer report, a hang or > 2 GB RSS aborts.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/ref/pld.hpp"
#include "pld_files.hpp"

namespace {

using nlohmann::json;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_pld_files: %s\n", what);
  std::abort();
}

void CheckPmf(const std::string& text, const dpfl::cli::PmfPairInput& got) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception&) {
    Fail("P1: accepted text that is not JSON");
  }
  if (!j.is_object()) Fail("P1: accepted a non-object");
  for (const auto& [k, v] : j.items())
    if (k != "p" && k != "q") Fail("P1: accepted an unknown key");
  for (const char* key : {"p", "q"}) {
    if (!j.contains(key) || !j[key].is_array()) Fail("P1: accepted a missing or non-array p/q");
    for (const json& x : j[key])
      if (!x.is_string() && !x.is_number_integer() && !x.is_number_unsigned()) Fail("P1: accepted a bad entry");
  }
  if (got.p.size() != j["p"].size() || got.q.size() != j["q"].size()) Fail("P1: lengths differ from the JSON");
  if (got.p.size() != got.q.size() || got.p.empty() || got.p.size() > 64) return;
  dpfl::ref::Rational sp = 0, sq = 0;
  for (std::size_t i = 0; i < got.p.size(); ++i) {
    if (got.p[i] < 0 || got.q[i] < 0) return;
    sp += got.p[i];
    sq += got.q[i];
  }
  if (sp != 1 || sq != 1) return;
  const dpfl::ref::pld::Pld pld = dpfl::ref::pld::FromPmfs(got.p, got.q, dpfl::ref::Rational(1, 16));
  const dpfl::ref::pld::EpsilonBounds e = dpfl::ref::pld::EpsilonForDelta(pld, dpfl::ref::Rational(1, 1000));
  if (e.lo && e.hi && *e.lo > *e.hi) Fail("P2: epsilon_lo > epsilon_hi");
}

void CheckCompose(const std::string& text, const std::vector<dpfl::cli::ComposeItem>& got) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception&) {
    Fail("C1: accepted text that is not JSON");
  }
  if (!j.is_object() || j.size() != 1 || !j.contains("mechanisms") || !j["mechanisms"].is_array())
    Fail("C1: accepted a file that is not {\"mechanisms\": [...]}");
  const json& items = j["mechanisms"];
  if (items.empty() || items.size() > dpfl::cli::kMaxComposeItems || items.size() != got.size())
    Fail("C1: wrong number of mechanisms");
  static const std::set<std::string> kNames = {"gaussian", "laplace", "randomized-response", "binomial", "pmf"};
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const json& it = items[i];
    if (!it.is_object() || !it.contains("mechanism") || !it["mechanism"].is_string()) Fail("C1: bad item accepted");
    const std::string name = it["mechanism"].get<std::string>();
    if (!kNames.count(name) || name != got[i].mechanism) Fail("C1: mechanism name");
    std::uint64_t k = 1;
    if (it.contains("compositions")) {
      const json& c = it["compositions"];
      if (c.is_number_unsigned()) k = c.get<std::uint64_t>();
      else if (c.is_number_integer() && c.get<std::int64_t>() >= 1) k = static_cast<std::uint64_t>(c.get<std::int64_t>());
      else Fail("C1: non-integer or non-positive compositions accepted");
    }
    if (k < 1 || k > 1000000000 || k != got[i].compositions) Fail("C1: compositions");
    total += k;
  }
  if (total > 1000000000) Fail("C1: total compositions above 1e9 accepted");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 65536) return 0;
  const bool compose = data[0] & 1;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    if (compose) CheckCompose(text, dpfl::cli::ParseComposeText(text));
    else CheckPmf(text, dpfl::cli::ParsePmfPairText(text));
  } catch (const dpfl::InvalidArgument& e) {
    if (e.argument() != "--file") Fail("an InvalidArgument that does not name --file");
    for (const char* c = e.what(); *c; ++c)  // messages echo file content escaped, never raw
      if (static_cast<unsigned char>(*c) < 0x20) Fail("a control character in the error message");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_pld_files: unexpected exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
