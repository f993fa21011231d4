// fuzz_exact_number — the reference's exact number parsers (contract: dpfl/ref/numbers.hpp,
// docs/reference.md "Numbers on the command line"): ParseRational and ParseInt on the raw input
// bytes as text. The ONLY acceptable outcomes are dpfl::InvalidArgument naming the argument, or
// success, after which these invariants must hold:
//   N1  grammar: the text is [+-]digits[.digits][(e|E)[+-]digits] (at least one mantissa digit)
//       or [+-]digits/digits, checked by a recogniser written here; anything else must throw.
//   N2  exact value: for grammatical text small enough to evaluate here (|effective exponent|
//       ≤ 250000), the value computed with GMP's C API directly (mpz_set_str base 10,
//       mpz_ui_pow_ui, mpq_canonicalize) is accepted iff it obeys the size limits (≤ 100000
//       significant digits as written; numerator and denominator in lowest terms ≤ 100000
//       digits each; zero denominators throw), and then equals the parsed value.
//   N3  round trip: ParseRational(ToExactString(x)) == x.
//   N4  printing: ToDecimalString(x, 40) parses back within DecimalRoundingBound(x, 40) of x;
//       it must parse when numerator and denominator have ≤ 50000 digits.
//   N5  ParseInt: accepts exactly -?digits with at most 9 significant digits, with the value of
//       the digits; anything else throws.
// Any other exception, a sanitizer report, a hang or > 2 GB RSS aborts.
#include <gmp.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "dpfl/error.hpp"
#include "dpfl/ref/numbers.hpp"

