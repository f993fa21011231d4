// dpfl::ref — RDP accountant (see accountant.hpp).
#include "dpfl/ref/accountant.hpp"

namespace dpfl::ref {

Conversion ParseConversion(const std::string& text, const std::string& flag) {
  if (text == "classic") return Conversion::kClassic;
  if (text == "improved") return Conversion::kImproved;
  throw InvalidArgument(flag, "must be 'classic' or 'improved', got '" + text + "'");
}

std::vector<Rational> DefaultOrders() {
  std::vector<Rational> out;
  for (int i = 5; i <= 40; ++i) out.emplace_back(i, 4);  // 1.25 … 10
  for (int a = 11; a <= 64; ++a) out.emplace_back(a);
  return out;
}

Enclosure RdpToEpsilon(const Enclosure& rdp, const Rational& order, const Rational& delta, Conversion conversion) {
  if (!(order > 1)) throw InvalidArgument("order", "must be > 1, got " + EchoValue(order));
  ValidateOpenUnit(delta, "delta");
  const mpfr_prec_t prec = rdp.prec();
  const Rational& a = order;
  Enclosure eps = conversion == Conversion::kClassic
                      ? rdp + LogQ(prec, Rational(1 / delta)) / Rational(a - 1)
                      : rdp + LogQ(prec, Rational((a - 1) / a)) -
                            (LogQ(prec, delta) + LogQ(prec, a)) / Rational(a - 1);
  return Max(Enclosure(prec, 0L), eps);
}

AccountantResult Account(const std::function<Enclosure(const Rational&)>& rdp_per_step, const Rational& steps,
                         const Rational& delta, const std::vector<Rational>& orders, Conversion conversion) {
  ValidatePositiveInteger(steps, "steps");
  ValidateOpenUnit(delta, "delta");
  if (orders.empty()) throw InvalidArgument("orders", "at least one order is required");
  for (const Rational& a : orders)
    if (!(a > 1)) throw InvalidArgument("orders", "every order must be > 1, got " + EchoValue(a));
  bool have = false;
  AccountantResult best;
  for (const Rational& a : orders) {
    const Enclosure total = steps * rdp_per_step(a);  // composition: additive
    const Interval eps = ToInterval(RdpToEpsilon(total, a, delta, conversion));
    if (!have || eps.hi() < best.epsilon.hi()) {
      best.epsilon = eps;
      best.order = a;
      best.rdp_total = ToInterval(total);
      have = true;
    }
  }
  return best;
}

AccountantResult SampledGaussianAccountant(const Rational& q, const Rational& sigma, const Rational& steps,
                                           const Rational& delta, const std::vector<Rational>& orders,
                                           Conversion conversion, const SgmOptions& options) {
  return Account([&](const Rational& a) { return SampledGaussianRdpEnclosure(q, sigma, a, options); }, steps, delta,
                 orders, conversion);
}

}  // namespace dpfl::ref
