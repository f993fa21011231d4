// See dpfl/fl/round_wire.hpp.
#include "dpfl/fl/round_wire.hpp"

#include <cstring>
#include <type_traits>

#include "sha256_writer.hpp"

namespace dpfl::fl::wire {
namespace {

class Writer {
 public:
  explicit Writer(Kind kind) { out_.push_back(static_cast<char>(kind)); }
  template <class T>
  void Put(T v) {
    static_assert(std::is_arithmetic_v<T>);
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));  // little-endian hosts only (x86-64, aarch64): see docs/scaling.md
    out_.append(b, sizeof(T));
  }
  template <class T>
  void PutArray(const std::vector<T>& v) {  // u64 count, then the elements
    Put<std::uint64_t>(v.size());
    if (!v.empty()) out_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  void PutBytes(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }
  void PutString(const std::string& s) {
    Put<std::uint32_t>(static_cast<std::uint32_t>(s.size()));
    out_ += s;
  }
  std::size_t size() const { return out_.size(); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(std::string_view frame, Kind expect) : s_(frame) {
    if (KindOf(frame) != expect) Fail("a frame of kind " + std::to_string(static_cast<int>(expect)));
    at_ = 1;
  }
  template <class T>
  T Get(const char* what) {
    Need(sizeof(T), what);
    T v;
    std::memcpy(&v, s_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  bool GetBool(const char* what) {
    const auto b = Get<std::uint8_t>(what);
    if (b > 1) Fail(std::string(what) + " as 0 or 1");
    return b == 1;
  }
  template <class T>
  std::vector<T> GetArray(const char* what) {
    const auto n = Get<std::uint64_t>(what);
    if (n > (s_.size() - at_) / sizeof(T)) Fail(std::string(what) + ": " + std::to_string(n) + " elements");
    std::vector<T> v(static_cast<std::size_t>(n));
    if (n) std::memcpy(v.data(), s_.data() + at_, v.size() * sizeof(T));
    at_ += v.size() * sizeof(T);
    return v;
  }
  void GetBytes(void* p, std::size_t n, const char* what) {
    Need(n, what);
    std::memcpy(p, s_.data() + at_, n);
    at_ += n;
  }
  std::string GetString(const char* what) {
    const auto n = Get<std::uint32_t>(what);
    Need(n, what);
    std::string v(s_.substr(at_, n));
    at_ += n;
    return v;
  }
  // A count of items of at least `min_bytes` each, checked against the bytes left.
  std::uint32_t GetCount(std::size_t min_bytes, const char* what) {
    const auto n = Get<std::uint32_t>(what);
    if (min_bytes > 0 && n > (s_.size() - at_) / min_bytes) Fail(std::string(what) + ": " + std::to_string(n) + " items");
    return n;
  }
  std::size_t offset() const { return at_; }
  void End() const {
    if (at_ != s_.size())
      throw WireError("malformed frame: " + std::to_string(s_.size() - at_) + " trailing bytes at offset " +
                      std::to_string(at_));
  }
  [[noreturn]] void Fail(const std::string& what) const {
    throw WireError("malformed frame: expected " + what + " at offset " + std::to_string(at_) + " of " +
                    std::to_string(s_.size()) + " bytes");
  }

 private:
  void Need(std::size_t n, const char* what) const {
    if (n > s_.size() - at_) Fail(what);
  }
  std::string_view s_;
  std::size_t at_ = 0;
};

void PutAnnouncement(Writer& w, const KeyAnnouncement& a) {
  w.PutBytes(a.public_key.data(), a.public_key.size());
  w.PutBytes(a.signature.data(), a.signature.size());
}
KeyAnnouncement GetAnnouncement(Reader& r) {
  KeyAnnouncement a;
  r.GetBytes(a.public_key.data(), a.public_key.size(), "an X25519 public key");
  r.GetBytes(a.signature.data(), a.signature.size(), "an Ed25519 signature");
  return a;
}

constexpr std::size_t kAnnouncementBytes = 32 + 64;
constexpr std::size_t kSampleBytes = 5 * 8 + 1;

}  // namespace

Kind KindOf(std::string_view frame) {
  if (frame.empty()) throw WireError("malformed frame: empty");
  const auto k = static_cast<std::uint8_t>(frame[0]);
  if (k < 1 || k > 6) throw WireError("malformed frame: unknown kind " + std::to_string(k));
  return static_cast<Kind>(k);
}

std::string EncodeHello(const Hello& h) {
  Writer w(Kind::kHello);
  w.Put(h.protocol);
  w.Put(h.rank);
  w.Put(h.world_size);
  w.PutString(h.transcript_start);
  w.PutString(h.data_sha256);
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(h.clients.size()));
  for (std::uint32_t c : h.clients) w.Put(c);
  w.Put(h.workers);
  return w.Take();
}

Hello DecodeHello(std::string_view frame) {
  Reader r(frame, Kind::kHello);
  Hello h;
  h.protocol = r.Get<std::uint32_t>("the protocol version");
  h.rank = r.Get<std::uint32_t>("the rank");
  h.world_size = r.Get<std::uint32_t>("the world size");
  h.transcript_start = r.GetString("the transcript start");
  h.data_sha256 = r.GetString("the data digest");
  const std::uint32_t n = r.GetCount(4, "the hosted clients");
  for (std::uint32_t k = 0; k < n; ++k) h.clients.push_back(r.Get<std::uint32_t>("a client id"));
  h.workers = r.Get<std::uint32_t>("the worker count");
  r.End();
  return h;
}

std::string EncodeBegin(std::uint32_t round) {
  Writer w(Kind::kBegin);
  w.Put(round);
  return w.Take();
}

std::uint32_t DecodeBegin(std::string_view frame) {
  Reader r(frame, Kind::kBegin);
  const auto t = r.Get<std::uint32_t>("the round");
  r.End();
  return t;
}

std::string EncodeAnnounce(std::uint32_t round, const std::vector<std::pair<std::uint32_t, KeyAnnouncement>>& keys) {
  Writer w(Kind::kAnnounce);
  w.Put(round);
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(keys.size()));
  for (const auto& [client, a] : keys) {
    w.Put(client);
    PutAnnouncement(w, a);
  }
  return w.Take();
}

std::pair<std::uint32_t, std::vector<std::pair<std::uint32_t, KeyAnnouncement>>> DecodeAnnounce(std::string_view frame) {
  Reader r(frame, Kind::kAnnounce);
  const auto round = r.Get<std::uint32_t>("the round");
  const std::uint32_t n = r.GetCount(4 + kAnnouncementBytes, "the announcements");
  std::vector<std::pair<std::uint32_t, KeyAnnouncement>> keys;
  for (std::uint32_t k = 0; k < n; ++k) {
    const auto client = r.Get<std::uint32_t>("a client id");
    keys.emplace_back(client, GetAnnouncement(r));
  }
  r.End();
  return {round, std::move(keys)};
}

std::string EncodeRound(const RoundInput& in) {
  Writer w(Kind::kRound);
  w.Put(in.round);
  w.PutArray(in.c);
  w.PutArray(in.r);
  w.PutArray(in.global);
  const ServerView& v = in.view;
  w.Put(v.round);
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(v.announcements.size()));
  for (const auto& a : v.announcements) PutAnnouncement(w, a);
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(v.pairing.pairs.size()));
  for (const auto& [a, b] : v.pairing.pairs) {
    w.Put(a);
    w.Put(b);
  }
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(v.pairing.solo.size()));
  for (std::uint32_t s : v.pairing.solo) w.Put(s);
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(v.present.size()));
  for (bool p : v.present) w.Put<std::uint8_t>(p ? 1 : 0);
  return w.Take();
}

