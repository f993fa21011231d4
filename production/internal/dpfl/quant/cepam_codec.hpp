// INTERNAL to the dpfl libraries and their tests; not installed.
//
// The CEPAM / layered-RSUQ codec (public API and contract: dpfl/quant/cepam.hpp), templated on a
// compile-time fault policy that is all-false in production (NoCepamFaults), as binary_rules.hpp
// and rr_rules.hpp are for the other quantizers: the planted mutants of tests/mutants instantiate
// these very loops (docs/mutants.md "Seed 002").
//
// Everything here is a fixed sequence of IEEE-754 double operations (the dpfl target compiles
// with -ffp-contract=off), so the encoder and the decoder — possibly on two machines — compute the
// same layer, step, set M(U) and reconstruction bit for bit.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/cepam.hpp"
#include "dpfl/rng/streams.hpp"

namespace dpfl::quant {

struct NoCepamFaults {
  static constexpr bool kLayerDrawnOnce = false;            // seed-002 E-Q3: the decoder scales by block 0's β
  static constexpr bool kCellTooSmall = false;              // c = 0.9 < 1: the ball L(U) no longer fits the cell
  static constexpr bool kDitherReusedAcrossRounds = false;  // the round dropped from the dither address
  static constexpr bool kTrialIndexOffByOne = false;        // the decoder adds the dither of trial h + 1
  static constexpr bool kAlphaScaledStep = false;           // E-Q1 (public code): step r·α with α = 10^−5
};

namespace cepam {

using U128 = unsigned __int128;

inline constexpr std::uint64_t kLayerSlots = 64;      // uniforms reserved per block for its layer
inline constexpr std::uint64_t kPolarFirstSlot = 16;  // Gamma part: slots 0 … 15; polar pairs from 16
inline constexpr std::uint64_t kMaxTrials = std::uint64_t{1} << 32;
inline constexpr double kSetMargin = 1.0 + 0x1p-30;  // s's relative margin (see cepam.hpp)
inline constexpr double kMaxHalfWidth = 0x1p25;       // |k| < 2^25: every t(k) below is an exact double
inline constexpr double kExactRankBudget = 0x1p10;    // row evaluations allowed for an exact rank

// (top 53 bits + 1)·2^−53 ∈ (0, 1]: exact.
inline double UnitOpenClosed(std::uint64_t w) { return static_cast<double>((w >> 11) + 1) * 0x1p-53; }
// A dither coordinate in cell units, in (−1/2, 1/2] (the cell α(−1/2, 1/2]^n of §3.1): exact.
inline double DitherUnit(std::uint64_t w) { return UnitOpenClosed(w) - 0.5; }

// ln x for a finite x > 0 from +, −, ×, ÷ only (no libm), so that it is the same function on
// every IEEE-754 platform: x = m·2^e with m ∈ [√½, √2) (exact), ln m = 2 atanh(s) with
// s = (m − 1)/(m + 1), |s| ≤ 0.1716, by its odd series through s^25 (the next term is below
// 2^−60 relative), plus e·ln 2 with ln 2 split so that e·ln2_hi is exact. Error: a few ulp
// (tests/unit/cepam_codec_test.cpp compares it with MPFR).
inline double DeterministicLog(double x) {
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    --e;
  }
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  double p = 1.0 / 25.0;
  for (int k = 23; k >= 3; k -= 2) p = p * z + 1.0 / static_cast<double>(k);
  const double log_m = 2.0 * s + 2.0 * s * (z * p);
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // high bits of ln 2 (trailing zeros)
  constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln 2 − kLn2Hi
  const double de = static_cast<double>(e);
  return de * kLn2Hi + (de * kLn2Lo + log_m);
}

inline rng::StreamAddress LayerAddress(const StreamContext& ctx, std::uint32_t client) {
  return {ctx.round, client, rng::Purpose::kCepamLayer};
}
template <class Faults>
rng::StreamAddress DitherAddress(const StreamContext& ctx, std::uint32_t client) {
  return {Faults::kDitherReusedAcrossRounds ? 0u : ctx.round, client, rng::Purpose::kCepamDither};
}

// Gamma(k, 1) for an integer k ≤ 16: −Σ ln u_i over the block's first k layer uniforms.
inline double GammaInteger(const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t block, int k) {
  double sum = 0.0;
  for (int i = 0; i < k; ++i)
    sum -= DeterministicLog(UnitOpenClosed(rng::Uniform64(ctx.generator, ctx.key, addr, block * kLayerSlots + i)));
  return sum;
}

// χ²_1 by Marsaglia's polar method: (a, b) uniform on (−1, 1]², accepted when 0 < a² + b² < 1
// (probability π/4 per attempt); then a²·(−2 ln s / s) is the square of a standard normal.
// 24 attempts fit the block's slots; all failing has probability (1 − π/4)^24 < 2^−53 and throws.
inline double ChiSquareOne(const StreamContext& ctx, const rng::StreamAddress& addr, std::uint64_t block) {
  for (std::uint64_t slot = kPolarFirstSlot; slot + 1 < kLayerSlots; slot += 2) {
    const double a = 2.0 * UnitOpenClosed(rng::Uniform64(ctx.generator, ctx.key, addr, block * kLayerSlots + slot)) - 1.0;
    const double b =
        2.0 * UnitOpenClosed(rng::Uniform64(ctx.generator, ctx.key, addr, block * kLayerSlots + slot + 1)) - 1.0;
    const double s = a * a + b * b;
    if (s > 0.0 && s < 1.0) return a * a * (-2.0 * DeterministicLog(s) / s);
  }
  throw std::runtime_error("CEPAM layer: 24 polar attempts rejected (probability < 2^-53); block " +
                           std::to_string(block));
}

// The layer Ũ of block j: χ²_{n+2} (Gaussian; 2·Gamma((n+2)/2), plus χ²_1 for odd n) or
// Gamma(n + 1, 1) (Laplace); 0 for SDQ/RSUQ, which have no layer.
inline double Layer(const CepamConfig& cfg, const StreamContext& ctx, std::uint32_t client, std::uint64_t block) {
  const rng::StreamAddress addr = LayerAddress(ctx, client);
  switch (cfg.kind) {
    case CepamKind::kGaussian:
      if (cfg.n % 2 == 0) return 2.0 * GammaInteger(ctx, addr, block, (cfg.n + 2) / 2);
      return 2.0 * GammaInteger(ctx, addr, block, (cfg.n + 1) / 2) + ChiSquareOne(ctx, addr, block);
    case CepamKind::kLaplace:
      return GammaInteger(ctx, addr, block, cfg.n + 1);
    case CepamKind::kSdq:
    case CepamKind::kRsuq:
      break;
  }
  return 0.0;
}

// The geometry of one block given its layer: the lattice step Δ = β·α, the acceptance region's
// radius r (its ℓ2 radius for the set M; SDQ: the cube's circumradius α√n/2) and
// s = (γ + r)/Δ with the margin (§4.8: M(U) = {k : Σ (|k_i| − 1/2)₊² ≤ s²}).
struct Geometry {
  double step = 0, radius = 0, s = 0;
};

template <class Faults>
Geometry BlockGeometry(const CepamConfig& cfg, double layer) {
  Geometry g;
  switch (cfg.kind) {
    case CepamKind::kSdq:
      g.step = cfg.scale;
      g.radius = cfg.scale * std::sqrt(static_cast<double>(cfg.n)) / 2.0;
      break;
    case CepamKind::kRsuq:
      g.step = cfg.scale;
      g.radius = cfg.rho;
      break;
    case CepamKind::kGaussian:
    case CepamKind::kLaplace: {
      g.radius = cfg.kind == CepamKind::kGaussian ? cfg.scale * std::sqrt(layer) : cfg.scale * layer;
      const double c = Faults::kCellTooSmall ? 0.9 : cfg.c;
      g.step = Faults::kAlphaScaledStep ? g.radius * 1e-5 : 2.0 * c * g.radius;
      break;
    }
  }
  if (!(g.step > 0.0) || !std::isfinite(g.step))
    throw std::runtime_error("CEPAM: degenerate layer (radius " + std::to_string(g.radius) + ")");
  g.s = (cfg.clip + g.radius) / g.step * kSetMargin;
  if (!(g.s < kMaxHalfWidth))
    throw std::runtime_error("CEPAM: the candidate set is too large (s = " + std::to_string(g.s) +
                             " >= 2^25: noise radius far below the clip norm)");
  return g;
}

// t(k) = (2|k| − 1)₊², i.e. 4·(|k| − 1/2)₊²: exact as a double for |k| < 2^25.
inline double T(std::int64_t k) {
  const double a = static_cast<double>(k < 0 ? -k : k);
  return a == 0.0 ? 0.0 : (2.0 * a - 1.0) * (2.0 * a - 1.0);
}
// The largest K ≥ 0 with t(K) ≤ R (R ≥ 0), so the row {k : t(k) ≤ R} is [−K, K].
inline std::int64_t HalfWidth(double R) {
  std::int64_t k = static_cast<std::int64_t>((std::sqrt(R) + 1.0) / 2.0);
  while (T(k + 1) <= R) ++k;
  while (k > 0 && T(k) > R) --k;
  return k;
}

// #{k ∈ Z^dims : Σ t(k_i) ≤ R}, by rows (cost O(K^{dims−1})).
inline U128 CountBall(int dims, double R) {
  if (R < 0.0) return 0;
  const std::int64_t K = HalfWidth(R);
  if (dims == 1) return static_cast<U128>(2 * K + 1);
  U128 total = CountBall(dims - 1, R);
  for (std::int64_t k = 1; k <= K; ++k) total += 2 * CountBall(dims - 1, R - T(k));
  return total;
}

// How a block's M is indexed: exactly in M(U) (lexicographic rank) or in the bounding box.
struct IndexSet {
  bool box = false;
  std::int64_t K = 0;  // the half-width of the first coordinate's row (= the box's)
  double R = 0;        // 4 s²
  U128 count = 0;
  int bits = 0;        // ⌈log2 count⌉
};

inline int CeilLog2(U128 x) {
  int b = 0;
  while (b < 128 && (static_cast<U128>(1) << b) < x) ++b;
  return b;
}

inline IndexSet MakeIndexSet(int n, double s) {
  IndexSet set;
  set.R = 4.0 * s * s;
  set.K = HalfWidth(set.R);
  double rows = 1.0;
  for (int i = 1; i < n; ++i) rows *= static_cast<double>(2 * set.K + 1);
  set.box = rows > kExactRankBudget;
  if (set.box) {
    U128 count = 1;
    for (int i = 0; i < n; ++i) {
      const U128 next = count * static_cast<U128>(2 * set.K + 1);
      if (next / static_cast<U128>(2 * set.K + 1) != count || next >> 126)
        throw std::runtime_error("CEPAM: |M(U)| bounding box exceeds 2^126 (s = " + std::to_string(s) + ")");
      count = next;
    }
    set.count = count;
  } else {
    set.count = CountBall(n, set.R);
  }
  set.bits = CeilLog2(set.count);
  return set;
}

// Rank of k in the set (lexicographic, each coordinate from −K to K); false if k is outside.
inline bool Rank(const IndexSet& set, std::span<const std::int64_t> k, U128* rank) {
  const int n = static_cast<int>(k.size());
  U128 r = 0;
  if (set.box) {
    for (int i = 0; i < n; ++i) {
      if (k[i] < -set.K || k[i] > set.K) return false;
      r = r * static_cast<U128>(2 * set.K + 1) + static_cast<U128>(k[i] + set.K);
    }
    *rank = r;
    return true;
  }
  double R = set.R;
  for (int i = 0; i < n; ++i) {
    const std::int64_t K = HalfWidth(R);
    if (k[i] < -K || k[i] > K) return false;
    if (i == n - 1) {
      r += static_cast<U128>(k[i] + K);
      break;
    }
    for (std::int64_t j = -K; j < k[i]; ++j) r += CountBall(n - 1 - i, R - T(j));
    R -= T(k[i]);
  }
  *rank = r;
  return true;
}

inline void Unrank(const IndexSet& set, U128 rank, std::span<std::int64_t> k) {
  const int n = static_cast<int>(k.size());
  if (set.box) {
    const U128 base = static_cast<U128>(2 * set.K + 1);
    for (int i = n - 1; i >= 0; --i) {
      k[i] = static_cast<std::int64_t>(rank % base) - set.K;
      rank /= base;
    }
    return;
  }
  double R = set.R;
  for (int i = 0; i < n; ++i) {
    const std::int64_t K = HalfWidth(R);
    if (i == n - 1) {
      k[i] = static_cast<std::int64_t>(rank) - K;
      return;
    }
    std::int64_t j = -K;
    for (;; ++j) {
      const U128 c = CountBall(n - 1 - i, R - T(j));
      if (rank < c) break;
      rank -= c;
    }
    k[i] = j;
    R -= T(j);
  }
}

// ---- bits -------------------------------------------------------------------------------------
class BitWriter {
 public:
  void Put(bool bit) {
    if (bits_ % 64 == 0) words_.push_back(0);
    if (bit) words_.back() |= std::uint64_t{1} << (bits_ % 64);
    ++bits_;
  }
  void PutNumber(U128 value, int width) {  // most significant bit first
    for (int i = width - 1; i >= 0; --i) Put(((value >> i) & 1u) != 0);
  }
  std::vector<std::uint64_t>& words() { return words_; }
  std::uint64_t bits() const { return bits_; }

