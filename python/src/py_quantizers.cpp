// dpfl._dpfl.quantizers — the production encoders on a float32 buffer, read in place (no copy):
// numpy arrays through the buffer protocol, torch CPU tensors through dpfl/quantizers.py's
// `tensor.numpy()` (which shares the tensor's memory). The message keeps the address the encoder
// read (`source_address`) so that tests can prove it was the caller's memory.
//
// Keys: an int seed expanded as `dpfl sample --seed` does (quant::SampleKeyFromSeed), or 32 bytes
// (key words little-endian). Stream addresses as in C++: (round, client[, pair]); generator
// "chacha20" or "philox". The GIL is released while encoding.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <string>
#include <vector>

#include "dpfl/error.hpp"
#include "dpfl/fl/quantized_gaussian.hpp"
#include "dpfl/quant/binary_quantizer.hpp"
#include "dpfl/quant/cepam.hpp"
#include "dpfl/quant/randomized_response.hpp"
#include "dpfl/quant/sampling.hpp"
#include "py_bindings.hpp"

namespace py = pybind11;

namespace dpfl::python {
namespace {

struct Message {
  std::vector<std::uint64_t> words;
  std::size_t size = 0;              // coordinates
  std::uint64_t bit_count = 0;       // bits on the wire
  std::uintptr_t source_address = 0;
  quant::StreamContext ctx;          // what the decoder needs of the stream (CEPAM's shared dither)
  std::uint32_t client = 0;
  py::array_t<std::uint8_t> Bits() const {  // little-endian bytes of the packed words, ⌈bits/8⌉ of them
    py::array_t<std::uint8_t> out(static_cast<py::ssize_t>((bit_count + 7) / 8));
    std::memcpy(out.mutable_data(), words.data(), static_cast<std::size_t>(out.size()));
    return out;
  }
  bool Bit(std::size_t j) const { return (words[j / 64] >> (j % 64)) & 1u; }
};

// A read-only float32 view of `x` without a copy: C-contiguous float32 only (TypeError otherwise,
// naming what to do).
std::span<const float> View(const py::buffer& x, std::uintptr_t* address) {
  const py::buffer_info info = x.request();
  if (info.format != py::format_descriptor<float>::format() || info.itemsize != 4)
    throw py::type_error("x: expected float32 data (numpy float32 array or torch.float32 CPU tensor), got format '" +
                         info.format + "'");
  py::ssize_t expected = info.itemsize;
  for (py::ssize_t d = info.ndim - 1; d >= 0; --d) {
    if (info.shape[static_cast<std::size_t>(d)] > 1 && info.strides[static_cast<std::size_t>(d)] != expected)
      throw py::type_error("x: expected C-contiguous data (call .contiguous() / np.ascontiguousarray first)");
    expected *= info.shape[static_cast<std::size_t>(d)];
  }
  *address = reinterpret_cast<std::uintptr_t>(info.ptr);
  return {static_cast<const float*>(info.ptr), static_cast<std::size_t>(info.size)};
}

quant::StreamContext Context(const py::object& key, std::uint32_t round, const std::string& generator) {
  quant::StreamContext ctx;
  if (generator == "chacha20") ctx.generator = rng::Generator::kChaCha20;
  else if (generator == "philox") ctx.generator = rng::Generator::kPhilox4x32;
  else throw InvalidArgument("generator", "must be chacha20 or philox, got '" + generator + "'");
  if (py::isinstance<py::bytes>(key)) {
    const std::string b = py::cast<std::string>(key);
    if (b.size() != 32) throw InvalidArgument("key", "must be an int seed or 32 bytes, got " + std::to_string(b.size()) + " bytes");
    for (int i = 0; i < 8; ++i) std::memcpy(&ctx.key.words[static_cast<std::size_t>(i)], b.data() + 4 * i, 4);
  } else if (py::isinstance<py::int_>(key) && !py::isinstance<py::bool_>(key)) {
    std::uint64_t seed = 0;
    try {
      seed = py::cast<std::uint64_t>(key);
    } catch (const py::cast_error&) {
      throw InvalidArgument("key", "an int seed must be in [0, 2^64 - 1]");
    }
    ctx.key = quant::SampleKeyFromSeed(seed);
  } else {
    throw py::type_error("key: expected an int seed or 32 bytes");
  }
  ctx.round = round;
  return ctx;
}

class Binary {
 public:
  Binary(double eps, double c, double r) : levels_(quant::MakeBinaryLevels(eps, c, r)) {}
  // kind 0 LDPQ, 1 CorBinQ, 2 CoQ (p_x), role 0 Q1/Alice, 1 Q2/Bob.
  Message Encode(int kind, const py::buffer& x, const py::object& key, std::uint32_t round, std::uint32_t client,
                 std::uint32_t pair, int d, int role, double px, const std::string& generator, int threads) const {
    Message msg;
    const std::span<const float> w = View(x, &msg.source_address);
    const quant::StreamContext ctx = Context(key, round, generator);
    msg.size = msg.bit_count = w.size();
    msg.words.assign((w.size() + 63) / 64, 0);
    const quant::PairRole pr = role == 0 ? quant::PairRole::kQ1 : quant::PairRole::kQ2;
    py::gil_scoped_release release;
    if (kind == 0) quant::EncodeLdpq(levels_, w, ctx, client, msg.words, threads);
    else if (kind == 1) quant::EncodeCorBinQ(levels_, w, d, pr, ctx, pair, client, msg.words, threads);
    else quant::EncodeCoq(levels_, w, d, pr, px, ctx, pair, client, msg.words, threads);
    return msg;
  }
  py::array_t<float> Decode(const Message& m) const {
    py::array_t<float> out(static_cast<py::ssize_t>(m.size));
    float* p = out.mutable_data();
    const float lo = static_cast<float>(levels_.c - levels_.r * levels_.alpha);
    const float hi = static_cast<float>(levels_.c + levels_.r * levels_.alpha);
    for (std::size_t j = 0; j < m.size; ++j) p[j] = m.Bit(j) ? hi : lo;
    return out;
  }
  double alpha() const { return levels_.alpha; }

