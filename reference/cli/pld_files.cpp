// dpfl-ref pld — parsing of the pmf and composition files (pld_files.hpp).
#include "pld_files.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

#include "dpfl/error.hpp"

namespace dpfl::cli {
namespace {

using nlohmann::json;
using ref::Rational;

[[noreturn]] void Bad(const std::string& why) { throw InvalidArgument("--file", why); }

// A key or name from the file as an escaped, quoted ASCII string (never raw bytes in a message).
std::string Quote(const std::string& s) { return json(s).dump(-1, ' ', true, json::error_handler_t::replace); }

json ParseJson(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    Bad(std::string("not valid JSON: ") + e.what());
  }
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Bad("cannot open '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) Bad("cannot read '" + path + "'");
  return s.str();
}

// A rational given as a string or a JSON number (its text, so 0.1 is 1/10 exactly).
Rational Scalar(const json& x, const std::string& where) {
  try {
    if (x.is_string()) return ref::ParseRational(x.get<std::string>(), where);
    if (x.is_number_integer() || x.is_number_unsigned() || x.is_number_float()) return ref::ParseRational(x.dump(), where);
  } catch (const InvalidArgument& e) {
    Bad(where + ": " + e.what());
  }
  Bad(where + " must be an exact rational as a string (\"1/3\", \"0.25\") or a number");
}

std::vector<Rational> Array(const json& obj, const char* key, const std::string& where) {
  if (!obj.contains(key) || !obj[key].is_array()) Bad(where + " needs an array \"" + key + "\"");
  const json& a = obj[key];
  if (a.size() > kMaxPmfSupport) Bad(where + " \"" + key + "\" has more than " + std::to_string(kMaxPmfSupport) + " entries");
  std::vector<Rational> v;
  v.reserve(a.size());
  for (const json& x : a) {
    if (!x.is_string() && !x.is_number_integer() && !x.is_number_unsigned())
      Bad(where + " entries of \"" + key + "\" must be exact rationals as strings (\"1/3\", \"0.25\") or integers");
    v.push_back(Scalar(x, where + " " + key));
  }
  return v;
}

PmfPairInput PmfFrom(const json& obj, const std::string& where) {
  if (!obj.is_object()) Bad(where + " must be a JSON object {\"p\": [...], \"q\": [...]}");
  return {Array(obj, "p", where), Array(obj, "q", where)};
}

}  // namespace

PmfPairInput ParsePmfPairText(const std::string& text) {
  const json j = ParseJson(text);
  if (!j.is_object()) Bad("must be a JSON object {\"p\": [...], \"q\": [...]}");
  for (const auto& [k, v] : j.items())
    if (k != "p" && k != "q") Bad("unknown key " + Quote(k) + " (only \"p\" and \"q\")");
  return PmfFrom(j, "the pmf file");
}

PmfPairInput ReadPmfPairFile(const std::string& path) { return ParsePmfPairText(ReadText(path)); }

std::vector<ComposeItem> ParseComposeText(const std::string& text) {
  const json j = ParseJson(text);
  if (!j.is_object() || !j.contains("mechanisms") || !j["mechanisms"].is_array() || j.size() != 1)
    Bad("must be a JSON object {\"mechanisms\": [...]} (one key)");
  const json& items = j["mechanisms"];
  if (items.empty() || items.size() > kMaxComposeItems)
    Bad("\"mechanisms\" must have 1 to " + std::to_string(kMaxComposeItems) + " entries");
  static const std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> kKeys = {
      // mechanism → (required scalars, optional scalars)
      {"gaussian", {{"sigma"}, {"sensitivity", "sampling_rate"}}},
      {"laplace", {{"b"}, {"sensitivity", "sampling_rate"}}},
      {"randomized-response", {{"p"}, {}}},
      {"binomial", {{"trials", "p"}, {"sensitivity", "sampling_rate"}}},
      {"pmf", {{}, {"sampling_rate"}}},
  };
  std::vector<ComposeItem> out;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const json& it = items[i];
    const std::string where = "mechanisms[" + std::to_string(i) + "]";
    if (!it.is_object() || !it.contains("mechanism") || !it["mechanism"].is_string())
      Bad(where + " must be an object with a string \"mechanism\"");
    ComposeItem item;
    item.mechanism = it["mechanism"].get<std::string>();
    const auto keys = kKeys.find(item.mechanism);
    if (keys == kKeys.end())
      Bad(where + ": unknown mechanism " + Quote(item.mechanism) +
          " (gaussian, laplace, randomized-response, binomial, pmf)");
    const auto& [required, optional] = keys->second;
    for (const auto& [k, v] : it.items()) {
      if (k == "mechanism") continue;
      if (k == "compositions") {
        if (!v.is_number_integer() && !v.is_number_unsigned()) Bad(where + " \"compositions\" must be a JSON integer");
        const Rational c = Scalar(v, where + " compositions");
        if (c < 1 || c > Rational(1000000000)) Bad(where + " \"compositions\" must be in [1, 1e9]");
        item.compositions = boost::multiprecision::numerator(c).convert_to<std::uint64_t>();
        continue;
      }
      if (item.mechanism == "pmf" && (k == "p" || k == "q")) continue;
      if (!required.count(k) && !optional.count(k))
        Bad(where + ": unknown key " + Quote(k) + " for " + item.mechanism);
      item.values[k] = Scalar(v, where + " " + k);
    }
    for (const std::string& k : required)
      if (!item.values.count(k)) Bad(where + ": " + item.mechanism + " needs \"" + k + "\"");
    if (item.mechanism == "pmf") item.pmf = PmfFrom(it, where);
    total += item.compositions;
    if (total > 1000000000) Bad("the compositions add up to more than 1e9");
    out.push_back(std::move(item));
  }
  return out;
}

std::vector<ComposeItem> ReadComposeFile(const std::string& path) { return ParseComposeText(ReadText(path)); }

}  // namespace dpfl::cli
