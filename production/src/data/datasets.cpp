// See dpfl/data/datasets.hpp.
#include "dpfl/data/datasets.hpp"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <numeric>
#include <sstream>

#include "dpfl/error.hpp"
#include "dpfl/fl/stream_util.hpp"

namespace dpfl::data {
namespace {

[[noreturn]] void Fail(const std::string& file, std::size_t offset, const std::string& what) {
  std::ostringstream msg;
  msg << what << " at byte offset " << offset << " of '" << file << "'";
  throw InvalidArgument(file, msg.str());
}

std::uint32_t ReadBe32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) |
         std::uint32_t{b[at + 3]};
}

fl::StreamCursor Cursor(std::uint64_t seed, const char* label, std::uint64_t a = 0) {
  fl::StreamCursor cur;
  cur.ctx.key = fl::DeriveKey(seed, label, a);
  cur.addr = {0, 0, rng::Purpose::kPrivateCoin};
  return cur;
}

std::vector<std::size_t> Permutation(std::size_t n, fl::StreamCursor& cur) {
  std::vector<std::size_t> p(n);
  std::iota(p.begin(), p.end(), std::size_t{0});
  for (std::size_t i = n; i > 1; --i) std::swap(p[i - 1], p[cur.Below(i)]);
  return p;
}

std::string FirstExisting(const std::string& dir, const std::string& base) {
  namespace fs = std::filesystem;
  for (const std::string& candidate : {base + ".gz", base}) {
    const fs::path p = fs::path(dir) / candidate;
    if (fs::exists(p)) return p.string();
  }
  throw InvalidArgument("--data-dir", "no file '" + base + "' or '" + base + ".gz' in '" + dir + "'");
}

}  // namespace

Dataset Dataset::Subset(const std::vector<std::size_t>& indices) const {
  Dataset out;
  out.channels = channels;
  out.height = height;
  out.width = width;
  out.classes = classes;
  const std::size_t s = SampleSize();
  out.images.resize(indices.size() * s);
  out.labels.resize(indices.size());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    std::copy_n(images.begin() + static_cast<std::ptrdiff_t>(indices[k] * s), s,
                out.images.begin() + static_cast<std::ptrdiff_t>(k * s));
    out.labels[k] = labels[indices[k]];
  }
  return out;
}

namespace {

// inflateEnd on every path out of InflateMaybeGzip, exceptions (std::bad_alloc) included.
struct Inflater {
  z_stream zs{};
  bool live = false;
  ~Inflater() {
    if (live) inflateEnd(&zs);
  }
};

// ParseIdx's guarantees for an IdxArray from elsewhere: every dim in [1, 2^28], product (at
// most 2^34) equal to the data size.
void CheckIdxArray(const IdxArray& a, const std::string& name) {
  std::size_t total = 1;
  for (const std::uint32_t size : a.dims) {
    if (size == 0 || size > (1u << 28) || (total *= size) > (std::size_t{1} << 34))
      throw InvalidArgument(name, "implausible IDX dimension sizes in '" + name + "'");
  }
  if (total != a.data.size()) throw InvalidArgument(name, "IDX data size differs from its dims in '" + name + "'");
}

}  // namespace

std::vector<std::uint8_t> InflateMaybeGzip(std::vector<std::uint8_t> raw, const std::string& name) {
  if (raw.size() < 2 || raw[0] != 0x1f || raw[1] != 0x8b) return raw;
  Inflater z;
  if (inflateInit2(&z.zs, 15 + 16) != Z_OK) throw InvalidArgument(name, "zlib initialisation failed for '" + name + "'");
  z.live = true;
  std::vector<std::uint8_t> out;
  std::uint8_t buf[1 << 16];
  // zlib counts in uInt (32 bits): the input is fed in chunks, so files over 4 GiB are read whole.
  std::size_t fed = 0;
  for (;;) {
    if (z.zs.avail_in == 0 && fed < raw.size()) {
      const std::size_t chunk = std::min<std::size_t>(raw.size() - fed, std::numeric_limits<uInt>::max());
      z.zs.next_in = raw.data() + fed;
      z.zs.avail_in = static_cast<uInt>(chunk);
      fed += chunk;
    }
    z.zs.next_out = buf;
    z.zs.avail_out = sizeof buf;
    const int rc = inflate(&z.zs, Z_NO_FLUSH);
    out.insert(out.end(), buf, buf + (sizeof buf - z.zs.avail_out));
    const std::size_t at = fed - z.zs.avail_in;  // bytes of `raw` consumed
    if (rc == Z_STREAM_END) {
      if (at == raw.size()) break;
      // Another member may follow; anything else after a member is an error.
      if (raw.size() - at < 2 || raw[at] != 0x1f || raw[at + 1] != 0x8b) Fail(name, at, "trailing bytes after gzip stream");
      if (inflateReset(&z.zs) != Z_OK) Fail(name, at, "zlib reset failed");
      continue;
    }
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (rc != Z_OK && rc != Z_BUF_ERROR) Fail(name, at, "corrupt gzip stream");
    // Z_BUF_ERROR (no progress possible) or all input consumed with output room to spare: the
    // stream needs bytes that the file does not have.
    if (rc == Z_BUF_ERROR || (z.zs.avail_in == 0 && fed == raw.size() && z.zs.avail_out != 0))
      Fail(name, at, "truncated gzip stream");
  }
  return out;
}

