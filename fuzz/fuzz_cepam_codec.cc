// fuzz_cepam_codec — boundary fuzzer of the CEPAM / layered-RSUQ codec (seed 002; STYLE.md
// "Fuzz targets", kind "boundary"; contract: dpfl/quant/cepam.hpp).
//
// FuzzedDataProvider picks a configuration (kind, n ∈ −1..10, σ/b/α, ρ, c, γ as arbitrary
// doubles: NaN, ±Inf, ±0, subnormals, raw bit patterns), an update of arbitrary floats, the
// generator, key and round, and a corruption of the encoded bitstream. The ONLY acceptable
// outcomes are dpfl::InvalidArgument, std::runtime_error from the codec's documented capacity
// limits (a candidate set beyond 2^25 per coordinate, a trial cap reached), or success with:
//   C1  round trip: the decoded Y of an untouched message satisfies Y − x ∈ L(Ũ) per block
//       (‖·‖₂ ≤ r for Gaussian/RSUQ, ‖·‖₁ ≤ r for Laplace, |·| ≤ α/2 for SDQ; a 1e-9 relative
//       slack for the doubles' rounding), and every Y is finite;
//   C2  determinism: encoding again gives the same message;
//   C3  a corrupted message (bit flips, truncation, appended bits) decodes to finite values or
//       throws InvalidArgument("message" / "y"), never reading out of bounds.
// Anything else — another exception type, a sanitizer report, a broken invariant — aborts.
#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz_pickers.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <stdexcept>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/cepam.hpp"

namespace {

namespace q = dpfl::quant;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_cepam_codec: invariant broken: %s\n", what);
  std::abort();
}


}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider p(data, size);
  q::CepamConfig cfg;
  cfg.kind = static_cast<q::CepamKind>(p.ConsumeIntegralInRange<int>(0, 3));
  cfg.n = p.ConsumeIntegralInRange<int>(-1, 10);
  cfg.scale = dpfl::fuzzing::PickDouble(p, 1e-3, 3.0, -60, 60);
  cfg.rho = dpfl::fuzzing::PickDouble(p, 0.0, 1.5, -60, 60);
  cfg.c = p.ConsumeBool() ? 1.0 : dpfl::fuzzing::PickDouble(p, 0.9, 3.0, -60, 60);
  cfg.clip = dpfl::fuzzing::PickDouble(p, 1e-3, 10.0, -60, 60);
  q::StreamContext ctx;
  ctx.generator = p.ConsumeBool() ? dpfl::rng::Generator::kPhilox4x32 : dpfl::rng::Generator::kChaCha20;
  for (std::uint32_t& w : ctx.key.words) w = p.ConsumeIntegral<std::uint32_t>();
  ctx.round = p.ConsumeIntegral<std::uint32_t>();
  const std::uint32_t client = p.ConsumeIntegral<std::uint32_t>();
  const std::size_t m = p.ConsumeIntegralInRange<std::size_t>(0, 64);
  std::vector<float> x(m);
  for (float& v : x) v = dpfl::fuzzing::PickFloat(p);
  const bool clip_first = p.ConsumeBool();
  const int corruption = p.ConsumeIntegralInRange<int>(0, 3);
  const std::uint64_t where = p.ConsumeIntegral<std::uint64_t>();

  q::CepamMessage msg;
  try {
    if (clip_first) q::ClipToNorm(x, cfg.clip);
    msg = q::CepamEncode(cfg, x, ctx, client);
  } catch (const dpfl::InvalidArgument&) {
    return 0;
  } catch (const std::runtime_error&) {
    return 0;  // documented capacity limits (cepam.hpp)
  }
  if (msg.m != m || msg.words.size() != (msg.bits + 63) / 64) Fail("message shape");
  if (q::CepamEncode(cfg, x, ctx, client).words != msg.words) Fail("C2 encoding is not deterministic");
  std::vector<double> y(m);
  try {
    q::CepamDecode(cfg, msg, ctx, client, y);
  } catch (const std::exception&) {
    Fail("C1 an untouched message does not decode");
  }
  for (std::size_t j = 0; j * static_cast<std::size_t>(cfg.n) < m; ++j) {
    const double layer = q::CepamLayer(cfg, ctx, client, j);
    double r = 0;
    switch (cfg.kind) {
      case q::CepamKind::kSdq: r = cfg.scale / 2; break;
      case q::CepamKind::kRsuq: r = cfg.rho; break;
      case q::CepamKind::kGaussian: r = cfg.scale * std::sqrt(layer); break;
      case q::CepamKind::kLaplace: r = cfg.scale * layer; break;
    }
    double l2 = 0, l1 = 0, linf = 0, xmax = 0;
    for (int l = 0; l < cfg.n; ++l) {
      const std::size_t i = j * static_cast<std::size_t>(cfg.n) + static_cast<std::size_t>(l);
      if (i >= m) break;
      if (!std::isfinite(y[i])) Fail("C1 a non-finite reconstruction");
      const double e = (y[i] - static_cast<double>(x[i])) / r;  // in units of r: no overflow
      l2 += e * e;
      l1 += std::fabs(e);
      linf = std::fmax(linf, std::fabs(e));
      xmax = std::fmax(xmax, std::fabs(static_cast<double>(x[i])) / r);
    }
    const double slack = 1e-9 * (1.0 + xmax);
    const bool inside = cfg.kind == q::CepamKind::kSdq      ? linf <= 1.0 + slack
                        : cfg.kind == q::CepamKind::kLaplace ? l1 <= 1.0 + slack
                                                             : std::sqrt(l2) <= 1.0 + slack;
    if (!inside) Fail("C1 the error left the layer");
  }
  // C3: corrupt the message.
  q::CepamMessage bad = msg;
  if (corruption == 1 && bad.bits > 0) {
    const std::uint64_t b = where % bad.bits;
    bad.words[b / 64] ^= std::uint64_t{1} << (b % 64);
  } else if (corruption == 2 && bad.bits > 0) {
    bad.bits -= 1 + where % bad.bits;
    bad.words.resize((bad.bits + 63) / 64);
    if (bad.bits % 64 != 0) bad.words.back() &= (std::uint64_t{1} << (bad.bits % 64)) - 1;
  } else if (corruption == 3) {
    bad.bits += 1 + where % 70;
    bad.words.resize((bad.bits + 63) / 64, 0);
    bad.words.back() |= where & 1 ? std::uint64_t{1} << ((bad.bits - 1) % 64) : 0;
  }
  try {
    q::CepamDecode(cfg, bad, ctx, client, y);
    for (double v : y)
      if (!std::isfinite(v)) Fail("C3 a corrupted message decoded to a non-finite value");
  } catch (const dpfl::InvalidArgument&) {
  } catch (const std::runtime_error&) {
  }
  return 0;
}
