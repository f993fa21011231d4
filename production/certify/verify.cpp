// See certificate.hpp: VerifyCertificate and the checks it runs without re-training.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "certificate.hpp"
#include "certificate_internal.hpp"
#include "dpfl/error.hpp"
#include "dpfl/format.hpp"
#include "dpfl/fl/mechanisms.hpp"

namespace dpfl::certify {

using namespace internal;  // NOLINT: the certificate's own helpers

namespace {

bool IsHex64(const nlohmann::json& v) {
  if (!v.is_string()) return false;
  const std::string s = v.get<std::string>();
  if (s.size() != 64) return false;
  for (char ch : s)
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) return false;
  return true;
}

// An end of a certified ε enclosure as printed ("inf" or a decimal), exact; empty = +∞.
std::optional<Rational> EpsilonEnd(const nlohmann::json& v) {
  if (!v.is_string()) throw InvalidArgument("certificate", "an epsilon of the tight central row is not a string");
  const std::string s = v.get<std::string>();
  if (s == "inf") return std::nullopt;
  return ref::ParseRational(s, "certificate");
}

// A tight (PLD) row — central or local — of a certificate made by an earlier accountant: every field but the ε
// ends equal today's, and each certified end is implied by today's recomputation — the lower end
// at most today's lower end, every upper end at least today's (+∞ implies nothing more). Then the
// certificate's claims hold (today's enclosure is itself rigorous), only less tightly.
bool TightRowImplied(const nlohmann::json& given, const nlohmann::json& now) {
  if (!given.is_object() || !now.is_object() || given.size() != now.size()) return false;
  static const char* kUpper[] = {"epsilon_hi", "epsilon_hi_pld_envelope", "epsilon_hi_rdp"};
  for (const auto& [key, value] : now.items()) {
    if (!given.contains(key)) return false;
    const bool upper = std::find(std::begin(kUpper), std::end(kUpper), key) != std::end(kUpper);
    if (key != "epsilon_lo" && !upper) {
      if (given[key] != value) return false;
      continue;
    }
    if (!value.is_string() || !given[key].is_string()) return false;
    std::optional<Rational> g, n;
    try {
      g = EpsilonEnd(given[key]);
      n = EpsilonEnd(value);
    } catch (const InvalidArgument&) {  // not a number: not implied (the row then differs: a problem)
      return false;
    }
    if (upper && g && (!n || *g < *n)) return false;           // claims ε ≤ g, today only ε ≤ n > g
    if (!upper && (!g ? n.has_value() : (n && *g > *n))) return false;  // claims ε ≥ g beyond today's lo
  }
  return true;
}

std::string ReadFile(const std::filesystem::path& p) {
  std::error_code ec;
  if (std::filesystem::is_directory(p, ec))
    throw InvalidArgument(p.string(), "'" + p.string() + "' is a directory; give the certificate.json file");
  std::ifstream in(p, std::ios::binary);
  if (!in) throw InvalidArgument(p.string(), "cannot open '" + p.string() + "'");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// metrics.csv rows (round, val_accuracy, test_accuracy) against the certificate's rounds.
void CheckMetrics(const std::string& text, const nlohmann::json& rounds, const std::function<void(const std::string&)>& problem) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line.rfind("round,train_loss,val_loss,val_accuracy,test_loss,test_accuracy", 0) != 0) {
    problem("metrics.csv: unexpected header");
    return;
  }
  std::size_t k = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream row(line);
    for (std::string col; std::getline(row, col, ',');) cols.push_back(col);
    if (cols.size() < 6 || k >= rounds.size()) {
      problem("metrics.csv: row " + std::to_string(k + 1) + " does not match a round of the certificate");
      return;
    }
    char* end = nullptr;
    const double val = std::strtod(cols[3].c_str(), &end), test = std::strtod(cols[5].c_str(), &end);
    const auto& r = rounds[k];
    // metrics.csv prints 9 significant digits; accuracies are in [0, 1].
    if (cols[0] != std::to_string(k + 1) || !(std::fabs(val - Num(r, "val_accuracy")) <= 1e-8) ||
        !(std::fabs(test - Num(r, "test_accuracy")) <= 1e-8))
      problem("metrics.csv: round " + std::to_string(k + 1) + " has accuracies " + cols[3] + "/" + cols[5] +
              ", the certificate says " + Field(r, "val_accuracy").dump() + "/" + Field(r, "test_accuracy").dump());
    ++k;
  }
  if (k != rounds.size())
    problem("metrics.csv has " + std::to_string(k) + " rounds, the certificate " + std::to_string(rounds.size()));
}

}  // namespace

