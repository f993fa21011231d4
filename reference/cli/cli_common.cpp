// dpfl-ref — shared CLI plumbing (see cli_common.hpp).
#include "cli_common.hpp"

namespace dpfl::cli {

void PrivacyOptions::Register(CLI::App* app) {
  auto* e_opt = app->add_option("--E", E, "E = e^eps > 1, exact rational (e.g. 3, 5/3, 1.5): exact output");
  auto* eps_opt = app->add_option("--eps", eps,
                                  "eps > 0 as a decimal: output is a rigorous enclosure (40 digits + error_bound)");
  e_opt->excludes(eps_opt);
  eps_opt->excludes(e_opt);
  app->add_option("--precision", precision_bits, "MPFR bits used to enclose e^eps (default 256)");
}

Rational PrivacyOptions::ExactE() const {
  if (E.empty() && eps.empty()) throw InvalidArgument("--E", "one of --E or --eps is required");
  Rational value = ParseFlag(E, "--E");
  if (!(value > 1)) throw InvalidArgument("--E", "must satisfy E = e^eps > 1, got " + ref::EchoValue(value));
  return value;
}

Interval PrivacyOptions::EnclosedE() const {
  Rational value = ParseFlag(eps, "--eps");
  if (!(value > 0)) throw InvalidArgument("--eps", "must be > 0, got " + ref::EchoValue(value));
  return ref::ExpEnclosure(value, precision_bits, "--eps");
}

Rational ParseFlag(const std::string& text, const std::string& flag) {
  return ref::ParseRational(text, flag);
}

JsonResult::JsonResult(bool exact, int precision_bits) : exact_(exact), precision_bits_(precision_bits) {}

namespace {
// An upper bound on |decimal(mid) − true| printed with 3 digits, rounded so it stays an
// upper bound: RN_3(1.01·b) ≥ 1.01·b·(1 − 0.005) > b.
std::string BoundString(const Interval& v) {
  Rational mid = v.Mid();
  Rational bound = v.Radius() + ref::DecimalRoundingBound(mid, kDecimalDigits);
  return ref::ToDecimalString(Rational(bound * Rational(101, 100)), 3);
}
}  // namespace

void JsonResult::Put(const std::string& key, const Interval& v) {
  values_[key] = ref::ToDecimalString(v.Mid(), kDecimalDigits);
  errors_[key] = BoundString(v);
}
void JsonResult::Put(const std::string& parent, const std::string& key, const Interval& v) {
  values_[parent][key] = ref::ToDecimalString(v.Mid(), kDecimalDigits);
  errors_[parent][key] = BoundString(v);
}

json JsonResult::Finish() && {
  json out = std::move(values_);
  out["exact"] = exact_;
  if (!exact_) {
    out["precision_bits"] = precision_bits_;
    out["error_bound"] = std::move(errors_);
  }
  return out;
}

}  // namespace dpfl::cli
