// dpfl._dpfl.check — dpfl::check::RunCheck on a Python callable (dpfl/check.py wraps it).
// The callable gets (inputs: list[float], runs: int) and returns `runs` rows: a sequence of
// numbers (one output per run) or of sequences, or a numpy array of shape (runs,) or (runs, k).
// Anything else, or an exception it raises, is a protocol error of that request (exit 2);
// KeyboardInterrupt and SystemExit propagate.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "py_bindings.hpp"

namespace py = pybind11;

namespace dpfl::python {
namespace {

std::vector<std::vector<double>> Rows(const py::handle& result, std::uint64_t runs, int arity) {
  std::vector<std::vector<double>> rows;
  if (py::isinstance<py::array>(result)) {
    const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(result);
    if (!a) throw check::ProtocolError("the callable returned an array that is not numeric");
    const bool flat = a.ndim() == 1 && arity == 1;
    if (!(flat || (a.ndim() == 2 && a.shape(1) == arity)))
      throw check::ProtocolError("the callable returned an array of the wrong shape (expected (" + std::to_string(runs) +
                                 (arity == 1 ? ",) or (" + std::to_string(runs) + ", 1)" : ", " + std::to_string(arity) + ")") +
                                 ")");
    const double* p = a.data();
    for (py::ssize_t i = 0; i < a.shape(0); ++i) rows.emplace_back(p + i * arity, p + (i + 1) * arity);
    return rows;
  }
  if (!py::isinstance<py::sequence>(result) && !py::isinstance<py::iterable>(result))
    throw check::ProtocolError("the callable returned " + std::string(py::str(py::type::handle_of(result))) +
                               ", not a sequence of runs");
  for (const py::handle row : py::iter(result)) {
    std::vector<double> values;
    if (py::isinstance<py::float_>(row) || py::isinstance<py::int_>(row) || PyNumber_Check(row.ptr())) {
      values.push_back(py::cast<double>(row));
    } else {
      for (const py::handle v : py::iter(row)) values.push_back(py::cast<double>(v));
    }
    rows.push_back(std::move(values));
    if (rows.size() > runs) break;  // the engine names the count
  }
  return rows;
}

py::dict Run(const std::string& mechanism, const std::map<std::string, std::string>& params, py::function fn,
             double alpha, std::uint64_t samples, std::uint64_t seed, double budget_seconds, double tolerance,
             int search_stages, int random_inputs) {
  check::CheckOptions o;
  o.alpha = alpha;
  o.samples = samples;
  o.seed = seed;
  o.budget_seconds = budget_seconds;
  o.tolerance = tolerance;
  o.search_stages = search_stages;
  o.random_inputs = random_inputs;
  const int arity = check::MechanismArity(mechanism, params).second;
  std::uint64_t request = 0;
  const check::Sampler sampler = [&](std::span<const double> x, std::uint64_t runs) {
    ++request;
    const std::string where = "request " + std::to_string(request);
    try {
      const py::object result = fn(std::vector<double>(x.begin(), x.end()), runs);
      return Rows(result, runs, arity);
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_KeyboardInterrupt) || e.matches(PyExc_SystemExit)) throw;
      throw check::ProtocolError(where + ": the callable raised " + std::string(e.what()));
    } catch (const py::cast_error& e) {
      throw check::ProtocolError(where + ": an answer is not a number (" + std::string(e.what()) + ")");
    } catch (const check::ProtocolError& e) {
      throw check::ProtocolError(where + ": " + e.what());
    }
  };
  const check::CheckReport r = check::RunCheck(mechanism, params, sampler, o);
  py::dict out;
  out["json"] = check::ReportJson(r);
  out["text"] = check::ReportText(r);
  out["junit"] = check::ReportJUnit(r);
  out["exit_code"] = r.ExitCode();
  return out;
}

}  // namespace

void BindCheck(py::module_ m) {
  m.def("mechanisms", &check::MechanismNames, "the mechanisms dpfl check knows");
  m.def("run", &Run, py::arg("mechanism"), py::arg("params"), py::arg("fn"), py::arg("alpha"), py::arg("samples"),
        py::arg("seed"), py::arg("budget_seconds"), py::arg("tolerance"), py::arg("search_stages"),
        py::arg("random_inputs"), "RunCheck on a callable; returns the report as json/text/junit and the exit code");
}

}  // namespace dpfl::python