RoundInput DecodeRound(std::string_view frame) {
  Reader r(frame, Kind::kRound);
  RoundInput in;
  in.round = r.Get<std::uint32_t>("the round");
  in.c = r.GetArray<double>("the layer centres c");
  in.r = r.GetArray<double>("the layer radii r");
  if (in.c.size() != in.r.size()) r.Fail("as many radii as centres");
  in.global = r.GetArray<float>("the global model");
  ServerView& v = in.view;
  v.round = r.Get<std::uint32_t>("the view's round");
  if (v.round != in.round) r.Fail("the view's round equal to the round");
  const std::uint32_t n = r.GetCount(kAnnouncementBytes, "the announcements");
  for (std::uint32_t k = 0; k < n; ++k) v.announcements.push_back(GetAnnouncement(r));
  const std::uint32_t pairs = r.GetCount(8, "the pairs");
  for (std::uint32_t k = 0; k < pairs; ++k) {
    const auto a = r.Get<std::uint32_t>("a pair's first client");
    const auto b = r.Get<std::uint32_t>("a pair's second client");
    if (a >= n || b >= n || a == b) r.Fail("a pair of two distinct client ids below " + std::to_string(n));
    v.pairing.pairs.emplace_back(a, b);
  }
  const std::uint32_t solo = r.GetCount(4, "the solo clients");
  for (std::uint32_t k = 0; k < solo; ++k) {
    const auto s = r.Get<std::uint32_t>("a solo client");
    if (s >= n) r.Fail("a solo client id below " + std::to_string(n));
    v.pairing.solo.push_back(s);
  }
  const std::uint32_t present = r.GetCount(1, "the presence flags");
  if (present != n) r.Fail("one presence flag per announcement");
  for (std::uint32_t k = 0; k < present; ++k) v.present.push_back(r.GetBool("a presence flag"));
  r.End();
  return in;
}