 private:
  quant::BinaryLevels levels_;
};

class Bnn {
 public:
  Bnn(bool stochastic, double gamma) : stochastic_(stochastic), rr_(quant::MakeRandomizedResponse(gamma)) {}
  // mode 0: StoSign (or Sign) only; 1: RR of the signs of x (x = ±1); 2: the upload, bin then RR.
  Message Encode(int mode, const py::buffer& x, const py::object& key, std::uint32_t round, std::uint32_t client,
                 const std::string& generator, int threads) const {
    Message msg;
    const std::span<const float> w = View(x, &msg.source_address);
    const quant::StreamContext ctx = Context(key, round, generator);
    msg.size = msg.bit_count = w.size();
    msg.words.assign((w.size() + 63) / 64, 0);
    const quant::Binarizer b = stochastic_ ? quant::Binarizer::kStoSign : quant::Binarizer::kSign;
    py::gil_scoped_release release;
    if (mode == 0) quant::Binarize(b, w, ctx, client, msg.words, threads);
    else if (mode == 1) quant::EncodeBnnUpload(quant::Binarizer::kSign, &rr_, w, ctx, client, msg.words, threads);
    else quant::EncodeBnnUpload(b, &rr_, w, ctx, client, msg.words, threads);
    return msg;
  }
  static py::array_t<float> Decode(const Message& m) {
    py::array_t<float> out(static_cast<py::ssize_t>(m.size));
    float* p = out.mutable_data();
    for (std::size_t j = 0; j < m.size; ++j) p[j] = m.Bit(j) ? 1.0f : -1.0f;
    return out;
  }

 private:
  bool stochastic_;
  quant::RandomizedResponse rr_;
};

// The quantized Gaussian of seed 003 (dpfl/fl/quantized_gaussian.hpp): ℓ2 clip of the whole
// vector to C/2, the grid, exact discrete Gaussian noise, stochastic rounding to K levels.
class Qgauss {
 public:
  Qgauss(double sigma, std::uint32_t levels, double clip) {
    fl::QgaussConfig cfg;
    cfg.sigma = sigma;
    cfg.levels = levels;
    cfg.clip = clip;
    grid_ = fl::MakeQgaussGrid(cfg);
  }
  Message Encode(const py::buffer& x, const py::object& key, std::uint32_t round, std::uint32_t client,
                 const std::string& generator, int threads) const {
    Message msg;
    const std::span<const float> w = View(x, &msg.source_address);
    const quant::StreamContext ctx = Context(key, round, generator);
    py::gil_scoped_release release;
    const std::vector<std::int64_t> q = fl::QgaussClipToGrid(grid_, w);
    fl::QgaussMessage m = fl::QgaussEncode(grid_, q, ctx, client, threads);
    msg.size = m.size;
    msg.bit_count = m.size * grid_.index_bits;
    msg.words = std::move(m.words);
    return msg;
  }
  py::array_t<float> Decode(const Message& m) const {
    fl::QgaussMessage qm;
    qm.size = m.size;
    qm.words = m.words;
    py::array_t<float> out(static_cast<py::ssize_t>(m.size));
    fl::QgaussDecode(grid_, qm, std::span<float>(out.mutable_data(), m.size));
    return out;
  }
  double implemented_sigma() const { return grid_.implemented_sigma; }