 private:
  std::vector<std::uint64_t> words_;
  std::uint64_t bits_ = 0;
};

class BitReader {
 public:
  BitReader(const CepamMessage& msg) : msg_(msg) {}
  bool Get() {
    if (pos_ >= msg_.bits) throw InvalidArgument("message", "truncated CEPAM bitstream (read past bit " + std::to_string(msg_.bits) + ")");
    const bool bit = ((msg_.words[pos_ / 64] >> (pos_ % 64)) & 1u) != 0;
    ++pos_;
    return bit;
  }
  U128 GetNumber(int width) {
    U128 v = 0;
    for (int i = 0; i < width; ++i) v = (v << 1) | static_cast<U128>(Get());
    return v;
  }
  std::uint64_t position() const { return pos_; }

 private:
  const CepamMessage& msg_;
  std::uint64_t pos_ = 0;
};

// Golomb code of h − 1 ≥ 0 with parameter m_G ≥ 1: ⌊(h − 1)/m_G⌋ ones and a zero, then the
// remainder in truncated binary (§3.10; m_G = 1 is the unary code, h bits).
inline void PutGolomb(BitWriter& w, std::uint64_t value, std::uint64_t mg) {
  for (std::uint64_t q = value / mg; q > 0; --q) w.Put(true);
  w.Put(false);
  if (mg == 1) return;
  const std::uint64_t r = value % mg;
  int b = 0;
  while ((std::uint64_t{1} << b) < mg) ++b;
  const std::uint64_t cutoff = (std::uint64_t{1} << b) - mg;
  if (r < cutoff) {
    w.PutNumber(r, b - 1);
  } else {
    w.PutNumber(r + cutoff, b);
  }
}
inline std::uint64_t GetGolomb(BitReader& rd, std::uint64_t mg, std::uint64_t max_value) {
  std::uint64_t q = 0;
  while (rd.Get()) {
    if (++q > max_value / mg) throw InvalidArgument("message", "corrupt CEPAM bitstream: trial count beyond the cap");
  }
  std::uint64_t r = 0;
  if (mg > 1) {
    int b = 0;
    while ((std::uint64_t{1} << b) < mg) ++b;
    const std::uint64_t cutoff = (std::uint64_t{1} << b) - mg;
    r = static_cast<std::uint64_t>(rd.GetNumber(b - 1));
    if (r >= cutoff) r = ((r << 1) | static_cast<std::uint64_t>(rd.Get())) - cutoff;
  }
  const std::uint64_t value = q * mg + r;
  if (value > max_value) throw InvalidArgument("message", "corrupt CEPAM bitstream: trial count beyond the cap");
  return value;
}

// m_G = ⌈ln(2 − p)/(−ln(1 − p))⌉ (Gallager–Van Voorhis, spec §3.10), ≥ 1; 0 = nothing is sent.
inline std::uint64_t GolombParameter(const CepamConfig& cfg) {
  if (CepamAlwaysAccepts(cfg)) return 0;
  const double p = CepamAcceptanceProbability(cfg);
  const double v = std::ceil(DeterministicLog(2.0 - p) / -DeterministicLog(1.0 - p));
  return v < 1.0 ? 1 : static_cast<std::uint64_t>(v);
}

// The largest trial index the streams can address for N blocks of n (ChaCha20: 2^35 indices).
inline std::uint64_t TrialCap(const StreamContext& ctx, std::uint64_t blocks, int n) {
  if (ctx.generator != rng::Generator::kChaCha20) return kMaxTrials;
  const std::uint64_t per_trial = blocks * static_cast<std::uint64_t>(n);
  const std::uint64_t cap = rng::kChaChaMaxIndex / per_trial;
  return cap < kMaxTrials ? cap : kMaxTrials;
}

inline std::uint64_t Blocks(std::uint64_t m, int n) { return (m + static_cast<std::uint64_t>(n) - 1) / static_cast<std::uint64_t>(n); }

// Dither of block j, trial i ≥ 1, in cell units.
template <class Faults>
void Dither(const StreamContext& ctx, std::uint32_t client, std::uint64_t blocks, int n, std::uint64_t j,
            std::uint64_t trial, double* u) {
  const rng::StreamAddress addr = DitherAddress<Faults>(ctx, client);
  const std::uint64_t base = ((trial - 1) * blocks + j) * static_cast<std::uint64_t>(n);
  for (int l = 0; l < n; ++l) u[l] = DitherUnit(rng::Uniform64(ctx.generator, ctx.key, addr, base + l));
}

// One trial: k = ⌊x/Δ − u + 1/2⌋ (the cubic Q_P of §3.1 on x/β − v, in cell units), the
// reconstruction y = Δ(k + u) and whether the error y − x lies in the acceptance region.
inline bool Trial(const CepamConfig& cfg, const Geometry& g, const double* x, const double* u, std::int64_t* k,
                  double* y) {
  double l2 = 0.0, l1 = 0.0;
  for (int l = 0; l < cfg.n; ++l) {
    const double kd = std::floor(x[l] / g.step - u[l] + 0.5);
    if (!(std::fabs(kd) < kMaxHalfWidth)) return false;  // outside every candidate set; caught by the caller
    k[l] = static_cast<std::int64_t>(kd);
    y[l] = g.step * (kd + u[l]);
    // In units of the radius, so that no square overflows for huge scales (an overflow to +inf
    // on both sides would accept every trial).
    const double e = (y[l] - x[l]) / g.radius;
    l2 += e * e;
    l1 += std::fabs(e);
  }
  switch (cfg.kind) {
    case CepamKind::kSdq: return true;
    case CepamKind::kRsuq:
    case CepamKind::kGaussian: return l2 <= 1.0;
    case CepamKind::kLaplace: return l1 <= 1.0;
  }
  return false;
}

// ‖x‖₂² in double; throws InvalidArgument("x", …) naming the first NaN/±Inf coordinate.
inline double FiniteNorm2(std::span<const float> x) {
  double norm2 = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]))
      throw InvalidArgument("x", "update coordinate x[" + std::to_string(i) + "] is " + std::to_string(x[i]) +
                                     " (NaN and +-Inf are rejected)");
    norm2 += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  }
  return norm2;
}

