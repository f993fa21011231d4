// The parameters of one `dpfl check` mechanism (flag name without dashes → text), read exactly
// (dpfl::ref::ParseRational: "0.1" is 1/10) once each; missing, malformed or unknown ones are an
// InvalidArgument naming the flag. Internal to dpfl_check.
#pragma once

#include <map>
#include <set>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/ref/numbers.hpp"

namespace dpfl::check {

class Params {
 public:
  Params(std::string mechanism, const std::map<std::string, std::string>& p) : mechanism_(std::move(mechanism)), p_(p) {}
  bool Has(const std::string& name) const { return p_.count(name) > 0; }
  ref::Rational Exact(const std::string& name) {
    used_.insert(name);
    const auto it = p_.find(name);
    if (it == p_.end()) throw InvalidArgument("--" + name, "required by dpfl check " + mechanism_);
    return ref::ParseRational(it->second, "--" + name);
  }
  ref::Rational Exact(const std::string& name, const std::string& fallback) {
    if (!Has(name)) {
      used_.insert(name);
      return ref::ParseRational(fallback, "--" + name);
    }
    return Exact(name);
  }
  long Integer(const std::string& name, long lo, long hi, const std::string& fallback = "") {
    const ref::Rational q = fallback.empty() ? Exact(name) : Exact(name, fallback);
    if (boost::multiprecision::denominator(q) != 1 || q < lo || q > hi)
      throw InvalidArgument("--" + name, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                             "], got '" + Text(name) + "'");
    return static_cast<long>(boost::multiprecision::numerator(q).convert_to<long long>());
  }
  void Positive(const std::string& name, const ref::Rational& q) const {
    if (!(q > 0)) throw InvalidArgument("--" + name, "must be > 0, got '" + Text(name) + "'");
  }
  void RejectUnused() const {
    for (const auto& [k, v] : p_)
      if (!used_.count(k)) throw InvalidArgument("--" + k, "is not a parameter of dpfl check " + mechanism_);
  }

 private:
  std::string Text(const std::string& name) const {
    const auto it = p_.find(name);
    return it == p_.end() ? "(default)" : it->second;
  }
  std::string mechanism_;
  std::map<std::string, std::string> p_;
  std::set<std::string> used_;
};

}  // namespace dpfl::check