std::vector<std::uint8_t> ReadMaybeGzip(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument(path, "cannot open '" + path + "'");
  std::vector<std::uint8_t> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return InflateMaybeGzip(std::move(raw), path);
}

IdxArray ParseIdx(const std::vector<std::uint8_t>& b, const std::string& name) {
  if (b.size() < 4) Fail(name, b.size(), "truncated IDX header (need 4 magic bytes)");
  if (b[0] != 0 || b[1] != 0) Fail(name, 0, "bad IDX magic (first two bytes must be 0)");
  if (b[2] != 0x08) Fail(name, 2, "unsupported IDX element type " + std::to_string(b[2]) + " (only 0x08 = ubyte)");
  const int dims = b[3];
  if (dims < 1 || dims > 4) Fail(name, 3, "unsupported IDX dimension count " + std::to_string(dims));
  const std::size_t header = 4 + 4 * static_cast<std::size_t>(dims);
  if (b.size() < header) Fail(name, b.size(), "truncated IDX header");
  IdxArray out;
  std::size_t total = 1;
  for (int k = 0; k < dims; ++k) {
    const std::uint32_t size = ReadBe32(b, 4 + 4 * static_cast<std::size_t>(k));
    if (size == 0 || size > (1u << 28)) Fail(name, 4 + 4 * static_cast<std::size_t>(k), "implausible IDX dimension size " + std::to_string(size));
    out.dims.push_back(size);
    total *= size;
    if (total > (std::size_t{1} << 34)) Fail(name, 4 + 4 * static_cast<std::size_t>(k), "IDX data too large");
  }
  if (b.size() < header + total)
    Fail(name, b.size(), "truncated IDX data (expected " + std::to_string(header + total) + " bytes)");
  if (b.size() > header + total) Fail(name, header + total, "trailing bytes after IDX data");
  out.data.assign(b.begin() + static_cast<std::ptrdiff_t>(header), b.end());
  return out;
}

IdxArray ReadIdx(const std::string& path) { return ParseIdx(ReadMaybeGzip(path), path); }

Dataset LoadIdxPair(const std::string& images_path, const std::string& labels_path) {
  const IdxArray images = ReadIdx(images_path);  // images first: its errors win, as before
  const IdxArray labels = ReadIdx(labels_path);
  return IdxPairToDataset(images, images_path, labels, labels_path);
}

Dataset IdxPairToDataset(const IdxArray& images, const std::string& images_path, const IdxArray& labels,
                         const std::string& labels_path) {
  if (images.dims.size() != 3) Fail(images_path, 3, "image file must have 3 dimensions");
  if (labels.dims.size() != 1) Fail(labels_path, 3, "label file must have 1 dimension");
  // Arrays that did not come from ParseIdx must still satisfy what ParseIdx guarantees.
  CheckIdxArray(images, images_path);
  CheckIdxArray(labels, labels_path);
  if (images.dims[0] != labels.dims[0])
    throw InvalidArgument(labels_path, "label count " + std::to_string(labels.dims[0]) + " differs from image count " +
                                           std::to_string(images.dims[0]) + " of '" + images_path + "'");
  Dataset ds;
  ds.channels = 1;
  ds.height = static_cast<int>(images.dims[1]);
  ds.width = static_cast<int>(images.dims[2]);
  ds.images.resize(images.data.size());
  for (std::size_t k = 0; k < images.data.size(); ++k) ds.images[k] = static_cast<float>(images.data[k]) / 255.0f;
  ds.labels.resize(labels.data.size());
  for (std::size_t k = 0; k < labels.data.size(); ++k) {
    if (labels.data[k] >= 10) Fail(labels_path, 8 + k, "label " + std::to_string(labels.data[k]) + " not in [0, 10)");
    ds.labels[k] = labels.data[k];
  }
  return ds;
}

