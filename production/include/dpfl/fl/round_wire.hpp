// The bytes of the multi-process round (docs/scaling.md "Wire format"): what the server (rank 0)
// and the client hosts (ranks 1…N−1) send each other over a Channel (remote_fleet.hpp). Every
// frame starts with a kind byte; integers and floats are little-endian, lengths are u32/u64
// counts checked against the bytes left before anything is allocated, and a frame must be
// consumed exactly. A malformed frame is a WireError naming the offset and what was expected —
// never a crash (fuzz/fuzz_round_wire.cc).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dpfl/fl/client_host.hpp"

namespace dpfl::fl::wire {

enum class Kind : std::uint8_t {
  kHello = 1,     // host → server, once: who I am and what I run
  kBegin = 2,     // server → host: round t starts, announce your keys
  kAnnounce = 3,  // host → server: the hosted clients' signed X25519 keys
  kRound = 4,     // server → host: RoundInput
  kOutputs = 5,   // host → server: the present hosted clients' ClientOutputs
  kStop = 6,      // server → host: the run is over
};

class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The frame's kind (first byte); WireError if empty or unknown.
Kind KindOf(std::string_view frame);

struct Hello {
  std::uint32_t protocol = 1;
  std::uint32_t rank = 0;
  std::uint32_t world_size = 0;
  std::string transcript_start;  // h_0 of the host's configuration (TranscriptStart)
  std::string data_sha256;       // of the host's training set (pixels and labels)
  std::vector<std::uint32_t> clients;
  std::uint32_t workers = 1;
};
std::string EncodeHello(const Hello& h);
Hello DecodeHello(std::string_view frame);

std::string EncodeBegin(std::uint32_t round);
std::uint32_t DecodeBegin(std::string_view frame);

std::string EncodeAnnounce(std::uint32_t round, const std::vector<std::pair<std::uint32_t, KeyAnnouncement>>& keys);
std::pair<std::uint32_t, std::vector<std::pair<std::uint32_t, KeyAnnouncement>>> DecodeAnnounce(std::string_view frame);

std::string EncodeRound(const RoundInput& in);
RoundInput DecodeRound(std::string_view frame);

// Outputs of one host; *message_bytes (if given) = the bytes of the clients' uplink (client id,
// lengths, bit words, values, CQ rows), the rest of the frame being the monitor samples and the
// frame header.
std::string EncodeOutputs(std::uint32_t round, const std::vector<ClientOutput>& outputs,
                          std::uint64_t* message_bytes = nullptr);
std::pair<std::uint32_t, std::vector<ClientOutput>> DecodeOutputs(std::string_view frame,
                                                                  std::uint64_t* message_bytes = nullptr);

std::string EncodeStop();

// SHA-256 (hex) of a data set's pixels and labels, for the hello's check that every process
// trains on the same data.
std::string DatasetDigest(const data::Dataset& d);

}  // namespace dpfl::fl::wire
