// dpfl::ref — Laplace mechanism (see laplace.hpp).
#include "dpfl/ref/laplace.hpp"

namespace dpfl::ref {

Rational LaplacePureEpsilon(const Rational& b, const Rational& sensitivity) {
  ValidatePositive(b, "b");
  ValidatePositive(sensitivity, "sensitivity");
  return sensitivity / b;
}

Enclosure LaplaceRdpEnclosure(const Rational& b, const Rational& order, const Rational& sensitivity,
                              mpfr_prec_t prec) {
  ValidatePositive(b, "b");
  ValidatePositive(sensitivity, "sensitivity");
  if (!(order > 1)) throw InvalidArgument("order", "must be > 1, got " + EchoValue(order));
  const Rational inv_lambda = sensitivity / b;  // 1/λ
  const Rational& a = order;
  const Enclosure inner = Rational(a / (2 * a - 1)) * ExpQ(prec, Rational((a - 1) * inv_lambda)) +
                          Rational((a - 1) / (2 * a - 1)) * ExpQ(prec, Rational(-a * inv_lambda));
  return Log(inner) / Rational(a - 1);
}

Interval LaplaceRdp(const Rational& b, const Rational& order, const Rational& sensitivity, int precision_bits) {
  ValidatePrecision(precision_bits);
  return ToInterval(LaplaceRdpEnclosure(b, order, sensitivity, precision_bits));
}

Interval LaplaceKl(const Rational& b, const Rational& sensitivity, int precision_bits) {
  ValidatePrecision(precision_bits);
  ValidatePositive(b, "b");
  ValidatePositive(sensitivity, "sensitivity");
  const Rational inv_lambda = sensitivity / b;
  return ToInterval(Expm1(Enclosure(precision_bits, Rational(-inv_lambda))) + inv_lambda);
}

}  // namespace dpfl::ref
