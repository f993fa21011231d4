// Data sets and client splits for the FL loop (docs/training.md "Data"; seed-000 §5 "Common setup", §V-2).
//
//  * IDX (MNIST / Fashion-MNIST format; LeCun's spec): big-endian magic 0x0000 08 NN (type
//    0x08 = unsigned byte, NN = number of dimensions), NN big-endian uint32 sizes, then the
//    data. Files may be plain or gzip-compressed (detected by the 1f 8b magic, read with zlib).
//  * CIFAR-10 binary format: records of 1 label byte + 3072 pixel bytes (3×32×32, channel-major).
//  * Synthetic: 10 Gaussian blobs rendered as 1×8×8 images, a pure function of the seed.
// Malformed or truncated input throws dpfl::InvalidArgument whose message names the file and
// the byte offset (in the decompressed stream) where the problem was found.
//
// Splits (seed-000 §5): 80 % train / 20 % test, then 20 % of train for validation (64/16/20 of
// all samples), by a seeded permutation. IID: equal shares at random without replacement
// (the remainder samples, fewer than n, are dropped). Non-IID: per class, Dirichlet(β)
// proportions over the clients (Hsu et al. 2019 style). All randomness is counter-based
// (ChaCha20 streams keyed by the seed), so splits are identical on every machine.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dpfl::data {

// Images as float32 in [0, 1], row-major N×C×H×W; labels in [0, classes).
struct Dataset {
  std::vector<float> images;
  std::vector<std::int64_t> labels;
  int channels = 1, height = 0, width = 0, classes = 10;
  std::size_t size() const { return labels.size(); }
  std::size_t SampleSize() const { return static_cast<std::size_t>(channels) * height * width; }
  // Rows `indices` of this set, in that order.
  Dataset Subset(const std::vector<std::size_t>& indices) const;
};

// `raw` gunzipped if it starts with the gzip magic 1f 8b, else `raw` unchanged. Every member of
// a multi-member gzip file is decoded (RFC 1952 §2.2; `cat a.gz b.gz` decodes to a then b);
// bytes after a member that do not start another member are an error, never silently dropped.
// Throws InvalidArgument naming `name` (with the offset in `raw`) for a corrupt or truncated
// stream or trailing bytes. The bytes-level half of ReadMaybeGzip (fuzzed by fuzz_idx_loader).
std::vector<std::uint8_t> InflateMaybeGzip(std::vector<std::uint8_t> raw, const std::string& name);
// Reads a whole file and applies InflateMaybeGzip. Throws InvalidArgument (naming the file) if
// it cannot be opened or the gzip stream is corrupt or truncated.
std::vector<std::uint8_t> ReadMaybeGzip(const std::string& path);

// One IDX file: dims and the raw bytes. Only type 0x08 (unsigned byte) is accepted.
struct IdxArray {
  std::vector<std::uint32_t> dims;
  std::vector<std::uint8_t> data;
};
IdxArray ParseIdx(const std::vector<std::uint8_t>& bytes, const std::string& name);
IdxArray ReadIdx(const std::string& path);

// images (N×H×W, 3 dims) + labels (N, 1 dim, values < 10) → Dataset. Throws if N differ.
Dataset LoadIdxPair(const std::string& images_path, const std::string& labels_path);
// The pairing check and conversion of LoadIdxPair on arrays already parsed (`images_name` and
// `labels_name` name them in errors; label offsets are in the decompressed labels stream).
Dataset IdxPairToDataset(const IdxArray& images, const std::string& images_name, const IdxArray& labels,
                         const std::string& labels_name);

// MNIST / Fashion-MNIST directory with train-images-idx3-ubyte[.gz], train-labels-idx1-ubyte[.gz],
// t10k-images-idx3-ubyte[.gz], t10k-labels-idx1-ubyte[.gz]; train and t10k are concatenated
// (the 80/20 split of seed 000 is then applied to the whole set).
Dataset LoadMnistDirectory(const std::string& dir);
// The file paths LoadMnistDirectory reads (for hashing), in a fixed order.
std::vector<std::string> MnistFiles(const std::string& dir);

// CIFAR-10 binary batches (data_batch_1..5.bin, test_batch.bin) in `dir`.
Dataset ParseCifarBatch(const std::vector<std::uint8_t>& bytes, const std::string& name);
Dataset LoadCifar10Directory(const std::string& dir);
std::vector<std::string> Cifar10Files(const std::string& dir);

// `n` samples of 10 Gaussian blobs in 8×8 images: class k has a fixed random prototype
// (pixels in [0, 1]) and each sample is prototype + N(0, noise²) per pixel, clamped to [0, 1].
Dataset MakeSynthetic(std::size_t n, std::uint64_t seed, double noise = 0.35);

// A data set by name, as `dpfl train --dataset` and `dpfl bench rounds` take it:
//   fashion-mnist  IDX files in `directory` (default /usr/share/datasets/fashion-mnist, Debian's
//                  dataset-fashion-mnist)
//   mnist          IDX files (default /usr/share/datasets/mnist, written by scripts/install-deps.sh)
//   cifar10        binary batches (default /usr/share/datasets/cifar10; only where a user puts them)
//   synthetic      MakeSynthetic(synthetic_samples, seed); no files
// then, if 0 < max_samples < size, only the first max_samples samples (before any split).
struct DatasetRequest {
  std::string name = "fashion-mnist";
  std::string directory;  // empty: the default above
  std::size_t max_samples = 0;
  std::size_t synthetic_samples = 3000;
  std::uint64_t seed = 1;  // synthetic only
};
struct NamedDataset {
  Dataset data;
  std::string directory;           // where the files were read ("" for synthetic)
  std::vector<std::string> files;  // the files read, in a fixed order (for hashing)
  bool truncated = false;          // max_samples applied
};
// Throws InvalidArgument("--dataset", …) for an unknown name, and the loaders' errors (naming
// the file) for missing or malformed files.
NamedDataset LoadNamedDataset(const DatasetRequest& request);

struct Split {
  Dataset train, validation, test;
};
// 80/20 train/test, then 20 % of train → validation. Throws if the set has < 10 samples.
Split SplitTrainValidationTest(const Dataset& all, std::uint64_t seed);

// IID: n equal shares (⌊N/n⌋ each) of a random permutation of [0, N). Throws if N < n or n = 0.
std::vector<std::vector<std::size_t>> IidShares(std::size_t samples, std::uint32_t n, std::uint64_t seed);
// Non-IID: for each class, proportions ~ Dirichlet(β) over the n clients; β > 0 finite.
std::vector<std::vector<std::size_t>> DirichletShares(const std::vector<std::int64_t>& labels, int classes,
                                                      std::uint32_t n, double beta, std::uint64_t seed);

}  // namespace dpfl::data
