// The quantized Gaussian mechanism of seed 003 (see dpfl/fl/quantized_gaussian.hpp for the rule
// and the law; the loops are the internal qgauss_rules.hpp templates at NoQgaussFaults).
#include "dpfl/fl/quantized_gaussian.hpp"

#include <boost/multiprecision/cpp_int.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "dpfl/error.hpp"
#include "dpfl/fl/qgauss_rules.hpp"
#include "dpfl/quant/fast_encoders.hpp"

namespace dpfl::fl {
namespace qgauss_detail {

Ratio128 Sigma2Ceiling(double sigma, double fault_scale, std::int64_t span, double clip) {
  using boost::multiprecision::cpp_int;
  // σ = a·2^ea, C = b·2^eb with integer mantissas (exact), so (σL/(2C))² = a²L²/(4b²)·2^(2(ea − eb)).
  int ea = 0, eb = 0;
  const double fa = std::frexp(sigma * fault_scale, &ea), fb = std::frexp(clip, &eb);
  const cpp_int a = static_cast<std::int64_t>(std::ldexp(fa, 53)), b = static_cast<std::int64_t>(std::ldexp(fb, 53));
  const long shift = 2L * (static_cast<long>(ea) - static_cast<long>(eb));  // the 2^−53 factors cancel
  if (shift > 256) return {0, 1};                                          // (σ/g)² ≥ 2^62 certainly
  cpp_int num = a * a * cpp_int(span) * cpp_int(span), den = 4 * b * b;
  if (shift >= 0) {
    num <<= static_cast<unsigned>(shift);
  } else if (shift > -4096) {
    den <<= static_cast<unsigned>(-shift);
  } else {
    return {1, 1};  // (σ/g)² < 2^−3000: s² = 1
  }
  cpp_int s2 = (num + den - 1) / den;
  if (s2 < 1) s2 = 1;
  if (s2 >= (cpp_int(1) << 62)) return {0, 1};
  return {static_cast<Uint128>(static_cast<std::uint64_t>(s2)), 1};
}

int IndexBits(std::uint32_t levels) {
  int b = 1;
  while ((std::uint64_t{1} << b) < levels) ++b;
  return b;
}

void Pack(std::span<const std::uint32_t> indices, int bits, std::span<std::uint64_t> words) {
  for (std::size_t j = 0; j < indices.size(); ++j) {
    const std::uint64_t bit = static_cast<std::uint64_t>(j) * static_cast<std::uint64_t>(bits);
    const std::size_t w = static_cast<std::size_t>(bit >> 6);
    const unsigned off = static_cast<unsigned>(bit & 63);
    words[w] |= static_cast<std::uint64_t>(indices[j]) << off;
    if (off + static_cast<unsigned>(bits) > 64) words[w + 1] |= static_cast<std::uint64_t>(indices[j]) >> (64 - off);
  }
}

}  // namespace qgauss_detail

QgaussGrid MakeQgaussGrid(const QgaussConfig& config) { return MakeQgaussGridT<>(config); }

std::vector<std::int64_t> QgaussClipToGrid(const QgaussGrid& grid, std::span<const float> update) {
  return QgaussClipToGridT<>(grid, update);
}

std::size_t QgaussMessageWords(const QgaussGrid& grid, std::size_t size) {
  return static_cast<std::size_t>((static_cast<std::uint64_t>(size) * static_cast<std::uint64_t>(grid.index_bits) + 63) / 64);
}

QgaussMessage QgaussEncode(const QgaussGrid& grid, std::span<const std::int64_t> q, const quant::StreamContext& ctx,
                           std::uint32_t client, int threads) {
  return QgaussEncodeFast(grid, q, ctx, client, threads, quant::fast::ActiveIsa());
}

QgaussMessage QgaussEncodeScalar(const QgaussGrid& grid, std::span<const std::int64_t> q, const quant::StreamContext& ctx,
                                 std::uint32_t client, int threads) {
  return QgaussEncodeT<>(grid, q, ctx, client, threads);
}

// Per chunk: the scalar noise (the sampler's words depend on the chunk's earlier samples), then
// the saturation and rounding of the whole chunk on vectors (src/cpu/fast_qgauss.cpp), with the
// coins of the scalar loop (word j of the rounding stream for coordinate j).
QgaussMessage QgaussEncodeFast(const QgaussGrid& grid, std::span<const std::int64_t> q, const quant::StreamContext& ctx,
                               std::uint32_t client, int threads, quant::fast::Isa isa) {
  QgaussCheckInputs<>(grid, q);
  std::vector<std::uint32_t> indices(q.size());
  const std::int64_t half = grid.span / 2;
  const rng::StreamAddress coins{ctx.round, client, rng::Purpose::kQgaussRounding};
  QgaussForChunks(q.size(), threads, [&](std::size_t h) {
    const std::size_t first = h * kQgaussChunk, count = std::min(q.size() - first, kQgaussChunk);
    std::array<std::int64_t, kQgaussChunk> buffer;  // 32 KiB on the worker's stack
    const std::span<std::int64_t> position(buffer.data(), count);
    QgaussChunk<NoQgaussFaults>(grid, q.size(), ctx, client, h, false,
                                [&](std::size_t j, std::int64_t z, std::uint64_t) { position[j - first] = half + q[j] + z; });
    quant::fast::QgaussRoundIndicesFast(ctx, coins, first, position, grid.span, grid.step_bits, grid.levels,
                                        std::span<std::uint32_t>(indices).subspan(first, count), isa);
  });
  QgaussMessage m;
  m.size = q.size();
  m.words.assign(QgaussMessageWords(grid, q.size()), 0);
  qgauss_detail::Pack(indices, grid.index_bits, m.words);
  return m;
}

std::vector<std::int64_t> QgaussNoisy(const QgaussGrid& grid, std::span<const std::int64_t> q,
                                      const quant::StreamContext& ctx, std::uint32_t client, int threads) {
  return QgaussNoisyT<>(grid, q, ctx, client, threads);
}

std::uint32_t QgaussIndex(const QgaussGrid& grid, const QgaussMessage& message, std::size_t j) {
  const std::uint64_t bit = static_cast<std::uint64_t>(j) * static_cast<std::uint64_t>(grid.index_bits);
  const std::size_t w = static_cast<std::size_t>(bit >> 6);
  const unsigned off = static_cast<unsigned>(bit & 63);
  std::uint64_t v = message.words[w] >> off;
  if (off + static_cast<unsigned>(grid.index_bits) > 64) v |= message.words[w + 1] << (64 - off);
  return static_cast<std::uint32_t>(v & ((std::uint64_t{1} << grid.index_bits) - 1));
}

double QgaussLevel(const QgaussGrid& grid, std::uint32_t index) {
  return -grid.clip + static_cast<double>(index) * (2.0 * grid.clip / static_cast<double>(grid.levels - 1));
}

void QgaussDecode(const QgaussGrid& grid, const QgaussMessage& message, std::span<float> out) {
  if (out.size() != message.size || message.words.size() != QgaussMessageWords(grid, message.size))
    throw InvalidArgument("message", "size mismatch: " + std::to_string(message.size) + " coordinates, " +
                                         std::to_string(message.words.size()) + " words, output of " +
                                         std::to_string(out.size()));
  for (std::size_t j = 0; j < out.size(); ++j) {
    const std::uint32_t i = QgaussIndex(grid, message, j);
    if (i >= grid.levels) throw InvalidArgument("message", "index " + std::to_string(i) + " >= k at coordinate " + std::to_string(j));
    out[j] = static_cast<float>(QgaussLevel(grid, i));
  }
}

}  // namespace dpfl::fl
