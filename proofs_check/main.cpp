// dpfl-proofs — runs the claims catalog and reports verdicts.
//
//   dpfl-proofs [--seed 000|001|002|003|004] [--claim ID] [--quick] [--json | --markdown]
//               [--flip] [--expect]
//   dpfl-proofs --errata [--expect]        the errata coverage only (errata_registry.cpp)
//
// Exit codes: 0 the run completed (verdicts are findings, not failures); 2 bad arguments;
// with --expect, 1 if any verdict differs from the catalog's expected verdict, or (with --flip)
// any checker's verdict does not flip under its perturbation (used by ctest).
//
// --flip (the flip table): every claim that is not a DEFINITION is run a second time with
// CheckOptions::flip (on the quick grids: a flip only has to change the verdict), and the table
// lists the perturbation and both verdicts. A flip counts when the perturbed run completes with a
// verdict different from the unperturbed one (an aborted check does not count).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "claims.hpp"
#include "dpfl/error.hpp"

namespace {

using dpfl::proofs::Claim;
using dpfl::proofs::StatusName;
using dpfl::proofs::Verdict;

struct Row {
  const Claim* claim = nullptr;
  Verdict verdict;
  double seconds = 0;      // wall time
  double cpu_seconds = 0;  // process CPU time (the checks are single-threaded)
  bool flip_ran = false;
  Verdict flipped;     // with CheckOptions::flip (when flip_ran)
  bool flip_aborted = false;
  bool Flips() const { return flip_ran && !flip_aborted && flipped.status != verdict.status; }
};

// Runs one check; a check that cannot complete is reported, never hidden: it cannot be a PASS.
Verdict RunCheck(const Claim& c, const dpfl::proofs::CheckOptions& options, bool* aborted) {
  try {
    return c.check(options);
  } catch (const std::exception& e) {
    Verdict v;
    v.status = dpfl::proofs::Status::kInconclusive;
    v.note = std::string("check aborted: ") + e.what();
    if (aborted) *aborted = true;
    return v;
  }
}

std::string MarkdownEscape(std::string s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += "\\|";
    else if (ch == '\n') out += ' ';
    else out += ch;
  }
  return out;
}

const char* SeedTitle(const std::string& seed) {
  static const std::map<std::string, const char*> titles = {
      {"000", "Seed 000 — CorBin-FL (correlated binary quantization)"},
      {"001", "Seed 001 — CoQ-FL / LDP-FedCR draft"},
      {"002", "Seed 002 — CEPAM / RSUQ"},
      {"003", "Seed 003 — quantized Gaussian mechanism, Rényi DP"},
      {"004", "Seed 004 — DPFL-BNN (binary FL, randomized response)"}};
  auto it = titles.find(seed);
  return it == titles.end() ? "Other" : it->second;
}