std::vector<std::string> MnistFiles(const std::string& dir) {
  return {FirstExisting(dir, "train-images-idx3-ubyte"), FirstExisting(dir, "train-labels-idx1-ubyte"),
          FirstExisting(dir, "t10k-images-idx3-ubyte"), FirstExisting(dir, "t10k-labels-idx1-ubyte")};
}

Dataset LoadMnistDirectory(const std::string& dir) {
  const auto files = MnistFiles(dir);
  Dataset train = LoadIdxPair(files[0], files[1]);
  const Dataset test = LoadIdxPair(files[2], files[3]);
  if (test.height != train.height || test.width != train.width)
    throw InvalidArgument(files[2], "image size differs from '" + files[0] + "'");
  train.images.insert(train.images.end(), test.images.begin(), test.images.end());
  train.labels.insert(train.labels.end(), test.labels.begin(), test.labels.end());
  return train;
}

Dataset ParseCifarBatch(const std::vector<std::uint8_t>& bytes, const std::string& name) {
  constexpr std::size_t kRecord = 1 + 3 * 32 * 32;
  if (bytes.empty()) Fail(name, 0, "empty CIFAR-10 batch");
  if (bytes.size() % kRecord != 0)
    Fail(name, bytes.size() - bytes.size() % kRecord, "truncated CIFAR-10 record (records are 3073 bytes)");
  Dataset ds;
  ds.channels = 3;
  ds.height = ds.width = 32;
  const std::size_t n = bytes.size() / kRecord;
  ds.images.resize(n * 3072);
  ds.labels.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t label = bytes[i * kRecord];
    if (label >= 10) Fail(name, i * kRecord, "label " + std::to_string(label) + " not in [0, 10)");
    ds.labels[i] = label;
    for (std::size_t k = 0; k < 3072; ++k)
      ds.images[i * 3072 + k] = static_cast<float>(bytes[i * kRecord + 1 + k]) / 255.0f;
  }
  return ds;
}

std::vector<std::string> Cifar10Files(const std::string& dir) {
  std::vector<std::string> files;
  for (int k = 1; k <= 5; ++k) files.push_back(FirstExisting(dir, "data_batch_" + std::to_string(k) + ".bin"));
  files.push_back(FirstExisting(dir, "test_batch.bin"));
  return files;
}

Dataset LoadCifar10Directory(const std::string& dir) {
  Dataset all;
  for (const std::string& f : Cifar10Files(dir)) {
    const Dataset part = ParseCifarBatch(ReadMaybeGzip(f), f);
    all.channels = 3;
    all.height = all.width = 32;
    all.images.insert(all.images.end(), part.images.begin(), part.images.end());
    all.labels.insert(all.labels.end(), part.labels.begin(), part.labels.end());
  }
  return all;
}

NamedDataset LoadNamedDataset(const DatasetRequest& request) {
  NamedDataset out;
  const std::string& name = request.name;
  if (name == "synthetic") {
    out.data = MakeSynthetic(request.synthetic_samples, request.seed);
  } else if (name == "fashion-mnist" || name == "mnist" || name == "cifar10") {
    out.directory = !request.directory.empty() ? request.directory : "/usr/share/datasets/" + name;
    const bool idx = name != "cifar10";
    out.files = idx ? MnistFiles(out.directory) : Cifar10Files(out.directory);
    out.data = idx ? LoadMnistDirectory(out.directory) : LoadCifar10Directory(out.directory);
  } else {
    throw InvalidArgument("--dataset", "must be fashion-mnist, mnist, cifar10 or synthetic, got '" + name + "'");
  }
  if (request.max_samples > 0 && request.max_samples < out.data.size()) {
    std::vector<std::size_t> first(request.max_samples);
    std::iota(first.begin(), first.end(), std::size_t{0});
    out.data = out.data.Subset(first);
    out.truncated = true;
  }
  return out;
}