 private:
  fl::QgaussGrid grid_;
};

// CEPAM / layered RSUQ (seed 002, dpfl/quant/cepam.hpp) on the whole vector, cut in blocks of n.
class Cepam {
 public:
  Cepam(const std::string& noise, int n, double scale, double c, double clip) {
    if (noise == "gaussian") cfg_.kind = quant::CepamKind::kGaussian;
    else if (noise == "laplace") cfg_.kind = quant::CepamKind::kLaplace;
    else throw InvalidArgument("noise", "must be gaussian or laplace, got '" + noise + "'");
    cfg_.n = n;
    cfg_.scale = scale;
    cfg_.c = c;
    cfg_.clip = clip;
    quant::ValidateCepamConfig(cfg_);
  }
  Message Encode(const py::buffer& x, const py::object& key, std::uint32_t round, std::uint32_t client,
                 const std::string& generator) const {
    Message msg;
    const std::span<const float> w = View(x, &msg.source_address);
    msg.ctx = Context(key, round, generator);
    msg.client = client;
    quant::CepamMessage m;
    try {
      py::gil_scoped_release release;
      m = quant::CepamEncode(cfg_, w, msg.ctx, client);
    } catch (const std::runtime_error& e) {
      // The codec's configuration errors found while encoding (a layer's candidate set too large
      // for the clip: the noise scale far below it) are bad arguments for the caller.
      throw InvalidArgument(cfg_.kind == quant::CepamKind::kGaussian ? "sigma" : "b", e.what());
    }
    msg.size = m.m;
    msg.bit_count = m.bits;
    msg.words = std::move(m.words);
    return msg;
  }
  py::array_t<float> Decode(const Message& m) const {
    quant::CepamMessage cm;
    cm.words = m.words;
    cm.bits = m.bit_count;
    cm.m = m.size;
    std::vector<double> y(m.size);
    quant::CepamDecode(cfg_, cm, m.ctx, m.client, y);
    py::array_t<float> out(static_cast<py::ssize_t>(m.size));
    for (std::size_t j = 0; j < m.size; ++j) out.mutable_data()[j] = static_cast<float>(y[j]);
    return out;
  }

 private:
  quant::CepamConfig cfg_;
};

}  // namespace

void BindQuantizers(py::module_ m) {
  py::class_<Message>(m, "Message")
      .def_property_readonly("bits", &Message::Bits)
      .def_readonly("size", &Message::size)
      .def_readonly("bit_count", &Message::bit_count)
      .def_readonly("source_address", &Message::source_address);
  py::class_<Binary>(m, "Binary")
      .def(py::init<double, double, double>(), py::arg("eps"), py::arg("c"), py::arg("r"))
      .def("encode", &Binary::Encode)
      .def("decode", &Binary::Decode)
      .def_property_readonly("alpha", &Binary::alpha);
  py::class_<Qgauss>(m, "Qgauss")
      .def(py::init<double, std::uint32_t, double>(), py::arg("sigma"), py::arg("levels"), py::arg("clip"))
      .def("encode", &Qgauss::Encode)
      .def("decode", &Qgauss::Decode)
      .def_property_readonly("implemented_sigma", &Qgauss::implemented_sigma);
  py::class_<Cepam>(m, "Cepam")
      .def(py::init<const std::string&, int, double, double, double>())
      .def("encode", &Cepam::Encode)
      .def("decode", &Cepam::Decode);
  py::class_<Bnn>(m, "Bnn")
      .def(py::init<bool, double>(), py::arg("stochastic"), py::arg("gamma"))
      .def("encode", &Bnn::Encode)
      .def_static("decode", &Bnn::Decode);
}

}  // namespace dpfl::python
