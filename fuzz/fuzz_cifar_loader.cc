// fuzz_cifar_loader — the CIFAR-10 binary batch loader of untrusted files (contract:
// dpfl/data/datasets.hpp): the input → InflateMaybeGzip → ParseCifarBatch, as
// LoadCifar10Directory reads each data_batch_k.bin[.gz].
// The ONLY acceptable outcomes are dpfl::InvalidArgument naming the file, or success; and the
// outcome is predicted exactly from the decompressed bytes b:
//   C1  ParseCifarBatch succeeds iff b is non-empty, |b| is a multiple of 3073 and every
//       record's first byte (the label) is < 10;
//   C2  on success: N = |b| / 3073 samples of 3 × 32 × 32; label i = b[3073 i]; pixel k of
//       sample i = b[3073 i + 1 + k] / 255, in [0, 1];
//   G1  InflateMaybeGzip returns input without the gzip magic 1f 8b unchanged (and rejects
//       nothing else).
// Any other exception, a sanitizer report, a hang or > 2 GB RSS aborts.
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
constexpr std::size_t kRecord = 1 + 3 * 32 * 32;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_cifar_loader: invariant broken: %s\n", what);
  std::abort();
}

void Check(const std::vector<std::uint8_t>& raw) {
  const bool gzip = raw.size() >= 2 && raw[0] == 0x1f && raw[1] == 0x8b;
  std::vector<std::uint8_t> b;
  try {
    b = data::InflateMaybeGzip(raw, "batch");
  } catch (const dpfl::InvalidArgument& e) {
    if (e.argument() != "batch") Fail("InflateMaybeGzip: InvalidArgument names another file");
    if (!gzip) Fail("G1: rejected input that is not gzip");
    return;
  }
  if (!gzip && b != raw) Fail("G1: input without the gzip magic was changed");
  bool valid = !b.empty() && b.size() % kRecord == 0;
  for (std::size_t i = 0; valid && i < b.size(); i += kRecord) valid = b[i] < 10;
  data::Dataset ds;
  try {
    ds = data::ParseCifarBatch(b, "batch");
  } catch (const dpfl::InvalidArgument& e) {
    if (e.argument() != "batch") Fail("ParseCifarBatch: InvalidArgument names another file");
    if (valid) Fail("C1: a valid batch was rejected");
    return;
  }
  if (!valid) Fail("C1: an invalid batch was accepted");
  const std::size_t n = b.size() / kRecord;
  if (ds.size() != n || ds.channels != 3 || ds.height != 32 || ds.width != 32 || ds.images.size() != n * 3072)
    Fail("C2: wrong shape");
  for (std::size_t i = 0; i < n; ++i) {
    if (ds.labels[i] != b[i * kRecord]) Fail("C2: wrong label");
    for (std::size_t k = 0; k < 3072; ++k) {
      const float v = ds.images[i * 3072 + k];
      if (v != static_cast<float>(b[i * kRecord + 1 + k]) / 255.0f || !(v >= 0.0f && v <= 1.0f)) Fail("C2: wrong pixel");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  try {
    Check(std::vector<std::uint8_t>(bytes, bytes + size));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_cifar_loader: unexpected exception: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz_cifar_loader: unexpected non-std exception\n");
    std::abort();
  }
  return 0;
}
