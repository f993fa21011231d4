// INTERNAL to the dpfl libraries and their tests; not installed.
//
// The CEPAM bitstream (seed 002 §3.10, §4.8; dpfl/quant/cepam.hpp "Bitstream"): the candidate
// set M(U) = {k ∈ Z^n : Σ (|k_i| − 1/2)₊² ≤ s²} with its exact lexicographic rank (or the
// bounding box when the rank would be too costly), a bit writer/reader that never reads past the
// message, and the Golomb code of the trial count.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/quant/cepam.hpp"

namespace dpfl::quant::cepam {

using U128 = unsigned __int128;

inline constexpr double kMaxHalfWidth = 0x1p25;       // |k| < 2^25: every t(k) below is an exact double
inline constexpr double kExactRankBudget = 0x1p10;    // row evaluations allowed for an exact rank

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

}  // namespace dpfl::quant::cepam