template <class Faults>
CepamMessage Encode(const CepamConfig& cfg, std::span<const float> x, const StreamContext& ctx, std::uint32_t client,
                    CepamStats* stats) {
  ValidateCepamConfig(cfg);
  const double norm2 = FiniteNorm2(x);
  if (norm2 > cfg.clip * cfg.clip * (1.0 + 0x1p-32))  // the norm's own rounding; s has 2^−30
    throw InvalidArgument("x", "update norm " + std::to_string(std::sqrt(norm2)) + " exceeds the clip gamma = " +
                                   std::to_string(cfg.clip) + " (clip first: ClipToNorm, seed-002 Alg. 1 step 4)");
  const int n = cfg.n;
  const std::uint64_t blocks = Blocks(x.size(), n);
  if (blocks > 0 && ctx.generator == rng::Generator::kChaCha20 &&
      (blocks * kLayerSlots > rng::kChaChaMaxIndex || blocks * static_cast<std::uint64_t>(n) > rng::kChaChaMaxIndex))
    throw InvalidArgument("m", "ChaCha20 streams address at most 2^29 CEPAM blocks");
  const std::uint64_t cap = TrialCap(ctx, blocks == 0 ? 1 : blocks, n);
  const std::uint64_t mg = GolombParameter(cfg);
  CepamStats local;
  BitWriter w;
  double xb[kCepamMaxDim], u[kCepamMaxDim], y[kCepamMaxDim];
  std::int64_t k[kCepamMaxDim];
  for (std::uint64_t j = 0; j < blocks; ++j) {
    for (int l = 0; l < n; ++l) {
      const std::uint64_t idx = j * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(l);
      xb[l] = idx < x.size() ? static_cast<double>(x[idx]) : 0.0;  // zero padding (E-Q6)
    }
    const Geometry g = BlockGeometry<Faults>(cfg, Layer(cfg, ctx, client, j));
    std::uint64_t h = 1;
    for (;; ++h) {
      if (h > cap)
        throw std::runtime_error("CEPAM: block " + std::to_string(j) + " rejected " + std::to_string(cap) +
                                 " trials (the stream's addressable trials); probability (1 - p_acc)^cap");
      Dither<Faults>(ctx, client, blocks, n, j, h, u);
      if (Trial(cfg, g, xb, u, k, y)) break;
    }
    const IndexSet set = MakeIndexSet(n, g.s);
    U128 rank = 0;
    if (!Rank(set, std::span<const std::int64_t>(k, static_cast<std::size_t>(n)), &rank))
      throw InvalidArgument("x", "block " + std::to_string(j) + ": M outside M(U); the update's l2 norm must not exceed "
                                 "the clip gamma (seed-002 §4.8)");
    const std::uint64_t before = w.bits();
    if (mg > 0) PutGolomb(w, h - 1, mg);
    const std::uint64_t after_h = w.bits();
    w.PutNumber(rank, set.bits);
    ++local.blocks;
    local.trials += h;
    local.h_bits += after_h - before;
    local.index_bits += w.bits() - after_h;
    local.box_blocks += set.box ? 1 : 0;
  }
  CepamMessage msg;
  msg.bits = w.bits();
  msg.words = std::move(w.words());
  msg.m = x.size();
  if (stats) *stats = local;
  return msg;
}