namespace {

using dpfl::InvalidArgument;
using dpfl::ref::Rational;

constexpr std::size_t kMaxDigits = 100000;  // numbers.cpp's documented limit
constexpr long long kEvaluable = 250000;    // |effective exponent| this oracle evaluates

[[noreturn]] void Fail(const char* what, std::string_view text) {
  std::fprintf(stderr, "fuzz_exact_number: %s (input of %zu bytes: '%.*s')\n", what, text.size(),
               static_cast<int>(text.size() > 200 ? 200 : text.size()), text.data());
  std::abort();
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool AllDigits(std::string_view s) {
  for (char c : s)
    if (!IsDigit(c)) return false;
  return true;
}
std::string_view StripZeros(std::string_view s) {
  while (!s.empty() && s.front() == '0') s.remove_prefix(1);
  return s;
}

// N1: the grammar of numbers.hpp, recognised independently.
struct Parsed {
  bool fraction = false, negative = false;
  std::string_view p, q;                    // fraction
  std::string_view int_part, frac_part;     // decimal mantissa
  std::string_view exp_digits;              // decimal exponent (may be empty: no exponent)
  bool exp_negative = false;
};

std::optional<Parsed> Recognise(std::string_view t) {
  Parsed r;
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
    r.negative = t[0] == '-';
    t.remove_prefix(1);
  }
  if (const auto slash = t.find('/'); slash != std::string_view::npos) {
    r.fraction = true;
    r.p = t.substr(0, slash);
    r.q = t.substr(slash + 1);
    if (r.p.empty() || r.q.empty() || !AllDigits(r.p) || !AllDigits(r.q)) return std::nullopt;
    return r;
  }
  std::string_view mant = t;
  if (const auto e = t.find_first_of("eE"); e != std::string_view::npos) {
    mant = t.substr(0, e);
    std::string_view ex = t.substr(e + 1);
    if (!ex.empty() && (ex[0] == '+' || ex[0] == '-')) {
      r.exp_negative = ex[0] == '-';
      ex.remove_prefix(1);
    }
    if (ex.empty() || !AllDigits(ex)) return std::nullopt;
    r.exp_digits = ex;
  }
  if (const auto dot = mant.find('.'); dot != std::string_view::npos) {
    r.int_part = mant.substr(0, dot);
    r.frac_part = mant.substr(dot + 1);
  } else {
    r.int_part = mant;
  }
  if (r.int_part.empty() && r.frac_part.empty()) return std::nullopt;
  if (!AllDigits(r.int_part) || !AllDigits(r.frac_part)) return std::nullopt;
  return r;
}

struct Mpz {
  mpz_t v;
  Mpz() { mpz_init(v); }
  ~Mpz() { mpz_clear(v); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
};
struct Mpq {
  mpq_t v;
  Mpq() { mpq_init(v); }
  ~Mpq() { mpq_clear(v); }
  Mpq(const Mpq&) = delete;
  Mpq& operator=(const Mpq&) = delete;
};

void SetDigits(mpz_t z, std::string_view digits) {
  const std::string s(StripZeros(digits));
  if (s.empty() || mpz_set_str(z, s.c_str(), 10) != 0) mpz_set_ui(z, 0);
}

// |z| < 10^kMaxDigits.
bool Fits(const mpz_t z) {
  static Mpz limit;
  static bool ready = false;
  if (!ready) {
    mpz_ui_pow_ui(limit.v, 10, kMaxDigits);
    ready = true;
  }
  return mpz_cmpabs(z, limit.v) < 0;
}

enum class Expect { kAccept, kReject, kUnknown };

// N2: the expected outcome and, for kAccept, the value.
Expect Oracle(const Parsed& r, Mpq& value) {
  if (r.fraction) {
    if (StripZeros(r.q).empty()) return Expect::kReject;  // zero denominator
    if (StripZeros(r.p).size() > kMaxDigits || StripZeros(r.q).size() > kMaxDigits) return Expect::kReject;
    SetDigits(mpq_numref(value.v), r.p);
    SetDigits(mpq_denref(value.v), r.q);
    mpq_canonicalize(value.v);
    if (r.negative) mpq_neg(value.v, value.v);
    return Expect::kAccept;
  }
  const std::string digits = std::string(r.int_part) + std::string(r.frac_part);
  const std::string_view sig = StripZeros(digits);
  if (sig.empty()) {  // zero, whatever the exponent
    mpq_set_ui(value.v, 0, 1);
    return Expect::kAccept;
  }
  if (sig.size() > kMaxDigits) return Expect::kReject;
  const std::string_view exp = StripZeros(r.exp_digits);
  if (exp.size() > 7) return Expect::kUnknown;
  long long x = exp.empty() ? 0 : std::stoll(std::string(exp));
  if (r.exp_negative) x = -x;
  x -= static_cast<long long>(r.frac_part.size());
  if (x > kEvaluable || x < -kEvaluable) return Expect::kUnknown;
  Mpz m, p;
  SetDigits(m.v, sig);
  mpz_ui_pow_ui(p.v, 10, static_cast<unsigned long>(x < 0 ? -x : x));
  if (x >= 0) {
    mpz_mul(mpq_numref(value.v), m.v, p.v);
    mpz_set_ui(mpq_denref(value.v), 1);
  } else {
    mpz_set(mpq_numref(value.v), m.v);
    mpz_set(mpq_denref(value.v), p.v);
    mpq_canonicalize(value.v);
  }
  if (r.negative) mpq_neg(value.v, value.v);
  return Fits(mpq_numref(value.v)) && Fits(mpq_denref(value.v)) ? Expect::kAccept : Expect::kReject;
}

void CheckRational(std::string_view text) {
  const std::optional<Parsed> grammar = Recognise(text);
  Mpq expected;
  const Expect expect = grammar ? Oracle(*grammar, expected) : Expect::kReject;
  Rational x;
  try {
    x = dpfl::ref::ParseRational(text, "x");
  } catch (const InvalidArgument& e) {
    if (e.argument() != "x") Fail("InvalidArgument names another argument", text);
    if (expect == Expect::kAccept) Fail("N1/N2: rejected a number within the limits", text);
    return;
  }
  if (!grammar) Fail("N1: accepted text outside the grammar", text);
  if (expect == Expect::kReject) Fail("N2: accepted a number beyond the limits", text);
  if (expect == Expect::kAccept && mpq_equal(x.backend().data(), expected.v) == 0) Fail("N2: wrong value", text);
  if (!Fits(mpq_numref(x.backend().data())) || !Fits(mpq_denref(x.backend().data())))
    Fail("N2: accepted value beyond the digit limit", text);
  // N3
  const std::string exact = dpfl::ref::ToExactString(x);
  try {
    if (dpfl::ref::ParseRational(exact, "exact") != x) Fail("N3: ToExactString does not parse back to the value", text);
  } catch (const InvalidArgument&) {
    Fail("N3: ToExactString of a parsed value is rejected", text);
  }
  // N4
  const std::string printed = dpfl::ref::ToDecimalString(x, 40);
  try {
    const Rational y = dpfl::ref::ParseRational(printed, "printed");
    if (dpfl::ref::Abs(Rational(y - x)) > dpfl::ref::DecimalRoundingBound(x, 40))
      Fail("N4: ToDecimalString is farther from the value than DecimalRoundingBound", text);
  } catch (const InvalidArgument&) {
    if (mpz_sizeinbase(mpq_numref(x.backend().data()), 10) <= 50000 &&
        mpz_sizeinbase(mpq_denref(x.backend().data()), 10) <= 50000)
      Fail("N4: ToDecimalString of a moderate value is rejected", text);
  }
}

// N5
void CheckInt(std::string_view text) {
  std::string_view digits = text;
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.remove_prefix(1);
  const bool ok = !digits.empty() && AllDigits(digits) && StripZeros(digits).size() <= 9;
  int v = 0;
  try {
    v = dpfl::ref::ParseInt(text, "n");
  } catch (const InvalidArgument& e) {
    if (e.argument() != "n") Fail("ParseInt: InvalidArgument names another argument", text);
    if (ok) Fail("N5: ParseInt rejected a small integer", text);
    return;
  }
  if (!ok) Fail("N5: ParseInt accepted text that is not a small integer", text);
  long long want = 0;
  for (char c : digits) want = want * 10 + (c - '0');
  if (v != (negative ? -want : want)) Fail("N5: ParseInt returned a wrong value", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    CheckRational(text);
    CheckInt(text);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_exact_number: unexpected exception: %s\n", e.what());
    Fail("unexpected exception", text);
  } catch (...) {
    Fail("unexpected non-std exception", text);
  }
  return 0;
}
