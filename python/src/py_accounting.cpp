// dpfl._dpfl.accounting — dpfl::ref::pld::PldAccountant (reference/include/dpfl/ref/pld_accountant.hpp)
// for dpfl/accounting.py. Events cross as nested tuples (kind, numbers…, inner events), every
// number as a decimal string read exactly (dpfl::ref::ParseRational: the Python side passes
// repr(float) or the user's string). Answers cross as the enclosure's ends rounded outward to
// double (lo down, hi up), so the upper end stays a guarantee; +∞ is float('inf').
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>
#include <string>
#include <utility>

#include "dpfl/error.hpp"
#include "dpfl/ref/accountant.hpp"
#include "dpfl/ref/pld_accountant.hpp"
#include "dpfl/ref/sampled_gaussian.hpp"
#include "py_bindings.hpp"

namespace py = pybind11;

namespace dpfl::python {
namespace {

using ref::Rational;
namespace pld = ref::pld;

Rational Exact(const py::handle& h, const std::string& name) { return ref::ParseRational(py::cast<std::string>(h), name); }

// The double nearest to q in the given direction (q itself when it is a double).
double Outward(const Rational& q, bool up) {
  double d = q.convert_to<double>();
  if (up && Rational(d) < q) d = std::nextafter(d, std::numeric_limits<double>::infinity());
  if (!up && Rational(d) > q) d = std::nextafter(d, -std::numeric_limits<double>::infinity());
  return d;
}

pld::DpEvent Event(const py::handle& h) {
  if (!py::isinstance<py::tuple>(h) || py::len(h) < 1) throw InvalidArgument("event", "not an event");
  const py::tuple t = py::reinterpret_borrow<py::tuple>(h);
  const std::string kind = py::cast<std::string>(t[0]);
  const auto need = [&](std::size_t n) {
    if (t.size() != n) throw InvalidArgument("event", kind + ": expected " + std::to_string(n - 1) + " fields");
  };
  if (kind == "gaussian") return need(3), pld::DpEvent::Gaussian(Exact(t[1], "noise_multiplier"), Exact(t[2], "sensitivity"));
  if (kind == "laplace") return need(3), pld::DpEvent::Laplace(Exact(t[1], "scale"), Exact(t[2], "sensitivity"));
  if (kind == "discrete_gaussian") return need(3), pld::DpEvent::DiscreteGaussian(Exact(t[1], "sigma2"), py::cast<long>(t[2]));
  if (kind == "discrete_laplace") return need(3), pld::DpEvent::DiscreteLaplace(Exact(t[1], "t"), py::cast<long>(t[2]));
  if (kind == "randomized_response") return need(2), pld::DpEvent::RandomizedResponse(Exact(t[1], "p"));
  if (kind == "poisson_sampled") return need(3), pld::DpEvent::PoissonSampled(Exact(t[1], "sampling_probability"), Event(t[2]));
  if (kind == "self_composed") {
    need(3);
    const long long count = py::cast<long long>(t[2]);
    if (count < 1) throw InvalidArgument("count", "must be >= 1");
    return pld::DpEvent::SelfComposed(Event(t[1]), static_cast<std::uint64_t>(count));
  }
  if (kind == "composed") {
    need(2);
    std::vector<pld::DpEvent> events;
    for (const py::handle e : py::iter(t[1])) events.push_back(Event(e));
    return pld::DpEvent::Composed(std::move(events));
  }
  throw InvalidArgument("event", "unknown event kind '" + kind + "'");
}

class Accountant {
 public:
  explicit Accountant(const std::string& relative_width) {
    pld::AccountantOptions o;
    o.relative_width = ref::ParseRational(relative_width, "relative_width");
    if (!(o.relative_width > 0 && o.relative_width < 1)) throw InvalidArgument("relative_width", "must be in (0, 1)");
    acc_ = pld::PldAccountant(o);
  }
  void Compose(const py::handle& event, long long count) {
    if (count < 1) throw InvalidArgument("count", "must be >= 1");
    acc_.Compose(Event(event), static_cast<std::uint64_t>(count));
  }
  std::pair<double, double> EpsilonBounds(const std::string& delta) const {
    const pld::EpsilonBounds b = acc_.GetEpsilonBounds(ref::ParseRational(delta, "delta"));
    const double inf = std::numeric_limits<double>::infinity();
    return {b.lo ? Outward(*b.lo, false) : inf, b.hi ? Outward(*b.hi, true) : inf};
  }
  std::pair<double, double> DeltaBounds(const std::string& epsilon) const {
    const pld::DeltaBounds b = acc_.GetDeltaBounds(ref::ParseRational(epsilon, "epsilon"));
    return {Outward(b.lo, false), Outward(b.hi, true)};
  }
  std::size_t Events() const { return acc_.events().size(); }

 private:
  pld::PldAccountant acc_;
};

// RDP of a composition of Poisson-sampled Gaussians (q = 1: unsampled), each `count` times:
// ρ(α) = Σ count_i ρ_i(α) (Mironov 2017, Prop. 1), then the best order of the reference's
// accountant (improved or classic conversion). Returns (ε_lo, ε_hi, best order).
std::tuple<double, double, double> RdpEpsilon(const std::vector<std::tuple<std::string, std::string, long long>>& parts,
                                             const std::string& delta, const std::string& conversion) {
  struct Part {
    Rational q, sigma, count;
  };
  std::vector<Part> ps;
  for (const auto& [q, sigma, count] : parts) {
    if (count < 1) throw InvalidArgument("count", "must be >= 1");
    ps.push_back({ref::ParseRational(q, "sample_rate"), ref::ParseRational(sigma, "noise_multiplier"), Rational(count)});
  }
  if (ps.empty()) throw InvalidArgument("events", "nothing composed yet");
  const auto rdp = [&ps](const Rational& order) {
    ref::Enclosure total(ref::kDefaultAccountingPrecisionBits, Rational(0));
    for (const Part& p : ps) total = total + ref::SampledGaussianRdpEnclosure(p.q, p.sigma, order) * p.count;
    return total;
  };
  const ref::AccountantResult r = ref::Account(rdp, Rational(1), ref::ParseRational(delta, "delta"), ref::DefaultOrders(),
                                               ref::ParseConversion(conversion, "conversion"));
  return {Outward(r.epsilon.lo(), false), Outward(r.epsilon.hi(), true), r.order.convert_to<double>()};
}

}  // namespace

void BindAccounting(py::module_ m) {
  m.def("rdp_epsilon", &RdpEpsilon, py::arg("parts"), py::arg("delta"), py::arg("conversion"));
  py::class_<Accountant>(m, "PldAccountant")
      .def(py::init<const std::string&>(), py::arg("relative_width"))
      .def("compose", &Accountant::Compose, py::arg("event"), py::arg("count"))
      .def("epsilon_bounds", &Accountant::EpsilonBounds, py::arg("delta"))
      .def("delta_bounds", &Accountant::DeltaBounds, py::arg("epsilon"))
      .def("events", &Accountant::Events);
}

}  // namespace dpfl::python