std::size_t JsonDepth(const nlohmann::json& root) {
  // Iterative: the point is to measure documents too deep for the recursive dump().
  std::size_t deepest = 0;
  std::vector<std::pair<const nlohmann::json*, std::size_t>> todo = {{&root, 1}};
  while (!todo.empty()) {
    const auto [node, depth] = todo.back();
    todo.pop_back();
    deepest = std::max(deepest, depth);
    if (node->is_structured())
      for (const auto& child : *node) todo.emplace_back(&child, depth + 1);
  }
  return deepest;
}

Verification VerifyCertificate(const nlohmann::json& cert, const VerifyOptions& options) {
  Verification v;
  // A genuine certificate is 5 levels deep; hostile nesting would overflow the stack of the
  // recursive JSON dump (found by fuzz_certificate, fuzz/README.md F5).
  if (JsonDepth(cert) > kMaxCertificateDepth) {
    v.ok = false;
    v.problems.push_back("malformed certificate: JSON nested deeper than " + std::to_string(kMaxCertificateDepth) + " levels");
    return v;
  }
  CheckRecorder rec{v};
  const auto problem = [&rec](const std::string& p) { rec.Problem(p); };
  const auto check = [&rec](bool ok, const std::string& what, const std::string& failure) { rec.Check(ok, what, failure); };
  try {
    if (!cert.is_object()) throw InvalidArgument("certificate", "is not a JSON object");
    const std::string format = Str(cert, "format");
    if (format == "dpfl-certificate-v1") {
      problem("format dpfl-certificate-v1 is no longer accepted (unkeyed digest, no file hashes, no transcript): re-run "
              "the training with this dpfl to get a " + std::string(kFormat) + " certificate");
      return v;
    }
    if (format != kFormat) {
      problem("unknown format '" + format.substr(0, 60) + "' (expected " + kFormat + ")");
      return v;
    }
    check(Str(cert, "digest") == Digest(cert), "digest (integrity against accidental edits)",
          "digest mismatch: certificate.json was edited after it was written");

    // Configuration: types, then the same validation as `dpfl train`.
    const nlohmann::json& cfg = Field(cert, "configuration");
    if (Str(cfg, "mechanism") == "dpfl-bnn") {  // seed 004: its own rounds, privacy and files
      VerifyBnnCertificate(cert, options, v);
      return v;
    }
    if (fl::IsCepamFlMechanism(Str(cfg, "mechanism"))) {  // seed 002: CEPAM and its baselines
      VerifyCepamCertificate(cert, options, v);
      return v;
    }
    if (fl::IsQgaussFlMechanism(Str(cfg, "mechanism"))) {  // seed 003: the quantized Gaussian and its baselines
      VerifyQgaussCertificate(cert, options, v);
      return v;
    }
    fl::TrainConfig config = TrainConfigFromJson(cfg);
    config.out_dir = "(verify)";
    try {
      fl::ValidateTrainConfig(config);
      v.checked.push_back("configuration is valid");
    } catch (const InvalidArgument& e) {
      problem(std::string("configuration is invalid: ") + e.what());
    }
    const std::uint64_t m = U64(cfg, "parameters");

    // Rounds: count and numbering, in the records and the broadcast ranges.
    const nlohmann::json& rounds = Array(cert, "rounds");
    const nlohmann::json& ranges = Array(cert, "broadcast_ranges");
    bool numbered = rounds.size() == ranges.size();
    for (std::size_t t = 0; numbered && t < rounds.size(); ++t)
      numbered = U64(rounds[t], "round") == t + 1 && U64(ranges[t], "round") == t + 1;
    check(rounds.size() == config.rounds && numbered, "round count and numbering",
          "round count mismatch: configuration says " + std::to_string(config.rounds) + ", rounds holds " +
              std::to_string(rounds.size()) + " and broadcast_ranges " + std::to_string(ranges.size()) + " (numbered 1..T)");

    // Runtime monitor: every statistic against its critical value, the critical value against
    // its α, α against the project's, the sample count against the survivors.
    const bool monitored = fl::HasPldp(config.mechanism.kind);
    const double critical = MonitorCritical(kMonitorAlpha);
    bool monitor_ok = true;
    for (const auto& r : rounds) {
      const nlohmann::json& mon = Field(r, "monitor");
      const std::string at = "round " + Field(r, "round").dump() + ": monitor ";
      const auto bad = [&](const std::string& what) {
        monitor_ok = false;
        problem(at + what);
      };
      const std::uint64_t survivors = U64(r, "survivors");
      const bool applicable = Bool(mon, "applicable");
      if (applicable != (monitored && survivors > 0)) {
        bad(std::string("'applicable' is ") + (applicable ? "true" : "false") + " for mechanism " + Str(cfg, "mechanism"));
        continue;
      }
      if (!applicable) continue;
      const double stat = Num(mon, "statistic"), crit = Num(mon, "critical"), a = Num(mon, "alpha");
      if (a != kMonitorAlpha) bad("alpha " + ShortestDouble(a) + " is not dpfl's " + ShortestDouble(kMonitorAlpha));
      if (crit != critical) bad("critical value " + ShortestDouble(crit) + " is not z_{1-alpha/2} = " + ShortestDouble(critical));
      if (!(stat >= 0 && stat <= critical))
        bad("statistic " + ShortestDouble(stat) + " exceeds the critical value " + ShortestDouble(critical) +
            " (the run should have stopped)");
      if (!Bool(mon, "passed")) bad("failed");
      if (U64(mon, "samples") != survivors * config.monitor_samples)
        bad("sample count " + Field(mon, "samples").dump() + " is not survivors x monitor_samples = " +
            std::to_string(survivors * config.monitor_samples));
    }
    if (monitor_ok) v.checked.push_back("monitor statistics against their critical values and alpha");

    // Privacy ledger and guarantees, recomputed with the reference.
    nlohmann::json recomputed = ComputePrivacy(cfg, ranges, options.recompute_tight_central, options.progress);
    const nlohmann::json& privacy = Field(cert, "privacy");
    if (!options.recompute_tight_central && recomputed.contains("guarantees")) {
      // Copy the certificate's PLD rows (where the recomputation has them) and say so.
      const nlohmann::json& given = privacy.is_object() ? privacy.value("guarantees", nlohmann::json()) : nlohmann::json();
      nlohmann::json& rows = recomputed["guarantees"];
      bool any = false;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!rows[i].is_object() || !rows[i].value("not_computed", false)) continue;
        any = true;
        if (given.is_array() && given.size() == rows.size()) rows[i] = given[i];
      }
      if (any) v.not_checked.push_back("tight (PLD) guarantees (not recomputed: recompute_tight_central is off)");
    }
    // A tight central row from an earlier (wider) accountant is checked for being implied by today's.
    if (recomputed != privacy && recomputed.contains("guarantees") && privacy.is_object() && privacy.contains("guarantees") &&
        privacy["guarantees"].is_array() && privacy["guarantees"].size() == recomputed["guarantees"].size()) {
      nlohmann::json& rows = recomputed["guarantees"];
      std::optional<nlohmann::json> legacy;  // the local rows as the rounding accountant computed them
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const nlohmann::json& given = privacy["guarantees"][i];
        if (!rows[i].is_object() || given == rows[i]) continue;
        const std::string notion = rows[i].value("notion", "");
        if (notion != kTightCentralNotion && notion != kTightLocalNotion) continue;
        const std::string name = notion == kTightCentralNotion ? "tight central row" : "tight local row";
        if (TightRowImplied(given, rows[i])) {
          v.checked.push_back(name + ": the certified enclosure [" + given["epsilon_lo"].get<std::string>() + ", " +
                              given["epsilon_hi"].get<std::string>() + "] is implied by today's recomputation [" +
                              rows[i]["epsilon_lo"].get<std::string>() + ", " + rows[i]["epsilon_hi"].get<std::string>() +
                              "] (an earlier accountant's wider numbers)");
          rows[i] = given;
          continue;
        }
        if (notion != kTightLocalNotion) continue;
        // A local row certified before connect-the-dots: its rounding enclosure is rigorous too, but
        // need not contain today's narrower one; recomputed the way it was computed.
        if (!legacy) legacy = ComputePrivacy(cfg, ranges, true, options.progress, /*legacy_local_rounding=*/true);
        const nlohmann::json& old_rows = (*legacy)["guarantees"];
        if (old_rows.is_array() && i < old_rows.size() && old_rows[i] == given) {
          v.checked.push_back(name + ": recomputed with the rounding discretization it was certified with [" +
                              given["epsilon_lo"].get<std::string>() + ", " + given["epsilon_hi"].get<std::string>() +
                              "] (today's connect-the-dots enclosure: [" + rows[i]["epsilon_lo"].get<std::string>() +
                              ", " + rows[i]["epsilon_hi"].get<std::string>() + "])");
          rows[i] = given;
        }
      }
    }
    if (recomputed == privacy) {
      v.checked.push_back("privacy ledger and guarantees recomputed with the reference");
    } else {
      const auto diff = nlohmann::json::diff(privacy, recomputed);
      problem("privacy ledger differs from the recomputation: " + diff.dump().substr(0, 400));
    }
    for (const auto& entry : recomputed.value("rounds", nlohmann::json::array()))
      if (entry.contains("delta_ok") && !entry["delta_ok"].get<bool>()) problem("gaussian delta exceeds the target");

    // Final results and transcript chain: consistent with the rounds and the configuration.
    const nlohmann::json& fin = Field(cert, "final");
    const nlohmann::json& files = Field(cert, "files");
    if (!rounds.empty())
      check(Num(fin, "test_accuracy") == Num(rounds.back(), "test_accuracy"), "final test accuracy = last round's",
            "final.test_accuracy " + Field(fin, "test_accuracy").dump() + " is not the last round's test accuracy " +
                Field(rounds.back(), "test_accuracy").dump());
    check(IsHex64(Field(fin, "weights_sha256")) && Field(fin, "weights_sha256") == Field(files, "final_weights.bin"),
          "final.weights_sha256 = files[final_weights.bin]",
          "final.weights_sha256 is not a SHA-256 or differs from files[final_weights.bin]");
    const nlohmann::json& tr = Field(cert, "transcript");
    const std::string h0 = fl::TranscriptStart(config, m);
    check(Field(tr, "h0") == h0, "transcript h0 recomputed from the configuration",
          "transcript.h0 does not match the configuration (recomputed " + h0 + ")");
    bool chain_ok = IsHex64(Field(tr, "final")) &&
                    Field(tr, "final") == (rounds.empty() ? nlohmann::json(h0) : Field(rounds.back(), "transcript"));
    for (const auto& r : rounds) chain_ok = chain_ok && IsHex64(Field(r, "transcript"));
    check(chain_ok, "transcript hashes well formed, final = last round's",
          "transcript: a round hash is malformed or transcript.final is not the last round's hash");

    // Files beside the certificate.
    if (!options.directory.empty()) {
      namespace fs = std::filesystem;
      const fs::path dir(options.directory);
      const fs::path weights = dir / "final_weights.bin", metrics = dir / "metrics.csv";
      if (!fs::exists(weights)) {
        problem("final_weights.bin not found beside the certificate: the weights cannot be checked");
      } else {
        const std::string sha = fl::Sha256Files({weights.string()});
        check(sha == Field(files, "final_weights.bin") && fs::file_size(weights) == 4 * m,
              "final_weights.bin: SHA-256 and size",
              "final_weights.bin does not match the certificate (SHA-256 " + sha + ", " + std::to_string(fs::file_size(weights)) +
                  " bytes; certificate: " + Field(files, "final_weights.bin").dump() + ", " + std::to_string(4 * m) + " bytes)");
      }
      if (!fs::exists(metrics)) {
        problem("metrics.csv not found beside the certificate");
      } else {
        const std::string sha = fl::Sha256Files({metrics.string()});
        check(sha == Field(files, "metrics.csv"), "metrics.csv: SHA-256",
              "metrics.csv does not match the certificate (SHA-256 " + sha + ")");
        const std::size_t before = v.problems.size();
        CheckMetrics(ReadFile(metrics), rounds, problem);
        if (v.problems.size() == before) v.checked.push_back("metrics.csv accuracies = the certificate's rounds");
      }
      const nlohmann::json& data = Field(cert, "dataset");
      if (data.contains("files")) {
        std::vector<std::string> paths;
        bool all = true;
        for (const auto& f : Array(data, "files")) {
          if (!f.is_string()) BadField("dataset.files", "must be strings");
          paths.push_back(f.get<std::string>());
          all = all && fs::exists(paths.back());
        }
        if (all) {
          const std::string sha = fl::Sha256Files(paths);
          check(sha == Str(data, "sha256"), "data files: SHA-256",
                "the data files' SHA-256 " + sha + " is not the certificate's " + Str(data, "sha256"));
        } else {
          v.not_checked.push_back("data files (not all present at the recorded paths)");
        }
      } else {
        v.checked.push_back("data set generated from the configuration (synthetic): nothing to hash");
      }
    } else {
      v.not_checked.push_back("files (no directory given)");
    }
  } catch (const InvalidArgument& e) {
    problem(std::string("malformed certificate: ") + e.what());
  } catch (const Undecidable& e) {
    problem(std::string("undecidable: ") + e.what());
  } catch (const nlohmann::json::exception& e) {
    problem(std::string("malformed certificate: ") + e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    problem(std::string("file system: ") + e.what());
  }
  return v;
}

