// dpfl-proofs — the claims catalog: every proposition, theorem, lemma, algorithmic claim and
// [DERIVED] spec statement of the five papers, each with a check that evaluates it with the exact
// reference (rationals; MPFI/MPFR enclosures where transcendental functions enter).
//
// Verdicts (a finding, not a test result):
//   PASS            holds on every instance checked;
//   FAIL            a counterexample was found (the smallest one, in exact form);
//   PASS_CORRECTED  fails as printed (counterexample reported) and holds in the spec's corrected
//                   form (both are run);
//   PASS_LOOSE      holds as printed, but the printed bound is looser than the truth, which is
//                   reported beside it (a valid but loose bound is not a failure);
//   INCONCLUSIVE    cannot be settled by finite checking (e.g. an asymptotic claim): the note says
//                   what was checked and the observed trend;
//   DEFINITION      the statement is a definition or an identity by construction: reported, not
//                   counted as a check.
//
// Each claim also records the verdict the catalog *expects* (`expected`), written from the spec,
// not from a run: ctest asserts verdict == expected for every claim, so a regression in the
// reference (or a wrong spec statement discovered later) flips a test.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dpfl::proofs {

enum class Status { kPass, kFail, kPassCorrected, kInconclusive, kPassLoose, kDefinition };
const char* StatusName(Status s);

struct Verdict {
  Status status = Status::kPass;
  std::uint64_t instances_checked = 0;
  std::string counterexample;  // exact form; empty when none
  std::string note;            // what was checked, trends, the corrected form used
};

struct CheckOptions {
  bool quick = false;  // smaller grids / fewer random instances (ctest)
  std::uint64_t seed = 20261121;
  // The checker's teeth test (Claim::flip says what it does): the check runs on a deliberately
  // wrong formula or a perturbed instance, and its verdict must then differ from the unflipped
  // one. A checker whose verdict cannot be flipped is a finding (issue 20, "checkers with teeth").
  bool flip = false;
};

struct Claim {
  std::string id;         // e.g. "000/Thm1/eq4"
  std::string seed;       // "000" … "004"
  std::string statement;  // the paper's statement in one line
  std::string spec_ref;   // spec section, e.g. "spec 000 §4.2"
  std::vector<std::string> errata;  // e.g. {"E12"}: ids of this seed's spec (JSON: "000/E12")
  Status expected;        // the verdict the catalog expects (from the spec)
  std::function<Verdict(const CheckOptions&)> check;
  // What CheckOptions::flip perturbs, e.g. "the printed bound multiplied by 999/1000" or "the
  // corrected formula replaced by the printed one"; empty for DEFINITION claims only.
  std::string flip = {};
};

using Catalog = std::vector<Claim>;

void AddSeed000Claims(Catalog& catalog);
void AddSeed000CentralClaims(Catalog& catalog);  // Theorem 3 against the exact central PLD
void AddSeed000ErrataClaims(Catalog& catalog);   // errata no other claim evaluates
void AddSeed000DropoutClaims(Catalog& catalog);
void AddSeed001Claims(Catalog& catalog);
void AddSeed001ErrataClaims(Catalog& catalog);   // errata no other claim evaluates
void AddSeed001ResultsClaims(Catalog& catalog);
void AddSeed002Claims(Catalog& catalog);
void AddSeed002LawsClaims(Catalog& catalog);
void AddSeed002TablesClaims(Catalog& catalog);
void AddSeed003Claims(Catalog& catalog);
void AddSeed003ExperimentClaims(Catalog& catalog);  // Sec. IV-C (ε, δ) pairs, σ as std, Alg. 1 weights
void AddSeed004Claims(Catalog& catalog);
void AddSeed004ErrataClaims(Catalog& catalog);   // errata no other claim evaluates
void AddSeed004LemmasClaims(Catalog& catalog);

Catalog FullCatalog();

// ---- errata coverage (errata_registry.cpp) ---------------------------------------------------
struct ErratumEntry {
  const char* seed;           // "000" … "004"
  const char* id;             // as in the spec, e.g. "E12", "E-P2"
  const char* title;          // a few words
  const char* not_checkable;  // non-empty: why no computation can check it
  const char* proposal;       // checkable and not yet cited: what a claim would compute
};
const std::vector<ErratumEntry>& ErrataRegistry();
const std::vector<ErratumEntry>& ErrataRegistry002To004();  // part of the above, in its own file

struct ErrataCoverage {
  struct Counts {
    int total = 0, cited = 0, not_checkable = 0, pending = 0;
  };
  std::map<std::string, Counts> per_seed;
  std::vector<const ErratumEntry*> not_checkable, pending;
  std::vector<std::string> unclassified;       // neither cited nor classified: a registry gap
  std::vector<std::string> unknown_citations;  // a claim cites an id the registry does not have
};
ErrataCoverage ComputeErrataCoverage(const Catalog& catalog);

// Helpers for checks: accumulate instances and remember the first (smallest) counterexample.
class Search {
 public:
  void Count(std::uint64_t n = 1) { instances_ += n; }
  // Records a violation once: the caller enumerates instances from small to large, so the first
  // one recorded is the smallest in the enumeration order.
  void Violation(const std::string& description) {
    if (counterexample_.empty()) counterexample_ = description;
    ++violations_;
  }
  bool Violated() const { return violations_ > 0; }
  std::uint64_t instances() const { return instances_; }
  std::uint64_t violations() const { return violations_; }
  const std::string& counterexample() const { return counterexample_; }
  Verdict AsVerdict(const std::string& note) const;

 private:
  std::uint64_t instances_ = 0, violations_ = 0;
  std::string counterexample_;
};

// PASS_CORRECTED from two searches (as printed must fail, corrected must pass); otherwise the
// honest verdict: FAIL if the corrected form fails too, PASS if the printed form never failed.
Verdict CompareVariants(const Search& as_printed, const Search& corrected, const std::string& note);

}  // namespace dpfl::proofs
