// dpfl._dpfl — the extension module behind `import dpfl` (docs/python.md). Each submodule's
// bindings live in their own file: py_check.cpp (dpfl.check), py_accounting.cpp
// (dpfl.accounting). Errors: dpfl::InvalidArgument → ValueError with the library's message
// (which names the argument), dpfl::Undecidable → ArithmeticError; nothing crosses as a crash.
#include <pybind11/pybind11.h>

#include "dpfl/error.hpp"
#include "py_bindings.hpp"

#ifndef DPFL_VERSION
#define DPFL_VERSION "unknown"
#endif

PYBIND11_MODULE(_dpfl, m) {
  m.doc() = "dpfl: verified differentially private quantized federated learning (C++ core)";
  m.attr("__version__") = DPFL_VERSION;
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const dpfl::InvalidArgument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const dpfl::Undecidable& e) {
      PyErr_SetString(PyExc_ArithmeticError, e.what());
    }
  });
  dpfl::python::BindCheck(m.def_submodule("check", "the conformance check (docs/check.md)"));
  dpfl::python::BindAccounting(m.def_submodule("accounting", "the PLD accountant with enclosures"));
  dpfl::python::BindCertificate(m.def_submodule("certificate", "verify-certificate in process"));
  dpfl::python::BindQuantizers(m.def_submodule("quantizers", "the production encoders on buffers, no copies"));
}
