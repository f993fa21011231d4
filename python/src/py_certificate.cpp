// dpfl._dpfl.certificate — dpfl verify-certificate's checks in process (production/certify):
// the JSON parse with its depth limit, VerifyCertificate (every privacy number recomputed with
// the reference, file hashes, monitor statistics) and CheckAuthenticity (the Ed25519 signature).
// The replay re-runs training with LibTorch's C++ library, which this module does not link:
// dpfl/certificate.py runs `dpfl verify-certificate --replay` for it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "certificate.hpp"
#include "py_bindings.hpp"

namespace py = pybind11;

namespace dpfl::python {
namespace {

py::dict Verify(const std::string& bytes, const std::string& name, const std::string& directory,
                const std::optional<std::string>& signature_text, const std::optional<std::string>& public_key_text,
                bool recompute_tight_central) {
  const nlohmann::json cert = certify::ParseCertificateText(bytes, name, "path");
  std::optional<std::array<std::uint8_t, 32>> key;
  if (public_key_text) key = certify::ParsePublicKey(*public_key_text, "public_key");
  certify::VerifyOptions options;
  options.directory = directory;
  options.recompute_tight_central = recompute_tight_central;
  certify::Verification v;
  {
    py::gil_scoped_release release;
    v = certify::VerifyCertificate(cert, options);
  }
  const certify::Authenticity a = certify::CheckAuthenticity(bytes, cert, signature_text, name + ".sig", key);
  py::dict out;
  out["ok"] = v.ok && a.problems.empty();
  std::vector<std::string> problems = v.problems;
  problems.insert(problems.end(), a.problems.begin(), a.problems.end());
  out["problems"] = problems;
  out["checked"] = v.checked;
  out["not_checked"] = v.not_checked;
  out["authenticity"] = a.status;
  out["certificate"] = cert.dump();
  return out;
}

}  // namespace

void BindCertificate(py::module_ m) {
  m.def("verify", &Verify, py::arg("bytes"), py::arg("name"), py::arg("directory"), py::arg("signature_text"),
        py::arg("public_key_text"), py::arg("recompute_tight_central") = true);
}

}  // namespace dpfl::python