// "AMD EPYC 7B13 (2 logical CPUs)": the CPU model from /proc/cpuinfo, for the report's run time.
std::string MachineDescription() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  int cpus = 0;
  while (std::getline(in, line)) {
    if (line.rfind("processor", 0) == 0) ++cpus;
    if (line.rfind("model name", 0) == 0 && model == "unknown CPU") {
      const auto colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return model + " (" + std::to_string(cpus) + " logical CPUs)";
}

// The errata coverage (errata_registry.cpp) as JSON: counts per seed, the not-checkable ids with
// their reasons, the pending ids (checkable, no claim yet) with what a claim would compute.
nlohmann::json ErrataJson(const dpfl::proofs::ErrataCoverage& cov) {
  nlohmann::json out;
  for (const auto& [seed, n] : cov.per_seed)
    out["errata_coverage"][seed] = {{"total", n.total}, {"cited", n.cited}, {"not_checkable", n.not_checkable},
                                    {"pending", n.pending}};
  out["errata_not_checkable"] = nlohmann::json::array();
  for (const auto* e : cov.not_checkable)
    out["errata_not_checkable"].push_back(
        {{"id", std::string(e->seed) + "/" + e->id}, {"title", e->title}, {"reason", e->not_checkable}});
  out["errata_pending"] = nlohmann::json::array();
  for (const auto* e : cov.pending)
    out["errata_pending"].push_back(
        {{"id", std::string(e->seed) + "/" + e->id}, {"title", e->title}, {"proposed_check", e->proposal}});
  out["errata_unclassified"] = cov.unclassified;
  out["errata_unknown_citations"] = cov.unknown_citations;
  return out;
}

std::string ErrataMarkdown(const dpfl::proofs::ErrataCoverage& cov) {
  std::ostringstream md;
  md << "\n## Errata coverage\n\nEvery erratum id of the five specs (§6): cited by a claim (a citation is declared "
        "in the catalog, not verified here: some still check only part of the erratum — issue 20), not "
        "machine-checkable (notation, typesetting, wording, unreported experimental choices; reason given), or "
        "pending — checkable, with no claim yet (what a claim would compute is listed).\n\n"
        "| seed | ids | cited | not checkable | pending |\n|---|---|---|---|---|\n";
  for (const auto& [seed, n] : cov.per_seed)
    md << "| " << seed << " | " << n.total << " | " << n.cited << " | " << n.not_checkable << " | " << n.pending << " |\n";
  md << "\n### Not machine-checkable\n\n| id | erratum | reason |\n|---|---|---|\n";
  for (const auto* e : cov.not_checkable)
    md << "| " << e->seed << "/" << e->id << " | " << MarkdownEscape(e->title) << " | " << MarkdownEscape(e->not_checkable)
       << " |\n";
  md << "\n### Pending (checkable; no claim yet)\n\n| id | erratum | what a claim would compute |\n|---|---|---|\n";
  for (const auto* e : cov.pending)
    md << "| " << e->seed << "/" << e->id << " | " << MarkdownEscape(e->title) << " | " << MarkdownEscape(e->proposal)
       << " |\n";
  return md.str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dpfl-proofs: machine-checks every claim of the five papers with the exact reference"};
  std::string seed, claim_id;
  bool quick = false, json = false, markdown = false, expect = false;
  app.add_option("--seed", seed, "only this paper: 000, 001, 002, 003 or 004")
      ->check(CLI::IsMember({"000", "001", "002", "003", "004"}));
  app.add_option("--claim", claim_id, "only this claim id (e.g. 000/Thm1/eq4)");
  app.add_flag("--quick", quick, "smaller grids and fewer random instances (ctest)");
  auto* json_flag = app.add_flag("--json", json, "JSON output");
  auto* md_flag = app.add_flag("--markdown", markdown, "Markdown report (docs/proofs-report.md)");
  json_flag->excludes(md_flag);
  app.add_flag("--expect", expect,
               "exit 1 if any verdict differs from the catalog's expected verdict (with --flip: or any checker "
               "does not flip)");
  bool flip = false;
  app.add_flag("--flip", flip,
               "also run every non-DEFINITION check with its deliberate perturbation (quick grids) and report "
               "whether the verdict flips (the checkers' own test)");
  bool errata_only = false;
  app.add_flag("--errata", errata_only,
               "print the errata coverage (JSON) without running the checks; with --expect, exit 1 if an id is "
               "neither cited nor classified or a claim cites an unknown id");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    for (char& ch : what)
      if (ch == '\n') ch = ' ';
    std::cerr << "dpfl-proofs: error: " << what << " (see --help)\n";
    return 2;
  }

  const dpfl::proofs::Catalog catalog = dpfl::proofs::FullCatalog();
  const dpfl::proofs::ErrataCoverage coverage = dpfl::proofs::ComputeErrataCoverage(catalog);
  if (errata_only) {
    std::cout << ErrataJson(coverage).dump(2) << "\n";
    for (const std::string& id : coverage.unclassified) std::cerr << "dpfl-proofs: erratum " << id << " is neither cited nor classified\n";
    for (const std::string& id : coverage.unknown_citations) std::cerr << "dpfl-proofs: unknown erratum id " << id << "\n";
    return expect && !(coverage.unclassified.empty() && coverage.unknown_citations.empty()) ? 1 : 0;
  }
  if (!claim_id.empty()) {
    bool found = false;
    for (const Claim& c : catalog) found = found || c.id == claim_id;
    if (!found) {
      std::cerr << "dpfl-proofs: error: --claim: unknown claim id '" << claim_id << "' (see --json for the list)\n";
      return 2;
    }
  }
  dpfl::proofs::CheckOptions options;
  options.quick = quick;
  std::vector<Row> rows;
  const auto start_all = std::chrono::steady_clock::now();
  const std::clock_t cpu_all = std::clock();
  for (const Claim& c : catalog) {
    if (!seed.empty() && c.seed != seed) continue;
    if (!claim_id.empty() && c.id != claim_id) continue;
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const Verdict v = RunCheck(c, options, nullptr);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!json && !markdown)
      std::cerr << c.id << ": " << StatusName(v.status) << " (" << v.instances_checked << " instances, " << secs << " s)\n";
    Row row;
    row.claim = &c;
    row.verdict = v;
    row.seconds = secs;
    row.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    if (flip && c.expected != dpfl::proofs::Status::kDefinition) {
      dpfl::proofs::CheckOptions flipped = options;
      flipped.quick = true;
      flipped.flip = true;
      row.flip_ran = true;
      row.flipped = RunCheck(c, flipped, &row.flip_aborted);
      if (!json && !markdown)
        std::cerr << "  flipped (" << (c.flip.empty() ? "no perturbation defined" : c.flip)
                  << "): " << StatusName(row.flipped.status) << (row.Flips() ? "" : "  <- DOES NOT FLIP") << "\n";
    }
    rows.push_back(row);
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_all).count();
  const double total_cpu = static_cast<double>(std::clock() - cpu_all) / CLOCKS_PER_SEC;

  int mismatches = 0;
  for (const Row& r : rows)
    if (r.verdict.status != r.claim->expected) {
      ++mismatches;
      std::cerr << "dpfl-proofs: " << r.claim->id << " verdict " << StatusName(r.verdict.status) << " but the catalog expects "
                << StatusName(r.claim->expected) << " — " << r.verdict.counterexample << " " << r.verdict.note << "\n";
    }

  int no_flip = 0;
  for (const Row& r : rows)
    if (r.flip_ran && (r.claim->flip.empty() || !r.Flips())) {
      ++no_flip;
      std::cerr << "dpfl-proofs: " << r.claim->id << ": the checker does not flip ("
                << (r.claim->flip.empty() ? "no perturbation defined"
                                          : r.claim->flip + " still gives " + StatusName(r.flipped.status) +
                                                (r.flip_aborted ? " (aborted: " + r.flipped.note + ")" : ""))
                << ")\n";
    }

  if (json) {
    nlohmann::json out;
    out["claims"] = nlohmann::json::array();
    for (const Row& r : rows) {
      // Erratum ids repeat across the five specs, so JSON qualifies them with the seed.
      std::vector<std::string> errata;
      for (const std::string& e : r.claim->errata) errata.push_back(r.claim->seed + "/" + e);
      out["claims"].push_back({{"id", r.claim->id},
                               {"seed", r.claim->seed},
                               {"statement", r.claim->statement},
                               {"spec_ref", r.claim->spec_ref},
                               {"errata", errata},
                               {"status", StatusName(r.verdict.status)},
                               {"expected", StatusName(r.claim->expected)},
                               {"instances_checked", r.verdict.instances_checked},
                               {"counterexample", r.verdict.counterexample},
                               {"note", r.verdict.note},
                               {"seconds", r.seconds},
                               {"cpu_seconds", r.cpu_seconds}});
      if (r.flip_ran)
        out["claims"].back()["flip"] = {{"perturbation", r.claim->flip},
                                        {"status", StatusName(r.flipped.status)},
                                        {"counterexample", r.flipped.counterexample},
                                        {"flips", r.Flips()}};
    }
    out["quick"] = quick;
    out["seconds"] = total;
    out["cpu_seconds"] = total_cpu;
    out["machine"] = MachineDescription();
    out.update(ErrataJson(coverage));
    std::cout << out.dump(2) << "\n";
  } else if (markdown) {
    std::ostringstream md;
    md << "# Proofs report\n\nGenerated by `dpfl-proofs --markdown" << (quick ? " --quick" : "")
       << "` (do not edit by hand). Every claim of the five papers, checked by the exact reference: "
          "rationals where the math is rational, MPFI/MPFR enclosures otherwise; inequalities are decided "
          "exactly, never with a tolerance.\n\n"
          "Verdicts: **PASS** holds on every instance; **FAIL** a counterexample was found (smallest in the "
          "enumeration order, exact); **PASS_CORRECTED** fails as printed, holds in the spec's corrected form; "
          "**PASS_LOOSE** holds, but the printed bound is looser than the truth (reported beside it); "
          "**INCONCLUSIVE** an asymptotic claim, with what was checked and the trend; **DEFINITION** a "
          "definition or identity, reported and not counted as a check.\n\n";
    std::map<std::string, int> counts;
    for (const Row& r : rows) ++counts[StatusName(r.verdict.status)];
    md << "Summary: " << rows.size() << " claims";
    for (const auto& [name, n] : counts) md << ", " << n << " " << name;
    md << "; " << static_cast<int>(total_cpu + 0.5) << " s of CPU time (one thread) on " << MachineDescription()
       << ".\n";
    std::string current;
    for (const Row& r : rows) {
      if (r.claim->seed != current) {
        current = r.claim->seed;
        md << "\n## " << SeedTitle(current) << "\n\n| id | statement | spec | errata | verdict | instances | "
              "counterexample / note |\n|---|---|---|---|---|---|---|\n";
      }
      std::string errata;
      for (const std::string& e : r.claim->errata) errata += (errata.empty() ? "" : ", ") + e;
      std::string detail = r.verdict.counterexample.empty() ? r.verdict.note
                                                            : "**" + r.verdict.counterexample + "** — " + r.verdict.note;
      md << "| `" << r.claim->id << "` | " << MarkdownEscape(r.claim->statement) << " | " << r.claim->spec_ref << " | "
         << errata << " | " << StatusName(r.verdict.status) << " | " << r.verdict.instances_checked << " | "
         << MarkdownEscape(detail) << " |\n";
    }
    if (flip) {
      md << "\n## Checkers with teeth (flip table)\n\nEvery checker that is not a DEFINITION, run again (`--flip`, "
            "quick grids) on a deliberately wrong formula or a perturbed instance: its verdict must change. "
         << std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.Flips() && !r.claim->flip.empty(); })
         << " of " << std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.flip_ran; })
         << " checkers flip (DEFINITION rows are not run).\n\n| id | verdict | perturbation | verdict perturbed | "
            "flips |\n|---|---|---|---|---|\n";
      for (const Row& r : rows) {
        if (!r.flip_ran) continue;
        md << "| `" << r.claim->id << "` | " << StatusName(r.verdict.status) << " | " << MarkdownEscape(r.claim->flip)
           << " | " << StatusName(r.flipped.status) << " | " << (r.Flips() ? "yes" : "**no**") << " |\n";
      }
    }
    md << ErrataMarkdown(coverage);
    std::cout << md.str();
  } else {
    std::cerr << rows.size() << " claims in " << total << " s\n";
  }
  return (expect && (mismatches > 0 || no_flip > 0)) ? 1 : 0;
}
