// dpfl-proofs — catalog plumbing (see claims.hpp).
#include "claims.hpp"

namespace dpfl::proofs {

const char* StatusName(Status s) {
  switch (s) {
    case Status::kPass: return "PASS";
    case Status::kFail: return "FAIL";
    case Status::kPassCorrected: return "PASS_CORRECTED";
    case Status::kInconclusive: return "INCONCLUSIVE";
    case Status::kPassLoose: return "PASS_LOOSE";
    case Status::kDefinition: return "DEFINITION";
  }
  return "?";
}

Verdict Search::AsVerdict(const std::string& note) const {
  Verdict v;
  v.status = Violated() ? Status::kFail : Status::kPass;
  v.instances_checked = instances_;
  v.counterexample = counterexample_;
  v.note = note;
  if (Violated()) v.note += " (" + std::to_string(violations_) + " violating instances)";
  return v;
}

Verdict CompareVariants(const Search& as_printed, const Search& corrected, const std::string& note) {
  Verdict v;
  v.instances_checked = as_printed.instances() + corrected.instances();
  if (corrected.Violated()) {
    v.status = Status::kFail;
    v.counterexample = "corrected form fails: " + corrected.counterexample();
  } else if (as_printed.Violated()) {
    v.status = Status::kPassCorrected;
    v.counterexample = "as printed: " + as_printed.counterexample();
  } else {
    v.status = Status::kPass;
  }
  v.note = note + " (as printed: " + std::to_string(as_printed.violations()) + " of " +
           std::to_string(as_printed.instances()) + " instances violate; corrected: " +
           std::to_string(corrected.violations()) + " of " + std::to_string(corrected.instances()) + ")";
  return v;
}

Catalog FullCatalog() {
  Catalog c;
  AddSeed000Claims(c);
  AddSeed000CentralClaims(c);
  AddSeed000ErrataClaims(c);
  AddSeed000DropoutClaims(c);
  AddSeed001Claims(c);
  AddSeed001ErrataClaims(c);
  AddSeed001ResultsClaims(c);
  AddSeed002Claims(c);
  AddSeed002LawsClaims(c);
  AddSeed002TablesClaims(c);
  AddSeed003Claims(c);
  AddSeed003ExperimentClaims(c);
  AddSeed004Claims(c);
  AddSeed004ErrataClaims(c);
  AddSeed004LemmasClaims(c);
  return c;
}

}  // namespace dpfl::proofs