template <class Faults>
void Decode(const CepamConfig& cfg, const CepamMessage& msg, const StreamContext& ctx, std::uint32_t client,
            std::span<double> y_out) {
  ValidateCepamConfig(cfg);
  if (y_out.size() != msg.m) throw InvalidArgument("y", "size " + std::to_string(y_out.size()) + " differs from the message's m = " + std::to_string(msg.m));
  if (msg.words.size() != (msg.bits + 63) / 64)
    throw InvalidArgument("message", "word count does not match the bit count");
  const int n = cfg.n;
  const std::uint64_t blocks = Blocks(msg.m, n);
  if (blocks > 0 && ctx.generator == rng::Generator::kChaCha20 &&
      (blocks * kLayerSlots > rng::kChaChaMaxIndex || blocks * static_cast<std::uint64_t>(n) > rng::kChaChaMaxIndex))
    throw InvalidArgument("m", "ChaCha20 streams address at most 2^29 CEPAM blocks");
  const std::uint64_t cap = TrialCap(ctx, blocks == 0 ? 1 : blocks, n);
  const std::uint64_t mg = GolombParameter(cfg);
  BitReader rd(msg);
  double u[kCepamMaxDim];
  std::int64_t k[kCepamMaxDim];
  // E-Q3 mutant: the paper's decoder draws U once; its β scales every block's reconstruction
  // (the index widths, which the paper does not have, still follow each block's own layer).
  const double step0 = Faults::kLayerDrawnOnce && blocks > 0 ? BlockGeometry<Faults>(cfg, Layer(cfg, ctx, client, 0)).step : 0.0;
  for (std::uint64_t j = 0; j < blocks; ++j) {
    const std::uint64_t h = mg > 0 ? GetGolomb(rd, mg, cap - 1) + 1 : 1;
    const Geometry g = BlockGeometry<Faults>(cfg, Layer(cfg, ctx, client, j));
    const double step = Faults::kLayerDrawnOnce ? step0 : g.step;
    const IndexSet set = MakeIndexSet(n, g.s);
    const U128 rank = rd.GetNumber(set.bits);
    if (rank >= set.count) throw InvalidArgument("message", "corrupt CEPAM bitstream: index beyond |M(U)| in block " + std::to_string(j));
    Unrank(set, rank, std::span<std::int64_t>(k, static_cast<std::size_t>(n)));
    Dither<Faults>(ctx, client, blocks, n, j, Faults::kTrialIndexOffByOne ? h + 1 : h, u);
    for (int l = 0; l < n; ++l) {
      const std::uint64_t idx = j * static_cast<std::uint64_t>(n) + static_cast<std::uint64_t>(l);
      if (idx < msg.m) y_out[idx] = step * (static_cast<double>(k[l]) + u[l]);  // padding dropped (E-Q6)
    }
  }
  if (rd.position() != msg.bits) throw InvalidArgument("message", "corrupt CEPAM bitstream: " + std::to_string(msg.bits - rd.position()) + " trailing bits");
  const std::uint64_t tail = msg.bits % 64;
  if (tail != 0 && (msg.words.back() >> tail) != 0) throw InvalidArgument("message", "corrupt CEPAM bitstream: nonzero padding bits");
}

}  // namespace cepam
}  // namespace dpfl::quant
