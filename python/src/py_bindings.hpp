// The binding functions of dpfl._dpfl, one per submodule (module.cpp calls them).
#pragma once

#include <pybind11/pybind11.h>

namespace dpfl::python {
void BindCheck(pybind11::module_ m);
void BindAccounting(pybind11::module_ m);
void BindQuantizers(pybind11::module_ m);
void BindCertificate(pybind11::module_ m);
}  // namespace dpfl::python
