// fuzz_idx_loader — the MNIST/Fashion-MNIST loader of untrusted files (contract:
// dpfl/data/datasets.hpp): InflateMaybeGzip (the bytes-level half of ReadMaybeGzip), ParseIdx
// and IdxPairToDataset (the pairing check of LoadIdxPair).
//
// Each input is used twice:
//   * single file: the whole input → InflateMaybeGzip → ParseIdx;
//   * pair: a 2-byte big-endian length L, then L bytes of the images file, then the labels file
//     (the rest), each → InflateMaybeGzip → ParseIdx, then IdxPairToDataset.
// The ONLY acceptable outcomes are dpfl::InvalidArgument naming the file it was given, or
// success, after which these invariants must hold:
//   G1  InflateMaybeGzip returns input without the gzip magic 1f 8b unchanged, and never more
//       than 1032 bytes per input byte (deflate's maximum ratio) for a gzip stream.
//   X1  ParseIdx: the magic is 00 00 08 n with n = dims.size() ∈ [1, 4]; every dim ∈ [1, 2^28];
//       the dims' product equals data.size(); header (4 + 4n bytes) + data is the whole
//       decompressed stream and data is its tail.
//   X2  IdxPairToDataset: images have 3 dims and labels 1, with the same N; the set has N
//       samples of 1 × H × W (H, W = dims 1, 2) pixels, pixel k is byte k / 255 (in [0, 1]),
//       label i is labels byte i, < 10.
// Any other exception, a sanitizer report, a hang or > 2 GB RSS aborts.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "dpfl/data/datasets.hpp"
#include "dpfl/error.hpp"

namespace {

namespace data = dpfl::data;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_idx_loader: invariant broken: %s\n", what);
  std::abort();
}

bool IsGzip(const std::vector<std::uint8_t>& raw) { return raw.size() >= 2 && raw[0] == 0x1f && raw[1] == 0x8b; }

// G1, X1. Returns false if the loader rejected the file (InvalidArgument naming `name`).
bool LoadOne(const std::vector<std::uint8_t>& raw, const std::string& name, data::IdxArray& out) {
  std::vector<std::uint8_t> bytes;
  try {
    bytes = data::InflateMaybeGzip(raw, name);
  } catch (const dpfl::InvalidArgument& e) {
    if (e.argument() != name) Fail("InflateMaybeGzip: InvalidArgument names another file");
    if (!IsGzip(raw)) Fail("G1: InflateMaybeGzip rejected input that is not gzip");
    return false;
  }
  if (!IsGzip(raw) && bytes != raw) Fail("G1: input without the gzip magic was changed");
  if (IsGzip(raw) && bytes.size() > 1032 * raw.size()) Fail("G1: more output than deflate can encode");
  try {
    out = data::ParseIdx(bytes, name);
  } catch (const dpfl::InvalidArgument& e) {
    if (e.argument() != name) Fail("ParseIdx: InvalidArgument names another file");
    return false;
  }
  const std::size_t n = out.dims.size();
  if (n < 1 || n > 4) Fail("X1: dimension count outside [1, 4]");
  if (bytes.size() < 4 + 4 * n || bytes[0] != 0 || bytes[1] != 0 || bytes[2] != 0x08 || bytes[3] != n)
    Fail("X1: accepted a bad magic");
  std::size_t product = 1;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t d = out.dims[k];
    if (d == 0 || d > (1u << 28)) Fail("X1: dim outside [1, 2^28]");
    const std::uint32_t be = (std::uint32_t{bytes[4 + 4 * k]} << 24) | (std::uint32_t{bytes[5 + 4 * k]} << 16) |
                             (std::uint32_t{bytes[6 + 4 * k]} << 8) | std::uint32_t{bytes[7 + 4 * k]};
    if (d != be) Fail("X1: dim differs from the header");
    product *= d;
  }
  if (product != out.data.size()) Fail("X1: dims product differs from the data size");
  if (4 + 4 * n + out.data.size() != bytes.size()) Fail("X1: header + data is not the whole stream");
  if (!std::equal(out.data.begin(), out.data.end(), bytes.begin() + static_cast<std::ptrdiff_t>(4 + 4 * n)))
    Fail("X1: data is not the tail of the stream");
  return true;
}

void CheckPair(const std::vector<std::uint8_t>& images_raw, const std::vector<std::uint8_t>& labels_raw) {
  data::IdxArray images, labels;
  if (!LoadOne(images_raw, "images", images) || !LoadOne(labels_raw, "labels", labels)) return;
  data::Dataset ds;
  try {
    ds = data::IdxPairToDataset(images, "images", labels, "labels");
  } catch (const dpfl::InvalidArgument& e) {
    if (e.argument() != "images" && e.argument() != "labels") Fail("IdxPairToDataset: InvalidArgument names another file");
    bool bad_label = false;
    for (std::uint8_t l : labels.data) bad_label = bad_label || l >= 10;
    if (images.dims.size() == 3 && labels.dims.size() == 1 && images.dims[0] == labels.dims[0] && !bad_label)
      Fail("X2: a consistent pair was rejected");
    return;
  }
  if (images.dims.size() != 3 || labels.dims.size() != 1) Fail("X2: accepted wrong dimension counts");
  const std::size_t n = images.dims[0];
  if (labels.dims[0] != n || ds.size() != n) Fail("X2: sample counts differ");
  if (ds.channels != 1 || ds.height != static_cast<int>(images.dims[1]) || ds.width != static_cast<int>(images.dims[2]))
    Fail("X2: wrong sample shape");
  if (ds.images.size() != n * ds.SampleSize() || ds.images.size() != images.data.size()) Fail("X2: wrong image size");
  for (std::size_t k = 0; k < ds.images.size(); ++k)
    if (ds.images[k] != static_cast<float>(images.data[k]) / 255.0f || !(ds.images[k] >= 0.0f && ds.images[k] <= 1.0f))
      Fail("X2: pixel is not byte / 255");
  for (std::size_t i = 0; i < n; ++i)
    if (ds.labels[i] != labels.data[i] || ds.labels[i] >= 10) Fail("X2: wrong label");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  try {
    const std::vector<std::uint8_t> whole(bytes, bytes + size);
    data::IdxArray single;
    LoadOne(whole, "idx", single);
    if (size >= 2) {
      const std::size_t split = (std::size_t{bytes[0]} << 8) | bytes[1];
      if (split <= size - 2) {
        const std::vector<std::uint8_t> images(bytes + 2, bytes + 2 + split), labels(bytes + 2 + split, bytes + size);
        CheckPair(images, labels);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_idx_loader: unexpected exception: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz_idx_loader: unexpected non-std exception\n");
    std::abort();
  }
  return 0;
}
