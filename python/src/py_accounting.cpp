// dpfl._dpfl.accounting — dpfl::ref::pld::PldAccountant (reference/include/dpfl/ref/pld_accountant.hpp)
// for dpfl/accounting.py. Events cross as nested tuples (kind, numbers…, inner events), every
// number as a decimal string read exactly (dpfl::ref::ParseRational: the Python side passes
// repr(float) or the user's string). Answers cross as the enclosure's ends rounded outward to
// double (lo down, hi up), so the upper end stays a guarantee; +∞ is float('inf').
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
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

// The double nearest to q in the given direction (q itself when it is a double). Beyond the
// doubles' range the upper end is +∞ and the lower end the largest finite double (both still
// bounds); a Rational is never built from a non-finite double (GMP would abort).
double Outward(const Rational& q, bool up) {
  constexpr double kMax = std::numeric_limits<double>::max();
  if (q > Rational(kMax)) return up ? std::numeric_limits<double>::infinity() : kMax;
  if (q < Rational(-kMax)) return up ? -kMax : -std::numeric_limits<double>::infinity();
  double d = q.convert_to<double>();
  if (up && Rational(d) < q) d = std::nextafter(d, std::numeric_limits<double>::infinity());
  if (!up && Rational(d) > q) d = std::nextafter(d, -std::numeric_limits<double>::infinity());
  return d;
}

// The CLI's cap (dpfl-ref pld --compositions ∈ [1, 1e9]) on the compositions one accountant holds:
// each count, and the product of nested self-compositions, and their total.
constexpr std::uint64_t kMaxCompositions = 1000000000;

// A count argument: a Python int in [1, 1e9] (InvalidArgument otherwise, never pybind11's cast error).
std::uint64_t Count(const py::handle& h, const std::string& name) {
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr())) throw InvalidArgument(name, "must be an integer");
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow != 0 || v < 1 || static_cast<std::uint64_t>(v) > kMaxCompositions)
    throw InvalidArgument(name, "must be an integer in [1, 1e9] (as dpfl-ref pld --compositions), got " +
                                    py::cast<std::string>(py::str(h)));
  return static_cast<std::uint64_t>(v);
}

// A sensitivity of a discrete event: a Python int in [1, 2^31).
long Sensitivity(const py::handle& h) {
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr())) throw InvalidArgument("sensitivity", "must be an integer");
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow != 0 || v < 1 || v >= (1LL << 31))
    throw InvalidArgument("sensitivity", "must be an integer in [1, 2^31), got " + py::cast<std::string>(py::str(h)));
  return static_cast<long>(v);
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
  if (kind == "discrete_gaussian") return need(3), pld::DpEvent::DiscreteGaussian(Exact(t[1], "sigma2"), Sensitivity(t[2]));
  if (kind == "discrete_laplace") return need(3), pld::DpEvent::DiscreteLaplace(Exact(t[1], "t"), Sensitivity(t[2]));
  if (kind == "randomized_response") return need(2), pld::DpEvent::RandomizedResponse(Exact(t[1], "p"));
  if (kind == "poisson_sampled") return need(3), pld::DpEvent::PoissonSampled(Exact(t[1], "sampling_probability"), Event(t[2]));
  if (kind == "self_composed") {
    need(3);
    return pld::DpEvent::SelfComposed(Event(t[1]), Count(t[2], "count"));
  }
  if (kind == "composed") {
    need(2);
    std::vector<pld::DpEvent> events;
    for (const py::handle e : py::iter(t[1])) events.push_back(Event(e));
    return pld::DpEvent::Composed(std::move(events));
  }
  throw InvalidArgument("event", "unknown event kind '" + kind + "'");
}

// The compositions of the base mechanisms an event stands for (self-compositions multiply, a
// composition adds: DpEvent::Steps, saturating), capped just above the limit.
std::uint64_t EventCompositions(const pld::DpEvent& e) { return std::min<std::uint64_t>(e.Steps(), kMaxCompositions + 1); }

class Accountant {
 public:
  explicit Accountant(const std::string& relative_width) {
    pld::AccountantOptions o;
    o.relative_width = ref::ParseRational(relative_width, "relative_width");
    if (!(o.relative_width > 0 && o.relative_width < 1)) throw InvalidArgument("relative_width", "must be in (0, 1)");
    acc_ = pld::PldAccountant(o);
  }
  void Compose(const py::handle& event, const py::handle& count) {
    const std::uint64_t k = Count(count, "count");
    const pld::DpEvent e = Event(event);
    const std::uint64_t n = EventCompositions(e);
    const std::uint64_t added = n > kMaxCompositions / k ? kMaxCompositions + 1 : n * k;
    if (added > kMaxCompositions - compositions_)
      throw InvalidArgument("count", "an accountant holds at most 1e9 compositions (as dpfl-ref pld --compositions); "
                                     "this one holds " + std::to_string(compositions_) + " and the event adds " +
                                     (added > kMaxCompositions ? "more than 1e9" : std::to_string(added)));
    acc_.Compose(e, k);
    compositions_ += added;
  }
  std::uint64_t Compositions() const { return compositions_; }
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
  std::uint64_t compositions_ = 0;
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
    if (count < 1 || static_cast<std::uint64_t>(count) > kMaxCompositions)
      throw InvalidArgument("count", "must be an integer in [1, 1e9], got " + std::to_string(count));
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
      .def("events", &Accountant::Events)
      .def("compositions", &Accountant::Compositions);
}

}  // namespace dpfl::python