Dataset MakeSynthetic(std::size_t n, std::uint64_t seed, double noise) {
  if (n == 0) throw InvalidArgument("n", "synthetic data set size must be >= 1");
  if (!(noise >= 0) || !std::isfinite(noise)) throw InvalidArgument("noise", "must be finite and >= 0");
  Dataset ds;
  ds.channels = 1;
  ds.height = ds.width = 8;
  fl::StreamCursor proto = Cursor(seed, "synthetic-prototypes");
  std::vector<double> prototypes(10 * 64);
  for (double& p : prototypes) p = proto.NextUnit();
  fl::StreamCursor cur = Cursor(seed, "synthetic-samples");
  ds.images.resize(n * 64);
  ds.labels.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = cur.Below(10);
    ds.labels[i] = static_cast<std::int64_t>(k);
    for (std::size_t p = 0; p < 64; ++p) {
      const double v = prototypes[k * 64 + p] + noise * cur.NextGaussian();
      ds.images[i * 64 + p] = static_cast<float>(std::clamp(v, 0.0, 1.0));
    }
  }
  return ds;
}

Split SplitTrainValidationTest(const Dataset& all, std::uint64_t seed) {
  if (all.size() < 10) throw InvalidArgument("dataset", "needs at least 10 samples to split, has " + std::to_string(all.size()));
  fl::StreamCursor cur = Cursor(seed, "split");
  const std::vector<std::size_t> perm = Permutation(all.size(), cur);
  const std::size_t n_test = all.size() / 5;             // 20 %
  const std::size_t n_train_all = all.size() - n_test;   // 80 %
  const std::size_t n_val = n_train_all / 5;             // 20 % of train
  const auto begin = perm.begin();
  std::vector<std::size_t> val(begin, begin + static_cast<std::ptrdiff_t>(n_val));
  std::vector<std::size_t> train(begin + static_cast<std::ptrdiff_t>(n_val), begin + static_cast<std::ptrdiff_t>(n_train_all));
  std::vector<std::size_t> test(begin + static_cast<std::ptrdiff_t>(n_train_all), perm.end());
  return {all.Subset(train), all.Subset(val), all.Subset(test)};
}

std::vector<std::vector<std::size_t>> IidShares(std::size_t samples, std::uint32_t n, std::uint64_t seed) {
  if (n == 0) throw InvalidArgument("clients", "must be >= 1");
  if (samples < n)
    throw InvalidArgument("clients", std::to_string(n) + " clients but only " + std::to_string(samples) + " training samples");
  fl::StreamCursor cur = Cursor(seed, "iid-shares");
  const std::vector<std::size_t> perm = Permutation(samples, cur);
  const std::size_t each = samples / n;
  std::vector<std::vector<std::size_t>> shares(n);
  for (std::uint32_t i = 0; i < n; ++i)
    shares[i].assign(perm.begin() + static_cast<std::ptrdiff_t>(i * each), perm.begin() + static_cast<std::ptrdiff_t>((i + 1) * each));
  return shares;
}

std::vector<std::vector<std::size_t>> DirichletShares(const std::vector<std::int64_t>& labels, int classes,
                                                      std::uint32_t n, double beta, std::uint64_t seed) {
  if (n == 0) throw InvalidArgument("clients", "must be >= 1");
  if (!(beta > 0) || !std::isfinite(beta)) throw InvalidArgument("beta", "Dirichlet concentration must be finite and > 0");
  std::vector<std::vector<std::size_t>> shares(n);
  for (int k = 0; k < classes; ++k) {
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < labels.size(); ++i)
      if (labels[i] == k) idx.push_back(i);
    fl::StreamCursor cur = Cursor(seed, "dirichlet", static_cast<std::uint64_t>(k));
    const std::vector<std::size_t> perm = Permutation(idx.size(), cur);
    std::vector<double> g(n);
    double sum = 0;
    for (double& x : g) sum += (x = cur.NextGamma(beta));
    // For a tiny β every Gamma(β) draw can underflow to 0; the proportions are then undefined
    // (0/0). The class then goes to one client drawn uniformly from the same stream, which is
    // the β → 0 limit of the Dirichlet split (no input may give NaN cut points, or hang).
    if (!(sum > 0) || !std::isfinite(sum)) {
      std::fill(g.begin(), g.end(), 0.0);
      g[cur.Below(n)] = 1.0;
      sum = 1.0;
    }
    // Cumulative cut points ⌊N·Σ_{i≤j} p_i⌋ assign every sample of the class exactly once.
    double acc = 0;
    std::size_t start = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      acc += g[i] / sum;
      const std::size_t end = i + 1 == n ? idx.size() : std::min(idx.size(), static_cast<std::size_t>(acc * static_cast<double>(idx.size())));
      for (std::size_t t = start; t < std::max(start, end); ++t) shares[i].push_back(idx[perm[t]]);
      start = std::max(start, end);
    }
  }
  return shares;
}

}  // namespace dpfl::data
