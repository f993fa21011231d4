// The three forms of a `dpfl check` report (conformance.hpp): text for people, JSON for machines
// (schema in docs/check.md), JUnit XML with one testcase per check for CI systems.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "conformance.hpp"
#include "dpfl/format.hpp"

namespace dpfl::check {
namespace {

std::string InputText(const std::vector<double>& x) {
  std::string s;
  for (double v : x) s += (s.empty() ? "" : " ") + ShortestDouble(v);
  return s;
}

std::string Sci(double v) {
  std::ostringstream o;
  o.precision(3);
  o << v;
  return o.str();
}

struct PowerSummary {
  double tv = 0, bias = 0;
};
PowerSummary WorstPower(const CheckReport& r) {
  PowerSummary s;
  for (const InputPower& p : r.power) {
    s.tv = std::max(s.tv, p.tv);
    if (std::isfinite(p.bias)) s.bias = std::max(s.bias, p.bias);
  }
  return s;
}

std::string Verdict(const CheckReport& r) {
  return r.protocol_error ? "protocol error" : (r.Conformant() ? "conformant" : "NONCONFORMANT");
}

std::string XmlEscape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    switch (ch) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default:
        o += (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t') ? '?' : ch;
    }
  }
  return o;
}

}  // namespace

std::string ReportText(const CheckReport& r) {
  std::ostringstream o;
  o << "dpfl check " << r.mechanism;
  for (const auto& [k, v] : r.parameters) o << " --" << k << " " << v;
  o << "\n";
  const std::size_t rejected = static_cast<std::size_t>(
      std::count_if(r.checks.begin(), r.checks.end(), [](const CheckResult& c) { return c.rejected; }));
  o << "verdict: " << Verdict(r) << " (" << rejected << " of " << r.checks.size() << " checks rejected at family-wise alpha "
    << Sci(r.options.alpha) << ", weighted Holm)\n";
  if (r.protocol_error) o << "protocol error: " << *r.protocol_error << "\n";
  o << "runs: " << r.total_runs << " in " << r.requests << " requests (" << r.runs_per_input << " per input), "
    << r.stages_run << " search stage(s), " << Sci(r.seconds) << " s\n";
  const PowerSummary p = WorstPower(r);
  if (r.power.empty()) o << "power: no input was completed\n";
  else o << "power: at every input tested, a law at total variation >= " << Sci(p.tv)
    << " from the exact one (on the test's cells), or a bias >= " << Sci(p.bias)
    << " in the first output, is detected with probability >= 0.99\n";
  for (const CheckResult& c : r.checks) {
    if (!c.rejected) continue;
    o << "  REJECTED " << c.name << " [" << c.phase << "]";
    if (!c.input.empty()) o << " at input " << InputText(c.input);
    o << ": p = " << Sci(c.p_value) << "; " << c.detail << "\n";
  }
  return o.str();
}

std::string ReportJson(const CheckReport& r) {
  using nlohmann::json;
  json checks = json::array();
  for (const CheckResult& c : r.checks) {
    json j = {{"name", c.name},  {"phase", c.phase}, {"input", c.input},       {"p_value", c.p_value},
              {"weight", c.weight}, {"rejected", c.rejected}, {"detail", c.detail}};
    j["statistic"] = std::isfinite(c.statistic) ? json(c.statistic) : json("inf");
    checks.push_back(std::move(j));
  }
  json power = json::array();
  for (const InputPower& p : r.power)
    power.push_back({{"input", p.input}, {"runs", p.runs}, {"tv", p.tv}, {"bias", std::isfinite(p.bias) ? p.bias : -1}});
  const PowerSummary worst = WorstPower(r);
  json out = {{"command", "check"},
              {"mechanism", r.mechanism},
              {"parameters", r.parameters},
              {"verdict", Verdict(r)},
              {"conformant", r.Conformant()},
              {"exit_code", r.ExitCode()},
              {"alpha", r.options.alpha},
              {"seed", r.options.seed},
              {"tolerance", r.options.tolerance},
              {"budget_seconds", r.options.budget_seconds},
              {"runs_per_input", r.runs_per_input},
              {"total_runs", r.total_runs},
              {"requests", r.requests},
              {"search_stages_run", r.stages_run},
              {"seconds", r.seconds},
              {"rejected", std::count_if(r.checks.begin(), r.checks.end(), [](const CheckResult& c) { return c.rejected; })},
              {"power", {{"probability", 0.99}, {"worst_tv", worst.tv}, {"worst_bias", worst.bias}, {"per_input", power}}},
              {"checks", checks}};
  out["protocol_error"] = r.protocol_error ? json(*r.protocol_error) : json(nullptr);
  return out.dump(2) + "\n";
}

std::string ReportJUnit(const CheckReport& r) {
  std::ostringstream o;
  const std::size_t failures = static_cast<std::size_t>(
      std::count_if(r.checks.begin(), r.checks.end(), [](const CheckResult& c) { return c.rejected; }));
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o << "<testsuite name=\"dpfl check " << XmlEscape(r.mechanism) << "\" tests=\"" << r.checks.size() + 1
    << "\" failures=\"" << failures << "\" errors=\"" << (r.protocol_error ? 1 : 0) << "\" time=\"" << r.seconds
    << "\">\n";
  o << "  <testcase classname=\"dpfl.check." << XmlEscape(r.mechanism) << "\" name=\"protocol\">";
  if (r.protocol_error) o << "<error message=\"" << XmlEscape(*r.protocol_error) << "\"/>";
  o << "</testcase>\n";
  for (const CheckResult& c : r.checks) {
    const std::string name = c.name + " [" + c.phase + "]" + (c.input.empty() ? "" : " x=" + InputText(c.input));
    o << "  <testcase classname=\"dpfl.check." << XmlEscape(r.mechanism) << "\" name=\"" << XmlEscape(name) << "\">";
    if (c.rejected)
      o << "<failure message=\"" << XmlEscape("p = " + Sci(c.p_value) + ": " + c.detail) << "\"/>";
    o << "</testcase>\n";
  }
  o << "</testsuite>\n";
  return o.str();
}

}  // namespace dpfl::check