void internal::CheckRoundsNumbered(const nlohmann::json& rounds, std::uint64_t expected, CheckRecorder& rec) {
  bool numbered = rounds.size() == expected;
  for (std::size_t t = 0; numbered && t < rounds.size(); ++t) numbered = U64(rounds[t], "round") == t + 1;
  rec.Check(numbered, "round count and numbering",
            "round count mismatch: configuration says " + std::to_string(expected) + ", rounds holds " +
                std::to_string(rounds.size()) + " (numbered 1..T)");
}

void internal::CheckTranscriptEnds(const nlohmann::json& cert, const std::string& h0, CheckRecorder& rec) {
  const nlohmann::json& tr = Field(cert, "transcript");
  const nlohmann::json& rounds = Array(cert, "rounds");
  rec.Check(Field(tr, "h0") == h0, "transcript h0 recomputed from the configuration",
            "transcript.h0 does not match the configuration (recomputed " + h0 + ")");
  rec.Check(Field(tr, "final") == (rounds.empty() ? Field(tr, "h0") : Field(rounds.back(), "transcript")),
            "transcript.final = last round's hash", "transcript.final is not the last round's hash");
}

void internal::CheckFileHash(const std::string& directory, const std::string& name, const nlohmann::json& files,
                             CheckRecorder& rec) {
  const std::filesystem::path path = std::filesystem::path(directory) / name;
  if (!std::filesystem::exists(path)) {
    rec.Problem(name + " not found beside the certificate");
    return;
  }
  rec.Check(fl::Sha256Files({path.string()}) == Field(files, name), name + ": SHA-256",
            name + " does not match the certificate");
}

}  // namespace dpfl::certify