std::string EncodeOutputs(std::uint32_t round, const std::vector<ClientOutput>& outputs, std::uint64_t* message_bytes) {
  Writer w(Kind::kOutputs);
  w.Put(round);
  w.Put<std::uint32_t>(static_cast<std::uint32_t>(outputs.size()));
  std::uint64_t uplink = 0;
  for (const ClientOutput& o : outputs) {
    const std::size_t before = w.size();
    w.Put(o.client);
    w.PutArray(o.message.bits);
    w.PutArray(o.message.values);
    w.PutArray(o.weights);
    uplink += w.size() - before;
    w.Put<std::uint8_t>(o.idle ? 1 : 0);
    w.Put(o.loss);
    w.Put(o.encode_seconds);
    w.Put<std::uint32_t>(static_cast<std::uint32_t>(o.monitor.size()));
    for (const MonitorSample& s : o.monitor) {
      w.Put(s.w_clipped);
      w.Put(s.c);
      w.Put(s.r);
      w.Put<std::uint8_t>(s.plus ? 1 : 0);
      w.Put(s.noise);
      w.Put(s.noise_scale);
    }
  }
  if (message_bytes) *message_bytes = uplink;
  return w.Take();
}

std::pair<std::uint32_t, std::vector<ClientOutput>> DecodeOutputs(std::string_view frame, std::uint64_t* message_bytes) {
  Reader r(frame, Kind::kOutputs);
  const auto round = r.Get<std::uint32_t>("the round");
  const std::uint32_t n = r.GetCount(4 + 3 * 8 + 1 + 2 * 8 + 4, "the client outputs");
  std::vector<ClientOutput> outputs(n);
  std::uint64_t uplink = 0;
  for (ClientOutput& o : outputs) {
    const std::size_t before = r.offset();
    o.client = r.Get<std::uint32_t>("a client id");
    o.message.client = o.client;
    o.message.bits = r.GetArray<std::uint64_t>("the message's bit words");
    o.message.values = r.GetArray<float>("the message's values");
    o.weights = r.GetArray<float>("the client's row (CQ)");
    uplink += r.offset() - before;
    o.idle = r.GetBool("the idle flag");
    o.loss = r.Get<double>("the training loss");
    o.encode_seconds = r.Get<double>("the encoding time");
    const std::uint32_t samples = r.GetCount(kSampleBytes, "the monitor samples");
    for (std::uint32_t k = 0; k < samples; ++k) {
      MonitorSample s;
      s.w_clipped = r.Get<double>("a monitor sample");
      s.c = r.Get<double>("a monitor sample");
      s.r = r.Get<double>("a monitor sample");
      s.plus = r.GetBool("a monitor sample's bit");
      s.noise = r.Get<double>("a monitor sample");
      s.noise_scale = r.Get<double>("a monitor sample");
      o.monitor.push_back(s);
    }
  }
  r.End();
  if (message_bytes) *message_bytes = uplink;
  return {round, std::move(outputs)};
}

std::string EncodeStop() { return Writer(Kind::kStop).Take(); }

std::string DatasetDigest(const data::Dataset& d) {
  internal::Sha256Writer h;
  h.Label("dpfl-dataset-v1");
  h.U32(static_cast<std::uint32_t>(d.channels));
  h.U32(static_cast<std::uint32_t>(d.height));
  h.U32(static_cast<std::uint32_t>(d.width));
  h.U32(static_cast<std::uint32_t>(d.classes));
  h.U64(d.images.size());
  h.Bytes(d.images.data(), d.images.size() * sizeof(float));  // host byte order: both ends are little-endian
  h.U64(d.labels.size());
  h.Bytes(d.labels.data(), d.labels.size() * sizeof(std::int64_t));
  return h.Hex();
}

}  // namespace dpfl::fl::wire
